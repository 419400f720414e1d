"""bench/bench_bots.py refuses a number of games it cannot take a rate over, with a clear
argparse error instead of a ZeroDivisionError."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_bots.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_bots", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("games", "message"),
    [
        ("0", "games must be >= 1, got 0"),
        ("-3", "games must be >= 1, got -3"),
        ("two", "'two' is not a whole number"),
    ],
)
def test_games_below_one_is_a_usage_error(
    games: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        _bench().main(["--games", games, "--editions", "classic", "--no-tools"])
    assert stop.value.code == 2  # argparse's usage error, before any game is played
    err = capsys.readouterr().err
    assert "argument --games" in err and message in err


def test_one_game_runs(capsys: pytest.CaptureFixture[str]) -> None:
    _bench().main(["--games", "1", "--editions", "classic", "--no-tools"])
    out = capsys.readouterr().out
    assert "property classic  4 heuristics:" in out and "0 unfinished" in out

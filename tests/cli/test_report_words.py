"""What ``parlor simulate`` and ``parlor analyze`` print (issue 20, "The terminal game": "parlor
simulate shows the raw id empty_hand. parlor analyze prints a 170-column table and a second run
silently overwrites out/analysis/")."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlor.cli import main


def test_simulate_names_how_games_ended_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sim"
    args = ["--game", "tools", "--games", "6", "--no-plots", "--no-progress", "--out", str(out)]
    assert main(["simulate", *args]) == 0
    text = capsys.readouterr().out
    assert "How games ended" in text
    assert "empty hand" in text and "empty_hand" not in text
    # the data keep the id (summary.json is read by programs)
    assert '"empty_hand"' in (out / "summary.json").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "extra",
    [
        ["--edition", "matador"],  # (kroner: the widest rents)
        ["--edition", "classic", "--cards", "cycling", "--orders", "2", "--jail", "leave"],
    ],
)
def test_analyze_fits_80_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    assert main(["analyze", *extra, "--no-plot", "--out", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) > 80
    too_wide = [line for line in lines if len(line) > 80]
    assert not too_wide, too_wide[:3]


def test_a_second_analysis_never_overwrites_the_first_unsaid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    quick = ["analyze", "--jail", "leave", "--per", "turn", "--no-plot"]
    assert main(quick) == 0
    assert main([*quick, "--edition", "matador"]) == 0
    runs = sorted((tmp_path / "out").iterdir())
    assert len(runs) == 2 and all(r.name.startswith("analysis-") for r in runs)
    assert {
        (r / "squares.csv").read_text(encoding="utf-8").count("Rådhuspladsen") for r in runs
    } == {
        0,
        1,
    }
    capsys.readouterr()
    # a folder named with --out is the user's choice: replaced, and said so
    assert main([*quick, "--out", str(runs[0])]) == 0
    said = capsys.readouterr().out
    assert "replaced what an earlier run had written there: squares.csv, rents.csv" in said

"""Simulations: same seeds give the same rows on any backend; caps, outputs, plots and the CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from parlor.bots.registry import REGISTRY, register
from parlor.cli import simulate_cmd
from parlor.core.game import Game
from parlor.sim import CAPPED, GameSpec, bot_seed, report, run_game, run_many
from parlor.stats import wilson

for _module in ("pyarrow", "matplotlib", "rich", "tqdm"):
    pytest.importorskip(_module, reason=f"{_module} is missing: pip install 'parlor[sim]'")

# Small but real: classic games stop at the cap of 400 decisions, the Matador quick game ends
# after 15 rounds (random bots would call time at once, so calling time is off), TOOLS games end.
PROPERTY = GameSpec(
    game="monopoly", edition="classic", players=3, bots=("random",), max_decisions=400
)
SHORT = GameSpec(
    game="monopoly",
    edition="matador",
    players=3,
    bots=("random",),
    options={"variant": "quick", "time_limit_rounds": 15, "time_call_allowed": False},
    max_decisions=4000,
)
TOOLS = GameSpec(game="tools", players=4, bots=("random",), max_decisions=2000)
MIXED = GameSpec(
    game="monopoly", edition="classic", players=3, bots=("heuristic", "random", "heuristic")
)
SEARCH = GameSpec(
    game="tools",
    players=3,
    bots=("search", "heuristic", "random"),
    bot_options={"search": {"simulations": 4}},
)
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    "spec",
    [PROPERTY, SHORT, TOOLS, MIXED, SEARCH],
    ids=["classic", "matador", "tools", "heuristic", "search"],
)
def test_same_seeds_same_rows_with_one_or_two_workers(spec: GameSpec) -> None:
    for name in spec.bots:
        if name not in REGISTRY[spec.game]:
            pytest.skip(f"no {name!r} bot registered for {spec.game} yet")
    one = run_many(spec, 6, base_seed=11, workers=1, progress=False)
    two = run_many(spec, 6, base_seed=11, workers=2, progress=False, chunk_size=1)
    assert one == two
    assert [r.index for r in one] == list(range(6))
    assert [r.seed for r in one] == list(range(11, 17))
    # A game alone, out of its run, is the same game.
    assert run_game(spec, 14, 3) == one[3]
    assert len({r.decisions for r in one} | {r.reason for r in one}) > 1 or spec is PROPERTY


def test_local_and_ray_local_mode_give_the_same_rows() -> None:
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'parlor[ray]')")
    local = run_many(SHORT, 4, base_seed=5, workers=1, progress=False)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        remote = run_many(
            SHORT, 4, base_seed=5, workers=2, backend="ray", progress=False, chunk_size=1
        )
    finally:
        ray.shutdown()
    assert remote == local


def test_bot_seeds_are_derived_from_game_seed_and_seat() -> None:
    record = run_game(TOOLS, 3)
    assert record.bot_seeds == tuple(bot_seed(3, s) for s in range(4))
    assert len(set(record.bot_seeds)) == 4
    assert bot_seed(3, 0) != bot_seed(4, 0)


def test_capped_games_are_counted_as_capped() -> None:
    spec = GameSpec(game="monopoly", edition="latam", players=2, bots=("random",), max_decisions=30)
    records = run_many(spec, 3, workers=1, progress=False)
    assert all(r.capped and r.reason == CAPPED and r.decisions == 30 for r in records)
    assert all(r.winners == () and r.winner == -1 for r in records)
    summary = report.summarize(records, spec)
    assert summary["capped"] == 3 and summary["ended"] == 0
    assert summary["end_reasons"] == {CAPPED: 3}
    assert summary["length"]["turns"]["n"] == 0
    assert all(s["wins"] == 0 for s in summary["seats"])


def test_games_that_end_record_winner_reason_and_board() -> None:
    records = run_many(SHORT, 3, base_seed=2, workers=1, progress=False)
    for r in records:
        assert not r.capped and r.reason in ("time_limit", "bankruptcy", "first_bankruptcy")
        assert r.winners and len(r.scores) == 3 and sorted(r.ranking) == [0, 1, 2]
        assert r.rounds >= 1 and r.turns >= r.rounds
        assert len(r.landings) == 40 and sum(r.landings) > 0
        assert len(r.rent) == 40


def test_rent_is_credited_to_property_squares_only_even_when_claimed() -> None:
    from parlor.monopoly import load_edition

    edition = load_edition("classic")
    spec = GameSpec(
        game="monopoly",
        edition="classic",
        players=4,
        bots=("random",),
        options={"rent_claim": True},
        max_decisions=1500,
    )
    records = run_many(spec, 3, workers=1, progress=False)
    assert sum(sum(r.rent) for r in records) > 0
    for r in records:
        for sq, amount in enumerate(r.rent):
            if amount:
                assert edition.squares[sq].is_property, edition.square_name(sq)


def test_tools_game_records_turns_and_no_board() -> None:
    records = run_many(TOOLS, 4, workers=1, progress=False)
    assert {r.reason for r in records} <= {"empty_hand", "blocked", CAPPED}
    for r in records:
        assert r.landings == () and r.rent == ()
        assert r.turns > 0


def test_any_registered_bot_name_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    class FirstLegal:
        name = "first"

        def __init__(self, seed: int | None = None) -> None:
            self.rng = random.Random(seed)

        def choose(self, game: Game[Any], player: int) -> Any:
            return game.legal_actions(player, anytime=False)[0]

    monkeypatch.setitem(REGISTRY, "tools", dict(REGISTRY["tools"]))
    register("tools", "first", FirstLegal)
    spec = GameSpec(game="tools", players=3, bots=("first", "random", "random"), rotate=True)
    records = run_many(spec, 3, workers=1, progress=False)
    assert [r.lineup for r in records] == [
        ("first", "random", "random"),
        ("random", "first", "random"),
        ("random", "random", "first"),
    ]
    summary = report.summarize(records, spec)
    assert {b["bot"]: b["games"] for b in summary["bots"]} == {"first": 3, "random": 6}


def test_tables_summary_and_plots_are_written(tmp_path: Path) -> None:
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    records = run_many(SHORT, 4, base_seed=1, workers=1, progress=False)
    summary = report.summarize(records, SHORT, base_seed=1)
    paths = report.write_table(records, tmp_path, csv=True)
    assert [p.name for p in paths] == ["games.parquet", "games.csv"]
    table = pq.read_table(tmp_path / "games.parquet")
    assert table.num_rows == 4
    assert table.column("seed").to_pylist() == [1, 2, 3, 4]
    assert table.column("landings").to_pylist()[0] == list(records[0].landings)
    csv = pacsv.read_csv(tmp_path / "games.csv")
    assert csv.num_rows == 4
    assert json.loads(csv.column("lineup").to_pylist()[0]) == ["random"] * 3
    assert csv.column("reason").to_pylist() == [r.reason for r in records]
    report.write_summary(summary, tmp_path)
    assert json.loads((tmp_path / "summary.json").read_text())["games"] == 4
    plots = report.plot_all(records, summary, tmp_path / "plots")
    assert {p.name for p in plots} == {
        "win_rates.png",
        "game_lengths.png",
        "landings.png",
        "rent.png",
    }
    for p in plots:
        data = p.read_bytes()
        assert data.startswith(PNG_MAGIC) and len(data) > 5_000


def test_wilson_interval() -> None:
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    lo, hi = wilson(25, 100)
    assert lo < 0.25 < hi and (round(lo, 4), round(hi, 4)) == (0.1755, 0.343)
    assert wilson(0, 0) == (0.0, 1.0)


def test_cli_runs_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    code = simulate_cmd.main(
        [
            "--game",
            "monopoly",
            "--edition",
            "matador",
            "--variant",
            "quick",
            "--players",
            "3",
            "--option",
            "time_limit_rounds=10",
            "--option",
            "time_call_allowed=false",
            "--bots",
            "random",
            "--games",
            "3",
            "--seed",
            "4",
            "--workers",
            "1",
            "--out",
            str(out),
            "--csv",
            "--no-progress",
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "Win rate per seat" in printed and "How games ended" in printed
    assert "time_limit" in printed
    names = {p.name for p in out.iterdir()}
    assert {
        "games.parquet",
        "games.csv",
        "summary.json",
        "win_rates.png",
        "game_lengths.png",
        "landings.png",
        "rent.png",
    } <= names
    summary = json.loads((out / "summary.json").read_text())
    assert summary["spec"]["options"] == {
        "variant": "quick",
        "time_limit_rounds": 10,
        "time_call_allowed": False,
    }
    assert summary["end_reasons"] == {"time_limit": 3}
    # Which build played (issue 22): here the plain one, whose modules load from .py files.
    assert "build: plain Python" in printed
    assert summary["run"]["build"] == "plain Python"

    code = simulate_cmd.main(
        [
            "--game",
            "tools",
            "--players",
            "3",
            "--games",
            "4",
            "--workers",
            "2",
            "--out",
            str(tmp_path / "t"),
            "--no-plots",
            "--no-progress",
            "--max-decisions",
            "5",
        ]
    )
    assert code == 0
    summary = json.loads((tmp_path / "t" / "summary.json").read_text())
    assert summary["capped"] == 4 and not (tmp_path / "t" / "win_rates.png").exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "random,nobody,random,random"], "unknown bot 'nobody'"),
        (["--edition", "atlantis"], "unknown edition 'atlantis'"),
        (["--option", "no_such_rule=1"], "unknown rule option 'no_such_rule'"),
        (["--bots", "random,random"], "names 2 bots for 4 players"),
        (["--game", "tools", "--variant", "short"], "--variant is for property games"),
        (["--game", "tools", "--edition", "classic"], "TOOLS has no editions"),
        (["--players", "12"], "not 12"),
        (["--option", "oops"], "key=value"),
        (["--bot-option", "nobody.depth=1"], "nobody, who is not in the line-up"),
        (["--bot-option", "depth=1"], "BOT.KEY=VALUE"),
        (["--bot-option", "random.no_such_option=1"], "no_such_option"),
    ],
)
def test_cli_errors_exit_2_with_a_clear_message(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = simulate_cmd.main([*argv, "--games", "1", "--out", str(tmp_path), "--no-progress"])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("parlor simulate: error:") and message in err
    assert not (tmp_path / "games.parquet").exists()

"""The report made from the rows file alone: the same summary and plots as the run's, read in
batches of a row group with only the columns needed, and a clear error for a file that cannot
give one (missing, truncated, damaged, foreign, without settings)."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from parlor.cli import simulate_cmd
from parlor.sim import GameSpec, report, rows, run_many
from parlor.sim.stream import SETTINGS_KEY, TALLY_COLUMNS, RowWriter
from tests.sim.specs import QUICK_MATADOR

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
# TOOLS with rotating seats
TOOLS = GameSpec(game="tools", players=3, bots=("heuristic", "random", "random"), rotate=True)


def _write(spec: GameSpec, n: int, seed: int, out: Path, **sizes: int) -> list[Any]:
    records = run_many(spec, n, base_seed=seed, workers=1, progress=False)
    with RowWriter(out, spec=spec, base_seed=seed, **sizes) as writer:
        for r in records:
            writer.add(r)
    return records


@pytest.mark.parametrize("spec", [QUICK_MATADOR, TOOLS], ids=["matador", "tools"])
def test_the_summary_from_the_file_is_the_summary_of_the_records(
    spec: GameSpec, tmp_path: Path
) -> None:
    # Several row groups and batches smaller than a group: the reading crosses both.
    records = _write(spec, 14, 5, tmp_path, batch_rows=3, row_group_rows=6)
    assert pq.ParquetFile(tmp_path / "games.parquet").num_row_groups == 3
    expected = report.summarize(records, spec, 5)
    opened = rows.open_rows(tmp_path)
    assert (opened.spec, opened.base_seed, opened.run) == (spec, 5, None)
    for batch_rows in (1, 4, 1000):
        assert report.summarize(rows.tally_rows(opened, batch_rows), spec, 5) == expected
    made = rows.make_report(tmp_path / "games.parquet", tmp_path / "again")
    assert made.summary == expected
    assert json.loads((tmp_path / "again" / "summary.json").read_text()) == expected
    if spec.game == "monopoly":  # the board columns were read: rent and landings are there
        assert sum(row["landings"] for row in expected["board"]) > 0
    names = {p.name for p in made.paths}
    board = {"landings.png", "rent.png"} if spec.game == "monopoly" else set()
    assert names == {"summary.json", "win_rates.png", "game_lengths.png"} | board
    for p in made.paths:
        if p.suffix == ".png":
            data = p.read_bytes()
            assert data.startswith(PNG_MAGIC) and len(data) > 5_000


def test_the_plots_from_the_file_are_the_plots_from_the_records(tmp_path: Path) -> None:
    records = _write(QUICK_MATADOR, 6, 2, tmp_path / "rows")
    summary = report.summarize(records, QUICK_MATADOR, 2)
    direct = report.plot_all(records, summary, tmp_path / "direct")
    made = rows.make_report(tmp_path / "rows", tmp_path / "file")
    from_file = [p for p in made.paths if p.suffix == ".png"]
    assert [p.name for p in from_file] == [p.name for p in direct]
    assert [p.read_bytes() for p in from_file] == [p.read_bytes() for p in direct]


def test_only_the_needed_columns_are_read_in_bounded_batches(tmp_path: Path) -> None:
    _write(TOOLS, 9, 1, tmp_path, batch_rows=2, row_group_rows=4)
    opened = rows.open_rows(tmp_path)
    asked: list[tuple[int, tuple[str, ...]]] = []
    real = opened.file

    class Watched:
        """The real file, with the batches it is asked for noted."""

        metadata = real.metadata
        schema_arrow = real.schema_arrow

        def iter_batches(self, batch_size: int, columns: list[str]) -> Any:
            for batch in real.iter_batches(batch_size=batch_size, columns=columns):
                asked.append((batch.num_rows, tuple(batch.schema.names)))
                yield batch

    opened.file = Watched()
    tally = rows.tally_rows(opened, batch_rows=3)
    assert tally.games == 9
    assert all(n <= 3 for n, _ in asked) and sum(n for n, _ in asked) == 9
    # TOOLS rows are read without their (empty) board columns, and without scores or ranking.
    assert {names for _, names in asked} == {
        tuple(c for c in TALLY_COLUMNS if c not in ("landings", "rent"))
    }


def _simulate(*argv: str) -> int:
    return simulate_cmd.main([*argv, "--no-progress"])


@pytest.mark.parametrize(
    "argv",
    [
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
            "heuristic,random,random",
            "--games",
            "5",
        ],
        ["--game", "tools", "--players", "3", "--bots", "heuristic,random,random", "--games", "30"],
    ],
    ids=["matador", "tools"],
)
def test_simulate_and_simulate_from_make_the_same_report(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_dir, again = tmp_path / "run", tmp_path / "again"
    assert _simulate(*argv, "--seed", "3", "--workers", "2", "--out", str(run_dir)) == 0
    capsys.readouterr()
    summary = json.loads((run_dir / "summary.json").read_text())
    # The run's summary is the summary of the same seeds' records, with how the run went.
    spec = rows.open_rows(run_dir).spec
    records = run_many(spec, summary["games"], base_seed=3, workers=1, progress=False)
    assert summary.pop("run")["workers"] == 2
    assert summary == report.summarize(records, spec, 3)

    assert _simulate("--from", str(run_dir), "--out", str(again), "--csv") == 0
    printed = capsys.readouterr().out
    assert "Win rate per seat" in printed
    # (read without whitespace: the report wraps at 80 columns, inside a long temporary path too)
    made_from = f"made from the {summary['games']} rows of {run_dir / 'games.parquet'}"
    assert "".join(made_from.split()) in "".join(printed.split())
    # The same summary.json, "run" and all (it is kept in the file's footer), the same plots.
    assert (again / "summary.json").read_bytes() == (run_dir / "summary.json").read_bytes()
    plots = sorted(p.name for p in run_dir.glob("*.png"))
    assert len(plots) == (4 if "monopoly" in argv else 2)
    for name in plots:
        assert (again / name).read_bytes() == (run_dir / name).read_bytes()
    # --csv writes the CSV the run would have written.
    code = _simulate(*argv, "--seed", "3", "--workers", "1", "--out", str(tmp_path / "c"), "--csv")
    assert code == 0
    capsys.readouterr()
    assert (again / "games.csv").read_bytes() == (tmp_path / "c" / "games.csv").read_bytes()


def test_simulate_from_without_out_writes_beside_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(TOOLS, 4, 0, tmp_path)
    assert not (tmp_path / "summary.json").exists()
    assert _simulate("--from", str(tmp_path / "games.parquet"), "--no-plots") == 0
    assert json.loads((tmp_path / "summary.json").read_text())["games"] == 4
    assert not list(tmp_path.glob("*.png"))


def test_an_old_file_takes_its_settings_from_the_summary_beside_it(tmp_path: Path) -> None:
    records = run_many(TOOLS, 5, base_seed=7, workers=1, progress=False)
    report.write_table(records, tmp_path)  # no settings in the file, as before they were kept
    assert SETTINGS_KEY not in (pq.ParquetFile(tmp_path / "games.parquet").metadata.metadata or {})
    with pytest.raises(rows.RowsFileError, match=r"no summary\.json beside it"):
        rows.open_rows(tmp_path)
    expected = report.summarize(records, TOOLS, 7, extra={"run": {"workers": 2}})
    report.write_summary(expected, tmp_path)
    opened = rows.open_rows(tmp_path)
    assert opened.settings_from == tmp_path / "summary.json"
    assert opened.run == {"workers": 2}
    assert rows.make_report(tmp_path, tmp_path / "again", plots=False).summary == expected
    (tmp_path / "summary.json").write_text('{"games": 5}')
    with pytest.raises(rows.RowsFileError, match="does not hold the settings of a simulation"):
        rows.open_rows(tmp_path)


def _corrupt_settings(path: Path, settings: bytes) -> None:
    table = pq.read_table(path)
    pq.write_table(table.replace_schema_metadata({SETTINGS_KEY: settings}), path)


def _bad_files(tmp: Path) -> dict[str, tuple[Path, str]]:
    """Each kind of file that cannot give a report, and the words its error must say."""
    good = tmp / "good"
    _write(TOOLS, 25, 0, good, row_group_rows=10)
    whole = (good / "games.parquet").read_bytes()
    cases: dict[str, tuple[Path, str]] = {
        "missing": (tmp / "nowhere" / "games.parquet", "no such file"),
        "empty directory": (tmp, "holds no games.parquet"),
        "not a regular file": (tmp / "fifo", "not a regular file"),
    }
    os.mkfifo(tmp / "fifo")
    truncated = tmp / "truncated.parquet"
    truncated.write_bytes(whole[: len(whole) // 2])  # a run killed before the footer
    cases["truncated"] = (truncated, "is not a whole Parquet file")
    text = tmp / "games.csv"
    text.write_text("index,game\n0,tools\n")
    cases["csv"] = (text, "is not a whole Parquet file")
    foreign = tmp / "foreign.parquet"
    pq.write_table(pa.table({"player": ["Ann"], "score": [3]}), foreign)
    cases["foreign"] = (foreign, "is not a table of simulated games: it has no column index")
    retyped = tmp / "retyped.parquet"
    table = pq.read_table(good / "games.parquet")
    table = table.set_column(
        table.schema.get_field_index("turns"), "turns", table.column("turns").cast(pa.string())
    )
    pq.write_table(table, retyped)
    cases["retyped"] = (retyped, "its column turns holds string, not int64")
    damaged = tmp / "damaged.parquet"
    middle = bytearray(whole)
    footer = int.from_bytes(whole[-8:-4], "little") + 8  # (its metadata, length and magic)
    pages = len(whole) - footer
    middle[4:pages] = b"\xff" * (pages - 4)  # every page, not the footer
    damaged.write_bytes(bytes(middle))
    cases["damaged"] = (damaged, "is damaged: its rows cannot be read")
    short_board = tmp / "short_board"
    records = run_many(QUICK_MATADOR, 2, base_seed=0, workers=1, progress=False)
    with RowWriter(short_board, spec=QUICK_MATADOR) as writer:
        writer.add(records[0])
        writer.add(dataclasses.replace(records[1], landings=records[1].landings[:39]))
    cases["a board of 39 squares"] = (short_board, "is damaged: its rows cannot be read")
    for name, settings, words in (
        ("settings not json", b"{nope", "settings stored in"),
        ("settings of another shape", b'{"format": 1, "spec": [1], "base_seed": 0}', "damaged"),
        ("newer format", b'{"format": 99, "spec": {}, "base_seed": 0}', "rows format 99"),
    ):
        path = tmp / f"{name.replace(' ', '_')}.parquet"
        path.write_bytes(whole)
        _corrupt_settings(path, settings)
        cases[name] = (path, words)
    return cases


def test_a_file_that_cannot_give_a_report_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, (path, words) in _bad_files(tmp_path).items():
        with pytest.raises(rows.RowsFileError, match=re.escape(words)):
            rows.make_report(path, tmp_path / "out")
        assert _simulate("--from", str(path), "--out", str(tmp_path / "out")) == 2, name
        err = capsys.readouterr().err
        assert err.startswith("parlor simulate: error:") and words in err, name
        assert "Traceback" not in err
    assert not (tmp_path / "out" / "summary.json").exists()


def test_from_refuses_the_settings_of_a_new_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(TOOLS, 2, 0, tmp_path)
    code = _simulate("--from", str(tmp_path), "--games", "50", "--bots", "heuristic")
    assert code == 2
    err = capsys.readouterr().err
    assert "leave out --bots, --games" in err
    assert not (tmp_path / "summary.json").exists()


def test_a_bad_file_is_reported_by_the_command_in_the_users_language(tmp_path: Path) -> None:
    """A real process: no traceback, exit code 2, the reason in Spanish or Danish."""
    truncated = tmp_path / "games.parquet"
    truncated.write_bytes(b"PAR1" + b"\0" * 100)
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    for lang, words in (
        ("C.UTF-8", "is not a whole Parquet file"),
        ("es_ES.UTF-8", "no es un archivo Parquet completo"),
        ("da_DK.UTF-8", "er ikke en hel Parquet-fil"),
    ):
        told = subprocess.run(
            [sys.executable, "-m", "parlor.cli", "simulate", "--from", str(tmp_path)],
            capture_output=True,
            text=True,
            env={**env, "LANG": lang},
            timeout=120,
            check=False,
        )
        assert told.returncode == 2, told.stderr
        assert words in told.stderr and "Traceback" not in told.stderr
        assert told.stdout == ""

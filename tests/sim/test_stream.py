"""Bounded-memory simulation output: the running tally gives the summary the records give, rows
written in batches equal the table written at once, and records arrive in index order whatever
the order in which the workers finish."""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
from hypothesis import given
from hypothesis import strategies as st

from parlor.sim import ERROR, GameSpec, iter_records, report, run_many, runner
from parlor.sim.stream import IntHistogram, RowWriter, Tally
from tests.sim.specs import QUICK_MATADOR

TOOLS = GameSpec(game="tools", players=3, bots=("random", "heuristic", "random"), rotate=True)


@given(st.lists(st.integers(min_value=0, max_value=60), min_size=1, max_size=80))
def test_histogram_quantiles_equal_sorting(values: list[int]) -> None:
    hist = IntHistogram()
    for v in values:
        hist.add(v)
    for q in (0.0, 0.1, 0.5, 0.9, 0.99, 1.0):
        assert hist.quantile(q) == report.percentile(values, q)
    assert (hist.min(), hist.max(), hist.n) == (min(values), max(values), len(values))
    assert hist.mean() == sum(values) / len(values)


def _naive_lengths(records: list[runner.GameRecord]) -> dict[str, object]:
    ended = [r for r in records if r.reason not in (runner.CAPPED, ERROR)]
    out = {}
    for key in ("turns", "rounds", "decisions"):
        values = [getattr(r, key) for r in ended]
        out[key] = {
            "n": len(values),
            "mean": round(sum(values) / len(values), 2),
            "median": report.percentile(values, 0.5),
            "p10": report.percentile(values, 0.1),
            "p90": report.percentile(values, 0.9),
            "min": min(values),
            "max": max(values),
        }
    return out


def test_tally_summary_equals_the_records_counted_directly() -> None:
    records = run_many(QUICK_MATADOR, 8, base_seed=3, workers=1, progress=False)
    # Two made-up errors: the examples are the lowest indices, in order.
    records += [
        dataclasses.replace(
            records[0], index=20 + k, reason=ERROR, winners=(), winner=-1, error=f"e{k}"
        )
        for k in range(7)
    ]
    tally = Tally(QUICK_MATADOR)
    for r in reversed(records):  # the order records are added in does not matter
        tally.add(r)
    summary = report.summarize(tally, QUICK_MATADOR, 3)
    assert summary == report.summarize(records, QUICK_MATADOR, 3)
    assert summary["length"] == _naive_lengths(records)
    assert [e["index"] for e in summary["error_examples"]] == [20, 21, 22, 23, 24]
    wins = sum(1 for r in records if len(r.winners) == 1)
    assert sum(s["wins"] for s in summary["seats"]) == wins
    landings = [sum(r.landings[sq] for r in records) for sq in range(40)]
    assert [row["landings"] for row in summary["board"]] == landings


def test_rows_written_in_batches_equal_the_whole_table(tmp_path: Path) -> None:
    records = run_many(TOOLS, 11, base_seed=1, workers=1, progress=False)
    with RowWriter(tmp_path, csv=True, batch_rows=3, row_group_rows=6) as writer:
        for r in records:
            writer.add(r)
    assert writer.rows == 11
    file = pq.ParquetFile(tmp_path / "games.parquet")
    assert [file.metadata.row_group(i).num_rows for i in range(file.num_row_groups)] == [6, 5]
    assert file.read().equals(report.records_table(records))
    # The CSV is what writing the whole table at once gives (list columns as JSON text).
    whole = report.records_table(records)
    columns = {
        name: (
            pa.array([json.dumps(v) for v in whole.column(name).to_pylist()], pa.string())
            if pa.types.is_list(whole.column(name).type)
            else whole.column(name)
        )
        for name in whole.column_names
    }
    expected = io.BytesIO()
    pacsv.write_csv(pa.table(columns), expected)
    assert (tmp_path / "games.csv").read_bytes() == expected.getvalue()


def test_plots_from_the_tally_equal_plots_from_the_records(tmp_path: Path) -> None:
    records = run_many(QUICK_MATADOR, 6, base_seed=2, workers=1, progress=False)
    summary = report.summarize(records, QUICK_MATADOR, 2)
    a = report.plot_all(records, summary, tmp_path / "a")
    b = report.plot_all(Tally.of(records, QUICK_MATADOR), summary, tmp_path / "b")
    assert [p.read_bytes() for p in a] == [p.read_bytes() for p in b]


def test_records_come_in_index_order_with_few_batches_in_flight(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(runner, "IN_FLIGHT_PER_WORKER", 1)
    got = list(iter_records(TOOLS, 13, base_seed=4, workers=2, progress=False, chunk_size=2))
    assert [r.index for r in got] == list(range(13))
    assert got == run_many(TOOLS, 13, base_seed=4, workers=1, progress=False)


def test_in_order_yields_by_chunk_whatever_finishes_first() -> None:
    chunks = [[i] for i in range(6)]
    submitted: list[int] = []

    def wait_any(handles: list[int]) -> tuple[list[int], list[int]]:
        last = max(handles)  # the latest submitted finishes first
        return [last], [h for h in handles if h != last]

    def submit(i: int) -> int:
        submitted.append(i)
        return i

    out = list(runner._in_order(chunks, submit, wait_any, lambda h: [h], in_flight=3))
    assert out == [[i] for i in range(6)]
    assert submitted == list(range(6))


def _items_held(obj: object) -> int:
    """How many entries the containers reachable from ``obj`` hold (a size that grows if the
    object keeps something per game)."""
    if isinstance(obj, dict):
        return len(obj) + sum(_items_held(k) + _items_held(v) for k, v in obj.items())
    if isinstance(obj, list | tuple | set):
        return len(obj) + sum(_items_held(v) for v in obj)
    if isinstance(obj, str | int | float | bool | type(None) | GameSpec):
        return 0  # the spec is the run's settings, fixed before the first game
    slots = getattr(type(obj), "__slots__", ())
    attrs = [getattr(obj, a) for a in slots] + list(getattr(obj, "__dict__", {}).values())
    return sum(_items_held(v) for v in attrs)


def test_the_tally_holds_no_more_after_many_games_than_after_a_few() -> None:
    """A million-game run keeps its summary in memory: once every length, reason and error slot
    has been seen, more games add nothing to it."""
    base = run_many(QUICK_MATADOR, 4, base_seed=3, workers=1, progress=False)

    def record(i: int) -> runner.GameRecord:
        r = base[i % len(base)]
        if i % 7 == 0:
            return dataclasses.replace(
                r, index=i, reason=ERROR, winners=(), winner=-1, error=f"e{i}"
            )
        return dataclasses.replace(r, index=i, turns=10 + i % 13, decisions=100 + i % 17)

    tally = Tally(QUICK_MATADOR)
    sizes = {}
    for i in range(5000):
        tally.add(record(i))
        if i + 1 in (500, 5000):
            sizes[i + 1] = _items_held(tally)
    assert tally.games == 5000
    assert sizes[500] == sizes[5000]
    assert len(tally.errors) == 5


@given(st.integers(min_value=0, max_value=300), st.integers(min_value=1, max_value=40))
def test_chunks_cover_every_game_once_in_order(n: int, size: int) -> None:
    chunks = runner.Chunks(n, size)
    assert [i for chunk in chunks for i in chunk] == list(range(n))
    assert all(len(c) == size for c in chunks[:-1])


def test_the_batches_of_a_huge_run_are_not_listed_up_front() -> None:
    """The work of a run is computed batch by batch: a run of 10**12 games costs no more to
    describe than a run of ten (a list of the indices of a million games is tens of MB)."""
    import pickle

    huge = runner._chunks(10**12, 2, None)
    assert len(huge) == 10**12 // 50
    assert huge[-1] == range(10**12 - 50, 10**12)
    assert len(pickle.dumps(huge)) < 200


def test_in_order_keeps_at_most_in_flight_batches_when_the_first_is_slowest() -> None:
    """The first batch finishing last is the worst case for the reorder buffer: finished batches
    wait for it, and no more are submitted while ``in_flight`` are out or waiting."""
    chunks = [[i] for i in range(40)]
    outstanding: set[int] = set()
    waiting_most = 0
    yielded: list[int] = []

    def submit(i: int) -> int:
        outstanding.add(i)
        return i

    def wait_any(handles: list[int]) -> tuple[list[int], list[int]]:
        nonlocal waiting_most
        # Everything but the oldest batch finishes first; the oldest only when alone.
        pick = max(handles) if len(handles) > 1 else handles[0]
        waiting_most = max(waiting_most, len(outstanding))
        return [pick], [h for h in handles if h != pick]

    def result(h: int) -> list[int]:
        return [h]

    for batch in runner._in_order(chunks, submit, wait_any, result, in_flight=4):
        outstanding.discard(batch[0])
        yielded.extend(batch)
    assert yielded == list(range(40))
    assert waiting_most <= 4


def test_row_groups_are_few_whatever_the_batches(tmp_path: Path) -> None:
    """The Parquet writer holds the metadata of every row group until the file is closed, so the
    number of groups is what grows with a run: one per ``row_group_rows`` rows, not one per
    batch (a million games in batches of 2000 made 500 groups and about 9 MiB)."""
    base = run_many(TOOLS, 5, base_seed=2, workers=1, progress=False)
    with RowWriter(tmp_path, batch_rows=2, row_group_rows=10) as writer:
        for i in range(95):
            writer.add(dataclasses.replace(base[i % 5], index=i))
    file = pq.ParquetFile(tmp_path / "games.parquet")
    assert file.num_row_groups == 10
    assert file.metadata.num_rows == 95
    assert file.read().column("index").to_pylist() == list(range(95))

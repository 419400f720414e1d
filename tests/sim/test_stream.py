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

SHORT = GameSpec(
    game="monopoly",
    edition="matador",
    players=3,
    bots=("random", "heuristic", "random"),
    options={"variant": "quick", "time_limit_rounds": 12, "time_call_allowed": False},
    max_decisions=3000,
)
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
    records = run_many(SHORT, 8, base_seed=3, workers=1, progress=False)
    # Two made-up errors: the examples are the lowest indices, in order.
    records += [
        dataclasses.replace(
            records[0], index=20 + k, reason=ERROR, winners=(), winner=-1, error=f"e{k}"
        )
        for k in range(7)
    ]
    tally = Tally(SHORT)
    for r in reversed(records):  # the order records are added in does not matter
        tally.add(r)
    summary = report.summarize(tally, SHORT, 3)
    assert summary == report.summarize(records, SHORT, 3)
    assert summary["length"] == _naive_lengths(records)
    assert [e["index"] for e in summary["error_examples"]] == [20, 21, 22, 23, 24]
    wins = sum(1 for r in records if len(r.winners) == 1)
    assert sum(s["wins"] for s in summary["seats"]) == wins
    landings = [sum(r.landings[sq] for r in records) for sq in range(40)]
    assert [row["landings"] for row in summary["board"]] == landings


def test_rows_written_in_batches_equal_the_whole_table(tmp_path: Path) -> None:
    records = run_many(TOOLS, 11, base_seed=1, workers=1, progress=False)
    with RowWriter(tmp_path, csv=True, batch_rows=3) as writer:
        for r in records:
            writer.add(r)
    assert writer.rows == 11
    file = pq.ParquetFile(tmp_path / "games.parquet")
    assert file.num_row_groups == 4
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
    records = run_many(SHORT, 6, base_seed=2, workers=1, progress=False)
    summary = report.summarize(records, SHORT, 2)
    a = report.plot_all(records, summary, tmp_path / "a")
    b = report.plot_all(Tally.of(records, SHORT), summary, tmp_path / "b")
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

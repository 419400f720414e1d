"""Simulation results in bounded memory: a summary kept up to date game by game, and the table of
games written to Parquet (and CSV) in batches as the games arrive.

A run of a million games never holds its games: :class:`Tally` keeps counts, sums and histograms
of integer lengths (exact medians and percentiles from the counts), and :class:`RowWriter` turns
batches of records into Parquet row groups.

>>> from parlor.sim.runner import GameSpec, run_game
>>> spec = GameSpec(game="tools", players=2, bots=("random",))
>>> tally = Tally(spec)
>>> for seed in range(5):
...     tally.add(run_game(spec, seed, seed))
>>> tally.games, sum(tally.seat_wins.values()) + sum(tally.seat_ties.values()) <= 5
(5, True)
>>> hist = IntHistogram()
>>> for x in (4, 1, 3, 2):
...     hist.add(x)
>>> hist.quantile(0.5), hist.quantile(0.1), hist.min(), hist.max(), hist.mean()
(2.5, 1.3, 1, 4, 2.5)
"""

from __future__ import annotations

import heapq
import json
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from parlor.sim.runner import CAPPED, ERROR, GameRecord, GameSpec

#: Records buffered as Python rows before they are turned into Arrow columns (and CSV lines).
BATCH_ROWS = 2000
#: Rows per Parquet row group. The Parquet writer keeps the metadata of every row group until it
#: writes the file's footer (about 17 KiB of memory a group here), so small groups make memory
#: grow with the run: with a group per 2000 rows a million TOOLS games added about 9 MiB.
#: 10,000-row groups grow five times slower, for at most 10,000 rows held as Arrow columns
#: (about 2 MB of TOOLS rows, 9 MB of property rows).
ROW_GROUP_ROWS = 10_000
#: Errors kept as examples in the summary (the lowest game indices).
ERROR_EXAMPLES = 5
#: The columns of a row that :meth:`Tally.count` takes, in its order (``landings`` and ``rent``
#: only matter for property games).
TALLY_COLUMNS = (
    "index",
    "seed",
    "lineup",
    "winners",
    "reason",
    "error",
    "turns",
    "rounds",
    "decisions",
    "landings",
    "rent",
)
#: The key of the run's settings in the Parquet schema metadata (JSON: the format, the
#: :class:`GameSpec` as a dict and the base seed), and of how it ran (written at the end).
SETTINGS_KEY = b"parlor.sim"
RUN_KEY = b"parlor.sim.run"
#: The version of what :data:`SETTINGS_KEY` holds.
ROWS_FORMAT = 1


class IntHistogram:
    """Counts of integer values: the exact mean, min, max and interpolated quantiles of what was
    added, in memory that grows with the number of distinct values only."""

    __slots__ = ("counts", "n", "total")

    def __init__(self) -> None:
        self.counts: Counter[int] = Counter()
        self.n = 0
        self.total = 0

    def add(self, value: int, count: int = 1) -> None:
        self.counts[value] += count
        self.n += count
        self.total += value * count

    def mean(self) -> float:
        return self.total / self.n

    def min(self) -> int:
        return min(self.counts)

    def max(self) -> int:
        return max(self.counts)

    def _at(self, rank: int) -> int:
        """The value at position ``rank`` (0-based) of the sorted values."""
        seen = 0
        for value in sorted(self.counts):
            seen += self.counts[value]
            if rank < seen:
                return value
        raise IndexError(rank)  # pragma: no cover - rank < n by construction

    def quantile(self, q: float) -> float:
        """The ``q`` quantile with linear interpolation (numpy's default), as
        :func:`parlor.sim.report.percentile` gives over the same values."""
        if not self.n:
            return float("nan")
        pos = (self.n - 1) * q
        lo = math.floor(pos)
        hi = min(lo + 1, self.n - 1)
        a, b = self._at(lo), self._at(hi)
        return float(a + (b - a) * (pos - lo))

    def distribution(self) -> dict[str, float | int | None]:
        if not self.n:
            return dict.fromkeys(("mean", "median", "p10", "p90", "min", "max"), None) | {"n": 0}
        return {
            "n": self.n,
            "mean": round(self.mean(), 2),
            "median": self.quantile(0.5),
            "p10": self.quantile(0.1),
            "p90": self.quantile(0.9),
            "min": self.min(),
            "max": self.max(),
        }


class Tally:
    """The summary of a run, updated one record at a time (:meth:`add`): wins and ties per seat
    and per bot, how games ended, length histograms (per end reason too, for the plot) and, for
    property games, landings and rent per square."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.games = 0
        self.seat_wins: Counter[int] = Counter()
        self.seat_ties: Counter[int] = Counter()
        self.bot_games: Counter[str] = Counter()
        self.bot_wins: Counter[str] = Counter()
        self.bot_ties: Counter[str] = Counter()
        self.reasons: Counter[str] = Counter()
        self.errors: list[tuple[int, int, str]] = []  # a max-heap by index (negated)
        self.turns = IntHistogram()
        self.rounds = IntHistogram()
        self.decisions = IntHistogram()
        #: Turns of the games that ended, per end reason.
        self.turns_by_reason: dict[str, IntHistogram] = {}
        self.landings = [0] * 40
        self.rent = [0] * 40

    @classmethod
    def of(cls, records: Iterable[GameRecord], spec: GameSpec) -> Tally:
        tally = cls(spec)
        for r in records:
            tally.add(r)
        return tally

    def add(self, r: GameRecord) -> None:
        self.count(
            r.index,
            r.seed,
            r.lineup,
            r.winners,
            r.reason,
            r.error,
            r.turns,
            r.rounds,
            r.decisions,
            r.landings,
            r.rent,
        )

    def count(
        self,
        index: int,
        seed: int,
        lineup: Sequence[str],
        winners: Sequence[int],
        reason: str,
        error: str,
        turns: int,
        rounds: int,
        decisions: int,
        landings: Sequence[int],
        rent: Sequence[int],
    ) -> None:
        """Count one game given by the fields of its row (in the order of :data:`TALLY_COLUMNS`):
        a record (:meth:`add`) and a row read back from ``games.parquet``
        (:func:`parlor.sim.rows.tally_rows`) are counted by this same code."""
        self.games += 1
        single = len(winners) == 1
        for seat, bot in enumerate(lineup):
            self.bot_games[bot] += 1
            if seat in winners:
                if single:
                    self.seat_wins[seat] += 1
                    self.bot_wins[bot] += 1
                else:
                    self.seat_ties[seat] += 1
                    self.bot_ties[bot] += 1
        self.reasons[reason] += 1
        if reason == ERROR:
            heapq.heappush(self.errors, (-index, seed, error))
            if len(self.errors) > ERROR_EXAMPLES:
                heapq.heappop(self.errors)  # drops the highest index
        elif reason != CAPPED:
            self.turns.add(turns)
            self.rounds.add(rounds)
            self.decisions.add(decisions)
            hist = self.turns_by_reason.get(reason)
            if hist is None:
                hist = self.turns_by_reason[reason] = IntHistogram()
            hist.add(turns)
        if landings:  # (40 figures for a property game, none for TOOLS)
            self.landings = [a + b for a, b in zip(self.landings, landings, strict=True)]
        if rent:
            self.rent = [a + b for a, b in zip(self.rent, rent, strict=True)]

    @property
    def ended(self) -> int:
        return self.turns.n

    def error_examples(self) -> list[dict[str, Any]]:
        return [
            {"index": -neg, "seed": seed, "error": error}
            for neg, seed, error in sorted(self.errors, reverse=True)
        ]


def row_schema() -> Any:
    """The schema of the table of games (one row per game)."""
    import pyarrow as pa  # type: ignore[import-untyped]

    return pa.schema(
        [
            ("index", pa.int64()),
            ("game", pa.string()),
            ("edition", pa.string()),
            ("seed", pa.int64()),
            ("players", pa.int64()),
            ("lineup", pa.list_(pa.string())),
            ("bot_seeds", pa.list_(pa.int64())),
            ("winners", pa.list_(pa.int64())),
            ("winner", pa.int64()),
            ("winner_bot", pa.string()),
            ("reason", pa.string()),
            ("capped", pa.bool_()),
            ("decisions", pa.int64()),
            ("turns", pa.int64()),
            ("rounds", pa.int64()),
            ("scores", pa.list_(pa.float64())),
            ("ranking", pa.list_(pa.int64())),
            ("landings", pa.list_(pa.int64())),
            ("rent", pa.list_(pa.int64())),
            ("error", pa.string()),
        ]
    )


def settings_metadata(spec: GameSpec, base_seed: int) -> dict[bytes, bytes]:
    """The schema metadata that lets the summary be made again from the file alone."""
    settings = {"format": ROWS_FORMAT, "spec": spec.to_dict(), "base_seed": base_seed}
    return {SETTINGS_KEY: json.dumps(settings, sort_keys=True).encode()}


class RowWriter:
    """Writes records as rows of ``games.parquet`` (and ``games.csv`` with ``csv``) in
    ``out_dir``: every ``batch_rows`` records become Arrow columns (and CSV lines), every
    ``row_group_rows`` rows one Parquet row group. Records must be given in the order the rows
    should have (:func:`parlor.sim.runner.iter_records` yields them by index). Use as a context
    manager, or call :meth:`close`.

    With ``spec`` the run's settings (``spec`` and ``base_seed``) go into the schema metadata,
    and :attr:`run` (how the run went: backend, workers, seconds), if set before closing, into
    the file's footer: :mod:`parlor.sim.rows` makes the summary and the plots from the file."""

    def __init__(
        self,
        out_dir: Path,
        csv: bool = False,
        batch_rows: int = BATCH_ROWS,
        row_group_rows: int = ROW_GROUP_ROWS,
        spec: GameSpec | None = None,
        base_seed: int = 0,
    ) -> None:
        import pyarrow.csv as pacsv  # type: ignore[import-untyped]
        import pyarrow.parquet as pq  # type: ignore[import-untyped]

        out_dir.mkdir(parents=True, exist_ok=True)
        self.schema = row_schema()
        if spec is not None:
            self.schema = self.schema.with_metadata(settings_metadata(spec, base_seed))
        self.paths = [out_dir / "games.parquet"]
        self._parquet = pq.ParquetWriter(self.paths[0], self.schema)
        self._csv: Any = None
        if csv:
            self.paths.append(out_dir / "games.csv")
            self._csv = pacsv.CSVWriter(self.paths[1], csv_schema(self.schema))
        self.batch_rows = batch_rows
        self.row_group_rows = row_group_rows
        self._rows: list[dict[str, Any]] = []
        self._group: list[Any] = []  # Arrow tables of the row group being gathered
        self._group_rows = 0
        self.rows = 0
        #: How the run went, written into the footer on closing (JSON-safe).
        self.run: Mapping[str, Any] | None = None
        self._closed = False

    def add(self, record: GameRecord) -> None:
        self._rows.append(record.to_row())
        if len(self._rows) >= self.batch_rows:
            self._encode()

    def _encode(self) -> None:
        """The buffered rows as Arrow columns: written to the CSV now, kept for the row group."""
        if not self._rows:
            return
        import pyarrow as pa

        table = pa.Table.from_pylist(self._rows, schema=self.schema)
        if self._csv is not None:
            self._csv.write_table(csv_table(table))
        self._group.append(table)
        self._group_rows += table.num_rows
        self.rows += table.num_rows
        self._rows = []
        if self._group_rows >= self.row_group_rows:
            self._write_group()

    def _write_group(self) -> None:
        if not self._group_rows:
            return
        import pyarrow as pa

        group = pa.concat_tables(self._group)
        self._parquet.write_table(group, row_group_size=group.num_rows)
        self._group, self._group_rows = [], 0

    def flush(self) -> None:
        """Write every row given so far (as a row group of its own)."""
        self._encode()
        self._write_group()

    def close(self) -> list[Path]:
        if self._closed:
            return self.paths
        self._closed = True
        self.flush()
        if self.run is not None:
            self._parquet.add_key_value_metadata({RUN_KEY: json.dumps(dict(self.run)).encode()})
        self._parquet.close()
        if self._csv is not None:
            self._csv.close()
        return self.paths

    def __enter__(self) -> RowWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def csv_schema(schema: Any) -> Any:
    import pyarrow as pa

    return pa.schema(
        [
            pa.field(f.name, pa.string()) if pa.types.is_list(f.type) else f
            for f in schema  # list columns are written as JSON text
        ]
    )


def csv_table(table: Any) -> Any:
    """``table`` with its list columns as JSON text (CSV has no lists)."""
    import pyarrow as pa

    columns = {}
    for name in table.column_names:
        column = table.column(name)
        if pa.types.is_list(column.type):
            columns[name] = pa.array([json.dumps(v) for v in column.to_pylist()], pa.string())
        else:
            columns[name] = column
    return pa.table(columns)

"""The report of a run made from its rows file alone, in bounded memory.

``games.parquet`` carries the run's settings in its schema metadata (the :class:`GameSpec`, the
base seed) and how it ran in its footer; :func:`open_rows` reads them back (or, for a file
written before they were stored, the ``summary.json`` beside it), and :func:`make_report`
streams the rows, a batch of a row group at a time and only the columns the summary needs,
into a :class:`~parlor.sim.stream.Tally`, then writes the summary and the plots (and
``games.csv``). ``parlor simulate`` makes its own report this way once the rows are written,
and ``parlor simulate --from`` does it again for an earlier run: there is one way the figures
are computed.

>>> import tempfile
>>> from parlor.sim.runner import GameSpec, run_many
>>> from parlor.sim.report import summarize, write_table
>>> spec = GameSpec(game="tools", players=2, bots=("random",))
>>> records = run_many(spec, 5, base_seed=3, workers=1, progress=False)
>>> with tempfile.TemporaryDirectory() as folder:
...     _ = write_table(records, Path(folder), spec=spec, base_seed=3)
...     rows = open_rows(Path(folder))
...     rows.spec == spec, rows.base_seed, summarize(tally_rows(rows), spec, 3) == summarize(
...         records, spec, 3
...     )
(True, 3, True)
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parlor.core.errors import E_, ParlorError
from parlor.core.files import read_text_limited
from parlor.sim.runner import GameSpec
from parlor.sim.stream import (
    BATCH_ROWS,
    ROWS_FORMAT,
    RUN_KEY,
    SETTINGS_KEY,
    TALLY_COLUMNS,
    Tally,
    csv_schema,
    csv_table,
    row_schema,
)

ROWS_NAME = "games.parquet"
#: A ``summary.json`` read for the settings of an old rows file is at most this long.
SUMMARY_MAX_BYTES = 16 << 20


class RowsFileError(ParlorError):
    """A rows file that cannot give a report: missing, truncated, damaged, or not the table of
    games of ``parlor simulate``."""


@dataclass
class RowsFile:
    """An open ``games.parquet``: its path, the run's settings and how it ran (None when the
    footer does not say: a run stopped early, or a file written by :func:`write_table`)."""

    path: Path
    file: Any  # a pyarrow.parquet.ParquetFile
    spec: GameSpec
    base_seed: int
    run: Mapping[str, Any] | None = None
    #: Where the settings came from: the file's metadata, or the summary.json beside it.
    settings_from: Path | None = field(default=None)

    @property
    def num_rows(self) -> int:
        return int(self.file.metadata.num_rows)


def locate(path: Path) -> Path:
    """``path`` itself, or the ``games.parquet`` in the directory ``path``."""
    shown = str(path)
    if path.is_dir():
        path = path / ROWS_NAME
        if not path.exists():
            raise RowsFileError(E_("{path} holds no {name}", path=shown, name=ROWS_NAME))
    if not path.exists():
        raise RowsFileError(E_("{path}: no such file", path=shown))
    if not path.is_file():
        raise RowsFileError(E_("{path}: not a regular file", path=shown))
    return path


def open_rows(path: Path) -> RowsFile:
    """Open the rows file ``path`` (or the one in the directory ``path``) and read its settings;
    raises :class:`RowsFileError` with the reason when it cannot be used."""
    import pyarrow as pa  # type: ignore[import-untyped]
    import pyarrow.parquet as pq  # type: ignore[import-untyped]

    path = locate(path)
    try:
        with path.open("rb"):
            pass
    except OSError as exc:
        raise RowsFileError(
            E_(
                "cannot read {what} {shown}: {reason}",
                what=E_("file"),
                shown=str(path),
                reason=exc.strerror or exc,
            )
        ) from None
    try:
        file = pq.ParquetFile(path)
        schema = file.schema_arrow
    except (pa.ArrowException, OSError):
        raise RowsFileError(
            E_(
                "{path} is not a whole Parquet file: it is truncated, damaged or of another kind",
                path=str(path),
            )
        ) from None
    _check_columns(path, schema)
    meta = file.metadata.metadata or {}
    settings_from: Path | None = None
    if SETTINGS_KEY in meta:
        settings = _json(path, meta[SETTINGS_KEY])
    else:
        settings_from = path.parent / "summary.json"
        settings = _old_settings(path, settings_from)
    spec, base_seed = _settings(path, settings)
    run = _json(path, meta[RUN_KEY]) if RUN_KEY in meta else settings.get("run")
    if run is not None and not isinstance(run, dict):
        raise RowsFileError(
            E_("the simulation settings stored in {path} are damaged", path=str(path))
        )
    return RowsFile(path, file, spec, base_seed, run, settings_from)


def _check_columns(path: Path, schema: Any) -> None:
    expected = row_schema()
    for name in TALLY_COLUMNS:
        want = expected.field(name).type
        index = schema.get_field_index(name)
        if index < 0:
            raise RowsFileError(
                E_(
                    "{path} is not a table of simulated games: it has no column {column}",
                    path=str(path),
                    column=name,
                )
            )
        got = schema.field(index).type
        if got != want:
            raise RowsFileError(
                E_(
                    "{path} is not a table of simulated games: its column {column} holds "
                    "{found}, not {expected}",
                    path=str(path),
                    column=name,
                    found=str(got),
                    expected=str(want),
                )
            )


def _json(path: Path, data: bytes) -> Any:
    try:
        return json.loads(data)
    except ValueError:
        raise RowsFileError(
            E_("the simulation settings stored in {path} are damaged", path=str(path))
        ) from None


def _old_settings(path: Path, summary: Path) -> Any:
    """The settings of a file written before they were stored in it: from its summary.json."""
    if not summary.is_file():
        raise RowsFileError(
            E_(
                "{path} does not say how its games were set up: its metadata has no simulation "
                "settings and there is no summary.json beside it",
                path=str(path),
            )
        )
    text = read_text_limited(summary, SUMMARY_MAX_BYTES, RowsFileError)
    try:
        data = json.loads(text)
        settings = {"format": ROWS_FORMAT, "spec": data["spec"], "base_seed": data["base_seed"]}
        if isinstance(data.get("run"), dict):
            settings["run"] = data["run"]
        return settings
    except (ValueError, TypeError, KeyError):
        raise RowsFileError(
            E_(
                "{summary} does not hold the settings of a simulation (for {path})",
                summary=str(summary),
                path=str(path),
            )
        ) from None


def _settings(path: Path, settings: Any) -> tuple[GameSpec, int]:
    try:
        version = settings["format"]
        if isinstance(version, int) and version > ROWS_FORMAT:
            raise RowsFileError(
                E_(
                    "{path} was written by a newer Parlor (rows format {found}; this one reads "
                    "up to {known})",
                    path=str(path),
                    found=version,
                    known=ROWS_FORMAT,
                )
            )
        spec = dict(settings["spec"])
        spec["bots"] = tuple(spec["bots"])
        base_seed = settings["base_seed"]
        if not isinstance(base_seed, int):
            raise TypeError(base_seed)
        return GameSpec(**spec), base_seed
    except (TypeError, KeyError, AttributeError):  # a JSON value of the wrong shape
        raise RowsFileError(
            E_("the simulation settings stored in {path} are damaged", path=str(path))
        ) from None


def iter_row_batches(
    rows: RowsFile, columns: list[str], batch_rows: int = BATCH_ROWS
) -> Iterator[Any]:
    """The file's rows as Arrow record batches of at most ``batch_rows`` rows, with ``columns``
    only (the reader decodes one row group at a time)."""
    import pyarrow as pa

    try:
        yield from rows.file.iter_batches(batch_size=batch_rows, columns=columns)
    except (pa.ArrowException, OSError):
        raise RowsFileError(
            E_("{path} is damaged: its rows cannot be read", path=str(rows.path))
        ) from None


def tally_rows(rows: RowsFile, batch_rows: int = BATCH_ROWS) -> Tally:
    """The :class:`Tally` of every row of ``rows``, read batch by batch (TOOLS rows without their
    empty board columns)."""
    tally = Tally(rows.spec)
    board = rows.spec.game == "monopoly"
    columns = [c for c in TALLY_COLUMNS if board or c not in ("landings", "rent")]
    nothing: tuple[int, ...] = ()
    for batch in iter_row_batches(rows, columns, batch_rows):
        data = batch.to_pydict()
        values = [
            data[c] if c in data else itertools.repeat(nothing, batch.num_rows)
            for c in TALLY_COLUMNS
        ]
        try:
            for row in zip(*values, strict=False):
                tally.count(*row)
        except ValueError:  # a board column without its 40 figures
            raise RowsFileError(
                E_("{path} is damaged: its rows cannot be read", path=str(rows.path))
            ) from None
    return tally


def write_csv(rows: RowsFile, out_dir: Path, batch_rows: int = BATCH_ROWS) -> Path:
    """``games.csv`` in ``out_dir`` from the rows file (list columns as JSON text), as
    ``parlor simulate --csv`` writes it during a run."""
    import pyarrow as pa
    import pyarrow.csv as pacsv  # type: ignore[import-untyped]

    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "games.csv"
    schema = rows.file.schema_arrow
    with pacsv.CSVWriter(path, csv_schema(schema)) as writer:
        for batch in iter_row_batches(rows, schema.names, batch_rows):
            writer.write_table(csv_table(pa.Table.from_batches([batch])))
    return path


@dataclass
class Report:
    """What :func:`make_report` made: the summary, the tally it came from and the files."""

    summary: dict[str, Any]
    tally: Tally
    paths: list[Path]


def make_report(
    path: Path,
    out_dir: Path | None = None,
    plots: bool = True,
    csv: bool = False,
    top: int = 15,
) -> Report:
    """Make the report of the run whose rows are in ``path`` (a ``games.parquet`` or its
    directory) from the file alone: ``summary.json``, the PNG plots unless ``plots`` is false,
    and with ``csv`` ``games.csv``, into ``out_dir`` (default: the file's directory)."""
    from parlor.sim import report

    rows = open_rows(path)
    out_dir = out_dir or rows.path.parent
    tally = tally_rows(rows)
    extra = {"run": dict(rows.run)} if rows.run is not None else None
    summary = report.summarize(tally, rows.spec, rows.base_seed, extra=extra)
    paths = []
    if csv:
        paths.append(write_csv(rows, out_dir))
    paths.append(report.write_summary(summary, out_dir))
    if plots:
        paths.extend(report.plot_all(tally, summary, out_dir, top=top))
    return Report(summary, tally, paths)

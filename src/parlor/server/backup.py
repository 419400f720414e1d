"""A consistent copy of a live SQLite database: ``parlor db backup FILE``.

The copy is made with SQLite's online backup API (``sqlite3.Connection.backup``) in one step: it
reads the database inside a single read transaction, so it is the database as it was at one
moment (every transaction committed before that moment, none after), however busy the server
writing it is. In WAL mode a reader never blocks the writer, so the server goes on playing
meanwhile. Every action the server acknowledged before the backup began is in the copy: the
server acknowledges an action only after the transaction holding it has committed.

The copy is written next to its destination under a temporary name, checked
(``PRAGMA quick_check``), turned into a single self-contained file (rollback journal, no WAL
beside it) and then renamed into place, so ``FILE`` is either the old file or a whole copy.

PostgreSQL is not copied this way: ``pg_dump`` does the same job there.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url

from parlor.core.errors import E_


class BackupError(Exception):
    """Why no copy was made (a :class:`~parlor.core.errors.Text`: said in the operator's
    language)."""


@dataclass(frozen=True)
class Copied:
    path: Path
    tables: int
    actions: int
    size: int


def sqlite_path(database_url: str) -> Path:
    """The file behind a SQLite URL; a clear refusal for anything else."""
    url = make_url(database_url)
    backend = url.get_backend_name()
    if backend == "postgresql":
        raise BackupError(
            E_(
                "this is a PostgreSQL database: back it up with pg_dump (for example: "
                "pg_dump --format=custom --file=parlor.dump DBNAME), and restore it with "
                "pg_restore"
            )
        )
    if backend != "sqlite":
        raise BackupError(
            E_("cannot back up a {backend} database (SQLite and PostgreSQL only)", backend=backend)
        )
    if not url.database or url.database == ":memory:":
        raise BackupError(E_("an in-memory SQLite database has no file to back up"))
    return Path(url.database)


def backup(database_url: str, dest: Path, *, overwrite: bool = False) -> Copied:
    """Copy the live SQLite database of ``database_url`` to ``dest`` (see the module's words)."""
    source = sqlite_path(database_url)
    if not source.is_file():
        raise BackupError(E_("no database at {path}", path=str(source)))
    dest = Path(dest)
    if dest.resolve() == source.resolve():
        raise BackupError(E_("the copy cannot be the database itself"))
    if dest.exists() and not overwrite:
        raise BackupError(E_("{path} exists (--force to replace it)", path=str(dest)))
    if not dest.parent.is_dir():
        raise BackupError(E_("no folder {path}", path=str(dest.parent)))
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.partial")
    # (mode=rw: an absent or misspelt file is an error, never an empty database made here)
    src = sqlite3.connect(f"file:{source}?mode=rw", uri=True, timeout=30)
    try:
        src.execute("PRAGMA busy_timeout=30000")
        with contextlib.closing(sqlite3.connect(tmp)) as out:
            # pages=-1: the whole database in one step, inside one read transaction (in steps,
            # every write by the server in between would start the copy over)
            src.backup(out, pages=-1)
            out.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
            checked = out.execute("PRAGMA quick_check").fetchone()[0]
            if checked != "ok":
                raise BackupError(E_("the copy does not check out: {problem}", problem=checked))
            tables = _count(out, "parlor_tables")
            actions = _count(out, "parlor_actions")
        os.replace(tmp, dest)
    except sqlite3.Error as exc:
        raise BackupError(E_("the copy failed: {reason}", reason=str(exc))) from exc
    finally:
        src.close()
        for leftover in (tmp, tmp.with_name(tmp.name + "-journal")):
            leftover.unlink(missing_ok=True)
    return Copied(dest, tables, actions, dest.stat().st_size)


def _count(conn: sqlite3.Connection, table: str) -> int:
    try:
        return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    except sqlite3.OperationalError:  # (not a Parlor database, or one never served)
        return 0

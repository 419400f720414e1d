"""Storage: every read and write the service makes, as short synchronous transactions.

The service calls these through ``Hub.db``: on the event loop for SQLite, from worker threads
for PostgreSQL. SQLite runs in WAL mode (one writer, readers never blocked, a commit survives
the process being killed); PostgreSQL is used the same way, and a commit there also sends
``NOTIFY parlor, '<table>:<version>'`` so that other server processes learn that a table moved
on. The notification carries no state and no secret.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import resources
from typing import Any

import orjson
from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Table, create_engine, event, func, insert, select, text, update
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import IntegrityError

from parlor.server.models import ActionRow, ChatRow, PresenceRow, SeatRow, SnapshotRow, TableRow

NOTIFY_CHANNEL = "parlor"

#: (table id, seq, seat, action as JSON-ready dict, actor): one row of the action log to commit
PendingAction = tuple[str, int, int, dict[str, Any], str]
#: (table id, version, engine fingerprint, digest, state as JSON text): a snapshot to store
Snapshot = tuple[str, int, str, str, str]
#: (table row, seat rows, the action log, when the last action was committed); the table row
#: carries the newest snapshot under "snapshot" (None if there is none), for the loader alone
Loaded = tuple[dict[str, Any], list[dict[str, Any]], list[Any], float | None]

T: Table = TableRow.__table__  # type: ignore[assignment]
S: Table = SeatRow.__table__  # type: ignore[assignment]
A: Table = ActionRow.__table__  # type: ignore[assignment]
C: Table = ChatRow.__table__  # type: ignore[assignment]
P: Table = PresenceRow.__table__  # type: ignore[assignment]
SN: Table = SnapshotRow.__table__  # type: ignore[assignment]


def digest(secret: str) -> str:
    """What is stored of a secret token: its SHA-256, hex."""
    return hashlib.sha256(secret.encode()).hexdigest()


def default_url(path: str = "parlor.db") -> str:
    return f"sqlite:///{path}"


class Store:
    """One database: SQLite (a file, WAL) or PostgreSQL, chosen by the SQLAlchemy URL."""

    def __init__(self, url: str) -> None:
        self.url = make_url(url)
        self.is_postgres = self.url.get_backend_name() == "postgresql"
        if self.is_postgres and self.url.drivername == "postgresql":
            self.url = self.url.set(drivername="postgresql+psycopg")
        kwargs: dict[str, Any] = {}
        if self.is_postgres:
            kwargs.update(pool_size=8, max_overflow=8, pool_pre_ping=True)
        self.engine: Engine = create_engine(self.url, **kwargs)
        #: SQLite: whether the commits leave WAL checkpoints to ``checkpoint`` (see there)
        self.manual_checkpoints = False
        if not self.is_postgres:
            event.listen(self.engine, "connect", self._sqlite_pragmas)
        mark = "%s" if self.is_postgres else "?"
        self._sql_insert_action = (
            "INSERT INTO parlor_actions (table_id, seq, seat, action, actor, created_at) "
            f"VALUES ({', '.join([mark] * 6)})"
        )
        self._sql_bump = (
            f"UPDATE parlor_tables SET version = {mark}, updated_at = {mark} WHERE id = {mark}"
        )
        self._sql_notify = f"SELECT pg_notify({mark}, {mark})"

    # ----- schema ------------------------------------------------------------------------------
    def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision (the migrations ship in the package)."""
        cfg = Config()
        cfg.set_main_option("script_location", str(resources.files("parlor.server") / "migrations"))
        with self.engine.begin() as conn:
            if self.is_postgres:  # two processes starting together: one migrates at a time
                conn.execute(text("SELECT pg_advisory_xact_lock(7261)"))
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    @contextmanager
    def tx(self) -> Iterator[Connection]:
        with self.engine.begin() as conn:
            yield conn

    def _notify(self, conn: Connection, table_id: str, version: int) -> None:
        if self.is_postgres:
            conn.execute(
                text("SELECT pg_notify(:ch, :payload)"),
                {"ch": NOTIFY_CHANNEL, "payload": f"{table_id}:{version}"},
            )

    def _sqlite_pragmas(self, dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a commit survives the process being killed (kill -9); only a power
        # cut can lose the last commits.
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA busy_timeout=10000")
        cur.execute("PRAGMA foreign_keys=ON")
        if self.manual_checkpoints:
            cur.execute("PRAGMA wal_autocheckpoint=0")
        cur.close()

    def leave_checkpoints_to_caller(self) -> None:
        """SQLite: commits stop copying the WAL into the database file themselves (by default
        the commit that fills a thousand pages does, fsync included, while its caller waits);
        from now on the caller runs :meth:`checkpoint` when it sees fit, off its hot path."""
        if not self.is_postgres and not self.manual_checkpoints:
            self.manual_checkpoints = True
            self.engine.dispose()  # (connections made from now on get the pragma)

    def checkpoint(self) -> None:
        """Copy what the WAL holds into the database file, waiting for no reader or writer
        (SQLite's PASSIVE checkpoint; the WAL is then reused from its start). A no-op on
        PostgreSQL. The sqlite3 module lets go of the interpreter lock meanwhile."""
        if not self.is_postgres:
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    # ----- tables and seats --------------------------------------------------------------------
    def create_table(self, row: dict[str, Any], seats: list[dict[str, Any]]) -> None:
        now = time.time()
        with self.tx() as conn:
            conn.execute(insert(T).values(created_at=now, updated_at=now, **row))
            for seat in seats:
                conn.execute(insert(S).values(table_id=row["id"], **seat))

    def table(self, table_id: str) -> dict[str, Any] | None:
        with self.tx() as conn:
            r = conn.execute(select(T).where(T.c.id == table_id)).mappings().first()
            return dict(r) if r else None

    def table_by_invite(self, invite_hash: str) -> dict[str, Any] | None:
        with self.tx() as conn:
            r = conn.execute(select(T).where(T.c.invite_hash == invite_hash)).mappings().first()
            return dict(r) if r else None

    def seats(self, table_id: str) -> list[dict[str, Any]]:
        with self.tx() as conn:
            rows = conn.execute(select(S).where(S.c.table_id == table_id).order_by(S.c.seat))
            return [dict(r) for r in rows.mappings()]

    def load(self, table_id: str) -> Loaded | None:
        """A table, its seats, its whole action log and when its last action was committed
        (None: no action yet), read in one transaction."""
        with self.tx() as conn:
            r = conn.execute(select(T).where(T.c.id == table_id)).mappings().first()
            if r is None:
                return None
            seats = conn.execute(select(S).where(S.c.table_id == table_id).order_by(S.c.seat))
            acts = conn.execute(
                select(A.c.action, A.c.created_at).where(A.c.table_id == table_id).order_by(A.c.seq)
            ).all()
            last_at = float(acts[-1][1]) if acts else None
            snap = conn.execute(select(SN).where(SN.c.table_id == table_id)).mappings().first()
            row = dict(r)
            row["snapshot"] = None if snap is None else dict(snap)
            # A log repeats a few hundred distinct actions ("roll", "end turn" of each seat): each
            # text is parsed once and its table shared (nobody changes them)
            parsed: dict[str, Any] = {}
            log = []
            for a, _ in acts:
                data = parsed.get(a)
                if data is None:
                    data = parsed[a] = json.loads(a)
                log.append(data)
            return (row, [dict(s) for s in seats.mappings()], log, last_at)

    def live_tables(self) -> list[str]:
        with self.tx() as conn:
            rows = conn.execute(select(T.c.id).where(T.c.status.in_(("running", "paused"))))
            return [r for (r,) in rows]

    def lobby(self, limit: int = 100) -> list[dict[str, Any]]:
        with self.tx() as conn:
            rows = conn.execute(
                select(T.c.id, T.c.game, T.c.config, T.c.status, T.c.commitment)
                .where(T.c.listed.is_(True), T.c.status != "over")
                .order_by(T.c.created_at.desc())
                .limit(limit)
            )
            return [dict(r) for r in rows.mappings()]

    def update_meta(
        self,
        table_id: str,
        *,
        table: dict[str, Any] | None = None,
        seats: dict[int, dict[str, Any]] | None = None,
        expect_status: tuple[str, ...] | None = None,
    ) -> bool:
        """Change a table's status/settings and some seats in one transaction; tell the others.

        With ``expect_status`` the change happens only if the table is still in one of those
        states (a seat taken twice at once, a start racing a start): returns whether it happened.
        """
        with self.tx() as conn:
            q = update(T).where(T.c.id == table_id)
            if expect_status is not None:
                q = q.where(T.c.status.in_(expect_status))
            values = dict(table or {})
            values.update(meta_rev=T.c.meta_rev + 1, updated_at=time.time())
            if conn.execute(q.values(**values)).rowcount != 1:
                return False
            for seat, change in (seats or {}).items():
                conn.execute(
                    update(S).where(S.c.table_id == table_id, S.c.seat == seat).values(**change)
                )
            version = conn.execute(select(T.c.version).where(T.c.id == table_id)).scalar_one()
            self._notify(conn, table_id, version)
            return True

    def claim_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> bool:
        """Take a free human seat (no token yet); False if someone took it first."""
        with self.tx() as conn:
            done = conn.execute(
                update(S)
                .where(
                    S.c.table_id == table_id,
                    S.c.seat == seat,
                    S.c.kind == "human",
                    S.c.token_hash.is_(None),
                )
                .values(name=name, token_hash=token_hash)
            ).rowcount
            if done != 1:
                return False
            conn.execute(update(T).where(T.c.id == table_id).values(meta_rev=T.c.meta_rev + 1))
            version = conn.execute(select(T.c.version).where(T.c.id == table_id)).scalar_one()
            self._notify(conn, table_id, version)
            return True

    # ----- who holds which seat in which process (several processes on PostgreSQL) -------------
    def hold_seat(self, table_id: str, seat: int, process: str) -> None:
        """Process ``process`` has a connection for ``seat`` of ``table_id`` (from now on)."""
        now = time.time()
        key = (P.c.table_id == table_id, P.c.seat == seat, P.c.process == process)
        try:
            with self.tx() as conn:
                if conn.execute(update(P).where(*key).values(seen_at=now)).rowcount == 0:
                    conn.execute(
                        insert(P).values(table_id=table_id, seat=seat, process=process, seen_at=now)
                    )
        except IntegrityError:  # a second connection of the same seat got there first: held
            pass

    def release_seat(self, table_id: str, seat: int, process: str) -> None:
        with self.tx() as conn:
            conn.execute(
                P.delete().where(P.c.table_id == table_id, P.c.seat == seat, P.c.process == process)
            )

    def held_elsewhere(self, table_id: str, seat: int, process: str, fresh_since: float) -> bool:
        """Does a live process other than ``process`` hold a connection for this seat?"""
        with self.tx() as conn:
            found = conn.execute(
                select(P.c.process).where(
                    P.c.table_id == table_id,
                    P.c.seat == seat,
                    P.c.process != process,
                    P.c.seen_at >= fresh_since,
                )
            ).first()
            return found is not None

    def heartbeat(self, process: str, stale_before: float) -> None:
        """``process`` is alive: its rows are fresh again; rows of dead processes are removed."""
        with self.tx() as conn:
            conn.execute(update(P).where(P.c.process == process).values(seen_at=time.time()))
            conn.execute(P.delete().where(P.c.seen_at < stale_before))

    def release_process(self, process: str) -> None:
        with self.tx() as conn:
            conn.execute(P.delete().where(P.c.process == process))

    # ----- the action log ----------------------------------------------------------------------
    def append_action(
        self, table_id: str, seq: int, seat: int, action: dict[str, Any], actor: str
    ) -> bool:
        """Commit action number ``seq`` (0-based); False if another writer committed it first."""
        return self.append_actions([(table_id, seq, seat, action, actor)])[0]

    def append_actions(self, rows: list[PendingAction]) -> list[bool]:
        """Commit many tables' next actions in one transaction (group commit); for each row,
        whether it was committed (False: another writer committed that step first).

        One transaction's commit costs the same for one row or a hundred, so the service sends
        every action accepted meanwhile together. A row that lost a race makes the whole batch
        fail: the rows are then committed one by one, so the others still go in.
        """
        # The hot path: plain SQL through the driver (building SQLAlchemy statements for every
        # action cost several times the commit itself).
        now = time.time()
        params = [  # (orjson: the compact JSON json.dumps wrote, a tenth of the time)
            (table_id, seq, seat, orjson.dumps(action).decode(), actor, now)
            for table_id, seq, seat, action, actor in rows
        ]
        try:
            self._insert(params)
            return [True] * len(rows)
        except IntegrityError:
            if len(rows) == 1:
                return [False]
        out = []
        for p in params:
            try:
                self._insert([p])
                out.append(True)
            except IntegrityError:
                out.append(False)
        return out

    def _insert(self, params: list[tuple[Any, ...]]) -> None:
        newest: dict[str, int] = {}
        for table_id, seq, *_ in params:
            newest[table_id] = max(seq + 1, newest.get(table_id, 0))
        now = params[0][-1]
        with self.tx() as conn:
            conn.exec_driver_sql(self._sql_insert_action, params)
            conn.exec_driver_sql(self._sql_bump, [(v, now, t) for t, v in newest.items()])
            if self.is_postgres:
                conn.exec_driver_sql(
                    self._sql_notify, [(NOTIFY_CHANNEL, f"{t}:{v}") for t, v in newest.items()]
                )

    # ----- snapshots ---------------------------------------------------------------------------
    def save_snapshots(self, rows: list[Snapshot]) -> None:
        """Keep each table's newest snapshot (one transaction; an older one never replaces a
        newer, so processes racing on one table leave the newest)."""
        now = time.time()
        with self.tx() as conn:
            for table_id, version, engine, digest, state in rows:
                values = dict(
                    version=version, engine=engine, digest=digest, state=state, created_at=now
                )
                done = conn.execute(
                    update(SN)
                    .where(SN.c.table_id == table_id, SN.c.version < version)
                    .values(**values)
                ).rowcount
                if (
                    done == 0
                    and conn.execute(select(SN.c.version).where(SN.c.table_id == table_id)).first()
                    is None
                ):
                    try:
                        with conn.begin_nested():
                            conn.execute(insert(SN).values(table_id=table_id, **values))
                    except IntegrityError:  # (another process stored one meanwhile)
                        pass

    def snapshot_versions(self) -> dict[str, int]:
        """The version of every stored snapshot, by table."""
        with self.tx() as conn:
            return {t: int(v) for t, v in conn.execute(select(SN.c.table_id, SN.c.version))}

    def actions_since(self, table_id: str, seq: int) -> list[Any]:
        with self.tx() as conn:
            rows = conn.execute(
                select(A.c.action).where(A.c.table_id == table_id, A.c.seq >= seq).order_by(A.c.seq)
            )
            return [json.loads(a) for (a,) in rows]

    def actors(self, table_id: str) -> list[tuple[int, str]]:
        with self.tx() as conn:
            rows = conn.execute(
                select(A.c.seat, A.c.actor).where(A.c.table_id == table_id).order_by(A.c.seq)
            )
            return [(int(s), str(a)) for s, a in rows]

    # ----- chat --------------------------------------------------------------------------------
    def add_chat(self, table_id: str, seat: int | None, name: str, body: str) -> dict[str, Any]:
        now = time.time()
        with self.tx() as conn:
            new_id = conn.execute(
                insert(C)
                .values(table_id=table_id, seat=seat, name=name, text=body, created_at=now)
                .returning(C.c.id)
            ).scalar_one()
            version = conn.execute(select(T.c.version).where(T.c.id == table_id)).scalar_one()
            self._notify(conn, table_id, version)
        return {"id": new_id, "seat": seat, "name": name, "text": body, "at": now}

    def chat_since(self, table_id: str, after_id: int, limit: int = 50) -> list[dict[str, Any]]:
        with self.tx() as conn:
            if after_id < 0:  # the newest ``limit`` messages
                newest = (
                    select(C).where(C.c.table_id == table_id).order_by(C.c.id.desc()).limit(limit)
                )
                rows = list(conn.execute(newest).mappings())[::-1]
            else:
                rows = list(
                    conn.execute(
                        select(C)
                        .where(C.c.table_id == table_id, C.c.id > after_id)
                        .order_by(C.c.id)
                        .limit(limit)
                    ).mappings()
                )
            return [
                {
                    "id": r["id"],
                    "seat": r["seat"],
                    "name": r["name"],
                    "text": r["text"],
                    "at": r["created_at"],
                }
                for r in rows
            ]

    def count_tables(self) -> int:
        with self.tx() as conn:
            return int(conn.execute(select(func.count()).select_from(T)).scalar_one())


Listener = Callable[[str, int], None]


def listen(store: Store, on_notify: Listener, stop: threading.Event) -> None:
    """Block, calling ``on_notify(table_id, version)`` for every NOTIFY on the channel (PostgreSQL).

    Runs in its own thread on its own connection; reconnects after a dropped connection.
    """
    import psycopg

    conninfo = store.url.set(drivername="postgresql").render_as_string(hide_password=False)
    while not stop.is_set():
        try:
            with psycopg.connect(conninfo, autocommit=True) as conn:
                conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                while not stop.is_set():
                    for note in conn.notifies(timeout=0.5):
                        table_id, _, version = note.payload.partition(":")
                        on_notify(table_id, int(version or 0))
        except psycopg.OperationalError:
            time.sleep(0.5)

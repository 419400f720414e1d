"""What every part of the service shares: the tables held in memory, the database, and telling
a table's connections what happened (each its own view, events in its language, its prompt)."""

from __future__ import annotations

import asyncio
import hmac
import json
import secrets
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import orjson

from parlor.core.game import Event
from parlor.server import games, snapshots, viewdiff
from parlor.server.commits import GroupCommitter
from parlor.server.metrics import Metrics
from parlor.server.presence import Presence
from parlor.server.protocol import MAX_NAME, Limits, clean_text, dumps
from parlor.server.runtime import Conn, TableRuntime
from parlor.server.store import Store
from parlor.server.thinking import Thinking

R = TypeVar("R")


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 256 bits


class HubBase:
    def __init__(
        self,
        store: Store,
        *,
        limits: Limits | None = None,
        bot_delay: float | None = None,
        grace: float = 30.0,
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.bot_delay_override = bot_delay
        self.default_grace = grace
        self.tables: dict[str, TableRuntime] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.executor = ThreadPoolExecutor(8 if store.is_postgres else 1, "parlor-db")
        self.committer = GroupCommitter(store)
        self.metrics = metrics or Metrics()  # (no token: off, its hooks return at once)
        self.metrics.attach(self)
        self.committer.write = self.metrics.timed_commit(self.committer.write)
        self.thinking = Thinking()
        self.presence = Presence(store, self.db)
        self.addr_conns: dict[str, int] = {}
        self.addr_buckets: dict[str, Any] = {}
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    async def db(self, fn: Callable[..., R], *args: Any, **kwargs: Any) -> R:
        if not self.store.is_postgres:
            # SQLite has one writer anyway and a commit takes about a millisecond: done here, it
            # saves two thread hand-offs per action, which cost far more on a busy machine
            return fn(*args, **kwargs)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, lambda: fn(*args, **kwargs))

    # ----- tables ------------------------------------------------------------------------------
    async def runtime(self, table_id: str) -> TableRuntime | None:
        rt = self.tables.get(table_id)
        if rt is not None:
            return rt
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            rt = self.tables.get(table_id)
            if rt is None:
                loaded = await self.db(self.store.load, table_id)
                if loaded is None:
                    return None
                rt = self._build(*loaded)
                rt.last_chat_id = max(
                    [m["id"] for m in await self.db(self.store.chat_since, table_id, -1, 1)],
                    default=0,
                )
                self.tables[table_id] = rt
        return rt

    def _build(
        self,
        row: dict[str, Any],
        seats: list[dict[str, Any]],
        actions: list[Any],
        last_at: float | None,
    ) -> TableRuntime:
        rt = TableRuntime(
            id=row["id"],
            game_name=row["game"],
            config=json.loads(row["config"]),
            status=row["status"],
            listed=bool(row["listed"]),
            seed=int(row["seed"]),
            seats=[seat_row(s) for s in seats],
            host_hash=row["host_hash"],
            meta_rev=int(row["meta_rev"]),
            # the decision began with the last action, or (none yet) when the table started
            decided_since=float(row["updated_at"] if last_at is None else last_at),
        )
        rt.away = {s["seat"] for s in rt.seats if s.get("away")}
        take_fairness(rt, row)
        if row["settings"] is not None:
            settings = json.loads(row["settings"])
            rt.game, _ = snapshots.restore(
                rt.game_name, settings, rt.seed, actions, row.get("snapshot")
            )
            rt.version = len(actions)
            if rt.game.is_over:
                rt.status = "over"
        return rt

    # ----- telling people ----------------------------------------------------------------------
    def notice(self, rt: TableRuntime, kind: str, seat: int | None, text: str) -> None:
        frame = dumps({"type": "notice", "kind": kind, "seat": seat, "text": text})
        for c in rt.conns:
            c.send(frame)

    def broadcast_meta(self, rt: TableRuntime, skip: Conn | None = None) -> None:
        frame = dumps({"type": "table", "table": rt.meta()})
        for c in rt.conns:
            if c is not skip:
                c.send(frame)

    def publish(self, rt: TableRuntime, events: list[Event]) -> None:
        """Send every connection its own view, the events in its language and its prompt.

        A connection that speaks protocol 3 and holds the view its seat was last sent gets the
        changes since that view instead (``viewdiff``: computed from the seat's own two views),
        unless they would be longer than the view itself.

        The frames are written at once, not at the next loop step with the rest: a group commit
        hands back a few hundred tables' actions together, and when every frame of that batch
        waited for the next loop step, no client heard of its update until the whole batch had
        been built, and the server could then only wait for the answers to come back. Written as
        each table is told, the first answers are on their way while the server tells the
        others."""
        game = rt.game
        assert game is not None
        conns = list(rt.conns)
        if not conns:
            rt.sent.clear()
            return
        # the view of each seat that is here (spectators: None), asked of the engine together
        seats = list({c.seat for c in conns})
        views = dict(zip(seats, game.views(seats), strict=True))
        shared = rt.shared_parts()
        said: dict[str, orjson.Fragment] = {}  # the events in each language, encoded once
        frames: dict[tuple[int | None, str, bool], str] = {}
        changes: dict[int | None, list[Any] | None] = {}  # per seat: None when sent whole
        for seat in seats:
            held = rt.sent.get(seat)
            if held is None or not any(c.protocol >= 3 for c in conns if c.seat == seat):
                continue
            changes[seat] = viewdiff.smaller(held[1], views[seat])
        for c in conns:
            held = rt.sent.get(c.seat)
            fits = c.protocol >= 3 and held is not None and c.held == held[0]
            patch = changes.get(c.seat) if fits else None
            key = (c.seat, c.lang, patch is not None)
            text = frames.get(key)
            if text is None:
                told = said.get(c.lang)
                if told is None:
                    told = said[c.lang] = orjson.Fragment(
                        orjson.dumps(games.event_frames(game, events, c.lang))
                    )
                frame = {"type": "update", "version": rt.version, "events": told}
                frame.update(rt.seat_frame(c.seat, c.lang, shared, views[c.seat]))
                if patch is not None:
                    assert held is not None
                    del frame["view"]
                    frame["base"], frame["changes"] = held[0], patch
                text = frames[key] = dumps(frame)
            c.send(text, now=True)
            c.held = rt.version
        # what each seat here now holds; a seat with nobody here is forgotten (sent whole later)
        rt.sent = {seat: (rt.version, views[seat]) for seat in seats}

    def _chat_out(self, rt: TableRuntime, message: dict[str, Any]) -> None:
        if message["id"] <= rt.last_chat_id:
            return
        rt.last_chat_id = message["id"]
        frame = dumps({"type": "chat", "message": message})
        for c in rt.conns:
            c.send(frame)


def take_fairness(rt: TableRuntime, row: dict[str, Any]) -> None:
    """The table row's verifiable randomness into ``rt`` (see parlor.core.fairness)."""
    rt.seed = int(row["seed"])
    committed = row.get("committed_seed")
    rt.committed_seed = None if committed is None else int(committed)
    rt.salt, rt.commitment = row.get("salt"), row.get("commitment")
    rt.nonces = None if row.get("nonces") is None else list(json.loads(row["nonces"]))


def same(stored: str | None, given: str) -> bool:
    return stored is not None and hmac.compare_digest(stored, given)


def seat_row(s: dict[str, Any]) -> dict[str, Any]:
    s = dict(s)
    s.pop("table_id", None)
    opts = s.get("bot_options") or "{}"
    s["bot_options"] = json.loads(opts) if isinstance(opts, str) else dict(opts)
    return s


def display_name(value: Any) -> str:
    return clean_text(value, MAX_NAME, "name")

"""The service: tables, seats, the play loop, bots, timers, chat, and the other processes' news.

Every change to a table follows one path: check it with the engine, commit it to the database,
then apply it and tell every connection its own picture. A commit that loses a race (another
process wrote that step first) is answered with ``stale`` after catching up from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from parlor.core.errors import E_, ParlorError
from parlor.core.game import Event
from parlor.server import games, snapshots
from parlor.server.commits import GroupCommitter
from parlor.server.plans import normalise as _normalise
from parlor.server.presence import Presence
from parlor.server.protocol import (
    MAX_NAME,
    PROTOCOL_VERSION,
    Limits,
    ProtocolError,
    clean_text,
    dumps,
)
from parlor.server.runtime import Conn, TableRuntime
from parlor.server.store import Store, digest, listen
from parlor.server.thinking import Thinking

log = logging.getLogger("parlor.server")
TURN_RETRY = 2.0  # seconds before a bot turn that failed unexpectedly is tried again
R = TypeVar("R")


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 256 bits


class Hub:
    def __init__(
        self,
        store: Store,
        *,
        limits: Limits | None = None,
        bot_delay: float | None = None,
        grace: float = 30.0,
    ) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.bot_delay_override = bot_delay
        self.default_grace = grace
        self.tables: dict[str, TableRuntime] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.executor = ThreadPoolExecutor(8 if store.is_postgres else 1, "parlor-db")
        self.committer = GroupCommitter(store)
        self.thinking = Thinking()
        self.presence = Presence(store, self.db)
        self.addr_conns: dict[str, int] = {}
        self.addr_buckets: dict[str, Any] = {}
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    # ----- life cycle --------------------------------------------------------------------------
    async def start(self) -> None:
        """Load every live table (bots and timers run again) and listen to the other processes."""
        self.loop = asyncio.get_running_loop()
        for table_id in await self.db(self.store.live_tables):
            rt = await self.runtime(table_id)
            if rt is not None and rt.status == "running":
                for s in rt.seats:  # nobody is connected after a restart: the grace period runs
                    if s["kind"] == "human":
                        self._start_grace(rt, s["seat"])
                self.schedule(rt)
        self.presence.start()
        if self.store.is_postgres:
            self._listener = threading.Thread(
                target=listen, args=(self.store, self._on_notify, self._stop), daemon=True
            )
            self._listener.start()

    async def stop(self) -> None:
        self._stop.set()
        for rt in self.tables.values():
            for t in [rt.turn_task, *rt.grace_tasks.values()]:
                if t is not None:
                    t.cancel()
        with contextlib.suppress(Exception):  # (a clean stop forgets this process's seats)
            await self.presence.stop()
        self.executor.shutdown(wait=False)
        self.committer.close()
        self.thinking.close()

    async def db(self, fn: Callable[..., R], *args: Any, **kwargs: Any) -> R:
        if not self.store.is_postgres:
            # SQLite has one writer anyway and a commit takes about a millisecond: done here, it
            # saves two thread hand-offs per action, which cost far more on a busy machine
            return fn(*args, **kwargs)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, lambda: fn(*args, **kwargs))

    def _on_notify(self, table_id: str, version: int) -> None:
        if self.loop is not None and table_id in self.tables:
            self.loop.call_soon_threadsafe(
                lambda: asyncio.ensure_future(self.refresh(table_id, version))
            )

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
            seats=[_seat(s) for s in seats],
            host_hash=row["host_hash"],
            meta_rev=int(row["meta_rev"]),
            # the decision began with the last action, or (none yet) when the table started
            decided_since=float(row["updated_at"] if last_at is None else last_at),
        )
        rt.away = {s["seat"] for s in rt.seats if s.get("away")}
        if row["settings"] is not None:
            settings = json.loads(row["settings"])
            rt.game, _ = snapshots.restore(
                rt.game_name, settings, rt.seed, actions, row.get("snapshot")
            )
            rt.version = len(actions)
            if rt.game.is_over:
                rt.status = "over"
        return rt

    async def create(self, req: dict[str, Any], save: str | None = None) -> dict[str, Any]:
        """A new table from a create request (or a saved game); returns the host's secrets."""
        config, seat_plan, imported = _normalise(req, save)
        table_id = secrets.token_urlsafe(9)
        invite, host_key = new_token(), new_token()
        host_seat = config["host_seat"]
        seats: list[dict[str, Any]] = []
        host_token = None
        for i, plan in enumerate(seat_plan):
            seat = {
                "seat": i,
                "name": plan["name"],
                "kind": plan["kind"],
                "bot": plan.get("bot"),
                "bot_options": json.dumps(plan.get("bot_options", {})),
                "token_hash": None,
            }
            if i == host_seat and plan["kind"] == "human":
                host_token = new_token()
                seat["token_hash"] = digest(host_token)
                if req.get("host_name") is not None and imported is None:
                    seat["name"] = _name(req["host_name"])
            seats.append(seat)
        row = {
            "id": table_id,
            "game": config["game"],
            "config": json.dumps(config),
            "settings": None if imported is None else json.dumps(imported.settings),
            "seed": imported.seed if imported is not None else secrets.randbits(62),
            "status": "waiting",
            "version": 0,
            "meta_rev": 0,
            "invite_hash": digest(invite),
            "host_hash": digest(host_key),
            "listed": bool(req.get("listed", False)),
        }
        await self.db(self.store.create_table, row, seats)
        if imported is not None and imported.log:
            from parlor.core.game import action_to_dict

            rows = [
                (table_id, i, action.player, action_to_dict(action), "import")
                for i, action in enumerate(imported.log)
            ]
            await self.db(self.store.append_actions, rows)
        out = {"table": table_id, "invite": invite, "host_key": host_key}
        if host_token is not None:
            out["token"] = host_token
            out["seat"] = host_seat
        return out

    async def join(
        self, table_id: str | None, invite: str | None, name: Any, seat: Any
    ) -> dict[str, Any]:
        """Take a free human seat with the invite (or, on a listed table, its id)."""
        rt = await self._table_for(table_id, invite)
        display = _name(name)
        free = [s["seat"] for s in rt.seats if s["kind"] == "human" and s["token_hash"] is None]
        if seat is not None:
            if not isinstance(seat, int) or isinstance(seat, bool) or seat not in free:
                raise ProtocolError("no_seat", E_("seat {seat} is not free", seat=repr(seat)))
            free = [seat]
        if rt.status == "over":
            raise ProtocolError("not_running", E_("the game is over"))
        token = new_token()
        for candidate in free:
            # an imported game keeps the names its engine was given
            keep = rt.game is not None
            ok = await self.db(
                self.store.claim_seat,
                rt.id,
                candidate,
                rt.seats[candidate]["name"] if keep else display,
                digest(token),
            )
            if ok:
                s = rt.seats[candidate]
                s["token_hash"] = digest(token)
                if not keep:
                    s["name"] = display
                self.broadcast_meta(rt)
                return {"table": rt.id, "seat": candidate, "token": token, "name": s["name"]}
        raise ProtocolError("no_seat", E_("every seat is taken"))

    async def _table_for(self, table_id: str | None, invite: str | None) -> TableRuntime:
        if invite is not None:
            if not isinstance(invite, str) or len(invite) > 100:
                raise ProtocolError("bad_invite", E_("that invite is not valid"))
            row = await self.db(self.store.table_by_invite, digest(invite))
            if row is None or (table_id is not None and row["id"] != table_id):
                raise ProtocolError("bad_invite", E_("that invite is not valid"))
            table_id = row["id"]
        elif not isinstance(table_id, str) or len(table_id) > 32:
            raise ProtocolError("bad_invite", E_("an invite (or a listed table's id) is needed"))
        rt = await self.runtime(table_id)
        if rt is None or (invite is None and not rt.listed):
            raise ProtocolError("bad_invite", E_("that invite is not valid"))
        return rt

    async def lobby(self) -> list[dict[str, Any]]:
        rows = await self.db(self.store.lobby)
        out = []
        for r in rows:
            c = json.loads(r["config"])
            out.append(
                {
                    "table": r["id"],
                    "game": r["game"],
                    "edition": c.get("edition"),
                    "status": r["status"],
                    "seats": c["seats"],
                }
            )
        return out

    # ----- connections -------------------------------------------------------------------------
    async def hello(self, conn: Conn, msg: dict[str, Any]) -> None:
        if msg.get("protocol", PROTOCOL_VERSION) != PROTOCOL_VERSION:
            raise ProtocolError(
                "protocol",
                E_("this server speaks protocol {version}", version=PROTOCOL_VERSION),
                close=True,
            )
        lang = msg.get("lang")
        token, host_key = msg.get("token"), msg.get("host_key")
        table_id = msg.get("table")
        rt: TableRuntime | None
        if token is not None:
            if (
                not isinstance(token, str)
                or len(token) > 100
                or not isinstance(table_id, str)
                or len(table_id) > 32
            ):
                raise ProtocolError("bad_token", E_("that seat token is not valid"), close=True)
            rt = await self.runtime(table_id)
            h = digest(token)
            match = [s for s in rt.seats if _same(s["token_hash"], h)] if rt else []
            if rt is None or not match:
                raise ProtocolError("bad_token", E_("that seat token is not valid"), close=True)
            conn.seat, conn.token_hash = match[0]["seat"], h
        else:
            invite = msg.get("invite")
            if invite is None and host_key is None:
                try:  # a listed table may be watched by its id alone
                    rt = await self._table_for(table_id, None)
                except ProtocolError as exc:
                    raise ProtocolError(
                        "bad_token",
                        E_("hello needs a seat token, an invite or the host key"),
                        close=True,
                    ) from exc
            elif invite is None:
                if not isinstance(table_id, str) or len(table_id) > 32:
                    raise ProtocolError(
                        "bad_token", E_("hello with a host key needs the table id"), close=True
                    )
                rt = await self.runtime(table_id)
                if rt is None:
                    raise ProtocolError("bad_token", E_("that host key is not valid"), close=True)
            else:
                rt = await self._table_for(table_id, invite)
        if host_key is not None:
            if (
                not isinstance(host_key, str)
                or len(host_key) > 100
                or not _same(digest(host_key), rt.host_hash)
            ):
                raise ProtocolError("bad_token", E_("that host key is not valid"), close=True)
            conn.is_host = True
        conn.lang = (
            lang if isinstance(lang, str) and len(lang) <= 8 else rt.config.get("lang", "en")
        )
        conn.table = rt
        rt.conns.add(conn)
        was_away = conn.seat is not None and self._back(rt, conn.seat)
        if conn.seat is not None:
            await self.presence.hold(rt.id, conn.seat)
            if not was_away and self.presence.shared:
                # another process may have marked the seat away a moment ago, before this one
                # heard of it: the stored flag decides (read after our hold, which that process
                # reads after writing the flag, so one of the two always sees the other)
                stored = await self.db(self.store.seats, rt.id)
                was_away = bool(stored[conn.seat].get("away"))
            if was_away:  # every process stops playing the stand-in for this seat
                await self.db(self.store.update_meta, rt.id, seats={conn.seat: {"away": False}})
                rt.meta_rev += 1
        chat = await self.db(self.store.chat_since, rt.id, -1, 50)
        frame = {
            "type": "welcome",
            "protocol": PROTOCOL_VERSION,
            "you": {"seat": conn.seat, "host": conn.is_host, "lang": conn.lang},
            "table": rt.meta(),
            "version": rt.version,
            "chat": chat,
            **rt.seat_frame(conn.seat, conn.lang),
        }
        conn.send(frame)
        if was_away and conn.seat is not None:
            self.notice(rt, "back", conn.seat, f"{rt.seats[conn.seat]['name']} is back")
            self.schedule(rt)
        self.broadcast_meta(rt, skip=conn)

    def leave(self, conn: Conn) -> None:
        rt = conn.table
        if rt is None:
            return
        rt.conns.discard(conn)
        if conn.seat is not None and not rt.seat_conns(conn.seat):
            self.presence.release(rt.id, conn.seat)
            if rt.seats[conn.seat]["kind"] == "human":
                self._start_grace(rt, conn.seat)
        self.broadcast_meta(rt)

    def _start_grace(self, rt: TableRuntime, seat: int) -> None:
        old = rt.grace_tasks.pop(seat, None)
        if old is not None:
            old.cancel()
        grace = float(rt.config.get("grace", self.default_grace))

        async def expire() -> None:
            await asyncio.sleep(grace)
            rt.grace_tasks.pop(seat, None)
            if rt.seat_conns(seat) or rt.seats[seat]["kind"] != "human" or seat in rt.away:
                return
            if await self.presence.held_elsewhere(rt.id, seat):
                return  # the person is connected to another process: not away
            if not rt.seat_conns(seat):
                await self.db(self.store.update_meta, rt.id, seats={seat: {"away": True}})
                rt.meta_rev += 1
                # back (here, or on another process) while that was written: undone
                if rt.seat_conns(seat) or await self.presence.held_elsewhere(rt.id, seat):
                    await self.db(self.store.update_meta, rt.id, seats={seat: {"away": False}})
                    rt.meta_rev += 1
                    return
                rt.away.add(seat)
                self.notice(rt, "away", seat, f"{rt.seats[seat]['name']} is away: a stand-in plays")
                self.broadcast_meta(rt)
                self.schedule(rt)

        rt.grace_tasks[seat] = asyncio.ensure_future(expire())

    def _back(self, rt: TableRuntime, seat: int) -> bool:
        """The seat's person is connected again: no grace period, no stand-in. Was it away?"""
        task = rt.grace_tasks.pop(seat, None)
        if task is not None:
            task.cancel()
        if seat in rt.away:
            rt.away.discard(seat)
            return True
        return False

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
        """Send every connection its own view, the events in its language and its prompt."""
        game = rt.game
        assert game is not None
        texts: dict[str, list[dict[str, Any]]] = {}
        frames: dict[tuple[int | None, str], str] = {}
        for c in list(rt.conns):
            key = (c.seat, c.lang)
            text = frames.get(key)
            if text is None:
                if c.lang not in texts:
                    texts[c.lang] = games.event_frames(game, events, c.lang)
                frame = {"type": "update", "version": rt.version, "events": texts[c.lang]}
                frame.update(rt.seat_frame(c.seat, c.lang))
                text = frames[key] = dumps(frame)
            c.send(text)

    # ----- the play loop -----------------------------------------------------------------------
    async def submit(self, rt: TableRuntime, seat: int, action: Any, seen: int, actor: str) -> int:
        """Check, commit, apply and announce one action; returns the new version."""
        async with rt.lock:
            game = rt.game
            if game is None or rt.status == "waiting":
                raise ProtocolError("not_running", E_("the game has not started"))
            if rt.status == "over" or game.is_over:
                raise ProtocolError("not_running", E_("the game is over"))
            if rt.status == "paused":
                raise ProtocolError("paused", E_("the host has paused the table"))
            if seen != rt.version:
                raise ProtocolError(
                    "stale",
                    E_(
                        "the table is at version {version}, not {seen}",
                        version=rt.version,
                        seen=seen,
                    ),
                )
            if not game.is_legal(action):
                raise ProtocolError("illegal", _why_illegal(game, action))
            row = (rt.id, rt.version, seat, games.encode_action(action), actor)
            # A step that has begun committing is finished, even if this task is cancelled
            # meanwhile (a bot's turn when its seat's person comes back): the row may already be
            # in the database, and the table here must not fall behind it. The cancellation
            # waits until the step is applied and announced.
            commit = asyncio.ensure_future(self.committer.commit(row))
            cancelled: asyncio.CancelledError | None = None
            while not commit.done():
                try:
                    await asyncio.shield(commit)
                except asyncio.CancelledError as exc:
                    cancelled = exc
            committed = commit.result()
            if not committed:  # another process wrote this step first
                await self._catch_up(rt)
                raise ProtocolError(
                    "stale", E_("the table moved on to version {version}", version=rt.version)
                )
            events = game.apply(action)
            rt.version += 1
            rt.decided_since = time.time()
            if game.is_over:
                rt.status = "over"
                await self.db(self.store.update_meta, rt.id, table={"status": "over"})
            self.publish(rt, events)
        self.schedule(rt)
        if cancelled is not None:
            raise cancelled
        return rt.version

    async def _catch_up(self, rt: TableRuntime) -> None:
        """Apply what other processes committed (called with the table's lock held)."""
        game = rt.game
        if game is None:
            return
        for raw in await self.db(self.store.actions_since, rt.id, rt.version):
            events = game.apply(games.decode_action(game, raw))
            rt.version += 1
            rt.decided_since = time.time()
            if game.is_over:
                rt.status = "over"
            self.publish(rt, events)

    async def refresh(self, table_id: str, version: int) -> None:
        """Another process changed table ``table_id``: catch up, reload seats, status and chat."""
        rt = self.tables.get(table_id)
        if rt is None:
            return
        async with rt.lock:
            row = await self.db(self.store.table, table_id)
            if row is None:
                return
            if rt.game is None and row["settings"] is not None:
                rt.game = games.rebuild(rt.game_name, json.loads(row["settings"]), rt.seed, [])
            if version > rt.version:
                await self._catch_up(rt)
            meta_changed = int(row["meta_rev"]) != rt.meta_rev
            if meta_changed:
                rt.meta_rev = int(row["meta_rev"])
                if rt.status != "over":
                    started = rt.status == "waiting" and row["status"] != "waiting"
                    rt.status = row["status"]
                    if started:
                        rt.decided_since = time.time()  # (the first decision's timer)
                        self.publish(rt, [])
                rt.listed = bool(row["listed"])
                rt.seats = [_seat(s) for s in await self.db(self.store.seats, table_id)]
                # (a seat with a connection here is not away, whatever was read just before)
                rt.away = {
                    s["seat"] for s in rt.seats if s.get("away") and not rt.seat_conns(s["seat"])
                }
                for c in list(rt.conns):
                    if c.seat is not None and rt.seats[c.seat]["token_hash"] != c.token_hash:
                        c.send(
                            {
                                "type": "notice",
                                "kind": "kicked",
                                "seat": c.seat,
                                "text": "you were removed from this seat",
                            }
                        )
                        c.close()
                        rt.conns.discard(c)
                self.broadcast_meta(rt)
            for m in await self.db(self.store.chat_since, table_id, rt.last_chat_id):
                self._chat_out(rt, m)
        self.schedule(rt)

    def _chat_out(self, rt: TableRuntime, message: dict[str, Any]) -> None:
        if message["id"] <= rt.last_chat_id:
            return
        rt.last_chat_id = message["id"]
        frame = dumps({"type": "chat", "message": message})
        for c in rt.conns:
            c.send(frame)

    def schedule(self, rt: TableRuntime) -> None:
        """Make sure whoever must decide next is being served: a bot, a stand-in, or a timer."""
        game = rt.game
        current = asyncio.current_task()
        pending = None if game is None or rt.status != "running" else game.pending
        ctrl = None if pending is None else rt.controller(pending.player)
        if pending is None or (ctrl is None and not rt.config.get("timer")):
            # nothing to run: nobody decides, or a person without a timer does
            if rt.turn_task is not None and rt.turn_task is not current:
                rt.turn_task.cancel()
            rt.turn_task, rt.turn_key = None, None
            return
        seat = pending.player
        key = (rt.version, seat, None if ctrl is None else id(ctrl[0]))
        if rt.turn_key == key and rt.turn_task is not None and not rt.turn_task.done():
            return
        if rt.turn_task is not None and rt.turn_task is not current:
            rt.turn_task.cancel()
        rt.turn_key = key
        rt.turn_task = asyncio.ensure_future(self._turn(rt, rt.version, seat, ctrl))

    async def _turn(self, rt: TableRuntime, version: int, seat: int, ctrl: Any) -> None:
        try:
            if ctrl is None:
                timer = rt.config.get("timer")
                if not timer:
                    return
                deadline = rt.deadline()  # the one the frames announced
                await asyncio.sleep(
                    float(timer) if deadline is None else max(0.0, deadline - time.time())
                )
                bot, actor = rt.standin(seat), "standin"
                self.notice(
                    rt,
                    "timeout",
                    seat,
                    f"{rt.seats[seat]['name']} ran out of time: a stand-in answers",
                )
            else:
                bot, actor = ctrl
                delay = self.bot_delay_override
                if delay is None:
                    delay = float(rt.config.get("bot_delay", 0.0))
                if delay > 0:
                    await asyncio.sleep(delay)
            if rt.version != version or rt.status != "running":
                return
            action = await self.thinking.choose(rt, bot, seat)
            await self.submit(rt, seat, action, version, actor)
        except ProtocolError:
            pass  # the table moved on meanwhile: the next schedule serves it
        except asyncio.CancelledError:
            raise
        except Exception:
            # (the database failing for a moment, say): try again soon rather than leave the
            # table waiting for ever on a decision nobody will make
            log.exception("bot turn on table %s failed; trying again", rt.id)
            await asyncio.sleep(TURN_RETRY)
            if rt.turn_task is asyncio.current_task():
                rt.turn_key = None
                self.schedule(rt)


def _same(stored: str | None, given: str) -> bool:
    return stored is not None and hmac.compare_digest(stored, given)


def _why_illegal(game: Any, action: Any) -> str:
    try:
        game.clone().apply(action)
    except ParlorError as exc:
        return exc.text  # (said in the seat's language when the error frame is sent)
    except Exception:
        return "that is not a well-formed action"
    return "that action is not allowed now"


def _seat(s: dict[str, Any]) -> dict[str, Any]:
    s = dict(s)
    s.pop("table_id", None)
    opts = s.get("bot_options") or "{}"
    s["bot_options"] = json.loads(opts) if isinstance(opts, str) else dict(opts)
    return s


def _name(value: Any) -> str:
    return clean_text(value, MAX_NAME, "name")

"""A table as one server process holds it: the engine, its seats, its connections and its tasks."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import deque
from collections.abc import Callable, Coroutine, Generator
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket

from parlor.bots.base import Bot
from parlor.bots.registry import make_bot
from parlor.core.fairness import SCHEME
from parlor.core.game import Game
from parlor.monopoly import PropertyGame
from parlor.server import games
from parlor.server.protocol import Bucket, Limits, RefusalCount, dumps

#: (who decides, the final result, seconds left): the part of a frame every seat shares
Shared = tuple[int | None, dict[str, Any] | None, float | None]

SEND_QUEUE = 256  # frames waiting for a slow client before it is disconnected


class _Rest:
    """The rest of a coroutine that stopped at ``waiting`` (what it yielded when it was first
    driven by hand), as an awaitable: a task finishes it like any other."""

    __slots__ = ("coro", "waiting")

    def __init__(self, coro: Coroutine[Any, Any, Any], waiting: Any) -> None:
        self.coro, self.waiting = coro, waiting

    def __await__(self) -> Generator[Any, None, None]:
        waiting = self.waiting
        while True:
            try:
                yield waiting
            except BaseException as exc:  # (the task was cancelled: so is the coroutine)
                try:
                    waiting = self.coro.throw(exc)
                except StopIteration:
                    return
            else:
                try:
                    waiting = self.coro.send(None)
                except StopIteration:
                    return


class Conn:
    """One WebSocket: who it speaks for, its language, its limits and its outgoing frames."""

    def __init__(self, ws: WebSocket, address: str, limits: Limits) -> None:
        self.ws = ws
        self.address = address
        self.table: TableRuntime | None = None
        self.seat: int | None = None
        self.token_hash: str | None = None
        self.is_host = False
        self.lang = "en"
        self.protocol = 1  # (the hello says which)
        #: the table version of the last view this connection was sent (protocol 3's updates
        #: carry the changes since it when it is the one its seat was last sent)
        self.held: int | None = None
        self.bucket = Bucket(limits.msgs_per_s, limits.msgs_burst)
        self.chat_bucket = Bucket(limits.chat_per_10s / 10.0, float(limits.chat_per_10s))
        self.refusals = RefusalCount(limits.refusal_window_s)
        # Frames are written together once per loop iteration (one callback, not a task per
        # frame: a writer task per connection cost a task wake-up per frame, five an action),
        # so the reader gets one burst per iteration, as it did from the writer tasks. Only
        # when a write must wait (a slow reader) does a task finish it; frames sent meanwhile
        # queue here behind it, None last once closed.
        self.out: deque[str | None] = deque()
        self._writer: asyncio.Task[None] | None = None
        self._flush_due = False
        self.closed = False

    def send(self, frame: dict[str, Any] | str, now: bool = False) -> None:
        """Queue ``frame``, written with whatever else this connection is sent in this loop step;
        ``now``: written at once when nothing is queued before it (``publish``, see there)."""
        if self.closed:
            return
        if now and not self.out and self._writer is None and not self._flush_due:
            text = frame if isinstance(frame, str) else dumps(frame)
            self._drive(lambda: self.ws.send_text(text))
            return
        if len(self.out) >= SEND_QUEUE:  # a client that does not read is dropped, not waited for
            self.out.clear()
            self.close()
            return
        self.out.append(frame if isinstance(frame, str) else dumps(frame))
        self._due()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.out.append(None)  # what was queued (an error frame saying why) goes out first
            self._due()

    async def finished(self) -> None:
        """Wait until every frame sent so far (and the close, if closed) has been written."""
        while self._flush_due or self._writer is not None:
            if self._writer is not None:
                await asyncio.wait([self._writer])
            else:
                await asyncio.sleep(0)

    def _due(self) -> None:
        if self._writer is None and not self._flush_due:
            self._flush_due = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_due = False
        while self.out and self._writer is None:
            text = self.out.popleft()
            if text is None:
                self._drive(self._close_ws)
                break
            self._drive(lambda: self.ws.send_text(text))  # noqa: B023 (called at once)

    def _drive(self, write: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run ``write()`` now; if it has to wait, a task finishes it and what queues behind."""
        try:
            coro = write()
            waiting = coro.send(None)
        except StopIteration:
            return  # written
        except Exception:  # the socket went away: the reader side notices and cleans up
            self._gone()
            return
        self._writer = asyncio.ensure_future(self._finish(coro, waiting))

    async def _finish(self, coro: Coroutine[Any, Any, None], waiting: Any) -> None:
        failed = False
        try:
            await _Rest(coro, waiting)
            while self.out:
                text = self.out.popleft()
                if text is None:
                    await self._close_ws()
                    break
                await self.ws.send_text(text)
        except Exception:
            failed = True
        finally:
            self._writer = None
        if failed:  # (once this task is no longer the writer: the close may need one of its own)
            self._gone()

    def _gone(self) -> None:
        self.out.clear()
        self.closed = True
        self._drive(self._close_ws)  # (a second close is refused by Starlette, and ignored)

    async def _close_ws(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close(1000)


@dataclass
class TableRuntime:
    id: str
    game_name: str
    config: dict[str, Any]
    status: str
    listed: bool
    seed: int
    seats: list[dict[str, Any]]
    host_hash: str
    game: Game[Any] | None = None
    version: int = 0
    meta_rev: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Conn] = field(default_factory=set)
    bots: dict[int, Bot] = field(default_factory=dict)
    #: the kind and options each of ``bots`` was made for (kept beside the bot, not on it: a
    #: compiled bot class takes no new attributes)
    bot_kinds: dict[int, tuple[str | None, str]] = field(default_factory=dict)
    standins: dict[int, Bot] = field(default_factory=dict)
    away: set[int] = field(default_factory=set)
    grace_tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    turn_task: asyncio.Task[None] | None = None
    turn_key: tuple[Any, ...] | None = None
    last_chat_id: int = 0
    #: wall-clock time the pending decision began (its action's commit, or the start): a turn
    #: timer counts from here, so after a restart it goes on from where it was, not from zero
    decided_since: float = field(default_factory=time.time)
    # (version, seat, time.time() at which the person deciding runs out of time)
    turn_deadline: tuple[int, int, float] | None = None
    #: verifiable randomness (parlor.core.fairness; None for an imported game): the seed
    #: committed to, the salt (hex), both secret until the end, and the public commitment
    committed_seed: int | None = None
    salt: str | None = None
    commitment: str | None = None
    #: the nonces the game's seed was derived from, one per seat, fixed at the start
    nonces: list[str] | None = None
    #: the last view sent to each seat here (None: spectators) and its version: protocol 3's
    #: updates are the changes since it (each seat's own view: nothing of anyone else's)
    sent: dict[int | None, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    #: a finished game's save with its fairness record (worked out once: the game is over)
    export_cache: dict[str, Any] | None = None

    @property
    def family(self) -> str:
        return self.game_name

    def seat_conns(self, seat: int) -> list[Conn]:
        return [c for c in self.conns if c.seat == seat]

    def bot_for(self, seat: int) -> Bot:
        s = self.seats[seat]
        kind = (s["bot"], json.dumps(s["bot_options"]))
        bot = self.bots.get(seat)
        if bot is None or self.bot_kinds.get(seat) != kind:
            bot = make_bot(
                self.family, s["bot"] or "heuristic", random.randrange(2**31), **s["bot_options"]
            )
            self.bots[seat], self.bot_kinds[seat] = bot, kind
        return bot

    def standin(self, seat: int) -> Bot:
        bot = self.standins.get(seat)
        if bot is None:
            bot = self.standins[seat] = make_bot(self.family, "heuristic", random.randrange(2**31))
        return bot

    def controller(self, seat: int) -> tuple[Bot, str] | None:
        """Who plays ``seat`` without asking a person: its bot, or the stand-in while away."""
        if self.seats[seat]["kind"] == "bot":
            return self.bot_for(seat), "bot"
        if seat in self.away:
            return self.standin(seat), "standin"
        return None

    def deadline(self) -> float | None:
        """When the person who must decide now runs out of time (``time.time()``), if the table
        has a timer and a person decides; fixed the first time it is asked for this decision."""
        game, timer = self.game, self.config.get("timer")
        if not timer or game is None or self.status != "running" or game.pending is None:
            return None
        seat = game.pending.player
        if self.controller(seat) is not None:
            return None
        if self.turn_deadline is None or self.turn_deadline[:2] != (self.version, seat):
            # counted from when the decision began: after a restart it goes on from there
            self.turn_deadline = (self.version, seat, self.decided_since + float(timer))
        return self.turn_deadline[2]

    def meta(self) -> dict[str, Any]:
        """The table as everyone may see it (no token, no seed)."""
        c = self.config
        connected = {conn.seat for conn in self.conns if conn.seat is not None}
        out: dict[str, Any] = {
            "id": self.id,
            "game": self.game_name,
            "edition": c.get("edition"),
            "variant": c.get("variant"),
            "presets": c.get("presets", []),
            "options": c.get("options", {}),
            "status": self.status,
            "listed": self.listed,
            "timer": c.get("timer"),
            "grace": c.get("grace"),
            "bot_delay": c.get("bot_delay"),
            "lang": c.get("lang"),
            "version": self.version,
            # the commitment only: the seed and the salt stay here until the end
            "fairness": None
            if self.commitment is None
            else {"scheme": SCHEME, "commitment": self.commitment},
            "seats": [
                {
                    "seat": s["seat"],
                    "name": s["name"],
                    "kind": s["kind"],
                    "bot": s["bot"],
                    "taken": s["kind"] == "bot" or s["token_hash"] is not None,
                    "connected": s["seat"] in connected,
                    "away": s["seat"] in self.away,
                }
                for s in self.seats
            ],
        }
        if self.game is not None:
            out["settings"] = self.game.settings  # names, edition or deck, options: all public
            if isinstance(self.game, PropertyGame):  # (the page's build plan: the hotel's level
                out["hotel_after_houses"] = self.game.options.hotel_after_houses  # and the stock)
                out["unlimited_buildings"] = self.game.options.unlimited_buildings
        return out

    def shared_parts(self) -> Shared:
        """What every seat's frame of this moment has in common: whose decision it is (public),
        the final result, and the seconds the person deciding has left (a count, so clocks need
        not agree). Worked out once per update, not once per connection."""
        game = self.game
        assert game is not None
        deadline = self.deadline()
        pending = game.pending
        return (
            None if pending is None else pending.player,
            games.final(game),
            None if deadline is None else round(max(0.0, deadline - time.time()), 1),
        )

    def hold(self, conn: Conn, view: dict[str, Any] | None) -> None:
        """``conn`` is sent ``view``, its seat's whole view now (a welcome, a resync): the next
        update may be the changes since it."""
        if view is None:
            conn.held = None
            return
        conn.held = self.version
        held = self.sent.get(conn.seat)
        if held is None or held[0] != self.version:
            # (the seat's other connections, if any, hold an older view: they get the next whole)
            self.sent[conn.seat] = (self.version, view)

    def seat_frame(
        self,
        seat: int | None,
        lang: str,
        shared: Shared | None = None,
        view: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """What ``seat`` sees of the game now: its view (``view``: the engine's ``view(seat)``
        when the caller has it already) and, when it must decide, its prompt."""
        game = self.game
        if game is None:
            return {"view": None, "prompt": None, "final": None}
        decider, final, timer_left = self.shared_parts() if shared is None else shared
        return {
            "view": game.view(seat) if view is None else view,
            "prompt": games.prompt(game, seat, self.version, lang)
            if seat is not None and seat == decider
            else None,
            "final": final,
            "timer_left": timer_left,
        }

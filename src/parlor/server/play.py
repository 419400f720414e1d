"""The play loop: check an action with the engine, commit it, apply it, tell everyone; bots,
stand-ins and turn timers; what other processes committed.

Every change to a table follows one path: check it with the engine, commit it to the database,
then apply it and tell every connection its own picture. A commit that loses a race (another
process wrote that step first) is answered with ``stale`` after catching up from the database.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from parlor.core.errors import E_, ParlorError
from parlor.server import games
from parlor.server.base import HubBase, seat_row, take_fairness
from parlor.server.protocol import ProtocolError
from parlor.server.runtime import TableRuntime

log = logging.getLogger("parlor.server")
TURN_RETRY = 2.0  # seconds before a bot turn that failed unexpectedly is tried again


class PlayLoop(HubBase):
    # ----- the play loop -----------------------------------------------------------------------
    async def submit(self, rt: TableRuntime, seat: int, action: Any, seen: int, actor: str) -> int:
        """Check, commit, apply and announce one action; returns the new version."""
        began = time.perf_counter()
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
            commit = self.committer.commit(row)
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
            self.metrics.action(actor, began)
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
                take_fairness(rt, row)  # (started elsewhere: the seed derived there)
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
                rt.seats = [seat_row(s) for s in await self.db(self.store.seats, table_id)]
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


def _why_illegal(game: Any, action: Any) -> str:
    try:
        game.clone().apply(action)
    except ParlorError as exc:
        return exc.text  # (said in the seat's language when the error frame is sent)
    except Exception:
        return E_("that is not a well-formed action")
    return E_("that action is not allowed now")

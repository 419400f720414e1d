"""The service: tables, seats, the play loop, bots, timers, chat, and the other processes' news.

``Hub`` puts the parts together: ``base`` (tables in memory, the database, telling people),
``tables`` (create, join, lobby), ``play`` (the play loop, bots and timers); here are its life
cycle and its connections (hello, leaving, the grace period of a seat whose person is gone).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Any

from parlor.core.errors import E_
from parlor.core.fairness import valid_nonce
from parlor.server.base import new_token, same
from parlor.server.play import PlayLoop
from parlor.server.protocol import PROTOCOL_VERSION, PROTOCOLS, ProtocolError
from parlor.server.runtime import Conn, TableRuntime
from parlor.server.store import digest, listen
from parlor.server.tables import Tables

__all__ = ["Hub", "new_token"]


class Hub(Tables, PlayLoop):
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
        await asyncio.to_thread(self.thinking.close)  # (waits for the workers to end)

    def _on_notify(self, table_id: str, version: int) -> None:
        if self.loop is not None and table_id in self.tables:
            self.loop.call_soon_threadsafe(
                lambda: asyncio.ensure_future(self.refresh(table_id, version))
            )

    # ----- connections -------------------------------------------------------------------------
    async def hello(self, conn: Conn, msg: dict[str, Any]) -> None:
        protocol = msg.get("protocol", 1)
        if isinstance(protocol, bool) or protocol not in PROTOCOLS:
            raise ProtocolError(
                "protocol",
                E_("this server speaks protocol {version}", version=PROTOCOL_VERSION),
                close=True,
            )
        conn.protocol = protocol
        nonce = msg.get("nonce")
        if nonce is not None and not valid_nonce(nonce):
            raise ProtocolError(
                "bad_request",
                E_("a nonce is 16 to 64 lowercase hex digits (8 to 32 bytes)"),
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
            match = [s for s in rt.seats if same(s["token_hash"], h)] if rt else []
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
                or not same(digest(host_key), rt.host_hash)
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
        you: dict[str, Any] = {"seat": conn.seat, "host": conn.is_host, "lang": conn.lang}
        if conn.seat is not None:
            if nonce is not None:
                await self._take_nonce(rt, conn.seat, nonce)
            you["nonce"] = rt.seats[conn.seat].get("nonce")  # (the seat's own: the one that counts)
        chat = await self.db(self.store.chat_since, rt.id, -1, 50)
        frame = {
            "type": "welcome",
            "protocol": conn.protocol,
            "you": you,
            "table": rt.meta(),
            "version": rt.version,
            "chat": chat,
            **rt.seat_frame(conn.seat, conn.lang),
        }
        rt.hold(conn, frame["view"])
        conn.send(frame)
        if was_away and conn.seat is not None:
            self.notice(rt, "back", conn.seat, f"{rt.seats[conn.seat]['name']} is back")
            self.schedule(rt)
        self.broadcast_meta(rt, skip=conn)

    async def _take_nonce(self, rt: TableRuntime, seat: int, nonce: str) -> None:
        """Keep the first nonce a seat's client gives while the table waits to start (later ones,
        a reconnection's, change nothing: the seed is derived from the nonces at the start)."""
        async with rt.lock:
            s = rt.seats[seat]
            if (
                rt.commitment is None
                or rt.status != "waiting"
                or s["kind"] != "human"
                or s.get("nonce")
            ):
                return
            change = {seat: {"nonce": nonce}}
            if await self.db(
                self.store.update_meta, rt.id, seats=change, expect_status=("waiting",)
            ):
                rt.meta_rev += 1
                s["nonce"] = nonce

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

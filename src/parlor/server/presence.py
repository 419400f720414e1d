"""Which seats have a person connected, across every process serving one PostgreSQL database.

A process judges a seat "away" (its grace period over, a stand-in plays) from its own connections,
but the person may be connected to another process. So each process records in the database the
seats it holds a connection for, refreshes those rows while it runs (a row of a process that died
goes stale and counts for nothing), and asks before it marks a seat away. The away flag itself is
stored with the seat, so every process plays (or stops playing) the stand-in together.
With SQLite there is one process: its own connections are the whole truth, nothing is written.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from parlor.server.store import Store

R = TypeVar("R")
Run = Callable[..., Awaitable[Any]]

HEARTBEAT = 10.0  # seconds between refreshes of this process's rows
STALE = 3 * HEARTBEAT  # a row not refreshed for this long belongs to a dead process


class Presence:
    def __init__(self, store: Store, run: Run) -> None:
        self.store = store
        self.run = run  # the hub's way to call the store (a worker thread)
        self.process = secrets.token_hex(8)
        self.shared = store.is_postgres
        self._beat: asyncio.Task[None] | None = None
        self._pending: set[asyncio.Task[Any]] = set()

    def start(self) -> None:
        if self.shared:
            self._beat = asyncio.ensure_future(self._heartbeat())

    async def stop(self) -> None:
        if self._beat is not None:
            self._beat.cancel()
        if self.shared:
            await self.run(self.store.release_process, self.process)

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            # (the database away for a moment: the next beat tries again)
            with contextlib.suppress(Exception):
                await self.run(self.store.heartbeat, self.process, time.time() - STALE)

    async def hold(self, table_id: str, seat: int) -> None:
        if self.shared:
            await self.run(self.store.hold_seat, table_id, seat, self.process)

    def release(self, table_id: str, seat: int) -> None:
        """This process has no connection for the seat any more (called where nothing awaits)."""
        if self.shared:
            task = asyncio.ensure_future(
                self.run(self.store.release_seat, table_id, seat, self.process)
            )
            self._pending.add(task)
            task.add_done_callback(self._pending.discard)

    async def held_elsewhere(self, table_id: str, seat: int) -> bool:
        if not self.shared:
            return False
        return bool(
            await self.run(
                self.store.held_elsewhere, table_id, seat, self.process, time.time() - STALE
            )
        )

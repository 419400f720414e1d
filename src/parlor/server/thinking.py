"""Bots choosing: cheap bots on the event loop, search bots in worker processes."""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from parlor.core.errors import ParlorError
from parlor.server.runtime import TableRuntime


def _think(bot: Any, game: Any, seat: int) -> tuple[Any, Any]:
    """(In a worker process) the search bot's choice, and the bot as it is after choosing."""
    return bot.choose(game, seat), bot


def _exit_with(parent: int) -> None:
    """(In a worker process) end when the server process is gone, even by SIGKILL: the worker
    holds both ends of its task queue, so it would otherwise wait on it for ever."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="parlor-parent-watch").start()


class Thinking:
    """Where a table's bots think; a search bot never holds up the other tables."""

    def __init__(self) -> None:
        self.pool: ProcessPoolExecutor | None = None

    def close(self) -> None:
        """Stop the workers and wait for them: a pool left to the interpreter's exit (``wait=False``)
        left its queues' semaphores to the resource tracker, which warned of "leaked semaphore
        objects" at every stop. Queued searches are cancelled; one under way ends within its budget."""
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None

    async def _search(self, rt: TableRuntime, bot: Any, seat: int) -> Any:
        """A search bot thinks in a worker process on a copy of the game: it is CPU work for
        hundreds of milliseconds, which in a thread would still hold the interpreter's lock
        against every other table. The bot comes back with its state (its random stream)."""
        game = rt.game
        assert game is not None
        if self.pool is None:
            # spawned, not forked: this process has threads (database writers, the listener)
            self.pool = ProcessPoolExecutor(
                max(1, min(4, os.cpu_count() or 1)),
                mp.get_context("spawn"),
                initializer=_exit_with,
                initargs=(os.getpid(),),
            )
        loop = asyncio.get_running_loop()
        try:
            action, thought = await loop.run_in_executor(self.pool, _think, bot, game.clone(), seat)
        except BrokenProcessPool:  # a worker died (killed, out of memory): a new pool next time
            self.pool = None
            return await asyncio.to_thread(bot.choose, game.clone(), seat)
        if rt.bots.get(seat) is bot:  # (unless the host changed this seat's bot meanwhile)
            rt.bots[seat] = thought
        return action

    async def choose(self, rt: TableRuntime, bot: Any, seat: int) -> Any:
        game = rt.game
        assert game is not None
        try:
            if getattr(bot, "name", "") == "search":
                action = await self._search(rt, bot, seat)
            else:
                action = bot.choose(game, seat)
            if game.is_legal(action):
                return action
        except (ParlorError, ValueError, IndexError, KeyError):
            pass
        answers = game.legal_actions(seat, anytime=False) or game.legal_actions(seat)
        return answers[0]

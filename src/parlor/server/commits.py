"""Group commit: the actions accepted on every table meanwhile go to the database together.

A table's next action must be committed before anyone is told of it, and one commit costs about
the same for one row as for a hundred. So ``commit`` does not write at once: it adds the row to
the next batch and waits. One batch at a time is written, in a worker thread (the event loop goes
on reading other tables' messages meanwhile, and those actions make up the batch after it). Each
waiter learns only after the transaction holding its row has committed, so an acknowledged action
is never lost, whatever kills the process afterwards.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from parlor.server.store import PendingAction, Store


class GroupCommitter:
    def __init__(self, store: Store, max_batch: int = 500) -> None:
        self.store = store
        self.max_batch = max_batch
        self._waiting: list[tuple[PendingAction, asyncio.Future[bool]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._thread = ThreadPoolExecutor(1, "parlor-commit")
        #: batches and rows written so far (the bench prints their ratio)
        self.batches = 0
        self.rows = 0

    async def commit(self, row: PendingAction) -> bool:
        """Commit ``row``; True once it is durable, False if another writer took that step."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting.append((row, done))
        if self._writer is None:
            self._writer = asyncio.ensure_future(self._write())
        return await done

    async def _write(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._waiting:
                batch = self._waiting[: self.max_batch]
                del self._waiting[: self.max_batch]
                try:
                    results = await loop.run_in_executor(
                        self._thread, self.store.append_actions, [row for row, _ in batch]
                    )
                except Exception as exc:  # the database failed: every waiter of this batch hears it
                    for _, done in batch:
                        if not done.done():
                            done.set_exception(exc)
                    continue
                self.batches += 1
                self.rows += len(batch)
                for (_, done), ok in zip(batch, results, strict=True):
                    if not done.done():
                        done.set_result(ok)
        finally:
            self._writer = None

    def close(self) -> None:
        self._thread.shutdown(wait=False)

"""Group commit: the actions accepted on every table meanwhile go to the database together.

A table's next action must be committed before anyone is told of it, and one commit costs about
the same for one row as for a hundred. So ``commit`` does not write at once: it adds the row to
the next batch and returns a future. One batch at a time is written; each waiter learns only after
the transaction holding its row has committed, so an acknowledged action is never lost, whatever
kills the process afterwards.

Where the batch is written depends on the database. PostgreSQL: in a worker thread, since a
commit waits on the network and the event loop goes on meanwhile (the actions it reads make up
the next batch). SQLite (``inline``): on the event loop itself, once per loop iteration with
every row that arrived during it. A WAL commit there is a few hundred microseconds of CPU and no
wait, and in a thread it was far slower: the writer needed the interpreter lock back after every
row, and a busy event loop hands it over only every few milliseconds (``sys.getswitchinterval``),
so a batch of a hundred rows took a large part of a second while every table in it waited.
What does belong in a thread is SQLite's WAL checkpoint: copying the log into the database file,
with an fsync, every thousand pages or so. Left to the commits, it stopped the event loop for it
(almost half the commits' wall time); inline, the committer runs it in a thread of its own after every
``checkpoint_rows`` rows, and at least once a second (the other writes, chat and snapshots, are
checkpointed too). The sqlite3 module lets go of the interpreter lock meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from parlor.server.store import PendingAction, Store

log = logging.getLogger("parlor.server")


class GroupCommitter:
    def __init__(
        self,
        store: Store,
        max_batch: int = 500,
        *,
        inline: bool | None = None,
        checkpoint_rows: int = 1000,
    ) -> None:
        self.store = store
        self.max_batch = max_batch
        self.inline = not store.is_postgres if inline is None else inline
        #: the batch commit (``Metrics.timed_commit`` may wrap it)
        self.write: Callable[[list[PendingAction]], list[bool]] = store.append_actions
        self._waiting: list[tuple[PendingAction, asyncio.Future[bool]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._thread = None if self.inline else ThreadPoolExecutor(1, "parlor-commit")
        self.checkpoint_rows = checkpoint_rows
        self._since_checkpoint = 0
        self._wake, self._closed = threading.Event(), threading.Event()
        self._checkpointer: threading.Thread | None = None
        if self.inline and not store.is_postgres:
            store.leave_checkpoints_to_caller()
            self._checkpointer = threading.Thread(
                target=self._checkpoints, name="parlor-wal", daemon=True
            )
            self._checkpointer.start()
        #: batches and rows written so far (the bench prints their ratio)
        self.batches = 0
        self.rows = 0

    def commit(self, row: PendingAction) -> asyncio.Future[bool]:
        """Commit ``row``: the future says True once it is durable, False if another writer took
        that step first. Cancelling a wait on it does not take the row out of its batch."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting.append((row, done))
        if self._writer is None:
            self._writer = asyncio.ensure_future(self._write())
        return done

    async def _write(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._waiting:
                batch = self._waiting[: self.max_batch]
                del self._waiting[: self.max_batch]
                rows = [row for row, _ in batch]
                try:
                    if self._thread is None:
                        results = self.write(rows)
                        self._since_checkpoint += len(rows)
                        if self._since_checkpoint >= self.checkpoint_rows:
                            self._since_checkpoint = 0
                            self._wake.set()
                    else:
                        results = await loop.run_in_executor(self._thread, self.write, rows)
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

    def _checkpoints(self) -> None:
        """The WAL checkpoints: when the commits ask for one, and at least once a second."""
        while not self._closed.is_set():
            self._wake.wait(1.0)
            self._wake.clear()
            if self._closed.is_set():
                return
            try:
                self.store.checkpoint()
            except Exception:  # (the next one copies what this one did not)
                log.exception("WAL checkpoint failed")

    def close(self) -> None:
        self._closed.set()
        self._wake.set()
        if self._checkpointer is not None:  # (a checkpoint under way finishes first)
            self._checkpointer.join(10.0)
        if self._thread is not None:
            self._thread.shutdown(wait=False)

"""Snapshots: a table's engine state saved now and then, so that loading it does not replay its log.

The action log stays the record; a snapshot only saves time. It is the engine's own state form
(``parlor.core.state.export_state``) at some version, written by :class:`Snapshotter` off the
play path once a table has moved ``every`` actions past its last snapshot (and for every table
when the server stops cleanly). Loading takes it when it is consistent: the same rules wrote it
(``engine_fingerprint``), it covers no more than the log, and the restored game's ``snapshot()``
has the digest stored with it; then only the actions after it are applied. Anything else, and
the table is replayed from its log as before. Nothing acknowledged depends on a snapshot.

A snapshot holds the hidden state and the random generator's whole state: it is read by the
loader alone and never sent to anyone.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from parlor.core.errors import ParlorError, ReplayError
from parlor.core.game import Game
from parlor.core.state import engine_fingerprint, export_state, import_state
from parlor.server import games
from parlor.server.store import Snapshot

if TYPE_CHECKING:
    from parlor.server.hub import Hub

log = logging.getLogger("parlor.server")

#: Actions a table moves past its last snapshot before the next one is written.
EVERY = 256
#: Seconds between two looks at the tables.
INTERVAL = 1.0


def digest(game: Game[Any]) -> str:
    """SHA-256 of the engine's ``snapshot()`` as sorted JSON: equal digests, equal games."""
    text = json.dumps(game.snapshot(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def make(table_id: str, version: int, game: Game[Any]) -> Snapshot:
    """The snapshot row of ``game`` at ``version`` (its log's length)."""
    state = json.dumps(export_state(game), separators=(",", ":"), allow_nan=False)
    return (table_id, version, engine_fingerprint(), digest(game), state)


def restore(
    game_name: str,
    settings: Mapping[str, Any],
    seed: int,
    actions: Sequence[Any],
    snapshot: Mapping[str, Any] | None,
) -> tuple[Game[Any], bool]:
    """The table's game, from ``snapshot`` and the actions after it when it is consistent, else
    by replaying every action; and whether the snapshot was used."""
    if snapshot is not None:
        try:
            return _from_snapshot(game_name, settings, seed, actions, snapshot), True
        except (ParlorError, ValueError, KeyError, TypeError) as exc:
            log.warning("snapshot of version %s not used: %s", snapshot.get("version"), exc)
    return games.rebuild(game_name, settings, seed, actions), False


def _from_snapshot(
    game_name: str,
    settings: Mapping[str, Any],
    seed: int,
    actions: Sequence[Any],
    snapshot: Mapping[str, Any],
) -> Game[Any]:
    version = int(snapshot["version"])
    if snapshot["engine"] != engine_fingerprint():
        raise ReplayError("written by other rules")
    if not 0 <= version <= len(actions):
        raise ReplayError("covers more actions than the log holds")
    cls = games.GAME_CLASSES[game_name]
    game = import_state(cls, settings, seed, json.loads(snapshot["state"]), actions[:version])
    if digest(game) != snapshot["digest"]:
        raise ReplayError("the restored state is not the one saved")
    for raw in actions[version:]:
        game.apply(cls.decode_action(raw))
    return game


class Snapshotter:
    """Writes snapshots of the tables one server process holds, off the play path."""

    def __init__(self, hub: Hub, every: int = EVERY, interval: float = INTERVAL) -> None:
        self.hub = hub
        self.every = every
        self.interval = interval
        self.saved: dict[str, int] = {}  # table -> version of its newest stored snapshot
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.saved = await asyncio.to_thread(self.hub.store.snapshot_versions)
        self._task = asyncio.ensure_future(self._run())

    async def stop(self) -> None:
        """Stop looking, after one last look that saves every table moved at all."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        with contextlib.suppress(Exception):
            await self.sweep(1)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.sweep(self.every)
            except Exception:  # (a failed write is retried at the next look; the log is safe)
                log.exception("writing snapshots failed")

    async def sweep(self, every: int) -> int:
        """Snapshot every table at least ``every`` actions past its last one; returns how many.

        One table at a time, each written as it is made (in the database's own way, ``Hub.db``:
        on the loop for SQLite), with the loop free between two: a sweep once made and wrote
        every table due together, a burst of several milliseconds in which no table moved.
        """
        saved = 0
        for rt in list(self.hub.tables.values()):
            game = rt.game
            if game is None or rt.version - self.saved.get(rt.id, 0) < every:
                continue
            if len(game.log) != rt.version:
                continue
            try:  # (the game and its version agree: nothing is awaited between here and make)
                row = make(rt.id, rt.version, game)
            except ParlorError:  # (an engine without a state form: it is replayed)
                continue
            await self.hub.db(self.hub.store.save_snapshots, [row])
            self.saved[rt.id] = row[1]
            saved += 1
            await asyncio.sleep(0)  # (the tables' actions go on between two snapshots)
        return saved

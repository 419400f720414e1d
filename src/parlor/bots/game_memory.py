"""What a bot remembers of each live game, without weak references to the game.

The property engine's games are native classes when compiled (setup.py), and mypyc's weak
references to a native generic class are not safe (freeing the game corrupts the weak
reference), so the bots hold the games they remember and forget one once nothing else holds it:
the lifetime a ``weakref.WeakKeyDictionary`` gives, found out later (when the table is full).
This module is never compiled: it counts references, which compiled code holds differently.

>>> class Game: ...
>>> memory: PerGame[str] = PerGame(limit=2)
>>> a, b = Game(), Game()
>>> memory.set(a, "a"); memory.set(b, "b")
>>> del a
>>> c = Game()
>>> memory.set(c, "c")  # (full: a, held by nothing else, is forgotten)
>>> len(memory), memory.get(b), memory.get(c)
(2, 'b', 'c')
"""

from __future__ import annotations

import sys
from typing import Any, Generic, TypeVar

V = TypeVar("V")

#: sys.getrefcount of a game that only the table holds: its entry's tuple, the loop's variable
#: and getrefcount's own argument.
_HELD_ONLY_HERE = 3


class PerGame(Generic[V]):
    """A value per live game, by identity; at most ``limit`` games before the forgetting."""

    def __init__(self, limit: int = 64) -> None:
        self.limit = limit
        self._entries: dict[int, tuple[Any, V]] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, game: Any) -> V | None:
        entry = self._entries.get(id(game))
        return None if entry is None else entry[1]

    def set(self, game: Any, value: V) -> None:
        entries = self._entries
        if id(game) not in entries and len(entries) >= self.limit:
            self.forget_unheld()
        entries[id(game)] = (game, value)

    def forget_unheld(self) -> None:
        """Drop the games nothing but this table holds."""
        for key, (game, _) in list(self._entries.items()):
            if sys.getrefcount(game) <= _HELD_ONLY_HERE:
                del self._entries[key]

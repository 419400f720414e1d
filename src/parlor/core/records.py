"""The two records every game hands out at every step: :class:`Decision` (who must decide what)
and :class:`Event` (what happened). Re-exported by :mod:`parlor.core.game`.

A module of their own so that the optional compiled build (setup.py) compiles them: an engine
builds one or two of each per action, and a compiled engine then builds them as native objects
instead of calling a Python ``__init__``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

#: Whether this module runs compiled (setup.py): its classes are then native, and a field is set
#: by ``object.__setattr__``, which mypyc turns into a direct store.
COMPILED: Final = not __file__.endswith(".py")


@dataclass(frozen=True, slots=True, init=False)
class Decision:
    """Who must decide what, now.

    ``kind`` is a short name such as ``"start_turn"``, ``"buy_or_auction"`` or ``"bid"``; ``info``
    carries what the decider needs to know (the square, the amount owed, the current bid...).

    >>> Decision(1, "start_turn")
    Decision(player=1, kind='start_turn', info={})
    """

    player: int
    kind: str
    info: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def __init__(self, player: int, kind: str, info: Mapping[str, Any] | None = None) -> None:
        # (frozen: plain Python sets the fields through their slots, as dataclasses' own
        # __init__ does through object.__setattr__ at twice the cost)
        if COMPILED:
            object.__setattr__(self, "player", player)
            object.__setattr__(self, "kind", kind)
            object.__setattr__(self, "info", {} if info is None else info)
        else:
            _set_player(self, player)
            _set_kind(self, kind)
            _set_info(self, {} if info is None else info)

    def __reduce__(self) -> tuple[Any, ...]:
        # (a native class is pickled and copied through its constructor)
        return (Decision, (self.player, self.kind, self.info))

    def __str__(self) -> str:
        extra = ", ".join(f"{k}={v}" for k, v in self.info.items())
        return f"player {self.player}: {self.kind}" + (f" ({extra})" if extra else "")


@dataclass(frozen=True, slots=True, init=False)
class Event:
    """Something that happened: ``kind`` names it, ``data`` holds its facts (JSON-safe values).

    >>> Event("dice", {"dice": [3, 4]})
    Event(kind='dice', data={'dice': [3, 4]})
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def __init__(self, kind: str, data: Mapping[str, Any] | None = None) -> None:
        if COMPILED:  # (see Decision.__init__)
            object.__setattr__(self, "kind", kind)
            object.__setattr__(self, "data", {} if data is None else data)
        else:
            _set_event_kind(self, kind)
            _set_data(self, {} if data is None else data)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Event, (self.kind, self.data))

    def __str__(self) -> str:
        extra = ", ".join(f"{k}={v}" for k, v in self.data.items())
        return f"{self.kind}({extra})"


def _slot_setter(kind: type, name: str) -> Callable[[Any, Any], None]:
    """The setter of a slot (a frozen dataclass refuses setattr once built)."""
    setter: Callable[[Any, Any], None] = vars(kind)[name].__set__
    return setter


_set_player = _slot_setter(Decision, "player")
_set_kind = _slot_setter(Decision, "kind")
_set_info = _slot_setter(Decision, "info")
_set_event_kind = _slot_setter(Event, "kind")
_set_data = _slot_setter(Event, "data")

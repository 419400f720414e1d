"""Shared action values: :func:`shared` (re-exported by :mod:`parlor.monopoly.actions`).

A module of its own so that the optional compiled build (setup.py) compiles it: the engine lists
its answers through it at every decision.
"""

from __future__ import annotations

from typing import Any, Final, TypeVar

A = TypeVar("A")
_SHARED: Final[dict[tuple[Any, ...], Any]] = {}
#: The table behind :func:`shared`, by ``(kind, *fields)``: read directly where a call per
#: action counts (an auction's bid ladder); only ``shared`` adds to it.
SHARED_ACTIONS: Final = _SHARED


def shared(kind: type[A], *fields: Any) -> A:
    """The action ``kind(*fields)``, built once and shared: actions are immutable values, and the
    engine lists the same few answers (throw, end the turn, pass, a bid...) at every decision.

    >>> from parlor.monopoly.actions import RollDice
    >>> shared(RollDice, 2) is shared(RollDice, 2) == RollDice(2)
    True
    """
    key = (kind,) + fields  # noqa: RUF005 (compiled, unpacking goes through a list)
    action: A | None = _SHARED.get(key)
    if action is None:
        if len(_SHARED) > 50_000:  # (bids of many amounts: keep the table bounded)
            _SHARED.clear()
        action = _SHARED[key] = kind(*fields)
    return action

"""What a lot of a property game charges from its owners and buildings alone
(:func:`lot_rent`), and the scans of a group the bots' deeds make
(:mod:`parlor.bots.monopoly_board`), apart from the deeds' module to keep both short.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from parlor.bots.monopoly_board import Board

HOTEL = 5  # the engine's ``buildings`` value of a lot with a hotel
N_SQUARES = 40


def lot_rent(
    board: Board,
    owner: list[int],
    buildings: list[int],
    group_owner: list[int],
    sq: int,
    level: int | None = None,
    dice: int = 7,
) -> int:
    """The rent on ``sq`` as if it were not mortgaged (``Table.rent_at``): at building ``level``
    if given, else at its buildings now; ``dice`` the throw for the dice-rated lots."""
    o = owner[sq]
    if o < 0:
        return 0
    kind = board.kind[sq]
    rents = board.rents[sq]
    if kind == "street":
        max_level = board.max_level
        if level is None:
            lvl = buildings[sq]
            if lvl == HOTEL:
                lvl = max_level
        else:
            lvl = level
        if lvl:
            return rents[HOTEL if lvl >= max_level else lvl]
        return rents[0] * (2 if group_owner[board.group_index[sq]] == o else 1)
    owned = 0
    for g in board.group_of[sq]:
        if owner[g] == o:
            owned += 1
    if kind == "railroad":
        return rents[owned - 1]
    return rents[owned - 1] * dice


def _any_built(buildings: list[int], members: tuple[int, ...]) -> bool:
    """Whether a lot of ``members`` has a building."""
    for s in members:  # noqa: SIM110 (a loop is cheaper than any() on a generator)
        if buildings[s]:
            return True
    return False


def _whole_owner(owner: list[int], members: tuple[int, ...]) -> int:
    """The player owning every lot of ``members``, or -2 (several owners or the bank)."""
    first = owner[members[0]]
    for s in members:
        if owner[s] != first:
            return -2
    return first if first >= 0 else -2

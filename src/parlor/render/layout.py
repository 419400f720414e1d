"""Where each of the 40 squares sits on the drawn board, and where tokens stand on it.

Square 0 is the bottom-right corner and play runs clockwise, as on the printed boards: along the
bottom to Jail (bottom left), up the left side, along the top and down the right side. A side
square is drawn upright in its own frame, ``SIDE`` wide and ``CORNER`` deep with its inner edge
at the top, then turned to its side, so every name faces the player sitting on that edge.
"""

from __future__ import annotations

SIDE = 70  # width of a side square
CORNER = 110  # a corner's side, and the depth of a side square
BOARD = 2 * CORNER + 9 * SIDE  # the board's side: 850
INNER = CORNER + 9 * SIDE  # where the far corners start


def side_of(index: int) -> int:
    """0 bottom, 1 left, 2 top, 3 right; corners are 0, 10, 20, 30 themselves."""
    return index // 10


def is_corner(index: int) -> bool:
    return index % 10 == 0


def corner_origin(index: int) -> tuple[float, float]:
    """Top-left of a corner square."""
    return {0: (INNER, INNER), 10: (0, INNER), 20: (0, 0), 30: (INNER, 0)}[index]


def side_transform(index: int) -> tuple[float, float, int]:
    """(x, y, degrees): the side square's frame, moved to (x, y) and turned by degrees."""
    k = index % 10  # 1..9 along its side
    side = side_of(index)
    if side == 0:
        return CORNER + (9 - k) * SIDE, INNER, 0
    if side == 1:
        return CORNER, CORNER + (9 - k) * SIDE, 90
    if side == 2:
        return CORNER + k * SIDE, CORNER, 180
    return INNER, CORNER + k * SIDE, 270


def to_board(index: int, u: float, v: float) -> tuple[float, float]:
    """A point (u, v) of square ``index``'s own frame in board coordinates.

    >>> to_board(1, 0, 0), to_board(11, 0, 0), to_board(21, 0, 0), to_board(31, 0, 0)
    ((670, 740), (110, 670), (180, 110), (740, 180))
    """
    if is_corner(index):
        x0, y0 = corner_origin(index)
        return x0 + u, y0 + v
    x, y, deg = side_transform(index)
    if deg == 0:
        return x + u, y + v
    if deg == 90:
        return x - v, y + u
    if deg == 180:
        return x - u, y - v
    return x + v, y - u


def token_spot(
    index: int, slot: int, in_jail: bool = False, jail_square: int = 10
) -> tuple[float, float]:
    """Where token number ``slot`` (0..7, one per seat) stands on square ``index``.

    Tokens stand in two rows of four in the middle of a side square; on the jail corner, tokens
    in jail stand inside the cell and visitors along its outer edges.
    """
    col, row = slot % 4, slot // 4
    if index == jail_square and is_corner(index):
        if in_jail:  # inside the cell, the corner's inner part
            return to_board(index, 52 + 16 * col, 40 + 18 * row)
        if row == 0:  # just visiting: along the bottom strip, then up the left one
            return to_board(index, 40 + 18 * col, 91)
        return to_board(index, 15, 18 + 18 * col)
    if is_corner(index):
        return to_board(index, 32 + 15 * col, 80 + 16 * row)
    return to_board(index, 12.5 + 15 * col, 50 + 17 * row)

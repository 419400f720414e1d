"""The property game's board as a ring of its 40 squares, for a terminal of 78 columns or more.

Eleven squares a side, GO at the bottom right as on the printed board, play going clockwise
(bottom row right to left, up the left side, along the top, down the right side). Each square is
a cell three lines high and six characters wide::

    Boardw     the square's name, shortened (in the game's language; coloured by group)
    2hhh       the owner's number, then its buildings (h a house, H a hotel), M if mortgaged;
               "-" is a property still for sale
    @13        the numbers of the players standing there

The middle of the ring holds the legend: each player's number, name, cash and square.
"""

from __future__ import annotations

import re

from rich.text import Text

from parlor.monopoly import PropertyGame
from parlor.monopoly import text as words
from parlor.monopoly.text import HOTEL

CELL = 6  # characters of a square's cell (a space separates two cells)
SIDE = 11  # squares on one side of the board, corners included
WIDTH = SIDE * (CELL + 1) - 1  # 76 characters
INNER = (SIDE - 2) * (CELL + 1) - 1  # the middle's width

# Words that say what kind of place a square is rather than which: dropped when shortening.
_FILLER = {
    # English
    "the", "of", "to", "a", "in", "and", "avenue", "place", "street", "road", "lane", "boulevard",
    "railroad", "company", "co", "gardens",
    # Spanish
    "de", "del", "la", "el", "los", "las", "y", "avenida", "plaza", "ferrocarril", "compañía",
    "calle",
    # Danish
    "på", "og", "i",
}  # fmt: skip
_LETTERS = re.compile(r"[^\w]+")


def abbreviation(name: str) -> str:
    """A square's name in at most six characters: its telling word, or two words' beginnings.

    >>> abbreviation("Mediterranean Avenue"), abbreviation("New York Avenue")
    ('Medite', 'NewYor')
    >>> abbreviation("In Jail / Just Visiting"), abbreviation("Avenida Carolina del Norte")
    ('Jail', 'CarNor')
    """
    head = name.split("/")[0]  # "In Jail / Just Visiting": the first reading is enough
    parts = [_LETTERS.sub("", w) for w in head.split()]
    telling = [w for w in parts if w and w.lower() not in _FILLER] or [w for w in parts if w]
    if not telling:
        return name[:CELL]
    if len(telling) == 1:
        return telling[0][:CELL]
    return _join(telling[0], telling[1])


def _join(first: str, second: str) -> str:
    """The beginnings of two words, the second capitalised so that both read: "NewYor"."""
    return (first[:3] + second[:1].upper() + second[1:])[:CELL]


def abbreviations(names: list[str]) -> list[str]:
    """Each name's :func:`abbreviation`; two different names that would read the same keep the
    beginnings of their first and last words instead ("PenRai", "PenAve")."""
    short = [abbreviation(n) for n in names]
    for i, name in enumerate(names):
        if any(short[j] == short[i] and names[j] != name for j in range(len(names))):
            parts = [w for w in (_LETTERS.sub("", w) for w in name.split()) if w]
            if len(parts) > 1:
                short[i] = _join(parts[0], parts[-1])
    return short


def seat_mark(seat: int) -> str:
    """A seat in one character, so that marks side by side read apart: 1-9, then a, b, c...

    >>> [seat_mark(q) for q in (0, 8, 9, 34, 35)]
    ['1', '9', 'a', 'z', '#']
    """
    if seat < 9:
        return str(seat + 1)
    return chr(ord("a") + seat - 9) if seat < 35 else "#"


def _state(game: PropertyGame, prop: dict[str, object]) -> Text:
    owner = int(str(prop["owner"]))
    if owner < 0:
        return Text("-", style="dim")
    built = int(str(prop["buildings"]))
    mark = seat_mark(owner) + ("H" if built == HOTEL else "h" * built)
    if prop["mortgaged"]:
        mark += "M"
    return Text(mark[:CELL], style="bold")


def _position(square: int) -> tuple[int, int]:
    """The (row, column) of a square in the 11 x 11 grid."""
    side, k = divmod(square, 10)
    if side == 0:
        return SIDE - 1, SIDE - 1 - k  # bottom row, right to left
    if side == 1:
        return SIDE - 1 - k, 0  # left side, upwards
    if side == 2:
        return 0, k  # top row, left to right
    return k, SIDE - 1  # right side, downwards


def _legend(game: PropertyGame, lang: str) -> list[Text]:
    _ = words.tr(game, lang)
    view = game.view()
    lines = [Text(game.edition.title, style="bold")]
    for q, player in enumerate(view["players"]):
        if player["bankrupt"]:
            where = _("bankrupt")
        else:
            where = (
                words.money(game, player["cash"], lang)
                + ", "
                + words.square(game, player["position"], lang)
            )
            if player["in_jail"]:
                where += " (" + _("in jail") + ")"
        lines.append(Text(f"{seat_mark(q)} {player['name']}: {where}"))
    lines.append(Text(""))
    for text in (
        _("Under a square: its owner's number, h a house, H a hotel, M mortgaged; - for sale."),
        _("Below that, after @: the numbers of the players standing there."),
    ):
        lines.append(Text(text, style="dim"))
    return lines


def ring(game: PropertyGame, lang: str) -> list[Text]:
    """The board as a ring of cells, with the legend in the middle: 33 lines of 76 characters."""
    from parlor.cli.wrap import wrap_text

    view = game.view()
    props = {prop["square"]: prop for prop in view["properties"]}
    here: dict[int, str] = {}
    for q, player in enumerate(view["players"]):
        if not player["bankrupt"]:
            here[player["position"]] = here.get(player["position"], "") + seat_mark(q)
    cells: dict[tuple[int, int], list[Text]] = {}
    short = abbreviations([words.square(game, i, lang) for i in range(len(game.edition.squares))])
    for i, sq in enumerate(game.edition.squares):
        name = Text(short[i])
        if sq.group:
            name.stylize(_group_style(game, sq.group))
        state = _state(game, props[i]) if i in props else Text("")
        tokens = "@" + here[i] if i in here else ""
        token = Text(tokens if len(tokens) <= CELL else tokens[: CELL - 1] + "+", style="bold")
        cells[_position(i)] = [name, state, token]
    middle: list[Text] = []
    for line in _legend(game, lang):
        middle.extend(wrap_text(line, INNER))
    middle = middle[: (SIDE - 2) * 3]
    out = []
    for row in range(SIDE):
        for k in range(3):
            line = Text()
            for col in range(SIDE):
                if 0 < row < SIDE - 1 and 0 < col < SIDE - 1:
                    if col == 1:
                        index = (row - 1) * 3 + k
                        text = middle[index].copy() if index < len(middle) else Text()
                        text.pad_right(INNER - text.cell_len)
                        line.append_text(text)
                        line.append(" ")
                    continue
                piece = cells[(row, col)][k].copy()
                piece.truncate(CELL, pad=True)
                line.append_text(piece)
                if col < SIDE - 1:
                    line.append(" ")
            line.rstrip()
            out.append(line)
    return out


def _group_style(game: PropertyGame, group: str) -> str:
    colour = game.edition.group_colours.get(group)
    return f"bold {colour}" if colour else "bold"

"""Colours, and the second cue that goes with each: a letter and a pattern per street group, a
number per player, so that nothing is told by colour alone."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from parlor.monopoly.edition import Edition
from parlor.render.svg import sub

#: Street group colours by the group ids the bundled editions use (Matador's are Danish words).
GROUP_COLOURS = {
    "brown": "#8b4a2b",
    "light_blue": "#9fd3f0",
    "pink": "#d9438f",
    "orange": "#f28c28",
    "red": "#d62728",
    "yellow": "#f5d300",
    "green": "#1f8b4c",
    "dark_blue": "#1f3a93",
    "blaa": "#5da9e9",  # blå
    "groen": "#3a9d4a",  # grøn
    "graa": "#9a9a9a",  # grå
    "roed": "#d62728",  # rød
    "hvid": "#f4f4f4",  # hvid (white)
    "gul": "#f5d300",
    "lilla": "#7b3fa0",
}
#: Matador's group ids are Danish colour words spelt without æ, ø, å.
GROUP_WORDS = {"blaa": "blå", "groen": "grøn", "graa": "grå", "roed": "rød"}
#: For group ids of other edition files, in board order.
FALLBACK = ("#8b4a2b", "#9fd3f0", "#d9438f", "#f28c28", "#d62728", "#f5d300", "#1f8b4c", "#1f3a93")

#: Players: the Okabe-Ito palette (told apart with the common colour-vision deficiencies), and
#: every token and owner mark also carries the seat number.
PLAYER_COLOURS = (
    "#e69f00",
    "#56b4e9",
    "#009e73",
    "#f0e442",
    "#0072b2",
    "#d55e00",
    "#cc79a7",
    "#000000",
)

#: Pattern ids, one per street group in board order, drawn over the group colour.
PATTERNS = ("dots", "diagonal", "vertical", "grid", "horizontal", "backslash", "cross", "rings")


def player_colour(seat: int) -> str:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


class Groups:
    """The street groups of an edition, in board order, each with a colour, a letter, a pattern.

    >>> from parlor.monopoly.edition import load_edition
    >>> g = Groups(load_edition("classic"))
    >>> g.letter("brown"), g.letter("dark_blue"), g.colour("pink")
    ('A', 'H', '#d9438f')
    """

    def __init__(self, edition: Edition) -> None:
        order: list[str] = []
        for sq in edition.squares:
            if sq.kind == "street" and sq.group and sq.group not in order:
                order.append(sq.group)
        self.order = tuple(order)
        self._index = {g: i for i, g in enumerate(order)}

    def letter(self, group: str) -> str:
        return chr(ord("A") + self._index[group])

    def colour(self, group: str) -> str:
        return GROUP_COLOURS.get(group) or FALLBACK[self._index[group] % len(FALLBACK)]

    def pattern(self, group: str) -> str:
        return PATTERNS[self._index[group] % len(PATTERNS)]

    @staticmethod
    def label(group: str) -> str:
        """A group id as words: ``"dark_blue"`` -> ``"dark blue"``, ``"groen"`` -> ``"grøn"``."""
        return GROUP_WORDS.get(group) or group.replace("_", " ")


def pattern_defs(defs: ET.Element) -> None:
    """The group patterns: fine marks in translucent black, so the colour shows through."""
    ink = {"stroke": "#000000", "stroke_opacity": 0.45, "stroke_width": 1.2}
    for name in PATTERNS:
        pat = sub(
            defs, "pattern", id=f"pat-{name}", width=8, height=8, patternUnits="userSpaceOnUse"
        )
        if name == "dots":
            sub(pat, "circle", cx=4, cy=4, r=1.4, fill="#000000", fill_opacity=0.45)
        elif name == "diagonal":
            sub(pat, "path", d="M0 8 L8 0 M-2 2 L2 -2 M6 10 L10 6", **ink)
        elif name == "backslash":
            sub(pat, "path", d="M0 0 L8 8 M6 -2 L10 2 M-2 6 L2 10", **ink)
        elif name == "vertical":
            sub(pat, "path", d="M4 0 L4 8", **ink)
        elif name == "horizontal":
            sub(pat, "path", d="M0 4 L8 4", **ink)
        elif name == "grid":
            sub(pat, "path", d="M4 0 L4 8 M0 4 L8 4", **ink)
        elif name == "cross":
            sub(pat, "path", d="M0 0 L8 8 M8 0 L0 8", **ink)
        else:  # rings
            sub(pat, "circle", cx=4, cy=4, r=2.4, fill="none", **ink)
    hatch = sub(
        defs, "pattern", id="pat-mortgaged", width=6, height=6, patternUnits="userSpaceOnUse"
    )
    sub(hatch, "path", d="M0 6 L6 0 M-1 1 L1 -1 M5 7 L7 5", stroke="#444444", stroke_width=1)

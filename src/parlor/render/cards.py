"""TOOLS cards drawn as readable faces: the colour and the kind each in words and in shape.

A face shows its colour's name and a corner mark whose shape belongs to the colour (circle,
square, triangle, diamond...), the kind's name and a glyph for it (a hammer, a straight or bent
nail, a burst, turning arrows, a box, a toolbox, a brush), so no card is told by colour alone.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from parlor.render.svg import fit, ink_on, lines, sub, title
from parlor.tools.cards import COLORED_TYPES, TYPE_NAMES, WILD_TYPES

CARD_W = 64
CARD_H = 96
#: The default deck's colours first, in its order; any other colour sorts after them by name.
KNOWN_COLOURS = {"red": "#d62728", "blue": "#1f6fb4", "green": "#2a9d3a", "yellow": "#f5d300"}
OTHER_COLOURS = ("#8c564b", "#9467bd", "#17becf", "#e377c2", "#7f7f7f", "#bcbd22")
MARKS = ("circle", "square", "triangle", "diamond", "star", "cross", "hexagon", "bar")
WILD_FILL = "#2b2b2b"


def split(code: str) -> tuple[str, str | None]:
    """``"hammer:red"`` -> ``("hammer", "red")``; a wild's code has no colour."""
    kind, _, colour = code.partition(":")
    return kind, colour or None


class Colours:
    """Fill and corner mark of each card colour met in one picture, in a stable order."""

    def __init__(self, seen: list[str]) -> None:
        known = [c for c in KNOWN_COLOURS if c in seen]
        others = sorted(c for c in set(seen) if c not in KNOWN_COLOURS)
        self.order = [*known, *others]
        self._rank = {c: i for i, c in enumerate(self.order)}

    def rank(self, colour: str | None) -> int:
        return len(self.order) if colour is None else self._rank[colour]

    def fill(self, colour: str) -> str:
        if colour in KNOWN_COLOURS:
            return KNOWN_COLOURS[colour]
        return OTHER_COLOURS[self._rank[colour] % len(OTHER_COLOURS)]

    def mark(self, colour: str) -> str:
        index = list(KNOWN_COLOURS).index(colour) if colour in KNOWN_COLOURS else self._rank[colour]
        return MARKS[index % len(MARKS)]


def sort_key(code: str, colours: Colours) -> tuple[int, int]:
    """Cards by colour, then kind in the deck's order; wilds last."""
    kind, colour = split(code)
    order = [*COLORED_TYPES, *WILD_TYPES]
    return colours.rank(colour), order.index(kind) if kind in order else len(order)


def card_words(code: str) -> str:
    kind, colour = split(code)
    name = TYPE_NAMES.get(kind, kind.replace("_", " "))
    return name if colour is None else f"{colour} {name}"


def mark_shape(parent: ET.Element, mark: str, x: float, y: float, r: float, fill: str) -> None:
    """A small shape centred at (x, y): the colour's second cue."""
    style: dict[str, object] = {"fill": fill, "stroke": "#000", "stroke_width": 1}
    if mark == "circle":
        sub(parent, "circle", cx=x, cy=y, r=r, **style)
    elif mark == "square":
        sub(parent, "rect", x=x - r, y=y - r, width=2 * r, height=2 * r, **style)
    elif mark == "triangle":
        sub(parent, "path", d=f"M{x} {y - r} L{x + r} {y + r} L{x - r} {y + r} Z", **style)
    elif mark == "diamond":
        sub(parent, "path", d=f"M{x} {y - r} L{x + r} {y} L{x} {y + r} L{x - r} {y} Z", **style)
    elif mark == "cross":
        w = r / 2.5
        sub(
            parent,
            "path",
            d=f"M{x - w} {y - r} h{2 * w} v{r - w} h{r - w} v{2 * w} h{w - r} v{r - w} h{-2 * w} v{w - r} h{w - r} v{-2 * w} h{r - w} Z",
            **style,
        )
    elif mark == "bar":
        sub(parent, "rect", x=x - r, y=y - r / 2, width=2 * r, height=r, **style)
    else:  # star, hexagon: a six-pointed star will do for both beyond the first seven
        pts = []
        for k in range(12):
            rad = r if k % 2 == 0 else r * 0.5
            a = math.pi * k / 6
            pts.append(f"{x + rad * math.sin(a):.2f} {y - rad * math.cos(a):.2f}")
        sub(parent, "path", d="M" + " L".join(pts) + " Z", **style)


def glyph(parent: ET.Element, kind: str, cx: float, cy: float) -> None:
    """The kind's picture, in black on the card's white middle, about 30 units across."""
    ink: dict[str, object] = {
        "fill": "none",
        "stroke": "#000",
        "stroke_width": 2.2,
        "stroke_linecap": "round",
        "stroke_linejoin": "round",
    }
    solid: dict[str, object] = {"fill": "#000", "stroke": "#000", "stroke_width": 1}
    g = sub(parent, "g", class_=f"glyph glyph-{kind}", transform=f"translate({cx},{cy})")
    if kind in ("hammer", "wild_hammer"):
        sub(g, "rect", x=-2.5, y=-6, width=5, height=20, rx=1.5, **solid)
        sub(g, "path", d="M-11 -13 h17 l5 3 v4 h-22 z", **solid)
        if kind == "wild_hammer":
            sub(g, "text", "*", x=11, y=10, font_size=14, font_weight="bold", text_anchor="middle")
    elif kind == "good_nail":
        sub(g, "path", d="M-7 -13 h14", **ink)
        sub(g, "path", d="M0 -13 V10 L0 14", **ink)
        sub(g, "path", d="M-2 9 L0 15 L2 9", **solid)
    elif kind == "bent_nail":
        sub(g, "path", d="M-9 -13 h12", **ink)
        sub(g, "path", d="M-3 -13 V0 L8 8", **ink)
    elif kind == "smashed_finger":
        pts = []
        for k in range(16):
            rad = 14 if k % 2 == 0 else 6
            a = math.pi * k / 8
            pts.append(f"{rad * math.sin(a):.2f} {-rad * math.cos(a):.2f}")
        sub(g, "path", d="M" + " L".join(pts) + " Z", fill="#fff", stroke="#000", stroke_width=1.6)
        sub(g, "circle", cx=0, cy=0, r=3, **solid)
    elif kind == "reverse":
        sub(g, "path", d="M-11 -3 A11 11 0 0 1 9 -7", **ink)
        sub(g, "path", d="M4 -11 L10 -7 L5 -2", **ink)
        sub(g, "path", d="M11 3 A11 11 0 0 1 -9 7", **ink)
        sub(g, "path", d="M-4 11 L-10 7 L-5 2", **ink)
    elif kind == "box_of_nails":
        sub(
            g,
            "rect",
            x=-13,
            y=-4,
            width=26,
            height=16,
            fill="#fff",
            stroke="#000",
            stroke_width=1.8,
        )
        for dx in (-7, 0, 7):
            sub(g, "path", d=f"M{dx - 3} -12 h6 M{dx} -12 V-1", **ink)
    elif kind == "toolbox":
        sub(
            g,
            "rect",
            x=-14,
            y=-5,
            width=28,
            height=17,
            rx=2,
            fill="#fff",
            stroke="#000",
            stroke_width=2,
        )
        sub(g, "path", d="M-6 -5 V-11 H6 V-5", **ink)
        sub(g, "path", d="M-14 2 H14", **ink)
    elif kind == "paint_brush":
        sub(g, "rect", x=-2.5, y=-14, width=5, height=15, rx=2, **solid)
        sub(g, "rect", x=-5, y=1, width=10, height=4, fill="#888", stroke="#000")
        sub(
            g,
            "path",
            d="M-5 5 Q-6 12 -1 15 L1 15 Q6 12 5 5 Z",
            fill="#fff",
            stroke="#000",
            stroke_width=1.6,
        )
    else:  # a kind another deck file adds: its name is written on the card anyway
        sub(g, "text", "?", x=0, y=6, font_size=18, text_anchor="middle")


def card(
    parent: ET.Element,
    code: str,
    x: float,
    y: float,
    colours: Colours,
    *,
    cls: str = "card",
    note: str = "",
) -> ET.Element:
    """One card face with its top-left corner at (x, y)."""
    kind, colour = split(code)
    fill = WILD_FILL if colour is None else colours.fill(colour)
    ink = ink_on(fill)
    g = sub(
        parent,
        "g",
        class_=cls,
        data_card=code,
        data_kind=kind,
        data_color=colour or "",
        transform=f"translate({x},{y})",
    )
    title(g, card_words(code) + (f" ({note})" if note else ""))
    sub(
        g,
        "rect",
        x=0,
        y=0,
        width=CARD_W,
        height=CARD_H,
        rx=6,
        fill=fill,
        stroke="#000",
        stroke_width=1.2,
    )
    sub(
        g,
        "ellipse",
        cx=CARD_W / 2,
        cy=CARD_H / 2 + 2,
        rx=24,
        ry=22,
        fill="#fff",
        stroke="#000",
        stroke_width=0.8,
    )
    if colour is None:
        sub(
            g,
            "text",
            "WILD",
            x=CARD_W / 2,
            y=12,
            font_size=8.5,
            font_weight="bold",
            text_anchor="middle",
            fill=ink,
        )
    else:
        mark_shape(g, colours.mark(colour), 9, 10, 5, "#fff")
        sub(
            g,
            "text",
            colour.upper()[:8],
            x=CARD_W / 2 + 6,
            y=13,
            font_size=8.5,
            font_weight="bold",
            text_anchor="middle",
            fill=ink,
            class_="card-colour",
        )
    glyph(g, kind, CARD_W / 2, CARD_H / 2 + 2)
    name = TYPE_NAMES.get(kind, kind.replace("_", " "))
    rows, size = fit(name, CARD_W - 6, 8.5, 2)
    top = CARD_H - 13 if len(rows) == 1 else CARD_H - 19
    # The kind's name on a white ribbon, readable on every colour.
    sub(
        g,
        "rect",
        x=3,
        y=top - 9,
        width=CARD_W - 6,
        height=CARD_H - top + 6,
        rx=3,
        fill="#fff",
        fill_opacity=0.92,
    )
    lines(g, rows, CARD_W / 2, top, size, 9, fill="#000", class_="card-kind")
    return g


def card_back(
    parent: ET.Element,
    x: float,
    y: float,
    w: float = CARD_W,
    h: float = CARD_H,
    cls: str = "card-back",
) -> ET.Element:
    """The back of a card: the same for every card, so it tells nothing."""
    g = sub(parent, "g", class_=cls, transform=f"translate({x},{y})")
    sub(
        g,
        "rect",
        x=0,
        y=0,
        width=w,
        height=h,
        rx=w / 10,
        fill="#5b3a1e",
        stroke="#000",
        stroke_width=1,
    )
    sub(
        g,
        "rect",
        x=w * 0.12,
        y=h * 0.08,
        width=w * 0.76,
        height=h * 0.84,
        rx=w / 14,
        fill="none",
        stroke="#e8c07a",
        stroke_width=max(0.8, w / 40),
    )
    if w >= 40:
        sub(
            g,
            "text",
            "TOOLS",
            x=w / 2,
            y=h / 2 + 4,
            font_size=w / 5.5,
            font_weight="bold",
            text_anchor="middle",
            fill="#e8c07a",
        )
    return g

"""Card kinds and decks of TOOLS.

A *kind* is a card's face: a colored type (``"hammer:red"``) or a wild (``"toolbox"``). Cards of one
kind are interchangeable, so the engine keeps hands as counts per kind and names cards by their
code. A :class:`Deck` is data: its colors and how many copies of each kind it holds. The default
deck ships as ``parlor/tools/data/default.toml``; any other TOML file of the same shape may be used.

>>> deck = default_deck()
>>> deck.colors
('red', 'blue', 'green', 'yellow')
>>> deck.size, deck.code(deck.kind_index("good_nail:blue"))
(92, 'good_nail:blue')
"""

from __future__ import annotations

import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from parlor.core.errors import E_, SettingsError
from parlor.core.files import read_text_limited
from parlor.core.validate import short_repr, toml_problem

#: The colored types, in action-id order: three base cards, then three action cards.
COLORED_TYPES: tuple[str, ...] = (
    "hammer",
    "good_nail",
    "bent_nail",
    "smashed_finger",
    "reverse",
    "box_of_nails",
)
#: The wild types (no color), in action-id order.
WILD_TYPES: tuple[str, ...] = ("toolbox", "wild_hammer", "paint_brush")
BASE_TYPES = frozenset({"hammer", "good_nail", "bent_nail"})
ACTION_TYPES = frozenset({"smashed_finger", "reverse", "box_of_nails"})

#: Readable names, for messages and the terminal game.
TYPE_NAMES: Mapping[str, str] = {
    "hammer": E_("hammer"),
    "good_nail": E_("good nail"),
    "bent_nail": E_("bent nail"),
    "smashed_finger": E_("smashed finger"),
    "reverse": E_("change of turn"),
    "box_of_nails": E_("box of nails"),
    "toolbox": E_("toolbox"),
    "wild_hammer": E_("wild hammer"),
    "paint_brush": E_("paint brush"),
}

MAX_COLORS = 8
#: Bounds that keep a hostile deck file from costing memory or time (the default deck has 92).
MAX_COPIES = 200
MAX_DECK_SIZE = 2000
MAX_DECK_BYTES = 1 << 16
MAX_COLOR_NAME = 24


@dataclass(frozen=True)
class Deck:
    """A TOOLS deck: its colors and the number of copies of each card kind.

    ``copies`` maps every kind code (``"type:color"`` or a wild's type) to a count; kinds absent
    from it have no copies. Build one with :func:`parse_deck` (which validates) rather than by hand.
    """

    name: str
    colors: tuple[str, ...]
    copies: Mapping[str, int]

    # ----- kind numbering: colored type t, color c -> t * C + c; wild w -> 6 * C + w -------------
    @cached_property
    def codes(self) -> tuple[str, ...]:
        """Every kind code of this deck's colors, in kind-index order (zero-copy kinds included)."""
        colored = [f"{t}:{c}" for t in COLORED_TYPES for c in self.colors]
        return (*colored, *WILD_TYPES)

    @cached_property
    def _index(self) -> dict[str, int]:
        return {code: i for i, code in enumerate(self.codes)}

    @property
    def num_kinds(self) -> int:
        return len(self.codes)

    def kind_index(self, code: str) -> int:
        """The index of a kind code; raises :class:`KeyError` for an unknown code."""
        return self._index[code]

    def code(self, kind: int) -> str:
        return self.codes[kind]

    def kind_type(self, kind: int) -> str:
        """The type of a kind index (``"hammer"``, ``"toolbox"``...)."""
        c = len(self.colors)
        return COLORED_TYPES[kind // c] if kind < 6 * c else WILD_TYPES[kind - 6 * c]

    def kind_color(self, kind: int) -> int | None:
        """The color index of a kind, or ``None`` for a wild."""
        c = len(self.colors)
        return kind % c if kind < 6 * c else None

    def card_name(self, kind: int) -> str:
        """A readable name: ``"red hammer"``, ``"paint brush"``."""
        color = self.kind_color(kind)
        name = TYPE_NAMES[self.kind_type(kind)]
        return name if color is None else f"{self.colors[color]} {name}"

    def kind_of(self, type_: str, color: int | None = None) -> int:
        """The kind index of a type (and color index for colored types)."""
        c = len(self.colors)
        if type_ in WILD_TYPES:
            return 6 * c + WILD_TYPES.index(type_)
        assert color is not None
        return COLORED_TYPES.index(type_) * c + color

    @property
    def counts(self) -> list[int]:
        """Copies per kind index."""
        return [int(self.copies.get(code, 0)) for code in self.codes]

    @property
    def size(self) -> int:
        return sum(self.copies.values())

    def cards(self) -> list[int]:
        """Every card of the deck as a kind index, in kind order (shuffle before use)."""
        return [k for k, n in enumerate(self.counts) for _ in range(n)]

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data that :func:`parse_deck` turns back into this deck."""
        return {
            "name": self.name,
            "colors": list(self.colors),
            "exact": {code: n for code in self.codes if (n := int(self.copies.get(code, 0)))},
        }


def _count(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COPIES:
        raise SettingsError(
            E_(
                "deck: {where} must be a whole number of copies from 0 to {most}, not {value}",
                where=where,
                most=MAX_COPIES,
                value=short_repr(value),
            )
        )
    return value


def parse_deck(data: Mapping[str, Any]) -> Deck:
    """Validate parsed deck data (a TOML table or :meth:`Deck.to_dict` output) into a :class:`Deck`.

    The shape: ``colors`` (a list of names), ``[copies]`` (copies *per color* of each colored
    type), ``[wilds]`` (copies of each wild) and ``[exact]`` (``"type:color"`` or wild type ->
    copies, overriding the other tables). Unknown keys, bad counts, or a deck without base cards
    raise :class:`SettingsError`.

    >>> parse_deck({"colors": ["red"], "copies": {"hammer": 2}}).size
    2
    >>> parse_deck({"colors": ["red"], "copies": {"hamer": 2}})
    Traceback (most recent call last):
    ...
    parlor.core.errors.SettingsError: deck: unknown card type 'hamer' in [copies]; known: ...
    """
    if not isinstance(data, Mapping):
        raise SettingsError(E_("deck: expected a table, not {kind}", kind=type(data).__name__))
    known = {"name", "colors", "copies", "wilds", "exact", "description"}
    unknown = [key for key in data if key not in known]
    if unknown:
        shown = ", ".join(short_repr(key) for key in unknown[:5])
        raise SettingsError(E_("deck: unknown key(s) {shown}", shown=shown))
    colors = data.get("colors")
    if (
        not isinstance(colors, list | tuple)
        or not colors
        or not all(
            isinstance(c, str) and len(c) <= MAX_COLOR_NAME and c.strip() and ":" not in c
            for c in colors[: MAX_COLORS + 1]
        )
    ):
        raise SettingsError(
            E_(
                "deck: 'colors' must be a non-empty list of color names (no ':', at most {most} "
                "characters)",
                most=MAX_COLOR_NAME,
            )
        )
    for c in colors[:MAX_COLORS]:
        _printable("colors", c)
    if len(colors) > MAX_COLORS:
        raise SettingsError(
            E_(
                "deck: at most {most} colors, got {count}",
                most=MAX_COLORS,
                count=len(colors),
            )
        )
    if len(set(colors)) != len(colors):
        raise SettingsError(E_("deck: duplicate color in {colors}", colors=list(colors)))
    copies: dict[str, int] = {}
    per_color = data.get("copies", {})
    if not isinstance(per_color, Mapping):
        raise SettingsError(E_("deck: [copies] must be a table of type = copies per color"))
    for type_, n in per_color.items():
        if type_ not in COLORED_TYPES:
            raise SettingsError(
                E_(
                    "deck: unknown card type {kind} in [copies]; known: {choices}",
                    kind=short_repr(type_),
                    choices=", ".join(COLORED_TYPES),
                )
            )
        for color in colors:
            copies[f"{type_}:{color}"] = _count(n, f"copies.{type_}")
    wilds = data.get("wilds", {})
    if not isinstance(wilds, Mapping):
        raise SettingsError(E_("deck: [wilds] must be a table of wild type = copies"))
    for type_, n in wilds.items():
        if type_ not in WILD_TYPES:
            raise SettingsError(
                E_(
                    "deck: unknown wild {kind} in [wilds]; known: {choices}",
                    kind=short_repr(type_),
                    choices=", ".join(WILD_TYPES),
                )
            )
        copies[type_] = _count(n, f"wilds.{type_}")
    exact = data.get("exact", {})
    if not isinstance(exact, Mapping):
        raise SettingsError(E_("deck: [exact] must be a table of 'type:color' = copies"))
    valid = {f"{t}:{c}" for t in COLORED_TYPES for c in colors} | set(WILD_TYPES)
    for code, n in exact.items():
        if code not in valid:
            raise SettingsError(
                E_(
                    "deck: unknown card {code} in [exact]; use 'type:color' with a deck color, "
                    "or a wild type",
                    code=short_repr(code),
                )
            )
        copies[code] = _count(n, f"exact.{code}")
    copies = {k: v for k, v in copies.items() if v}
    if sum(copies.values()) > MAX_DECK_SIZE:
        raise SettingsError(
            E_(
                "deck: at most {most} cards, not {count}",
                most=MAX_DECK_SIZE,
                count=sum(copies.values()),
            )
        )
    if not any(code.split(":")[0] in BASE_TYPES for code in copies):
        raise SettingsError(E_("deck: it needs at least one base card (hammer, good or bent nail)"))
    name = data.get("name", "custom")
    if not isinstance(name, str) or not 1 <= len(name) <= 60:
        raise SettingsError(E_("deck: 'name' must be a text of 1 to 60 characters"))
    _printable("name", name)
    description = data.get("description", "")
    if not isinstance(description, str) or len(description) > 2000:
        raise SettingsError(E_("deck: 'description' must be a text of at most 2000 characters"))
    return Deck(name=name, colors=tuple(colors), copies=copies)


def _printable(field: str, text: str) -> None:
    """Refuse control characters (an escape sequence, a newline) and lone surrogates, as in player
    names: a terminal or a log would show a deck's colors and name raw (issue 20)."""
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in text):
        raise SettingsError(
            E_(
                "deck: {field} may not hold control characters: {value}",
                field=repr(field),
                value=short_repr(text),
            )
        )


def load_deck(path: str | Path) -> Deck:
    """Read and validate a deck TOML file."""
    text = read_text_limited(path, MAX_DECK_BYTES, what=E_("deck"))
    try:
        data = tomllib.loads(text)
    except ValueError as exc:  # (TOMLDecodeError, or an integer of more than 4300 digits)
        raise SettingsError(
            E_(
                "deck: {path} is not valid TOML: {reason}",
                path=short_repr(str(path), 80),
                reason=toml_problem(exc),
            )
        ) from exc
    except RecursionError:
        raise SettingsError(
            E_("deck: {path} is nested too deeply", path=short_repr(str(path), 80))
        ) from None
    return parse_deck(data)


def bundled_deck(name: str) -> Deck:
    """A deck shipped in ``parlor/tools/data/`` (``"default"``, or a study candidate)."""
    res = resources.files("parlor.tools").joinpath("data", f"{name}.toml")
    if not res.is_file():
        raise SettingsError(E_("deck: no bundled deck named {name}", name=repr(name)))
    return parse_deck(tomllib.loads(res.read_text(encoding="utf-8")))


@lru_cache(maxsize=1)
def default_deck() -> Deck:
    """The default deck (``data/default.toml``); see ``docs/tools-deck.md`` for why.

    Parsed once: a :class:`Deck` is immutable, so every game may share it.
    """
    return bundled_deck("default")


def resolve_deck(deck: Deck | Mapping[str, Any] | str | Path | None) -> Deck:
    """Accept a :class:`Deck`, parsed data, a path to a TOML file, or ``None`` (the default)."""
    if deck is None:
        return default_deck()
    if isinstance(deck, Deck):
        return deck
    if isinstance(deck, str | Path):
        return load_deck(deck)
    if isinstance(deck, Mapping):
        return parse_deck(deck)
    raise SettingsError(
        E_("deck: expected a path, a table or a Deck, not {kind}", kind=type(deck).__name__)
    )

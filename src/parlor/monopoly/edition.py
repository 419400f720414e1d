"""Editions are data: one TOML file per edition under ``parlor/monopoly/data/``.

An edition holds the board (40 squares), the card decks, the money and stock figures, the texts in
each of its languages, and the default rule options. The engine reads nothing else about an edition,
so a new edition is a new file, not new code.

The file format (every amount in the edition's currency units)::

    [edition]
    id = "classic"                  # the name new_game() takes
    title = "Millennium Edition"
    rulebook = "millennium-edition.en.txt"
    languages = ["en"]              # the first is the default display language
    currency = "$"                  # shown by format_money
    currency_after = false          # "10 $" / "200 kr." when true
    min_players = 2
    max_players = 8
    starting_cash = 1500
    salary = 200                    # paid for passing or landing on Go
    jail_fine = 50
    houses = 32
    hotels = 12
    hotel_cost_factor = 1           # hotel price = factor x house price (Matador: 5)
    mortgage_interest_percent = 10
    mortgage_interest_round = 1     # interest rounded UP to a multiple of this (Matador: 100)
    income_tax_percent = 10         # the percentage of total worth a tax square may take instead
    auction_min_bid = 1             # the lowest opening bid (latam: 10)
    money_unit = 1                  # smallest useful amount; bid steps are multiples of it
    go_square = 0
    jail_square = 10

    [options]                       # edition defaults for RuleOptions fields (see rules.py)
    income_tax_choice = true

    [texts.en]                      # UI words, per language (see TEXT_KEYS)
    go = "GO"
    ...

    [groups.brown]                  # optional, per group: its name per language and its colour
    name = { en = "Brown", es = "Marrón" }
    colour = "#955436"

    [[squares]]                     # exactly 40, in board order, index 0..39
    index = 1
    kind = "street"                 # go street railroad utility chance community_chest tax
                                    # jail free_parking go_to_jail
    name = { en = "Mediterranean Avenue" }
    group = "brown"                 # streets: colour group id; railroad/utility: their own group
    price = 60
    rents = [2, 10, 30, 90, 160, 250]   # street: 0..4 houses, hotel; railroad: 1..4 owned;
                                        # utility: dice multipliers for 1..2 owned
    house_cost = 50
    mortgage = 30
    tax = 200                       # tax squares: the flat amount
    tax_percent_option = true       # tax squares: may the player pay a percentage of worth instead
    deck = "chance"                 # chance/community_chest squares: which deck is drawn

    [[decks]]
    id = "chance"
    name = { en = "Chance" }

    [[cards]]
    deck = "chance"
    text = { en = "Advance to Go (Collect $200)" }
    effect = "move_to"              # see CARD_EFFECTS
    target = 0
    copies = 1
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from parlor.core.errors import E_, SettingsError
from parlor.core.files import read_text_limited
from parlor.core.validate import short_repr, toml_problem
from parlor.monopoly.edition_schema import check_edition_data

#: The largest edition file read (the bundled ones are about 30 kB).
MAX_EDITION_BYTES = 1 << 20

PROPERTY_KINDS = frozenset({"street", "railroad", "utility"})

#: Card effects the engine knows, and the fields each needs besides ``deck``, ``text``, ``copies``.
CARD_EFFECTS: Mapping[str, tuple[str, ...]] = {
    "move_to": ("target",),  # advance to a square, salary if Go is passed (target 0: Go itself)
    "move_relative": ("steps",),  # move by steps (negative: back), no salary going back
    "move_nearest": ("kind", "rent_multiplier"),  # advance to the nearest square of that kind;
    # railroads: owner gets rent x rent_multiplier; utilities: the mover throws the dice and pays
    # rent_multiplier x the throw (field dice_multiplier overrides the owned-count multiplier)
    "collect": ("amount",),
    "pay": ("amount",),
    "collect_from_each": ("amount",),
    "pay_each": ("amount",),
    "repairs": ("per_house", "per_hotel"),
    "get_out_of_jail": (),
    "go_to_jail": (),
    "collect_if_worth_at_most": ("amount", "limit"),  # Matador's legat: worth <= limit
}

#: UI words every language of an edition must define.
TEXT_KEYS = (
    "go",
    "jail",
    "just_visiting",
    "go_to_jail",
    "free_parking",
    "bank",
    "house",
    "hotel",
    "houses",
    "hotels",
    "mortgaged",
    "get_out_of_jail_card",
    "income_tax",
)


@dataclass(frozen=True, slots=True)
class Square:
    index: int
    kind: str
    name: Mapping[str, str]
    group: str | None = None
    price: int = 0
    rents: tuple[int, ...] = ()
    house_cost: int = 0
    mortgage: int = 0
    tax: int = 0
    tax_percent_option: bool = False
    deck: str | None = None

    @property
    def is_property(self) -> bool:
        return self.kind in PROPERTY_KINDS


@dataclass(frozen=True, slots=True)
class Card:
    id: int  # position of the card in the edition's card list (copies expanded)
    deck: str
    effect: str
    text: Mapping[str, str]
    target: int | None = None
    steps: int = 0
    kind: str | None = None
    rent_multiplier: int = 1
    dice_multiplier: int | None = None
    amount: int = 0
    per_house: int = 0
    per_hotel: int = 0
    limit: int = 0


@dataclass(frozen=True, slots=True)
class Edition:
    id: str
    title: str
    rulebook: str
    languages: tuple[str, ...]
    currency: str
    currency_after: bool
    min_players: int
    max_players: int
    starting_cash: int
    salary: int
    jail_fine: int
    houses: int
    hotels: int
    hotel_cost_factor: int
    mortgage_interest_percent: int
    mortgage_interest_round: int
    income_tax_percent: int
    auction_min_bid: int
    money_unit: int
    go_square: int
    jail_square: int
    squares: tuple[Square, ...]
    decks: Mapping[str, Mapping[str, str]]  # deck id -> name per language
    cards: tuple[Card, ...]
    texts: Mapping[str, Mapping[str, str]]
    option_defaults: Mapping[str, Any] = field(default_factory=dict)
    group_names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # id -> lang -> name
    group_colours: Mapping[str, str] = field(default_factory=dict)  # id -> "#rrggbb"

    # Derived tables, filled in by parse_edition (kept here so the engine's hot path is lookups).
    groups: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    property_squares: tuple[int, ...] = ()

    @property
    def language(self) -> str:
        return self.languages[0]

    def square_name(self, index: int, language: str | None = None) -> str:
        names = self.squares[index].name
        return names.get(language or self.language) or next(iter(names.values()))

    def deck_name(self, deck: str, language: str | None = None) -> str:
        names = self.decks[deck]
        return names.get(language or self.language) or next(iter(names.values()))

    def card_text(self, card: int, language: str | None = None) -> str:
        texts = self.cards[card].text
        return texts.get(language or self.language) or next(iter(texts.values()))

    def group_name(self, group: str, language: str | None = None) -> str:
        """A colour group's name in ``language`` (else the edition's language, else its id)."""
        names = self.group_names.get(group, {})
        found = names.get(language or self.language) or names.get(self.language)
        return found or group.replace("_", " ")

    def text(self, key: str, language: str | None = None) -> str:
        return self.texts[language or self.language][key]

    def format_money(self, amount: int) -> str:
        if self.currency_after:
            return f"{amount:,} {self.currency}".replace(",", ".")
        return f"{self.currency}{amount:,}"

    def hotel_cost(self, square: int) -> int:
        return self.squares[square].house_cost * self.hotel_cost_factor

    def mortgage_interest(self, square: int) -> int:
        """10% of the mortgage value, rounded up to the edition's rounding step."""
        base = self.squares[square].mortgage * self.mortgage_interest_percent
        step = self.mortgage_interest_round
        tenth = -(-base // 100)  # ceil
        return -(-tenth // step) * step


EDITION_IDS = ("classic", "matco", "latam", "matador")


def _need(table: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in table:
        raise SettingsError(E_("{where}: missing field {key}", where=where, key=repr(key)))
    return table[key]


def parse_edition(data: Mapping[str, Any], source: str = "<edition>") -> Edition:
    """Build and validate an :class:`Edition` from parsed TOML data (checked against the schema
    of :mod:`parlor.monopoly.edition_schema` first)."""
    check_edition_data(data, source)
    meta = _need(data, "edition", source)
    languages = tuple(_need(meta, "languages", source))
    squares = []
    raw_squares = _need(data, "squares", source)
    if len(raw_squares) != 40:
        raise SettingsError(
            E_(
                "{source}: a board has 40 squares, found {count}",
                source=source,
                count=len(raw_squares),
            )
        )
    for i, raw in enumerate(raw_squares):
        where: str = E_("{source}: square {index}", source=source, index=i)
        if raw.get("index", i) != i:
            raise SettingsError(
                E_("{where}: index {index} out of order", where=where, index=raw.get("index"))
            )
        kind = _need(raw, "kind", where)  # (one of the schema's SquareKind)
        sq = Square(
            index=i,
            kind=kind,
            name=dict(_need(raw, "name", where)),
            group=raw.get("group"),
            price=int(raw.get("price", 0)),
            rents=tuple(int(r) for r in raw.get("rents", ())),
            house_cost=int(raw.get("house_cost", 0)),
            mortgage=int(raw.get("mortgage", 0)),
            tax=int(raw.get("tax", 0)),
            tax_percent_option=bool(raw.get("tax_percent_option", False)),
            deck=raw.get("deck"),
        )
        expected_rents = {"street": 6, "railroad": 4, "utility": 2}.get(kind)
        if expected_rents is not None:
            if len(sq.rents) != expected_rents or not sq.group or sq.price <= 0 or sq.mortgage <= 0:
                raise SettingsError(
                    E_(
                        "{where}: a {kind} needs group, price, mortgage and {rents} rents",
                        where=where,
                        kind=kind,
                        rents=expected_rents,
                    )
                )
            if kind == "street" and sq.house_cost <= 0:
                raise SettingsError(E_("{where}: a street needs a house_cost", where=where))
        squares.append(sq)
    decks = {d["id"]: dict(d["name"]) for d in _need(data, "decks", source)}
    for sq in squares:
        if sq.kind in ("chance", "community_chest") and sq.deck not in decks:
            raise SettingsError(
                E_(
                    "{source}: square {index} draws from unknown deck {deck}",
                    source=source,
                    index=sq.index,
                    deck=repr(sq.deck),
                )
            )
    cards: list[Card] = []
    for j, raw in enumerate(data.get("cards", ())):
        where = E_("{source}: card {index}", source=source, index=j)
        effect = _need(raw, "effect", where)  # (one of the schema's Effect)
        if raw.get("deck") not in decks:
            raise SettingsError(
                E_("{where}: unknown deck {deck}", where=where, deck=repr(raw.get("deck")))
            )
        for needed in CARD_EFFECTS[effect]:
            _need(raw, needed, where)
        for _ in range(int(raw.get("copies", 1))):
            cards.append(
                Card(
                    id=len(cards),
                    deck=raw["deck"],
                    effect=effect,
                    text=dict(_need(raw, "text", where)),
                    target=raw.get("target"),
                    steps=int(raw.get("steps", 0)),
                    kind=raw.get("kind"),
                    rent_multiplier=int(raw.get("rent_multiplier", 1)),
                    dice_multiplier=raw.get("dice_multiplier"),
                    amount=int(raw.get("amount", 0)),
                    per_house=int(raw.get("per_house", 0)),
                    per_hotel=int(raw.get("per_hotel", 0)),
                    limit=int(raw.get("limit", 0)),
                )
            )
    texts = {lang: dict(t) for lang, t in data.get("texts", {}).items()}
    for lang in languages:
        missing = [k for k in TEXT_KEYS if k not in texts.get(lang, {})]
        if missing:
            raise SettingsError(
                E_(
                    "{source}: texts.{lang} lacks {keys}",
                    source=source,
                    lang=lang,
                    keys=", ".join(missing),
                )
            )
    groups: dict[str, list[int]] = {}
    for sq in squares:
        if sq.is_property and sq.group:
            groups.setdefault(sq.group, []).append(sq.index)

    group_names: dict[str, dict[str, str]] = {}
    group_colours: dict[str, str] = {}
    raw_groups = data.get("groups", {})
    if not isinstance(raw_groups, Mapping):
        raise SettingsError(E_("{source}: [groups] must be a table of groups", source=source))
    for gid, raw in raw_groups.items():
        if gid not in groups or not isinstance(raw, Mapping):
            raise SettingsError(
                E_("{source}: [groups.{gid}] names no group of the board", source=source, gid=gid)
            )
        names = raw.get("name", {})
        if not isinstance(names, Mapping) or not all(
            isinstance(v, str) and v for v in names.values()
        ):
            raise SettingsError(
                E_(
                    "{source}: groups.{gid}.name must map languages to names",
                    source=source,
                    gid=gid,
                )
            )
        group_names[gid] = dict(names)
        colour = raw.get("colour")
        if colour is not None:
            if not (isinstance(colour, str) and len(colour) == 7 and colour.startswith("#")):
                raise SettingsError(
                    E_(
                        '{source}: groups.{gid}.colour must be like "#1fb25a"',
                        source=source,
                        gid=gid,
                    )
                )
            group_colours[gid] = colour

    def num(key: str) -> int:
        return int(_need(meta, key, source))

    return Edition(
        id=str(_need(meta, "id", source)),
        title=str(_need(meta, "title", source)),
        rulebook=str(meta.get("rulebook", "")),
        languages=languages,
        currency=str(_need(meta, "currency", source)),
        currency_after=bool(meta.get("currency_after", False)),
        min_players=num("min_players"),
        max_players=num("max_players"),
        starting_cash=num("starting_cash"),
        salary=num("salary"),
        jail_fine=num("jail_fine"),
        houses=num("houses"),
        hotels=num("hotels"),
        hotel_cost_factor=int(meta.get("hotel_cost_factor", 1)),
        mortgage_interest_percent=int(meta.get("mortgage_interest_percent", 10)),
        mortgage_interest_round=int(meta.get("mortgage_interest_round", 1)),
        income_tax_percent=int(meta.get("income_tax_percent", 10)),
        auction_min_bid=int(meta.get("auction_min_bid", 1)),
        money_unit=int(meta.get("money_unit", 1)),
        go_square=int(meta.get("go_square", 0)),
        jail_square=int(meta.get("jail_square", 10)),
        squares=tuple(squares),
        decks=decks,
        cards=tuple(cards),
        texts=texts,
        option_defaults=dict(data.get("options", {})),
        groups={g: tuple(v) for g, v in groups.items()},
        group_names=group_names,
        group_colours=group_colours,
        property_squares=tuple(sq.index for sq in squares if sq.is_property),
    )


def load_edition(name_or_path: str) -> Edition:
    """Load a bundled edition by id (``"classic"``, ``"matco"``, ``"latam"``, ``"matador"``) or a
    TOML file by path.

    >>> load_edition("classic").square_name(39)
    'Boardwalk'
    """
    # checked before the cache, which would hash a list first (TypeError: unhashable; issue 20)
    if not isinstance(name_or_path, str):
        raise SettingsError(
            E_(
                "an edition is named by its id or a path, not {value}",
                value=short_repr(name_or_path),
            )
        )
    return _load_edition(name_or_path)


@cache
def _load_edition(name_or_path: str) -> Edition:
    if name_or_path in EDITION_IDS:
        text = (
            resources.files("parlor.monopoly")
            .joinpath(f"data/{name_or_path}.toml")
            .read_text(encoding="utf-8")
        )
        source = f"{name_or_path}.toml"
    else:
        if "\0" in name_or_path or not os.path.lexists(name_or_path):
            raise SettingsError(
                E_(
                    "unknown edition {name}: choose one of {choices} or give the path of an edition "
                    "file",
                    name=short_repr(name_or_path),
                    choices=", ".join(EDITION_IDS),
                )
            )
        text = read_text_limited(name_or_path, MAX_EDITION_BYTES, what=E_("edition"))
        source = short_repr(name_or_path, 80)
    try:
        data = tomllib.loads(text)
    except ValueError as exc:  # (TOMLDecodeError, or an integer of more than 4300 digits)
        raise SettingsError(
            E_("{source}: not valid TOML: {reason}", source=source, reason=toml_problem(exc))
        ) from exc
    except RecursionError:
        raise SettingsError(E_("{source}: nested too deeply", source=source)) from None
    return parse_edition(data, source)


def edition_data(edition: Edition) -> dict[str, Any]:
    """The edition as the data of an edition file (each card once, ``copies`` 1): what a saved
    game carries when its edition is not a bundled one, so that loading it opens no file.

    >>> ed = load_edition("matador")
    >>> parse_edition(edition_data(ed)) == ed
    True
    """
    meta = {
        name: getattr(edition, name)
        for name in (
            "id",
            "title",
            "rulebook",
            "currency",
            "currency_after",
            "min_players",
            "max_players",
            "starting_cash",
            "salary",
            "jail_fine",
            "houses",
            "hotels",
            "hotel_cost_factor",
            "mortgage_interest_percent",
            "mortgage_interest_round",
            "income_tax_percent",
            "auction_min_bid",
            "money_unit",
            "go_square",
            "jail_square",
        )
    }
    meta["languages"] = list(edition.languages)
    squares = []
    for sq in edition.squares:
        row: dict[str, Any] = {"index": sq.index, "kind": sq.kind, "name": dict(sq.name)}
        for name, default in (
            ("group", None),
            ("price", 0),
            ("house_cost", 0),
            ("mortgage", 0),
            ("tax", 0),
            ("tax_percent_option", False),
            ("deck", None),
        ):
            if getattr(sq, name) != default:
                row[name] = getattr(sq, name)
        if sq.rents:
            row["rents"] = list(sq.rents)
        squares.append(row)
    cards = []
    for card in edition.cards:
        row = {"deck": card.deck, "effect": card.effect, "text": dict(card.text)}
        for name, default in (
            ("target", None),
            ("steps", 0),
            ("kind", None),
            ("rent_multiplier", 1),
            ("dice_multiplier", None),
            ("amount", 0),
            ("per_house", 0),
            ("per_hotel", 0),
            ("limit", 0),
        ):
            value = getattr(card, name)
            if value != default or name in CARD_EFFECTS[card.effect]:
                row[name] = value
        cards.append(row)
    return {
        "edition": meta,
        "options": dict(edition.option_defaults),
        "texts": {lang: dict(words) for lang, words in edition.texts.items()},
        "squares": squares,
        "decks": [{"id": d, "name": dict(names)} for d, names in edition.decks.items()],
        "cards": cards,
        "groups": {
            gid: {"name": dict(names)}
            | ({"colour": edition.group_colours[gid]} if gid in edition.group_colours else {})
            for gid, names in edition.group_names.items()
        },
    }


def saved_edition(edition: Edition) -> str | dict[str, Any]:
    """What a saved game records of its edition: a bundled edition's id (shown in any of its
    languages), or else its data."""
    if edition.id in EDITION_IDS:
        bundled = load_edition(edition.id)
        if (
            edition is bundled
            or dataclasses.replace(edition, languages=bundled.languages) == bundled
        ):
            return edition.id
    return edition_data(edition)


def edition_from_save(spec: object) -> Edition:
    """The edition a saved game records (see :func:`saved_edition`). A path is refused: loading
    a save must not make the loader open files that the save names."""
    if isinstance(spec, str):
        if spec not in EDITION_IDS:
            raise SettingsError(
                E_(
                    "a saved game names a bundled edition ({choices}) or carries its edition's data, "
                    "not {value}",
                    choices=", ".join(EDITION_IDS),
                    value=short_repr(spec),
                )
            )
        return load_edition(spec)
    if isinstance(spec, Mapping):
        return parse_edition(spec, E_("the saved edition"))
    raise SettingsError(
        E_("the saved edition is an id or a table, not {value}", value=short_repr(spec))
    )

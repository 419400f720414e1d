"""The schema of an edition file: every table and field, its type and its bounds.

:func:`check_edition_data` validates parsed TOML (or the data a save carries) against it before
:func:`parlor.monopoly.edition.parse_edition` reads a single value, so a wrong type, an unknown
field, a zero money unit or a 10**9-copy card is a :class:`SettingsError` that names the field, not
a raw error later (or a crash inside ``apply``). The checks between fields (40 squares in order,
rents per kind, decks that exist, the texts of every language) stay in ``parse_edition``; the ones
only the schema's bounds make safe (a nearest-square card needs that kind on the board; a group's
size fits its rents) are here in :func:`check_consistency`.

>>> check_edition_data({"edition": {}})
Traceback (most recent call last):
...
parlor.core.errors.SettingsError: <edition>: edition.id: Field required (and 12 more problems)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from parlor.core.errors import E_, SettingsError
from parlor.core.validate import schema_problem, short_repr

#: Bounds no real edition comes near; they keep a hostile file from costing memory or time.
MAX_MONEY = 10**7
MAX_COPIES = 20
MAX_CARDS = 500
#: Seats that the integer action space can tell apart (see parlor.monopoly.game, _MAX_OTHERS + 1).
MAX_SEATS = 8

Id = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")]
Language = Annotated[str, StringConstraints(pattern=r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$")]
Text = Annotated[str, StringConstraints(min_length=1, max_length=500)]
ShortText = Annotated[str, StringConstraints(min_length=1, max_length=60)]
Names = Annotated[dict[Language, Text], Field(min_length=1, max_length=8)]
Money = Annotated[int, Field(ge=0, le=MAX_MONEY)]
Square = Annotated[int, Field(ge=0, le=39)]
Factor = Annotated[int, Field(ge=1, le=100)]
SquareKind = Literal[
    "go",
    "street",
    "railroad",
    "utility",
    "chance",
    "community_chest",
    "tax",
    "jail",
    "free_parking",
    "go_to_jail",
]
Effect = Literal[
    "move_to",
    "move_relative",
    "move_nearest",
    "collect",
    "pay",
    "collect_from_each",
    "pay_each",
    "repairs",
    "get_out_of_jail",
    "go_to_jail",
    "collect_if_worth_at_most",
]


class _Table(BaseModel):
    # strict: no bool for a number, no "3" for 3, no float; forbid: a misspelt field is an error.
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class EditionMeta(_Table):
    id: Id
    title: ShortText
    rulebook: Annotated[str, StringConstraints(max_length=200)] = ""
    languages: Annotated[list[Language], Field(min_length=1, max_length=8)]
    currency: Annotated[str, StringConstraints(min_length=1, max_length=8)]
    currency_after: bool = False
    min_players: Annotated[int, Field(ge=2, le=MAX_SEATS)]
    max_players: Annotated[int, Field(ge=2, le=MAX_SEATS)]
    starting_cash: Money
    salary: Money
    jail_fine: Money
    houses: Annotated[int, Field(ge=0, le=1000)]
    hotels: Annotated[int, Field(ge=0, le=1000)]
    hotel_cost_factor: Factor = 1
    mortgage_interest_percent: Annotated[int, Field(ge=0, le=100)] = 10
    mortgage_interest_round: Annotated[int, Field(ge=1, le=MAX_MONEY)] = 1
    income_tax_percent: Annotated[int, Field(ge=0, le=100)] = 10
    auction_min_bid: Annotated[int, Field(ge=1, le=MAX_MONEY)] = 1
    money_unit: Annotated[int, Field(ge=1, le=MAX_MONEY)] = 1
    go_square: Square = 0
    jail_square: Square = 10


class SquareSpec(_Table):
    index: Square | None = None
    kind: SquareKind
    name: Names
    group: Id | None = None
    price: Money = 0
    rents: Annotated[list[Money], Field(max_length=6)] = []
    house_cost: Money = 0
    mortgage: Money = 0
    tax: Money = 0
    tax_percent_option: bool = False
    deck: Id | None = None


class DeckSpec(_Table):
    id: Id
    name: Names


class CardSpec(_Table):
    deck: Id
    text: Names
    effect: Effect
    target: Square | None = None
    steps: Annotated[int, Field(ge=-39, le=39)] = 0
    kind: SquareKind | None = None
    rent_multiplier: Factor = 1
    dice_multiplier: Factor | None = None
    amount: Money = 0
    per_house: Money = 0
    per_hotel: Money = 0
    limit: Money = 0
    copies: Annotated[int, Field(ge=1, le=MAX_COPIES)] = 1


class GroupSpec(_Table):
    name: Names
    colour: Annotated[str, StringConstraints(pattern=r"^#[0-9A-Fa-f]{6}$")] | None = None


OptionValue = bool | Annotated[int, Field(ge=0, le=10**6)] | ShortText


class EditionFile(_Table):
    edition: EditionMeta
    options: Annotated[dict[Id, OptionValue], Field(max_length=50)] = {}
    texts: Annotated[dict[Language, dict[Id, Text]], Field(max_length=8)] = {}
    squares: Annotated[list[SquareSpec], Field(min_length=40, max_length=40)]
    decks: Annotated[list[DeckSpec], Field(min_length=1, max_length=8)]
    cards: Annotated[list[CardSpec], Field(max_length=MAX_CARDS)] = []
    groups: Annotated[dict[Id, GroupSpec], Field(max_length=40)] = {}


def _where(loc: tuple[int | str, ...]) -> str:
    return ".".join(str(part) for part in loc) or "the file"


def check_edition_data(data: object, source: str = "<edition>") -> EditionFile:
    """Validate parsed edition data against the schema; the first problem (and how many more)
    becomes a short :class:`SettingsError`."""
    if not isinstance(data, Mapping):
        raise SettingsError(
            E_(
                "{source}: an edition is a table, not {value}",
                source=source,
                value=short_repr(data),
            )
        )
    if len(data.get("squares", ())) != 40 and isinstance(data.get("squares"), list):
        # The most common slip, worded as the rulebook would.
        raise SettingsError(
            E_(
                "{source}: a board has 40 squares, found {count}",
                source=source,
                count=len(data["squares"]),
            )
        )
    try:
        spec = EditionFile.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_input=False)
        first = errors[0]
        more = E_(" (and {count} more problems)", count=len(errors) - 1) if len(errors) > 1 else ""
        raise SettingsError(
            E_(
                "{source}: {where}: {problem}{more}",
                source=source,
                where=_where(first["loc"]),
                problem=schema_problem(first),
                more=more,
            )
        ) from None
    check_consistency(spec, source)
    return spec


def check_consistency(spec: EditionFile, source: str) -> None:
    """The cross-field rules whose breach would hang or crash the engine mid-move."""
    meta = spec.edition
    if meta.min_players > meta.max_players:
        raise SettingsError(
            E_(
                "{source}: min_players {least} is more than max_players {most}",
                source=source,
                least=meta.min_players,
                most=meta.max_players,
            )
        )
    kinds = [sq.kind for sq in spec.squares]
    if kinds[meta.go_square] != "go":
        raise SettingsError(
            E_(
                "{source}: go_square {square} is not a 'go' square",
                source=source,
                square=meta.go_square,
            )
        )
    if kinds[meta.jail_square] != "jail":
        raise SettingsError(
            E_(
                "{source}: jail_square {square} is not a 'jail' square",
                source=source,
                square=meta.jail_square,
            )
        )
    total = sum(card.copies for card in spec.cards)
    if total > MAX_CARDS:
        raise SettingsError(
            E_(
                "{source}: at most {most} cards, copies included, not {total}",
                source=source,
                most=MAX_CARDS,
                total=total,
            )
        )
    for j, card in enumerate(spec.cards):
        if card.effect == "move_nearest" and card.kind not in kinds:
            raise SettingsError(
                E_(
                    "{source}: card {index} moves to the nearest {kind}, and the board has none",
                    source=source,
                    index=j,
                    kind=repr(card.kind),
                )
            )
    groups: dict[str, list[SquareSpec]] = {}
    for sq in spec.squares:
        if sq.group is not None and sq.kind in ("street", "railroad", "utility"):
            groups.setdefault(sq.group, []).append(sq)
    for group, members in groups.items():
        if len({sq.kind for sq in members}) > 1:
            raise SettingsError(
                E_(
                    "{source}: group {group} mixes kinds of squares",
                    source=source,
                    group=repr(group),
                )
            )
        kind = members[0].kind
        most = {"street": 40, "railroad": 4, "utility": 2}[kind]
        if len(members) > most:  # the rents list one amount per number owned
            raise SettingsError(
                E_(
                    "{source}: a {kind} group has at most {most} squares",
                    source=source,
                    kind=kind,
                    most=most,
                )
            )

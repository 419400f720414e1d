"""The property bots' static picture of a board (:class:`Board`, one per edition and rule set),
what a lot charges from its owners and buildings alone (:func:`lot_rent`), and the scans of a
group the bots' deeds make and keep (:mod:`parlor.bots.monopoly_board`; the trade targets,
:func:`offer_targets`), apart from the deeds' module to keep both short.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parlor.monopoly.edition import Edition
from parlor.monopoly.rules import RuleOptions

if TYPE_CHECKING:
    from parlor.bots.monopoly_board import Deeds

HOTEL = 5  # the engine's ``buildings`` value of a lot with a hotel
N_SQUARES = 40


@dataclass(frozen=True, slots=True)
class Board:
    """The edition's static facts the bot needs, computed once per edition and rule set."""

    edition: Edition
    options: RuleOptions
    properties: tuple[int, ...]
    group_of: tuple[tuple[int, ...], ...]  # per square (empty for non-properties)
    street_groups: tuple[tuple[int, ...], ...]
    #: The indices in ``groups`` of ``street_groups``, in their order.
    street_group_index: tuple[int, ...]
    groups: tuple[tuple[int, ...], ...]
    price: tuple[int, ...]
    mortgage: tuple[int, ...]
    house_cost: tuple[int, ...]
    kind: tuple[str, ...]
    bonus: tuple[float, ...]  # per square: its share of its group's monopoly bonus
    total_price: int
    #: Per square: the index of its group in ``groups`` (-1 for non-properties).
    group_index: tuple[int, ...]
    #: Per group: all lots are streets; the sum of the lots' bonuses.
    group_is_street: tuple[bool, ...]
    group_bonus: tuple[float, ...]
    #: The properties, dearest first (ties in board order).
    by_price_desc: tuple[int, ...]
    #: Per square: its rents (empty for non-properties).
    rents: tuple[tuple[int, ...], ...]
    max_level: int
    #: Per square: its place in ``properties`` (the order the bot scans lots in).
    order: tuple[int, ...]
    #: The edition's and rules' numbers the bot reads at most decisions, copied here (compiled,
    #: a native field; the edition and rule options are plain Python objects): the starting
    #: cash, the jail fine, the money unit; per square the hotel's cost and what lifting its
    #: mortgage costs (the mortgage and its interest); the rent-claim, rent-in-jail and
    #: unlimited-buildings options.
    starting_cash: int
    jail_fine: int
    money_unit: int
    hotel_cost: tuple[int, ...]
    lift_cost: tuple[int, ...]
    rent_claim: bool
    rent_while_jailed: bool
    unlimited_buildings: bool
    #: Per group: what a house on each of its lots costs in all (the trade search and the
    #: valuation ask it of a group again and again).
    group_house_cost: tuple[int, ...]
    #: The properties of no group (none in the bundled editions).
    ungrouped: tuple[int, ...]
    #: Per square and building level below the top: the ``(lot, cost, score)`` of the next
    #: building there in a complete group (``monopoly_builds.build_options``' entries, which
    #: follow from the edition and rules alone); empty for the lots that are not streets.
    build_steps: tuple[tuple[tuple[int, int, float], ...], ...]


_BOARDS: dict[tuple[int, str], Board] = {}
#: The same boards by the identity of a game's edition and rule options (clones share both),
#: which the entry keeps alive so that the ids stay theirs.
_BOARDS_BY_ID: dict[tuple[int, int], tuple[Edition, RuleOptions, Board]] = {}


def board_for(game: Any) -> Board:
    """The (cached) :class:`Board` of a property game."""
    ed: Edition = game.edition
    options: RuleOptions = game.options
    quick = _BOARDS_BY_ID.get((id(ed), id(options)))
    if quick is not None and quick[0] is ed and quick[1] is options:
        return quick[2]
    opts_raw = game.settings.get("options") or {}
    key = (id(ed), repr(sorted(opts_raw.items())))
    board = _BOARDS.get(key)
    if board is None or board.edition is not ed:
        board = _make_board(ed, options)
        if len(_BOARDS) > 64:
            _BOARDS.clear()
        _BOARDS[key] = board
    if len(_BOARDS_BY_ID) > 256:
        _BOARDS_BY_ID.clear()
    _BOARDS_BY_ID[(id(ed), id(options))] = (ed, options, board)
    return board


def _make_board(ed: Edition, options: RuleOptions) -> Board:
    squares = ed.squares
    group_of: list[tuple[int, ...]] = [()] * N_SQUARES
    group_index = [-1] * N_SQUARES
    groups = tuple(tuple(m) for m in ed.groups.values())
    for gi, members in enumerate(groups):
        for sq in members:
            group_of[sq] = members
            group_index[sq] = gi
    street_groups = tuple(m for m in groups if all(squares[s].kind == "street" for s in m))
    street_group_index = tuple(
        gi for gi, m in enumerate(groups) if all(squares[s].kind == "street" for s in m)
    )
    bonus = [0.0] * N_SQUARES
    for members in street_groups:
        for sq in members:
            s = squares[sq]
            bonus[sq] = 0.5 * s.price + 0.25 * s.rents[3]
    properties = tuple(ed.property_squares)
    price = tuple(s.price for s in squares)
    order = [N_SQUARES] * N_SQUARES
    for i, sq in enumerate(properties):
        order[sq] = i
    max_level = options.hotel_after_houses + 1
    return Board(
        edition=ed,
        options=options,
        properties=properties,
        group_of=tuple(group_of),
        street_groups=street_groups,
        street_group_index=street_group_index,
        groups=groups,
        price=price,
        mortgage=tuple(s.mortgage for s in squares),
        house_cost=tuple(s.house_cost for s in squares),
        kind=tuple(s.kind for s in squares),
        bonus=tuple(bonus),
        total_price=sum(s.price for s in squares),
        group_index=tuple(group_index),
        group_is_street=tuple(squares[m[0]].kind == "street" for m in groups),
        group_bonus=tuple(sum(bonus[s] for s in m) for m in groups),
        by_price_desc=tuple(sorted(properties, key=lambda s: -price[s])),
        rents=tuple(tuple(s.rents) for s in squares),
        max_level=max_level,
        order=tuple(order),
        starting_cash=ed.starting_cash,
        jail_fine=ed.jail_fine,
        money_unit=ed.money_unit,
        hotel_cost=tuple(ed.hotel_cost(sq) for sq in range(N_SQUARES)),
        lift_cost=tuple(s.mortgage + ed.mortgage_interest(sq) for sq, s in enumerate(squares)),
        rent_claim=options.rent_claim,
        rent_while_jailed=options.rent_while_jailed,
        unlimited_buildings=options.unlimited_buildings,
        group_house_cost=tuple(sum(squares[s].house_cost for s in m) for m in groups),
        ungrouped=tuple(s for s in properties if group_index[s] < 0),
        build_steps=tuple(
            _build_steps(sq, tuple(s.rents), s.house_cost, ed.hotel_cost(sq), max_level)
            if s.kind == "street"
            else ()
            for sq, s in enumerate(squares)
        ),
    )


@dataclass(frozen=True, slots=True)
class OfferTarget:
    """A group a player might complete by buying ``take`` from ``other`` (see
    :func:`offer_targets`)."""

    take: tuple[int, ...]
    other: int
    base: int  # the printed prices of ``take``
    sweeteners: tuple[tuple[int, ...], ...]  # lots that might go the other way, () first


def _build_steps(
    sq: int, rents: tuple[int, ...], house_cost: int, hotel_cost: int, max_level: int
) -> tuple[tuple[int, int, float], ...]:
    """:attr:`Board.build_steps` of the street ``sq``: at each level below the top, what the next
    building costs, and its score, the rent it adds (an unbuilt lot of a complete group charges
    double) per unit spent, plus 1 below the third house (where rents jump: get there first)."""
    steps = []
    for lvl in range(max_level):
        cost = hotel_cost if lvl == max_level - 1 else house_cost
        up = lvl + 1
        gain = rents[HOTEL if up >= max_level else up] - (rents[lvl] if lvl else 2 * rents[0])
        score = gain / (cost if cost > 1 else 1)
        if lvl < 3:
            score += 1.0
        steps.append((sq, cost, score))
    return tuple(steps)


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


def _offer_players(board: Board, gi: int, owner: list[int], out: set[int]) -> None:
    """Add to ``out`` the two players of group ``gi`` under ``owner`` when it is a street group
    of exactly two players (no lot with the bank): only such a group is a trade target or a
    sweetener of one (:func:`offer_targets`), so a change to any other group leaves every
    player's offer targets and plans as they are."""
    if not board.group_is_street[gi]:
        return
    members = board.groups[gi]
    first = owner[members[0]]
    second = -1
    for s in members:
        o = owner[s]
        if o < 0:
            return
        if o != first:
            if second >= 0 and o != second:
                return
            second = o
    if second >= 0:
        out.add(first)
        out.add(second)


def offer_targets(deeds: Deeds, owner: list[int], player: int) -> list[OfferTarget]:
    """The colour groups where ``player`` holds at least half the lots and one opponent (or a
    bankrupt seat, left for the caller to skip) all the others, unbuilt: what the player might
    buy to complete a group, with the lots that could sweeten the offer (each the one lot
    missing from a group of the other's, held by ``player`` and unbuilt). ``owner``: the lots'
    owners the deeds follow (a table's list); kept with the deeds (``Table.offer_targets``)."""
    cached = deeds._offer_targets[player]
    if cached is not None:
        return cached
    b = deeds.board
    group_index = b.group_index
    built = deeds._built
    if built is None:
        built = deeds.built_groups()
    cached = []
    # How many lots of each group ``player`` holds (its lots, counted once): only the
    # street groups where it holds at least half, not all, are scanned.
    mine = [0] * len(b.groups)
    for s in deeds.owned[player]:
        gi = group_index[s]
        if gi >= 0:
            mine[gi] += 1
    # (plain loops: generators and comprehensions cost more than the few lots they scan)
    for gi in b.street_group_index:
        n_mine = mine[gi]
        group = b.groups[gi]
        if not n_mine or n_mine == len(group) or n_mine * 2 < len(group):
            continue
        other = -3
        mixed = False
        rest: list[int] = []
        for s in group:
            o = owner[s]
            if o == player:
                continue
            rest.append(s)
            if other == -3:
                other = o
            elif o != other:
                mixed = True
        if other < 0 or mixed:
            continue
        if built[group_index[rest[0]]]:  # (the lots of ``rest`` are all of this group)
            continue
        sweeteners: list[tuple[int, ...]] = [()]
        for gi2 in b.street_group_index:
            # (a group can lack one lot of ``other``'s that ``player`` holds only if
            # ``player`` holds exactly one of its lots: the others are skipped unscanned)
            if mine[gi2] != 1 or gi2 == gi:
                continue
            g2 = b.groups[gi2]
            # The one lot of g2 that ``other`` lacks, if it lacks exactly one.
            missing = -1
            n_missing = 0
            for s in g2:
                if owner[s] != other:
                    n_missing += 1
                    missing = s
            if (
                n_missing == 1
                and len(g2) > 1
                and owner[missing] == player
                and not built[group_index[missing]]
            ):
                sweeteners.append((missing,))
        base = 0
        for s in rest:
            base += b.price[s]
        cached.append(OfferTarget(tuple(rest), other, base, tuple(sweeteners)))
    deeds._offer_targets[player] = cached
    return cached

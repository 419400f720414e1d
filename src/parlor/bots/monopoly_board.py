"""The property bots' static picture of a board (:class:`Board`, one per edition and rule set)
and what follows from who owns which lot, the mortgages and the buildings alone (:class:`Deeds`,
kept from one decision to the next while it holds). :mod:`parlor.bots.monopoly_table` reads a
moment of a game into them.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import count
from typing import Any

from parlor.bots.monopoly_lots import HOTEL, N_SQUARES, _any_built, _whole_owner, lot_rent
from parlor.monopoly.edition import Edition
from parlor.monopoly.rules import RuleOptions

__all__ = ["HOTEL", "N_SQUARES", "Board", "Deeds", "OfferTarget", "board_for", "lot_rent"]

#: Stamps for :attr:`Deeds.stamps`, unique in the process: deeds of games that part from one
#: moment (clones, searches) never give the same stamp to different states of a group.
_STAMPS = count(1)
#: Most entries of a game's per-target plan cache (:attr:`Deeds.target_plans`) before it is
#: emptied (a game has a few dozen live ones).
MAX_TARGET_PLANS = 512


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
        max_level=options.hotel_after_houses + 1,
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
    )


@dataclass(frozen=True, slots=True)
class OfferTarget:
    """A group a player might complete by buying ``take`` from ``other`` (see
    :meth:`Table.offer_targets`)."""

    take: tuple[int, ...]
    other: int
    base: int  # the printed prices of ``take``
    sweeteners: tuple[tuple[int, ...], ...]  # lots that might go the other way, () first


class Deeds:
    """What follows from who owns which lot, the mortgages and the buildings alone: whole-group
    owners, each player's lots, rents at risk and where each may build. These change only at a
    few actions, so a table keeps the deeds of the game's previous decision while they are equal
    (:meth:`same`), and after a change (:meth:`advance_at` in place, or :meth:`successor`)
    keeps the per-player parts of the players whose groups did not change. The per-player parts
    are filled lazily."""

    __slots__ = (
        "_build_options",
        "_built",
        "_by_price",
        "_danger",
        "_junk",
        "_lone",
        "_offer_plans",
        "_offer_targets",
        "_rents",
        "_spots",
        "_top_rent",
        "board",
        "buildings",
        "complete",
        "group_builds",
        "group_owner",
        "mortgaged",
        "owned",
        "owner",
        "stamps",
        "target_plans",
        "version",
    )

    #: Per group: the player owning every lot, or -2 (several owners or the bank).
    group_owner: list[int]
    #: Per player: the lots it owns, in board order.
    owned: list[list[int]]
    #: Per player: the groups it owns whole (indices into ``board.groups``).
    complete: list[list[int]]
    owner: list[int]
    mortgaged: list[bool]
    buildings: list[int]
    #: Per group: a stamp (unique in the process) of its last change of owner, mortgage or
    #: buildings; what follows from a few groups alone holds while their stamps do.
    stamps: list[int]
    #: The trade searches' plans per target (``monopoly_trading.offer_plan``), with the stamps
    #: of the groups they follow from: one dict shared by a game's successive deeds (entries
    #: are checked against the stamps, never trusted as they stand).
    target_plans: dict[Any, Any]
    #: A stamp (unique in the process) of what these deeds say now: :meth:`advance_at` changes
    #: them in place, so what is kept with them is kept by this number, not by their identity.
    version: int
    #: Per group: its stamp, and the lots where its whole owner may build next with their
    #: ``(lot, cost, score)`` (``monopoly_builds.build_spots``' and ``build_options``' parts),
    #: shared like :attr:`target_plans`.
    group_builds: dict[int, tuple[int, list[int], list[tuple[int, int, float]]]]

    def __init__(
        self,
        board: Board,
        owner: list[int],
        mortgaged: list[bool],
        buildings: list[int],
        players: int,
        previous: Deeds | None = None,
    ) -> None:
        """The deeds of ``owner``, ``mortgaged`` and ``buildings`` (copied). With ``previous``
        (deeds of the same game with these lists), a copy of it that can change apart from it:
        its lists copied, what it has found kept (:meth:`successor`)."""
        self.board = board
        self.version = next(_STAMPS)
        self.owner = list(owner)
        self.mortgaged = list(mortgaged)
        self.buildings = list(buildings)
        self._danger: list[int] | None = None
        if previous is not None:
            # (the per-player lists in ``owned`` and ``complete`` are replaced when they change,
            # never changed in place: sharing them is safe)
            self.group_owner = previous.group_owner[:]
            self.owned = previous.owned[:]
            self.complete = previous.complete[:]
            self.stamps = previous.stamps[:]
            self.target_plans = previous.target_plans
            self.group_builds = previous.group_builds
            rents = previous._rents
            self._rents: list[int] | None = None if rents is None else rents[:]
            built = previous._built
            self._built: list[bool] | None = None if built is None else built[:]
            self._offer_plans: dict[Any, Any] | None = previous._offer_plans
            self._top_rent: list[int | None] = previous._top_rent[:]
            self._spots: list[list[int] | None] = previous._spots[:]
            self._build_options: list[list[tuple[int, int, float]] | None] = (
                previous._build_options[:]
            )
            self._by_price: list[list[int] | None] = previous._by_price[:]
            self._offer_targets: list[list[OfferTarget] | None] = previous._offer_targets[:]
            self._junk: list[int | None] = previous._junk[:]
            self._lone: list[tuple[int, list[int]] | None] = previous._lone[:]
            return
        self.group_owner = []
        self.owned = [[] for _ in range(players)]
        owned = self.owned
        for sq in board.properties:
            o = owner[sq]
            if o >= 0:
                owned[o].append(sq)
        group_owner = self.group_owner
        self.complete = [[] for _ in range(players)]
        for gi, members in enumerate(board.groups):
            first = _whole_owner(owner, members)
            group_owner.append(first)
            if first >= 0:
                self.complete[first].append(gi)
        # Per player, filled on demand: the dearest rent of its unmortgaged lots, the lots where
        # it may build, with their costs and scores, its lots dearest first, its trade targets,
        # what its lone lots would raise; and the danger each player faces (from the others' top
        # rents), the groups with buildings, the trade searches' price plans (monopoly_trading,
        # by player and bot parameters).
        self.stamps = [next(_STAMPS) for _ in board.groups]
        self.target_plans = {}
        self.group_builds = {}
        self._rents = None
        self._built = None
        self._offer_plans = None
        self._top_rent = [None] * players
        self._spots = [None] * players
        self._build_options = [None] * players
        self._by_price = [None] * players
        self._offer_targets = [None] * players
        self._junk = [None] * players
        self._lone = [None] * players

    def rents(self) -> list[int]:
        """Per square: the rent its owner would charge now if it were not mortgaged (a throw of
        7 for the dice-rated lots), 0 where no player owns it: ``Table.rent_at``'s default, kept
        with the deeds (filled at the first question, then carried for the untouched groups)."""
        rents = self._rents
        if rents is None:
            board, owner, buildings, group_owner = (
                self.board,
                self.owner,
                self.buildings,
                self.group_owner,
            )
            rents = [0] * N_SQUARES
            for sq in board.properties:
                rents[sq] = lot_rent(board, owner, buildings, group_owner, sq)
            self._rents = rents
        return rents

    def built_groups(self) -> list[bool]:
        """Per group: whether one of its lots has a building (filled on the first question)."""
        built = self._built
        if built is None:
            buildings = self.buildings
            built = self._built = [_any_built(buildings, m) for m in self.board.groups]
        return built

    def same(self, owner: list[int], mortgaged: list[bool], buildings: list[int]) -> bool:
        return owner == self.owner and buildings == self.buildings and mortgaged == self.mortgaged

    def successor(self, owner: list[int], mortgaged: list[bool], buildings: list[int]) -> Deeds:
        """The deeds of a later moment of the same game (any lot may differ), keeping what is
        known of the players none of whose groups changed: a copy of these, advanced
        (:meth:`advance_at`) over the lots that differ."""
        before_owner, before_mortgaged, before_buildings = (
            self.owner,
            self.mortgaged,
            self.buildings,
        )
        changed = [
            sq
            for sq in self.board.properties  # (only properties ever change)
            if owner[sq] != before_owner[sq]
            or buildings[sq] != before_buildings[sq]
            or mortgaged[sq] != before_mortgaged[sq]
        ]
        new = Deeds(
            self.board, before_owner, before_mortgaged, before_buildings, len(self.owned), self
        )
        new.advance_at(owner, mortgaged, buildings, changed)
        return new

    def advance_at(
        self, owner: list[int], mortgaged: list[bool], buildings: list[int], squares: list[int]
    ) -> bool:
        """Make these deeds those of ``owner``, ``mortgaged`` and ``buildings``, told (by the
        engine, ``PropertyGame.estate_changes``) that only ``squares`` may differ from them: in
        place, for the one holder of a game's newest deeds (the bots' table), at a cost that
        follows from the groups that changed (no list of the board or of the players copied).
        What follows from the other groups is kept: the per-player parts of the players without
        a lot in a changed group (before or after), the offer targets and price plans
        (``_offer_plans``) of those not sharing a changed street group of two players
        (:func:`_offer_players`), the rents and building flags of the other groups. The
        :attr:`version` changes. False (nothing changed) when none of ``squares`` differs."""
        if len(squares) == 1 and owner[squares[0]] == self.owner[squares[0]]:
            return self._advance_lot(owner, mortgaged, buildings, squares[0])
        board = self.board
        group_index = board.group_index
        before_owner, before_mortgaged, before_buildings = (
            self.owner,
            self.mortgaged,
            self.buildings,
        )
        touched: list[int] = []
        same_owner = True
        same_buildings = True
        rebuilt: list[int] = []  # (the lots whose buildings changed)
        for sq in squares:
            differs = False
            if owner[sq] != before_owner[sq]:
                same_owner = False
                differs = True
            if buildings[sq] != before_buildings[sq]:
                same_buildings = False
                differs = True
                rebuilt.append(sq)
            if differs or mortgaged[sq] != before_mortgaged[sq]:
                gi = group_index[sq]
                if gi >= 0 and gi not in touched:
                    touched.append(gi)
        if not touched:
            return False
        groups = board.groups
        mortgages_only = same_owner and same_buildings
        affected: set[int] = set()
        partial: set[int] = set()
        group_owner = self.group_owner
        top_rent, spots, build_options = self._top_rent, self._spots, self._build_options
        junk, lone, by_price = self._junk, self._lone, self._by_price
        offer_targets = self._offer_targets
        if same_owner:  # (the parts of the touched groups' players that read them)
            for gi in touched:
                self._drop_group_parts(gi, owner, partial)
        else:
            for gi in touched:
                members = groups[gi]
                group_owner[gi] = _whole_owner(owner, members)
                for s in members:
                    affected.add(owner[s])
                    affected.add(before_owner[s])
            owned, complete = self.owned, self.complete
            order = board.order
            for p in affected:
                if p < 0:
                    continue
                lots = [sq for sq in owned[p] if owner[sq] == p]
                whole_groups = [gi for gi in complete[p] if group_owner[gi] == p]
                new_lot = new_whole = False
                for gi in touched:
                    if group_owner[gi] == p and gi not in whole_groups:
                        whole_groups.append(gi)
                        new_whole = True
                    for sq in groups[gi]:
                        if owner[sq] == p and before_owner[sq] != p:
                            lots.append(sq)
                            new_lot = True
                if new_lot:
                    lots.sort(key=order.__getitem__)
                if new_whole:
                    whole_groups.sort()
                owned[p] = lots
                complete[p] = whole_groups
            # (the offer parts follow from the street groups of two players alone)
            for gi in touched:
                _offer_players(board, gi, owner, partial)
                _offer_players(board, gi, before_owner, partial)
        # Which groups have a building, read against the buildings before.
        flipped = False
        if not mortgages_only:
            for gi in touched:
                if self._built_flipped(gi, buildings, before_buildings):
                    flipped = True
        # The lists now (only the named squares may differ).
        for sq in squares:
            before_owner[sq] = owner[sq]
            before_mortgaged[sq] = mortgaged[sq]
            before_buildings[sq] = buildings[sq]
        self.version = next(_STAMPS)
        stamps = self.stamps
        for gi in touched:
            stamps[gi] = next(_STAMPS)
        if len(self.target_plans) > MAX_TARGET_PLANS:
            self.target_plans.clear()
        rents = self._rents
        if rents is not None and not mortgages_only:
            if same_owner:
                # (the same owners, so the same whole owners: a lot's rent changes with its
                # own buildings alone)
                for sq in rebuilt:
                    rents[sq] = lot_rent(board, before_owner, before_buildings, group_owner, sq)
            else:
                for gi in touched:
                    for sq in groups[gi]:
                        rents[sq] = lot_rent(board, before_owner, before_buildings, group_owner, sq)
        self._danger = None
        for p in affected:  # (the players of a change of owners: all their parts)
            if p < 0:
                continue
            top_rent[p] = None
            spots[p] = None
            build_options[p] = None
            junk[p] = None
            lone[p] = None
            by_price[p] = None
        if not same_owner:
            for p in partial:
                offer_targets[p] = None
        self._drop_offer_parts(partial, same_owner and flipped)
        return True

    def _drop_group_parts(self, gi: int, owner: list[int], partial: set[int]) -> None:
        """With the owners unchanged, the parts of group ``gi``'s players that read it dropped:
        the top rents; where its whole owner may build (only whole groups count); the junk lot
        and the lone lots, which skip a whole street group's lots whatever their mortgages and
        buildings. The players of a split group of two players join ``partial`` (whose offer
        parts are dropped: :func:`_offer_players`)."""
        sole = self.group_owner[gi]
        if sole >= 0:
            self._top_rent[sole] = self._spots[sole] = self._build_options[sole] = None
            if not self.board.group_is_street[gi]:
                self._junk[sole] = self._lone[sole] = None
            return
        top_rent, junk, lone = self._top_rent, self._junk, self._lone
        members = self.board.groups[gi]
        first = owner[members[0]]
        split = False
        for s in members:
            o = owner[s]
            if o >= 0:
                top_rent[o] = junk[o] = lone[o] = None
            if o != first:
                split = True
        if split:
            _offer_players(self.board, gi, owner, partial)

    def _built_flipped(self, gi: int, buildings: list[int], before: list[int]) -> bool:
        """Whether group ``gi`` gained its first building or lost its last from ``before`` to
        ``buildings`` (the flag kept in ``_built`` when it is kept)."""
        members = self.board.groups[gi]
        built = self._built
        has = _any_built(buildings, members)
        had = _any_built(before, members) if built is None else built[gi]
        if had == has:
            return False
        if built is not None:
            built[gi] = has
        return True

    def _drop_offer_parts(self, partial: set[int], flipped: bool) -> None:
        """After a change: the trade plans of the players of a split group it touched (``partial``)
        dropped, and their offer targets too when the group gained or lost its last building
        (``flipped``)."""
        if flipped:
            for p in partial:
                if p >= 0:
                    self._offer_targets[p] = None
        plans = self._offer_plans
        if not plans:
            self._offer_plans = None
        elif partial:
            kept = {key: plan for key, plan in plans.items() if key[0] not in partial}
            self._offer_plans = kept if kept else None

    def _advance_lot(
        self, owner: list[int], mortgaged: list[bool], buildings: list[int], sq: int
    ) -> bool:
        """:meth:`advance_at` where only ``sq`` may differ, not in its owner (a build, a sale, a
        mortgage or its lift: most changes): the same steps for one lot of one group."""
        before = self.buildings
        rebuilt = buildings[sq] != before[sq]
        board = self.board
        gi = board.group_index[sq]
        if (not rebuilt and mortgaged[sq] == self.mortgaged[sq]) or gi < 0:
            return False
        partial: set[int] = set()
        self._drop_group_parts(gi, owner, partial)
        flipped = rebuilt and self._built_flipped(gi, buildings, before)
        self.mortgaged[sq] = mortgaged[sq]
        before[sq] = buildings[sq]
        self.version = next(_STAMPS)
        self.stamps[gi] = next(_STAMPS)
        if len(self.target_plans) > MAX_TARGET_PLANS:
            self.target_plans.clear()
        rents = self._rents
        if rents is not None and rebuilt:
            rents[sq] = lot_rent(board, self.owner, before, self.group_owner, sq)
        dangers = self._danger
        holder = self.owner[sq]
        if dangers is not None and holder >= 0:
            # (of the top rents only the lot's owner's moved: its own danger, from the others',
            # holds)
            kept = dangers[holder]
            dangers = self._danger = [-1] * len(dangers)
            dangers[holder] = kept
        else:
            self._danger = None
        self._drop_offer_parts(partial, flipped)
        return True


def _offer_players(board: Board, gi: int, owner: list[int], out: set[int]) -> None:
    """Add to ``out`` the two players of group ``gi`` under ``owner`` when it is a street group
    of exactly two players (no lot with the bank): only such a group is a trade target or a
    sweetener of one (``Table.offer_targets``), so a change to any other group leaves every
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

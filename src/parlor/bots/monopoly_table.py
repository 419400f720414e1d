"""The property bots' picture of one moment: the board's static facts and the table's state, with
the valuations the heuristic makes (worth, rent, trade gains), cached for one decision.

A :class:`Table` is read from the engine's public state (``game.cash``, ``game.owner``...) without
copying: it must live only for the decision it was made for, and is never changed in place (a
hypothetical trade is valued from the groups it touches, see :meth:`Table.trade_deltas`).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

from parlor.monopoly.edition import Edition
from parlor.monopoly.rules import RuleOptions

HOTEL = 5  # the engine's ``buildings`` value of a lot with a hotel
N_SQUARES = 40
#: The public attributes of a property game a table is read from.
STATE_ATTRIBUTES = (
    "cash",
    "bankrupt",
    "in_jail",
    "jail_cards",
    "position",
    "owner",
    "mortgaged",
    "buildings",
    "houses_left",
    "hotels_left",
    "round",
)


@dataclass(frozen=True, slots=True)
class Board:
    """The edition's static facts the bot needs, computed once per edition and rule set."""

    edition: Edition
    options: RuleOptions
    properties: tuple[int, ...]
    group_of: tuple[tuple[int, ...], ...]  # per square (empty for non-properties)
    street_groups: tuple[tuple[int, ...], ...]
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
    )


#: Game classes whose instances have every one of :data:`STATE_ATTRIBUTES`.
_READABLE: set[type] = set()
#: The latest :class:`Deeds` of each live game.
_DEEDS: weakref.WeakKeyDictionary[Any, Deeds] = weakref.WeakKeyDictionary()
#: The game :meth:`Table.of` read last, with its board and deeds: bots at one table ask in turn.
_LAST: tuple[weakref.ref[Any], Board, Deeds] | None = None


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
    (:meth:`same`), and after a change (:meth:`successor`) keeps the per-player parts of the
    players whose groups did not change. The per-player parts are filled lazily."""

    __slots__ = (
        "_build_options",
        "_by_price",
        "_danger",
        "_junk",
        "_offer_targets",
        "_spots",
        "_top_rent",
        "board",
        "buildings",
        "complete",
        "group_owner",
        "mortgaged",
        "owned",
        "owner",
    )

    def __init__(
        self,
        board: Board,
        owner: list[int],
        mortgaged: list[bool],
        buildings: list[int],
        players: int,
        previous: Deeds | None = None,
        touched: tuple[int, ...] = (),
    ) -> None:
        """The deeds of ``owner``, ``mortgaged`` and ``buildings`` (copied). With ``previous``,
        the deeds of an earlier moment of the same game that differ only in the groups
        ``touched``, the parts of the other groups and of the players without a lot in a
        touched group are taken from it instead of being recomputed."""
        self.board = board
        self.owner = list(owner)
        self.mortgaged = list(mortgaged)
        self.buildings = list(buildings)
        groups = board.groups
        if previous is None:
            #: Per group: the player owning every lot, or -2 (several owners or the bank).
            self.group_owner: list[int] = []
            #: Per player: the lots it owns, in board order.
            self.owned: list[list[int]] = [[] for _ in range(players)]
            owned = self.owned
            for sq in board.properties:
                o = owner[sq]
                if o >= 0:
                    owned[o].append(sq)
            group_owner = self.group_owner
            #: Per player: the groups it owns whole (indices into ``board.groups``).
            self.complete: list[list[int]] = [[] for _ in range(players)]
            for gi, members in enumerate(groups):
                first = _whole_owner(owner, members)
                group_owner.append(first)
                if first >= 0:
                    self.complete[first].append(gi)
        else:
            group_owner = self.group_owner = list(previous.group_owner)
            affected: set[int] = set()
            old_owner = previous.owner
            for gi in touched:
                members = groups[gi]
                group_owner[gi] = _whole_owner(owner, members)
                for s in members:
                    affected.add(owner[s])
                    affected.add(old_owner[s])
            self.owned = list(previous.owned)
            self.complete = list(previous.complete)
            for p in affected:
                if p < 0:
                    continue
                self.owned[p] = [sq for sq in board.properties if owner[sq] == p]
                self.complete[p] = [gi for gi, o in enumerate(group_owner) if o == p]
        # Per player, filled on demand: the dearest rent of its unmortgaged lots, the lots where
        # it may build, with their costs and scores, its lots dearest first, its trade targets;
        # and the danger each player faces (from the others' top rents).
        self._top_rent: list[int | None] = [None] * players
        self._spots: list[list[int] | None] = [None] * players
        self._build_options: list[list[tuple[int, int, float]] | None] = [None] * players
        self._by_price: list[list[int] | None] = [None] * players
        self._offer_targets: list[list[OfferTarget] | None] = [None] * players
        self._danger: list[int] | None = None
        self._junk: list[int | None] = [None] * players

    def same(self, owner: list[int], mortgaged: list[bool], buildings: list[int]) -> bool:
        return owner == self.owner and buildings == self.buildings and mortgaged == self.mortgaged

    def successor(self, owner: list[int], mortgaged: list[bool], buildings: list[int]) -> Deeds:
        """The deeds of a later moment of the same game, keeping what is known of the players
        none of whose groups changed."""
        board = self.board
        group_index = board.group_index
        touched: list[int] = []
        for now, before in ((owner, self.owner), (buildings, self.buildings)):
            if now != before:
                for sq in range(N_SQUARES):
                    if now[sq] != before[sq]:
                        gi = group_index[sq]
                        if gi >= 0 and gi not in touched:
                            touched.append(gi)
        if mortgaged != self.mortgaged:
            for sq in range(N_SQUARES):
                if mortgaged[sq] != self.mortgaged[sq]:
                    gi = group_index[sq]
                    if gi >= 0 and gi not in touched:
                        touched.append(gi)
        new = Deeds(board, owner, mortgaged, buildings, len(self.owned), self, tuple(touched))
        affected: set[int] = set()
        groups = board.groups
        for gi in touched:
            for s in groups[gi]:
                affected.add(owner[s])
                affected.add(self.owner[s])
        for p in range(len(self.owned)):
            if p in affected:
                continue
            new._top_rent[p] = self._top_rent[p]
            new._spots[p] = self._spots[p]
            new._build_options[p] = self._build_options[p]
            new._by_price[p] = self._by_price[p]
            new._junk[p] = self._junk[p]
            # Trade targets also depend on the other players' groups: not kept.
        return new


def _whole_owner(owner: list[int], members: tuple[int, ...]) -> int:
    """The player owning every lot of ``members``, or -2 (several owners or the bank)."""
    first = owner[members[0]]
    for s in members:
        if owner[s] != first:
            return -2
    return first if first >= 0 else -2


class Table:
    """The mutable facts of one moment, with per-decision caches of what is asked repeatedly.

    ``Table(board, view)`` reads a view (``game.view(p)``); :meth:`from_game` reads the engine's
    public state directly (the bots' fast path).
    """

    __slots__ = (
        "_jail_cards",
        "_jail_held",
        "_n_active",
        "_worth",
        "bank_hotels",
        "bank_houses",
        "bankrupt",
        "board",
        "buildings",
        "cash",
        "deeds",
        "in_jail",
        "max_level",
        "mortgaged",
        "owner",
        "position",
        "round",
    )

    cash: list[int]
    bankrupt: list[bool]
    in_jail: list[bool]
    _jail_cards: list[int] | None
    _jail_held: list[list[int]]
    position: list[int]
    owner: list[int]
    mortgaged: list[bool]
    buildings: list[int]
    bank_houses: int
    bank_hotels: int
    round: int
    deeds: Deeds

    def __init__(self, board: Board, view: dict[str, Any] | None = None) -> None:
        self.board = board
        if view is None:  # (the caller fills the table: from_game, copy)
            return
        players = view["players"]
        self.cash = [int(p["cash"]) for p in players]
        self.bankrupt = [bool(p["bankrupt"]) for p in players]
        self.in_jail = [bool(p["in_jail"]) for p in players]
        self._jail_cards = [int(p["jail_cards"]) for p in players]
        self._jail_held: list[list[int]] = []
        self.position = [int(p["position"]) for p in players]
        self.owner = [-1] * N_SQUARES
        self.mortgaged = [False] * N_SQUARES
        self.buildings = [0] * N_SQUARES
        for prop in view["properties"]:
            sq = prop["square"]
            self.owner[sq] = prop["owner"]
            self.mortgaged[sq] = prop["mortgaged"]
            self.buildings[sq] = prop["buildings"]
        self.bank_houses = int(view["bank"]["houses"])
        self.bank_hotels = int(view["bank"]["hotels"])
        self.round = int(view["round"])
        self._reset(None)

    @classmethod
    def of(cls, game: Any) -> Table:
        """The table of a property game now (see :meth:`from_game`), sharing its :class:`Deeds`
        with the earlier tables of the same game while they still hold (every bot at a table
        benefits from the others' work)."""
        global _LAST
        last = _LAST
        if last is not None and last[0]() is game:
            # The same game as the previous decision (the usual case): no dictionary lookups.
            table = cls.from_game(last[1], game, last[2])
        else:
            board = board_for(game)
            try:
                deeds = _DEEDS.get(game)
            except TypeError:  # pragma: no cover - a game that cannot be weakly referenced
                return cls.from_game(board, game)
            table = cls.from_game(board, game, deeds)
            last = None
        if last is None or table.deeds is not last[2]:
            _DEEDS[game] = table.deeds
            _LAST = (weakref.ref(game), table.board, table.deeds)
        return table

    @classmethod
    def from_game(cls, board: Board, game: Any, deeds: Deeds | None = None) -> Table:
        """The table of a property game now, read from its public state (the lists are the
        game's own: use the table only until the game changes). ``deeds`` from an earlier
        decision of the same game are kept if still true. A game without that state (another
        implementation of the interface) is read through ``view(None)``."""
        kind = type(game)
        if kind not in _READABLE:
            if not all(hasattr(game, name) for name in STATE_ATTRIBUTES):
                return cls(board, game.view(None))
            _READABLE.add(kind)
        new = cls(board)
        new.cash = game.cash
        new.bankrupt = game.bankrupt
        new.in_jail = game.in_jail
        new._jail_cards = None  # counted when asked (rarely)
        new._jail_held = game.jail_cards
        new.position = game.position
        new.owner = game.owner
        new.mortgaged = game.mortgaged
        new.buildings = game.buildings
        new.bank_houses = game.houses_left
        new.bank_hotels = game.hotels_left
        new.round = game.round
        new._reset(deeds)
        return new

    def _reset(self, deeds: Deeds | None) -> None:
        board = self.board
        self.max_level = board.max_level
        n = len(self.cash)
        self._worth: list[float | None] = [None] * n
        self._n_active = -1
        if deeds is None or deeds.board is not board or len(deeds.owned) != n:
            deeds = Deeds(board, self.owner, self.mortgaged, self.buildings, n)
        elif not deeds.same(self.owner, self.mortgaged, self.buildings):
            deeds = deeds.successor(self.owner, self.mortgaged, self.buildings)
        self.deeds = deeds

    # ----- facts -------------------------------------------------------------------------------
    @property
    def jail_cards(self) -> list[int]:
        """Per player: how many get-out-of-jail cards it holds."""
        counts = self._jail_cards
        if counts is None:
            counts = self._jail_cards = [len(c) for c in self._jail_held]
        return counts

    def level(self, sq: int) -> int:
        b = self.buildings[sq]
        return self.max_level if b == HOTEL else b

    def group_owner(self, gi: int) -> int:
        """The player owning every lot of group ``gi``, or -2 (several owners or the bank)."""
        return self.deeds.group_owner[gi]

    def owns_group(self, p: int, sq: int) -> bool:
        gi = self.board.group_index[sq]
        return gi >= 0 and self.deeds.group_owner[gi] == p

    def owned(self, p: int) -> list[int]:
        """The lots ``p`` owns, in board order."""
        return self.deeds.owned[p]

    def owned_by_price(self, p: int) -> list[int]:
        """The lots ``p`` owns, dearest first (ties in board order)."""
        deeds = self.deeds
        cached = deeds._by_price[p]
        if cached is None:
            owner = self.owner
            cached = deeds._by_price[p] = [s for s in self.board.by_price_desc if owner[s] == p]
        return cached

    def group_built(self, sq: int) -> bool:
        buildings = self.buildings
        return any(buildings[s] for s in self.board.group_of[sq])

    def active(self) -> list[int]:
        return [p for p in range(len(self.cash)) if not self.bankrupt[p]]

    def n_active(self) -> int:
        if self._n_active < 0:
            self._n_active = sum(1 for b in self.bankrupt if not b)
        return self._n_active

    def rent_at(self, sq: int, level: int | None = None, dice: int = 7) -> int:
        """The rent on ``sq`` (at building ``level`` if given), as if it were not mortgaged."""
        b = self.board
        owner = self.owner[sq]
        if owner < 0:
            return 0
        kind = b.kind[sq]
        rents = b.rents[sq]
        if kind == "street":
            lvl = self.level(sq) if level is None else level
            if lvl:
                return rents[HOTEL if lvl >= self.max_level else lvl]
            return rents[0] * (2 if self.deeds.group_owner[b.group_index[sq]] == owner else 1)
        owned = sum(1 for g in b.group_of[sq] if self.owner[g] == owner)
        if kind == "railroad":
            return rents[owned - 1]
        return rents[owned - 1] * dice

    def danger(self, player: int) -> int:
        """The highest rent an opponent's property could charge now."""
        deeds = self.deeds
        dangers = deeds._danger
        if dangers is None:
            # Each owner's dearest rent, then for each player the dearest among the others'.
            top = deeds._top_rent
            mortgaged = self.mortgaged
            for q, lots in enumerate(deeds.owned):
                if top[q] is None:
                    top[q] = max((self.rent_at(s) for s in lots if not mortgaged[s]), default=0)
            tops = [t or 0 for t in top]
            dangers = deeds._danger = [
                max((t for q, t in enumerate(tops) if q != p), default=0) for p in range(len(tops))
            ]
        return dangers[player]

    def build_spots(self, player: int) -> list[int]:
        """The lots (in board order) where ``player`` may put the next building by the even-build
        rule, the bank's stock aside: complete, unmortgaged street groups, lowest lots first."""
        deeds = self.deeds
        cached = deeds._spots[player]
        if cached is not None:
            return cached
        b = self.board
        spots: list[int] = []
        kind = b.kind
        for gi in deeds.complete[player]:
            members = b.groups[gi]
            if any(self.mortgaged[s] for s in members):
                continue
            levels = [self.level(s) for s in members]
            low = min(levels)
            spots.extend(
                s
                for s, lvl in zip(members, levels, strict=True)
                if kind[s] == "street" and lvl < self.max_level and lvl <= low
            )
        spots.sort(key=b.order.__getitem__)
        deeds._spots[player] = spots
        return spots

    def junk_lot(self, player: int) -> int:
        """The cheapest-to-lose unmortgaged lot of ``player`` outside complete street groups and
        groups with buildings (the least rent lost per unit of mortgage), or -1."""
        deeds = self.deeds
        cached = deeds._junk[player]
        if cached is not None:
            return cached
        b = self.board
        best: tuple[float, int] | None = None
        for sq in deeds.owned[player]:
            if self.mortgaged[sq] or self.group_built(sq):
                continue
            if b.kind[sq] == "street" and self.owns_group(player, sq):
                continue
            loss = self.rent_at(sq) / max(1, b.mortgage[sq])
            if best is None or loss < best[0]:
                best = (loss, sq)
        junk = deeds._junk[player] = -1 if best is None else best[1]
        return junk

    def build_cost(self, sq: int) -> int:
        """What the next building on ``sq`` costs."""
        if self.level(sq) == self.max_level - 1:
            return self.board.edition.hotel_cost(sq)
        return self.board.house_cost[sq]

    def build_gain(self, sq: int) -> float:
        """The rent the next building on ``sq`` adds, per unit of its cost (-1 at the top)."""
        lvl = self.level(sq)
        if lvl >= self.max_level:
            return -1.0
        gain = self.rent_at(sq, lvl + 1) - self.rent_at(sq, lvl)
        return gain / max(1, self.build_cost(sq))

    def build_options(self, player: int) -> list[tuple[int, int, float]]:
        """``(lot, cost, score)`` for each of :meth:`build_spots`: the score is the rent gained
        per unit spent, plus 1 below the third house (where rents jump: get there first)."""
        deeds = self.deeds
        cached = deeds._build_options[player]
        if cached is None:
            cached = []
            for sq in self.build_spots(player):
                score = self.build_gain(sq)
                if self.level(sq) < 3:
                    score += 1.0
                cached.append((sq, self.build_cost(sq), score))
            deeds._build_options[player] = cached
        return cached

    def offer_targets(self, player: int) -> list[OfferTarget]:
        """The colour groups where ``player`` holds at least half the lots and one opponent (or a
        bankrupt seat, left for the caller to skip) all the others, unbuilt: what the player
        might buy to complete a group, with the lots that could sweeten the offer (each the one
        lot missing from a group of the other's, held by ``player`` and unbuilt)."""
        deeds = self.deeds
        cached = deeds._offer_targets[player]
        if cached is not None:
            return cached
        b = self.board
        owner = self.owner
        cached = []
        for group in b.street_groups:
            n_mine = 0
            rest: list[int] = []
            for s in group:
                if owner[s] == player:
                    n_mine += 1
                else:
                    rest.append(s)
            if not n_mine or not rest or n_mine * 2 < len(group):
                continue
            other = owner[rest[0]]
            if other < 0 or any(owner[s] != other for s in rest):
                continue
            if any(self.group_built(s) for s in rest):
                continue
            sweeteners: list[tuple[int, ...]] = [()]
            for g2 in b.street_groups:
                if g2 == group:
                    continue
                missing = [s for s in g2 if owner[s] != other]
                if (
                    len(missing) == 1
                    and len(missing) < len(g2)
                    and owner[missing[0]] == player
                    and not self.group_built(missing[0])
                ):
                    sweeteners.append((missing[0],))
            cached.append(
                OfferTarget(tuple(rest), other, sum(b.price[s] for s in rest), tuple(sweeteners))
            )
        deeds._offer_targets[player] = cached
        return cached

    # ----- worth -------------------------------------------------------------------------------
    def worth(self, p: int) -> float:
        """Strategic worth: cash, properties (mortgaged ones less the cost of lifting), buildings
        at cost, and a bonus for each complete colour group and for sets of railroads/utilities."""
        cached = self._worth[p]
        if cached is not None:
            return cached
        b = self.board
        owner, mortgaged, buildings = self.owner, self.mortgaged, self.buildings
        max_level = self.max_level
        total = float(self.cash[p])
        for gi, members in enumerate(b.groups):
            mine = [s for s in members if owner[s] == p]
            if not mine:
                continue
            for s in mine:
                if mortgaged[s]:
                    total += b.price[s] - 1.1 * b.mortgage[s]
                else:
                    total += b.price[s]
                lvl = self.level(s)
                if lvl:
                    hc = b.house_cost[s]
                    total += hc * lvl if lvl < max_level else hc * (lvl - 1) + hc * 1.0
            street = b.group_is_street[gi]
            complete = len(mine) == len(members)
            if complete and street:
                total += b.group_bonus[gi]
            if not street and len(mine) > 1:
                total += 0.25 * b.price[mine[0]] * (len(mine) - 1) * len(mine)
            # Buildings earn: count the rent they bring on top of their cost.
            if street and complete:
                total += sum(0.6 * self.rent_at(s) for s in members if buildings[s])
        self._worth[p] = total
        return total

    def _group_worth(self, p: int, gi: int, owner: list[int]) -> float:
        """Group ``gi``'s part of :meth:`worth` for ``p`` if the lots had the owners ``owner``."""
        b = self.board
        members = b.groups[gi]
        mortgaged, buildings = self.mortgaged, self.buildings
        max_level = self.max_level
        total = 0.0
        mine = 0
        first = -1
        for s in members:
            if owner[s] != p:
                continue
            if not mine:
                first = s
            mine += 1
            if mortgaged[s]:
                total += b.price[s] - 1.1 * b.mortgage[s]
            else:
                total += b.price[s]
            lvl = self.level(s)
            if lvl:
                hc = b.house_cost[s]
                total += hc * lvl if lvl < max_level else hc * (lvl - 1) + hc * 1.0
        if not mine:
            return 0.0
        street = b.group_is_street[gi]
        complete = mine == len(members)
        if street and complete:
            total += b.group_bonus[gi]
            # In a complete group a built lot's rent depends on its level alone.
            total += sum(
                0.6 * b.rents[s][HOTEL if self.level(s) >= max_level else self.level(s)]
                for s in members
                if buildings[s]
            )
        elif not street and mine > 1:
            total += 0.25 * b.price[first] * (mine - 1) * mine
        return total

    def trade_deltas(
        self, proposer: int, to: int, give_squares: Any, take_squares: Any
    ) -> tuple[float, float]:
        """How the property part of :meth:`worth` changes for ``proposer`` and ``to`` if
        ``give_squares`` go to ``to`` and ``take_squares`` to ``proposer`` (cash and jail cards
        aside): only the groups the lots belong to are valued again."""
        b = self.board
        after = list(self.owner)
        touched: list[int] = []
        for sq in give_squares:
            after[sq] = to
            gi = b.group_index[sq]
            if gi not in touched:
                touched.append(gi)
        for sq in take_squares:
            after[sq] = proposer
            gi = b.group_index[sq]
            if gi not in touched:
                touched.append(gi)
        before = self.owner
        d_proposer = 0.0
        d_to = 0.0
        for gi in touched:
            d_proposer += self._group_worth(proposer, gi, after) - self._group_worth(
                proposer, gi, before
            )
            d_to += self._group_worth(to, gi, after) - self._group_worth(to, gi, before)
        return d_proposer, d_to

    def copy(self) -> Table:
        """An independent table (its lists copied, its caches empty)."""
        new = Table(self.board)
        for name in (
            "cash",
            "bankrupt",
            "in_jail",
            "position",
            "owner",
            "mortgaged",
            "buildings",
        ):
            setattr(new, name, list(getattr(self, name)))
        new._jail_cards = list(self.jail_cards)
        new._jail_held = []
        new.bank_houses = self.bank_houses
        new.bank_hotels = self.bank_hotels
        new.round = self.round
        new._reset(None)
        return new

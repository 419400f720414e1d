"""The property bots' picture of one moment: the table's state on the board and deeds of
:mod:`parlor.bots.monopoly_board`, with the valuations the heuristic makes (worth, rent, trade
gains), cached for one decision.

A :class:`Table` is read from the engine's public state (``game.cash``, ``game.owner``...) without
copying: it must live only for the decision it was made for, and is never changed in place (a
hypothetical trade is valued from the groups it touches, see :meth:`Table.trade_deltas`).
"""

from __future__ import annotations

from typing import Any

from parlor.bots.game_memory import PerGame
from parlor.bots.monopoly_board import Deeds
from parlor.bots.monopoly_lots import (
    HOTEL,
    N_SQUARES,
    Board,
    OfferTarget,
    board_for,
    lot_rent,
    offer_targets,
)
from parlor.monopoly.game import PropertyGame

__all__ = [
    "HOTEL",
    "N_SQUARES",
    "Board",
    "Deeds",
    "OfferTarget",
    "Table",
    "board_for",
    "table_of",
]

#: The latest :class:`Deeds` of each live game.
_DEEDS: PerGame[Deeds] = PerGame()
#: The game :meth:`Table.of` read last, with its board, deeds and table (``None`` for a game
#: read through its view): bots at one table ask in turn. (Held, as in
#: :mod:`parlor.bots.game_memory`.)
_LAST: tuple[Any, Board, Deeds, Table | None] | None = None


class Table:
    """The mutable facts of one moment, with per-decision caches of what is asked repeatedly.

    ``Table(board, view)`` reads a view (``game.view(p)``); :meth:`from_game` reads the engine's
    public state directly (the bots' fast path).
    """

    __slots__ = (
        "_jail_cards",
        "_jail_held",
        "_n_active",
        "_revision",
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
    #: Per player, :meth:`worth` once asked (the list made at the first question).
    _worth: list[float | None] | None
    #: The game's ``estate_revision`` when the deeds were last found to hold (-1: unknown).
    _revision: int
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
        benefits from the others' work): :func:`table_of`."""
        return table_of(game)

    @classmethod
    def from_game(cls, board: Board, game: Any, deeds: Deeds | None = None) -> Table:
        """The table of a property game now, read from its public state (the lists are the
        game's own: use the table only until the game changes). ``deeds`` from an earlier
        decision of the same game are kept if still true. Any other implementation of the
        interface is read through its public ``view(None)``."""
        if not isinstance(game, PropertyGame):
            return cls(board, game.view(None))
        new = cls(board)
        new._read(game, deeds)
        return new

    def _read(self, g: PropertyGame, deeds: Deeds | None) -> None:
        """Read the game's public state into this table (see :meth:`from_game`).
        (typed: compiled, the engine's fields are read directly, not looked up by name)"""
        new = self
        new.cash = g.cash
        new.bankrupt = g.bankrupt
        new.in_jail = g.in_jail
        new._jail_cards = None  # counted when asked (rarely)
        new._jail_held = g.jail_cards
        new.position = g.position
        new.owner = g.owner
        new.mortgaged = g.mortgaged
        new.buildings = g.buildings
        new.bank_houses = g.houses_left
        new.bank_hotels = g.hotels_left
        new.round = g.round
        new._reset(deeds)

    def _reset(self, deeds: Deeds | None) -> None:
        board = self.board
        self._revision = -1
        self.max_level = board.max_level
        n = len(self.cash)
        self._worth = None
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
        if counts is None:  # (read from the game: counted when asked, rarely)
            return [len(c) for c in self._jail_held]
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

    def has_mortgaged(self, p: int) -> bool:
        """Whether one of ``p``'s lots is mortgaged."""
        mortgaged = self.mortgaged
        for s in self.deeds.owned[p]:  # noqa: SIM110 (a loop is cheaper than any() on a generator)
            if mortgaged[s]:
                return True
        return False

    def group_built(self, sq: int) -> bool:
        """Whether a lot of ``sq``'s group has a building (kept with the deeds)."""
        gi = self.board.group_index[sq]
        if gi < 0:
            return False
        built = self.deeds._built
        if built is None:
            built = self.deeds.built_groups()
        return built[gi]

    def lone_funds(self, player: int) -> tuple[int, list[int]]:
        """What ``player``'s lone lots (unmortgaged, unbuilt groups, outside its complete street
        groups) would raise by mortgage: in all, and per group. They follow from the deeds alone,
        so they are kept with them (:func:`parlor.bots.monopoly_valuation.funds` adds the cash)."""
        deeds = self.deeds
        cached = deeds._lone[player]
        if cached is not None:
            return cached
        b = self.board
        per_group = [0] * len(b.groups)
        total = 0
        mortgaged = self.mortgaged
        for s in deeds.owned[player]:
            if mortgaged[s] or self.group_built(s):
                continue
            if b.kind[s] == "street" and self.owns_group(player, s):
                continue
            total += b.mortgage[s]
            per_group[b.group_index[s]] += b.mortgage[s]
        cached = deeds._lone[player] = (total, per_group)
        return cached

    def active(self) -> list[int]:
        return [p for p in range(len(self.cash)) if not self.bankrupt[p]]

    def n_active(self) -> int:
        if self._n_active < 0:
            bankrupt = self.bankrupt
            self._n_active = len(bankrupt) - bankrupt.count(True)  # (a list of bools)
        return self._n_active

    def rent_at(self, sq: int, level: int | None = None, dice: int = 7) -> int:
        """The rent on ``sq`` (at building ``level`` if given), as if it were not mortgaged."""
        return lot_rent(
            self.board, self.owner, self.buildings, self.deeds.group_owner, sq, level, dice
        )

    def danger(self, player: int) -> int:
        """The highest rent an opponent's property could charge now."""
        deeds = self.deeds
        dangers = deeds._danger
        if dangers is None:
            dangers = deeds._danger = [-1] * len(deeds.owned)
        else:
            known = dangers[player]
            if known >= 0:
                return known
        # The dearest of the others' top rents (kept while their owners' groups hold): a
        # player's own build, mortgage or sale leaves its danger's. (plain loops: compiled)
        top = deeds._top_rent
        most = 0
        for q, lots in enumerate(deeds.owned):
            if q == player:
                continue
            kept = top[q]
            if kept is None:
                mortgaged = self.mortgaged
                rents = deeds.rents()
                kept = 0
                for s in lots:
                    if not mortgaged[s]:
                        rent = rents[s]
                        if rent > kept:
                            kept = rent
                top[q] = kept
            if kept > most:
                most = kept
        dangers[player] = most
        return most

    def junk_lot(self, player: int) -> int:
        """The cheapest-to-lose unmortgaged lot of ``player`` outside complete street groups and
        groups with buildings (the least rent lost per unit of mortgage), or -1."""
        deeds = self.deeds
        cached = deeds._junk[player]
        if cached is not None:
            return cached
        b = self.board
        rents = deeds.rents()
        built = deeds.built_groups()
        # (group_built() and owns_group() inlined: asked again after each mortgage)
        group_index = b.group_index
        group_owner = deeds.group_owner
        mortgaged = self.mortgaged
        junk = -1
        least = 0.0
        for sq in deeds.owned[player]:
            if mortgaged[sq]:
                continue
            gi = group_index[sq]
            if gi >= 0 and (built[gi] or (group_owner[gi] == player and b.kind[sq] == "street")):
                continue
            loss = rents[sq] / (b.mortgage[sq] if b.mortgage[sq] > 1 else 1)  # (max(), inlined)
            if junk < 0 or loss < least:
                junk, least = sq, loss
        deeds._junk[player] = junk
        return junk

    def offer_targets(self, player: int) -> list[OfferTarget]:
        """:func:`parlor.bots.monopoly_lots.offer_targets` of this table."""
        return offer_targets(self.deeds, self.owner, player)

    # ----- worth -------------------------------------------------------------------------------
    def worth(self, p: int) -> float:
        """Strategic worth: cash, properties (mortgaged ones less the cost of lifting), buildings
        at cost, and a bonus for each complete colour group and for sets of railroads/utilities."""
        worths = self._worth
        if worths is None:
            worths = self._worth = [None] * len(self.cash)
        cached = worths[p]
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
        worths[p] = total
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
            lvl = buildings[s]  # (level(), inlined)
            if lvl:
                if lvl == HOTEL:
                    lvl = max_level
                hc = b.house_cost[s]
                total += hc * lvl if lvl < max_level else hc * (lvl - 1) + hc * 1.0
        if not mine:
            return 0.0
        street = b.group_is_street[gi]
        complete = mine == len(members)
        if street and complete:
            total += b.group_bonus[gi]
            # In a complete group a built lot's rent depends on its level alone. (Summed as
            # sum() would: from 0.0, in order.)
            rents = 0.0
            for s in members:
                lvl = buildings[s]
                if lvl:
                    if lvl == HOTEL:
                        lvl = max_level
                    rents += 0.6 * b.rents[s][HOTEL if lvl >= max_level else lvl]
            total += rents
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
        d_proposer = 0.0
        d_to = 0.0
        for gi in touched:
            change_proposer, change_to = self.group_deltas(proposer, to, gi, after)
            d_proposer += change_proposer
            d_to += change_to
        return d_proposer, d_to

    def group_deltas(
        self, proposer: int, to: int, gi: int, after: list[int]
    ) -> tuple[float, float]:
        """How group ``gi``'s part of :meth:`worth` changes for ``proposer`` and ``to`` if its
        lots had the owners ``after`` (:meth:`trade_deltas` sums these over the groups a trade
        touches)."""
        before = self.owner
        return (
            self._group_worth(proposer, gi, after) - self._group_worth(proposer, gi, before),
            self._group_worth(to, gi, after) - self._group_worth(to, gi, before),
        )

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


def table_of(game: Any) -> Table:
    """:meth:`Table.of` (the bots' call: a function, with the usual case's refresh written in)."""
    global _LAST
    last = _LAST
    if last is not None and last[0] is game:
        # The same game as the previous decision (the usual case): no dictionary lookups, and
        # its newest deeds are kept here only (written to _DEEDS when another game is read).
        # Its table is brought up to date in place (see _refresh): it holds the game's own
        # lists, so only the counts, the per-decision caches and the deeds (if they changed)
        # are new.
        table = last[3]
        if table is None:
            table = Table.from_game(last[1], game, last[2])
            if table.deeds is not last[2]:
                _LAST = (last[0], last[1], table.deeds, None)
            return table
        g: PropertyGame = game
        table.bank_houses = g.houses_left
        table.bank_hotels = g.hotels_left
        table.round = g.round
        table._worth = None
        table._n_active = -1
        # (the game's lists are replaced only all at once, by import_state: the owners' list
        # stands for them here, and _refresh checks the estate's three)
        if g.estate_revision == table._revision and g.owner is table.owner:
            return table
        if _refresh(table, g) and table.deeds is not last[2]:  # (not changed in place)
            _LAST = (last[0], last[1], table.deeds, table)
        return table
    if last is not None:
        _DEEDS.set(last[0], last[2])
    board = board_for(game)
    table = Table.from_game(board, game, _DEEDS.get(game))
    _DEEDS.set(game, table.deeds)
    _LAST = (game, table.board, table.deeds, table if isinstance(game, PropertyGame) else None)
    return table


def _refresh(table: Table, g: PropertyGame) -> bool:
    """Bring the deeds of ``table``, the table of ``g``'s previous decision, up to ``g`` now
    (:func:`table_of` has read its counts and emptied its per-decision caches), when the
    estate's count moved or its lists were replaced: changed in place
    (:meth:`Deeds.advance_at`) or replaced by their successor; both keep what still holds
    (True when they changed). What :meth:`Table._read` does with the checks a new table needs
    left out (the board and the number of players are the game's own). The table holds the
    game's own lists, which the engine never replaces: they are read again only when the
    estate's were replaced (``import_state`` gives a game all its lists anew; code that edits a
    game's lists makes the game anew, docs/interface.md). Whether the deeds changed is the
    engine's word (``estate_revision``, and the squares of the latest changes) while the lists
    are the ones the table read then; else the lists are compared."""
    revision = g.estate_revision
    known = table._revision
    owner = g.owner
    mortgaged = g.mortgaged
    buildings = g.buildings
    if owner is table.owner and mortgaged is table.mortgaged and buildings is table.buildings:
        if known == revision:
            return False
        table._revision = revision
        if known >= 0:
            changed = g.estate_changes(known)
            if changed is not None:
                # (in place: the deeds are this game's alone, one per game, and what is kept
                # with them is kept by their version; one lot that kept its owner, the most
                # usual change, goes straight to advance_at's path for it, its first test
                # written out here)
                deeds = table.deeds
                if len(changed) == 1:
                    sq = changed[0]
                    if owner[sq] == deeds.owner[sq]:
                        return deeds._advance_lot(owner, mortgaged, buildings, sq)
                return deeds.advance_at(owner, mortgaged, buildings, changed)
    else:
        table.cash = g.cash
        table.bankrupt = g.bankrupt
        table.in_jail = g.in_jail
        table._jail_held = g.jail_cards
        table.position = g.position
        table.owner = owner
        table.mortgaged = mortgaged
        table.buildings = buildings
        table._revision = revision
    deeds = table.deeds
    if owner == deeds.owner and buildings == deeds.buildings and mortgaged == deeds.mortgaged:
        return False
    table.deeds = deeds.successor(owner, mortgaged, buildings)
    return True

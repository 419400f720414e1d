"""The heuristic bot's estate (:mod:`parlor.bots.monopoly_heuristic`): lifting mortgages, building
and mortgaging to build (:func:`manage_lots`), the cash in which that finds nothing to do
(:func:`idle_span`), and raising the cash for a debt (:func:`raise_funds`); apart from the bot's
module to keep both short.

The engine is not asked whether these actions are legal: at the decisions they answer (a turn's
own, where any-time actions are open and no building shortage is being auctioned, or a debt),
the rules make them legal by the owners, mortgages, buildings, the bank's stock and the player's
cash alone, which the bot reads, and it picks only legal ones (a building where the even-build
rule and the stock allow it and the budget pays for it, a lift it has the cash for, a mortgage
outside groups with buildings, a sale from the most built lots of its group).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlor.bots.monopoly_builds import best_builds, build_options
from parlor.bots.monopoly_table import HOTEL, Table
from parlor.monopoly.actions import (
    Action,
    Build,
    DeclareBankruptcy,
    Mortgage,
    PayDebt,
    SellBuilding,
    Unmortgage,
    shared,
)

if TYPE_CHECKING:
    from parlor.bots.monopoly_heuristic import MonopolyHeuristicBot

#: How many times a property is expected to be landed on for the rest of the game, to turn a rent
#: into a value (raising funds compares losses with it).
LANDINGS = 3.0
#: Beyond any cash (the open ends of :func:`idle_span`).
NO_LIMIT = 1 << 62


# ----- any-time management: mortgages and building ---------------------------------------------
def manage_lots(
    bot: MonopolyHeuristicBot,
    table: Table,
    player: int,
    options: list[tuple[int, int, float]] | None = None,
) -> Action | None:
    """Lift mortgages, build, or mortgage to build: what the bot does at its turn's decisions when
    it does not trade. It reads only the deeds, ``player``'s cash and whether the bank has
    houses and hotels left. (``options``: ``player``'s :func:`build_options`, if the caller
    has them.)"""
    if options is None:
        options = build_options(table, player)
    if not options and not table.has_mortgaged(player):
        return None  # (nothing to build, nothing to lift: the reserve is not asked)
    b = table.board
    reserve = bot._build_reserve(table, player)
    cash = table.cash[player]
    # Lift mortgages that block building in a complete group: the first such street of its
    # lots in board order (its whole groups' lots read, not all of its lots).
    mortgaged = table.mortgaged
    lift_cost = b.lift_cost
    kind = b.kind
    order = b.order
    lift = -1
    for gi in table.deeds.complete[player]:
        for sq in b.groups[gi]:
            if (
                mortgaged[sq]
                and cash - lift_cost[sq] >= reserve
                and kind[sq] == "street"
                and (lift < 0 or order[sq] < order[lift])
            ):
                lift = sq
    if lift >= 0:
        return shared(Unmortgage, player, lift)
    # Build where it pays most: within the budget, else the best wanted at all.
    if options:
        affordable, wanted, _least = best_builds(table, options, cash - reserve)
        if affordable >= 0:
            return shared(Build, player, affordable)
        if wanted >= 0:
            if b.house_cost[wanted] + reserve - cash > 0:
                return junk_mortgage(table, player)
            return None
    # Nothing to build: lift other mortgages when rich.
    rich = 2 * reserve + b.starting_cash // 5
    for sq in table.owned_by_price(player):
        if mortgaged[sq] and cash - lift_cost[sq] >= rich:
            return shared(Unmortgage, player, sq)
    return None


class Idle:
    """Where :func:`manage_lots` finds nothing to do for a player: every cash ``c`` with
    ``lo <= c < hi``, while its lots (``owned``, the same list), the groups they are in (none
    changed: their stamps at most ``mark``; the stamps only grow), its building reserve (-1: not
    read) and the bank's stock (whether it has houses, hotels) stay as they were. ``version``:
    the deeds' version at which that was last found true. ``bare``: found with nothing to build
    and nothing mortgaged, which holds at any cash and stock while the deeds' version does."""

    __slots__ = ("bare", "hi", "hotels", "houses", "lo", "mark", "owned", "reserve", "version")

    def __init__(
        self,
        version: int,
        houses: bool,
        hotels: bool,
        lo: int,
        hi: int,
        owned: list[int],
        mark: int,
        reserve: int,
        bare: bool = False,
    ) -> None:
        self.bare = bare
        self.version = version
        self.houses = houses
        self.hotels = hotels
        self.lo = lo
        self.hi = hi
        self.owned = owned
        self.mark = mark
        self.reserve = reserve


def idle_span(
    bot: MonopolyHeuristicBot,
    table: Table,
    player: int,
    options: list[tuple[int, int, float]] | None = None,
) -> Idle:
    """Where :func:`manage_lots` finds nothing to do (:class:`Idle`). Its steps at cash ``c``,
    the building reserve ``R`` fixed by the deeds: a lift in a complete street group from its
    cost plus ``R``; a building from the cheapest one the stock allows plus ``R``; else, with a
    building wanted, a mortgage below that building's house cost plus ``R`` (when a lot can be
    mortgaged); with none wanted, a lift from its cost plus ``2R`` and a fifth of the starting
    cash."""
    deeds = table.deeds
    b = table.board
    group_index = b.group_index
    owned = deeds.owned[player]
    stamps = deeds.stamps
    mark = 0
    for sq in owned:
        gi = group_index[sq]
        if gi < 0:  # (a lot of no group: its changes are not stamped)
            mark = -1
            break
        if stamps[gi] > mark:
            mark = stamps[gi]
    idle = Idle(
        deeds.version,
        table.bank_houses > 0,
        table.bank_hotels > 0,
        -NO_LIMIT,
        NO_LIMIT,
        owned,
        mark,
        -1,
    )
    if options is None:
        options = build_options(table, player)
    if not options and not table.has_mortgaged(player):
        return idle
    reserve = idle.reserve = bot._build_reserve(table, player)
    rich = 2 * reserve + b.starting_cash // 5
    mortgaged = table.mortgaged
    group_owner = deeds.group_owner
    lift_cost = b.lift_cost
    kind = b.kind
    hi = lift = NO_LIMIT
    for sq in owned:
        if mortgaged[sq]:
            cost = lift_cost[sq]
            if cost + rich < lift:
                lift = cost + rich
            gi = group_index[sq]
            if gi >= 0 and group_owner[gi] == player and kind[sq] == "street":
                hi = min(hi, cost + reserve)
    wanted = least = -1
    if options:
        _affordable, wanted, least = best_builds(table, options, -1)
    if wanted < 0:
        idle.hi = min(hi, lift)
        return idle
    idle.hi = min(hi, least + reserve)
    if table.junk_lot(player) >= 0:
        idle.lo = b.house_cost[wanted] + reserve
    return idle


def still_idle(bot: MonopolyHeuristicBot, table: Table, player: int, idle: Idle) -> bool:
    """Whether ``idle`` (found at earlier deeds) holds now: the deeds changed only elsewhere.
    (Its version is brought up to date when it does.)"""
    deeds = table.deeds
    owned = deeds.owned[player]
    if owned is not idle.owned:
        return False
    stamps = deeds.stamps
    group_index = table.board.group_index
    mark = idle.mark
    for sq in owned:
        gi = group_index[sq]
        if gi < 0 or stamps[gi] > mark:
            return False
    if idle.reserve >= 0 and bot._build_reserve(table, player) != idle.reserve:
        return False
    idle.version = deeds.version
    return True


def junk_mortgage(table: Table, player: int) -> Mortgage | None:
    """The cheapest-to-lose unmortgaged property outside complete groups, if any."""
    sq = table.junk_lot(player)
    if sq < 0:
        return None
    return shared(Mortgage, player, sq)


# ----- raising funds ---------------------------------------------------------------------------
def raise_funds(game: Any, table: Table, player: int, amount: int) -> Action:
    """Pay when the cash covers the debt, then the sale or mortgage that loses least (the first
    of equal ones in the order of ``player``'s lots), then bankruptcy: the answers found from the
    deeds, not listed (listing them values the debtor's whole estate for the bankruptcy, which
    is rarely the answer)."""
    if table.cash[player] >= amount:
        return shared(PayDebt, player)
    b = table.board
    rents = table.deeds.rents()
    built = table.deeds.built_groups()
    rents_of = b.rents
    group_owner = table.deeds.group_owner
    group_index = b.group_index
    buildings = table.buildings
    mortgaged = table.mortgaged
    max_level = table.max_level
    best = -1
    best_loss = 0.0
    sale = False
    for sq in table.owned(player):
        lvl = buildings[sq]
        if lvl:
            if lvl == HOTEL:
                lvl = max_level
            # (sold evenly: only from the most built lots of the group)
            uneven = False
            for s in b.group_of[sq]:
                other = buildings[s]
                if (max_level if other == HOTEL else other) > lvl:
                    uneven = True
                    break
            if uneven:
                continue
            # (max() written out here and below: a builtin call costs more than the compare)
            refund = (b.hotel_cost[sq] if lvl >= max_level else b.house_cost[sq]) // 2
            if refund < 1:
                refund = 1
            # (rent_at() at both levels, inlined: a lot with buildings is a street)
            lot_rents = rents_of[sq]
            if lvl > 1:
                below = lot_rents[lvl - 1]
            else:
                below = lot_rents[0] * (2 if group_owner[group_index[sq]] == player else 1)
            rent_loss = lot_rents[HOTEL if lvl >= max_level else lvl] - below
            loss = (rent_loss * LANDINGS + refund) / refund
            if best < 0 or loss < best_loss:
                best, best_loss, sale = sq, loss, True
        elif not mortgaged[sq]:
            # (group_built() and owns_group() inlined: asked of every lot)
            gi = group_index[sq]
            if gi >= 0 and built[gi]:
                continue
            refund = b.mortgage[sq]
            if refund < 1:
                refund = 1
            loss = (rents[sq] * LANDINGS + 0.1 * refund) / refund
            if b.kind[sq] == "street" and gi >= 0 and group_owner[gi] == player:
                loss += 0.5  # it stops building on the group
            if best < 0 or loss < best_loss:
                best, best_loss, sale = sq, loss, False
    if best >= 0:
        return SellBuilding(player, best) if sale else Mortgage(player, best)
    bankrupt = shared(DeclareBankruptcy, player)
    if game.is_legal(bankrupt):
        return bankrupt
    # Nothing to sell piece by piece (e.g. hotels the bank cannot break up): anything legal.
    legal = game.legal_actions(player)
    sells = [a for a in legal if isinstance(a, SellBuilding | Mortgage)]
    return sells[0] if sells else legal[0]

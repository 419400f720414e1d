"""How the heuristic property bot values a trade and looks for the offer it makes.

:func:`trade_gain` (the heuristic's answer to an offer, and the offering policy's measure)
weighs the change of both sides' worth; :func:`best_offer` tries the trades that complete one of the
bot's colour groups (``monopoly_lots.offer_targets``) at the bot's price factors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from parlor.bots.monopoly_lots import Board, offer_targets
from parlor.bots.monopoly_table import OfferTarget, Table
from parlor.bots.monopoly_valuation import HOUSES_NEEDED
from parlor.monopoly.actions import ProposeTrade

if TYPE_CHECKING:
    from parlor.bots.monopoly_heuristic import MonopolyHeuristicBot


#: the proposer's own measure of a trade: ``(table, proposer, to, give, take, cash to the proposer,
#: cash kept back, the plain deltas) -> (proposer's change, other's change)``; as the proposer
#: pays more its change must not grow and the other's must not fall (:func:`best_offer` relies
#: on it)
OwnMeasure = Callable[
    [Table, int, int, Any, Any, int, int, "tuple[float, float] | None"], "tuple[float, float]"
]


def trade_gain(
    bot: MonopolyHeuristicBot,
    table: Table,
    proposer: int,
    to: int,
    offer: Any,
    answering: bool,
    weight: float | None = None,
    own: OwnMeasure | None = None,
) -> float:
    """How good the trade is for ``to`` (answering) or ``proposer`` (not answering): the
    change of its worth less a share (``weight``, default ``trade_weight``, all of it in
    two-player games) of the other side's change; positive means "do it". ``own``: the
    measure of both changes (the plain deltas when None)."""
    cash = int(offer["take_cash"]) - int(offer["give_cash"])
    give, take = offer["give_squares"], offer["take_squares"]
    # (the plain deltas of the offer :func:`offer_search` made last, while the deeds are the
    # same: its answer's)
    plain: tuple[float, float] | None = None
    last = _LAST_OFFER
    if (
        last is not None
        and last[0] == table.deeds.version
        and last[1] == proposer
        and last[2] == to
        and last[3] == tuple(give)
        and last[4] == tuple(take)
    ):
        plain = last[5]
    if own is None:
        if plain is None:
            plain = table.trade_deltas(proposer, to, give, take)
        d_proposer, d_to = plain
    else:
        d_proposer, d_to = own(table, proposer, to, give, take, cash, bot._reserve(table), plain)
    return _gain(
        bot,
        table,
        proposer,
        to,
        cash + d_proposer,
        -cash + d_to,
        int(offer["give_jail_cards"]) - int(offer["take_jail_cards"]),
        answering,
        weight,
    )


#: The offer :func:`offer_search` made last, to answer it without valuing its lots again: the
#: deeds' version, the proposer, the other side, the lots given and taken, and its plain deltas
#: (:meth:`Table.trade_deltas`, from its plan).
_LAST_OFFER: tuple[int, int, int, tuple[int, ...], tuple[int, ...], tuple[float, float]] | None = (
    None
)


def _gain(
    bot: MonopolyHeuristicBot,
    table: Table,
    proposer: int,
    to: int,
    change_proposer: float,
    change_to: float,
    cards: int,
    answering: bool,
    weight: float | None,
) -> float:
    """:func:`trade_gain` from the changes of both sides' worth and the jail cards moved."""
    fine = table.board.jail_fine
    mine, theirs = (change_to, change_proposer) if answering else (change_proposer, change_to)
    # The cards go to ``to``: worth 0.6 of the fine each to the side that gets them.
    card_value = 0.6 * fine * cards
    mine += card_value if answering else -card_value
    theirs += -card_value if answering else card_value
    if table.n_active() <= 2:
        weight = 1.0
    elif weight is None:
        weight = bot.trade_weight
    margin = 0.02 * table.board.starting_cash
    return mine - weight * theirs - margin


def completed_groups(
    table: Table, proposer: int, to: int, give_squares: Any, take_squares: Any
) -> list[tuple[int, int]]:
    """``(group, side)`` for each street group the trade completes (``side``: ``proposer`` or
    ``to``, the one that gets it), in the order of the lots (``give_squares`` first). It does
    not depend on the cash of the trade: a price search asks it once."""
    b = table.board
    owner = table.owner
    done: list[tuple[int, int]] = []
    seen: list[int] = []
    for sq in (*give_squares, *take_squares):
        gi = b.group_index[sq]
        if gi in seen or not b.group_is_street[gi]:
            continue
        seen.append(gi)
        # The group's owner after the trade: the lots given go to ``to``, those taken to
        # ``proposer``, the others stay.
        new_owner = -3
        whole = True
        before_whole = True
        for s in b.groups[gi]:
            o = owner[s]
            if s in take_squares:
                after = proposer
            elif s in give_squares:
                after = to
            else:
                after = o
            if new_owner == -3:
                new_owner = after
            elif after != new_owner:
                whole = False
                break
        if not whole or new_owner not in (proposer, to):
            continue
        for s in b.groups[gi]:
            if owner[s] != new_owner:
                before_whole = False
                break
        if before_whole:
            continue  # complete before the trade
        done.append((gi, new_owner))
    return done


#: One sweetener's plan for :func:`best_offer`: the other side, the lots taken, the lots given,
#: the plain deltas, the prices (rising, as the bot's levels give them) it should accept, and the
#: groups it completes (:func:`completed_groups`, for the seat measure of
#: :func:`parlor.bots.monopoly_dealing.seat_best_offer`).
OfferPlan = tuple[
    int, tuple[int, ...], tuple[int, ...], tuple[float, float], list[int], list[tuple[int, int]]
]


def offer_plan(bot: MonopolyHeuristicBot, table: Table, player: int) -> list[OfferPlan]:
    """Per target and sweetener of :func:`offer_targets`: the price levels of the bot's
    ``price_factors`` at which the other side gains by the plain measure, less those at which
    no measure :func:`offer_search` takes can make the trade good for ``player`` (a bound that
    needs no cash: :func:`_target_plan`); a sweetener left with none is left out. That follows
    from the deeds, the number of players left and the bot's parameters alone, not from the
    cash, so it is kept with the deeds."""
    kind, rising = bot_kind(bot)
    return _plans(bot, table, player, kind, rising, table.n_active())[0]


#: What :func:`_plans` keeps per player: the plans, the least price any of them asks (a
#: search with less to spend, past the reserve, finds nothing) and the proposer's weight they
#: were made for (it prunes them: held in the value, not the key, so that a key has no float
#: to hash).
PlayerPlans = tuple[list[OfferPlan], int, float]

#: What :func:`_plans` keeps per target: the target, the stamps of the groups read, its entries,
#: their least price and the proposer's weight.
TargetPlans = tuple[OfferTarget, tuple[int, ...], list[OfferPlan], int, float]

#: The least price of no plan at all: more than any cash (and a machine-sized int compiled).
_NO_PRICE = 1 << 60


def _plans(
    bot: MonopolyHeuristicBot,
    table: Table,
    player: int,
    kind: TradeKind,
    rising: bool,
    n_active: int,
) -> PlayerPlans:
    """:func:`offer_plan` with the bot's :func:`bot_kind` and the players left (asked once by
    :func:`offer_search`, which reads them too), and the least price of its plans."""
    deeds = table.deeds
    plans = deeds._offer_plans
    if plans is None:
        plans = deeds._offer_plans = {}
    propose = bot.propose_weight
    # (the first item of a key stays the player, which the deeds' change paths read. The
    # players left count through the weights alone, which differ only between two and more:
    # a bankruptcy among more keeps the plans of the players it leaves alone. Plans made for
    # another proposer's weight are made again.)
    two = n_active <= 2
    key = (player, kind, two)
    found: PlayerPlans | None = plans.get(key)
    if found is not None and found[2] == propose:
        return found
    board = table.board
    unit = board.money_unit
    # :func:`_gain` answering, with no jail cards, written out (the same operations in the
    # same order: the same floats).
    weight = 1.0 if two else bot.trade_weight
    margin = 0.02 * board.starting_cash
    # With rising levels and a non-negative weight the other side's gain only grows with the
    # price (each operation rounds monotonically): from the first level it accepts, it accepts
    # every dearer one (which are positive when that one is).
    suffix = weight >= 0.0 and rising
    # The weight of :func:`offer_search` (not answering).
    own_weight = 1.0 if two else propose
    group_index = board.group_index
    # Per target, the plan made at an earlier decision holds while the target (its lots, the
    # other side, its sweeteners) is the same and none of the groups it reads (its own, its
    # sweeteners') has changed since: a purchase, build or mortgage elsewhere keeps it.
    cache = deeds.target_plans
    stamps = deeds.stamps
    plan: list[OfferPlan] = []
    least = _NO_PRICE
    for target in offer_targets(table.deeds, table.owner, player):
        rest = target.take
        gi = group_index[rest[0]]
        tkey = (player, kind, two, rest)
        hit: TargetPlans | None = cache.get(tkey)
        if hit is not None and hit[4] == propose and hit[0] == target:
            seen: tuple[int, ...] = hit[1]
            fresh = stamps[gi] == seen[0]
            i = 1
            for give in target.sweeteners:
                for s in give:
                    if stamps[group_index[s]] != seen[i]:
                        fresh = False
                        break
                    i += 1
                if not fresh:
                    break
            if fresh:
                if hit[2]:
                    plan.extend(hit[2])
                    if hit[3] < least:
                        least = hit[3]
                continue
        entries, target_least = _target_plan(
            table,
            player,
            target,
            gi,
            unit,
            kind,
            bot.price_factors,
            weight,
            margin,
            suffix,
            own_weight,
            rising,
        )
        read = [stamps[gi]]
        for give in target.sweeteners:
            for s in give:
                read.append(stamps[group_index[s]])
        cache[tkey] = (target, tuple(read), entries, target_least, propose)
        if entries:
            plan.extend(entries)
            if target_least < least:
                least = target_least
    found = plans[key] = (plan, least, propose)
    return found


def _target_plan(
    table: Table,
    player: int,
    target: OfferTarget,
    gi: int,
    unit: int,
    kind: TradeKind,
    factors: tuple[float, ...],
    weight: float,
    margin: float,
    suffix: bool,
    own_weight: float,
    rising: bool,
) -> tuple[list[OfferPlan], int]:
    """:func:`offer_plan`'s entries for one target (group ``gi``), one per sweetener with a
    price the other side accepts and that may be good for ``player`` (:func:`offer_search`'s
    ``own_weight``), and the least of those prices. They read the target's group and its
    sweeteners' groups only."""
    other, rest, base = target.other, target.take, target.base
    board = table.board
    group_index = board.group_index
    levels = _LEVELS.get((base, unit, kind))
    if levels is None:
        if len(_LEVELS) > 4096:
            _LEVELS.clear()
        levels = _LEVELS[(base, unit, kind)] = [
            int(base * factor) // unit * unit for factor in factors
        ]
    # :meth:`Table.trade_deltas` group by group: the target group's change is the same for
    # every sweetener, whose lot lies in another group (summed in the same order: the
    # lots given first, so the same floats).
    # (:meth:`Table.group_deltas` written out: after the trade the target group is all
    # ``player``'s and a sweetener's all ``other``'s, so the side left without a lot there
    # is worth 0.0 in it, and a list of one owner everywhere stands for the lots' owners after)
    owner = table.owner
    target_p = table._group_worth(player, gi, [player] * len(owner)) - table._group_worth(
        player, gi, owner
    )
    target_o = 0.0 - table._group_worth(other, gi, owner)
    whole_other: list[int] | None = None
    # The target completes group ``gi`` for ``player``; a sweetener (a lot ``other`` lacks
    # from a street group of its, :func:`offer_targets`) completes that group for
    # ``other`` (:func:`completed_groups`, the lots given first).
    done_target = [(gi, player)]
    entries: list[OfferPlan] = []
    least = _NO_PRICE
    for give in target.sweeteners:
        if not give:
            plain = (0.0 + target_p, 0.0 + target_o)
            done = done_target
        elif len(give) == 1 and group_index[give[0]] != gi:
            g2 = group_index[give[0]]
            if whole_other is None:
                whole_other = [other] * len(owner)
            give_p = 0.0 - table._group_worth(player, g2, owner)
            give_o = table._group_worth(other, g2, whole_other) - table._group_worth(
                other, g2, owner
            )
            plain = ((0.0 + give_p) + target_p, (0.0 + give_o) + target_o)
            done = [(g2, other), (gi, player)]
        else:
            plain = table.trade_deltas(player, other, give, rest)
            done = completed_groups(table, player, other, give, rest)
        pays: list[int] = []
        if suffix:
            # The first level accepted, halving (its gain only grows with the price): from
            # it, every level.
            lo, hi = 0, len(levels)
            if not give:
                while lo < hi and levels[lo] <= 0:
                    lo += 1
            p_me, p_other = plain
            while lo < hi:
                mid = (lo + hi) // 2
                pay = levels[mid]
                if (p_other + pay) - weight * (p_me - pay) - margin > 0:
                    hi = mid
                else:
                    lo = mid + 1
            pays = levels[lo:]
        else:
            for pay in levels:
                if not give and pay <= 0:
                    continue
                if (plain[1] + pay) - weight * (plain[0] - pay) - margin > 0:
                    pays.append(pay)
        if pays and own_weight >= 0.0:
            pays = _hopeful(board, player, plain, done, pays, own_weight, margin, rising)
        if pays:
            entries.append((other, rest, give, plain, pays, done))
            first = pays[0] if rising else min(pays)
            if first < least:
                least = first
    return entries, least


def _hopeful(
    board: Board,
    player: int,
    plain: tuple[float, float],
    done: list[tuple[int, int]],
    pays: list[int],
    weight: float,
    margin: float,
    rising: bool,
) -> list[int]:
    """The prices of ``pays`` at which :func:`offer_search` (its ``weight`` not negative) may
    find the trade good for ``player`` whatever the cash: its gain with ``plain`` less, for
    ``other``, the whole bonus of each group it completes with houses to build, is positive.
    The funded measure takes off ``player``'s side no more than nothing and off ``other``'s
    no more than that bonus (each step rounds monotonically, a bonus is not negative), so its
    gain is no greater; the plain measure takes off nothing. The prices are rising when
    ``rising`` and the bound falls as the price rises: the first it fails ends them."""
    d_me, d_other = plain
    for group, side in done:
        bonus = board.group_bonus[group]
        if bonus < 0.0:
            return pays  # (no bound: a negative bonus adds to a side's change)
        if side != player and HOUSES_NEEDED * board.group_house_cost[group] > 0:
            d_other -= bonus
    if rising:
        # The prices up to the first the bound fails, halving.
        lo, hi = 0, len(pays)
        while lo < hi:
            mid = (lo + hi) // 2
            pay = pays[mid]
            if (d_me - pay) - weight * (d_other + pay) - margin > 0:
                lo = mid + 1
            else:
                hi = mid
        return pays if lo == len(pays) else pays[:lo]
    return [pay for pay in pays if (d_me - pay) - weight * (d_other + pay) - margin > 0]


#: A bot's trade parameters in the keys of its price plans and levels: a small number standing
#: for ``(trade_weight, price_factors)`` (a tuple of floats is hashed anew at every question,
#: and the plans are asked at every search), or the pair itself past :data:`_MAX_KINDS` of them.
TradeKind = int | tuple[float, tuple[float, ...]]
_KINDS: dict[tuple[float, tuple[float, ...]], int] = {}
_MAX_KINDS = 4096

#: The price levels of a target: per (printed prices, money unit, trade kind), never changed
#: (a plan's accepted prices are a copy or a slice).
_LEVELS: dict[tuple[int, int, TradeKind], list[int]] = {}


def bot_kind(bot: MonopolyHeuristicBot) -> tuple[TradeKind, bool]:
    """``bot``'s :data:`TradeKind` and whether its price factors rise, kept on the bot for the
    parameters it has (made again if they are changed)."""
    memo = bot._trade_kind
    factors = bot.price_factors
    weight = bot.trade_weight
    if memo is not None and memo[0] is factors and memo[1] == weight:
        return memo[2], memo[3]
    params = (weight, factors)
    number = _KINDS.get(params)
    if number is None and len(_KINDS) < _MAX_KINDS:
        number = _KINDS[params] = len(_KINDS)
    kind: TradeKind = params if number is None else number
    rising = rising_levels(factors)
    bot._trade_kind = (factors, weight, kind, rising)
    return kind, rising


#: Per tuple of price factors: whether they rise (asked once, not at every search).
_RISING: dict[tuple[float, ...], bool] = {}


def rising_levels(factors: tuple[float, ...]) -> bool:
    """Whether the price ``factors`` never fall from one to the next (kept per tuple)."""
    rising = _RISING.get(factors)
    if rising is None:
        rising = _RISING[factors] = all(
            factors[i] <= factors[i + 1] for i in range(len(factors) - 1)
        )
    return rising


def best_offer(
    bot: MonopolyHeuristicBot,
    game: Any,
    table: Table,
    player: int,
    made: set[ProposeTrade],
    funded: bool = False,
) -> ProposeTrade | None:
    """A trade that completes one of ``player``'s colour groups and that the other side
    should accept by this bot's own measure, or ``None``: the cheapest acceptable price for each
    sweetener, the best for ``player`` among those. ``funded``: ``player`` values it by
    :func:`parlor.bots.monopoly_dealing.funded_deltas` rather than the plain deltas (the search
    is :func:`offer_search`, which knows both measures); whether the other side accepts is always
    the plain measure every heuristic shares (:func:`offer_plan`: the prices it accepts, kept
    with the deeds)."""
    return offer_search(bot, game, table, player, made, funded)


def offer_search(
    bot: MonopolyHeuristicBot,
    game: Any,
    table: Table,
    player: int,
    made: set[ProposeTrade],
    funded: bool,
) -> ProposeTrade | None:
    """The search of :func:`best_offer`, ``player`` valuing the trades by the plain deltas or,
    ``funded``, by :func:`parlor.bots.monopoly_dealing.funded_deltas` (the heuristic's own
    offers, :func:`parlor.bots.monopoly_dealing.seat_best_offer`).

    Both measures are taken per plan, not called at each price level: the plain deltas come
    with the plan, and the funded measure takes off, for each group the trade completes, the
    bonus its side's funds after the price do not pay for (:func:`unfunded_bonus`'s
    arithmetic: the group's houses and the side's funds less the cash kept back are the same at
    every level, the price alone changes). :func:`_gain` (not answering, no jail cards) is
    written out with the same operations in the same order: the same floats."""
    targets = table.deeds._offer_targets[player]
    if targets is not None and not targets:
        return None  # (no target kept: no plan, whatever the bot's parameters)
    memo = bot._trade_kind  # (:func:`bot_kind`'s memo read here: most searches end at once)
    if memo is not None and memo[0] is bot.price_factors and memo[1] == bot.trade_weight:
        kind, rising = memo[2], memo[3]
    else:
        kind, rising = bot_kind(bot)
    n_active = table.n_active()
    # (the plans kept with the deeds read here, :func:`_plans` made only when they are not)
    kept = table.deeds._offer_plans
    found: PlayerPlans | None = None if kept is None else kept.get((player, kind, n_active <= 2))
    if found is None or found[2] != bot.propose_weight:
        found = _plans(bot, table, player, kind, rising, n_active)
    plans, least = found[0], found[1]
    # No plan's price is affordable when the least is not (no plan at all: no price).
    cash = table.cash[player]
    if least > cash:
        return None
    reserve = bot._reserve(table)
    if cash - least < reserve:
        return None
    # The best so far: its gain, the other side, the lots given, the lots taken, the price (the
    # offer is made once, at the end).
    best: tuple[float, int, tuple[int, ...], tuple[int, ...], int, tuple[float, float]] | None = (
        None
    )
    # ``player``'s offers of ``made`` as ``(to, lots given, lots taken, cash given)``, asked at
    # the first price that may do: the same answers as ``offer in made`` (an offer of the search
    # takes no cash and no jail cards) without making an offer at each price.
    taken: set[tuple[int, Any, Any, Any]] | None = None
    # The proposer's gain falls as the price rises (its measure's change does not grow as it
    # pays more, the other side's does not fall, and a non-negative weight counts that against
    # it): past the first price it refuses, no dearer one can do.
    monotone = rising and bot.propose_weight >= 0.0
    b = table.board
    weight = 1.0 if n_active <= 2 else bot.propose_weight
    margin = 0.02 * b.starting_cash
    bankrupt = table.bankrupt
    # ``player``'s lone funds (:meth:`Table.lone_funds`), asked at the first plan that needs them.
    lone: tuple[int, list[int]] | None = None
    for other, rest, give, plain, pays, done in plans:
        if bankrupt[other]:
            continue
        # The funded measure's parts, made at the first affordable level: per completed group
        # with houses to build, (whether ``player`` gets it, the houses' cost, the side's funds
        # less the reserve, the group's bonus).
        parts: list[tuple[bool, int, int, float]] | None = None if funded else []
        for pay in pays:
            if pay > cash or cash - pay < reserve:
                if rising:
                    break  # (the dearer levels are not affordable either)
                continue
            if parts is None:
                # (per completed group, ``player``'s lone funds asked once)
                parts = []
                for gi, new_owner in done:
                    houses = HOUSES_NEEDED * b.group_house_cost[gi]
                    if houses <= 0:
                        continue
                    # (:func:`parlor.bots.monopoly_valuation.funds` beside the group, less the
                    # reserve: the same sums)
                    mine = new_owner == player
                    if mine:
                        if lone is None:
                            lone = table.lone_funds(player)
                        spare_base = cash + (lone[0] - lone[1][gi]) - reserve
                    else:
                        other_lone = table.lone_funds(other)
                        spare_base = (
                            table.cash[other] + (other_lone[0] - other_lone[1][gi]) - reserve
                        )
                    parts.append((mine, houses, spare_base, b.group_bonus[gi]))
            d_me, d_other = plain
            for mine, houses, spare_base, bonus in parts:
                # The side's spare funds after paying or being paid ``pay``.
                spare = spare_base - pay if mine else spare_base + pay
                if spare >= houses:
                    continue
                unfunded = bonus * (1.0 - (spare / houses if spare > 0 else 0.0))
                if mine:
                    d_me -= unfunded
                else:
                    d_other -= unfunded
            mine_gain = (d_me - pay) - weight * (d_other + pay) - margin
            if mine_gain <= 0:
                if monotone:
                    break  # (it only falls as the price rises)
                continue
            if monotone and best is not None and mine_gain <= best[0]:
                break  # (no dearer price of this sweetener can beat the best: none is made)
            if taken is None:
                taken = set()
                for o in made:
                    if (
                        type(o) is ProposeTrade
                        and o.player == player
                        and o.take_cash == 0
                        and o.give_jail_cards == 0
                        and o.take_jail_cards == 0
                    ):
                        taken.add((o.to, o.give_squares, o.take_squares, o.give_cash))
            if taken and (other, give, rest, pay) in taken:
                continue
            if best is None or mine_gain > best[0]:
                best = (mine_gain, other, give, rest, pay, plain)
            break  # the cheapest acceptable price for this sweetener
    if best is None:
        return None
    offer = ProposeTrade(
        player, best[1], give_squares=best[2], take_squares=best[3], give_cash=best[4]
    )
    if not game.is_legal(offer):
        return None
    global _LAST_OFFER
    _LAST_OFFER = (table.deeds.version, player, best[1], best[2], best[3], best[5])
    return offer

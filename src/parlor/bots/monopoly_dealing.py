"""Trades valued by what a completed group does for the seat that gets it (issue 20).

:meth:`Table.worth` counts a complete colour group's monopoly bonus in full, whoever holds it. A
good player does not: a group earns its bonus by houses, so a side left without the money to
build it gains less from completing it than one that can build at once (the same reasoning as
:func:`parlor.bots.monopoly_valuation.seat_value` for auctions). :func:`funded_deltas` takes the
unfunded part of the bonus off each side's change of worth; :func:`seat_trade_gain` answers
offers with it and :func:`seat_best_offer` picks the heuristic's own offers with it, trying the
price levels of the bot's ``price_factors`` for the cheapest one the other side should accept.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlor.bots.monopoly_table import Table
from parlor.bots.monopoly_trading import (
    completed_groups,
    offer_plan,
    rising_levels,
    trade_gain,
)
from parlor.bots.monopoly_valuation import HOUSES_NEEDED, funds
from parlor.monopoly.actions import ProposeTrade

if TYPE_CHECKING:
    from parlor.bots.monopoly_heuristic import MonopolyHeuristicBot


def unfunded_bonus(table: Table, player: int, gi: int, cash_change: int, keep: int) -> float:
    """The part of group ``gi``'s monopoly bonus ``player`` cannot yet earn if it completes the
    group with ``cash_change`` more cash: the share of :data:`HOUSES_NEEDED` houses a lot that
    its :func:`funds` after the change, less ``keep``, do not pay for."""
    b = table.board
    houses = 0
    for s in b.groups[gi]:
        houses += HOUSES_NEEDED * b.house_cost[s]
    if houses <= 0:
        return 0.0
    spare = funds(table, player, gi) + cash_change - keep
    if spare >= houses:
        return 0.0
    return b.group_bonus[gi] * (1.0 - max(0.0, spare) / houses)


def funded_deltas(
    table: Table,
    proposer: int,
    to: int,
    give_squares: Any,
    take_squares: Any,
    cash_to_proposer: int,
    keep: int,
    plain: tuple[float, float] | None = None,
    completed: list[tuple[int, int]] | None = None,
) -> tuple[float, float]:
    """:meth:`Table.trade_deltas` (or ``plain``, those deltas already computed), less for each
    side the :func:`unfunded_bonus` of every street group the trade completes for it
    (``cash_to_proposer``: the cash ``proposer`` receives, what ``to`` pays; ``keep``: cash each
    side holds back from building; ``completed``: :func:`completed_groups`, if known)."""
    if plain is None:
        plain = table.trade_deltas(proposer, to, give_squares, take_squares)
    if completed is None:
        completed = completed_groups(table, proposer, to, give_squares, take_squares)
    d_proposer, d_to = plain
    for gi, new_owner in completed:
        if new_owner == proposer:
            d_proposer -= unfunded_bonus(table, proposer, gi, cash_to_proposer, keep)
        else:
            d_to -= unfunded_bonus(table, to, gi, -cash_to_proposer, keep)
    return d_proposer, d_to


def seat_trade_gain(
    bot: MonopolyHeuristicBot,
    table: Table,
    proposer: int,
    to: int,
    offer: Any,
    answering: bool,
    weight: float | None = None,
) -> float:
    """:func:`parlor.bots.monopoly_trading.trade_gain` with :func:`funded_deltas`."""
    return trade_gain(bot, table, proposer, to, offer, answering, weight, own=funded_deltas)


def seat_best_offer(
    bot: MonopolyHeuristicBot, game: Any, table: Table, player: int, made: set[ProposeTrade]
) -> ProposeTrade | None:
    """:func:`parlor.bots.monopoly_trading.best_offer` valued with :func:`funded_deltas`: a
    trade completing one of ``player``'s colour groups, at the lowest price level at which the
    other side gains by the plain measure, the best for ``player`` by its funded measure.

    The same search as ``best_offer(..., own=funded_deltas)`` (the same operations in the same
    order, so the same floats), written out: the groups each offer completes come with its plan
    (they follow from the deeds), and the measure and the bot's gain are inlined instead of
    called at every price level."""
    plans = offer_plan(bot, table, player)
    if not plans:
        return None
    best: tuple[float, ProposeTrade] | None = None
    cash = table.cash[player]
    reserve = bot._reserve(table)
    rising = rising_levels(bot.price_factors)
    monotone = rising and bot.propose_weight >= 0.0
    b = table.board
    edition = b.edition
    # :func:`parlor.bots.monopoly_trading._gain`, not answering, no jail cards.
    card_value = 0.6 * edition.jail_fine * 0
    weight = 1.0 if table.n_active() <= 2 else bot.propose_weight
    margin = 0.02 * edition.starting_cash
    bankrupt = table.bankrupt
    for other, rest, give, plain, pays, done in plans:
        if bankrupt[other]:
            continue
        for pay in pays:
            if pay > cash or cash - pay < reserve:
                if rising:
                    break  # (the dearer levels are not affordable either)
                continue
            d_me, d_other = plain
            for gi, new_owner in done:
                # :func:`unfunded_bonus` of the side that completes the group.
                houses = 0
                for s in b.groups[gi]:
                    houses += HOUSES_NEEDED * b.house_cost[s]
                if houses <= 0:
                    continue
                if new_owner == player:
                    spare = funds(table, player, gi) - pay - reserve
                else:
                    spare = funds(table, other, gi) + pay - reserve
                if spare >= houses:
                    continue
                unfunded = b.group_bonus[gi] * (1.0 - (spare / houses if spare > 0 else 0.0))
                if new_owner == player:
                    d_me -= unfunded
                else:
                    d_other -= unfunded
            mine = d_me - pay
            theirs = d_other + pay
            mine += -card_value
            theirs += card_value
            mine_gain = mine - weight * theirs - margin
            if mine_gain <= 0:
                if monotone:
                    break  # (it only falls as the price rises)
                continue
            offer = ProposeTrade(player, other, give_squares=give, take_squares=rest, give_cash=pay)
            if offer in made:
                continue
            if best is None or mine_gain > best[0]:
                best = (mine_gain, offer)
            break  # the cheapest acceptable price for this sweetener
    if best is None:
        return None
    return best[1] if game.is_legal(best[1]) else None

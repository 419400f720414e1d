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
from parlor.bots.monopoly_trading import completed_groups, offer_search, trade_gain
from parlor.bots.monopoly_valuation import HOUSES_NEEDED, funds
from parlor.monopoly.actions import ProposeTrade

if TYPE_CHECKING:
    from parlor.bots.monopoly_heuristic import MonopolyHeuristicBot


def unfunded_bonus(table: Table, player: int, gi: int, cash_change: int, keep: int) -> float:
    """The part of group ``gi``'s monopoly bonus ``player`` cannot yet earn if it completes the
    group with ``cash_change`` more cash: the share of :data:`HOUSES_NEEDED` houses a lot that
    its :func:`funds` after the change, less ``keep``, do not pay for."""
    b = table.board
    houses = HOUSES_NEEDED * b.group_house_cost[gi]  # (the sum over its lots: the same)
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
    other side gains by the plain measure, the best for ``player`` by its funded measure (the
    one search of :func:`parlor.bots.monopoly_trading.offer_search`, the funded measure taken
    per plan: the groups each offer completes come with the plan, the funds beside them are
    the same at every price level)."""
    return offer_search(bot, game, table, player, made, True)

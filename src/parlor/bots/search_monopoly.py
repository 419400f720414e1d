"""The search bot's adapter for the property game: the candidates worth searching (trade offers
against not offering, auction bids, buying, jail, trade answers, building wishes), the evaluation of
a cut-off rollout (the share of the players' worth), and the policies (the offering heuristic at
the bot's seat, the heuristic at the others).
"""

from __future__ import annotations

import math
from typing import Any

from parlor.bots.base import Bot
from parlor.bots.monopoly_offers import (
    OfferingHeuristicBot,
    open_offers,
    opponent_model,
    record_choice,
)
from parlor.bots.search_adapter import Adapter, outcome_score
from parlor.core.game import Game


def _bid_candidates(game: Game[Any], player: int, answers: list[Any]) -> list[Any]:
    """Pass, the minimum raise, and jump bids: just over the highest opponent's limit (by the
    heuristic's measure) and at fractions of the bot's own limit, none above that limit."""
    from parlor.bots.monopoly_table import Table
    from parlor.monopoly.actions import Bid, PassBid

    pending = game.pending
    assert pending is not None
    bids = sorted((a for a in answers if isinstance(a, Bid)), key=lambda a: a.amount)
    out: list[Any] = [PassBid(player)]
    if not bids:
        return out
    table = Table.of(game)
    b = table.board
    sq = int(pending.info["square"])
    unit = b.edition.money_unit
    model = opponent_model()
    # What the lot is worth to this seat, cash needs included (monopoly_valuation): no candidate
    # goes beyond it.
    mine = model.bid_limit(table, player, sq)
    if bids[0].amount > mine:
        return out  # beyond what the lot is worth to the bot: nothing to search
    out.append(bids[0])
    cash = table.cash[player]
    others = [
        model.bid_limit(table, q, sq)
        for q in table.active()
        if q != player and q != pending.info.get("high_bidder")
    ]
    top = max([float(pending.info["high_bid"]), *others])
    levels = [top + unit, 0.8 * mine, mine]
    for level in levels:
        amount = min(math.ceil(level / unit), math.floor(mine / unit)) * unit
        if amount <= bids[0].amount or amount > cash:
            continue
        bid = Bid(player, amount)
        if bid not in out and game.is_legal(bid):
            out.append(bid)
    return out


def _monopoly_candidates(game: Game[Any], player: int, default: Any) -> list[Any]:
    from parlor.monopoly.actions import Bid, ProposeTrade

    pending = game.pending
    assert pending is not None
    kind = pending.kind
    answers = game.legal_actions(player, anytime=False)
    if kind in ("buy_or_auction", "jail", "answer_trade"):
        out = list(answers)
    elif kind == "building_wish":
        out = list(dict.fromkeys((answers[0], answers[-1])))  # fewest and most, vs the policy's
    elif kind == "bid" and pending.info.get("item") == "property":
        if not any(isinstance(a, Bid) for a in answers):
            return [default]
        out = _bid_candidates(game, player, answers)
    elif kind in ("start_turn", "end_turn"):
        offers = open_offers(game, player, mark=True)
        if not offers:
            return [default]
        # The best offer is the choice to beat (the bot's own policy makes it): the heuristics
        # accept it, and it pays on average. Not offering is the last candidate.
        out = [*offers]
        if isinstance(default, ProposeTrade):
            out.extend(a for a in answers if a not in out)
        else:
            out.append(default)
        return out
    else:
        return [default]
    if default in out:
        out.remove(default)
    if kind in ("start_turn", "end_turn") and out and isinstance(out[0], ProposeTrade):
        return [*out, default]
    return [default, *out]


def _monopoly_evaluate(game: Game[Any], player: int) -> float:
    from parlor.bots.monopoly_table import Table

    if game.is_over:
        return outcome_score(game, player)
    table = Table.of(game)
    worths = [
        max(0.0, table.worth(p)) if not table.bankrupt[p] else 0.0 for p in range(game.num_players)
    ]
    total = sum(worths)
    return worths[player] / total if total > 0 else 0.0


def _monopoly_heuristic(seed: int) -> Bot:
    from parlor.bots.monopoly_heuristic import MonopolyHeuristicBot

    return MonopolyHeuristicBot(seed)


def _monopoly_own(seed: int) -> Bot:
    return OfferingHeuristicBot(seed, record=False)


def _monopoly_own_rollout(seed: int) -> Bot:
    return OfferingHeuristicBot(seed, record=True)


ADAPTER = Adapter(
    _monopoly_heuristic,
    _monopoly_candidates,
    _monopoly_evaluate,
    150,
    make_own=_monopoly_own,
    make_own_rollout=_monopoly_own_rollout,
    chosen=record_choice,
    first_is_default=True,
)

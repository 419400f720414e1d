"""The property bots' trade offers: which lots to offer for and at what price, remembered per
game, and :class:`OfferingHeuristicBot`, the heuristic that makes them (the search bot's own
policy in the property game, see :mod:`parlor.bots.search_monopoly`).

The offers buy, at the lowest price the heuristic seller accepts, the lots one opponent holds in a
colour group where the bot owns a lot: those completing the group first, then partial ones; at
most :data:`OFFERS_PER_TURN` offers a turn, never the same offer twice in a game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from parlor.bots.game_memory import PerGame
from parlor.bots.monopoly_trading import trade_gain
from parlor.core.game import Game

#: Most trade offers searched at one decision (besides not offering).
MAX_OFFERS = 3
#: Also offer to buy part of a group (the lots one owner holds) when it does not complete it.
PARTIAL_OFFERS = True
#: Also offer to buy the lots that keep another opponent from completing a group.
BLOCK_OFFERS = False
#: Most offers the bot makes in one turn.
OFFERS_PER_TURN = 3


@dataclass(slots=True)
class _Offers:
    """What the search bot remembers of one game: the offers it made and when."""

    made: set[Any]
    turn: int  # the turn (round * 16 + player) of the last offer made
    count: int  # offers made in that turn
    searched: set[tuple[int, str, int]]  # (turn, decision kind, offers made) already searched


_OFFERS: PerGame[dict[int, _Offers]] = PerGame()


def _offers_memory(game: Game[Any], player: int) -> _Offers:
    per_game = _OFFERS.get(game)
    if per_game is None:
        per_game = {}
        _OFFERS.set(game, per_game)
    memory = per_game.get(player)
    if memory is None:
        memory = per_game[player] = _Offers(set(), -1, 0, set())
    return memory


def opponent_model() -> Any:
    from parlor.bots.monopoly_heuristic import MonopolyHeuristicBot

    global _MODEL
    if _MODEL is None:
        _MODEL = MonopolyHeuristicBot(0)
    return _MODEL


_MODEL: Any = None


def trade_offers(game: Game[Any], player: int) -> list[Any]:
    """Offers to buy, at the lowest price the seller accepts by the heuristic's measure, the lots
    one opponent holds in a colour group where ``player`` owns a lot: first those that complete
    the group (best first by the bot's own gain in worth), then the partial ones (the most of a
    group first); at most :data:`MAX_OFFERS`, none made before in this game."""
    from parlor.bots.monopoly_table import Table

    memory = _offers_memory(game, player)
    table = Table.of(game)
    b = table.board
    scored: list[tuple[float, Any]] = []
    for group in b.street_groups:
        mine = [s for s in group if table.owner[s] == player]
        rest = [s for s in group if table.owner[s] != player]
        if not rest or any(table.buildings[s] for s in group):
            continue
        holders = {table.owner[s] for s in rest}
        for other in sorted(holders):
            if other < 0 or table.bankrupt[other]:
                continue
            take = tuple(s for s in rest if table.owner[s] == other)
            complete = len(take) == len(rest)
            if not mine:
                # Blocking: the lots standing between another opponent and the group.
                if not BLOCK_OFFERS or len(holders) != 2 or -1 in holders:
                    continue
                if len(take) * 2 > len(group):
                    continue
            elif not complete and not PARTIAL_OFFERS:
                continue
            _offers_for(game, table, player, other, group, take, complete, memory, scored)
    scored.sort(key=lambda x: -x[0])
    return [offer for _, offer in scored[:MAX_OFFERS]]


def _offers_for(
    game: Game[Any],
    table: Any,
    player: int,
    other: int,
    group: tuple[int, ...],
    take: tuple[int, ...],
    complete: bool,
    memory: _Offers,
    scored: list[tuple[float, Any]],
) -> None:
    """Append to ``scored`` the offers to buy ``take`` (lots of ``group`` held by ``other``) at
    the lowest price ``other`` accepts by the heuristic's measure, with (when the purchase
    completes the group) the variants that also give the lot completing one of ``other``'s."""
    from parlor.monopoly.actions import ProposeTrade

    model = opponent_model()
    b = table.board
    unit = b.edition.money_unit
    cash = table.cash[player]
    keep = 0.05 * b.edition.starting_cash
    sweeteners: list[tuple[int, ...]] = [()]
    for g2 in b.street_groups if complete else ():
        if g2 == group:
            continue
        missing = [s for s in g2 if table.owner[s] != other]
        if (
            len(missing) == 1
            and len(missing) < len(g2)
            and table.owner[missing[0]] == player
            and not any(table.buildings[s] for s in g2)
        ):
            sweeteners.append((missing[0],))
    for give in sweeteners:
        data = {
            "give_squares": list(give),
            "take_squares": list(take),
            "give_cash": 0,
            "take_cash": 0,
            "give_jail_cards": 0,
            "take_jail_cards": 0,
        }
        # Their gain grows by (1 + their weight) per unit paid: solve for the lowest price.
        # (at least: a seat valuing trades by its funds gains more as the buyer pays more)
        slope = 2.0 if len(table.active()) <= 2 else 1.0 + model.accept_weight
        gain0 = model.answer_gain(table, player, other, data)
        pay = 0 if gain0 > 0 else math.ceil((-gain0 / slope + 1) / unit) * unit
        for _ in range(4):
            data["give_cash"] = pay
            if model.answer_gain(table, player, other, data) > 0:
                break
            pay += unit
        else:
            continue
        if pay > cash - keep or (not give and pay <= 0):
            continue
        offer = ProposeTrade(player, other, give_squares=give, take_squares=take, give_cash=pay)
        if offer in memory.made or not game.is_legal(offer):
            continue
        if complete:
            score = trade_gain(model, table, player, other, data, answering=False, weight=0.0)
        else:
            # A step towards a group: after every completion, the more owned the better.
            owned = sum(1 for s in group if table.owner[s] == player) + len(take)
            score = -1e6 + 1e3 * owned / len(group) - pay / unit
            if owned == len(take):
                score -= 1e3  # a blocking purchase comes last
        scored.append((score, offer))


def open_offers(game: Game[Any], player: int, mark: bool = False) -> list[Any]:
    """The offers :func:`trade_offers` lists, unless ``player`` made its offers for this turn
    or they were already searched at this decision (``mark``: remember this search)."""
    memory = _offers_memory(game, player)
    pending = game.pending
    assert pending is not None
    turn = int(game.round) * 16 + player  # type: ignore[attr-defined]
    made = memory.count if memory.turn == turn else 0
    key = (turn, pending.kind, made)
    if made >= OFFERS_PER_TURN or key in memory.searched:
        return []
    if mark:
        if len(memory.searched) > 64:
            memory.searched.clear()
        memory.searched.add(key)
    return trade_offers(game, player)


class OfferingHeuristicBot:
    """The property heuristic, stricter in answering trades (the other side's gain counts in
    full), that at the start and end of its turns makes the best offer of
    :func:`trade_offers` (up to :data:`OFFERS_PER_TURN` per turn). The search bot's own policy,
    and its seat's policy in rollouts (``record``: it remembers its offers itself)."""

    name = "offering-heuristic"

    def __init__(self, seed: int | None = None, *, record: bool = True) -> None:
        from parlor.bots.monopoly_heuristic import MonopolyHeuristicBot

        self.heuristic = MonopolyHeuristicBot(seed, accept_weight=1.0)
        self.rng = self.heuristic.rng
        self.record = record

    def choose(self, game: Game[Any], player: int) -> Any:
        choice = self.heuristic.choose(game, player)
        pending = game.pending
        assert pending is not None
        if pending.kind in ("start_turn", "end_turn"):
            offers = open_offers(game, player)
            if offers:
                choice = offers[0]
            if self.record:
                record_choice(game, player, choice)
        return choice


def record_choice(game: Game[Any], player: int, action: Any) -> None:
    from parlor.monopoly.actions import ProposeTrade

    if isinstance(action, ProposeTrade):
        memory = _offers_memory(game, player)
        memory.made.add(action)
        turn = int(game.round) * 16 + player  # type: ignore[attr-defined]
        memory.count = memory.count + 1 if memory.turn == turn else 1
        memory.turn = turn

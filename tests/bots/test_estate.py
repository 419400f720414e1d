"""The heuristic's estate (:mod:`parlor.bots.monopoly_estate`): the lifts, builds, mortgages and
debt answers it picks without asking the engine are legal, and the span of cash in which lot
management finds nothing to do (:func:`idle_span`, the bot's memo between decisions) is exact:
nothing inside it, an action just outside it."""

from __future__ import annotations

from typing import Any

import pytest

from parlor import monopoly
from parlor.bots.monopoly_estate import NO_LIMIT, idle_span, manage_lots, raise_funds
from parlor.bots.monopoly_heuristic import MonopolyHeuristicBot
from parlor.bots.monopoly_table import Table

#: The turn's own decisions, where lot management runs.
MANAGED = ("start_turn", "roll_again", "end_turn", "jail")

CASES = [
    ("classic", 4, 3, None),
    ("classic", 3, 8, {"hotel_after_houses": 3}),
    ("matador", 4, 5, None),
    ("latam", 2, 2, {"building_shortage_auction": False}),
    ("classic", 4, 6, {"unlimited_buildings": True}),
]


def _moments(edition: str, players: int, seed: int, options: Any) -> Any:
    """Each decision of a seeded game of heuristic bots, with the bots."""
    game = monopoly.new_game(edition, players, seed=seed, options=options)
    bots = [MonopolyHeuristicBot(seed * 8 + p) for p in range(players)]
    n = 0
    while not game.is_over and n < 3000:
        yield game, bots
        p = game.decider
        game.apply(bots[p].choose(game, p))
        n += 1


@pytest.mark.parametrize(("edition", "players", "seed", "options"), CASES)
def test_estate_actions_are_legal_and_the_idle_span_is_exact(
    edition: str, players: int, seed: int, options: Any
) -> None:
    checked = outside = debts = 0
    for game, bots in _moments(edition, players, seed, options):
        pending = game.pending
        p = pending.player
        bot = bots[p]
        table = Table.of(game)
        if pending.kind == "raise_funds":
            action = raise_funds(game, table, p, int(pending.info["amount"]))
            assert game.is_legal(action), action
            debts += 1
            continue
        if pending.kind not in MANAGED:
            continue
        action = manage_lots(bot, table, p)
        assert action is None or game.is_legal(action), action
        idle = idle_span(bot, table, p)
        assert (idle.lo <= table.cash[p] < idle.hi) == (action is None)
        # Cash values at the span's ends and just outside them, on a copy of the table.
        trial = table.copy()
        for cash, inside in (
            (idle.lo, True),
            (idle.hi - 1, True),
            (idle.lo - 1, False),
            (idle.hi, False),
        ):
            if abs(cash) >= NO_LIMIT - 1 or cash < 0 or (inside and idle.lo >= idle.hi):
                continue
            trial.cash[p] = cash
            found = manage_lots(bot, trial, p)
            assert (found is None) == inside, (cash, idle.lo, idle.hi, found)
            checked += 1
            outside += not inside
    assert checked > 50 and outside > 10 and debts > 0

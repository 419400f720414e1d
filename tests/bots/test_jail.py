"""The heuristic's jail decision reads the unowned lots and the buildings from the deeds (their
players' lists, the groups they say are built, ``Board.ungrouped``): at every moment of played
games it answers as a scan of every lot would, for every seat."""

from __future__ import annotations

import pytest

from parlor import monopoly
from parlor.bots.monopoly_heuristic import MonopolyHeuristicBot
from parlor.bots.monopoly_table import Table
from parlor.monopoly.actions import Action, PayJailFine, RollDice, UseJailCard


def _scanned(bot: MonopolyHeuristicBot, table: Table, player: int, answers: list[Action]) -> Action:
    """The jail decision by a scan of every lot (as before the deeds were read)."""
    b = table.board
    unowned = sum(1 for s in b.properties if table.owner[s] < 0)
    built = [s for s in b.properties if table.buildings[s]]
    i_earn = any(table.owner[s] == player for s in built)
    danger = any(table.owner[s] != player for s in built)
    early = unowned >= len(b.properties) // 3
    if early or not danger or (i_earn and not b.rent_while_jailed):
        for a in (UseJailCard(player), PayJailFine(player)):
            if a in answers and (
                isinstance(a, UseJailCard)
                or table.cash[player] - b.jail_fine >= bot._reserve(table)
            ):
                return a
    return RollDice(player)


@pytest.mark.parametrize("edition", ["classic", "matco", "latam", "matador"])
def test_the_jail_decision_equals_a_scan_of_every_lot(edition: str) -> None:
    game = monopoly.new_game(edition, 4, seed=5)
    bots = [MonopolyHeuristicBot(p) for p in range(4)]
    asked = built = 0
    for _ in range(3000):
        if game.is_over:
            break
        table = Table.of(game)
        built += any(table.buildings)
        for p in range(4):
            for answers in (
                [RollDice(p)],
                [RollDice(p), PayJailFine(p)],
                [RollDice(p), PayJailFine(p), UseJailCard(p)],
            ):
                want = _scanned(bots[0], table, p, list(answers))
                assert bots[0]._jail(game, table, p, list(answers)) == want
                asked += 1
        p = game.decider
        game.apply(bots[p].choose(game, p))
    assert asked > 1000 and built > 20  # (states with buildings were asked about)

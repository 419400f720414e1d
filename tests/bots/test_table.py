"""The property bots' table: read from the engine's state it equals the one read from a view;
the caches carried from one decision to the next (``Deeds.successor``, ``Deeds.advance_at``) equal
a fresh computation;
and trade values computed from the groups a trade touches equal a full revaluation."""

from __future__ import annotations

import random

import pytest

from parlor import monopoly
from parlor.bots import RandomBot
from parlor.bots.monopoly_builds import build_options, build_spots
from parlor.bots.monopoly_heuristic import MonopolyHeuristicBot
from parlor.bots.monopoly_table import Deeds, Table, board_for
from parlor.bots.monopoly_trading import completed_groups, offer_plan
from parlor.bots.monopoly_valuation import funds

FIELDS = ("cash", "bankrupt", "in_jail", "jail_cards", "position", "owner", "mortgaged")


def _states(edition: str, seed: int, every: int = 7):
    """Mid-game moments of a game of heuristic bots with one random seat."""
    game = monopoly.new_game(edition, 4, seed=seed)
    bots = [MonopolyHeuristicBot(seed * 4 + p) for p in range(3)] + [RandomBot(seed)]
    n = 0
    while not game.is_over and n < 1500:
        if n % every == 0:
            yield game
        p = game.pending.player  # type: ignore[union-attr]
        game.apply(bots[p].choose(game, p))
        n += 1


def _funds(table: Table, p: int, gi: int) -> int:
    """:func:`funds` by its definition: cash and the mortgage value of the lone lots (outside
    group ``gi``, unmortgaged, in unbuilt groups, not in a street group ``p`` owns whole)."""
    b = table.board
    lone = 0
    for s in table.owned(p):
        if table.mortgaged[s] or any(table.buildings[t] for t in b.group_of[s]):
            continue
        if b.group_index[s] == gi:
            continue
        if b.kind[s] == "street" and all(table.owner[t] == p for t in b.group_of[s]):
            continue
        lone += b.mortgage[s]
    return table.cash[p] + lone


def _assert_same_parts(bot: MonopolyHeuristicBot, mine: Table, seen: Table, p: int) -> None:
    """The per-player parts the heuristic reads are equal on both tables."""
    assert mine.danger(p) == seen.danger(p)
    assert build_spots(mine, p) == build_spots(seen, p)
    assert build_options(mine, p) == build_options(seen, p)
    assert mine.junk_lot(p) == seen.junk_lot(p)
    assert mine.offer_targets(p) == seen.offer_targets(p)
    assert mine.owned_by_price(p) == seen.owned_by_price(p)
    assert mine.lone_funds(p) == seen.lone_funds(p)
    assert offer_plan(bot, mine, p) == offer_plan(bot, seen, p)


@pytest.mark.parametrize("edition", monopoly.EDITION_IDS)
def test_state_tables_equal_view_tables_and_fresh_caches(edition: str) -> None:
    bot = MonopolyHeuristicBot(0)
    for game in _states(edition, seed=5):
        board = board_for(game)
        mine = Table.of(game)  # with deeds carried from earlier moments
        seen = Table(board, game.view(None))
        for name in (*FIELDS, "buildings", "bank_houses", "bank_hotels", "round"):
            assert getattr(mine, name) == getattr(seen, name), name
        for p in range(game.num_players):
            _assert_same_parts(bot, mine, seen, p)
            assert mine.worth(p) == seen.worth(p)
            for gi in (-1, *range(len(board.groups))):
                assert funds(mine, p, gi) == _funds(seen, p, gi)
            # The plan's deltas, summed group by group, are the trade's deltas to the bit.
            for other, rest, give, plain, _pays, done in offer_plan(bot, mine, p):
                assert plain == seen.trade_deltas(p, other, give, rest)
                assert done == completed_groups(seen, p, other, give, rest)
        for sq in board.properties:
            assert mine.group_built(sq) == seen.group_built(sq)
            assert mine.group_built(sq) == any(seen.buildings[s] for s in board.group_of[sq])
        assert mine.deeds.group_owner == seen.deeds.group_owner
        assert mine.deeds.owned == seen.deeds.owned
        assert mine.deeds.complete == seen.deeds.complete


def _full_change(table: Table, proposer: int, to: int, give: list[int], take: list[int]):
    after = table.copy()
    for sq in give:
        after.owner[sq] = to
    for sq in take:
        after.owner[sq] = proposer
    return (
        after.worth(proposer) - table.worth(proposer),
        after.worth(to) - table.worth(to),
    )


@pytest.mark.parametrize("edition", ["classic", "matador"])
def test_trade_deltas_equal_a_full_revaluation(edition: str) -> None:
    rng = random.Random(11)
    checked = 0
    for game in _states(edition, seed=2, every=11):
        table = Table.of(game).copy()
        for _ in range(5):
            proposer, to = rng.sample(range(game.num_players), 2)
            give = [s for s in table.owned(proposer) if rng.random() < 0.3]
            take = [s for s in table.owned(to) if rng.random() < 0.3]
            got = table.trade_deltas(proposer, to, give, take)
            want = _full_change(table, proposer, to, give, take)
            assert got == pytest.approx(want, abs=1e-9)
            checked += bool(give or take)
    assert checked > 50


def test_deeds_successor_keeps_only_unaffected_players() -> None:
    game = monopoly.new_game("classic", 4, seed=1)
    board = board_for(game)
    deeds = Deeds(board, game.owner, game.mortgaged, game.buildings, 4)
    build_spots(Table.from_game(board, game, deeds), 2)
    assert deeds._spots[2] == []
    owner = list(game.owner)
    owner[1] = 0  # a brown lot to seat 0: seats 0 and the bank are affected, seat 2 is not
    later = deeds.successor(owner, game.mortgaged, game.buildings)
    assert later._spots[2] == [] and later._spots[0] is None
    assert later.owned[0] == [1]


def _fresh(table: Table) -> Deeds:
    return Deeds(table.board, table.owner, table.mortgaged, table.buildings, len(table.cash))


@pytest.mark.parametrize("edition", ["classic", "matador"])
def test_deeds_followed_by_the_engines_count_equal_fresh_ones(edition: str) -> None:
    """At every decision the table follows the game by ``estate_revision`` and the squares of
    ``estate_changes`` (the lists are not compared): its deeds are those of the lists now."""
    game = monopoly.new_game(edition, 4, seed=3)
    bots = [MonopolyHeuristicBot(p) for p in range(4)]
    followed = 0
    for _ in range(1500):
        if game.is_over:
            break
        table = Table.of(game)
        fresh = _fresh(table)
        deeds = table.deeds
        assert (deeds.owner, deeds.mortgaged, deeds.buildings) == (
            game.owner,
            game.mortgaged,
            game.buildings,
        )
        assert deeds.group_owner == fresh.group_owner
        assert deeds.owned == fresh.owned and deeds.complete == fresh.complete
        assert deeds.rents() == fresh.rents() and deeds.built_groups() == fresh.built_groups()
        followed += table._revision == game.estate_revision
        p = game.decider
        game.apply(bots[p].choose(game, p))
    assert followed > 300


def test_deeds_advanced_in_place_keep_only_what_holds() -> None:
    """The table's deeds follow the game in place (``Deeds.advance_at``): at every decision, with
    every per-player part asked (so that a part kept when it should have been dropped would
    show), they equal deeds read afresh, and their version changes exactly when they do."""
    game = monopoly.new_game("classic", 4, seed=6)
    bots = [MonopolyHeuristicBot(p) for p in range(4)]
    bot = bots[0]
    first = Table.of(game).deeds
    versions = set()
    advanced = 0
    for _ in range(1200):
        if game.is_over:
            break
        mine = Table.of(game)
        seen = Table.from_game(mine.board, game)
        deeds = mine.deeds
        advanced += deeds is first and deeds.version not in versions
        versions.add(deeds.version)
        assert deeds.same(seen.owner, seen.mortgaged, seen.buildings)
        assert deeds.rents() == seen.deeds.rents()
        assert deeds.built_groups() == seen.deeds.built_groups()
        for p in range(4):
            _assert_same_parts(bot, mine, seen, p)
        assert (deeds.group_owner, deeds.owned, deeds.complete) == (
            seen.deeds.group_owner,
            seen.deeds.owned,
            seen.deeds.complete,
        )
        p = game.decider
        game.apply(bots[p].choose(game, p))
    assert advanced > 50


def test_a_changed_back_square_keeps_the_deeds_and_replaced_lists_are_read() -> None:
    game = monopoly.new_game("classic", 4, seed=4)
    bots = [MonopolyHeuristicBot(p) for p in range(4)]
    while sum(o >= 0 for o in game.owner) < 6:
        p = game.decider
        game.apply(bots[p].choose(game, p))
    table = Table.of(game)
    deeds = table.deeds
    sq = next(s for s in range(40) if game.owner[s] >= 0)
    # A square changed and changed back: named by the engine, the same in the lists.
    game.mortgaged[sq] = True
    game._estate_changed(sq)
    game.mortgaged[sq] = False
    game._estate_changed(sq)
    assert game.estate_changes(table._revision) == [sq, sq]
    assert Table.of(game).deeds is deeds
    # The state given anew (the lists replaced, as import_state does): read, not trusted.
    other = monopoly.new_game("classic", 4, seed=4)
    game.owner, game.mortgaged, game.buildings = other.owner, other.mortgaged, other.buildings
    assert Table.of(game).deeds.owned == [[], [], [], []]

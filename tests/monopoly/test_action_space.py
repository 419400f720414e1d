"""The arithmetic action space agrees with the rules' own checks, for every player and edition.

``legal_action_ids`` and ``legal_action_mask`` are computed from the state without building the
actions, and ``legal_actions`` hands out shared action objects; both come from one listing
(``action_ids.py``) whose legality tests are comparisons, not the checks that ``apply`` runs
(``_check`` raising typed errors). These properties hold them together: the ids are the sorted ids
of the listed actions (the game protocol's own definition, ``Game.legal_action_ids``), the mask
marks exactly those, every listed action passes ``is_legal``, and every action with an id that
passes ``is_legal`` is listed (CallTime excepted: accepted, never listed, S20).
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlor import monopoly as m
from parlor.bots import RandomBot
from parlor.core.errors import UnknownActionId
from parlor.core.game import Game
from parlor.monopoly.game import PropertyGame

OPTION_SETS = (
    {},
    {"variant": "short"},
    {"rent_claim": True, "free_parking_pot": True},
    {"unlimited_buildings": True},
    {"building_shortage_auction": False},
    {"variant": "time_limit", "time_limit_rounds": 40},
)


def listed_by_the_checks(g: PropertyGame, p: int) -> set[int]:
    """Ids of every action with an id that ``is_legal`` accepts (CallTime is never listed)."""
    out = set()
    for i in range(m.NUM_ACTIONS):
        try:
            action = g.action_from_id(i, p)
        except UnknownActionId:
            continue
        if not isinstance(action, m.CallTime) and g.is_legal(action):
            out.add(g.action_id(action))
    return out


def assert_agree(g: PropertyGame) -> None:
    for p in range(g.num_players):
        ids = g.legal_action_ids(p)
        actions = g.legal_actions(p)
        assert ids == Game.legal_action_ids(g, p)
        assert ids == sorted({g.action_id(a) for a in actions})
        mask = g.legal_action_mask(p)
        assert len(mask) == m.NUM_ACTIONS
        assert [i for i, legal in enumerate(mask) if legal] == ids
        for a in actions:
            assert g.is_legal(a), a
            assert g.action_from_id(g.action_id(a), p) == a
        assert set(ids) == listed_by_the_checks(g, p)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    edition=st.sampled_from(m.EDITION_IDS),
    players=st.integers(2, 5),
    seed=st.integers(0, 10**6),
    options=st.sampled_from(OPTION_SETS),
    stops=st.lists(st.integers(0, 500), min_size=1, max_size=3),
    stock=st.sampled_from([None, 0, 1, 2]),
)
def test_ids_mask_and_lists_agree_with_the_checks(
    edition: str,
    players: int,
    seed: int,
    options: dict[str, object],
    stops: list[int],
    stock: int | None,
) -> None:
    g = m.new_game(edition, players=players, seed=seed, options=options)
    bots = [RandomBot(seed + i, anytime_rate=0.4) for i in range(players)]
    step = 0
    for stop in sorted(stops):
        while step < stop and not g.is_over:
            p = g.pending.player  # type: ignore[union-attr]
            g.apply(bots[p].choose(g, p))
            step += 1
        if g.is_over:
            break
        assert_agree(g)
        if stock is not None:
            # A bank short of buildings and players short of cash: the listing's stock and cash
            # tests meet the checks' on states random play seldom reaches.
            probe = g.clone()
            probe.houses_left = min(probe.houses_left, stock)
            probe.hotels_left = min(probe.hotels_left, stock)
            rng = random.Random(seed)
            probe.cash = [c if rng.random() < 0.5 else c // 4 for c in probe.cash]
            assert_agree(probe)


def test_purchases_have_a_price_at_every_eighth_from_half_to_three_and_a_half() -> None:
    # The catalogue's purchases (S17: a trade of a deed for cash; the price is the players').
    g = m.new_game("classic", players=2, seed=4)
    bots = [RandomBot(4 + i, anytime_rate=0.4) for i in range(2)]
    while not any(o == 1 for o in g.owner):  # play until player 1 owns a deed
        p = g.pending.player  # type: ignore[union-attr]
        g.apply(bots[p].choose(g, p))
    sq = g.owner.index(1)
    price = g.edition.squares[sq].price
    g.cash[0] = 10 * price  # every price is affordable
    buys = {
        a.give_cash: i
        for i in g.legal_action_ids(0)
        if isinstance(a := g.action_from_id(i, 0), m.ProposeTrade) and a.take_squares == (sq,)
    }
    assert sorted(buys) == [price * e // 8 for e in range(4, 29)]
    assert len(set(buys.values())) == 25
    for cash, i in buys.items():
        offer = m.ProposeTrade(0, 1, take_squares=(sq,), give_cash=cash)
        assert g.action_id(offer) == i and g.is_legal(offer)
    # 1x, 1.5x and 2x keep their ids from before the finer prices were appended; the others
    # are the layout's last block.
    old = [buys[price], buys[price * 3 // 2], buys[price * 2]]
    assert old == sorted(old) and old[2] - old[0] == 2 and max(old) < 1466
    assert all(i >= 1466 for c, i in buys.items() if c not in (price, price * 3 // 2, price * 2))
    with pytest.raises(UnknownActionId):  # between two eighths: no id
        g.action_id(m.ProposeTrade(0, 1, take_squares=(sq,), give_cash=price + 1))
    g.cash[0] = price  # only the prices up to 1x remain
    assert sorted(c for c in buys if buys[c] in g.legal_action_ids(0)) == [
        c for c in sorted(buys) if c <= price
    ]


def test_only_levels_that_round_together_on_a_deed_make_a_listing_repeat() -> None:
    # The bundled editions' deeds price every level apart: their ids are sorted without a set.
    # The other squares (price 0) round every level to one unit, but are never listed.
    for edition in m.EDITION_IDS:
        assert not m.new_game(edition, players=2, seed=0)._space.repeats, edition
    # A coarse money unit rounds a cheap deed's levels together: one id for them, listed once.
    coarse = dataclasses.replace(m.load_edition("classic"), money_unit=100)
    g = m.new_game(coarse, players=3, seed=5)
    assert g._space.repeats
    bots = [RandomBot(5 + i, anytime_rate=0.4) for i in range(3)]
    for step in range(400):
        if g.is_over:
            break
        if step % 40 == 0:
            assert_agree(g)
            ids = g.legal_action_ids(g.pending.player)  # type: ignore[union-attr]
            assert len(ids) == len(set(ids))
        p = g.pending.player  # type: ignore[union-attr]
        g.apply(bots[p].choose(g, p))


def test_the_listing_memo_of_the_deeds_never_answers_for_another_estate() -> None:
    # The listing keeps the deeds with an owner (and whether their group is built) while the
    # owners and buildings it read stay the same, compared by value: a game listed along the way
    # lists what a copy without the memo lists, at every step, for every seat (a key missing
    # something the rows read would answer for a changed estate here).
    g = m.new_game("classic", players=4, seed=11)
    bots = [RandomBot(11 + i, anytime_rate=0.4) for i in range(4)]
    for _ in range(600):
        if g.is_over:
            break
        seats = [p for p in range(4) if not g.bankrupt[p]]
        listed = [g._anytime_ids(p) for p in seats]
        fresh = g.clone()
        assert fresh._deeds_memo is None  # (a copy starts without it: never shared)
        assert listed == [fresh._anytime_ids(p) for p in seats]
        p = g.pending.player  # type: ignore[union-attr]
        g.apply(bots[p].choose(g, p))
    assert g.estate_revision > 20 and not g.is_over

    def agree() -> None:
        seats = [p for p in range(4) if not g.bankrupt[p]]
        assert [g._anytime_ids(p) for p in seats] == [g.clone()._anytime_ids(p) for p in seats]

    # Lists changed by hand (the rule scenarios set deeds so, without an estate revision): a
    # deed given up, then a whole group to one seat, then houses on it (no deed of the group
    # can be traded or mortgaged then).
    sq = next(s for s in g.edition.property_squares if g.owner[s] >= 0)
    g.owner[sq] = -1
    agree()
    group = g.edition.groups[g.edition.squares[1].group]  # (the first street's)
    seat = next(p for p in range(4) if not g.bankrupt[p])
    for s in group:
        g.owner[s], g.mortgaged[s] = seat, False
    agree()
    for s in group:
        g.buildings[s] = 1
    agree()


def test_the_unsorted_ids_are_the_sorted_ones_as_a_set() -> None:
    # legal_id_list is legal_action_ids without the sort (or the set, where levels round
    # together): the same ids, as a new list each call, for every seat, along random games.
    coarse = dataclasses.replace(m.load_edition("classic"), money_unit=100)
    for edition in (*m.EDITION_IDS, coarse):
        g = m.new_game(edition, players=3, seed=7)
        bots = [RandomBot(7 + i, anytime_rate=0.4) for i in range(3)]
        unsorted = 0
        for _ in range(300):
            if g.is_over:
                break
            for p in range(3):
                ids = g.legal_id_list(p)
                assert sorted(set(ids)) == g.legal_action_ids(p)
                unsorted += ids != sorted(ids)
                ids.append(-1)  # (the caller's own list)
                assert -1 not in g.legal_id_list(p)
            p = g.pending.player  # type: ignore[union-attr]
            g.apply(bots[p].choose(g, p))
        assert unsorted > 0, edition

"""Property-based tests: random games with random legal and illegal actions, invariants each step."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlor import monopoly as m
from parlor.bots import RandomBot
from parlor.bots.registry import make_bot
from parlor.core.errors import ParlorError
from parlor.monopoly.frames import Auction, PlaceBuildingChoice
from parlor.monopoly.game import HOTEL, PropertyGame

from .kit import money_total

EDITIONS = ("classic", "matco", "latam", "matador")
OPTION_SETS = (
    {},
    {"variant": "short"},
    {"variant": "time_limit", "time_limit_rounds": 30},
    {"free_parking_pot": True, "double_salary_on_go": True},
    {"rent_claim": True},
    {"auctions": False, "unlimited_buildings": True},
)


def random_action(rng: random.Random, g: PropertyGame) -> m.Action:
    """Any action at all, mostly nonsense: wrong player, wrong square, absurd amounts."""
    n = g.num_players
    p = rng.randrange(-1, n + 1)
    sq = rng.randrange(-2, 42)
    amount = rng.choice([-5, 0, 1, 10, 99, 1000, 10**7])
    kind = rng.randrange(15)
    if kind == 0:
        return m.RollDice(p)
    if kind == 1:
        return m.EndTurn(p)
    if kind == 2:
        return m.BuyProperty(p)
    if kind == 3:
        return m.Bid(p, amount)
    if kind == 4:
        return m.Build(p, sq)
    if kind == 5:
        return m.SellBuilding(p, sq)
    if kind == 6:
        return m.Mortgage(p, sq)
    if kind == 7:
        return m.Unmortgage(p, sq)
    if kind == 8:
        return m.PayDebt(p)
    if kind == 9:
        return m.DeclareBankruptcy(p)
    if kind == 10:
        return m.PayJailFine(p)
    if kind == 11:
        return m.ProposeTrade(p, rng.randrange(-1, n + 1), give_squares=(sq,), take_cash=amount)
    if kind == 12:
        return m.AcceptTrade(p)
    if kind == 13:
        return m.WishBuildings(p, rng.randrange(-1, 6))
    return m.PlaceBuilding(p, sq)


def check_invariants(g: PropertyGame, total: int) -> None:
    assert money_total(g) == total, "money is conserved (bank flows accounted)"
    assert all(c >= 0 for c in g.cash), "no negative cash"
    assert g.pot >= 0
    ed = g.edition
    if not g.options.unlimited_buildings:
        houses = sum(b for b in g.buildings if b != HOTEL)
        hotels = sum(1 for b in g.buildings if b == HOTEL)
        # A scarce building is out of the bank's stock from its auction until it is placed.
        held = [
            f.item
            for f in g.frames
            if isinstance(f, PlaceBuildingChoice)
            or (isinstance(f, Auction) and f.item != "property")
        ]
        assert houses + held.count("house") + g.houses_left == ed.houses, "house stock"
        assert hotels + held.count("hotel") + g.hotels_left == ed.hotels, "hotel stock"
        assert g.houses_left >= 0 and g.hotels_left >= 0
    for sq in range(40):
        owner = g.owner[sq]
        if owner >= 0:
            assert ed.squares[sq].is_property and not g.bankrupt[owner], "one live owner"
        else:
            assert not g.mortgaged[sq] and not g.buildings[sq]
        if g.buildings[sq]:
            assert g.owns_group(owner, sq) and not any(g.mortgaged[s] for s in g.group_of(sq))
    held = [c for cards in g.jail_cards for c in cards]
    in_decks = [c for cards in g.decks.values() for c in cards]
    assert sorted(held + in_decks) == list(range(len(ed.cards))), "every card somewhere, once"


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    edition=st.sampled_from(EDITIONS),
    options=st.sampled_from(OPTION_SETS),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**31),
    kinds=st.lists(st.sampled_from(("random", "heuristic", "offering")), min_size=6, max_size=6),
)
def test_random_play_keeps_invariants_and_rejects_illegal_actions(
    edition: str, options: dict, players: int, seed: int, kinds: list[str]
) -> None:
    """Random bots try everything; the heuristic bots reach the late game (buildings, shortage
    auctions, trades) that random play rarely does."""
    g = m.new_game(edition, players=players, seed=seed, options=options)
    rng = random.Random(seed)
    bots = [
        RandomBot(seed + i, anytime_rate=0.2)
        if kinds[i] == "random"
        else make_bot("monopoly", kinds[i], seed + i)
        for i in range(players)
    ]
    total = money_total(g)
    check_invariants(g, total)
    for _ in range(600):
        if g.is_over:
            break
        for _ in range(2):
            bad = random_action(rng, g)
            if not g.is_legal(bad):
                before = g.snapshot()
                why = g.why_illegal(bad)  # the reason a page shows: apply's own words
                try:
                    g.apply(bad)
                except ParlorError as exc:
                    assert why == str(exc), (bad, why, exc)
                else:  # pragma: no cover - a failing test explains itself
                    raise AssertionError(f"{bad} was applied although is_legal said no")
                assert g.snapshot() == before, f"{bad} changed the state"
            else:
                assert g.why_illegal(bad) is None
        p = g.pending.player
        assert g.legal_actions(p), f"{g.pending} has no legal answer"
        action = bots[p].choose(g, p)
        assert g.is_legal(action) and g.why_illegal(action) is None
        g.apply(action)
        check_invariants(g, total)


def test_every_listed_action_is_legal_and_has_a_round_trip_id() -> None:
    for edition in EDITIONS:
        g = m.new_game(edition, players=4, seed=11)
        bot = RandomBot(5, anytime_rate=0.3)
        for _ in range(300):
            if g.is_over:
                break
            for p in range(4):
                mask = g.legal_action_mask(p)
                assert len(mask) == m.NUM_ACTIONS
                for a in g.legal_actions(p):
                    assert g.is_legal(a), a
                    aid = g.action_id(a)
                    assert mask[aid]
                    assert g.action_from_id(aid, p) == a
            g.apply(bot.choose(g, g.pending.player))

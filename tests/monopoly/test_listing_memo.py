"""Each seat's listing memo (``ActionIds._listing_memo``) never answers for another state.

The engine keeps a seat's last listing of legal ids with copies of everything the listing
read, and hands the same list out again while they compare equal: about half the
classic learner's listings follow a refused trade offer, which changes nothing the listing
reads. These tests hold the memo to the listing worked out afresh (a copy, which starts
without it) at every step of random games, through hand-made changes of each input it keys
on, and keep it out of copies and pickles.
"""

from __future__ import annotations

import pickle
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlor import monopoly as m
from parlor.bots import RandomBot
from parlor.monopoly.frames import Auction, ShortageSale
from parlor.monopoly.game import PropertyGame

from .kit import build, give, new


def listings(g: PropertyGame, p: int) -> tuple[list[int], list[int], list[m.Action], list[bool]]:
    return g.legal_id_list(p), g.legal_action_ids(p), g.legal_actions(p), g.legal_action_mask(p)


def assert_fresh(g: PropertyGame) -> None:
    """Every seat's listings (with the memo as it is) are a copy's, worked out afresh."""
    fresh = g.clone()
    assert fresh._listing_memo == [None] * g.num_players
    for p in range(g.num_players):
        assert listings(g, p) == listings(fresh, p), p
    assert g.legal_actions() == fresh.legal_actions()


def pokes(g: PropertyGame, rng: random.Random) -> list[tuple[object, object, object]]:
    """A few changes by hand to what the listing reads (as a rule scenario or an imported
    state makes them, without the engine's knowing): (list or game, key or name, new value)."""
    n = g.num_players
    p, sq = rng.randrange(n), rng.choice(g.edition.property_squares)
    owned = [s for s in g.edition.property_squares if g.owner[s] >= 0] or [sq]
    return [
        (g.cash, p, g.cash[p] // rng.choice((2, 4, 50)) + rng.choice((0, 1))),
        (g.cash, p, g.cash[p] + rng.choice((1, 100, 2000))),
        (g.owner, sq, rng.randrange(-1, n)),
        (g.mortgaged, rng.choice(owned), not g.mortgaged[rng.choice(owned)]),
        (g.buildings, rng.choice(owned), rng.randrange(0, 6)),
        (g.bankrupt, p, not g.bankrupt[p]),
        (g, "houses_left", rng.choice((0, 1, g.houses_left))),
        (g, "hotels_left", rng.choice((0, 1, g.hotels_left))),
        (g.jail_cards[p], slice(None), [] if g.jail_cards[p] else [rng.choice((0, 1))]),
        (g.claims, slice(None), [[rng.randrange(n), p, 10, sq, 0]]),
    ]


def poked(g: PropertyGame, rng: random.Random) -> None:
    """Each poke, then undone, with the listings compared to a copy's after both."""
    g.legal_id_list(0)  # (a memo to answer from)
    for target, key, value in pokes(g, rng):
        before = getattr(target, key) if isinstance(key, str) else target[key]  # type: ignore[index]
        for v in (value, before):
            if isinstance(key, str):
                setattr(target, key, v)
            else:
                target[key] = v  # type: ignore[index]
            if g.bankrupt[0] and all(g.bankrupt):  # (no seat left to list for: skip)
                continue
            assert_fresh(g)


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    edition=st.sampled_from(("classic", "matador", "latam")),
    players=st.integers(2, 5),
    seed=st.integers(0, 10**6),
    anytime_rate=st.sampled_from((0.1, 0.4, 0.8)),
    options=st.sampled_from(({}, {"rent_claim": True}, {"unlimited_buildings": True})),
)
def test_the_memo_lists_what_a_fresh_listing_lists_at_every_step(
    edition: str, players: int, seed: int, anytime_rate: float, options: dict[str, object]
) -> None:
    g = m.new_game(edition, players=players, seed=seed, options=options)
    bots = [RandomBot(seed + i, anytime_rate=anytime_rate) for i in range(players)]
    rng = random.Random(seed)
    last: list[list[int] | None] = [None] * players
    again = 0  # listings handed out again (the memo answering)
    next_poke = 50
    for step in range(400):
        if g.is_over:
            break
        assert_fresh(g)
        for p in range(players):
            ids = g._legal_id_list(p)
            again += ids is last[p]
            last[p] = ids
        if step >= next_poke and g.anytime_open:
            # (not while an offer awaits its answer: its acceptance takes the proposal's
            # verdict, ``_offer_checked``, which changes by hand would belie)
            poked(g, rng)
            last, next_poke = [None] * players, step + 97
        p = g.pending.player  # type: ignore[union-attr]
        g.apply(bots[p].choose(g, p))
    assert again > 0


def test_the_bank_s_hotels_and_a_shortage_sale_reach_the_memo() -> None:
    # Two inputs random play seldom moves while the rest stays: Ann may put hotels on the
    # purples (four houses each) and Bo houses on the dark blues, until the bank has no hotel
    # left, or a shortage sale (S14) runs above the turn (set by hand, as a rule scenario would).
    g = new()
    give(g, 0, 1, 3)
    give(g, 1, 37, 39)
    build(g, 1, 4)
    build(g, 3, 4)
    hotels = {g.action_id(m.Build(0, sq)) for sq in (1, 3)}
    houses = {g.action_id(m.Build(1, sq)) for sq in (37, 39)}
    assert hotels <= set(g.legal_id_list(0)) and houses <= set(g.legal_id_list(1))
    g.hotels_left = 0
    assert not hotels & set(g.legal_id_list(0))
    assert_fresh(g)
    g.hotels_left = 1
    assert hotels <= set(g.legal_id_list(0))
    sale = [ShortageSale("house", 37, [1, 0], [2, 2]), Auction("house", 37, [1, 0], min_bid=200)]
    g.frames += sale
    assert not houses & set(g.legal_id_list(1)) and not hotels & set(g.legal_id_list(0))
    assert_fresh(g)
    del g.frames[-2:]
    assert houses <= set(g.legal_id_list(1)) and hotels <= set(g.legal_id_list(0))
    assert_fresh(g)


def test_a_listing_handed_out_again_is_the_same_list_and_its_copies_are_new() -> None:
    # A refused trade offer changes nothing the listing reads: the proposer's listing after it
    # is the memo's list again (the engine's own, identity), the public queries new lists.
    g = m.new_game("classic", players=4, seed=5)
    bots = [RandomBot(5 + i, anytime_rate=0.0) for i in range(4)]
    while not any(g.legal_actions(p)[1:] for p in range(4) if p == g.pending.player):  # type: ignore[union-attr]
        p = g.pending.player  # type: ignore[union-attr]
        g.apply(bots[p].choose(g, p))
    p = g.pending.player  # type: ignore[union-attr]
    listed = g._legal_id_list(p)
    public, ordered = g.legal_id_list(p), g.legal_action_ids(p)
    offer = next(a for a in g.legal_actions(p) if isinstance(a, m.ProposeTrade))
    g.apply(offer)
    g.apply(m.RejectTrade(offer.to))
    assert g.pending.player == p  # type: ignore[union-attr]
    assert g._legal_id_list(p) is listed
    again, ordered_again = g.legal_id_list(p), g.legal_action_ids(p)
    assert again == public and again is not public and again is not listed
    assert ordered_again == ordered and ordered_again is not ordered
    again.append(-1)
    ordered_again.append(-1)
    assert -1 not in g._legal_id_list(p) and -1 not in g.legal_action_ids(p)


def test_copies_and_pickles_start_without_the_memos() -> None:
    g = m.new_game("matador", players=3, seed=2)
    bots = [RandomBot(2 + i, anytime_rate=0.4) for i in range(3)]
    for _ in range(200):
        p = g.pending.player  # type: ignore[union-attr]
        for q in range(3):
            g.legal_action_ids(q)
        g.apply(bots[p].choose(g, p))
    assert any(g._listing_memo) and g._deeds_memo is not None
    for copy in (g.clone(), pickle.loads(pickle.dumps(g)), g.determinize(0, 1)):
        assert copy._listing_memo == [None] * 3 and copy._deeds_memo is None
        assert [copy.legal_action_ids(q) for q in range(3)] == [
            g.legal_action_ids(q) for q in range(3)
        ]
    fields = g.__reduce__()[1][0]
    assert "_listing_memo" not in fields and "_deeds_memo" not in fields
    assert "_listing_memo" not in str(g.snapshot())

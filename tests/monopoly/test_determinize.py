"""``determinize`` of the property games: it keeps what is public and learns nothing hidden.

Millennium rules, Chance and Community Chest: "...follow the instructions and return the card
face down to the bottom of the deck" (classic.md S10). A drawn card was shown to everybody, so
where it lies is public; only the cards nobody has seen since the shuffle are unknown.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlor import monopoly
from parlor.bots.registry import make_bot
from parlor.monopoly.game import PropertyGame

EDITIONS = ("classic", "matco", "latam", "matador")


def played(edition: str, seed: int, steps: int) -> tuple[PropertyGame, dict[str, list[int]]]:
    """A game after ``steps`` heuristic decisions, and per deck the cards seen drawn, in order."""
    game = monopoly.new_game(edition, players=3, seed=seed)
    bots = [make_bot("monopoly", "heuristic", seed=seed * 7 + p) for p in range(3)]
    drawn: dict[str, list[int]] = {d: [] for d in game.decks}
    for _ in range(steps):
        pending = game.pending
        if pending is None:
            break
        for event in game.apply(bots[pending.player].choose(game, pending.player)):
            if event.kind == "card":
                drawn[event.data["deck"]].append(event.data["card"])
    return game, drawn


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    edition=st.sampled_from(EDITIONS),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 300),
    sample=st.integers(0, 2**32 - 1),
)
def test_a_drawn_card_stays_at_the_bottom_in_every_resample(
    edition: str, seed: int, steps: int, sample: int
) -> None:
    game, drawn = played(edition, seed, steps)
    copy = game.determinize(0, sample)
    assert copy.view(0) == game.view(0)
    for deck, cards in game.decks.items():
        assert sorted(copy.decks[deck]) == sorted(cards)
        known = len(cards) - game.unseen[deck]
        assert copy.decks[deck][len(cards) - known :] == cards[len(cards) - known :]
        # What lies under the unseen cards was drawn (and shown); the unseen were never drawn.
        assert set(cards[len(cards) - known :]) <= set(drawn[deck])
        assert not set(cards[: game.unseen[deck]]) & set(drawn[deck])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    edition=st.sampled_from(EDITIONS),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 300),
    twin_seed=st.integers(0, 2**32 - 1),
)
def test_a_resample_depends_only_on_what_is_public(
    edition: str, seed: int, steps: int, twin_seed: int
) -> None:
    """Two games nobody can tell apart (the same view, the unseen cards in another order) give
    the same resample for every seed, so choosing seeds tells nothing of the true order."""
    game, _ = played(edition, seed, steps)
    twin = game.determinize(1, twin_seed)
    assert twin.view(None) == game.view(None)
    for sample in (0, 5, 2**40 + 1):
        assert twin.determinize(0, sample).snapshot() == game.determinize(0, sample).snapshot()


def test_resamples_vary_where_something_is_unseen_and_reseed_the_dice() -> None:
    game, _ = played("classic", 2, 250)
    for deck in game.decks:
        orders = {tuple(game.determinize(0, s).decks[deck]) for s in range(40)}
        if game.unseen[deck] < 2:
            assert len(orders) == 1  # the whole order is known
        else:
            assert len(orders) > 1
    assert game.determinize(0, 12345).rng.getstate() != game.rng.getstate()  # future dice

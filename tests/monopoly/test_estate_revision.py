"""The estate's count of changes (``estate_revision``, ``estate_changes``): it rises at every
change of an owner, a mortgage or a building the rules make, names the squares changed, and is
kept by clones, pickles and replayed saves, without entering the state or its snapshot."""

from __future__ import annotations

import pickle
import random

import pytest

from parlor import monopoly
from parlor.bots import RandomBot
from parlor.bots.monopoly_heuristic import MonopolyHeuristicBot
from parlor.monopoly.table import ESTATE_RECENT

Estate = tuple[list[int], list[bool], list[int]]


def _estate(game: monopoly.PropertyGame) -> Estate:
    return list(game.owner), list(game.mortgaged), list(game.buildings)


def _differing(before: Estate, after: Estate) -> set[int]:
    return {
        sq for sq in range(40) if any(b[sq] != a[sq] for b, a in zip(before, after, strict=True))
    }


@pytest.mark.parametrize("edition", monopoly.EDITION_IDS)
@pytest.mark.parametrize("seed", [0, 1])
def test_every_change_is_counted_and_named(edition: str, seed: int) -> None:
    game = monopoly.new_game(edition, 4, seed=seed, options={"starting_deeds": 1})
    # (the deeds dealt at setup are changes too)
    assert game.estate_revision == 4
    assert sorted(game.estate_changes(0) or []) == sorted(
        sq for sq in range(40) if game.owner[sq] >= 0
    )
    bots = [MonopolyHeuristicBot(seed * 4 + p) for p in range(3)] + [RandomBot(seed)]
    history = [(game.estate_revision, _estate(game))]
    changes = 0
    for _ in range(3000):
        if game.is_over:
            break
        p = game.decider
        game.apply(bots[p].choose(game, p))
        now = _estate(game)
        revision = game.estate_revision
        # Against each of the last few moments: the squares that differ are among those named,
        # one name per change counted, and whatever the game no longer knows is None.
        for then, estate in history[-12:]:
            named = game.estate_changes(then)
            assert revision >= then
            if revision - then > ESTATE_RECENT:
                assert named is None
                continue
            assert named is not None and len(named) == revision - then
            assert _differing(estate, now) <= set(named)
            if not named:
                assert estate == now
        changes += revision > history[-1][0]
        history.append((revision, now))
    assert changes > 20
    assert game.estate_changes(-1) is None
    assert game.estate_changes(game.estate_revision + 1) is None
    assert game.estate_changes(game.estate_revision) == []


def test_copies_and_saves_keep_the_count_but_not_the_snapshot() -> None:
    game = monopoly.new_game("classic", 4, seed=7)
    bots = [MonopolyHeuristicBot(p) for p in range(4)]
    rng = random.Random(7)
    while game.estate_revision < 30:
        p = game.decider
        game.apply(bots[p].choose(game, p))
    revision = game.estate_revision
    recent = game.estate_changes(revision - 5)
    snapshot = game.snapshot()
    assert "estate_revision" not in repr(snapshot)
    for copy in (game.clone(), pickle.loads(pickle.dumps(game)), game.determinize(0, 3)):
        assert copy.estate_revision == revision
        assert copy.estate_changes(revision - 5) == recent
    replayed = monopoly.PropertyGame.from_dict(game.to_dict())
    assert replayed.estate_revision == revision
    assert replayed.estate_changes(revision - 5) == recent
    assert replayed.snapshot() == snapshot
    # A copy counts on its own: the original's changes stay as they were.
    copy = game.clone()
    while copy.estate_revision < revision + ESTATE_RECENT:
        p = copy.decider
        copy.apply(rng.choice(copy.legal_actions(p)))
    assert game.estate_revision == revision
    assert game.estate_changes(revision - 5) == recent

"""The engine's shortcuts answer as the general paths do (issue 22, the engine's speed).

``pending`` hands out one shared, read-only decision per seat for a turn's plain decisions
(start, roll again, end); ``decider`` answers ``pending.player`` without building it;
``is_legal`` and ``apply`` read the game's fields directly instead of through ``Game``'s
properties. Played over seeded games of random legal actions, each is compared with what the
protocol's general definitions give.
"""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest

from parlor import monopoly
from parlor.core.errors import ParlorError
from parlor.core.game import Decision, Game
from parlor.monopoly.actions import RollDice


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_decider_pending_and_is_legal_agree_with_the_protocol(seed: int) -> None:
    game = monopoly.new_game("classic", 3, seed=seed)
    rng = random.Random(seed)
    for _ in range(400):
        if game.is_over:
            break
        pending = game.pending
        assert pending is not None
        assert game.decider == pending.player == Game.decider.fget(game)  # type: ignore[attr-defined]
        # A fresh decision with the same fields equals the one handed out (shared or not).
        assert pending == Decision(pending.player, pending.kind, dict(pending.info))
        legal = game.legal_actions(pending.player)
        for action in legal[:6]:
            assert game.is_legal(action) and Game.is_legal(game, action)
        wrong = RollDice((pending.player + 1) % 3)
        assert game.is_legal(wrong) is Game.is_legal(game, wrong) is False
        game.apply(rng.choice(legal))


def test_shared_decisions_cannot_be_changed_and_travel_like_others() -> None:
    game = monopoly.new_game("classic", 2, seed=4)
    first = game.pending
    assert first is not None and first.kind == "start_turn"
    assert game.pending is first  # (shared: the same object twice)
    with pytest.raises(TypeError):
        first.info["square"] = 1  # type: ignore[index]
    with pytest.raises(TypeError):
        first.info.update(square=1)  # type: ignore[attr-defined]
    assert first.info == {} and json.dumps(first.info) == "{}"
    assert pickle.loads(pickle.dumps(first)) == first == copy.deepcopy(first)
    assert repr(first) == f"Decision(player={first.player}, kind='start_turn', info={{}})"


def test_an_illegal_action_changes_nothing_on_the_fast_apply() -> None:
    game = monopoly.new_game("classic", 2, seed=5)
    before = game.snapshot()
    p = game.decider
    assert p is not None
    with pytest.raises(ParlorError):
        game.apply(RollDice(1 - p))  # not his decision
    with pytest.raises(ParlorError):
        game.apply("RollDice")  # not an action
    assert game.snapshot() == before and game.log == []
    game.apply(RollDice(p))
    assert len(game.log) == 1

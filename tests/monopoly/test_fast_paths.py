"""The engine's shortcuts answer as the general paths do (issue 22, the engine's speed).

``pending`` hands out one shared, read-only decision per seat for a turn's plain decisions
(start, roll again, end), and the decision it built for another frame again while that frame
and the log's length hold; ``decider`` answers ``pending.player`` without building it;
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


@pytest.mark.parametrize("seed", [3, 4])
def test_a_decision_handed_out_again_is_the_one_the_state_gives(seed: int) -> None:
    # ``pending`` hands out the decision it built for a frame other than the turn again while
    # the frame and the log's length hold: at every step, before and after any-time actions
    # (which keep the frame), it equals what a copy (with nothing remembered) builds afresh.
    game = monopoly.new_game("classic", 3, seed=seed)
    rng = random.Random(seed)
    memoised = 0
    for _ in range(1500):
        if game.is_over:
            break
        first = game.pending
        assert first is not None
        fresh = game.clone().pending
        assert fresh is not None and (first.player, first.kind) == (fresh.player, fresh.kind)
        assert dict(first.info) == dict(fresh.info)
        if first.kind not in ("start_turn", "roll_again", "end_turn", "jail"):
            assert game.pending is first
            memoised += 1
        legal = game.legal_actions(None)
        game.apply(rng.choice(legal))
    assert memoised > 20


def test_a_state_given_back_to_the_same_game_gives_its_own_decision() -> None:
    from parlor.core.state import export_state, import_state

    game = monopoly.new_game("classic", 2, seed=6)
    rng = random.Random(6)
    saved = None
    while not game.is_over and len(game.log) < 2000:
        pending = game.pending
        assert pending is not None
        if saved is None and pending.kind == "buy_or_auction":
            saved = (export_state(game), list(game.log), pending)
        elif saved is not None and pending.kind not in ("start_turn", "end_turn", "roll_again"):
            break
        game.apply(rng.choice(game.legal_actions(pending.player, anytime=False)))
    assert saved is not None and game.pending != saved[2]
    state, log, before = saved
    import_state(type(game), game.settings, game.seed, state, log, into=game)
    assert game.pending == before


def test_a_game_keeps_every_field_in_its_slots() -> None:
    # A field outside ``Table.__slots__`` would go to the game's dictionary, and with many there
    # plain Python finds the fields and methods of each new game object the slow way again.
    game = monopoly.new_game("classic", 3, seed=8)
    rng = random.Random(8)
    for _ in range(300):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions(None)))
    for copy_ in (game, game.clone(), pickle.loads(pickle.dumps(game)), game.determinize(0, 1)):
        assert not getattr(copy_, "__dict__", {})

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
from parlor.core.errors import MalformedAction, ParlorError
from parlor.core.game import Decision, Game
from parlor.core.validate import checker
from parlor.monopoly.actions import ProposeTrade, RollDice
from parlor.monopoly.frames import TradeOffer
from parlor.monopoly.id_space import _FINE_BUY_BASE, _TRADE_BUY_BASE, _WISH_BASE, NUM_ACTIONS


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


@pytest.mark.parametrize("seed", [5, 6])
def test_legal_answers_are_the_answers_listed(seed: int) -> None:
    # ``legal_answers(p)`` is ``legal_actions(p, anytime=False)`` for every seat and for None;
    # a trade offer's answers are one tuple per seat and verdict, handed out again.
    game = monopoly.new_game("classic", 3, seed=seed)
    rng = random.Random(seed)
    offers = 0
    for _ in range(1500):
        if game.is_over:
            break
        for p in (None, 0, 1, 2):
            answers = game.legal_answers(p)
            assert list(answers) == game.legal_actions(p, anytime=False)
        top = game.frames[-1]
        if isinstance(top, TradeOffer):
            offers += 1
            answers = game.legal_answers(top.to)
            assert type(answers) is tuple and game.legal_answers(top.to) is answers
        legal = game.legal_actions(None)
        # (trade offers half the time: most any-time actions are offers)
        game.apply(rng.choice(legal))
    assert offers > 20
    for bad in (-1, 3, "1", True, 1.0):
        with pytest.raises(MalformedAction):
            game.legal_answers(bad)


def test_the_id_spaces_offers_skip_the_field_check_only_where_they_fit() -> None:
    # ``apply`` passes a trade offer the id space made for this many players without reading its
    # fields again; any other offer, and one made for more players, is checked as before.
    four, two = monopoly.new_game("classic", 4, seed=1), monopoly.new_game("classic", 2, seed=1)
    offer = four.action_from_id(next(iter(_trade_ids(four, 3))), 3)
    assert isinstance(offer, ProposeTrade) and offer.player == 3
    with pytest.raises(MalformedAction):
        two.apply(offer)  # (seat 3 in a game of two)
    check, full = four._field_checks[ProposeTrade], checker(ProposeTrade).first_bad
    assert check is not full
    for p in range(4):
        for i in _trade_ids(four, p):
            action = four.action_from_id(i, p)
            assert check(action, 4) == full(action, 4) == -1
    twin = ProposeTrade(*offer.field_values()[:2], list(offer.give_squares))
    assert check(twin, 4) == full(twin, 4) == 2  # (a list of squares: not a tuple)
    with pytest.raises(MalformedAction):
        four.apply(twin)
    assert {k: v for k, v in four._field_checks.items() if k is not ProposeTrade} == {
        k: checker(k).first_bad for k in four.action_types.values() if k is not ProposeTrade
    }


def _trade_ids(game: monopoly.PropertyGame, p: int) -> list[int]:
    """Some ids of seat ``p``'s catalogue trades (selling, buying, the finer purchases), with
    deeds dealt to every seat first."""
    for sq in (1, 6, 11, 16):
        game.owner[sq] = sq % 4
    trade_ids = [*range(_TRADE_BUY_BASE, _WISH_BASE), *range(_FINE_BUY_BASE, NUM_ACTIONS)]
    return trade_ids[::37]

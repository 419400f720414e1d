"""``hand_log(player)``: what entered and left a hand, card by card, checked against a full count of
the hand at every move of many seeded games (2-4 players, every rule option), and started anew
whenever the hands change outside play (a copy, a pickle, a determinized sample, a restored
state)."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from parlor import tools
from parlor.core.errors import MalformedAction, ParlorError
from parlor.core.state import export_state, import_state
from parlor.tools import ToolsGame, ToolsOptions

#: Every rule option away from its default, one at a time, and a few together.
VARIANTS: list[dict[str, Any]] = [
    {},
    *[{name: not value} for name, value in ToolsOptions().to_dict().items() if type(value) is bool],
    {"hand_size": 3},
    {"max_turns": 40},
    {"may_draw_when_able": True, "box_stacking": False, "two_player_reverse_skips": True},
    {"ask_after_every_draw": True, "penalty_hammers_can_win": True, "hand_size": 12},
]


def replayed(start: list[int], log: list[int]) -> list[int]:
    """The hand ``start`` after the log's entries (``k`` entered, ``~k`` left)."""
    hand = list(start)
    for k in log:
        if k < 0:
            hand[~k] -= 1
        else:
            hand[k] += 1
    return hand


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(o) or "defaults")
def test_the_log_replays_to_every_hand_at_every_move(options: dict[str, Any]) -> None:
    rng = random.Random(21)
    moves = entries = refused = 0
    for seed in range(40):
        players = 2 + seed % 3
        game = tools.new_game(players, seed=seed, options=options)
        logs = [game.hand_log(p) for p in range(players)]
        starts = [game.hand_counts(p) for p in range(players)]
        while not game.is_over and moves < 40_000:
            p = game.current
            if rng.random() < 0.1:  # a refused action changes no hand and logs nothing
                q = rng.randrange(players)
                try:
                    game.apply(tools.PlayCard(q, rng.choice(game.deck.codes)))
                except ParlorError:
                    refused += 1
            else:
                game.apply(rng.choice(game.legal_actions(p)))
                moves += 1
            for q in range(players):
                assert game.hand_log(q) is logs[q]  # (only appended to while the game plays)
                assert replayed(starts[q], logs[q]) == game.hand_counts(q), (seed, moves, q)
        entries += sum(len(log) for log in logs)
        for q in range(players):  # (each entry is a card of that hand: no other seat's)
            assert all(-game.deck.num_kinds <= k < game.deck.num_kinds for k in logs[q])
    assert moves > 1000 and entries > moves and refused > 50


def test_a_new_log_whenever_the_hands_change_outside_play() -> None:
    game = tools.new_game(3, seed=5)
    rng = random.Random(5)
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions(game.current)))
    log = game.hand_log(1)
    for _ in range(10):
        game.apply(rng.choice(game.legal_actions(game.current)))
    assert log and game.hand_log(1) is log
    copies: list[ToolsGame] = [
        game.clone(),
        pickle.loads(pickle.dumps(game)),
        game.determinize(0, seed=3),
        import_state(ToolsGame, game.settings, game.seed, export_state(game), game.log),
    ]
    for copy in copies:
        fresh = copy.hand_log(1)
        assert fresh == [] and fresh is not log
    # A state given to this very game: its hands are replaced, so its logs start again.
    other = game.clone()
    other.apply(other.legal_actions(other.current)[0])
    import_state(ToolsGame, other.settings, other.seed, export_state(other), other.log, into=game)
    assert game.hand_log(1) == [] and game.hand_log(1) is not log


@pytest.mark.parametrize("seat", [-1, 3, "0", None, True, 1.0])
def test_the_log_names_a_seat(seat: object) -> None:
    with pytest.raises(MalformedAction):
        tools.new_game(3, seed=0).hand_log(seat)

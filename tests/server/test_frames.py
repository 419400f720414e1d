"""The shortcuts the hot path takes give exactly what the plain way gives: encoded actions and
JSON text of frames."""

from __future__ import annotations

import json
import random

import pytest

from parlor.core.game import action_to_dict
from parlor.server import games
from parlor.server.protocol import dumps


@pytest.mark.parametrize("family", ["monopoly", "tools"])
def test_encoded_actions_are_the_engines_json_form(family: str) -> None:
    rng = random.Random(5)
    game = games.new_game(family, None, ["A", "B", "C"], 11, {})
    seen: set[str] = set()
    for _ in range(400):
        if game.is_over or game.pending is None:
            break
        seat = game.pending.player
        legal = game.legal_actions(seat, anytime=True)
        for action in legal:
            encoded = games.encode_action(action)
            assert encoded == action_to_dict(action)
            assert games.decode_action(game, encoded) == action
            seen.add(encoded["type"])
        game.apply(rng.choice(game.legal_actions(seat, anytime=False) or legal))
    assert len(seen) >= 3  # several action classes went through the cache


def test_frames_with_integer_keys_are_still_json() -> None:
    frame = {"type": "update", "view": {"hands": {0: [1, 2], 1: []}}, "text": "ñ"}
    assert json.loads(dumps(frame)) == {
        "type": "update",
        "view": {"hands": {"0": [1, 2], "1": []}},
        "text": "ñ",
    }
    assert dumps({"a": [1, None, True]}) == json.dumps(
        {"a": [1, None, True]}, separators=(",", ":")
    )


@pytest.mark.parametrize(
    ("family", "edition"), [("monopoly", "classic"), ("monopoly", "matador"), ("tools", None)]
)
def test_views_together_are_each_seats_own_view(family: str, edition: str | None) -> None:
    """``views`` (what ``publish`` asks for) gives every seat exactly its ``view``: the same
    JSON, in the same key order, at every step of a game, spectators included."""
    rng = random.Random(3)
    game = games.new_game(family, edition, ["A", "B", "C", "D"], 17, {})
    seats: list[int | None] = [2, None, 0, 3, 1]
    for _ in range(300):
        together = game.views(seats)
        assert [dumps(v) for v in together] == [dumps(game.view(s)) for s in seats]
        if game.is_over or game.pending is None:
            break
        seat = game.pending.player
        game.apply(rng.choice(game.legal_actions(seat, anytime=False) or game.legal_actions(seat)))
    assert game.views([]) == []

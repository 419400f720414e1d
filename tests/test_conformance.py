"""One conformance suite for every game and edition, through the shared protocol only.

Random legal play to the end; random illegal actions rejected with a typed error and no change;
masks and ids consistent with the legal actions; views unchanged when what the viewer cannot see is
resampled; JSON replay identical; clones independent. Golden replays (tests/golden/) pin the rules:
a change that alters any recorded game shows up here.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from parlor import monopoly, tools
from parlor.bots import RandomBot
from parlor.core.errors import ParlorError
from parlor.core.game import Game

GOLDEN = Path(__file__).parent / "golden"

Factory = Callable[[int], Game[Any]]
GAMES: dict[str, Factory] = {
    **{
        f"{ed}-{n}p": (lambda seed, ed=ed, n=n: monopoly.new_game(ed, players=n, seed=seed))
        for ed in monopoly.EDITION_IDS
        for n in (2, 4)
    },
    "classic-short": lambda seed: monopoly.new_game(
        "classic", players=3, seed=seed, options={"variant": "short"}
    ),
    "matador-quick": lambda seed: monopoly.new_game(
        "matador", players=3, seed=seed, options={"variant": "quick", "time_limit_rounds": 40}
    ),
    **{f"tools-{n}p": (lambda seed, n=n: tools.new_game(players=n, seed=seed)) for n in (2, 4, 10)},
}
GAME_CLASSES = {"monopoly": monopoly.PropertyGame, "tools": tools.ToolsGame}


def with_player(action: Any, player: int) -> Any:
    return dataclasses.replace(action, player=player)


def assert_rejected(game: Game[Any], action: Any) -> None:
    before = game.snapshot()
    with pytest.raises(ParlorError):
        game.apply(action)
    assert game.snapshot() == before, f"rejected {action} changed the state"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_conformance(name: str) -> None:
    for seed in range(3):
        game = GAMES[name](seed)
        rng = random.Random(seed)
        bots = [RandomBot(seed * 31 + p) for p in range(game.num_players)]
        steps = 0
        while not game.is_over and steps < 2000:
            decision = game.pending
            assert decision is not None
            p = decision.player
            assert game.legal_actions(p), f"{decision} has no legal answer"
            if steps % 7 == 0:
                check_masks_and_ids(game, p)
                check_illegal_rejected(game, rng)
            if steps % 50 == 0:
                check_views(game, seed + steps)
            action = bots[p].choose(game, p)
            assert game.is_legal(action)
            game.apply(action)
            steps += 1
        if game.is_over:
            outcome = game.outcome
            assert outcome is not None and game.pending is None
            assert set(outcome.winners) <= set(range(game.num_players))
            assert sorted(outcome.ranking) == list(range(game.num_players))
        replayed = type(game).from_json(game.to_json())
        assert replayed.snapshot() == game.snapshot()
        twin = game.clone()
        assert twin.snapshot() == game.snapshot()


def check_masks_and_ids(game: Game[Any], player: int) -> None:
    mask = game.legal_action_mask(player)
    assert len(mask) == game.num_actions
    legal_ids = set()
    for action in game.legal_actions(player):
        assert game.is_legal(action)
        aid = game.action_id(action)
        assert mask[aid]
        legal_ids.add(aid)
        assert game.action_from_id(aid, player) == action
    assert {i for i, ok in enumerate(mask) if ok} == legal_ids


def check_illegal_rejected(game: Game[Any], rng: random.Random) -> None:
    n = game.num_players
    decider = game.pending.player  # type: ignore[union-attr]
    for action in game.legal_actions(decider, anytime=False)[:3]:
        other = rng.choice([q for q in range(n) if q != decider])
        wrong = with_player(action, other)
        if not game.is_legal(wrong):
            assert_rejected(game, wrong)
    for _ in range(3):
        player = rng.randrange(n)
        try:
            action = game.action_from_id(rng.randrange(game.num_actions), player)
        except ParlorError:
            continue
        if not game.is_legal(action):
            assert_rejected(game, action)
    assert_rejected(game, object())


def check_views(game: Game[Any], seed: int) -> None:
    for p in range(game.num_players):
        view = game.view(p)
        json.dumps(view)
        # What p sees must not depend on what p cannot see: resample the hidden part and compare.
        other_world = game.determinize(p, seed)  # type: ignore[attr-defined]
        assert other_world.view(p) == view


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json")), ids=lambda p: p.stem)
def test_golden_replays(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    game = GAME_CLASSES[data["game"]].from_dict(data)  # checks the snapshot too
    assert game.to_dict()["snapshot"] == json.loads(json.dumps(data["snapshot"]))

"""The shipped property-game agent plays without torch and beats random play on fresh games."""

from __future__ import annotations

import json
import sys

import pytest

from parlor.rl.policy import MODELS, RandomPolicy, evaluate, load_baseline

FRESH_SEEDS = 3_000_000  # neither training (0, 1...) nor the documented evaluation (1000000...)
GAMES = 20
AGENT_AT_LEAST = 0.5  # the target of issue 12 (an even share is 25%)


def test_the_shipped_classic_agent_beats_random_play_without_torch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # any import of torch would fail
    policy = load_baseline("classic-4p")
    shipped = json.loads((MODELS / "classic-4p.json").read_text())
    assert policy.meta["env"] == shipped["eval_env"]
    # A lower cap than the documented evaluation's, so that the test stays fast.
    kwargs = {**policy.meta["env"], "max_steps": 3000}
    agent = evaluate(policy, kwargs, games=GAMES, seed_base=FRESH_SEEDS)
    random_play = evaluate(RandomPolicy(0), kwargs, games=GAMES, seed_base=FRESH_SEEDS)
    assert agent["first"] > random_play["first"]
    assert agent["win_rate"] >= AGENT_AT_LEAST

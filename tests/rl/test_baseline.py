"""The shipped agents play without torch and beat random play in the same mask on fresh games,
counted as issue 21 asks: outright wins apart from leads at a cap."""

from __future__ import annotations

import json
import sys

import pytest

from parlor.monopoly.id_space import NUM_ACTIONS
from parlor.rl.policy import MODELS, RandomPolicy, evaluate, load_baseline

FRESH_SEEDS = 3_000_000  # neither training (0, 1...) nor the documented evaluation (1000000...)


@pytest.fixture(autouse=True)
def _no_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # any import of torch would fail


def test_the_shipped_classic_agent_wins_outright_against_random_bots_and_heuristics() -> None:
    policy = load_baseline("classic-4p")
    shipped = json.loads((MODELS / "classic-4p.json").read_text())
    assert policy.meta["env"] == shipped["eval_env"]
    assert policy.meta.get("no_repeat")  # the full mask: it must not repeat a rejected offer
    # Trained on today's layout, finer purchase prices included (not padded from an older one).
    assert policy.layers[-1][0].shape[0] == NUM_ACTIONS
    # Round caps far below the documented evaluation's 2,000, so that the test stays fast.
    kwargs = {**policy.meta["env"], "opponents": "random", "max_steps": 10**9}
    agent = evaluate(policy, kwargs, games=4, seed_base=FRESH_SEEDS, max_rounds=80)
    # Within 80 rounds the agent bankrupts all three random bots in most games. (Random choices
    # in the same mask now do so often too: the random bots overpay in their own offers.)
    assert agent["wins"] >= 3
    # Against heuristics (1000 games: 31.9% ranked first, docs/rl-baseline.md) it wins some of
    # 12 games; random choices in the same mask give their deeds away and win none.
    kwargs["opponents"] = "heuristic"
    agent = evaluate(policy, kwargs, games=12, seed_base=FRESH_SEEDS, max_rounds=200)
    random_play = evaluate(RandomPolicy(0), kwargs, games=12, seed_base=FRESH_SEEDS, max_rounds=200)
    assert agent["wins"] >= 3
    assert agent["wins"] > random_play["wins"] + 2


def test_the_shipped_tools_agent_beats_random_play_against_the_heuristic() -> None:
    policy = load_baseline("tools-2p")
    shipped = json.loads((MODELS / "tools-2p.json").read_text())
    assert policy.meta["env"] == shipped["eval_env"]
    assert policy.meta["env"]["opponents"] == "heuristic"
    agent = evaluate(policy, policy.meta["env"], games=80, seed_base=FRESH_SEEDS)
    random_play = evaluate(RandomPolicy(0), policy.meta["env"], games=80, seed_base=FRESH_SEEDS)
    assert agent["truncated"] == random_play["truncated"] == 0  # TOOLS games end
    # The documented rates: 50.0% against 23.2% on 2000 games.
    assert agent["wins"] > random_play["wins"] + 80 // 10

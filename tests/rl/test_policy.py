"""Exported policies play without torch: the NumPy MLP, its file format, and the evaluation."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from parlor.rl.policy import MlpPolicy, RandomPolicy, evaluate
from parlor.stats import wilson


def test_mlp_policy_round_trips_and_picks_the_best_legal_id(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    layers = [
        (rng.normal(size=(8, 5)).astype(np.float32), rng.normal(size=8).astype(np.float32)),
        (rng.normal(size=(6, 8)).astype(np.float32), rng.normal(size=6).astype(np.float32)),
    ]
    policy = MlpPolicy(layers, "tanh", {"env": {"game": "tools"}})
    x = rng.normal(size=5).astype(np.float32)
    expected = layers[1][0] @ np.tanh(layers[0][0] @ x + layers[0][1]) + layers[1][1]
    assert np.allclose(policy.logits(x), expected)
    best = int(np.argmax(expected))
    mask = np.ones(6, dtype=bool)
    assert policy(x, mask) == best
    mask[best] = False  # the most likely id is illegal: the next one among the legal ids
    assert policy(x, mask) == int(np.argmax(np.where(mask, expected, -np.inf)))
    policy.save(tmp_path / "p.npz")
    loaded = MlpPolicy.load(tmp_path / "p.npz")
    assert loaded.meta == {"env": {"game": "tools"}} and loaded.activation == "tanh"
    assert np.array_equal(loaded.logits(x), policy.logits(x))
    with pytest.raises(ValueError, match="activation"):
        MlpPolicy(layers, "sigmoid")


def test_evaluate_counts_every_game_and_reproduces(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # evaluation never needs torch
    kwargs = {"game": "tools", "players": 2, "opponents": "random"}
    first = evaluate(RandomPolicy(3), kwargs, games=40, seed_base=500)
    assert first == evaluate(RandomPolicy(3), kwargs, games=40, seed_base=500)
    assert first["games"] == 40 and first["truncated"] == first["first_at_cap"] == 0
    assert first["first"] == first["wins"] and 0 < first["wins"] < 40
    assert first["ci95"] == list(wilson(first["wins"], 40))


def test_evaluation_split_over_processes_counts_the_same_games() -> None:
    rng = np.random.default_rng(1)
    policy = MlpPolicy(
        [
            (rng.normal(size=(16, 127)).astype(np.float32), np.zeros(16, np.float32)),
            (rng.normal(size=(52, 16)).astype(np.float32), np.zeros(52, np.float32)),
        ]
    )
    kwargs = {"game": "tools", "players": 2}
    assert evaluate(policy, kwargs, games=15, jobs=2) == evaluate(policy, kwargs, games=15)


def test_no_repeat_never_chooses_twice_in_a_state_it_has_met() -> None:
    """A rejected offer leaves the state as it was; a greedy policy would offer it for ever."""
    layers = [(np.diag([3.0, 2.0, 1.0]).astype(np.float32), np.zeros(3, np.float32))]
    x = np.ones(3, np.float32)
    mask = np.array([True, True, True])
    plain = MlpPolicy(layers, "relu")
    assert [plain(x, mask) for _ in range(3)] == [0, 0, 0]
    guarded = MlpPolicy(layers, "relu", {"no_repeat": True})
    # The same state: the next most likely legal id each time, and after all of them the best.
    assert [guarded(x, mask) for _ in range(4)] == [0, 1, 2, 0]
    assert guarded(2 * x, mask) == 0  # another state: its own memory
    guarded.reset()  # a new game forgets every state
    assert guarded(x, mask) == 0
    assert guarded(x, np.array([False, True, True])) == 1  # another mask is another state


def test_a_policy_with_fewer_outputs_than_the_mask_keeps_to_its_own_ids() -> None:
    # A policy trained before ids were appended to the layout (the finer purchase ladder).
    rng = np.random.default_rng(1)
    layers = [(rng.normal(size=(4, 3)).astype(np.float32), np.zeros(4, np.float32))]
    policy = MlpPolicy(layers, "relu")
    x = rng.normal(size=3).astype(np.float32)
    mask = np.ones(7, dtype=bool)
    assert policy(x, mask) == int(np.argmax(policy.logits(x)))
    mask[:4] = False  # only the new ids are legal: it still plays one of them
    assert policy(x, mask) in (4, 5, 6)

"""Trained policies that play without torch, and the evaluation of any policy against bots.

:class:`MlpPolicy` is the actor of a MaskablePPO agent (``python -m parlor.rl.train``) exported to
NumPy: its layers, activation and the environment options it was trained with, in one ``.npz``
file. It picks the most likely legal action, as ``MaskablePPO.predict(deterministic=True)`` does.
:func:`evaluate` plays fresh seeded games of a Gymnasium environment with any policy and counts
the learner's results; :class:`RandomPolicy` (uniform over the legal ids) is the yardstick.

>>> result = evaluate(RandomPolicy(seed=1), {"game": "tools", "players": 2}, games=10)
>>> result["games"], result["truncated"], result["seeds"]
(10, 0, [1000000, 1000009])
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from parlor.rl.gym_env import ParlorGymEnv
from parlor.stats import wilson

FloatArray = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]
Policy = Callable[[FloatArray, BoolArray], int]

MODELS = Path(__file__).parent / "models"
EVAL_SEED_BASE = 1_000_000  # evaluation game i has seed EVAL_SEED_BASE + i (training uses 0, 1...)
_ACTIVATIONS: dict[str, Callable[[FloatArray], FloatArray]] = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0),
}


class MlpPolicy:
    """Hidden layers with one activation, then a linear layer of one logit per action id.

    With ``meta["no_repeat"]`` the policy remembers, within one game (``reset`` starts the next),
    what it chose in each state (observation and mask), and never chooses it again in the same
    state: a state met twice means the choice changed nothing (an offer the bot rejected), and
    a greedy policy would otherwise repeat it for ever, since the full property mask lets a
    seat propose trades without limit."""

    def __init__(
        self,
        layers: list[tuple[FloatArray, FloatArray]],
        activation: str = "tanh",
        meta: dict[str, Any] | None = None,
    ) -> None:
        if activation not in _ACTIVATIONS:
            raise ValueError(
                f"activation must be one of {sorted(_ACTIVATIONS)}, not {activation!r}"
            )
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
        self.activation = activation
        self.meta: dict[str, Any] = dict(meta or {})
        self._tried: dict[int, list[int]] = {}  # state hash -> ids chosen there (no_repeat)

    def reset(self) -> None:
        """A new game: forget the states met (``no_repeat``)."""
        self._tried.clear()

    def logits(self, observation: FloatArray) -> FloatArray:
        x = np.asarray(observation, np.float32)
        act = _ACTIVATIONS[self.activation]
        *hidden, (w_out, b_out) = self.layers
        for w, b in hidden:
            x = act(w @ x + b)
        return w_out @ x + b_out

    def __call__(self, observation: FloatArray, mask: BoolArray) -> int:
        """The most likely legal action id. A policy with fewer outputs than the mask (trained
        before ids were appended to the layout, as the finer purchase ladder was) chooses an id
        past its outputs only when no other is legal."""
        scores = self.logits(observation)
        if len(scores) < len(mask):
            low = np.full(len(mask) - len(scores), np.finfo(np.float32).min, np.float32)
            scores = np.concatenate([scores, low])
        logits = np.where(mask, scores, -np.inf)
        if not self.meta.get("no_repeat"):
            return int(np.argmax(logits))
        key = hash((np.asarray(observation).tobytes(), np.asarray(mask).tobytes()))
        tried = self._tried.setdefault(key, [])
        if len(tried) < int(np.count_nonzero(mask)):  # every id tried: start over
            logits[tried] = -np.inf
        else:
            tried.clear()
        choice = int(np.argmax(logits))
        tried.append(choice)
        return choice

    def save(self, path: str | Path) -> None:
        arrays: dict[str, Any] = {}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        meta = {**self.meta, "activation": self.activation, "layers": len(self.layers)}
        np.savez_compressed(path, meta=np.array(json.dumps(meta)), **arrays)

    @classmethod
    def load(cls, path: str | Path) -> MlpPolicy:
        with np.load(path) as data:
            meta = json.loads(str(data["meta"]))
            layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(int(meta.pop("layers")))]
        return cls(layers, meta.pop("activation"), meta)


def load_baseline(name: str) -> MlpPolicy:
    """A policy shipped with Parlor (``src/parlor/rl/models/NAME.npz``): ``"classic-4p"``."""
    return MlpPolicy.load(MODELS / f"{name}.npz")


class RandomPolicy:
    """Uniform over the legal ids, from its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: FloatArray, mask: BoolArray) -> int:
        return int(self.rng.choice(np.flatnonzero(mask)))


def _play(
    policy: Policy,
    env_kwargs: dict[str, Any],
    first_seed: int,
    games: int,
    max_rounds: int | None = None,
) -> tuple[list[int], int]:
    """Counts [wins, ties, truncated, first_at_cap] over games first_seed.., and the decisions."""
    env = ParlorGymEnv(**env_kwargs)
    counts = [0, 0, 0, 0]
    decisions = 0
    reset = getattr(policy, "reset", None)
    for seed in range(first_seed, first_seed + games):
        obs, info = env.reset(seed=seed)
        if reset is not None:
            reset()
        # With skip_forced a game can end before the learner's first real choice.
        done = env.table.over or env.table.decider != env.seat
        trunc = env.table.truncated
        while not done:
            action = policy(obs["observation"], env.action_masks())
            obs, _, term, trunc, info = env.step(np.int64(action))
            decisions += 1
            done = term or trunc
            if not done and max_rounds is not None and env.game.round >= max_rounds:
                # The round cap: the game is cut here and ranked as at the step cap.
                trunc = done = True
                info["leaders"] = env.table.spec.book_ranking(env.game)
        winners = info.get("winners")
        if trunc:
            counts[2] += 1
            counts[3] += info.get("leaders") == (info["seat"],)
        elif winners == (info["seat"],):
            counts[0] += 1
        elif winners is not None and info["seat"] in winners:
            counts[1] += 1
    return counts, decisions


def evaluate(
    policy: Policy,
    env_kwargs: dict[str, Any],
    games: int,
    seed_base: int = EVAL_SEED_BASE,
    jobs: int = 1,
    max_rounds: int | None = None,
) -> dict[str, Any]:
    """Play games ``seed_base``, ``seed_base + 1``... of ``ParlorGymEnv(**env_kwargs)`` with
    ``policy`` in the learning seat and count its results.

    ``first`` counts the games the learner finished ranked first: the sole winner of a game that
    ended (``wins``), or, in a game cut at the step cap (``truncated``), the sole richest by the
    book's valuation among the players left (``first_at_cap``), which is the book's own time-limit
    rule. A learner that went bankrupt was ranked last. ``jobs`` > 1 splits the games over child
    processes (a pure policy such as :class:`MlpPolicy` gives the same counts; a policy with its
    own generator, such as :class:`RandomPolicy`, gets one copy per process).

    ``max_rounds`` (property games) cuts a game when the table has played that many rounds (the
    engine's ``round``, counted from the first player), ranked as at the step cap; pass a
    ``max_steps`` in ``env_kwargs`` high enough that the round cap comes first."""
    jobs = max(1, min(jobs, games))
    if jobs == 1:
        parts = [_play(policy, env_kwargs, seed_base, games, max_rounds)]
    else:
        from concurrent.futures import ProcessPoolExecutor

        sizes = [games // jobs + (k < games % jobs) for k in range(jobs)]
        starts = [seed_base + sum(sizes[:k]) for k in range(jobs)]
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(
                pool.map(
                    _play,
                    [policy] * jobs,
                    [env_kwargs] * jobs,
                    starts,
                    sizes,
                    [max_rounds] * jobs,
                )
            )
    wins, ties, truncated, first_at_cap = (sum(part[0][k] for part in parts) for k in range(4))
    decisions = sum(part[1] for part in parts)
    first = wins + first_at_cap
    low, high = wilson(first, games)
    return {
        "games": games,
        "first": first,
        "win_rate": first / games if games else 0.0,
        "ci95": [low, high],
        "wins": wins,
        "ties": ties,
        "truncated": truncated,
        "first_at_cap": first_at_cap,
        "learner_decisions_per_game": decisions / games if games else 0.0,
        "seeds": [seed_base, seed_base + games - 1],
        "max_steps": ParlorGymEnv(**env_kwargs).table.max_steps,
        "max_rounds": max_rounds,
    }

"""Environment steps per second, masks included, for both games: the PettingZoo AEC environment
(every seat played by uniformly random legal ids), the Gymnasium environment (one seat against
random bots; a step is one learner decision, the bots' moves in between included), and the
Gymnasium environment vectorized (sync and async). Each figure is given per wall-clock second and
per CPU second of this process (the second is steadier on a shared machine; the async vector
environment's work is in its child processes, so it has only the first).

    python bench/bench_rl.py                  # a few seconds per figure
    python bench/bench_rl.py --seconds 10 --envs 4
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

import parlor.rl  # noqa: F401  (registers the ids)
from parlor.rl import ParlorAECEnv, property_env, tools_env

Rates = tuple[float, float | None]


def rates(steps: int, start: float, cpu: float, count_cpu: bool = True) -> Rates:
    wall = steps / (time.perf_counter() - start)
    return wall, (steps / (time.process_time() - cpu) if count_cpu else None)


def aec_rate(make: Callable[[], ParlorAECEnv], seconds: float) -> Rates:
    env, rng = make(), np.random.default_rng(0)
    steps, seed, start, cpu = 0, 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            mask = obs["action_mask"]
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(mask))))
            steps += 1
    return rates(steps, start, cpu)


def gym_rate(env_id: str, seconds: float, **kwargs: Any) -> Rates:
    env, rng = gym.make(env_id, **kwargs), np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    steps, start, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        obs, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        if term or trunc:
            obs, _ = env.reset()
    return rates(steps, start, cpu)


def vector_rate(env_id: str, seconds: float, envs: int, mode: str, **kwargs: Any) -> Rates:
    vec = gym.make_vec(env_id, num_envs=envs, vectorization_mode=mode, **kwargs)
    rng = np.random.default_rng(0)
    obs, _ = vec.reset(seed=0)
    steps, start, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in obs["action_mask"]]
        obs, *_ = vec.step(np.array(actions))
        steps += envs
    result = rates(steps, start, cpu, count_cpu=mode == "sync")
    vec.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per figure")
    parser.add_argument("--envs", type=int, default=4, help="copies in the vector environments")
    args = parser.parse_args()
    s = args.seconds
    rows = [
        ("AEC, TOOLS 2p", aec_rate(lambda: tools_env(2), s)),
        ("AEC, TOOLS 4p", aec_rate(lambda: tools_env(4), s)),
        ("AEC, classic 4p", aec_rate(lambda: property_env("classic", 4, max_steps=5000), s)),
        ("Gym parlor/Tools-v0 vs random", gym_rate("parlor/Tools-v0", s)),
        ("Gym parlor/Classic-v0 vs 3 random", gym_rate("parlor/Classic-v0", s, max_steps=5000)),
    ]
    for mode in ("sync", "async"):
        rows.append(
            (
                f"Gym parlor/Tools-v0 x{args.envs} {mode}",
                vector_rate("parlor/Tools-v0", s, args.envs, mode),
            )
        )
        rows.append(
            (
                f"Gym parlor/Classic-v0 x{args.envs} {mode}",
                vector_rate("parlor/Classic-v0", s, args.envs, mode, max_steps=5000),
            )
        )
    print(f"{'environment':<40} {'steps/s':>10} {'per CPU s':>10}")
    for name, (wall, cpu) in rows:
        print(f"{name:<40} {wall:>10,.0f} {'-' if cpu is None else f'{cpu:,.0f}':>10}")


if __name__ == "__main__":
    main()

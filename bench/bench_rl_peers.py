"""Parlor's AEC environments against RLCard's UNO, interleaved in one process on one core.

Each environment does the same work per step: read the observation (and the mask), choose a
uniformly random legal action, step. The figures are steps per CPU second of this process
(``time.process_time``), taken in short interleaved rounds so that a loaded machine slows every
environment alike; the ratio TOOLS / UNO is the headline.

    python bench/bench_rl_peers.py                   # 5 rounds of 1 CPU second each
    python bench/bench_rl_peers.py --rounds 10 --seconds 2
    taskset -c 0 python bench/bench_rl_peers.py      # pinned to one core

Needs the ``bench`` extra (rlcard) for the UNO figure; without it only Parlor's are printed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from parlor.rl import property_env, tools_env

Stepper = Iterator[int]  # each next() plays a batch of steps and yields how many


def aec_steps(make: Callable[[], Any]) -> Stepper:
    env, rng = make(), np.random.default_rng(0)
    seed = 0
    while True:
        env.reset(seed=seed)
        seed += 1
        steps = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
            else:
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        yield steps


def uno_steps() -> Stepper:
    import rlcard  # the bench extra

    env, rng = rlcard.make("uno", config={"seed": 0}), np.random.default_rng(0)
    while True:
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            legal = list(state["legal_actions"])  # state["obs"] is built every step
            state, _ = env.step(legal[rng.integers(len(legal))])
            steps += 1
        yield steps


def one_round(stepper: Stepper, seconds: float) -> float:
    """Steps per CPU second over whole episodes until ``seconds`` of CPU time have passed."""
    steps, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        steps += next(stepper)
    return steps / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per round")
    args = parser.parse_args()
    contenders: dict[str, Stepper] = {
        "Parlor TOOLS 2p AEC": aec_steps(lambda: tools_env(2)),
        "Parlor classic 4p AEC": aec_steps(lambda: property_env("classic", 4, max_steps=5000)),
    }
    try:
        contenders["RLCard UNO"] = uno_steps()
        next(contenders["RLCard UNO"])  # (imports and warm-up outside the rounds)
    except ImportError:
        contenders.pop("RLCard UNO")
        print("rlcard is not installed (pip install -e '.[bench]'): no UNO figure")
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(args.rounds):
        for name, stepper in contenders.items():
            rates[name].append(one_round(stepper, args.seconds))
    load = os.getloadavg()
    print(f"{args.rounds} interleaved rounds of {args.seconds} CPU s; load {load[0]:.1f}")
    print(f"{'environment':<24} {'median steps/CPU s':>20} {'min':>10} {'max':>10}")
    median = {name: statistics.median(r) for name, r in rates.items()}
    for name, r in rates.items():
        print(f"{name:<24} {median[name]:>20,.0f} {min(r):>10,.0f} {max(r):>10,.0f}")
    if "RLCard UNO" in median:
        uno = median["RLCard UNO"]
        ratios = [
            t / u for t, u in zip(rates["Parlor TOOLS 2p AEC"], rates["RLCard UNO"], strict=False)
        ]
        print(
            f"TOOLS 2p / RLCard UNO: {median['Parlor TOOLS 2p AEC'] / uno:.2f}x "
            f"(per round {min(ratios):.2f}x to {max(ratios):.2f}x)"
        )


if __name__ == "__main__":
    main()

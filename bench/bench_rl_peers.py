"""Parlor's AEC environments against RLCard's UNO, interleaved in one process on one core.

Each environment does the same work per step: read the observation (and the mask), choose a
uniformly random legal action, step. The choice costs both sides alike: the legal ids as a Python
list (the mask's ``nonzero()`` listed; UNO's ``legal_actions`` keys listed), then one
``rng.integers``. (``np.flatnonzero`` and a NumPy scalar index, as this bench once chose, took
about 5 us a step under load where UNO's list took 0.5 us: a tenth of a TOOLS step.) The
figures are steps per CPU second of this process (``time.process_time``), taken in interleaved
rounds so that a loaded machine slows every environment alike: each round gives every
environment ``--seconds`` in ``--slices`` turns (10: a tenth of a second each, whole episodes)
that alternate between them, so that the load's swings within a round reach all of them; the
ratio TOOLS / UNO is the headline. (The batched part's rounds are one turn each, as before.)

    python bench/bench_rl_peers.py                   # 5 rounds of 1 CPU second each
    python bench/bench_rl_peers.py --rounds 10 --seconds 2
    taskset -c 0 python bench/bench_rl_peers.py      # pinned to one core

Needs the ``bench`` extra (rlcard) for the UNO figure; without it only Parlor's are printed.

``--vector N`` also measures the batched environments over N games of ``parlor/Tools-v0`` and
``parlor/Classic-v0`` (random legal ids): :class:`parlor.rl.vector.ParlorVectorEnv` against
Gymnasium's ``SyncVectorEnv`` over the same environments (CPU time of this process), and
:class:`parlor.rl.vector.ParlorProcessVectorEnv` with 2 worker processes against 1 (wall-clock
time: its work is in the workers; on a loaded machine the second core is not free, so the ratio
shows the load as much as the scaling; at least 64 games, split between the workers).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from parlor.rl import property_env, tools_env
from parlor.rl.vector import ParlorProcessVectorEnv, ParlorVectorEnv

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
            else:  # (the legal ids as a list, as UNO's below: the same pick on both sides)
                legal = obs["action_mask"].nonzero()[0].tolist()
                env.step(legal[rng.integers(len(legal))])
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


def pick_batch(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """A uniformly random legal id in each row, for the whole batch in three NumPy calls (as a
    batched agent chooses: one call over the batch, not a loop over the games). An ended game's
    row is empty: it gets id 0, which the environment ignores as it restarts that game."""
    scores = rng.random(masks.shape)
    scores *= masks
    picked: np.ndarray = scores.argmax(axis=1)
    return picked


def vector_steps(envs: Any) -> Stepper:
    """Batched steps of random legal ids; each next() plays 20 batch steps (20 N game steps)."""
    rng = np.random.default_rng(0)
    obs, _ = envs.reset(seed=0)
    while True:
        for _ in range(20):
            obs, *_ = envs.step(pick_batch(rng, obs["action_mask"]))
        yield 20 * envs.num_envs


def interleave(
    contenders: dict[str, Stepper],
    rounds: int,
    seconds: float,
    clock: Callable[[], float],
    slices: int = 1,
) -> dict[str, list[float]]:
    """Each contender's rate in each round: ``seconds`` of ``clock`` each, taken in ``slices``
    turns that alternate between the contenders (whole episodes or batches each), so that a
    change of the machine's load within a round reaches them all alike."""
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(rounds):
        steps = dict.fromkeys(contenders, 0)
        spent = dict.fromkeys(contenders, 0.0)
        for _ in range(slices):
            for name, stepper in contenders.items():
                start = clock()
                while clock() - start < seconds / slices:
                    steps[name] += next(stepper)
                spent[name] += clock() - start
        for name in contenders:
            rates[name].append(steps[name] / spent[name])
    return rates


def table(rates: dict[str, list[float]], unit: str) -> dict[str, float]:
    print(f"{'environment':<36} {'median ' + unit:>20} {'min':>10} {'max':>10}")
    median = {name: statistics.median(r) for name, r in rates.items()}
    for name, r in rates.items():
        print(f"{name:<36} {median[name]:>20,.0f} {min(r):>10,.0f} {max(r):>10,.0f}")
    return median


def ratio(rates: dict[str, list[float]], a: str, b: str, label: str) -> None:
    per_round = [x / y for x, y in zip(rates[a], rates[b], strict=True)]
    whole = statistics.median(rates[a]) / statistics.median(rates[b])
    print(f"{label}: {whole:.2f}x (per round {min(per_round):.2f}x to {max(per_round):.2f}x)")


class Counted:
    """A stepper that counts its steps and this process's CPU time spent in it."""

    def __init__(self, stepper: Stepper) -> None:
        self.stepper, self.steps, self.cpu = stepper, 0, 0.0

    def __iter__(self) -> Iterator[int]:
        while True:
            start = time.process_time()
            steps = next(self.stepper)
            self.cpu += time.process_time() - start
            self.steps += steps
            yield steps


def worker_cpu(envs: ParlorProcessVectorEnv) -> float:
    """CPU seconds the worker processes have used (Linux /proc; NaN elsewhere)."""
    total = 0.0
    for proc in envs._procs:
        try:
            fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def vector_bench(n: int, rounds: int, seconds: float) -> None:
    kwargs: dict[str, dict[str, Any]] = {
        "parlor/Tools-v0": {},
        "parlor/Classic-v0": {"max_steps": 5000},
    }
    contenders: dict[str, Stepper] = {}
    closers: list[Any] = []
    for env_id, kw in kwargs.items():
        short = env_id.split("/")[1]
        sync = gym.make_vec(env_id, num_envs=n, vectorization_mode="sync", **kw)
        closers.append(sync)
        contenders[f"{short} x{n} ParlorVectorEnv"] = vector_steps(ParlorVectorEnv(env_id, n, **kw))
        contenders[f"{short} x{n} SyncVectorEnv"] = vector_steps(sync)
    for stepper in contenders.values():  # (the reset and first batches outside the rounds)
        next(stepper)
    rates = interleave(contenders, rounds, seconds, time.process_time)
    print(f"batched, {rounds} interleaved rounds of {seconds} CPU s; load {os.getloadavg()[0]:.1f}")
    table(rates, "steps/CPU s")
    for short in ("Tools-v0", "Classic-v0"):
        ratio(
            rates,
            f"{short} x{n} ParlorVectorEnv",
            f"{short} x{n} SyncVectorEnv",
            f"{short} ParlorVectorEnv / SyncVectorEnv",
        )
    # Many games per worker, so that a batch's work outweighs the pipes' round trip.
    n = max(n, 64)
    procs = {w: ParlorProcessVectorEnv("parlor/Tools-v0", n, workers=w) for w in (1, 2)}
    try:
        counted = {w: Counted(vector_steps(e)) for w, e in procs.items()}
        for counter in counted.values():  # (the reset and first batches outside the rounds)
            next(counter.stepper)
        contenders = {
            f"Tools-v0 x{n} processes, {w} worker(s)": iter(counter)
            for w, counter in counted.items()
        }
        before = {w: worker_cpu(e) for w, e in procs.items()}
        rates = interleave(contenders, rounds, seconds, time.perf_counter)
        print(
            f"multi-process, {rounds} interleaved rounds of {seconds} wall s; load {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores"
        )
        table(rates, "steps/wall s")
        names = list(contenders)
        ratio(rates, names[1], names[0], "2 workers / 1 worker")
        # CPU time per game step, which the load changes much less than the wall time: splitting
        # the games should add little work, and the parent's share is what the workers wait for.
        for w, counter in counted.items():
            workers = (worker_cpu(procs[w]) - before[w]) / counter.steps * 1e6
            print(
                f"  {w} worker(s): CPU per game step {workers:.1f} us in the workers, "
                f"{counter.cpu / counter.steps * 1e6:.1f} us in this process"
            )
    finally:
        for e in procs.values():
            e.close()
        for c in closers:
            c.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per round")
    parser.add_argument("--vector", type=int, default=0, help="also the batched envs, N games")
    parser.add_argument(
        "--slices", type=int, default=10, help="AEC rounds: turns per round between the envs"
    )
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
    rates = interleave(contenders, args.rounds, args.seconds, time.process_time, args.slices)
    load = os.getloadavg()[0]
    print(f"AEC, {args.rounds} interleaved rounds of {args.seconds} CPU s; load {load:.1f}")
    table(rates, "steps/CPU s")
    if "RLCard UNO" in rates:
        ratio(rates, "Parlor TOOLS 2p AEC", "RLCard UNO", "TOOLS 2p / RLCard UNO")
    if args.vector:
        vector_bench(args.vector, args.rounds, args.seconds)


if __name__ == "__main__":
    main()

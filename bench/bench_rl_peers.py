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
Gymnasium's ``SyncVectorEnv`` over the same environments (CPU time of this process: of the
environments' ``step`` calls alone, the headline, since the agent's picks are neither
environment's work and a real agent's would pull every ratio towards 1x; and with the bench's
picks), with the
part of a step that no batch can skip (the engine, bots, encoder and legal ids, timed in an
instrumented run of its own) and the bound it sets on the ratio; then
:class:`parlor.rl.vector_processes.ParlorProcessVectorEnv` in wall-clock time (its work is in
the workers) over each count of ``--process-games`` (64 and 256 by default: the fixed cost of a
step's round trip is shared by the games of a worker, so the ratio grows with them), each contender pinned with its workers to one core or to two
(``os.sched_setaffinity``): the same form with 2 workers on 2 cores against 1 core (the issue's
"grows with cores"), against 1 worker on 1 core, against the in-process batch on 1 core, and
the earlier figure (2 workers against 1, both free on the machine); with a control, two
processes stepping their own games with no round trip per step, on 1 core and on 2: the most
that a second core gives this work on the machine at that moment (other jobs take their share).
The 2-core figures mean something only on a quiet machine: the load is printed.

    python bench/bench_rl_peers.py --rounds 5 --seconds 1 --vector 8
    python bench/bench_rl_peers.py --only processes --process-games 128    # that part alone
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from parlor.rl import property_env, tools_env
from parlor.rl.vector import ParlorVectorEnv
from parlor.rl.vector_processes import ParlorProcessVectorEnv

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


class VectorSteps:
    """Batched steps of random legal ids; each next() plays 20 batch steps (20 N game steps)
    and yields how many game steps. ``env_cpu`` is the CPU time spent in the environment's
    ``step`` calls alone, without the picks: the agent's part, which a real agent (a policy
    network over the masks) makes dearer still and which would pull every ratio towards 1x."""

    def __init__(self, envs: Any, seed: int = 0) -> None:
        self.envs, self.rng, self.seed = envs, np.random.default_rng(seed), seed
        self.steps, self.env_cpu = 0, 0.0
        self.batch: int = 20 * envs.num_envs  # game steps a next()
        self.obs: Any = None  # (the reset at the first next(), as a generator's)

    def __iter__(self) -> VectorSteps:
        return self

    def __next__(self) -> int:
        envs, rng, obs, clock = self.envs, self.rng, self.obs, time.process_time
        if obs is None:
            obs, _ = envs.reset(seed=self.seed * envs.num_envs)
        spent = 0.0
        for _ in range(20):
            actions = pick_batch(rng, obs["action_mask"])
            start = clock()
            obs, *_ = envs.step(actions)
            spent += clock() - start
        self.obs, self.env_cpu = obs, self.env_cpu + spent
        self.steps += self.batch
        return self.batch


def vector_steps(envs: Any, seed: int = 0) -> VectorSteps:
    return VectorSteps(envs, seed)


def interleave(
    contenders: dict[str, Stepper],
    rounds: int,
    seconds: float,
    clock: Callable[[], float],
    slices: int = 1,
    after_round: Callable[[], None] | None = None,
) -> dict[str, list[float]]:
    """Each contender's rate in each round: ``seconds`` of ``clock`` each, taken in ``slices``
    turns that alternate between the contenders (whole episodes or batches each), so that a
    change of the machine's load within a round reaches them all alike (``after_round`` called
    at each round's end)."""
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
        if after_round is not None:
            after_round()
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


def worker_cpu(envs: Any) -> float:
    """CPU seconds the worker processes have used (Linux /proc; NaN elsewhere)."""
    total = 0.0
    for proc in envs._procs:
        try:
            fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


class SharedWork:
    """Times, in one instrumented run of a :class:`ParlorVectorEnv`, the work that every batched
    form must do for the same games whatever it is built like: the engine's moves (``apply``) and
    new games, the bots' choices, the encoder's update and the legal ids, and the bench's random
    picks (the agent's part, the same for every contender, timed apart). A batch cannot take
    less than that per game step, nor be faster than ``SyncVectorEnv`` by more than ``SyncVectorEnv``'s
    time over it (the bound printed). Only the outermost timed call counts (no double time)."""

    def __init__(self, env_id: str, n: int, kw: dict[str, Any]) -> None:
        self.args, self.kw = (env_id, n), kw
        first = ParlorVectorEnv(env_id, 1, **kw).envs[0]
        table = first.table
        first.restart(seed=0)
        self.methods = [
            (type(table.game), "apply"),
            (type(table.game), "legal_action_ids"),
            # (the property games' unsorted ids, which the batch asks instead)
            *(
                [(type(table.game), "legal_id_list")]
                if hasattr(table.game, "legal_id_list")
                else []
            ),
            (type(table.encoder), "update"),
            (type(table.spec), "new_game"),
        ] + [(type(bot), "choose") for bot in {type(b): b for b in first.bots.values()}.values()]
        self.spent, self.picks, self.depth = 0.0, 0.0, 0

    def _timed(self, f: Callable[..., Any], pick: bool = False) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            if self.depth:
                return f(*args, **kwargs)
            self.depth += 1
            start = time.process_time()
            try:
                return f(*args, **kwargs)
            finally:
                if pick:
                    self.picks += time.process_time() - start
                else:
                    self.spent += time.process_time() - start
                self.depth -= 1

        return timed

    def fraction(self, batches: int) -> tuple[float, float]:
        """The shared work's part of a batch step's CPU time, over ``batches`` batch steps: with
        the picks (of the whole), and without them (of the environment's step calls)."""
        owners = [
            (next(c for c in cls.__mro__ if name in c.__dict__), name) for cls, name in self.methods
        ]
        saved = [(cls, name, cls.__dict__[name]) for cls, name in owners]
        picks = pick_batch
        try:
            for cls, name, f in saved:
                setattr(cls, name, self._timed(f))
            globals()["pick_batch"] = self._timed(pick_batch, pick=True)  # (the agent's part)
            # (a batch made now: one made before would hold the methods it bound then, untimed)
            stepper = vector_steps(ParlorVectorEnv(*self.args, **self.kw), 1)
            next(stepper)
            self.spent = self.picks = 0.0
            start = time.process_time()
            for _ in range(max(1, batches // 20)):
                next(stepper)
            total = time.process_time() - start
        finally:
            for cls, name, f in saved:
                setattr(cls, name, f)
            globals()["pick_batch"] = picks
        return (self.spent + self.picks) / total, self.spent / (total - self.picks)


def vector_bench(n: int, rounds: int, seconds: float, processes: tuple[int, ...] = ()) -> None:
    kwargs: dict[str, dict[str, Any]] = {
        "parlor/Tools-v0": {},
        "parlor/Classic-v0": {"max_steps": 5000},
    }
    contenders: dict[str, VectorSteps] = {}
    closers: list[Any] = []
    for env_id, kw in kwargs.items():
        short = env_id.split("/")[1]
        sync = gym.make_vec(env_id, num_envs=n, vectorization_mode="sync", **kw)
        closers.append(sync)
        contenders[f"{short} x{n} ParlorVectorEnv"] = vector_steps(ParlorVectorEnv(env_id, n, **kw))
        contenders[f"{short} x{n} SyncVectorEnv"] = vector_steps(sync)
    for stepper in contenders.values():  # (the reset and first batches outside the rounds)
        next(stepper)
    # Each round's rate of the environments' step calls alone (the picks apart).
    env_rates: dict[str, list[float]] = {name: [] for name in contenders}
    last = {name: (c.steps, c.env_cpu) for name, c in contenders.items()}

    def env_round() -> None:
        for name, c in contenders.items():
            steps, cpu = last[name]
            env_rates[name].append((c.steps - steps) / (c.env_cpu - cpu))
            last[name] = (c.steps, c.env_cpu)

    steppers: dict[str, Stepper] = dict(contenders)
    rates = interleave(steppers, rounds, seconds, time.process_time, after_round=env_round)
    print(f"batched, {rounds} interleaved rounds of {seconds} CPU s; load {os.getloadavg()[0]:.1f}")
    print("the environments' step calls alone (the headline: the agent's picks apart):")
    table(env_rates, "steps/CPU s")
    print("with the bench's random picks (three NumPy calls a batch step):")
    table(rates, "steps/CPU s")
    for env_id, kw in kwargs.items():
        short = env_id.split("/")[1]
        mine, theirs = f"{short} x{n} ParlorVectorEnv", f"{short} x{n} SyncVectorEnv"
        ratio(env_rates, mine, theirs, f"{short} ParlorVectorEnv / SyncVectorEnv, step calls")
        ratio(rates, mine, theirs, f"{short} ParlorVectorEnv / SyncVectorEnv, with the picks")
        # The work no batch can skip, its part timed in a run of its own (instrumented, so not
        # in the rounds), in microseconds of the rounds' median ParlorVectorEnv step.
        whole, env_part = SharedWork(env_id, n, kw).fraction(400 if short == "Classic-v0" else 2000)
        for label, part, r in (("step calls", env_part, env_rates), ("with picks", whole, rates)):
            ours_us = 1e6 / statistics.median(r[mine])
            sync_us = 1e6 / statistics.median(r[theirs])
            shared_us = part * ours_us
            print(
                f"  per game step, {label}: SyncVectorEnv {sync_us:.1f} us, ParlorVectorEnv "
                f"{ours_us:.1f} us, of which {shared_us:.1f} us ({part:.0%}) the work every form "
                f"does (the engine, the bots, the encoder, the legal ids"
                f"{', the picks' if r is rates else ''}): no batch passes "
                f"{sync_us / shared_us:.2f}x here"
            )
    for c in closers:
        c.close()
    for games in processes:
        process_bench(games, rounds, seconds)


def free_worker(conn: Any, env_id: str, count: int, seed: int) -> None:
    """The control's worker: its own :class:`ParlorVectorEnv` of ``count`` games, its own random
    legal ids; each command runs 20 batch steps and answers how many game steps, with nothing
    shared and no round trip per step."""
    stepper = vector_steps(ParlorVectorEnv(env_id, count), seed)
    while conn.recv() is not None:
        conn.send(next(stepper))


class FreeWorkers:
    """Independent processes stepping their games on their own (the machine's ceiling for this
    work: what cores add when nothing waits for anything), driven 20 batch steps at a time."""

    def __init__(self, env_id: str, n: int, workers: int) -> None:
        ctx = mp.get_context()
        self.conns, self._procs = [], []
        for w in range(workers):
            parent, child = ctx.Pipe()
            args = (child, env_id, n // workers, w)
            proc = ctx.Process(target=free_worker, args=args, daemon=True)
            proc.start()
            self.conns.append(parent)
            self._procs.append(proc)

    def __iter__(self) -> Stepper:
        while True:
            for conn in self.conns:
                conn.send(True)
            yield sum(conn.recv() for conn in self.conns)

    def close(self) -> None:
        for conn in self.conns:
            conn.send(None)
        for proc in self._procs:
            proc.join(timeout=5)


class Pinned:
    """A stepper run on the cores ``cpus``: its worker processes pinned there once, this process
    moved there before each of its batches (the contenders of one run take turns, so each
    round's parent runs where that contender's workers do)."""

    current: set[int] | None = None  # this process's affinity as last set here

    def __init__(self, stepper: Stepper, pids: list[int], cpus: set[int]) -> None:
        self.stepper, self.cpus = stepper, cpus
        for pid in pids:
            os.sched_setaffinity(pid, cpus)

    def __iter__(self) -> Stepper:
        while True:
            if Pinned.current != self.cpus:
                os.sched_setaffinity(0, self.cpus)
                Pinned.current = self.cpus
            yield next(self.stepper)


def process_bench(n: int, rounds: int, seconds: float) -> None:
    """The multi-process form over ``n`` games of ``parlor/Tools-v0`` (many games per worker,
    so that a batch's work outweighs the pipes' round trip), each contender pinned to one core
    or to two (parent and workers alike, os.sched_setaffinity), interleaved, in wall time."""
    allowed = sorted(os.sched_getaffinity(0))
    if len(allowed) < 2:
        print("multi-process: fewer than 2 cores allowed here, skipped")
        return
    one, two = {allowed[0]}, set(allowed[:2])
    env_id = "parlor/Tools-v0"
    made: dict[str, Any] = {}
    contenders: dict[str, Stepper] = {}
    counted: dict[str, Counted] = {}
    try:
        for label, workers, cpus in (
            ("processes, 1 worker, 1 core", 1, one),
            ("processes, 2 workers, 1 core", 2, one),
            ("processes, 2 workers, 2 cores", 2, two),
            ("processes, 1 worker, 2 cores", 1, two),
        ):
            envs = made[label] = ParlorProcessVectorEnv(env_id, n, workers=workers)
            counted[label] = Counted(vector_steps(envs))
            pids = [p.pid for p in envs._procs]
            contenders[label] = iter(Pinned(iter(counted[label]), pids, cpus))
        inproc = ParlorVectorEnv(env_id, n)
        contenders["in one process, 1 core"] = iter(Pinned(vector_steps(inproc), [], one))
        for label, cpus in (
            ("control, 2 free workers, 1 core", one),
            ("control, 2 free workers, 2 cores", two),
        ):
            free = made[label] = FreeWorkers(env_id, n, 2)
            counted[label] = Counted(iter(free))
            pids = [p.pid for p in free._procs]
            contenders[label] = iter(Pinned(iter(counted[label]), pids, cpus))
        for stepper in contenders.values():  # (the resets and first batches outside the rounds)
            next(stepper)
        for counter in counted.values():
            counter.steps, counter.cpu = 0, 0.0
        before = {label: worker_cpu(e) for label, e in made.items()}
        rates = interleave(contenders, rounds, seconds, time.perf_counter)
        os.sched_setaffinity(0, set(allowed))
        Pinned.current = None
        print(
            f"multi-process, {n} games of {env_id}, {rounds} interleaved rounds of {seconds} wall "
            f"s; load {os.getloadavg()[0]:.1f}, cores {sorted(two)} (1 core: {sorted(one)})"
        )
        table(rates, "steps/wall s")
        p = "processes, "
        ratio(
            rates,
            p + "2 workers, 2 cores",
            p + "2 workers, 1 core",
            "2 workers: 2 cores / 1 core (the same form)",
        )
        ratio(
            rates,
            p + "2 workers, 2 cores",
            p + "1 worker, 1 core",
            "2 workers on 2 cores / 1 worker on 1 core",
        )
        ratio(
            rates,
            p + "2 workers, 2 cores",
            p + "1 worker, 2 cores",
            "2 workers / 1 worker, both free on 2 cores (the earlier figure)",
        )
        ratio(
            rates,
            p + "2 workers, 2 cores",
            "in one process, 1 core",
            "2 workers on 2 cores / ParlorVectorEnv on 1 core",
        )
        ratio(
            rates,
            "control, 2 free workers, 2 cores",
            "control, 2 free workers, 1 core",
            "control (no per-step round trip): 2 cores / 1 core, the machine's ceiling now",
        )
        # CPU time per game step, which the load changes much less than the wall time: splitting
        # the games should add little work, and the parent's share is what the workers wait for.
        for label, counter in counted.items():
            spent = (worker_cpu(made[label]) - before[label]) / counter.steps * 1e6
            print(
                f"  {label}: CPU per game step {spent:.1f} us in the workers, "
                f"{counter.cpu / counter.steps * 1e6:.1f} us in this process"
            )
    finally:
        os.sched_setaffinity(0, set(allowed))
        for e in made.values():
            e.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per round")
    parser.add_argument("--vector", type=int, default=0, help="also the batched envs, N games")
    parser.add_argument(
        "--slices", type=int, default=10, help="AEC rounds: turns per round between the envs"
    )
    parser.add_argument(
        "--only", choices=("batched", "processes"), help="that part of --vector alone"
    )
    parser.add_argument(
        "--process-games",
        type=int,
        nargs="+",
        default=[64, 256],
        help="the multi-process form's game counts (each measured on its own)",
    )
    args = parser.parse_args()
    process_games = tuple(args.process_games)
    if args.only:  # (no AEC rounds)
        if args.only == "batched":
            vector_bench(args.vector or 8, args.rounds, args.seconds)
        else:
            for games in process_games:
                process_bench(games, args.rounds, args.seconds)
        return
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
        vector_bench(args.vector, args.rounds, args.seconds, process_games)


if __name__ == "__main__":
    main()

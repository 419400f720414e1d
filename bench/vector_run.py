"""A fixed run of the in-process batch, for instruction counts (no timing: cachegrind counts).

Plays ``STEPS`` batch steps of 8 games of ``ENV_ID`` (seeded, random legal ids picked in NumPy
as ``bench_rl_peers.py`` picks them), so that two trees play the same games; run it twice, with
two step counts, and take the difference over the extra game steps (``--sync``: Gymnasium's
``SyncVectorEnv`` over the same games, for the batch's saving in instructions). One OpenBLAS
thread: its thread server otherwise adds about 1,000 instructions a game step that vary run to
run.

    OPENBLAS_NUM_THREADS=1 PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no \\
        python bench/vector_run.py parlor/Classic-v0 240    # and again with 40
"""

from __future__ import annotations

import argparse
from typing import Any

import gymnasium as gym
import numpy as np

import parlor.rl  # noqa: F401  (registers the ids)
from parlor.rl.vector import ParlorVectorEnv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("env_id")
    parser.add_argument("steps", type=int)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--sync", action="store_true", help="SyncVectorEnv, not ParlorVectorEnv")
    args = parser.parse_args()
    kwargs: dict[str, Any] = {"max_steps": 5000} if "Classic" in args.env_id else {}
    envs: Any = (
        gym.make_vec(args.env_id, num_envs=args.games, vectorization_mode="sync", **kwargs)
        if args.sync
        else ParlorVectorEnv(args.env_id, args.games, **kwargs)
    )
    rng = np.random.default_rng(1)
    obs, _ = envs.reset(seed=8)
    for _ in range(args.steps):
        scores = rng.random(obs["action_mask"].shape)
        scores *= obs["action_mask"]
        obs, *_ = envs.step(scores.argmax(axis=1))
    form = "SyncVectorEnv" if args.sync else "ParlorVectorEnv"
    print(f"{args.steps} batch steps of {args.games} games of {args.env_id} ({form})")


if __name__ == "__main__":
    main()

"""Batched environments: N games of one ``parlor/...`` id stepped by one call (Gymnasium's vector
API), in this process (:class:`ParlorVectorEnv`) or split over worker processes
(:class:`ParlorProcessVectorEnv`).

Observations come as ``{"observation": float32 (N, size), "action_mask": int8 (N, actions)}``,
rewards as float64 (N,), terminations and truncations as bool (N,). Episodes restart by
themselves as Gymnasium's own vector environments do (``AutoresetMode.NEXT_STEP``): the step
after one that ended resets that game, ignores its action and returns its first observation with
reward 0. ``reset(seed=s)`` seeds game ``i`` with ``s + i``, so the batch plays exactly what N
single environments seeded so would play (tests/rl/test_vector.py checks it against
``SyncVectorEnv``).

>>> import gymnasium as gym, numpy as np
>>> import parlor.rl
>>> envs = gym.make_vec("parlor/Tools-v0", num_envs=4, vectorization_mode="vector_entry_point")
>>> obs, info = envs.reset(seed=0)
>>> obs["observation"].shape, obs["action_mask"].shape
((4, 127), (4, 52))
>>> actions = np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]])
>>> obs, rewards, terminations, truncations, info = envs.step(actions)
>>> rewards.dtype, terminations.shape
(dtype('float64'), (4,))
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
from collections.abc import Sequence
from multiprocessing.connection import Connection
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from parlor.rl.gym_env import ENV_IDS, ParlorGymEnv

Batch = dict[str, npt.NDArray[Any]]
StepResult = tuple[
    Batch, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
]


def _env_kwargs(env_id: str | None, kwargs: dict[str, Any]) -> dict[str, Any]:
    """A registered id's keywords (``parlor/Classic-v0``...) under the caller's."""
    if env_id is None:
        return dict(kwargs)
    if env_id not in ENV_IDS:
        raise ValueError(f"unknown id {env_id!r}: one of {', '.join(ENV_IDS)}")
    return {**ENV_IDS[env_id], **kwargs}


def _seeds(seed: int | Sequence[int | None] | None, n: int) -> list[int | None]:
    if seed is None:
        return [None] * n
    if isinstance(seed, int):
        return [seed + i for i in range(n)]
    if len(seed) != n:
        raise ValueError(f"{n} seeds needed, got {len(seed)}")
    return list(seed)


class ParlorVectorEnv(VectorEnv[Batch, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` :class:`ParlorGymEnv` games in this process, stepped in one call: ``env_id``
    a registered id (or None), the other keywords those of :class:`ParlorGymEnv`.

    What it saves over ``SyncVectorEnv``: no wrapper layers per game, the observations written
    straight into preallocated batch arrays (no per-key concatenation, no observation or info
    dict per game), and no per-game info merging (the masks are in the observation; ``info`` has
    the learners' ``seat`` only)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, env_id: str | None = None, num_envs: int = 1, **kwargs: Any) -> None:
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        kwargs = _env_kwargs(env_id, kwargs)
        kwargs.pop("render_mode", None)
        self.envs = [ParlorGymEnv(**kwargs) for _ in range(num_envs)]
        self.num_envs = num_envs
        first = self.envs[0]
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.metadata = {**self.metadata, "autoreset_mode": AutoresetMode.NEXT_STEP}
        size, actions = first.table.layout.size, first.table.num_actions
        self._obs = np.zeros((num_envs, size), dtype=np.float32)
        self._masks = np.zeros((num_envs, actions), dtype=np.int8)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminations = np.zeros(num_envs, dtype=np.bool_)
        self._truncations = np.zeros(num_envs, dtype=np.bool_)
        self._seats = np.zeros(num_envs, dtype=np.int64)
        self._ended = np.zeros(num_envs, dtype=np.bool_)  # reset at the next step

    def _put(self, i: int, obs: dict[str, npt.NDArray[Any]], info: dict[str, Any]) -> None:
        self._obs[i] = obs["observation"]
        self._masks[i] = obs["action_mask"]
        self._seats[i] = info["seat"]

    def _batch(self) -> tuple[Batch, dict[str, Any]]:
        # Copies: the caller may keep them while the next step fills the buffers again.
        obs: Batch = {"observation": self._obs.copy(), "action_mask": self._masks.copy()}
        return obs, {"seat": self._seats.copy()}

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Batch, dict[str, Any]]:
        for i, (env, s) in enumerate(zip(self.envs, _seeds(seed, self.num_envs), strict=True)):
            obs, info = env.reset(seed=s, options=options)
            self._put(i, obs, info)
        self._ended[:] = False
        self._rewards[:] = 0.0
        self._terminations[:] = False
        self._truncations[:] = False
        return self._batch()

    def step(self, actions: npt.ArrayLike) -> StepResult:
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise ValueError(f"one action per game: shape ({self.num_envs},), not {chosen.shape}")
        ids = chosen.tolist()  # (Python ints: the environments refuse floats)
        for i, env in enumerate(self.envs):
            if self._ended[i]:
                obs, info = env.reset()
                self._put(i, obs, info)
                reward, terminated, truncated = 0.0, False, False
            else:
                reward, terminated, truncated = env.advance(ids[i])
                table = env.table
                self._obs[i] = table.encoder.encode(table.game, env.seat)
                self._masks[i] = table.mask(env.seat)
            self._rewards[i] = reward
            self._terminations[i] = terminated
            self._truncations[i] = truncated
        np.logical_or(self._terminations, self._truncations, out=self._ended)
        obs_batch, infos = self._batch()
        return (
            obs_batch,
            self._rewards.copy(),
            self._terminations.copy(),
            self._truncations.copy(),
            infos,
        )

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Every game's legal ids as booleans (N, actions)."""
        return self._masks.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        self.envs = []


def _worker(conn: Connection, env_id: str | None, count: int, kwargs: dict[str, Any]) -> None:
    """A worker process: a :class:`ParlorVectorEnv` of its slice, driven by ``conn``."""
    env = ParlorVectorEnv(env_id, count, **kwargs)
    try:
        while True:
            command, payload = conn.recv()
            if command == "step":
                conn.send(env.step(payload))
            elif command == "reset":
                conn.send(env.reset(seed=payload[0], options=payload[1]))
            else:
                break
    except (EOFError, KeyboardInterrupt):
        pass
    finally:
        conn.close()


class ParlorProcessVectorEnv(VectorEnv[Batch, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games split over ``workers`` processes (default: one per core), each stepping
    its slice as a :class:`ParlorVectorEnv`; the same batches, seeds and autoreset as that one, so
    a run gives the same trajectories whatever the number of workers. Close it when done."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        env_id: str | None = None,
        num_envs: int = 2,
        workers: int | None = None,
        context: str | None = None,
        **kwargs: Any,
    ) -> None:
        workers = min(num_envs, workers or mp.cpu_count())
        if workers < 1:
            raise ValueError("workers must be at least 1")
        kwargs = _env_kwargs(env_id, kwargs)
        probe = ParlorGymEnv(**kwargs)  # (fails here, not in a worker, on bad keywords)
        self.num_envs = num_envs
        self.single_observation_space = probe.observation_space
        self.single_action_space = probe.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.metadata = {**self.metadata, "autoreset_mode": AutoresetMode.NEXT_STEP}
        sizes = [num_envs // workers + (1 if w < num_envs % workers else 0) for w in range(workers)]
        self._bounds = np.cumsum([0, *sizes]).tolist()
        ctx: Any = mp.get_context(context)
        self._conns: list[Connection] = []
        self._procs: list[Any] = []
        for count in sizes:
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_worker, args=(child, None, count, kwargs), daemon=True)
            proc.start()
            child.close()
            self._conns.append(parent)
            self._procs.append(proc)

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Batch, dict[str, Any]]:
        seeds = _seeds(seed, self.num_envs)
        b = self._bounds
        for w, conn in enumerate(self._conns):
            conn.send(("reset", (seeds[b[w] : b[w + 1]], options)))
        parts = [conn.recv() for conn in self._conns]
        return _join([p[0] for p in parts]), dict(_join([p[1] for p in parts]))

    def step(self, actions: npt.ArrayLike) -> StepResult:
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise ValueError(f"one action per game: shape ({self.num_envs},), not {chosen.shape}")
        b = self._bounds
        for w, conn in enumerate(self._conns):
            conn.send(("step", chosen[b[w] : b[w + 1]]))
        parts = [conn.recv() for conn in self._conns]
        return (
            _join([p[0] for p in parts]),
            np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]),
            np.concatenate([p[3] for p in parts]),
            _join([p[4] for p in parts]),
        )

    def close_extras(self, **kwargs: Any) -> None:
        for conn in self._conns:
            with contextlib.suppress(BrokenPipeError, OSError):
                conn.send(("close", None))
            conn.close()
        for proc in self._procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
        self._conns, self._procs = [], []


def _join(parts: list[Any]) -> dict[str, npt.NDArray[Any]]:
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


__all__ = ["ParlorProcessVectorEnv", "ParlorVectorEnv"]

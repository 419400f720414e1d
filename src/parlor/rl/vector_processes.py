"""The multi-process batch (:class:`ParlorProcessVectorEnv`): ``num_envs`` games split over
worker processes, each stepping its slice as a :class:`parlor.rl.vector.ParlorVectorEnv` whose
batch arrays are its rows of shared memory."""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import pickle
from collections.abc import Sequence
from multiprocessing.connection import Connection
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from parlor.rl.gym_env import ParlorGymEnv
from parlor.rl.vector import Batch, ParlorVectorEnv, StepResult, _env_kwargs, _seeds


def _cores() -> int:
    """The cores this process may run on (``taskset`` and cgroups' pinning included)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # (no sched_getaffinity outside Linux)
        return mp.cpu_count()


class WorkerDiedError(RuntimeError):
    """A worker process of :class:`ParlorProcessVectorEnv` ended while the batch needed it
    (killed, out of memory...): ``worker`` its number, ``pid`` and ``exitcode`` (negative: the
    signal). The batch cannot go on without its games; close it."""

    def __init__(self, worker: int, pid: int | None, exitcode: int | None) -> None:
        how = "still running" if exitcode is None else f"exit code {exitcode}"
        super().__init__(
            f"worker {worker} of the process batch (pid {pid}) died ({how}): its games are lost; "
            "close this environment and make a new one"
        )
        self.worker, self.pid, self.exitcode = worker, pid, exitcode


#: The batch arrays the workers write into shared memory: name, dtype, width (None: one value
#: per game). The actions go the other way.
_SHARED = (
    ("observation", np.float32, "size"),
    ("action_mask", np.int8, "actions"),
    ("reward", np.float64, None),
    ("terminated", np.bool_, None),
    ("truncated", np.bool_, None),
    ("seat", np.int64, None),
    ("action", np.int64, None),
)


#: The pipes' protocol: every message starts with one byte written and read straight on the
#: pipe's descriptor (os.write, os.read: no framing, no pickling on the step path). To a worker:
#: step with the actions in shared memory, or a pickled command follows (framed by the
#: connection, which reads exactly its message, so the two mix on one pipe), or stop. Back: done,
#: or a pickled answer follows (an exception, or the ended games' infos).
_STEP, _PICKLED, _STOP, _DONE = b"s", b"p", b"q", b"k"


def _arrays(raws: dict[str, Any], n: int, widths: dict[str, int]) -> dict[str, npt.NDArray[Any]]:
    """NumPy views of the shared buffers (no copy)."""
    out = {}
    for name, dtype, width in _SHARED:
        shape = (n,) if width is None else (n, widths[width])
        out[name] = np.frombuffer(raws[name], dtype=dtype, count=int(np.prod(shape))).reshape(shape)
    return out


def _worker(
    conn: Connection,
    count: int,
    kwargs: dict[str, Any],
    raws: dict[str, Any],
    bounds: tuple[int, int, int],
    widths: dict[str, int],
    outcome_info: bool,
) -> None:
    """A worker process: a :class:`ParlorVectorEnv` of its slice of the games, whose batch arrays
    are its rows of the shared buffers; ``conn`` carries only commands and acknowledgements (and
    the ended games' infos, when asked)."""
    env = ParlorVectorEnv(None, count, outcome_info, **kwargs)
    total, lo, hi = bounds
    shared = {name: a[lo:hi] for name, a in _arrays(raws, total, widths).items()}
    actions = shared.pop("action")
    env._bind(shared)
    fd = conn.fileno()
    try:
        while True:
            tag = os.read(fd, 1)
            if tag == _STEP:
                command = "step"
            elif tag == _PICKLED:
                command, payload = pickle.loads(conn.recv_bytes())
            else:  # (the stop command, or the parent gone: end of file)
                break
            try:
                if tag == _STEP:
                    env._store(env._step_all(actions))
                elif command == "step":
                    env._store(env._step_all(np.asarray(payload)))
                elif command == "refuse":  # (raises what the step would, moving nothing)
                    env._refuse(payload, True)
                else:
                    env._reset_all(payload[0], payload[1])
            except Exception as exc:  # (raised again in the parent, as a single env would)
                os.write(fd, _PICKLED)
                conn.send_bytes(pickle.dumps(exc))
            else:
                outcomes = env.outcomes if command == "step" else []
                if outcomes:  # (outcome_info only: the games' numbers in the whole batch)
                    os.write(fd, _PICKLED)
                    conn.send_bytes(pickle.dumps([(lo + i, info) for i, info in outcomes]))
                else:
                    os.write(fd, _DONE)
                env.outcomes = []
                # While the parent reads the batch and picks the next actions (and the other
                # workers finish): the games that ended are restarted now, off the next step's
                # critical path, so that one worker's restarts do not hold up the whole batch.
                env.restart_ended()
    except (KeyboardInterrupt, OSError):  # (OSError: the parent's end reset, it is gone)
        pass
    finally:
        conn.close()


class ParlorProcessVectorEnv(VectorEnv[Batch, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games split over ``workers`` processes (default: one per core this process
    may use), each stepping its slice as a :class:`ParlorVectorEnv`; the same batches, seeds and
    autoreset as that one, so a run gives the same trajectories whatever the number of workers.
    The batches live in shared memory (the workers write their rows in place; the pipes carry a
    one-byte command and a one-byte acknowledgement, nothing is pickled per step). A worker that
    dies raises :class:`WorkerDiedError`. Close it when done.

    A step refused by a game (an id outside its mask, under ``illegal_action="raise"``) raises
    here as in the in-process form and changes nothing: the parent checks the ids against the
    shared masks first and, if one is refused, asks only its worker to raise the game's error.
    (Ids that are not integers go to the workers as they are, each refusing its own.)"""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        env_id: str | None = None,
        num_envs: int = 2,
        workers: int | None = None,
        context: str | None = None,
        outcome_info: bool = False,
        **kwargs: Any,
    ) -> None:
        self.outcomes: list[tuple[int, dict[str, Any]]] = []
        workers = min(num_envs, workers or _cores())
        if workers < 1:
            raise ValueError("workers must be at least 1")
        kwargs = _env_kwargs(env_id, kwargs)
        kwargs.pop("render_mode", None)
        probe = ParlorGymEnv(**kwargs)  # (fails here, not in a worker, on bad keywords)
        self._raises = probe.table.illegal_action == "raise"
        self.num_envs = num_envs
        self.single_observation_space = probe.observation_space
        self.single_action_space = probe.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.metadata = {**self.metadata, "autoreset_mode": AutoresetMode.NEXT_STEP}
        sizes = [num_envs // workers + (1 if w < num_envs % workers else 0) for w in range(workers)]
        self._bounds = np.cumsum([0, *sizes]).tolist()
        ctx: Any = mp.get_context(context)
        widths = {"size": probe.table.layout.size, "actions": probe.table.num_actions}
        raws = {}
        for name, dtype, width in _SHARED:
            count = num_envs * (1 if width is None else widths[width])
            raws[name] = ctx.RawArray("b", count * np.dtype(dtype).itemsize)
        self._shared = _arrays(raws, num_envs, widths)
        self._conns: list[Connection] = []
        self._procs: list[Any] = []
        self._dead: WorkerDiedError | None = None  # (every later command raises it again)
        b = self._bounds
        for w, count in enumerate(sizes):
            parent, child = ctx.Pipe()
            bounds = (num_envs, b[w], b[w + 1])
            proc = ctx.Process(
                target=_worker,
                args=(child, count, kwargs, raws, bounds, widths, outcome_info),
                daemon=True,
            )
            proc.start()
            child.close()
            self._conns.append(parent)
            self._procs.append(proc)
        self._fds = [conn.fileno() for conn in self._conns]

    def _command(self, messages: list[Any]) -> None:
        """Send each worker its message (``_STEP``: step with the actions in shared memory; else
        a command, pickled) and wait for every acknowledgement: done, or pickled, an exception
        (raised here) or the ended games' infos (kept in ``outcomes``)."""
        if self._dead is not None:
            raise self._dead
        w = 0  # (the worker being talked to, for the error)
        fds = self._fds
        try:
            for conn, message in zip(self._conns, messages, strict=True):
                if message is _STEP:
                    os.write(fds[w], _STEP)
                elif message is not None:  # (None: nothing for this worker)
                    os.write(fds[w], _PICKLED)
                    conn.send_bytes(pickle.dumps(message))
                w += 1
            w, answers = 0, []
            for conn, message in zip(self._conns, messages, strict=True):
                if message is None:
                    w += 1
                    continue
                tag = os.read(fds[w], 1)
                if tag == _PICKLED:
                    answers.append(conn.recv_bytes())
                elif tag != _DONE:
                    raise EOFError  # (end of file: the worker is gone)
                w += 1
        except (EOFError, OSError) as exc:  # (a broken pipe, a reset connection: a dead worker)
            proc = self._procs[w]
            proc.join(timeout=1)  # (its exit code, once the system has it)
            self._dead = WorkerDiedError(w, proc.pid, proc.exitcode)
            raise self._dead from exc
        self.outcomes = []
        for answer in answers:
            found = pickle.loads(answer)
            if isinstance(found, BaseException):
                raise found
            self.outcomes += found

    def _batch(self) -> tuple[Batch, dict[str, Any]]:
        # Copies: the workers write the shared arrays again at the next step.
        a = self._shared
        obs = {"observation": a["observation"].copy(), "action_mask": a["action_mask"].copy()}
        return obs, {"seat": a["seat"].copy()}

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Batch, dict[str, Any]]:
        seeds = _seeds(seed, self.num_envs)
        b = self._bounds
        self._command(
            [("reset", (seeds[b[w] : b[w + 1]], options)) for w in range(len(self._conns))]
        )
        return self._batch()

    def step(self, actions: npt.ArrayLike) -> StepResult:
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise ValueError(f"one action per game: shape ({self.num_envs},), not {chosen.shape}")
        a = self._shared
        if chosen.dtype.kind in "iu":
            if self._raises and not self._allowed(chosen):
                self._refuse(chosen.tolist())
            a["action"][:] = chosen
            self._command([_STEP] * len(self._conns))
        else:  # (not ids: sent as they are, for the games to refuse as a single one does)
            ids, b = chosen.tolist(), self._bounds
            self._command([("step", ids[b[w] : b[w + 1]]) for w in range(len(self._conns))])
        obs, infos = self._batch()
        for i, info in self.outcomes:
            infos = self._add_info(infos, info, i)
        return (
            obs,
            a["reward"].copy(),
            a["terminated"].copy(),
            a["truncated"].copy(),
            infos,
        )

    def _allowed(self, chosen: npt.NDArray[Any], lo: int = 0) -> bool:
        """Every id, for the games from ``lo`` on, is among its game's mask's ones, or its game
        ended at the last step (its action ignored): a few NumPy calls on the shared batch,
        no round trip."""
        a, hi = self._shared, lo + len(chosen)
        masks = a["action_mask"]
        inside = (chosen >= 0) & (chosen < masks.shape[1])
        picked = masks[np.arange(lo, hi), np.where(inside, chosen, 0)] == 1
        ended = a["terminated"][lo:hi] | a["truncated"][lo:hi]
        return bool((inside & picked | ended).all())

    def _refuse(self, ids: list[int]) -> None:
        """Have the worker of the first game whose id is not allowed raise what its game
        raises, before any worker moves (so a refused step changes nothing, as in the
        in-process form)."""
        b, workers = self._bounds, len(self._conns)
        allowed = [
            self._allowed(np.asarray(ids[b[w] : b[w + 1]], dtype=np.int64), b[w])
            for w in range(workers)
        ]
        w = allowed.index(False)
        self._command(
            [("refuse", ids[b[w] : b[w + 1]]) if k == w else None for k in range(workers)]
        )

    def __enter__(self) -> ParlorProcessVectorEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        # (a forgotten close: the workers are stopped when the environment is collected)
        if not getattr(self, "closed", True):
            self.close()

    def close_extras(self, **kwargs: Any) -> None:
        for conn in getattr(self, "_conns", []):  # (none if __init__ failed)
            with contextlib.suppress(OSError):  # (a worker already gone)
                os.write(conn.fileno(), _STOP)
            conn.close()
        for proc in getattr(self, "_procs", []):
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
                proc.join(timeout=5)
        self._conns, self._procs = [], []


__all__ = ["ParlorProcessVectorEnv", "WorkerDiedError"]

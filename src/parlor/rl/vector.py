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

import operator
from collections.abc import Callable, Sequence
from operator import add
from struct import pack
from typing import Any, ClassVar, SupportsIndex, cast

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from parlor.rl.gym_env import ENV_IDS, ParlorGymEnv
from parlor.rl.table import action_index

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


#: Legal-id lists longer than this have their masks' ones set in one NumPy call for the batch
#: (a handful are quicker item by item).
_FEW_IDS = 12
#: Masks at most this wide are zeroed at once at every step rather than row by row as their
#: games' legal ids change (TOOLS' 52 ids: the comparisons cost more than they save).
_NARROW = 256


class ParlorVectorEnv(VectorEnv[Batch, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` :class:`ParlorGymEnv` games in this process, stepped in one call: ``env_id``
    a registered id (or None), the other keywords those of :class:`ParlorGymEnv`.

    ``info`` has the learners' ``seat``; with ``outcome_info=True`` the step that ends a game
    also reports what a single environment's info says then (``winners`` and ``reason``, or
    ``leaders`` when cut at the cap, ``illegal_action``), in Gymnasium's vector layout (each key
    with its ``_key`` mask). The masks are in the observation.

    What it saves over ``SyncVectorEnv``: no wrapper layers per game, the batch's ids checked
    against the legal ids at once and the allowed ones played without a second check, the
    observations and masks written straight into preallocated batch arrays, and no observation
    or info dict per game. A step with an id that a game refuses by raising changes nothing: the
    refusal is found before any game moves."""

    # A class variable, read on the class as Gymnasium's own: compiled (setup.py), an instance
    # attribute would leave a descriptor in its place (VectorEnv declares it an instance's,
    # hence the ignore).
    metadata: ClassVar[dict[str, Any]] = {  # type: ignore[misc]
        "autoreset_mode": AutoresetMode.NEXT_STEP
    }

    def __init__(
        self,
        env_id: str | None = None,
        num_envs: SupportsIndex = 1,
        outcome_info: object = False,
        **kwargs: Any,
    ) -> None:
        # (any integer, a NumPy one too, and any truth value: compiled (setup.py), an int and a
        # bool in the signature would be checked as exactly those at the call)
        num_envs = operator.index(num_envs)
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        self.outcome_info = bool(outcome_info)
        #: The last step's ended games' infos, when ``outcome_info``: (game, info) pairs.
        self.outcomes: list[tuple[int, dict[str, Any]]] = []
        kwargs = _env_kwargs(env_id, kwargs)
        kwargs.pop("render_mode", None)
        self.envs = [ParlorGymEnv(**kwargs) for _ in range(num_envs)]
        self.num_envs = num_envs
        first = self.envs[0]
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        size, actions = first.table.layout.size, first.table.num_actions
        self._bind(
            {
                "observation": np.zeros((num_envs, size), dtype=np.float32),
                "action_mask": np.zeros((num_envs, actions), dtype=np.int8),
                "reward": np.zeros(num_envs, dtype=np.float64),
                "terminated": np.zeros(num_envs, dtype=np.bool_),
                "truncated": np.zeros(num_envs, dtype=np.bool_),
                "seat": np.zeros(num_envs, dtype=np.int64),
            }
        )
        self._ended = [False] * num_envs  # reset at the next step
        # The ended games restarted ahead of that step (see ``restart_ended``), with their
        # generators' states before it.
        self._restarted: dict[int, Any] = {}
        # (``self._legal``, each game's legal ids now, the mask's ones: set by ``_bind``; a
        # batch's ids are checked against them without NumPy calls.)
        # The games' tables (each keeps its own for good) and the learners' seats (a new one
        # with each new game).
        self._tables = [env.table for env in self.envs]
        # Each game's observation, brought up to date (the encoder's own vector, copied below).
        self._encoders: list[Callable[[Any, int], npt.NDArray[np.float32]]] = [
            t.encoder.update for t in self._tables
        ]
        self._seat_list = [0] * num_envs
        # The learners' moves and the bots' replies in one table call, unless forced moves are
        # played for the learners too (``skip_forced``: ``advance_legal``).
        self._replies = not first.skip_forced
        # The engine's listing of a seat's legal ids, for the steps after which every learner
        # decides: ``Table.decision_ids``'s answer then (None: options narrow the ids, so the
        # table is asked). The game's class is the spec's for good.
        game_type: Any = type(first.table.game)
        table0 = first.table
        self._lister: Callable[[Any, int], list[int]] | None = (
            game_type.legal_action_ids
            if not table0.seats_leave
            else game_type.legal_id_list
            if table0.trade_offers and table0.liquidate == "any_time"
            else None
        )
        self._any_ended = False  # (at the last step)
        self._no_ends = np.zeros(num_envs, dtype=np.bool_)

    def _bind(self, arrays: dict[str, npt.NDArray[Any]]) -> None:
        """Use ``arrays`` (C-contiguous; a worker's rows of the shared memory) as the batch."""
        self._obs, self._masks = arrays["observation"], arrays["action_mask"]
        self._rewards, self._seats = arrays["reward"], arrays["seat"]
        self._terminations, self._truncations = arrays["terminated"], arrays["truncated"]
        # Flat views: the observations' bytes copied in at once, the mask's ones item by item.
        self._obs_bytes = memoryview(cast(Any, self._obs.reshape(-1))).cast("B")
        self._flat_masks = memoryview(cast(Any, self._masks.reshape(-1)))  # (typeshed)
        self._width = self._masks.shape[1]
        # Each game's legal ids, whose ones its mask row holds (none yet: the rows zeroed).
        self._masks.fill(0)
        self._legal: list[list[int]] = [[] for _ in range(len(self._masks))]
        self._zero_row = memoryview(cast(Any, np.zeros(self._width, dtype=np.int8)))
        self._flat_array = self._masks.reshape(-1)
        # Each game's first place in the flat masks.
        self._bases = np.arange(len(self._masks), dtype=np.intp) * self._width
        self._row_starts = self._bases.tolist()

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
        self._reset_all(_seeds(seed, self.num_envs), options)
        return self._batch()

    def _reset_all(self, seeds: list[int | None], options: dict[str, Any] | None) -> None:
        """Reset every game, filling the batch arrays."""
        self._store(self._step_all(None, seeds, options))

    def step(self, actions: npt.ArrayLike) -> StepResult:
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise ValueError(f"one action per game: shape ({self.num_envs},), not {chosen.shape}")
        rewards, terminations, truncations = self._step_all(chosen)
        obs_batch, infos = self._batch()
        for i, info in self.outcomes:
            infos = self._add_info(infos, info, i)
        # New arrays straight from the lists (the caller keeps them): no batch arrays to fill
        # and copy, and nothing to convert at most steps, where no game ends.
        if self._any_ended:
            terms, truncs = (
                np.array(terminations, dtype=np.bool_),
                np.array(truncations, dtype=np.bool_),
            )
        else:
            terms, truncs = np.zeros(self.num_envs, dtype=np.bool_), self._no_ends.copy()
        return obs_batch, np.array(rewards, dtype=np.float64), terms, truncs, infos

    def _step_all(
        self,
        chosen: npt.NDArray[Any] | None,
        seeds: list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[list[float], list[bool], list[bool]]:
        """Step (or restart) every game, then write the observations, masks and seats into the
        batch arrays; with ``seeds`` (``chosen`` None), reset them all. The rewards,
        terminations and truncations, as lists (see ``_store``)."""
        n = self.num_envs
        if chosen is None:
            ids: list[Any] = [None] * n
            ints = False
        else:
            ids = chosen.tolist()
            # Integer ids only take the quick path (a float's 1.0 would be found among the ints).
            ints = chosen.dtype.kind in "iu"
        ended, legal, restarted = self._ended, self._legal, self._restarted
        # All or nothing: an id that a game refuses by raising is found before any game moves
        # (one C-level pass when every id is allowed, the common case: then no game ended at
        # the last step, since an ended game has no legal id, and each is played as allowed).
        if not ints:
            playable = False
        elif self._width > _NARROW:
            # (each id looked up in its game's mask row, which holds exactly its legal ids:
            # quicker than searching a long list of ids; in range first, as a negative index
            # would wrap)
            playable = (
                min(ids) >= 0
                and max(ids) < self._width
                and all(map(self._flat_masks.__getitem__, map(add, self._row_starts, ids)))
            )
        else:  # (a few ids a game: the lists searched are quicker)
            playable = all(map(list.__contains__, legal, ids))
        if chosen is not None and not playable:
            self._refuse(ids, ints)
        rewards, terminations, truncations = [0.0] * n, [False] * n, [False] * n
        seats, tables = self._seat_list, self._tables
        # Whether every game is at its learner's decision after this step (then the legal ids
        # are asked of the engine without the table's checks).
        deciding = False
        if playable and self._replies:  # (the common case: every game plays its allowed id)
            envs, deciding = self.envs, True
            for i, table in enumerate(tables):
                rewards[i], back = table.act_and_reply(seats[i], ids[i], envs[i].bots)
                if not back:
                    terminations[i], truncations[i] = envs[i].ending()
                    deciding = False
        elif playable:  # (skip_forced: the learner's forced moves played too)
            for i, env in enumerate(self.envs):
                rewards[i], terminations[i], truncations[i] = env.advance_legal(ids[i])
        else:
            new_games = False
            for i, env in enumerate(self.envs):
                if seeds is not None:
                    state = restarted.pop(i, None)
                    if state is not None:  # (undo a restart ahead: an unseeded reset draws here)
                        env.np_random.bit_generator.state = state
                    env.restart(seed=seeds[i], options=options)
                    seats[i], new_games = env.seat, True  # (a seat changes only with a new game)
                elif ended[i]:
                    # (reward 0, not ended: the new game's first observation)
                    if restarted.pop(i, None) is None:
                        env.restart()
                    seats[i], new_games = env.seat, True
                elif ints and ids[i] in legal[i]:
                    rewards[i], terminations[i], truncations[i] = env.advance_legal(ids[i])
                else:  # (refused or penalized as the single environment does)
                    rewards[i], terminations[i], truncations[i] = env.advance(ids[i])
            if new_games:
                self._seats[:] = seats
        # The observations, then the legal ids, each in a pass of its own over the batch: one
        # part's code at a time (the engine and bots', the encoder's, the legality's) keeps
        # the interpreter's working set small, which is worth more than the passes cost (a
        # single pass over the games made 5% fewer instructions and 24% more L1 data misses
        # in the interpreter, and was slower).
        # (the encoders' float32 vectors joined as bytes: a third of np.concatenate's time for
        # rows this short; a length that differs from the batch's would raise)
        vectors = [
            update(t.game, s) for update, t, s in zip(self._encoders, tables, seats, strict=True)
        ]
        self._obs_bytes[:] = b"".join(cast(Any, vectors))  # (typeshed: arrays are buffers)
        self._write_masks(self._lister if deciding else None)
        self._any_ended = True in terminations or True in truncations
        if self._any_ended:
            self._ended = ended = [t or u for t, u in zip(terminations, truncations, strict=True)]
            if self.outcome_info:
                envs = self.envs
                self.outcomes = [(i, envs[i].outcome_info()) for i in range(n) if ended[i]]
        else:
            self._ended = [False] * n
            self.outcomes = []
        return rewards, terminations, truncations

    def _refuse(self, ids: list[Any], ints: bool) -> None:
        """Raise what the first game in the batch that refuses its id by raising (an id outside
        its mask, or no id, under ``illegal_action="raise"``) raises, before any game moves, so
        that a refused batch step changes nothing (tests/rl/test_vector.py checks it)."""
        for i, env in enumerate(self.envs):
            if self._ended[i] or (ints and ids[i] in self._legal[i]):
                continue
            table = env.table
            if table.illegal_action == "raise" and action_index(ids[i]) not in self._legal[i]:
                table.act_id(env.seat, ids[i])  # (raises, changing nothing)

    def _store(self, results: tuple[list[float], list[bool], list[bool]]) -> None:
        """Write a step's rewards, terminations and truncations into the batch arrays (a
        worker's rows of the shared memory)."""
        self._rewards[:], self._terminations[:], self._truncations[:] = results

    def _write_masks(self, lister: Callable[[Any, int], list[int]] | None) -> None:
        """Ask every game's legal ids (of the engine by ``lister`` when every learner is known
        to decide, else of the table) and set the masks' ones."""
        tables, seats, legal = self._tables, self._seat_list, self._legal
        flat, width, zeros = self._flat_masks, self._width, self._zero_row
        # The long lists of legal ids (the property games' trade offers: 67 ids a step on
        # average, up to 200) set in one NumPy call for the batch; a few ids, item by item.
        games: list[int] = []
        counts: list[int] = []
        cols: list[int] = []
        # A wide mask row is its game's last legal ids' until they change: the same list again
        # (nearly half the classic game's steps) leaves it as it is. Narrow rows (TOOLS) are
        # all zeroed at once and written again.
        keep = width > _NARROW
        if not keep:
            self._masks.fill(0)
        for i, table in enumerate(tables):
            # (a set, unsorted; the engine's own list when the learner is known to decide)
            if lister is None:
                allowed = table.decision_ids(seats[i], False)
            else:
                allowed = lister(table.game, seats[i])
            base = i * width
            if keep:
                if allowed == legal[i]:
                    continue
                flat[base : base + width] = zeros
            legal[i] = allowed
            if len(allowed) > _FEW_IDS:
                games.append(i)
                counts.append(len(allowed))
                cols += allowed
            else:
                for a in allowed:
                    flat[base + a] = 1
        if cols:
            self._set_ones(games, counts, cols)

    def _set_ones(self, games: list[int], counts: list[int], cols: list[int]) -> None:
        """Set the masks' ones of ``games``, whose ``counts`` legal ids are ``cols`` one list
        after the other."""
        # (every game's, the property games' common case, without picking their places)
        bases = self._bases if len(games) == self.num_envs else self._bases[games]
        index = bases.repeat(counts)  # (the method: np.repeat is a Python wrapper around it)
        # (packed by struct as the index's own type and added in place: twice as quick as
        # np.fromiter, itself about 40% quicker than np.array, on a list of some 600 ints;
        # 16-bit ids took a cast in the addition)
        index += np.frombuffer(pack(f"{len(cols)}n", *cols), dtype=np.intp)
        self._flat_array[index] = 1

    def restart_ended(self) -> None:
        """Restart now the games that ended at the last step, rather than at the next one (a
        worker process does it while it waits for the next actions): the same draws from the
        same generators, so the same games; undone by a ``reset`` before that step."""
        restarted = self._restarted
        for i, env in enumerate(self.envs):
            if self._ended[i] and i not in restarted:
                restarted[i] = env.np_random.bit_generator.state
                env.restart()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Every game's legal ids as booleans (N, actions)."""
        return self._masks.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        self.envs = []


__all__ = ["ParlorVectorEnv"]

"""The batched environments (issue 21): the same trajectories as Gymnasium's SyncVectorEnv over
the same single environments and seeds, autoreset on the next step, and the multi-process form
equal to the in-process one."""

from __future__ import annotations

import gc
import multiprocessing as mp
import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
import pytest

import parlor.rl  # noqa: F401  (registers the ids)
from parlor.bots.base import RandomBot
from parlor.rl.gym_env import make_spec
from parlor.rl.table import IllegalActionError, Table
from parlor.rl.vector import ParlorVectorEnv
from parlor.rl.vector_processes import ParlorProcessVectorEnv, WorkerDiedError


def random_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


def step_both(
    ours: gym.vector.VectorEnv, twin: gym.vector.VectorEnv, actions: np.ndarray
) -> dict[str, np.ndarray]:
    """Step both batches with ``actions``; their observations, rewards and ends are equal."""
    obs, *rest = ours.step(actions)
    obs_twin, *rest_twin = twin.step(actions)
    for key in obs:
        assert np.array_equal(obs[key], obs_twin[key])
    for x, y in zip(rest[:3], rest_twin[:3], strict=True):
        assert np.array_equal(x, y)
    return obs


def run(envs: gym.vector.VectorEnv, steps: int, seed: int) -> list[tuple[Any, ...]]:
    rng = np.random.default_rng(seed)
    obs, _ = envs.reset(seed=seed)
    out: list[tuple[Any, ...]] = [(obs["observation"].copy(), obs["action_mask"].copy())]
    for _ in range(steps):
        obs, rewards, terms, truncs, _ = envs.step(random_actions(rng, obs["action_mask"]))
        out.append((obs["observation"].copy(), obs["action_mask"].copy(), rewards, terms, truncs))
    return out


@pytest.mark.parametrize(
    "env_id, kwargs, steps",
    [
        ("parlor/Tools-v0", {}, 300),
        ("parlor/Tools-v0", {"players": 3, "opponents": "heuristic", "reward": "shaped"}, 150),
        ("parlor/Classic-v0", {"max_steps": 120, "reward": "margin"}, 150),
        ("parlor/Classic-v0", {"max_steps": 80, "skip_forced": True}, 120),
        ("parlor/Tools-v0", {"skip_forced": True, "max_steps": 40}, 150),
        # (the cap under "win_loss" rewards: the batch's own test of the moves that pay nobody)
        ("parlor/Tools-v0", {"max_steps": 30}, 150),
        ("parlor/Tools-v0", {"max_steps": 30, "truncation_reward": "valuation"}, 150),
    ],
)
def test_the_batch_plays_what_sync_vector_env_plays(
    env_id: str, kwargs: dict[str, Any], steps: int
) -> None:
    ours = ParlorVectorEnv(env_id, 4, **kwargs)
    theirs = gym.make_vec(env_id, num_envs=4, vectorization_mode="sync", **kwargs)
    a, b = run(ours, steps, seed=7), run(theirs, steps, seed=7)
    ends = 0
    for mine, sync in zip(a, b, strict=True):
        for x, y in zip(mine, sync, strict=True):
            assert x.dtype == y.dtype and np.array_equal(x, y)
        if len(mine) > 2:
            ends += int(mine[3].sum() + mine[4].sum())
    assert ends >= 2  # episodes ended and were reset on the way (autoreset compared too)
    theirs.close()


def test_autoreset_on_the_next_step() -> None:
    envs = ParlorVectorEnv("parlor/Tools-v0", 2)
    rng = np.random.default_rng(1)
    obs, _ = envs.reset(seed=3)
    for _ in range(2000):
        obs, rewards, terms, truncs, _ = envs.step(random_actions(rng, obs["action_mask"]))
        if terms[0]:
            break
    assert terms[0] and rewards[0] in (-1.0, 1.0, 0.0)
    game = envs.envs[0].game
    assert game.is_over
    # The next step ignores game 0's action: a fresh game, reward 0, nothing ended.
    obs, rewards, terms, truncs, _ = envs.step(
        np.array([10_000, random_actions(rng, obs["action_mask"])[1]])
    )
    assert envs.envs[0].game is not game and not envs.envs[0].game.is_over
    assert rewards[0] == 0.0 and not terms[0] and not truncs[0] and obs["action_mask"][0].any()


def test_make_vec_entry_point_and_gymnasium_checks() -> None:
    envs = gym.make_vec("parlor/Tools-v0", num_envs=3, vectorization_mode="vector_entry_point")
    assert isinstance(envs.unwrapped, ParlorVectorEnv) and envs.num_envs == 3
    obs, info = envs.reset(seed=0)
    assert obs in envs.observation_space and info["seat"].shape == (3,)
    assert envs.single_observation_space == gym.make("parlor/Tools-v0").observation_space
    with pytest.raises(ValueError):
        envs.step(np.zeros(2, dtype=np.int64))
    envs.close()


def test_the_batch_class_takes_what_plain_python_takes() -> None:
    # Compiled (setup.py), the batch is a native class: Gymnasium's metadata is still read on the
    # class, and the constructor takes a NumPy integer and any truth value, as plain Python does.
    assert ParlorVectorEnv.metadata == {"autoreset_mode": gym.vector.AutoresetMode.NEXT_STEP}
    envs = ParlorVectorEnv("parlor/Tools-v0", np.int64(2), outcome_info=1)
    assert envs.num_envs == 2 and envs.outcome_info is True
    assert envs.metadata is ParlorVectorEnv.metadata
    with pytest.raises(TypeError):
        ParlorVectorEnv("parlor/Tools-v0", 2.0)


def test_the_process_form_plays_the_same_games() -> None:
    single = ParlorVectorEnv("parlor/Tools-v0", 5)
    procs = ParlorProcessVectorEnv("parlor/Tools-v0", 5, workers=2)
    try:
        a, b = run(single, 120, seed=11), run(procs, 120, seed=11)
    finally:
        procs.close()
    for mine, theirs in zip(a, b, strict=True):
        for x, y in zip(mine, theirs, strict=True):
            assert np.array_equal(x, y)


def test_the_process_form_raises_what_a_game_refuses() -> None:
    """The batches come through shared memory and the pipes carry only commands: a refusal in a
    worker (an id outside the mask, a float) is raised in the parent as the in-process form
    raises it."""
    procs = ParlorProcessVectorEnv("parlor/Tools-v0", 2, workers=2)
    try:
        obs, _ = procs.reset(seed=0)
        illegal = np.array([int(np.flatnonzero(m == 0)[0]) for m in obs["action_mask"]])
        with pytest.raises(IllegalActionError, match="not legal"):
            procs.step(illegal)
        with pytest.raises(IllegalActionError, match="not legal"):
            procs.step(np.array([0.5, 1.5]))
    finally:
        procs.close()


def test_a_refused_step_of_the_process_form_changes_nothing() -> None:
    """One id outside its mask, in the second worker's games: the step raises before any
    worker moves (the first worker's games included), and the batch plays on as the in-process
    batch that never saw that step."""
    procs = ParlorProcessVectorEnv("parlor/Tools-v0", 4, workers=2)
    twin = ParlorVectorEnv("parlor/Tools-v0", 4)
    try:
        rng = np.random.default_rng(4)
        obs, _ = procs.reset(seed=4)
        twin.reset(seed=4)
        refused = 0
        for t in range(100):
            actions = random_actions(rng, obs["action_mask"])
            if t % 9 == 4:
                bad = actions.copy()
                bad[3] = int(np.flatnonzero(obs["action_mask"][3] == 0)[0])
                with pytest.raises(IllegalActionError, match="not legal"):
                    procs.step(bad)
                refused += 1
            obs = step_both(procs, twin, actions)
        assert refused > 10
    finally:
        procs.close()


def test_a_refused_batch_step_changes_nothing() -> None:
    """An id outside its game's mask (illegal_action="raise") is refused before any game of the
    batch moves, the games before it included: the batch then plays on as a twin batch that
    never saw the refused step."""
    ours, twin = ParlorVectorEnv("parlor/Tools-v0", 4), ParlorVectorEnv("parlor/Tools-v0", 4)
    rng = np.random.default_rng(2)
    obs, _ = ours.reset(seed=2)
    twin.reset(seed=2)
    refused = 0
    for t in range(120):
        actions = random_actions(rng, obs["action_mask"])
        if t % 9 == 4:
            bad = actions.copy()
            bad[3] = int(np.flatnonzero(obs["action_mask"][3] == 0)[0])
            logs = [len(env.game.log) for env in ours.envs]
            with pytest.raises(IllegalActionError, match="not legal"):
                ours.step(bad)
            with pytest.raises(IllegalActionError, match="not legal"):
                ours.step(actions.astype(np.float64))  # (no ids at all)
            assert [len(env.game.log) for env in ours.envs] == logs
            refused += 1
        obs = step_both(ours, twin, actions)
    assert refused > 10


def penalized_twins(
    env_id: str, n: int, seed: int, steps: int, spoil: Callable[[int, npt.NDArray[Any]], int | None]
) -> int:
    """Play ``steps`` batch steps of random legal ids in a ``ParlorVectorEnv`` and in
    ``SyncVectorEnv`` (illegal ids penalized), game ``t % n``'s id replaced by ``spoil(t,
    its mask)`` when that is not None; assert both gave the same batches; the penalties met."""
    kwargs: dict[str, Any] = {"illegal_action": "penalize", "illegal_penalty": -2.0}
    ours = ParlorVectorEnv(env_id, n, **kwargs)
    theirs = gym.make_vec(env_id, num_envs=n, vectorization_mode="sync", **kwargs)
    results = []
    for envs in (ours, theirs):
        rng = np.random.default_rng(seed)
        obs, _ = envs.reset(seed=seed)
        out = []
        for t in range(steps):
            actions = random_actions(rng, obs["action_mask"])
            bad = spoil(t, obs["action_mask"][t % n])
            if bad is not None:
                actions[t % n] = bad
            obs, rewards, terms, truncs, _ = envs.step(actions)
            out.append(
                (obs["observation"].copy(), obs["action_mask"].copy(), rewards, terms, truncs)
            )
        results.append(out)
    theirs.close()
    penalties = 0
    for mine, sync in zip(*results, strict=True):
        for x, y in zip(mine, sync, strict=True):
            assert np.array_equal(x, y)
        penalties += int((mine[2] == -2.0).sum())
    return penalties


def test_ids_outside_the_mask_take_the_single_environments_path() -> None:
    """The batch checks its ids against the masks at once and plays the allowed ones without a
    second check; the others (ids outside the mask, penalized here) go through the single
    environment's own refusal, so the batch still plays what SyncVectorEnv plays."""

    def spoil(t: int, mask: npt.NDArray[Any]) -> int | None:
        # (one game in the batch picks an id its mask refuses)
        return int(np.flatnonzero(mask == 0)[0]) if t % 7 == 3 else None

    assert penalized_twins("parlor/Tools-v0", 4, 5, 200, spoil) >= 10


def test_wide_masks_check_ids_in_their_rows_and_refuse_ids_out_of_range() -> None:
    """A classic batch (masks wider than TOOLS') checks its ids by looking each up in its
    game's mask row: ids out of the row's range (-1, the width, a huge one) and ids the mask
    refuses are penalized as SyncVectorEnv's games penalize them, never read from another
    game's row."""
    width = ParlorVectorEnv("parlor/Classic-v0", 1).single_action_space.n

    def spoil(t: int, mask: npt.NDArray[Any]) -> int | None:
        # (one game picks an id outside its mask, or outside any row)
        if t % 5 != 2:
            return None
        return (-1, width, 2**40, int(np.flatnonzero(mask == 0)[0]))[t // 5 % 4]

    assert penalized_twins("parlor/Classic-v0", 3, 8, 160, spoil) >= 20


def test_the_process_form_restarts_ended_games_as_the_batch_does() -> None:
    """The workers restart the games that ended while the parent picks the next actions; the
    batches stay those of the in-process form, autoreset step included, and a reset without a
    seed right after an end (which undoes the early restarts) draws the same new games."""
    rng = {name: np.random.default_rng(2) for name in ("single", "procs")}
    single = ParlorVectorEnv("parlor/Tools-v0", 3)
    with ParlorProcessVectorEnv("parlor/Tools-v0", 3, workers=2) as procs:
        envs = {"single": single, "procs": procs}
        obs = {name: e.reset(seed=4)[0] for name, e in envs.items()}
        ends = resets_after_end = 0
        for t in range(400):
            out = {}
            for name, e in envs.items():
                out[name] = e.step(random_actions(rng[name], obs[name]["action_mask"]))
                obs[name] = out[name][0]
            for x, y in zip(out["single"][:4], out["procs"][:4], strict=True):
                if isinstance(x, dict):
                    assert all(np.array_equal(x[k], y[k]) for k in x)
                else:
                    assert np.array_equal(x, y)
            ended = out["single"][2] | out["single"][3]
            ends += int(ended.sum())
            if ended.any() and t % 3 == 0:  # the early restarts undone, the generators drawn
                a, b = single.reset()[0], procs.reset()[0]
                assert all(np.array_equal(a[k], b[k]) for k in a)
                obs = {"single": a, "procs": b}
                resets_after_end += 1
        assert ends >= 10 and resets_after_end >= 2


def test_the_process_form_closes_cleanly() -> None:
    """close() stops every worker (none left alive, none a zombie) and leaves no shared-memory
    file behind; a second close does nothing; an environment collected unclosed stops its
    workers too."""
    shm = Path("/dev/shm")
    before = set(shm.iterdir()) if shm.is_dir() else set()
    procs = ParlorProcessVectorEnv("parlor/Tools-v0", 4, workers=2)
    workers = list(procs._procs)
    procs.reset(seed=0)
    assert all(p.is_alive() for p in workers)
    procs.close()
    procs.close()
    assert all(p.exitcode == 0 for p in workers)  # (exited by themselves: the close command)
    assert not mp.active_children()
    after = set(shm.iterdir()) if shm.is_dir() else set()
    assert after <= before
    forgotten = ParlorProcessVectorEnv("parlor/Tools-v0", 2, workers=2)
    workers = list(forgotten._procs)
    del forgotten
    gc.collect()
    assert all(p.exitcode == 0 for p in workers)


@pytest.mark.parametrize(
    "seed, table_options",
    [
        # A seat goes bankrupt at step 7,640, the game ends at 9,596 (seed 1 stopped ending within
        # the cap when purchases got 25 prices: the random bots trade differently).
        (2, {"max_steps": 20_000}),
        (0, {"max_steps": 300, "truncation_reward": "valuation"}),  # cut at the cap, then paid
    ],
)
def test_act_for_pays_what_act_pays(seed: int, table_options: dict[str, Any]) -> None:
    """The batch's bots' moves go through Table.act_for, which skips working out every seat's
    reward on the win_loss steps that pay nobody: over a whole classic game (a bankruptcy, the
    end) or a game cut at the cap, it pays the learner what act pays and settles the same seats."""
    tables = [Table(make_spec("classic", 4), **table_options) for _ in range(2)]
    bots = [[RandomBot(seed * 10 + p) for p in range(4)] for _ in range(2)]
    for table in tables:
        table.reset(seed)
    paid, outs = 0.0, 0
    while not tables[0].over:
        decider = tables[0].decider
        assert decider is not None and tables[1].decider == decider
        # The batch's legal ids, straight from the engine, are the table's (none for the others).
        assert tables[1].decision_ids(decider) == tables[0].legal_ids(decider)
        assert tables[1].decision_ids((decider + 1) % 4) == []
        full = tables[0].act(decider, bots[0][decider].choose(tables[0].game, decider))
        mine = tables[1].act_for(decider, bots[1][decider].choose(tables[1].game, decider), 0)
        assert mine == full[0]
        paid += abs(mine)
        assert tables[0].settled == tables[1].settled and tables[0].in_play == tables[1].in_play
        outs = max(outs, sum(tables[0].out(p) for p in range(4)))
    assert tables[1].over and tables[0].truncated == tables[1].truncated
    assert all(tables[1].decision_ids(p) == [] for p in range(4))
    assert paid > 0 and (outs > 0 or tables[0].truncated)


def test_outcome_info_reports_what_the_single_environments_info_says() -> None:
    """With outcome_info=True the step that ends a game carries its winners and reason (or the
    leaders when cut at the cap, or illegal_action) as SyncVectorEnv's infos do, in both forms."""
    kwargs: dict[str, Any] = {"max_steps": 30, "illegal_action": "penalize"}
    theirs = gym.make_vec("parlor/Tools-v0", num_envs=4, vectorization_mode="sync", **kwargs)
    ours = ParlorVectorEnv("parlor/Tools-v0", 4, outcome_info=True, **kwargs)
    procs = ParlorProcessVectorEnv("parlor/Tools-v0", 4, workers=2, outcome_info=True, **kwargs)
    keys = ("winners", "reason", "leaders", "illegal_action")
    seen: set[str] = set()
    try:
        rng = {name: np.random.default_rng(9) for name in ("sync", "ours", "procs")}
        envs = {"sync": theirs, "ours": ours, "procs": procs}
        obs = {name: e.reset(seed=9)[0] for name, e in envs.items()}
        for t in range(150):
            infos = {}
            for name, e in envs.items():
                actions = random_actions(rng[name], obs[name]["action_mask"])
                if t % 11 == 5:  # an id outside the mask now and then: penalized, the game ends
                    actions[1] = int(np.flatnonzero(obs[name]["action_mask"][1] == 0)[0])
                obs[name], _, _, _, infos[name] = e.step(actions)
            for key in keys:
                if key in infos["sync"]:
                    seen.add(key)
                    mask = infos["sync"]["_" + key]
                    for name in ("ours", "procs"):
                        assert np.array_equal(infos[name]["_" + key], mask)
                        assert list(infos[name][key][mask]) == list(infos["sync"][key][mask])
                else:
                    assert key not in infos["ours"] and key not in infos["procs"]
    finally:
        procs.close()
        theirs.close()
    assert seen == set(keys)


def test_a_dead_worker_is_named_in_a_typed_error() -> None:
    """A worker killed under the batch surfaces as WorkerDiedError naming the worker, its pid and
    its exit code (not a raw EOFError or ConnectionResetError from the pipe), again at every later
    call; close() still stops the other worker and leaves no process behind."""
    procs = ParlorProcessVectorEnv("parlor/Tools-v0", 4, workers=2)
    obs, _ = procs.reset(seed=0)
    victim = procs._procs[1]
    os.kill(victim.pid, signal.SIGKILL)
    victim.join(timeout=5)
    actions = np.array([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]])
    with pytest.raises(WorkerDiedError, match=f"worker 1 .*pid {victim.pid}.*exit code -9") as err:
        procs.step(actions)
    assert (err.value.worker, err.value.pid, err.value.exitcode) == (1, victim.pid, -9)
    with pytest.raises(WorkerDiedError, match="worker 1"):
        procs.reset(seed=1)
    survivor = procs._procs[0]
    procs.close()
    assert survivor.exitcode == 0 and not mp.active_children()


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="Linux's affinity calls")
def test_the_default_workers_are_the_cores_this_process_may_use() -> None:
    """Pinned to one core (taskset, a cgroup), the process batch starts one worker, not one per
    core of the machine."""
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(allowed)})
    try:
        with ParlorProcessVectorEnv("parlor/Tools-v0", 4) as procs:
            assert len(procs._procs) == 1
            procs.reset(seed=0)
    finally:
        os.sched_setaffinity(0, allowed)


def test_a_learner_going_bankrupt_ends_its_game_as_in_sync_vector_env() -> None:
    """The batch's bots' loop stops when the learner goes out (bankrupt while the others play
    on), read from the seats the table has settled rather than by working the position out at
    every bot move: the same steps, rewards and ends as SyncVectorEnv through whole classic games.
    Not tied to one seed's game: four games at a time, restarted as they end, until a random
    learner has gone out early against heuristic bots (in 30 runs of other seeds, after 356 to
    2,137 batch steps: a run of 6,000 without one would mean the loop never stops)."""
    kwargs: dict[str, Any] = {"max_steps": 20_000, "opponents": "heuristic"}
    n = 4
    ours = ParlorVectorEnv("parlor/Classic-v0", n, **kwargs)
    theirs = gym.make_vec("parlor/Classic-v0", num_envs=n, vectorization_mode="sync", **kwargs)
    rngs = [np.random.default_rng(3), np.random.default_rng(3)]
    obs = [ours.reset(seed=0)[0], theirs.reset(seed=0)[0]]
    out_early = steps = 0
    while not out_early and steps < 6000:
        results = []
        for k, envs in enumerate((ours, theirs)):
            results.append(envs.step(random_actions(rngs[k], obs[k]["action_mask"])))
            obs[k] = results[k][0]
        for x, y in zip(results[0][:4], results[1][:4], strict=True):
            if isinstance(x, dict):
                assert all(np.array_equal(x[key], y[key]) for key in x)
            else:
                assert np.array_equal(x, y)
        for i in np.flatnonzero(results[0][2]):
            env = ours.envs[i]
            out_early += int(env.table.out(env.seat) and not env.game.is_over)
        steps += 1
    assert out_early
    theirs.close()


@pytest.mark.parametrize(
    "game, seed, table_options",
    [
        # (a seat goes bankrupt on the way and the game ends: see test_act_for_pays_what_act_pays)
        ("classic", 2, {"max_steps": 20_000}),
        ("classic", 0, {"max_steps": 300, "truncation_reward": "valuation"}),
        ("classic", 1, {"max_steps": 400, "reward": "margin"}),
        ("tools", 3, {}),
        ("tools", 4, {"max_steps": 25}),
    ],
)
def test_act_and_reply_plays_what_act_and_the_bots_play(
    game: str, seed: int, table_options: dict[str, Any]
) -> None:
    """Table.act_and_reply, the batch's learner move and bots' replies in one call, pays the
    learner what Table.act does over the same moves (its move's reward plus the bots' sum), keeps
    the same steps, settled seats and cap, and says the learner decides again exactly when it
    holds the decision in a game that goes on."""
    n = 4 if game == "classic" else 2
    learner = 1
    tables = [Table(make_spec(game, n), **table_options) for _ in range(2)]
    bots = [{p: RandomBot(seed * 10 + p) for p in range(n)} for _ in range(2)]
    picks = [RandomBot(99), RandomBot(99)]
    for table in tables:
        table.reset(seed)
    ref, mine = tables
    # (both to the learner's first decision by the bots)
    for table, seat_bots in zip(tables, bots, strict=True):
        while table.decider not in (None, learner):
            decider = table.decider
            table.act(decider, seat_bots[decider].choose(table.game, decider))
    moves = 0
    while not ref.over and not ref.out(learner) and ref.decider == learner:
        action_id = picks[0].rng.choice(ref.legal_ids(learner))
        assert picks[1].rng.choice(mine.decision_ids(learner)) == action_id
        reward = ref.act_id(learner, action_id)[learner]
        total = 0.0
        while not ref.over and not ref.out(learner) and ref.decider not in (None, learner):
            decider = ref.decider
            assert decider is not None
            total += ref.act(decider, bots[0][decider].choose(ref.game, decider))[learner]
        paid, back = mine.act_and_reply(learner, action_id, bots[1])
        assert paid == reward + total
        assert back == (not ref.over and not ref.out(learner) and ref.decider == learner)
        assert (mine.steps, mine.settled, mine.truncated) == (ref.steps, ref.settled, ref.truncated)
        assert mine.in_play == ref.in_play
        moves += 1
    assert moves > 5 and (ref.over or ref.out(learner))


def test_mask_rows_kept_while_the_legal_ids_stay_the_same() -> None:
    """The classic batch leaves a game's mask row as it is when its legal ids come back the same
    (a row rewritten only when they change): every row is still the table's mask at every step,
    through steps where some rows were kept and others rewritten, and through restarts."""
    envs = ParlorVectorEnv("parlor/Classic-v0", 4, max_steps=200)
    rng = np.random.default_rng(5)
    obs, _ = envs.reset(seed=11)
    kept = changed = ends = 0
    before = list(envs._legal)
    for _ in range(300):
        obs, _, terms, truncs, _ = envs.step(random_actions(rng, obs["action_mask"]))
        ends += int(terms.sum() + truncs.sum())
        for i, env in enumerate(envs.envs):
            assert np.array_equal(obs["action_mask"][i], env.table.mask(env.seat))
            same = envs._legal[i] is before[i]
            kept += same
            changed += not same
        before = list(envs._legal)
    assert kept > 50 and changed > 50 and ends > 0


def test_the_process_form_keeps_classic_mask_rows_as_the_batch_does() -> None:
    """The workers' rows of shared memory hold their games' masks from step to step as the
    in-process batch's arrays do (the classic masks' rows kept while the legal ids stay)."""
    kwargs: dict[str, Any] = {"max_steps": 150}
    single = ParlorVectorEnv("parlor/Classic-v0", 4, **kwargs)
    procs = ParlorProcessVectorEnv("parlor/Classic-v0", 4, workers=2, **kwargs)
    try:
        a, b = run(single, 100, seed=2), run(procs, 100, seed=2)
    finally:
        procs.close()
    for mine, theirs in zip(a, b, strict=True):
        for x, y in zip(mine, theirs, strict=True):
            assert np.array_equal(x, y)

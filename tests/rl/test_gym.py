"""The Gymnasium environment: check_env for every registered id, vector environments, bots of
every kind, reproducible resets, and rewards that only the engine's state decides."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import parlor.rl
from parlor import monopoly
from parlor.rl import IllegalActionError, ParlorGymEnv


@pytest.mark.parametrize("env_id", sorted(parlor.rl.ENV_IDS))
def test_check_env_passes_for_every_registered_id(env_id: str) -> None:
    # check_env steps with unmasked samples, so it runs with the penalty option; the default
    # (raise) is tested below.
    env = gym.make(env_id, illegal_action="penalize", max_steps=3000)
    check_env(env.unwrapped, skip_render_check=True)


def masked_episode(env: gym.Env, seed: int) -> tuple[list[bytes], float, dict]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    trace, total, done = [obs["observation"].tobytes()], 0.0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        trace.append(obs["observation"].tobytes())
        total += float(reward)
        done = terminated or truncated
    return trace, total, info


@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_tools_episodes_reproduce_and_reward_the_outcome(opponents: str) -> None:
    env = gym.make("parlor/Tools-v0", players=3, opponents=opponents)
    for seed in range(25):
        trace, total, info = masked_episode(env, seed)
        again, total_again, _ = masked_episode(env, seed)
        assert again == trace and total_again == total
        seat, winners = info["seat"], info["winners"]
        assert total == (1.0 if winners == (seat,) else 0.0 if seat in winners else -1.0)


def test_property_episode_against_heuristic_bots() -> None:
    env = gym.make("parlor/Classic-v0", opponents="heuristic", seat=2, max_steps=20_000)
    _, total, info = masked_episode(env, seed=5)
    assert info["seat"] == 2
    assert total in (-1.0, 0.0, 1.0)
    game = env.unwrapped.game
    assert monopoly.PropertyGame.from_json(game.to_json()).snapshot() == game.snapshot()


def test_search_bot_opponent_and_shaped_reward() -> None:
    env = ParlorGymEnv(
        "tools",
        players=2,
        seat=0,
        opponents="search",
        opponent_options={"simulations": 4},
        reward="shaped",
    )
    _, total, info = masked_episode(env, seed=1)
    # Shaped: minus the hand change (from 7 dealt cards to the end) over ten, plus the outcome.
    seat = info["seat"]
    end = env.game.hand_sizes[seat]
    outcome_part = 1.0 if info["winners"] == (seat,) else -1.0
    assert total == pytest.approx(-(end - 7) / 10 + outcome_part)


def test_vector_environments_run_masked(tmp_path: object) -> None:
    for mode in ("sync", "async"):
        envs = gym.make_vec("parlor/Tools-v0", num_envs=3, vectorization_mode=mode)
        obs, _ = envs.reset(seed=7)
        assert obs["observation"].shape[0] == 3 and obs["action_mask"].dtype == np.int8
        finished = 0
        for _ in range(400):
            masks = obs["action_mask"]
            # After an episode ends the next step resets that copy (its action is ignored).
            actions = [int(np.flatnonzero(m)[0]) if m.any() else 0 for m in masks]
            obs, _, terminated, truncated, _ = envs.step(np.array(actions))
            finished += int(np.sum(terminated | truncated))
        envs.close()
        assert finished > 3


def test_illegal_actions_raise_by_default_and_penalize_on_request() -> None:
    env = gym.make("parlor/Tools-v0")
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step(illegal)
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step(float(np.flatnonzero(obs["action_mask"])[0]))  # (a float is no id, issue 21)
    env = gym.make("parlor/Tools-v0", illegal_action="penalize", illegal_penalty=-3.0)
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-3.0, True, True)


def test_the_agent_cannot_touch_its_reward_or_the_game() -> None:
    """Observations and masks are copies; no id stands for calling time (a table signal that
    would let a leading agent end a time-limit game); rewards come from the engine alone."""
    env = ParlorGymEnv("classic", options={"variant": "time_limit"}, seat=0)
    obs, info = env.reset(seed=3)
    obs["action_mask"][:] = 1
    info["action_mask"][:] = 1
    obs["observation"][:] = 99
    assert env.action_masks().sum() < env.action_space.n
    assert not np.array_equal(env.table.observe(0)["observation"], obs["observation"])
    call_time = env.game.action_id(monopoly.CallTime(0))
    rng = np.random.default_rng(0)
    for _ in range(300):
        mask = env.action_masks()
        assert not mask[call_time]
        _, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            break
    env.reset(seed=3)
    with pytest.raises(IllegalActionError):
        env.step(int(np.flatnonzero(env.action_masks() == 0)[0]))


def test_bad_settings_fail_early() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        ParlorGymEnv("chess")
    with pytest.raises(ValueError, match="opponents needed"):
        ParlorGymEnv("tools", players=3, opponents=["random"])
    with pytest.raises(ValueError, match="unknown bot"):
        ParlorGymEnv("tools", opponents="grandmaster")
    with pytest.raises(ValueError, match="reward"):
        ParlorGymEnv("tools", reward="money")


def lowest_id_episode(skip_forced: bool, seed: int) -> tuple[str, float, int, int]:
    """Play the lowest legal id at every learner decision; return the game, the total reward,
    the learner's steps and the forced moves the environment played."""
    env = ParlorGymEnv(
        "classic",
        seat=1,
        trade_offers=False,
        liquidate="for_debts",
        reward="shaped",
        max_steps=2500,
        skip_forced=skip_forced,
    )
    obs, _ = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) >= (2 if skip_forced else 1)
        obs, reward, terminated, truncated, _ = env.step(int(legal[0]))
        total, steps, done = total + float(reward), steps + 1, terminated or truncated
    return env.game.to_json(), total, steps, env.forced_moves


def test_skip_forced_plays_the_single_legal_ids_and_changes_nothing_else() -> None:
    game, total, steps, forced = lowest_id_episode(False, seed=6)
    game_skip, total_skip, steps_skip, forced_skip = lowest_id_episode(True, seed=6)
    assert forced == 0 and forced_skip > 0
    assert game_skip == game
    assert total_skip == pytest.approx(total)
    assert steps_skip + forced_skip == steps


def test_a_game_cut_at_the_cap_names_its_leaders_by_the_book() -> None:
    env = ParlorGymEnv("classic", seat=0, max_steps=60, truncation_reward="valuation")
    obs, _ = env.reset(seed=2)
    truncated = terminated = False
    total = 0.0
    while not (truncated or terminated):
        obs, reward, terminated, truncated, info = env.step(
            int(np.flatnonzero(obs["action_mask"])[0])
        )
        total += float(reward)
    assert truncated and "winners" not in info
    game = env.game
    values = {p: game.valuation(p) for p in game.active_players}
    best = max(values.values())
    assert info["leaders"] == tuple(p for p, v in values.items() if v == best)
    assert total == (1.0 if info["leaders"] == (0,) else 0.0 if 0 in info["leaders"] else -1.0)


def test_a_table_keeps_to_the_attributes_python_shares() -> None:
    # (see Table.__init__: past 29 attributes a plain table has a dict of its own, and every
    # attribute read of every step is slower; compiled, the table is a native class)
    for env_id in ("parlor/Tools-v0", "parlor/Classic-v0"):
        env = gym.make(env_id).unwrapped
        env.reset(seed=1)
        for _ in range(20):
            mask = env.action_masks()
            _, _, done, cut, _ = env.step(int(np.flatnonzero(mask)[0]))
            if done or cut:
                env.reset()
        fields = getattr(env.table, "__dict__", None)
        if fields is not None:
            assert len(fields) <= 29, sorted(fields)


@pytest.mark.parametrize(
    "options", [{}, {"trade_offers": False, "liquidate": "for_debts"}], ids=["all", "narrowed"]
)
def test_the_batchs_unsorted_ids_are_the_tables_legal_ids(options: dict[str, object]) -> None:
    # The batches set the masks from Table.decision_ids(seat, False): the property games' ids
    # unsorted (no sort at every step), the same set as the sorted ones, the narrowing options'
    # drops included; nobody else's.
    env = ParlorGymEnv("classic", players=4, seat=0, **options)
    obs, _ = env.reset(seed=3)
    table = env.table
    unsorted = 0
    for _ in range(150):
        ids = table.decision_ids(0, False)
        assert sorted(set(ids)) == table.legal_ids(0) == table.decision_ids(0)
        assert all(table.decision_ids(p, False) == [] for p in (1, 2, 3))
        unsorted += ids != sorted(ids)
        obs, _, done, cut, _ = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        if done or cut:
            obs, _ = env.reset()
    assert unsorted > 0 or options  # (the narrowed listings, without trades, may come sorted)

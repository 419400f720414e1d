"""The PettingZoo AEC environments: the API checks, reproducibility, masked play that stays legal
and agrees with the engine, and rewards that reach an agent at its next step."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, render_test, seed_test

from parlor import monopoly, tools
from parlor.rl import IllegalActionError, property_env, tools_env
from parlor.rl.table import outcome_reward
from tests.rl.conftest import CONFIGS, play_random


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_pettingzoo_api_and_seed(name: str) -> None:
    make = CONFIGS[name]
    api_test(make(), num_cycles=400)
    seed_test(make, num_cycles=300)


def test_custom_deck_changes_the_spaces(three_color_deck: str) -> None:
    env = tools_env(3, deck=three_color_deck)
    api_test(env, num_cycles=200)
    default = tools_env(3)
    # Three colours: 6 * 3 + 3 kinds, so fewer ids and a shorter observation.
    assert env.action_space("player_0").n == 21 + 5 + 3 + 9
    assert (
        env.observation_space("player_0")["observation"].shape[0]
        < (default.observation_space("player_0")["observation"].shape[0])
    )


def test_reset_with_a_seed_replays_the_engine_game() -> None:
    env = property_env("classic", 4, max_steps=400)
    play_random(env, seed=11)
    first = env.game.to_json()
    play_random(env, seed=11)
    assert env.game.to_json() == first
    assert env.game.seed == 11
    # The environment's game is the engine's own game for that seed and those actions.
    fresh = monopoly.new_game("classic", 4, seed=11)
    for action in env.game.log:
        fresh.apply(action)
    assert fresh.snapshot() == env.game.snapshot()


@pytest.mark.parametrize("players", [2, 3, 6])
def test_tools_random_masked_play_is_legal_and_matches_the_outcome(players: int) -> None:
    env = tools_env(players)
    for seed in range(60):
        totals = play_random(env, seed)  # an illegal id would raise IllegalActionError
        outcome = env.game.outcome
        assert outcome is not None  # TOOLS games end well before the cap
        for seat, agent in enumerate(env.possible_agents):
            expected = (
                (1.0 if len(outcome.winners) == 1 else 0.0) if seat in outcome.winners else -1.0
            )
            assert totals[agent] == expected
        replayed = tools.ToolsGame.from_json(env.game.to_json())
        assert replayed.outcome == outcome


@pytest.mark.parametrize(
    ("edition", "options"),
    [("classic", {"variant": "short"}), ("matador", {}), ("latam", {"variant": "short"})],
)
def test_property_random_masked_play_is_legal_and_matches_the_outcome(
    edition: str, options: dict[str, Any]
) -> None:
    env = property_env(edition, 3, options=options, max_steps=20_000)
    for seed in range(2):
        totals = play_random(env, seed)
        outcome = env.game.outcome
        assert outcome is not None
        for seat, agent in enumerate(env.possible_agents):
            won = seat in outcome.winners
            assert totals[agent] == ((1.0 if len(outcome.winners) == 1 else 0.0) if won else -1.0)
        assert monopoly.PropertyGame.from_json(env.game.to_json()).outcome == outcome


def test_bankrupt_players_leave_with_minus_one_and_the_game_goes_on() -> None:
    env = property_env("classic", 4, max_steps=20_000)
    for seed in range(6):
        totals = play_random(env, seed)
        outcome = env.game.outcome
        if outcome is not None and outcome.reason == "bankruptcy":
            losers = [a for p, a in enumerate(env.possible_agents) if p not in outcome.winners]
            assert all(totals[a] == -1.0 for a in losers)
            return
    pytest.fail("no random classic game ended by bankruptcy in 6 seeds")


def assert_rewards_follow(
    env: Any, measure: Callable[[int], float], scale: float, seeds: int
) -> None:
    """Random play through ``env``: what each agent reads at each of its turns is ``scale``
    times the change of ``measure(seat)`` since its own last move, and some rewards are not 0."""
    last: dict[str, float] = {}
    changes = 0

    def check(agent: str, obs: dict[str, Any], reward: float) -> None:
        nonlocal changes
        seat = env.possible_agents.index(agent)
        now = measure(seat)
        if agent in last:
            assert reward == pytest.approx(scale * (now - last[agent]))
            changes += reward != 0
        last[agent] = now

    for seed in range(seeds):
        last.clear()
        play_random(env, seed, on_turn=check)
    assert changes > 10


@pytest.mark.parametrize("name", ["tools-4-options", "classic-4", "latam-5-house-rules"])
def test_shaped_rewards_arrive_at_the_agents_next_step(name: str) -> None:
    """With the shaped reward, what an agent reads at each of its turns is exactly the change of
    its measure (net worth, or minus its hand) since its own last move: rent paid to it on other
    players' turns, cards it was made to draw, all arrive then, and nothing is lost."""
    env = CONFIGS[name](reward="shaped", shaping_scale=2.0)
    spec = env.table.spec
    assert_rewards_follow(env, lambda seat: spec.potential(env.game, seat), 2.0, seeds=3)


@pytest.mark.parametrize("name", ["tools-4-options", "classic-4"])
def test_margin_rewards_pay_the_lead_over_the_others_mean(name: str) -> None:
    """With ``reward="margin"``, what an agent reads at each of its turns is the change of its
    measure minus the mean of the other seats in play since its own last move."""
    env = CONFIGS[name](reward="margin", shaping_scale=1.5)
    spec = env.table.spec

    def margin(seat: int) -> float:
        if seat not in env.table.in_play:
            return 0.0
        others = [spec.potential(env.game, p) for p in env.table.in_play if p != seat]
        return spec.potential(env.game, seat) - sum(others) / len(others)

    assert_rewards_follow(env, margin, 1.5, seeds=2)
    with pytest.raises(ValueError, match="'margin'"):
        CONFIGS[name](reward="lead")


def test_margin_rewards_sum_to_zero_through_bankruptcies() -> None:
    """Issue 21: ``reward="margin"`` was not zero-sum once a seat was bankrupt (the bankrupt
    seat's margin kept moving with no one paid for it). Every transition's rewards, less the
    final -1/+1/0 of the seats that left the game at it, now sum to zero; the seats in play are
    exactly those not bankrupt before the game's last step."""
    env = property_env("classic", 4, reward="margin", shaping_scale=1.0, max_steps=20_000)
    table = env.table
    bankruptcies = 0
    for seed in range(4):
        table.reset(seed)
        rng = np.random.default_rng(seed)
        while not table.over:
            seat = table.decider
            assert seat is not None
            before = list(table.settled)
            rewards = table.act_id(seat, int(rng.choice(np.flatnonzero(table.mask(seat)))))
            final = 0.0
            for p in range(table.n):
                if table.settled[p] and not before[p]:
                    outcome = table.game.outcome
                    final += -1.0 if outcome is None else outcome_reward(outcome.winners, p)
                    bankruptcies += outcome is None
            assert sum(rewards) - final == pytest.approx(0.0, abs=1e-9)
            if not table.game.is_over:
                assert table.in_play == [p for p in range(table.n) if not table.out(p)]
    assert bankruptcies > 0, "no bankruptcy before a game's end: the test proves nothing"


def test_action_ids_must_be_integers() -> None:
    """Issue 21: ``step(1.5)`` was played as action 1. A float (even 1.0), a bool or a string is
    refused, and nothing changes; NumPy integers are ids."""
    env = tools_env(2)
    env.reset(seed=4)
    obs, *_ = env.last()
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    before = env.game.snapshot()
    for bad in (legal + 0.5, float(legal), True, str(legal)):
        with pytest.raises(IllegalActionError, match="not legal"):
            env.step(bad)
    assert env.game.snapshot() == before
    env.step(np.int64(legal))
    assert env.game.snapshot() != before


def test_render_human_prints_and_passes_pettingzoo_render_test(
    capsys: pytest.CaptureFixture[str],
) -> None:
    render_test(lambda render_mode=None: tools_env(2, render_mode=render_mode))
    env = tools_env(2, render_mode="human")
    env.reset(seed=3)
    assert env.render() is None
    assert "parlor_tools_v0 step 0" in capsys.readouterr().out
    with pytest.raises(ValueError, match="render_mode"):
        tools_env(2, render_mode="rgb_array")


def test_an_illegal_id_raises_and_changes_nothing() -> None:
    env = tools_env(2)
    env.reset(seed=4)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.game.snapshot()
    with pytest.raises(IllegalActionError, match=r"is not legal for seat 0 now .*legal ids: \["):
        env.step(illegal)
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step(10_000)
    assert env.game.snapshot() == before
    assert not any(env.terminations.values())


def test_the_penalty_option_ends_the_episode_instead() -> None:
    env = property_env("classic", 4, illegal_action="penalize", illegal_penalty=-5.0)
    env.reset(seed=2)
    obs, *_ = env.last()
    offender = env.agent_selection
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(env.terminations.values())
    assert env._cumulative_rewards[offender] == -5.0
    assert env.infos[offender]["illegal_action"] is True
    assert all(r == 0.0 for a, r in env._cumulative_rewards.items() if a != offender)
    assert not env.game.is_over  # the engine never saw the action


def test_truncation_at_the_step_cap() -> None:
    env = property_env("classic", 4, max_steps=50, truncation_reward="valuation")
    totals = play_random(env, seed=3)
    assert env.table.truncated and not env.game.is_over
    assert sorted(totals.values()).count(1.0) <= 1 and set(totals.values()) <= {1.0, 0.0, -1.0}
    env = property_env("classic", 4, max_steps=50)
    assert set(play_random(env, seed=3).values()) == {0.0}


def test_decisions_by_any_player_select_that_agent() -> None:
    """Auction bids and trade answers belong to players other than the dice holder."""
    env = property_env("classic", 4, max_steps=3000)
    rng = np.random.default_rng(0)
    env.reset(seed=8)
    off_turn = set()
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        pending = env.game.pending
        assert pending is not None and agent == f"player_{pending.player}"
        if pending.player != env.game.current_player:
            off_turn.add(pending.kind)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert {"bid", "answer_trade"} <= off_turn


def test_render_ansi_names_the_legal_actions() -> None:
    env = property_env("matador", 3, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text is not None and "start_turn" in text and "0:" in text
    json.dumps(env.game.view(0))


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 10),
    seed=st.integers(0, 2**31 - 2),
    picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=120),
)
def test_tools_masks_are_the_engine_legal_ids_and_spaces_are_fixed(
    players: int, seed: int, picks: list[int]
) -> None:
    env = tools_env(players)
    space = env.observation_space("player_0")
    env.reset(seed=seed)
    for pick in picks:
        agent = env.agent_selection
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        assert env.observation_space(agent) is space
        assert space.contains(obs)
        seat = env.possible_agents.index(agent)
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        assert legal == env.game.legal_action_ids(seat)
        env.step(legal[pick % len(legal)])


def test_without_trade_offers_the_mask_is_the_engine_mask_less_proposals() -> None:
    env = property_env("classic", 4, trade_offers=False, max_steps=800)
    rng = np.random.default_rng(1)
    env.reset(seed=9)
    proposals_seen = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        game, seat = env.game, env.possible_agents.index(agent)
        full = game.legal_action_ids(seat)
        trades = {
            i for i in full if isinstance(game.action_from_id(i, seat), monopoly.ProposeTrade)
        }
        proposals_seen += len(trades)
        assert np.flatnonzero(obs["action_mask"]).tolist() == [i for i in full if i not in trades]
        if trades:
            with pytest.raises(IllegalActionError):
                env.step(min(trades))
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert proposals_seen > 0


LIQUIDATING = (monopoly.Mortgage, monopoly.SellBuilding)
SPENDING = (monopoly.Unmortgage, monopoly.Build)


def test_liquidate_for_debts_keeps_mortgages_and_sales_for_raising_funds() -> None:
    """liquidate="for_debts": the engine's mask less mortgaging and selling buildings back
    outside a raise_funds decision, and less building and lifting within one; never empty."""
    env = property_env("classic", 4, liquidate="for_debts", max_steps=3000)
    rng = np.random.default_rng(2)
    # A game with debts raised by mortgaging (seed 4 has none since purchases got 25 prices:
    # random choices then trade more and mortgage less).
    env.reset(seed=2)
    kept_to_pay = dropped_outside = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        game, seat = env.game, env.possible_agents.index(agent)
        raising = game.pending.kind == "raise_funds"
        full = game.legal_action_ids(seat)
        left_out = SPENDING if raising else LIQUIDATING
        dropped = {i for i in full if isinstance(game.action_from_id(i, seat), left_out)}
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        assert legal and legal == [i for i in full if i not in dropped]
        kept_to_pay += raising and any(
            isinstance(game.action_from_id(i, seat), LIQUIDATING) for i in legal
        )
        dropped_outside += not raising and bool(dropped)
        if dropped:
            with pytest.raises(IllegalActionError):
                env.step(min(dropped))
        env.step(int(rng.choice(legal)))
    assert kept_to_pay > 0 and dropped_outside > 0


def test_bad_liquidate_option_fails_early() -> None:
    with pytest.raises(ValueError, match="liquidate"):
        property_env("classic", 4, liquidate="never")


@pytest.mark.parametrize("max_iter", [5, 2**63])
def test_agent_iter_yields_what_pettingzoos_iterator_yields(max_iter: int) -> None:
    """``agent_iter`` is a generator here (issue 21's speed): the same agents as PettingZoo's
    AECIterable over the same game, dead agents' final steps included, at most ``max_iter``."""
    from pettingzoo.utils.env import AECIterable

    def agents_seen(iterable: Callable[[Any, int], Any]) -> list[str]:
        env = property_env("classic", 3, max_steps=400)
        env.reset(seed=4)
        rng = np.random.default_rng(0)
        seen = []
        for agent in iterable(env, max_iter):
            seen.append(agent)
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return seen

    ours = agents_seen(lambda env, n: env.agent_iter(n))
    assert ours == agents_seen(AECIterable)
    if max_iter == 5:
        assert len(ours) == 5
    else:  # (the whole episode, to the cap's truncation and every seat's final step)
        assert len(ours) > 400 and set(ours) == {"player_0", "player_1", "player_2"}

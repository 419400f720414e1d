"""Imitation (parlor.rl.distill): the teacher's labels, the NumPy fit, and the round cap of the
evaluation. No torch: the distilled policy plays and trains in NumPy alone."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from parlor.bots.registry import make_bot
from parlor.rl import distill
from parlor.rl.gym_env import ParlorGymEnv
from parlor.rl.policy import MlpPolicy, RandomPolicy, evaluate

TOOLS: dict[str, Any] = {
    "game": "tools",
    "players": 2,
    "opponents": "heuristic",
    "skip_forced": True,
}


@pytest.fixture(autouse=True)
def _no_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # any import of torch would fail


def test_iteration_zero_labels_are_the_teachers_choices_in_the_learners_mask() -> None:
    seeds = [11, 12, 13]
    (obs, legal, labels), counts = distill.collect(TOOLS, "heuristic", {}, None, 1.0, seeds)
    assert counts["games"] == 3 and len(labels) == counts["decisions"] - counts["unlabelled"] > 0
    # Replaying game 11 with the same teacher reaches the same first state and label.
    env = ParlorGymEnv(**TOOLS)
    first, _ = env.reset(seed=11)
    bot = make_bot("tools", "heuristic", seed=11)
    assert np.array_equal(first["observation"], obs[0])
    assert labels[0] == env.game.action_id(bot.choose(env.game, env.seat))
    for ids, label in zip(legal, labels, strict=True):
        assert label in ids.tolist()  # every label is legal where it was recorded
    # Each game depends on its seed alone: two processes give the same pairs in the same order.
    again, _ = distill.collect_parallel(TOOLS, "heuristic", {}, None, 1.0, seeds, jobs=1)
    assert again[2] == labels


def test_the_masked_cross_entropy_gradient_is_the_numerical_one() -> None:
    rng = np.random.default_rng(0)
    trainer = distill.Trainer([5, 4, 6], seed=1, lr=0.0)  # lr 0: the step only measures
    x = rng.normal(size=(3, 5)).astype(np.float32)
    masks = np.array([[1, 1, 0, 1, 0, 0], [0, 1, 1, 1, 1, 1], [1, 0, 0, 0, 0, 1]], dtype=bool)
    labels = np.array([3, 2, 0])

    def loss() -> float:
        policy = trainer.policy({})
        total = 0.0
        for row in range(3):
            logits = policy.logits(x[row]).astype(np.float64)
            legal = np.flatnonzero(masks[row])
            z = logits[legal] - logits[legal].max()
            total -= z[list(legal).index(labels[row])] - np.log(np.exp(z).sum())
        return total / 3

    w, _ = trainer.layers[0]
    base = trainer._step(x, masks, labels)
    assert base == pytest.approx(loss(), rel=1e-4)
    # The Adam state after one step with lr 0 holds (1 - beta1) * gradient.
    analytic = trainer.moments[0][0][1, 2] / 0.1
    eps = 1e-3
    w[1, 2] += eps
    up = loss()
    w[1, 2] -= 2 * eps
    down = loss()
    w[1, 2] += eps
    assert analytic == pytest.approx((up - down) / (2 * eps), rel=2e-2, abs=1e-5)


def test_a_short_run_fits_the_teacher_and_ships_numpy_weights(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    argv = ["--game", "tools", "--players", "2", "--opponents", "heuristic", "--skip-forced"]
    argv += ["--games", "40", "--iterations", "1", "--epochs", "15", "--net", "32"]
    results = distill.main([*argv, "--out", str(out)])
    first, last = results["iterations"]
    assert last["pairs"] == first["pairs"] + last["decisions"] - last["unlabelled"]
    assert last["losses"][-1] < first["losses"][0]  # the fit learns the teacher's choices
    policy = MlpPolicy.load(out / "policy.npz")
    assert policy.activation == "relu" and policy.meta["env"]["opponents"] == "heuristic"
    report = distill.main(["--out", str(out), "--evaluate", "random", "--eval-games", "6"])
    assert report["agent"]["games"] == report["random_policy"]["games"] == 6
    assert report["agent"]["seeds"] == report["random_policy"]["seeds"]  # the same seeds
    models = tmp_path / "models"
    monkeypatch.setattr(distill, "MODELS", models)
    distill.main(["--out", str(out), "--ship", "tiny"])
    shipped = json.loads((models / "tiny.json").read_text())
    assert shipped["evaluations"]["random"]["agent"] == report["agent"]
    loaded = MlpPolicy.load(models / "tiny.npz")
    assert all(
        np.array_equal(a, b) for (a, _), (b, _) in zip(loaded.layers, policy.layers, strict=True)
    )


def test_the_round_cap_cuts_property_games_and_ranks_them_by_valuation() -> None:
    kwargs: dict[str, Any] = {
        "game": "classic",
        "players": 4,
        "opponents": "random",
        "skip_forced": True,
        "max_steps": 10**9,
    }
    result = evaluate(RandomPolicy(0), kwargs, games=2, seed_base=7, max_rounds=3)
    # No property game ends within three rounds: both are cut there.
    assert result["truncated"] == 2 and result["wins"] == 0 and result["max_rounds"] == 3
    assert result["first"] == result["first_at_cap"]


def test_the_trainers_reset_never_hands_over_a_finished_game() -> None:
    """With skip_forced a short TOOLS game can end before the learner's first real choice
    (seed 575 against the heuristic); MaskablePPO would then step a finished episode."""
    from parlor.rl.train import VectorObservation  # gymnasium only: torch is imported by main()

    env = ParlorGymEnv(**TOOLS)
    env.reset(seed=575)
    assert env.table.over  # the case itself
    wrapped = VectorObservation(ParlorGymEnv(**TOOLS))
    obs, _ = wrapped.reset(seed=575)
    table = wrapped.env.unwrapped.table  # type: ignore[attr-defined]
    assert not table.over and table.decider == wrapped.env.unwrapped.seat  # type: ignore[attr-defined]
    assert obs.shape == (table.layout.size,) and wrapped.action_masks().any()


def test_init_starts_from_a_policy_and_the_teacher_can_be_the_search_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--init`` refines an earlier imitation: iteration 0 is the teacher's play, labelled and
    measured against the starting policy, and the fit starts from that policy's weights."""
    first = tmp_path / "first"
    argv = ["--game", "tools", "--players", "2", "--opponents", "heuristic", "--skip-forced"]
    distill.main([*argv, "--games", "4", "--iterations", "0", "--net", "16", "--out", str(first)])
    start = MlpPolicy.load(first / "policy.npz")
    trainer = distill.Trainer.from_policy(start, seed=0)
    assert all(
        np.array_equal(a, b) for (a, _), (b, _) in zip(trainer.layers, start.layers, strict=True)
    )
    out = tmp_path / "refined"
    search = ["--teacher", "search", "--teacher-options", '{"simulations": 4}']
    init = ["--init", str(first / "policy.npz"), "--out", str(out)]
    results = distill.main(
        [*argv, *search, "--games", "3", "--iterations", "0", "--lr", "0", *init]
    )
    (entry,) = results["iterations"]
    assert entry["learner_agrees_on_new_states"] is not None  # the starting policy was measured
    refined = MlpPolicy.load(out / "policy.npz")  # lr 0: the fit left the weights as they were
    assert all(
        np.array_equal(a, b) for (a, _), (b, _) in zip(refined.layers, start.layers, strict=True)
    )
    # Shipped, the refined policy names both stages: the teacher of each and where it started.
    monkeypatch.setattr(distill, "MODELS", tmp_path / "models")
    stages = distill.main(["--out", str(out), "--ship", "refined"])["stages"]
    assert [stage["args"]["teacher"] for stage in stages] == ["heuristic", "search"]
    assert stages[1]["args"]["init"] == str(first / "policy.npz")


def test_a_seed_whose_games_are_evaluation_games_is_refused(tmp_path: Path) -> None:
    # Seed 1's iteration 0 plays games 1,000,003...: the evaluation's own seeds.
    with pytest.raises(SystemExit, match="evaluation seeds"):
        distill.main(["--seed", "1", "--games", "2", "--iterations", "0", "--out", str(tmp_path)])


def test_lineups_take_the_games_in_turn() -> None:
    assert distill.lineups("random;heuristic") == ["random", "heuristic"]
    assert distill.lineups("random,heuristic,random") == [["random", "heuristic", "random"]]
    mixed = {**TOOLS, "opponents": "random;heuristic"}
    # Seed 10 plays lineup 10 % 2 = 0 (random), seed 11 lineup 1 (heuristic).
    for seed, alone in ((10, "random"), (11, "heuristic")):
        pairs, _ = distill.collect(mixed, "heuristic", {}, None, 1.0, [seed])
        expected, _ = distill.collect(
            {**TOOLS, "opponents": alone}, "heuristic", {}, None, 1.0, [seed]
        )
        assert pairs[2] == expected[2]
        assert all(np.array_equal(a, b) for a, b in zip(pairs[0], expected[0], strict=True))


def test_a_proposal_without_an_id_is_labelled_by_the_next_catalogue_price_up() -> None:
    from parlor.core.errors import UnknownActionId
    from parlor.monopoly import ProposeTrade

    env = ParlorGymEnv(game="classic", players=4, opponents="random", skip_forced=True)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    buys: list[Any] = []
    while not buys:  # play at random until the learner may buy a deed from its owner
        ids = np.flatnonzero(env.action_masks())
        actions = [(int(i), env.game.action_from_id(int(i), env.seat)) for i in ids]
        buys = [
            (i, a)
            for i, a in actions
            if isinstance(a, ProposeTrade) and a.take_squares and not a.give_squares
        ]
        if not buys:
            env.step(np.int64(rng.choice(ids)))
    ids = np.flatnonzero(env.action_masks()).astype(np.int32)
    square = buys[0][1].take_squares
    levels = sorted((a.give_cash, i) for i, a in buys if a.take_squares == square)
    # Every eighth of the printed price from 0.5x to 3.5x the learner can pay is a purchase.
    price = env.game.edition.squares[square[0]].price
    assert [c for c, _ in levels] == [
        price * e // 8 for e in range(4, 29) if price * e // 8 <= env.game.cash[env.seat]
    ]
    assert len(levels) >= 2
    cash = levels[0][0]
    offer = ProposeTrade(env.seat, buys[0][1].to, take_squares=square, give_cash=cash + 1)
    with pytest.raises(UnknownActionId):
        env.game.action_id(offer)  # a price between the catalogue's levels has no id
    # The teacher offers the least the seller accepts: the label is the next price up, not the
    # nearest (one unit below it would be refused).
    assert distill.snap_trade(env.game, env.seat, offer, ids) == levels[1][1]
    # Above every price the learner can pay: the dearest one it can.
    dear = ProposeTrade(env.seat, buys[0][1].to, take_squares=square, give_cash=10**6)
    assert distill.snap_trade(env.game, env.seat, dear, ids) == levels[-1][1]
    swap = ProposeTrade(env.seat, buys[0][1].to, take_squares=square, give_squares=(0,))
    assert distill.snap_trade(env.game, env.seat, swap, ids) == -1  # no deed-for-deed in it


def test_a_policy_from_before_the_finer_purchases_is_widened_by_copying_rows() -> None:
    from parlor.monopoly import new_game
    from parlor.monopoly.id_space import NUM_ACTIONS, coarse_buy_id

    old = 1466  # the layout's size before the finer purchase ladder was appended
    trainer = distill.Trainer([5, 8, old], seed=0)
    before = trainer.policy({})
    trainer.widen(NUM_ACTIONS)
    after = trainer.policy({})
    x = np.random.default_rng(0).normal(size=5).astype(np.float32)
    logits = after.logits(x)
    assert logits.shape == (NUM_ACTIONS,)
    assert np.array_equal(logits[:old], before.logits(x))
    game = new_game("classic", 4, seed=1)
    for i in range(old, NUM_ACTIONS):
        j = coarse_buy_id(i)
        assert logits[i] == logits[j]
        fine, coarse = game.action_from_id(i, 0), game.action_from_id(j, 0)
        # The same deed, bought at 1x, 1.5x or 2x: whichever is nearest in price.
        assert fine.take_squares == coarse.take_squares
        price = game.edition.squares[fine.take_squares[0]].price
        if not price:
            continue  # the layout has ids for every square; those of unsold ones are never legal
        nearest = min((price, price * 3 // 2, price * 2), key=lambda c: abs(c - fine.give_cash))
        assert abs(coarse.give_cash - fine.give_cash) == abs(nearest - fine.give_cash)


def test_an_offer_no_catalogue_trade_fits_is_labelled_by_the_offering_bots_heuristic() -> None:
    from parlor.bots import RandomBot
    from parlor.bots.monopoly_heuristic import MonopolyHeuristicBot
    from parlor.bots.monopoly_offers import OfferingHeuristicBot

    env = ParlorGymEnv(game="classic", players=4, opponents="heuristic", skip_forced=True)
    env.reset(seed=5)
    bot = OfferingHeuristicBot(7)
    twin = MonopolyHeuristicBot(7, accept_weight=1.0)  # the offering bot's own heuristic
    expected = env.game.action_id(twin.choose(env.game, env.seat))
    assert distill.fallback_label(env.game, env.seat, bot) == expected
    assert distill.fallback_label(env.game, env.seat, RandomBot(7)) == -1

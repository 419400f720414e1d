"""The baseline: MaskablePPO (sb3-contrib) on one Parlor seat against bots, with its evaluation.

Run (needs the ``train`` extra: ``pip install -e '.[train]'``)::

    nice -n 10 python -m parlor.rl.train --game tools --players 2 --timesteps 300000 --seed 0
    nice -n 10 python -m parlor.rl.train --game classic --players 4 --reward shaped --timesteps 200000

Every random number comes from ``--seed``: the training environments are seeded with ``seed + i``,
the policy with ``seed``, torch runs on one thread, and the evaluation games use seeds from
``EVAL_SEED_BASE`` on, never seen in training. The run writes, under ``--out``: the model, a
``results.json`` (hyperparameters, timings, the evaluation with a 95% Wilson interval) and a
learning curve PNG (the training episodes' win rate against time steps).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt

from parlor.rl.gym_env import ParlorGymEnv

EVAL_SEED_BASE = 1_000_000


class VectorObservation(gym.ObservationWrapper[npt.NDArray[np.float32], np.int64, dict[str, Any]]):
    """Hands the policy the float vector alone; the mask reaches MaskablePPO by ``action_masks``."""

    def __init__(self, env: ParlorGymEnv) -> None:
        super().__init__(env)
        space = env.observation_space
        assert isinstance(space, gym.spaces.Dict)
        self.observation_space = space["observation"]

    def observation(self, observation: dict[str, Any]) -> npt.NDArray[np.float32]:
        return observation["observation"]  # type: ignore[no-any-return]

    def action_masks(self) -> npt.NDArray[np.bool_]:
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined, no-any-return]


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate.

    >>> [round(x, 3) for x in wilson(70, 100)]
    [0.604, 0.781]
    """
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (centre - half, centre + half)


def env_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = json.loads(args.options) if args.options else {}
    return dict(
        game=args.game,
        players=args.players,
        seat="random",
        opponents=args.opponents,
        options=options,
        reward=args.reward,
        shaping_scale=args.shaping_scale,
        max_steps=args.max_steps,
        truncation_reward=args.truncation_reward,
        trade_offers=not args.no_trade_offers,
    )


def evaluate(
    model: Any, kwargs: dict[str, Any], games: int, deterministic: bool = True
) -> dict[str, Any]:
    """Play ``games`` seeded games with the masked policy (greedy, or sampled); count sole wins
    of games that ended (a game cut at the step cap is not a win, whatever its valuation)."""
    env = VectorObservation(ParlorGymEnv(**kwargs))
    wins = ties = truncated = 0
    for i in range(games):
        obs, info = env.reset(seed=EVAL_SEED_BASE + i)
        done = False
        while not done:
            action, _ = model.predict(
                obs, action_masks=env.action_masks(), deterministic=deterministic
            )
            obs, _, term, trunc, info = env.step(np.int64(action))
            done = term or trunc
        winners = info.get("winners")
        if winners is None:
            truncated += 1
        elif winners == (info["seat"],):
            wins += 1
        elif info["seat"] in winners:
            ties += 1
    low, high = wilson(wins, games)
    return {
        "games": games,
        "wins": wins,
        "ties": ties,
        "truncated": truncated,
        "win_rate": wins / games,
        "ci95": [low, high],
        "seeds": [EVAL_SEED_BASE, EVAL_SEED_BASE + games - 1],
        "policy": "greedy" if deterministic else "sampled",
    }


def plot_curve(
    timesteps: list[int], wins: list[float], path: Path, title: str, window: int
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = np.array(timesteps)
    y = np.convolve(np.array(wins), np.ones(window) / window, mode="valid")
    fig, ax = plt.subplots(figsize=(6, 3.2), dpi=80)
    ax.plot(x[window - 1 :], y, lw=1.2)
    ax.axhline(0.5 if "tools" in title.lower() else 0.25, color="grey", ls=":", lw=1)
    ax.set_xlabel("training time steps (learner decisions)")
    ax.set_ylabel(f"win rate (last {window} episodes)")
    ax.set_ylim(0, 1)
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="tools", help="'tools' or a property edition id")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponents", default="random", help="bot name for the other seats")
    parser.add_argument("--options", default="", help="rule options as JSON")
    parser.add_argument("--reward", default="win_loss", choices=["win_loss", "shaped"])
    parser.add_argument("--shaping-scale", type=float, default=1.0)
    parser.add_argument(
        "--max-steps", type=int, default=10_000, help="decisions per game (all seats)"
    )
    parser.add_argument("--truncation-reward", default="zero", choices=["zero", "valuation"])
    parser.add_argument(
        "--no-trade-offers",
        action="store_true",
        help="property games: leave trade proposals out of the learner's mask",
    )
    parser.add_argument("--timesteps", type=int, default=300_000)
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-steps", type=int, default=512, help="rollout length per environment")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument("--net", default="128,128", help="hidden layer sizes")
    parser.add_argument("--eval-games", type=int, default=1000)
    parser.add_argument(
        "--sampled-eval",
        action="store_true",
        help="evaluate by sampling the masked policy instead of taking its most likely action",
    )
    parser.add_argument("--window", type=int, default=200, help="episodes per curve point")
    parser.add_argument("--out", default="runs/tools")
    parser.add_argument(
        "--evaluate-only",
        action="store_true",
        help="skip training: evaluate the model saved in --out (results-eval.json)",
    )
    args = parser.parse_args(argv)

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)  # the machine is shared: one core
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    kwargs = env_kwargs(args)

    def make(i: int) -> Any:
        def thunk() -> gym.Env[Any, Any]:
            env = Monitor(VectorObservation(ParlorGymEnv(**kwargs)))
            env.reset(seed=args.seed + i)
            return env

        return thunk

    if args.evaluate_only:
        model = MaskablePPO.load(out / "model", device="cpu")
        start = time.monotonic()
        evaluation = evaluate(model, kwargs, args.eval_games, not args.sampled_eval)
        report: dict[str, Any] = {"args": vars(args), "env": kwargs, "evaluation": evaluation}
        report["eval_seconds"] = round(time.monotonic() - start, 1)
        (out / "results-eval.json").write_text(json.dumps(report, indent=2) + "\n")
        low, high = evaluation["ci95"]
        print(
            f"{out / 'model'}: evaluation over {evaluation['games']} games: "
            f"{evaluation['win_rate']:.1%} [{low:.1%}, {high:.1%}]"
        )
        return report

    vec = DummyVecEnv([make(i) for i in range(args.envs)])
    vec.seed(args.seed)

    curve_steps: list[int] = []
    curve_wins: list[float] = []

    class Curve(BaseCallback):
        def _on_step(self) -> bool:
            for info in self.locals["infos"]:
                if "episode" in info:
                    curve_steps.append(self.num_timesteps)
                    sole = info.get("winners") == (info.get("seat"),)
                    curve_wins.append(1.0 if sole else 0.0)
            return True

    hidden = [int(x) for x in args.net.split(",")]
    model = MaskablePPO(
        "MlpPolicy",
        vec,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.epochs,
        learning_rate=args.lr,
        gamma=args.gamma,
        ent_coef=args.ent_coef,
        policy_kwargs={"net_arch": hidden},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    start = time.monotonic()
    model.learn(total_timesteps=args.timesteps, callback=Curve())
    train_seconds = time.monotonic() - start
    model.save(out / "model")
    # The curve and the training figures are written before the (possibly long) evaluation.
    title = f"MaskablePPO, {args.game} {args.players}p vs {args.opponents}"
    if len(curve_wins) >= args.window:
        plot_curve(curve_steps, curve_wins, out / "curve.png", title, args.window)
    np.savetxt(
        out / "curve.csv", np.column_stack([curve_steps, curve_wins]), fmt="%d", delimiter=","
    )
    results: dict[str, Any] = {
        "args": vars(args),
        "env": kwargs,
        "train_seconds": round(train_seconds, 1),
        "train_episodes": len(curve_wins),
        "train_win_rate_last_window": float(np.mean(curve_wins[-args.window :]))
        if curve_wins
        else None,
        "versions": {"torch": torch.__version__},
    }
    (out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    start = time.monotonic()
    evaluation = evaluate(model, kwargs, args.eval_games, not args.sampled_eval)
    results["eval_seconds"] = round(time.monotonic() - start, 1)
    results["evaluation"] = evaluation
    (out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    low, high = evaluation["ci95"]
    print(
        f"{title}: {args.timesteps} steps in {train_seconds:.0f} s; evaluation over "
        f"{evaluation['games']} games: {evaluation['win_rate']:.1%} [{low:.1%}, {high:.1%}]"
    )
    return results


if __name__ == "__main__":
    main()

"""The baseline: MaskablePPO (sb3-contrib) on one Parlor seat against bots, with its evaluation.

Run (needs the ``train`` extra: ``pip install -e '.[train]'``)::

    nice -n 10 python -m parlor.rl.train --game tools --players 2 --timesteps 300000 --seed 0
    nice -n 10 python -m parlor.rl.train --game classic --players 4 --reward margin \
        --gamma 0.995 --max-steps 4000 --no-trade-offers --liquidate for_debts --skip-forced \
        --truncation-reward valuation

Every random number comes from ``--seed``: the training environments are seeded with ``seed + i``,
the policy with ``seed``, torch runs on one thread, and the evaluation games use seeds from
``parlor.rl.policy.EVAL_SEED_BASE`` on, never seen in training. The run writes, under ``--out``: the model, a
``results.json`` (hyperparameters, timings, the evaluation with a 95% Wilson interval), a
learning curve PNG (the training episodes' win rate against time steps) and ``policy.npz``, the
greedy policy exported for :class:`parlor.rl.policy.MlpPolicy` (plays without torch); the
evaluation is that exported policy's.
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt

from parlor.i18n import environment_language, translator
from parlor.rl.gym_env import ParlorGymEnv
from parlor.rl.policy import MODELS, MlpPolicy, RandomPolicy, evaluate


class VectorObservation(gym.ObservationWrapper[npt.NDArray[np.float32], np.int64, dict[str, Any]]):
    """Hands the policy the float vector alone; the mask reaches MaskablePPO by ``action_masks``."""

    def __init__(self, env: ParlorGymEnv) -> None:
        super().__init__(env)
        space = env.observation_space
        assert isinstance(space, gym.spaces.Dict)
        self.observation_space = space["observation"]

    def observation(self, observation: dict[str, Any]) -> npt.NDArray[np.float32]:
        return observation["observation"]  # type: ignore[no-any-return]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """As the environment's, but a game that ended before the learner's first real choice
        (``skip_forced`` can play a whole short TOOLS game for it) is replaced by the next one,
        drawn from the environment's seeded generator: a step is always possible after reset."""
        obs, info = super().reset(seed=seed, options=options)
        table = self.env.unwrapped.table  # type: ignore[attr-defined]
        while table.over or table.decider != self.env.unwrapped.seat:  # type: ignore[attr-defined]
            obs, info = super().reset(options=options)
        return obs, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined, no-any-return]


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
        liquidate=args.liquidate,
        skip_forced=args.skip_forced,
    )


def export_policy(model: Any, kwargs: dict[str, Any]) -> MlpPolicy:
    """The actor of a MaskablePPO MLP policy as NumPy layers (its greedy choice is the same)."""
    import torch

    policy = model.policy
    linears = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    linears.append(policy.action_net)
    layers = [(m.weight.detach().cpu().numpy(), m.bias.detach().cpu().numpy()) for m in linears]
    activation = policy.activation_fn.__name__.lower()
    return MlpPolicy(layers, activation, {"env": kwargs})


def load_actor(model: Any, policy: MlpPolicy) -> None:
    """Starts a MaskablePPO actor from an exported (or distilled, ``parlor.rl.distill``) policy:
    the same layer sizes and activation; the value network keeps its fresh weights."""
    import torch

    actor = model.policy
    linears = [m for m in actor.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    linears.append(actor.action_net)
    if len(linears) != len(policy.layers):
        raise ValueError(f"--init has {len(policy.layers)} layers, the model {len(linears)}")
    with torch.no_grad():
        for module, (w, b) in zip(linears, policy.layers, strict=True):
            if tuple(module.weight.shape) != w.shape:
                raise ValueError(
                    f"--init layer {w.shape} does not fit {tuple(module.weight.shape)}"
                )
            module.weight.copy_(torch.from_numpy(w))
            module.bias.copy_(torch.from_numpy(b))


def sampled(model: Any) -> Any:
    """The policy that samples the masked MaskablePPO distribution instead of its argmax."""

    def choose(observation: Any, mask: Any) -> int:
        action, _ = model.predict(observation, action_masks=mask, deterministic=False)
        return int(action)

    return choose


def plot_curve(
    timesteps: list[int],
    wins: list[float],
    path: Path,
    title: str,
    window: int,
    references: dict[str, float] | None = None,
) -> None:
    """The training episodes' win rate (moving window) against time steps; ``references`` are
    labelled horizontal lines (an evaluated yardstick); the dotted line is an even share."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = np.array(timesteps)
    y = np.convolve(np.array(wins), np.ones(window) / window, mode="valid")
    fig, ax = plt.subplots(figsize=(6, 3.2), dpi=80)
    ax.plot(x[window - 1 :], y, lw=1.2, label="MaskablePPO, training games")
    ax.axhline(0.5 if "tools" in title.lower() else 0.25, color="grey", ls=":", lw=1)
    for (label, value), colour in zip(
        (references or {}).items(), ("tab:red", "tab:green"), strict=False
    ):
        ax.axhline(value, color=colour, ls="--", lw=1, label=label)
    if references:
        ax.legend(fontsize=8, loc="lower right")
    ax.set_xlabel("training time steps (learner decisions)")
    ax.set_ylabel(f"ranked first (last {window} games)")
    ax.set_ylim(0, 1)
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def replot(args: argparse.Namespace) -> None:
    """Redraws ``--out``/curve.png from curve.csv, with the evaluated win rates of the trained
    policy (results.json) and of the random policy (results-random.json) when present."""
    out = Path(args.out)
    data = np.loadtxt(out / "curve.csv", delimiter=",", dtype=np.int64, ndmin=2)
    references: dict[str, float] = {}
    for name, label in (
        ("results.json", "trained policy, evaluation"),
        ("results-random.json", "random legal ids, same mask, evaluation"),
    ):
        if (out / name).exists():
            evaluation = json.loads((out / name).read_text()).get("evaluation")
            if evaluation:
                references[label] = float(evaluation["win_rate"])
    title = f"MaskablePPO, {args.game} {args.players}p vs {args.opponents}"
    plot_curve(
        data[:, 0].tolist(), data[:, 1].tolist(), out / "curve.png", title, args.window, references
    )


def ship(out: Path, name: str) -> dict[str, Any]:
    """Copies a run's exported policy and its figures (results.json, and results-random.json for
    the yardstick) to ``parlor.rl.policy.MODELS``, where docs/rl.md reads them."""
    results = json.loads((out / "results.json").read_text())
    if "evaluation" not in results:  # evaluated apart (--evaluate-only)
        evaluated = json.loads((out / "results-eval.json").read_text())
        results.update(evaluation=evaluated["evaluation"], eval_seconds=evaluated["eval_seconds"])
    random_path = out / "results-random.json"
    shipped = {
        "name": name,
        "args": results["args"],
        "env": results["env"],
        "eval_env": results["eval_env"],
        "train": {
            key: results[key]
            for key in (
                "trained_timesteps",
                "train_episodes",
                "train_seconds",
                "train_cpu_seconds",
                "train_win_rate_last_window",
                "versions",
            )
        },
        "evaluation": results["evaluation"],
        "eval_seconds": results["eval_seconds"],
        "random_policy": json.loads(random_path.read_text())["evaluation"]
        if random_path.exists()
        else None,
    }
    MODELS.mkdir(exist_ok=True)
    shutil.copyfile(out / "policy.npz", MODELS / f"{name}.npz")
    (MODELS / f"{name}.json").write_text(json.dumps(shipped, indent=2) + "\n")
    print(f"shipped {MODELS / name}.npz and .json")
    return shipped


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    _ = translator(environment_language() or "en")  # the help in the user's language
    parser = argparse.ArgumentParser(
        description=_(
            "The baseline: MaskablePPO (sb3-contrib) on one Parlor seat against bots, "
            "with its evaluation."
        )
    )
    parser.add_argument("--game", default="tools", help=_("'tools' or a property edition id"))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponents", default="random", help=_("bot name for the other seats"))
    parser.add_argument("--options", default="", help=_("rule options as JSON"))
    parser.add_argument("--reward", default="win_loss", choices=["win_loss", "shaped", "margin"])
    parser.add_argument("--shaping-scale", type=float, default=1.0)
    parser.add_argument(
        "--max-steps", type=int, default=10_000, help=_("decisions per training game (all seats)")
    )
    parser.add_argument("--truncation-reward", default="zero", choices=["zero", "valuation"])
    parser.add_argument(
        "--no-trade-offers",
        action="store_true",
        help=_("property games: leave trade proposals out of the learner's mask"),
    )
    parser.add_argument(
        "--liquidate",
        default="any_time",
        choices=["any_time", "for_debts"],
        help=_(
            "property games: 'for_debts' masks mortgaging and selling buildings except to pay a debt"
        ),
    )
    parser.add_argument(
        "--skip-forced",
        action="store_true",
        help=_("the environment plays the learner's decisions that have a single legal id"),
    )
    parser.add_argument("--timesteps", type=int, default=300_000)
    parser.add_argument(
        "--max-minutes",
        type=float,
        default=None,
        help=_(
            "stop training before the first rollout that starts after this many minutes "
            "(the model is then that of the last whole update; results.json says how many steps)"
        ),
    )
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--n-steps", type=int, default=512, help=_("rollout length per environment")
    )
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument("--net", default="128,128", help=_("hidden layer sizes"))
    parser.add_argument(
        "--init",
        default=None,
        help=_(
            "start the actor from this policy.npz (e.g. from parlor.rl.distill); "
            "its sizes set --net and its activation the network's"
        ),
    )
    parser.add_argument("--eval-games", type=int, default=1000)
    parser.add_argument(
        "--eval-max-steps",
        type=int,
        default=None,
        help=_("decisions per evaluation game (default: the environment's own cap, 10000)"),
    )
    parser.add_argument(
        "--eval-jobs",
        type=int,
        default=1,
        help=_("evaluation games split over this many processes"),
    )
    parser.add_argument(
        "--sampled-eval",
        action="store_true",
        help=_("evaluate by sampling the masked policy instead of taking its most likely action"),
    )
    parser.add_argument(
        "--eval-random",
        action="store_true",
        help=_("only evaluate the uniformly random policy on the same mask (the yardstick)"),
    )
    parser.add_argument("--window", type=int, default=200, help=_("episodes per curve point"))
    parser.add_argument(
        "--ship",
        metavar="NAME",
        help=_("only copy --out's policy.npz and figures to src/parlor/rl/models/NAME.npz/.json"),
    )
    parser.add_argument(
        "--replot",
        action="store_true",
        help=_("only redraw --out/curve.png from curve.csv, with the evaluated win rates as lines"),
    )
    parser.add_argument("--out", default="runs/tools")
    parser.add_argument(
        "--evaluate-only",
        action="store_true",
        help=_("skip training: evaluate the model saved in --out (results-eval.json)"),
    )
    return parser.parse_args(argv)


def eval_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """The training environment judged by the book: win/loss, the evaluation cap, and at the cap
    the leaders by the book's valuation."""
    kwargs = env_kwargs(args)
    kwargs.update(reward="win_loss", truncation_reward="valuation")
    kwargs.pop("max_steps")
    if args.eval_max_steps is not None:
        kwargs["max_steps"] = args.eval_max_steps
    return kwargs


def summary(name: str, evaluation: dict[str, Any]) -> str:
    low, high = evaluation["ci95"]
    return (
        f"{name}: ranked first in {evaluation['first']} of {evaluation['games']} games: "
        f"{evaluation['win_rate']:.1%} [{low:.1%}, {high:.1%}] ({evaluation['wins']} won outright, "
        f"{evaluation['first_at_cap']} of {evaluation['truncated']} cut at "
        f"{evaluation['max_steps']} decisions led by valuation)"
    )


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    kwargs = env_kwargs(args)
    judged = eval_kwargs(args)
    if args.replot:
        replot(args)
        return {}
    if args.ship:
        return ship(Path(args.out), args.ship)
    if args.eval_random:
        start = time.monotonic()
        evaluation = evaluate(RandomPolicy(args.seed), judged, args.eval_games)
        report: dict[str, Any] = {"args": vars(args), "env": judged, "evaluation": evaluation}
        report["eval_seconds"] = round(time.monotonic() - start, 1)
        (out / "results-random.json").write_text(json.dumps(report, indent=2) + "\n")
        print(summary("uniformly random legal ids", evaluation))
        return report

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)  # the machine is shared: one core

    def make(i: int) -> Any:
        def thunk() -> gym.Env[Any, Any]:
            env = Monitor(VectorObservation(ParlorGymEnv(**kwargs)))
            env.reset(seed=args.seed + i)
            return env

        return thunk

    def judge(model: Any) -> dict[str, Any]:
        if args.sampled_eval:
            return evaluate(sampled(model), judged, args.eval_games)
        policy = export_policy(model, judged)
        policy.save(out / "policy.npz")
        return evaluate(policy, judged, args.eval_games, jobs=args.eval_jobs)

    if args.evaluate_only:
        model = MaskablePPO.load(out / "model", device="cpu")
        start = time.monotonic()
        evaluation = judge(model)
        report = {"args": vars(args), "env": judged, "evaluation": evaluation}
        report["eval_seconds"] = round(time.monotonic() - start, 1)
        (out / "results-eval.json").write_text(json.dumps(report, indent=2) + "\n")
        print(summary(str(out / "model"), evaluation))
        return report

    vec = DummyVecEnv([make(i) for i in range(args.envs)])
    vec.seed(args.seed)

    curve_steps: list[int] = []
    curve_wins: list[float] = []

    class Curve(BaseCallback):
        stop = False

        def _on_rollout_start(self) -> None:
            minutes = (time.monotonic() - start) / 60
            self.stop = args.max_minutes is not None and minutes >= args.max_minutes

        def _on_step(self) -> bool:
            if self.stop:
                return False
            for info in self.locals["infos"]:
                if "episode" in info:
                    curve_steps.append(self.num_timesteps)
                    # Ranked first: the sole winner, or the sole leader by valuation at the cap.
                    ranked = info.get("winners", info.get("leaders"))
                    curve_wins.append(1.0 if ranked == (info.get("seat"),) else 0.0)
            return True

    hidden = [int(x) for x in args.net.split(",")]
    policy_kwargs: dict[str, Any] = {"net_arch": hidden}
    init = MlpPolicy.load(args.init) if args.init else None
    if init is not None:
        hidden = [w.shape[0] for w, _ in init.layers[:-1]]
        activations = {"relu": torch.nn.ReLU, "tanh": torch.nn.Tanh}
        policy_kwargs = {"net_arch": hidden, "activation_fn": activations[init.activation]}
    model = MaskablePPO(
        "MlpPolicy",
        vec,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.epochs,
        learning_rate=args.lr,
        gamma=args.gamma,
        ent_coef=args.ent_coef,
        policy_kwargs=policy_kwargs,
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    if init is not None:
        load_actor(model, init)
    start = time.monotonic()
    cpu_start = time.process_time()
    model.learn(total_timesteps=args.timesteps, callback=Curve())
    train_seconds = time.monotonic() - start
    train_cpu_seconds = time.process_time() - cpu_start
    rollout = args.n_steps * args.envs
    trained_steps = model.num_timesteps // rollout * rollout  # whole updates only
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
        "eval_env": judged,
        "train_seconds": round(train_seconds, 1),
        "train_cpu_seconds": round(train_cpu_seconds, 1),
        "trained_timesteps": trained_steps,
        "train_episodes": len(curve_wins),
        "train_win_rate_last_window": float(np.mean(curve_wins[-args.window :]))
        if curve_wins
        else None,
        "versions": {"torch": torch.__version__},
    }
    (out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    start = time.monotonic()
    evaluation = judge(model)
    results["eval_seconds"] = round(time.monotonic() - start, 1)
    results["evaluation"] = evaluation
    (out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    print(
        f"{title}: {trained_steps} steps in {train_seconds:.0f} s "
        f"({train_cpu_seconds:.0f} CPU s); " + summary("evaluation", evaluation)
    )
    return results


if __name__ == "__main__":
    main()

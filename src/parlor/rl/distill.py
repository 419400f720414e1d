"""Baselines by imitation: a Parlor bot teaches an MLP on the environment's own observations.

DAgger (Ross, Gordon and Bagnell, 2011): in iteration 0 the teacher plays the learning seat and
every decision is recorded as (observation, legal ids, the teacher's action id); in iteration
``k`` the learner plays it (the teacher with probability ``beta ** k``), and the teacher labels
the states the learner itself reaches. After every iteration the MLP is fitted on all the pairs
gathered so far (masked softmax cross-entropy, Adam, plain NumPy: no torch), so the result is a
:class:`parlor.rl.policy.MlpPolicy` that plays without torch.

The teacher sees what the seat's bot would see (``Bot.choose(game, seat)``, the same call the
environment makes for the opponents). A teacher choice outside the learner's mask (the narrowed
masks drop trade proposals, and mortgaging except to pay a debt; the catalogue has ids only for
one deed or card for cash at three price levels) gives no pair, unless ``--snap-trades`` labels a
proposal by the nearest catalogue trade; the move is then the learner's (or, in iteration 0, a
uniformly random legal id). ``--opponents "random;heuristic"`` takes lineups in turn.

Run (no extra needed beyond ``rl``)::

    nice -n 10 python -m parlor.rl.distill --game classic --players 4 --opponents random \
        --teacher heuristic --no-trade-offers --liquidate for_debts --skip-forced \
        --games 400 --iterations 4 --out runs/distill-classic

Every random number comes from ``--seed``: game ``i`` of iteration ``k`` has seed
``seed * 1_000_003 + k * 100_000 + i`` (a seed whose games would fall among the first
100,000 evaluation seeds of ``parlor.rl.policy.EVAL_SEED_BASE``, such as 1, is refused), the teachers and the mixing coin are seeded from it, and
the weights' initialisation and the minibatch order from ``seed``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from parlor.bots.registry import make_bot
from parlor.rl.gym_env import ParlorGymEnv
from parlor.rl.policy import EVAL_SEED_BASE, MODELS, MlpPolicy, RandomPolicy, evaluate

FloatArray = npt.NDArray[np.float32]
Pairs = tuple[list[FloatArray], list[npt.NDArray[np.int32]], list[int]]
_ITERATION_SEEDS = 100_000  # game seeds of one iteration: base + k * this + i
_EVAL_SEEDS = range(EVAL_SEED_BASE, EVAL_SEED_BASE + 100_000)  # kept out of training


def _children_cpu() -> float:
    times = os.times()
    return times.children_user + times.children_system


def game_seed(seed: int, iteration: int, game: int) -> int:
    return seed * 1_000_003 + iteration * _ITERATION_SEEDS + game


def lineups(opponents: str) -> list[str | list[str]]:
    """``--opponents``: one lineup, or several separated by ``;`` that the games take in turn
    (game ``i`` plays lineup ``i % k``); a lineup is one bot name for every other seat or names
    separated by ``,`` in seat order (``"random;heuristic"``, ``"random,heuristic,random"``)."""
    out: list[str | list[str]] = []
    for part in opponents.split(";"):
        names = [name.strip() for name in part.split(",")]
        out.append(names[0] if len(names) == 1 else names)
    return out


def snap_trade(game: Any, seat: int, choice: Any, ids: npt.NDArray[np.int32]) -> int:
    """The legal catalogue id nearest to a teacher's trade proposal that has no id of its own:
    the same deeds and jail cards with the same player, and the cash the least above what the
    teacher offers (the teacher's bots offer the least their partner accepts, so a cheaper snap
    would be refused), else the closest below; -1 if none. A purchase of one deed has a price at
    every eighth of its printed price from 0.5x to 3.5x; other catalogue trades 1x, 1.5x or 2x."""
    if type(choice).__name__ != "ProposeTrade":
        return -1
    shape = (choice.to, choice.give_squares, choice.take_squares)
    cards = (choice.give_jail_cards, choice.take_jail_cards)
    net = choice.give_cash - choice.take_cash
    best, best_gap = -1, None
    for i in ids:
        action = game.action_from_id(int(i), seat)
        if type(action).__name__ != "ProposeTrade":
            continue
        if (action.to, action.give_squares, action.take_squares) != shape or (
            action.give_jail_cards,
            action.take_jail_cards,
        ) != cards:
            continue
        more = action.give_cash - action.take_cash - net  # >= 0: at least as generous
        gap = more if more >= 0 else 1_000_000_000 - more
        if best_gap is None or gap < best_gap:
            best, best_gap = int(i), gap
    return best


def fallback_label(game: Any, seat: int, bot: Any) -> int:
    """With ``--snap-trades``, for a proposal no catalogue trade snaps to (several deeds, a deed
    given with the cash): the id of what the teacher would play without its offer, when it is
    a heuristic with offers (the ``offering`` bot's ``heuristic``); -1 otherwise."""
    inner = getattr(bot, "heuristic", None)
    if inner is None:
        return -1
    try:
        return int(game.action_id(inner.choose(game, seat)))
    except (ValueError, TypeError, KeyError):
        return -1


def collect(
    env_kwargs: dict[str, Any],
    teacher: str,
    teacher_options: dict[str, Any],
    learner: MlpPolicy | None,
    beta: float,
    seeds: list[int],
    snap: bool = False,
) -> tuple[Pairs, dict[str, int]]:
    """Plays one game per seed; returns the labelled pairs and counts (games won by the
    learning seat, decisions, decisions the teacher's choice left unlabelled, proposals
    labelled by their nearest catalogue trade with ``snap``). ``env_kwargs["opponents"]`` may
    name several lineups (:func:`lineups`): the game of seed ``s`` plays lineup ``s % k``."""
    teams = lineups(env_kwargs["opponents"])
    envs = [ParlorGymEnv(**{**env_kwargs, "opponents": team}) for team in teams]
    observations: list[FloatArray] = []
    legal: list[npt.NDArray[np.int32]] = []
    labels: list[int] = []
    counts = {"games": 0, "won": 0, "decisions": 0, "unlabelled": 0, "snapped": 0, "fallback": 0}
    for seed in seeds:
        env = envs[seed % len(envs)]
        rng = np.random.default_rng(seed)
        obs, info = env.reset(seed=seed)
        if learner is not None:
            learner.reset()
        bot = make_bot(env.family, teacher, seed=seed, **teacher_options)
        # A game can end before the learner's first decision (a bot goes out at once).
        done = env.table.over or env.table.decider != env.seat
        while not done:
            mask = env.action_masks()
            ids = np.flatnonzero(mask).astype(np.int32)
            choice = bot.choose(env.game, env.seat)
            try:
                label = int(env.game.action_id(choice))
            except (ValueError, TypeError, KeyError):
                label = -1  # an action without an id (an odd trade)
            if snap and label < 0:
                label = snap_trade(env.game, env.seat, choice, ids)
                counts["snapped"] += label >= 0
                if label < 0:
                    label = fallback_label(env.game, env.seat, bot)
                    counts["fallback"] += label >= 0
            counts["decisions"] += 1
            if label >= 0 and mask[label]:
                observations.append(obs["observation"].astype(np.float32))
                legal.append(ids)
                labels.append(label)
            else:
                counts["unlabelled"] += 1
                label = -1
            teacher_moves = learner is None or rng.random() < beta
            if teacher_moves and label >= 0:
                move = label
            elif learner is not None:
                move = learner(obs["observation"], mask)
            else:
                move = int(rng.choice(ids))
            obs, _, terminated, truncated, info = env.step(np.int64(move))
            done = terminated or truncated
        counts["games"] += 1
        counts["won"] += info.get("winners") == (info["seat"],)
    return (observations, legal, labels), counts


def collect_parallel(
    env_kwargs: dict[str, Any],
    teacher: str,
    teacher_options: dict[str, Any],
    learner: MlpPolicy | None,
    beta: float,
    seeds: list[int],
    jobs: int,
    snap: bool = False,
) -> tuple[Pairs, dict[str, int]]:
    """:func:`collect` over ``jobs`` processes (each game depends on its seed alone, so the pairs
    are the same, in the same order, for any ``jobs``)."""
    jobs = max(1, min(jobs, len(seeds)))
    if jobs == 1:
        return collect(env_kwargs, teacher, teacher_options, learner, beta, seeds, snap)
    chunks = [seeds[k::jobs] for k in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(
            pool.map(
                collect,
                [env_kwargs] * jobs,
                [teacher] * jobs,
                [teacher_options] * jobs,
                [learner] * jobs,
                [beta] * jobs,
                chunks,
                [snap] * jobs,
            )
        )
    pairs: Pairs = ([], [], [])
    counts = {key: sum(part[1][key] for part in parts) for key in parts[0][1]}
    for (obs, legal, labels), _ in parts:
        pairs[0].extend(obs)
        pairs[1].extend(legal)
        pairs[2].extend(labels)
    return pairs, counts


class Trainer:
    """A ReLU MLP fitted by masked softmax cross-entropy with Adam, in NumPy. Its layers are
    :class:`MlpPolicy`'s (``w @ x + b``), so the policy is the same object before and after."""

    def __init__(self, sizes: list[int], seed: int, lr: float = 1e-3) -> None:
        rng = np.random.default_rng(seed)
        self.layers: list[tuple[FloatArray, FloatArray]] = []
        for i, (fan_in, fan_out) in enumerate(itertools.pairwise(sizes)):
            scale = np.sqrt(2.0 / fan_in) if i < len(sizes) - 2 else 0.01  # He; small logits
            w = (rng.normal(size=(fan_out, fan_in)) * scale).astype(np.float32)
            self.layers.append((w, np.zeros(fan_out, np.float32)))
        self.rng = rng
        self.lr = lr
        self.t = 0
        self.moments = [
            [np.zeros_like(p) for p in (w, b, w, b)] for w, b in self.layers
        ]  # m_w, m_b, v_w, v_b

    @classmethod
    def from_policy(cls, policy: MlpPolicy, seed: int, lr: float = 1e-3) -> Trainer:
        """A trainer that starts from ``policy``'s weights (a ReLU MLP, e.g. an earlier
        imitation), so a stronger teacher refines it instead of starting over."""
        if policy.activation != "relu":
            raise ValueError("only a ReLU policy can be refined by the NumPy trainer")
        sizes = [policy.layers[0][0].shape[1], *(w.shape[0] for w, _ in policy.layers)]
        trainer = cls(sizes, seed, lr)
        trainer.layers = [(w.copy(), b.copy()) for w, b in policy.layers]
        return trainer

    def widen(self, num_actions: int) -> None:
        """Give a property policy trained before the finer purchase ladder was appended to the
        action layout (1466 ids) an output row per new id, a copy of the row of the nearest
        1x/1.5x/2x purchase of the same square (``coarse_buy_id``); Adam starts over."""
        from parlor.monopoly.id_space import coarse_buy_id

        w, b = self.layers[-1]
        old = w.shape[0]
        if old >= num_actions:
            return
        rows = [coarse_buy_id(i) for i in range(old, num_actions)]
        if max(rows) >= old:
            raise ValueError(f"a policy of {old} outputs cannot be widened to {num_actions}")
        self.layers[-1] = (np.concatenate([w, w[rows]]), np.concatenate([b, b[rows]]))
        self.moments = [[np.zeros_like(p) for p in (w, b, w, b)] for w, b in self.layers]
        self.t = 0

    def policy(self, meta: dict[str, Any]) -> MlpPolicy:
        return MlpPolicy([(w.copy(), b.copy()) for w, b in self.layers], "relu", meta)

    def _step(self, x: FloatArray, masks: npt.NDArray[np.bool_], labels: Any) -> float:
        activations = [x]
        for w, b in self.layers[:-1]:
            activations.append(np.maximum(activations[-1] @ w.T + b, 0))
        w_out, b_out = self.layers[-1]
        logits = activations[-1] @ w_out.T + b_out
        logits = np.where(masks, logits, -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits) * masks
        p /= p.sum(axis=1, keepdims=True)
        rows = np.arange(len(labels))
        loss = float(-np.log(p[rows, labels] + 1e-12).mean())
        grad = p
        grad[rows, labels] -= 1.0
        grad /= len(labels)
        self.t += 1
        b1, b2 = 0.9, 0.999
        for i in range(len(self.layers) - 1, -1, -1):
            w, b = self.layers[i]
            a = activations[i]
            gw = (grad.T @ a).astype(np.float32)
            gb = grad.sum(axis=0).astype(np.float32)
            if i > 0:
                grad = (grad @ w) * (a > 0)
            m = self.moments[i]
            for k, g in ((0, gw), (1, gb)):
                m[k] = b1 * m[k] + (1 - b1) * g
                m[k + 2] = b2 * m[k + 2] + (1 - b2) * g * g
            step = self.lr * np.sqrt(1 - b2**self.t) / (1 - b1**self.t)
            w -= (step * m[0] / (np.sqrt(m[2]) + 1e-8)).astype(np.float32)
            b -= (step * m[1] / (np.sqrt(m[3]) + 1e-8)).astype(np.float32)
        return loss

    def fit(self, pairs: Pairs, num_actions: int, epochs: int, batch: int) -> list[float]:
        """``epochs`` passes over the pairs in a seeded order; the mean loss of each pass."""
        x_all = np.stack(pairs[0]).astype(np.float32)
        labels_all = np.asarray(pairs[2], dtype=np.int64)
        legal = pairs[1]
        losses = []
        for _ in range(epochs):
            order = self.rng.permutation(len(labels_all))
            total = 0.0
            for start in range(0, len(order), batch):
                idx = order[start : start + batch]
                masks = np.zeros((len(idx), num_actions), dtype=bool)
                for row, j in enumerate(idx):
                    masks[row, legal[j]] = True
                total += self._step(x_all[idx], masks, labels_all[idx]) * len(idx)
            losses.append(total / len(order))
        return losses


def accuracy(policy: MlpPolicy, pairs: Pairs, num_actions: int) -> float:
    """How often the greedy masked policy picks the teacher's id."""
    hits = 0
    for obs, ids, label in zip(*pairs, strict=True):
        mask = np.zeros(num_actions, dtype=bool)
        mask[ids] = True
        hits += policy(obs, mask) == label
    return hits / max(1, len(pairs[2]))


def env_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    return dict(
        game=args.game,
        players=args.players,
        seat="random",
        opponents=args.opponents,
        options=json.loads(args.options) if args.options else {},
        trade_offers=not args.no_trade_offers,
        liquidate=args.liquidate,
        skip_forced=args.skip_forced,
        max_steps=args.max_steps,
    )


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Imitation of a Parlor bot (DAgger) into a NumPy MLP policy."
    )
    parser.add_argument("--game", default="tools")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument(
        "--opponents",
        default="random",
        help="bot names; lineups separated by ';' take the games in turn (random;heuristic)",
    )
    parser.add_argument("--options", default="", help="rule options as JSON")
    parser.add_argument("--teacher", default="heuristic")
    parser.add_argument("--teacher-options", default="", help="the teacher bot's options (JSON)")
    parser.add_argument("--no-trade-offers", action="store_true")
    parser.add_argument("--liquidate", default="any_time", choices=["any_time", "for_debts"])
    parser.add_argument("--skip-forced", action="store_true")
    parser.add_argument(
        "--snap-trades",
        action="store_true",
        help="label a teacher's proposal that has no id by the nearest legal catalogue trade",
    )
    parser.add_argument(
        "--no-repeat",
        action="store_true",
        help="the policy never repeats a choice in a state it has already met in the game (no "
        "loop of rejected offers); stored in the policy",
    )
    parser.add_argument("--max-steps", type=int, default=4000, help="decisions per training game")
    parser.add_argument("--games", type=int, default=400, help="games per DAgger iteration")
    parser.add_argument("--iterations", type=int, default=4, help="DAgger iterations after 0")
    parser.add_argument("--beta", type=float, default=0.5, help="teacher share decays as beta**k")
    parser.add_argument("--epochs", type=int, default=6, help="passes over all pairs per fit")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--net", default="256,256", help="hidden layer sizes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--init",
        metavar="POLICY",
        help="start from this policy.npz's weights (its --net replaces --net); iteration 0 then "
        "also says how often it agrees with the teacher",
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes that play the games")
    parser.add_argument("--out", default="runs/distill")
    parser.add_argument(
        "--evaluate",
        metavar="OPPONENTS",
        help="skip training: evaluate --out's policy.npz against these bots (e.g. random or "
        "heuristic), and the uniformly random policy on the same seeds (results-OPPONENTS.json)",
    )
    parser.add_argument("--policy", help="with --evaluate: this policy.npz instead of --out's")
    parser.add_argument("--eval-games", type=int, default=500)
    parser.add_argument(
        "--eval-max-rounds", type=int, default=None, help="property games: cut at this round"
    )
    parser.add_argument("--eval-jobs", type=int, default=1)
    parser.add_argument(
        "--eval-seed-base",
        type=int,
        default=EVAL_SEED_BASE,
        help="first evaluation game seed (within the 100,000 seeds kept out of training), so an "
        "agent can be judged on seeds no earlier evaluation used",
    )
    parser.add_argument("--no-eval-random", action="store_true", help="skip the yardstick")
    parser.add_argument(
        "--only-random",
        action="store_true",
        help="only the yardstick (results-OPPONENTS-random.json; it needs no trained policy "
        "but --out's policy.npz for the environment, so it can run while training goes on)",
    )
    parser.add_argument(
        "--ship", metavar="NAME", help="only copy --out's policy and figures to the models folder"
    )
    parser.add_argument(
        "--finetune", metavar="DIR", help="with --ship: the parlor.rl.train --init run to ship"
    )
    return parser.parse_args(argv)


def evaluate_run(args: argparse.Namespace) -> dict[str, Any]:
    """The greedy policy and the uniformly random one on the same fresh seeds, by the book's
    outcome; a round cap (``--eval-max-rounds``) ranks the players still in by valuation."""
    out = Path(args.out)
    base = args.eval_seed_base
    if base not in _EVAL_SEEDS or base + args.eval_games - 1 not in _EVAL_SEEDS:
        raise SystemExit(f"evaluation seeds must lie in {_EVAL_SEEDS} (kept out of training)")
    policy = MlpPolicy.load(args.policy or out / "policy.npz")
    kwargs = {**policy.meta["env"], "opponents": args.evaluate}
    if args.eval_max_rounds is not None:
        kwargs["max_steps"] = 10**9  # the round cap alone cuts games
    report: dict[str, Any] = {"opponents": args.evaluate, "env": kwargs, "seed_base": base}
    players: list[tuple[str, Any]] = [] if args.only_random else [("agent", policy)]
    if not args.no_eval_random:
        players.append(("random_policy", RandomPolicy(args.seed)))
    name = f"results-{args.evaluate}-random.json" if args.only_random else None
    for key, player in players:
        start = time.monotonic()
        result = evaluate(
            player,
            kwargs,
            args.eval_games,
            seed_base=base,
            jobs=args.eval_jobs,
            max_rounds=args.eval_max_rounds,
        )
        result["eval_seconds"] = round(time.monotonic() - start, 1)
        report[key] = result
        print(key, json.dumps(result), flush=True)
    (out / (name or f"results-{args.evaluate}.json")).write_text(
        json.dumps(report, indent=2) + "\n"
    )
    return report


def _init_stages(init: str | None) -> list[dict[str, Any]]:
    """The stages of the policy a run started from (``--init``): a shipped model's (its
    ``NAME.json`` beside ``NAME.npz``) or a run's (``results.json`` beside ``policy.npz``)."""
    if not init:
        return []
    path = Path(init)
    shipped = path.with_suffix(".json")
    if shipped.exists():
        stages: list[dict[str, Any]] = json.loads(shipped.read_text())["stages"]
        return stages
    run = path.parent / "results.json"
    if run.exists():
        earlier = json.loads(run.read_text())
        return [*_init_stages(earlier["args"].get("init")), {"method": "distill", **earlier}]
    return []


def ship(out: Path, name: str, finetune: Path | None = None) -> dict[str, Any]:
    """Copies a run's policy and figures to ``parlor.rl.policy.MODELS`` as NAME.npz and NAME.json:
    the imitation (``out/results.json``), the MaskablePPO fine-tuning that started from it
    (``finetune/results.json`` of ``parlor.rl.train --init``; its policy.npz is then the one
    shipped) and the evaluations of the shipped policy (``out/results-*.json``)."""
    run = json.loads((out / "results.json").read_text())
    stages = _init_stages(run["args"].get("init"))
    stages.append({"method": "distill", **run})
    policy = out / "policy.npz"
    if finetune is not None:
        tuned = json.loads((finetune / "results.json").read_text())
        tuned.pop("evaluation", None)  # train's own evaluation: the shipped ones are below
        stages.append({"method": "maskable_ppo", **tuned})
        policy = finetune / "policy.npz"
    evaluations: dict[str, Any] = {}
    for path in sorted(out.glob("results-*.json")):
        report = json.loads(path.read_text())
        entry = evaluations.setdefault(report["opponents"], {})
        for key, value in report.items():  # an apart yardstick joins its agent's entry
            entry.setdefault(key, value)
    shipped = {
        "name": name,
        "eval_env": MlpPolicy.load(policy).meta["env"],
        "stages": stages,
        "evaluations": evaluations,
    }
    MODELS.mkdir(exist_ok=True)
    (MODELS / f"{name}.npz").write_bytes(policy.read_bytes())
    (MODELS / f"{name}.json").write_text(json.dumps(shipped, indent=2) + "\n")
    print(f"shipped {MODELS / name}.npz and .json")
    return shipped


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.evaluate:
        return evaluate_run(args)
    if args.ship:
        return ship(out, args.ship, Path(args.finetune) if args.finetune else None)
    kwargs = env_kwargs(args)
    teacher_options = json.loads(args.teacher_options) if args.teacher_options else {}
    probe = ParlorGymEnv(**{**kwargs, "opponents": lineups(args.opponents)[0]})
    num_actions = int(probe.table.num_actions)
    size = int(probe.table.layout.size)
    if args.init:
        trainer = Trainer.from_policy(MlpPolicy.load(args.init), args.seed, args.lr)
        if args.game != "tools":
            trainer.widen(num_actions)
        if trainer.layers[0][0].shape[1] != size or trainer.layers[-1][0].shape[0] != num_actions:
            raise SystemExit(f"{args.init} does not fit this environment's layout")
    else:
        hidden = [int(x) for x in args.net.split(",")]
        trainer = Trainer([size, *hidden, num_actions], args.seed, args.lr)
    # The evaluation plays by the book: win/loss, no step cap but the evaluation's own.
    # (With several lineups, the policy's own environment is the first; evaluations name theirs.)
    judged = {k: v for k, v in kwargs.items() if k != "max_steps"}
    judged["opponents"] = lineups(args.opponents)[0]
    meta: dict[str, Any] = {"env": judged, "distill": vars(args)}
    if args.no_repeat:
        meta["no_repeat"] = True
    pairs: Pairs = ([], [], [])
    learner: MlpPolicy | None = trainer.policy(meta) if args.init else None
    log: list[dict[str, Any]] = []
    results: dict[str, Any] = {}
    start, cpu_start = time.monotonic(), time.process_time()
    children_start = _children_cpu()
    for k in range(args.iterations + 1):
        seeds = [game_seed(args.seed, k, i) for i in range(args.games)]
        if seeds[0] <= _EVAL_SEEDS[-1] and seeds[-1] >= _EVAL_SEEDS[0]:
            # --seed 1 would train on the evaluation's games 3, 4...: refuse it.
            raise SystemExit(f"--seed {args.seed} trains on evaluation seeds; choose another")
        beta = 1.0 if k == 0 else args.beta**k
        t0 = time.monotonic()
        new, counts = collect_parallel(
            kwargs, args.teacher, teacher_options, learner, beta, seeds, args.jobs, args.snap_trades
        )
        played = time.monotonic() - t0
        fresh_accuracy = accuracy(learner, new, num_actions) if learner is not None else None
        pairs[0].extend(new[0])
        pairs[1].extend(new[1])
        pairs[2].extend(new[2])
        t0 = time.monotonic()
        losses = trainer.fit(pairs, num_actions, args.epochs, args.batch)
        learner = trainer.policy(meta)
        entry = {
            "iteration": k,
            "beta": beta,
            **counts,
            "pairs": len(pairs[2]),
            "learner_agrees_on_new_states": fresh_accuracy,
            "losses": [round(x, 4) for x in losses],
            "play_seconds": round(played, 1),
            "fit_seconds": round(time.monotonic() - t0, 1),
        }
        log.append(entry)
        print(json.dumps(entry), flush=True)
        learner.save(out / "policy.npz")
        # Written after every iteration: a run stopped early still says what its policy is.
        results = {
            "args": vars(args),
            "env": kwargs,
            "eval_env": judged,
            "iterations": log,
            "train_seconds": round(time.monotonic() - start, 1),
            "train_cpu_seconds": round(time.process_time() - cpu_start, 1),
            # the --jobs workers' CPU (finished processes only, so whole iterations)
            "workers_cpu_seconds": round(_children_cpu() - children_start, 1),
            "versions": {"numpy": np.__version__},
        }
        (out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    return results


if __name__ == "__main__":
    main()

"""A calibrated evaluation of two-player TOOLS positions, for cutting search rollouts short.

The search bot plays rollouts with the heuristic at every seat and scores where they stop. A
rollout that reaches the end scores 1 or 0, which is noisy; one cut off needs an evaluation. This
module's evaluation is the probability that ``player`` goes on to win when both seats play the
heuristic, estimated by a logistic regression on features of a fully known position (a search's
determinized copy, where every hand is dealt): the hand sizes, whose decision it is, a pending
box-of-nails penalty or good nail, and the cards of each type in each hand. It is fitted on
heuristic self-play (``python -m parlor.bots.tools_value --games 20000``) and shipped as data,
``parlor/bots/data/tools_value.json``; evaluating needs no more than the standard library.

>>> from parlor import tools
>>> game = tools.new_game(players=2, seed=3)
>>> model = default_model()
>>> 0.0 < model.value(game, 0) < 1.0
True
>>> abs(model.value(game, 0) + model.value(game, 1) - 1) < 0.01  # fitted on both sides
True
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from parlor.core.game import Game
from parlor.i18n import environment_language, translator
from parlor.tools.cards import COLORED_TYPES, WILD_TYPES

TYPES: tuple[str, ...] = (*COLORED_TYPES, *WILD_TYPES)
#: Hand sizes from this one up share a feature.
MAX_SIZE = 12


def feature_names() -> list[str]:
    names = [f"my_size_{s}" for s in range(MAX_SIZE + 1)]
    names += [f"their_size_{s}" for s in range(MAX_SIZE + 1)]
    names += ["my_decision", "box_penalty_on_me", "box_penalty_on_them"]
    names += ["good_nail_on_me", "good_nail_on_them"]
    names += [f"my_{t}" for t in TYPES] + [f"their_{t}" for t in TYPES]
    return names


def _type_counts(hand: Sequence[str]) -> list[float]:
    counts = dict.fromkeys(TYPES, 0.0)
    for code in hand:
        counts[code.partition(":")[0]] += 1.0
    return [counts[t] for t in TYPES]


def features(game: Game[Any], player: int) -> list[float]:
    """The features of a two-player position for ``player``; every hand must be known to the
    caller (a determinized copy), since the other player's hand is read too."""
    other = 1 - player
    mine = game.view(player)
    theirs = game.view(other)["hand"]
    sizes: list[int] = mine["hand_sizes"]
    out = [0.0] * (2 * (MAX_SIZE + 1))
    out[min(sizes[player], MAX_SIZE)] = 1.0
    out[MAX_SIZE + 1 + min(sizes[other], MAX_SIZE)] = 1.0
    pending = game.pending
    if pending is not None:  # the decider's own kind (the public one hides drawn_card)
        pending = game.pending_for(pending.player)
    on_me = pending is not None and pending.player == player
    penalty = float(mine["box_penalty"]) if pending is not None else 0.0
    good_nail = (
        pending is not None and pending.kind == "play" and mine["top"].startswith("good_nail:")
    )
    out += [
        1.0 if on_me else 0.0,
        penalty if on_me else 0.0,
        0.0 if on_me else penalty,
        1.0 if good_nail and on_me else 0.0,
        1.0 if good_nail and not on_me else 0.0,
    ]
    out += _type_counts(mine["hand"])
    out += _type_counts(theirs)
    return out


@dataclass(frozen=True)
class ValueModel:
    """Logistic-regression weights over :func:`feature_names`."""

    names: tuple[str, ...]
    weights: tuple[float, ...]
    intercept: float

    def value(self, game: Game[Any], player: int) -> float:
        """The probability that ``player`` wins (1 or 0 when the game is over, a tie shared)."""
        outcome = game.outcome
        if outcome is not None:
            return 1.0 / len(outcome.winners) if player in outcome.winners else 0.0
        z = self.intercept
        for w, x in zip(self.weights, features(game, player), strict=True):
            z += w * x
        return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "names": list(self.names),
            "weights": list(self.weights),
            "intercept": self.intercept,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ValueModel:
        names = tuple(data["names"])
        if list(names) != feature_names():
            raise ValueError("the value model was fitted on other features; fit it again")
        return cls(names, tuple(float(w) for w in data["weights"]), float(data["intercept"]))


@lru_cache(maxsize=1)
def default_model() -> ValueModel:
    """The shipped model (two players, the default deck, heuristic play)."""
    text = resources.files("parlor.bots").joinpath("data/tools_value.json").read_text()
    return ValueModel.from_dict(json.loads(text))


# ----- fitting ---------------------------------------------------------------------------------
def self_play_positions(
    games: int, seed: int = 0, every: int = 1
) -> tuple[list[list[float]], list[int], list[int]]:
    """Features, labels (1: that player won alone) and game numbers of positions from
    heuristic self-play, two players, default deck, both sides of every ``every``-th decision."""
    from parlor import tools
    from parlor.bots.tools_heuristic import ToolsHeuristicBot

    xs: list[list[float]] = []
    ys: list[int] = []
    groups: list[int] = []
    for i in range(games):
        game = tools.new_game(2, seed=seed + i)
        bots = [ToolsHeuristicBot(2 * (seed + i)), ToolsHeuristicBot(2 * (seed + i) + 1)]
        rows: list[tuple[int, list[float]]] = []
        step = 0
        while not game.is_over:
            if step % every == 0:
                for p in (0, 1):
                    rows.append((p, features(game, p)))
            p = game.pending.player  # type: ignore[union-attr]
            game.apply(bots[p].choose(game, p))
            step += 1
        outcome = game.outcome
        assert outcome is not None
        for p, x in rows:
            xs.append(x)
            ys.append(1 if outcome.winners == (p,) else 0)
            groups.append(i)
    return xs, ys, groups


def fit(games: int, seed: int = 0) -> tuple[ValueModel, dict[str, float]]:
    """Fit the model on ``games`` self-play games; also report held-out log loss (last fifth of
    the games) against the hand-size share the search used before."""
    try:
        import numpy as np
        from sklearn.linear_model import LogisticRegression
        from sklearn.metrics import log_loss
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise SystemExit("fitting needs scikit-learn: pip install -e '.[dev]'") from exc
    xs, ys, groups = self_play_positions(games, seed)
    x = np.asarray(xs)
    y = np.asarray(ys)
    held = np.asarray(groups) >= games * 4 // 5
    clf = LogisticRegression(C=1.0, max_iter=2000)
    clf.fit(x[~held], y[~held])
    p_model = clf.predict_proba(x[held])[:, 1]
    mine = x[held][:, : MAX_SIZE + 1].argmax(axis=1)
    theirs = x[held][:, MAX_SIZE + 1 : 2 * (MAX_SIZE + 1)].argmax(axis=1)
    share = (1 / (1 + mine)) / (1 / (1 + mine) + 1 / (1 + theirs))
    report = {
        "positions": float(len(ys)),
        "held_out_log_loss": float(log_loss(y[held], p_model)),
        "held_out_log_loss_size_share": float(log_loss(y[held], np.clip(share, 1e-6, 1 - 1e-6))),
        "held_out_log_loss_constant": float(log_loss(y[held], np.full(held.sum(), y.mean()))),
    }
    clf.fit(x, y)  # the shipped model uses every game
    model = ValueModel(
        tuple(feature_names()), tuple(float(w) for w in clf.coef_[0]), float(clf.intercept_[0])
    )
    return model, report


def main(argv: Sequence[str] | None = None) -> None:
    _ = translator(environment_language() or "en")  # the help in the user's language
    ap = argparse.ArgumentParser(
        description=_(
            "A calibrated evaluation of two-player TOOLS positions, for cutting search "
            "rollouts short: fit it on heuristic self-play and write it as data."
        )
    )
    ap.add_argument("--games", type=int, default=20000, help=_("self-play games to fit on"))
    ap.add_argument("--seed", type=int, default=0, help=_("seed of the first game"))
    default_out = Path(__file__).parent / "data" / "tools_value.json"
    ap.add_argument("--out", type=Path, default=default_out, help=_("where to write the model"))
    args = ap.parse_args(argv)
    model, report = fit(args.games, args.seed)
    for key, value in report.items():
        print(f"{key}: {value:.4f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(model.to_dict(), indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

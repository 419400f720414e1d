"""Parlor against gamescomputersplay/monopoly (gcp, the fastest Python Monopoly simulator), on one
core, interleaved: classic games of four players, games/s and rounds/s of each and the ratios.

    git clone https://github.com/gamescomputersplay/monopoly /somewhere/gcp-monopoly
    python bench/bench_gcp.py --gcp /somewhere/gcp-monopoly [--games 200] [--seed 0] [--no-gcp-log]

gcp is not on PyPI and its code stays out of this repository: the bench imports it from the
clone (its ``monopoly.core.game.monopoly_game``, its ``settings`` left as they are: four players
with its own rule-based bots, no auctions, a game ends when one player is left, when every
player has more than its ``never_bankrupt_cash`` or after ``n_moves`` rounds). Its game log is
kept as it is by default (``LogSettings.KEEP_GAME_LOG``), written to a temporary folder that is
removed afterwards; ``--no-gcp-log`` turns it off (faster gcp: the ratios then favour it).

Parlor plays ``classic`` with four ``heuristic`` bots (every action through ``choose`` and
``apply``, with auctions, trades and the full rules), as ``bench/bench_bots.py`` does. The two
alternate game by game in this process, so a load on the machine falls on both alike; times are
this process's CPU time. A round is every player's turn once (Parlor: ``game.round`` + 1 at the
end; gcp: the turns of its main loop in which players moved). The first line says which build of
Parlor runs (``parlor.build``: plain Python, or the compiled build of setup.py).
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from parlor import monopoly
from parlor.bots.registry import make_bot
from parlor.build import build_name


def parlor_game(seed: int) -> int:
    """One classic game of four heuristic bots: the rounds it lasted."""
    game = monopoly.new_game("classic", 4, seed=seed)
    bots = [make_bot("monopoly", "heuristic", seed * 16 + p) for p in range(4)]
    n = 0
    while not game.is_over and n < 20000:
        p = game.decider  # (pending.player without building the decision)
        assert p is not None
        game.apply(bots[p].choose(game, p))
        n += 1
    return int(game.round) + 1


class Gcp:
    """gcp imported from its clone, with a round counter on its end-of-round check."""

    def __init__(self, path: Path, log_dir: Path, keep_log: bool) -> None:
        sys.path.insert(0, str(path))
        settings = importlib.import_module("settings")
        # Older and newer gcp trees keep the bank's stock in GameSettings or in GameMechanics:
        # give the board whichever it asks for (the same numbers).
        for name in ("available_houses", "available_hotels", "free_parking_money"):
            if not hasattr(settings.GameSettings, name):
                setattr(settings.GameSettings, name, getattr(settings.GameMechanics, name))
        log_settings = importlib.import_module("monopoly.log_settings").LogSettings
        for name in ("EVENTS_LOG_PATH", "DETAILED_LOG_PATH", "BANKRUPTCIES_PATH"):
            if hasattr(log_settings, name):
                setattr(log_settings, name, log_dir / f"{name.lower()}.txt")
        if not keep_log:
            log_settings.KEEP_GAME_LOG = False
        self.keep_log = bool(log_settings.KEEP_GAME_LOG)
        self.module: Any = importlib.import_module("monopoly.core.game")
        self.n_moves = int(settings.SimulationSettings.n_moves)
        check = self.module._check_end_conditions
        self.last: list[tuple[int, bool]] = [(0, False)]

        def counted(*args: Any) -> bool:
            ended = bool(check(*args))
            self.last[0] = (int(args[-1]), ended)
            return ended

        setattr(self.module, "_check_end_conditions", counted)  # noqa: B010 (gcp, untyped)

    def game(self, number: int, seed: float) -> int:
        """One game: the rounds in which players moved."""
        self.module.monopoly_game((number, seed))
        turn, ended = self.last[0]
        return turn - 1 if ended else self.n_moves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--gcp", type=Path, required=True, help="a clone of gamescomputersplay/monopoly"
    )
    ap.add_argument(
        "--games",
        type=int,
        default=1000,
        help="games of each (default 1000: gcp's game lengths vary widely, and its first 200 "
        "games are longer than its average, which flattered Parlor's ratio by about 6%%)",
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-gcp-log", action="store_true", help="turn gcp's game log off")
    args = ap.parse_args()
    if not (args.gcp / "monopoly" / "core" / "game.py").exists():
        ap.error(f"{args.gcp} is not a clone of gamescomputersplay/monopoly")
    with tempfile.TemporaryDirectory() as tmp:
        gcp = Gcp(args.gcp.resolve(), Path(tmp), keep_log=not args.no_gcp_log)
        print(f"Parlor build: {build_name()}; gcp game log: {'on' if gcp.keep_log else 'off'}")
        # gcp's own simulator seeds each game with random.random() of a seeded generator.
        seeds = random.Random(args.seed)
        clock = time.process_time
        spent = [0.0, 0.0]
        rounds = [0, 0]
        times: list[tuple[float, float]] = []  # (each pair of games: the interval below)
        parlor_game(args.seed + args.games)  # (warm-up: the boards and tables are built once)
        gcp.game(0, seeds.random())
        for i in range(args.games):
            t0 = clock()
            rounds[0] += parlor_game(args.seed + i)
            t1 = clock()
            rounds[1] += gcp.game(i + 1, seeds.random())
            t2 = clock()
            spent[0] += t1 - t0
            spent[1] += t2 - t1
            times.append((t1 - t0, t2 - t1))
    rates = [(args.games / s, r / s, r / args.games) for s, r in zip(spent, rounds, strict=True)]
    for name, (games, per_s, length) in zip(("Parlor", "gcp"), rates, strict=True):
        print(
            f"{name:7s} {games:8.1f} games/s  {per_s:9.0f} rounds/s  "
            f"{length:6.1f} rounds/game  ({args.games} games)"
        )
    low, high = ratio_interval(times)
    print(
        f"ratio Parlor/gcp: {rates[0][0] / rates[1][0]:.2f}x games/s "
        f"(95% interval {low:.2f}x-{high:.2f}x over the games drawn), "
        f"{rates[0][1] / rates[1][1]:.2f}x rounds/s"
    )


def ratio_interval(times: list[tuple[float, float]], draws: int = 2000) -> tuple[float, float]:
    """A 95% bootstrap interval of the games/s ratio (gcp's time over Parlor's), the pairs of
    games drawn again with replacement: how much the ratio owes to which games were played
    (the machine's noise is in it too)."""
    pairs = np.array(times)
    rng = np.random.default_rng(0)
    picks = rng.integers(0, len(pairs), size=(draws, len(pairs)))
    sums = pairs[picks].sum(axis=1)
    ratios = np.sort(sums[:, 1] / sums[:, 0])
    return float(ratios[int(0.025 * draws)]), float(ratios[int(0.975 * draws) - 1])


if __name__ == "__main__":
    main()

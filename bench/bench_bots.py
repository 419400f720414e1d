"""Games per second of the heuristic bots, on one core (this process).

Usage: python bench/bench_bots.py [--games 20]

Prints, for each property edition, complete 4-player games of four heuristic bots per second, and
for TOOLS complete 2-player games of two heuristic bots per second (every action through
``choose`` and ``apply``, full validation).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

from parlor import monopoly, tools
from parlor.bots.registry import make_bot


def run(make_game: Any, family: str, players: int, games: int) -> tuple[float, float, int]:
    start = time.perf_counter()
    decisions = 0
    unfinished = 0
    for seed in range(games):
        game = make_game(seed)
        bots = [make_bot(family, "heuristic", seed * 16 + p) for p in range(players)]
        n = 0
        while not game.is_over and n < 20000:
            p = game.pending.player
            game.apply(bots[p].choose(game, p))
            n += 1
        decisions += n
        unfinished += not game.is_over
    wall = time.perf_counter() - start
    return games / wall, decisions / games, unfinished


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20)
    args = ap.parse_args(argv)
    for edition in monopoly.EDITION_IDS:
        rate, length, unfinished = run(
            lambda s, e=edition: monopoly.new_game(e, 4, seed=s), "monopoly", 4, args.games
        )
        print(
            f"property {edition:8s} 4 heuristics: {rate:7.2f} games/s "
            f"({length:.0f} decisions/game, {unfinished} unfinished)"
        )
    rate, length, _ = run(lambda s: tools.new_game(2, seed=s), "tools", 2, args.games * 20)
    print(f"TOOLS 2 heuristics:            {rate:7.1f} games/s ({length:.0f} decisions/game)")


if __name__ == "__main__":
    main()

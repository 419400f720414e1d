"""Plays complete 4-player games of four heuristic bots, nothing else: the program to count
instructions of (``valgrind --tool=cachegrind --cache-sim=no``), which other jobs on a shared
machine do not change, as time is.

Usage: python bench/play_heuristics.py GAMES [EDITION]

Seeds 0..GAMES-1, the loop of bench_bots.py (one ``new_game`` and four bots per game). Run it with
``GAMES`` and with 0 and subtract, to leave out the start-up; prints the decisions played.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from parlor import monopoly
from parlor.bots.registry import make_bot


def play(games: int, edition: str = "classic") -> int:
    decisions = 0
    for seed in range(games):
        game = monopoly.new_game(edition, 4, seed=seed)
        bots = [make_bot("monopoly", "heuristic", seed * 16 + p) for p in range(4)]
        n = 0
        while not game.is_over and n < 20000:
            p = game.pending.player  # type: ignore[union-attr]
            game.apply(bots[p].choose(game, p))
            n += 1
        decisions += n
    return decisions


def main(argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        sys.exit(__doc__)
    print(f"{play(int(args[0]), *args[1:2])} decisions")


if __name__ == "__main__":
    main()

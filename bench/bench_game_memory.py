"""Memory held by live games, as a game server would hold its tables.

Usage: python bench/bench_game_memory.py [--games 200] [--decisions 100 400] [--tools-decisions 10 30]
                                         [--only TOOLS]

For each kind of game it creates ``--games`` games, plays each for the given number of decisions
with random bots (then drops the bots: a table is its game object), and measures with tracemalloc
the memory those live games hold, per game. It prints whether 10,000 such tables fit in 2 GB.
The action log grows with play, so the figure is given at each depth (TOOLS games are short: they
are measured a few decisions in, while nearly all are still going).
"""

from __future__ import annotations

import argparse
import gc
import tracemalloc
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from parlor import monopoly, tools
from parlor.bots import RandomBot

BUDGET = 2 * 1024**3
TABLES = 10_000


def _property_game(edition: str, seed: int) -> Any:
    return monopoly.new_game(edition, 4, seed=seed)


def _kinds() -> dict[str, Callable[[int], Any]]:
    kinds: dict[str, Callable[[int], Any]] = {
        f"property {e} 4p": partial(_property_game, e) for e in monopoly.EDITION_IDS
    }
    kinds["TOOLS 4p"] = lambda s: tools.new_game(4, seed=s)
    kinds["TOOLS 2p"] = lambda s: tools.new_game(2, seed=s)
    return kinds


def live_games(make: Callable[[int], Any], n: int, decisions: int) -> tuple[list[Any], int]:
    """``n`` games of ``make`` played ``decisions`` deep (or to their end) and the number of
    them still going."""
    games = []
    going = 0
    for seed in range(n):
        game = make(seed)
        bots = [RandomBot(seed * 8 + p) for p in range(game.num_players)]
        for _ in range(decisions):
            if game.is_over:
                break
            p = game.pending.player
            game.apply(bots[p].choose(game, p))
        going += not game.is_over
        games.append(game)
    return games, going


def per_game(make: Callable[[int], Any], n: int, decisions: int) -> tuple[float, int]:
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    games, going = live_games(make, n, decisions)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    del games
    return held / n, going


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--decisions", type=int, nargs="+", default=[100, 400])
    ap.add_argument("--tools-decisions", type=int, nargs="+", default=[10, 30])
    ap.add_argument("--only", default="", help="measure only the kinds whose name contains this")
    args = ap.parse_args(argv)
    # Warm the shared, once-per-process data (editions, decks) so it is not counted per game.
    for make in _kinds().values():
        live_games(make, 2, 10)
    worst = 0.0
    for name, make in _kinds().items():
        if args.only not in name:
            continue
        for depth in args.tools_decisions if name.startswith("TOOLS") else args.decisions:
            size, going = per_game(make, args.games, depth)
            worst = max(worst, size)
            print(
                f"{name:20s} after {depth:4d} decisions: {size / 1024:7.1f} KiB per game "
                f"({going}/{args.games} still going); 10,000 tables: "
                f"{TABLES * size / 1024**3:5.2f} GiB"
            )
    verdict = "fit" if TABLES * worst <= BUDGET else "do NOT fit"
    print(
        f"10,000 tables of the largest kind above {verdict} in 2 GiB ({TABLES * worst / 1024**3:.2f} GiB)"
    )


if __name__ == "__main__":
    main()

"""Games per second of the heuristic bots, on one core (this process).

Usage: python bench/bench_bots.py [--games 20] [--editions classic ...] [--no-tools] [--split]

Prints, for each property edition, complete 4-player games of four heuristic bots per second, and
for TOOLS complete 2-player games of two heuristic bots per second (every action through
``choose`` and ``apply``, full validation). Rates are per second of this process's CPU time, which
other jobs on a shared machine disturb less than wall time. With ``--split`` the time per
decision is also split into the bots' ``choose`` and the engine's ``apply`` (two more clock reads
per decision, a system call each: about a microsecond, which the rates then include, so the
rates are measured without them by default, as the issue's start measured them). The first line says whether the property bots
run compiled (the optional build of setup.py) or as plain Python.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

from parlor import monopoly, tools
from parlor.bots.registry import make_bot


def run(
    make_game: Any, family: str, players: int, games: int, split: bool = False
) -> tuple[float, float, int, float, float]:
    clock = time.process_time
    start = clock()
    decisions = 0
    unfinished = 0
    in_bots = in_engine = 0.0
    for seed in range(games):
        game = make_game(seed)
        bots = [make_bot(family, "heuristic", seed * 16 + p) for p in range(players)]
        n = 0
        if split:
            while not game.is_over and n < 20000:
                p = game.pending.player
                t0 = clock()
                action = bots[p].choose(game, p)
                t1 = clock()
                game.apply(action)
                in_engine += clock() - t1
                in_bots += t1 - t0
                n += 1
        else:
            while not game.is_over and n < 20000:
                p = game.pending.player
                game.apply(bots[p].choose(game, p))
                n += 1
        decisions += n
        unfinished += not game.is_over
    cpu = clock() - start
    per = 1e6 / max(1, decisions)
    return games / cpu, decisions / games, unfinished, in_bots * per, in_engine * per


def build() -> str:
    """Whether the property bots run compiled (``PARLOR_COMPILE=1``, see setup.py) or as Python."""
    from parlor.bots import monopoly_table

    return "compiled" if not monopoly_table.__file__.endswith(".py") else "pure Python"


def _positive(text: str) -> int:
    """An argparse type: a whole number of at least 1 (a rate over no games has no meaning)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"games must be >= 1, got {value}")
    return value


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=_positive, default=20, help="games per edition (>= 1)")
    ap.add_argument("--editions", nargs="+", default=list(monopoly.EDITION_IDS))
    ap.add_argument("--no-tools", action="store_true", help="property editions only")
    ap.add_argument("--split", action="store_true", help="also time the bots and the engine apart")
    args = ap.parse_args(argv)
    print(f"(property bots: {build()})")
    for edition in args.editions:
        rate, length, unfinished, bots_us, engine_us = run(
            lambda s, e=edition: monopoly.new_game(e, 4, seed=s),
            "monopoly",
            4,
            args.games,
            args.split,
        )
        split = (
            f"; per decision {bots_us:.1f} us in the bots, {engine_us:.1f} us in apply"
            if args.split
            else ""
        )
        print(
            f"property {edition:8s} 4 heuristics: {rate:7.2f} games/s "
            f"({length:.0f} decisions/game, {unfinished} unfinished{split})"
        )
    if args.no_tools:
        return
    rate, length, _, bots_us, engine_us = run(
        lambda s: tools.new_game(2, seed=s), "tools", 2, args.games * 20, args.split
    )
    split = (
        f"; per decision {bots_us:.1f} us in the bots, {engine_us:.1f} us in apply"
        if args.split
        else ""
    )
    print(
        f"TOOLS 2 heuristics:            {rate:7.1f} games/s ({length:.0f} decisions/game{split})"
    )


if __name__ == "__main__":
    main()

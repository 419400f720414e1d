"""Milliseconds per picture of ``parlor.render``, on one core (this process).

Usage: python bench/bench_render.py [--repeat 20]

Prints, for a mid-game 4-player board of each property edition, the time to draw it as SVG
(plain, and with the analysis overlay once its chain is solved and kept), the time of that first
solve, and the time to make a PNG; and for TOOLS a 4-player table as one seat sees it.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from parlor import monopoly, tools
from parlor.bots.registry import make_bot
from parlor.monopoly.edition import EDITION_IDS
from parlor.render import board_svg, tools_svg


def played(game: Any, family: str, decisions: int) -> Any:
    bots = [make_bot(family, "heuristic", seed=p) for p in range(game.num_players)]
    for _ in range(decisions):
        if game.is_over:
            break
        p = game.pending.player
        game.apply(bots[p].choose(game, p))
    return game


def _png(game: Any) -> object:
    return board_svg(game).png()


def ms(f: Callable[[], object], repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        f()
    return 1000 * (time.perf_counter() - start) / repeat


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=20, help="pictures per figure (default 20)")
    args = ap.parse_args(argv)
    n = args.repeat
    print(f"{'picture':<22}{'svg ms':>9}{'heat ms':>9}{'solve ms':>10}{'png ms':>9}{'svg kB':>8}")
    for edition in EDITION_IDS:
        game = played(monopoly.new_game(edition, players=4, seed=1), "monopoly", 300)
        start = time.perf_counter()
        board_svg(game, heat=True)  # the first overlay solves the chain
        solve = 1000 * (time.perf_counter() - start)
        svg = ms(partial(board_svg, game), n)
        heat = ms(partial(board_svg, game, heat=True), n)
        png = ms(partial(_png, game), max(1, n // 5))
        size = len(str(board_svg(game))) / 1000
        print(
            f"{edition + ' board':<22}{svg:>9.1f}{heat:>9.1f}{solve:>10.0f}{png:>9.0f}{size:>8.1f}"
        )
    table = played(tools.new_game(players=4, seed=1), "tools", 10)
    svg = ms(lambda: tools_svg(table, 0), n)
    png = ms(lambda: tools_svg(table, 0).png(), max(1, n // 5))
    size = len(str(tools_svg(table, 0))) / 1000
    print(f"{'tools table, a seat':<22}{svg:>9.1f}{'-':>9}{'-':>10}{png:>9.0f}{size:>8.1f}")


if __name__ == "__main__":
    main()

"""What the reasons in the server's ``legal`` reply cost, next to the legal answers themselves.

Usage: python bench/bench_legal_reply.py [--actions 400] [--repeat 200]

Plays a 4-player classic game of heuristic bots for ``--actions`` actions (a late game: deeds
owned, groups built), then times, per call for all four seats, ``games.answers`` (every legal
action with its id and words: what ``legal`` always sent) and ``games.refused`` (the refused
any-time actions on each seat's deeds with the engine's reason), in CPU time of this process.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from parlor import monopoly
from parlor.bots.registry import make_bot
from parlor.server import games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    game = monopoly.new_game("classic", ["Ann", "Bo", "Cy", "Di"], 3, {})
    bots = [make_bot("monopoly", "heuristic", seat) for seat in range(4)]
    while len(game.log) < args.actions and not game.is_over:
        seat = game.pending.player  # type: ignore[union-attr]
        game.apply(bots[seat].choose(game, seat))
    refused = [len(games.refused(game, seat, "en")) for seat in range(4)]
    print(f"after {len(game.log)} actions: refused actions per seat {refused}")
    calls: tuple[tuple[str, Callable[[int], object]], ...] = (
        ("answers", lambda seat: games.answers(game, seat, "en", anytime=True)),
        ("refused", lambda seat: games.refused(game, seat, "en")),
    )
    for name, call in calls:
        start = time.process_time()
        for _ in range(args.repeat):
            for seat in range(4):
                call(seat)
        per = (time.process_time() - start) / args.repeat * 1000
        print(f"{name}: {per:.3f} ms CPU for the four seats")


if __name__ == "__main__":
    main()

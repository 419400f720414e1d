"""Round trips of game records over thousands of bot games of every game and edition.

    PYTHONPATH=src:. python bench/bench_records.py --games 150

Each game (heuristic bots, or random ones for half of the TOOLS games) is written as a record,
the text read back and replayed with every line checked, and compared with the game: settings,
seed, every action and the final state; the text must also read back as itself. Prints the
count per game and edition, the failures (none expected), and the time spent writing and
reading per game.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.records.games import property_games, tools_games

from parlor.core.game import Game
from parlor.records import format_record, parse, read_game, write_record


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=150, help="games per edition and variant")
    parser.add_argument("--first-seed", type=int, default=1000)
    args = parser.parse_args()
    counts: Counter[str] = Counter()
    finished: Counter[str] = Counter()
    failures: list[str] = []
    spent = {"write": 0.0, "read": 0.0}
    moves = 0

    def check(label: str, game: Game[Any]) -> None:
        nonlocal moves
        key = "/".join(label.split("/")[:2])
        t0 = time.perf_counter()
        text = write_record(game)
        t1 = time.perf_counter()
        try:
            again = read_game(text)
            # (the rules in force are compared through the snapshot: a record does not keep an
            # option given at its default value, so the settings may spell them differently)
            same = (again.seed, again.log) == (game.seed, game.log)
            same = same and again.snapshot() == game.snapshot()
            same = same and format_record(parse(text)) == text
        except Exception as exc:  # (counted and shown, the run goes on)
            failures.append(f"{label}: {type(exc).__name__}: {exc}")
            return
        t2 = time.perf_counter()
        spent["write"] += t1 - t0
        spent["read"] += t2 - t1
        moves += len(again.log)
        counts[key] += 1
        finished[key] += again.is_over
        if not same:
            failures.append(f"{label}: read back as another game")

    started = time.perf_counter()
    for label, game in property_games(
        args.games, bot="heuristic", cap=20000, first_seed=args.first_seed
    ):
        check(label, game)
    for bot in ("heuristic", "random"):
        for label, game in tools_games(args.games, bot=bot, first_seed=args.first_seed, cap=3000):
            check(label, game)
    total = sum(counts.values())
    for key in sorted(counts):
        print(f"{key:24} {counts[key]:6} games, {finished[key]:6} finished")
    print(f"{total} games, {moves} moves round-tripped in {time.perf_counter() - started:.0f} s")
    print(
        f"per game: write {1000 * spent['write'] / max(total, 1):.1f} ms, "
        f"read and check {1000 * spent['read'] / max(total, 1):.1f} ms"
    )
    print(f"{len(failures)} failures")
    for f in failures[:20]:
        print("  " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

"""Property engine speed: decisions/s and complete games/s with random legal play, 4 players.

    python bench/bench_monopoly.py [--games 40] [--max-decisions 20000]

Random bots (parlor.bots.RandomBot, default any-time rate) play seeded games on one core; games
that reach the decision cap are reported separately and not counted as complete. Rates are per
second of this process's CPU time, which other jobs on a shared machine disturb less than wall
time.
"""

from __future__ import annotations

import argparse
import time

from parlor import monopoly
from parlor.bots import RandomBot


def random_game(edition: str, seed: int, cap: int) -> tuple[monopoly.PropertyGame, int]:
    """Four seeded random bots play ``edition`` for at most ``cap`` decisions: the game and how
    many decisions it took."""
    game = monopoly.new_game(edition, players=4, seed=seed)
    bots = [RandomBot(seed * 10 + i) for i in range(4)]
    steps = 0
    while not game.is_over and steps < cap:
        player = game.pending.player  # type: ignore[union-attr]
        game.apply(bots[player].choose(game, player))
        steps += 1
    return game, steps


def run(edition: str, games: int, cap: int) -> None:
    decisions = complete = capped = 0
    start = time.process_time()
    for seed in range(games):
        game, steps = random_game(edition, seed, cap)
        decisions += steps
        complete += game.is_over
        capped += not game.is_over
    elapsed = time.process_time() - start
    print(
        f"{edition:8s} {decisions / elapsed:10.0f} decisions/s  "
        f"{complete / elapsed:6.2f} complete games/s  "
        f"({complete} complete, {capped} capped at {cap} decisions, {elapsed:.1f} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--max-decisions", type=int, default=20000)
    parser.add_argument("--editions", default=",".join(monopoly.EDITION_IDS))
    args = parser.parse_args()
    for edition in args.editions.split(","):
        run(edition, args.games, args.max_decisions)


if __name__ == "__main__":
    main()

"""Speed of the property game's action space at mid-game: lists, ids, masks, random play.

    python bench/bench_masks.py [--edition classic] [--positions 120] [--repeat 200]

Mid-game positions come from seeded random play (parlor.bots.RandomBot, 4 players): a copy of the
game every 150 decisions from decision 300 on, kept while the game goes on and at least half the
properties have an owner. Each query is then timed over every position, ``--repeat`` calls each,
for the deciding player, and printed as microseconds per call. Random play is then timed twice from
the same seeds: with RandomBot (lists of actions) and with ids only (``legal_action_ids`` ->
``action_from_id`` -> ``apply``, as an agent reading the mask plays), as decisions per second.
Times are the CPU time of this process, so that other work on a shared machine counts less.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from bench_monopoly import random_game  # (this folder: run as python bench/bench_masks.py)
from parlor import monopoly
from parlor.bots import RandomBot
from parlor.monopoly import PropertyGame


def mid_game_positions(edition: str, count: int) -> list[PropertyGame]:
    positions: list[PropertyGame] = []
    seed = 0
    while len(positions) < count:
        game = monopoly.new_game(edition, players=4, seed=seed)
        bots = [RandomBot(seed * 10 + i) for i in range(4)]
        props = game.edition.property_squares
        for step in range(3000):
            if game.is_over:
                break
            pending = game.pending
            assert pending is not None
            if step >= 300 and step % 150 == 0 and game.anytime_open:
                owned = sum(1 for sq in props if game.owner[sq] >= 0)
                if owned * 2 >= len(props):
                    positions.append(game.clone())
                    if len(positions) == count:
                        break
            game.apply(bots[pending.player].choose(game, pending.player))
        seed += 1
    return positions


def per_call_us(
    positions: list[PropertyGame], repeat: int, query: Callable[[PropertyGame, int], object]
) -> float:
    total = 0.0
    for game in positions:
        pending = game.pending
        assert pending is not None
        player = pending.player
        start = time.process_time()
        for _ in range(repeat):
            query(game, player)
        total += time.process_time() - start
    return total / (len(positions) * repeat) * 1e6


def bot_play(edition: str, games: int, cap: int) -> tuple[int, float]:
    decisions = 0
    start = time.process_time()
    for seed in range(games):
        decisions += random_game(edition, seed, cap)[1]
    return decisions, time.process_time() - start


def id_play(edition: str, games: int, cap: int) -> tuple[int, float]:
    decisions = 0
    start = time.process_time()
    for seed in range(games):
        game = monopoly.new_game(edition, players=4, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not game.is_over and steps < cap:
            player = game.pending.player  # type: ignore[union-attr]
            ids = game.legal_action_ids(player)
            game.apply(game.action_from_id(rng.choice(ids), player))
            steps += 1
        decisions += steps
    return decisions, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edition", default="classic")
    parser.add_argument("--positions", type=int, default=120)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--max-decisions", type=int, default=3000)
    args = parser.parse_args()
    positions = mid_game_positions(args.edition, args.positions)
    sizes = [len(g.legal_actions(g.pending.player)) for g in positions]  # type: ignore[union-attr]
    print(
        f"{args.edition}: {len(positions)} mid-game positions, "
        f"{sum(sizes) / len(sizes):.0f} legal actions each on average (any-time ones included)"
    )
    queries: list[tuple[str, Callable[[PropertyGame, int], object]]] = [
        ("legal_actions(p)", lambda g, p: g.legal_actions(p)),
        ("legal_actions(p, anytime=False)", lambda g, p: g.legal_actions(p, anytime=False)),
        ("legal_action_ids(p)", lambda g, p: g.legal_action_ids(p)),
        ("legal_action_mask(p)", lambda g, p: g.legal_action_mask(p)),
    ]
    for name, query in queries:
        print(f"  {name:34s} {per_call_us(positions, args.repeat, query):9.1f} us/call")
    for name, play in (("RandomBot play", bot_play), ("id-driven random play", id_play)):
        decisions, elapsed = play(args.edition, args.games, args.max_decisions)
        print(
            f"  {name:34s} {decisions / elapsed:9.0f} decisions/s "
            f"({decisions} decisions, {args.games} games, {elapsed:.1f} s)"
        )


if __name__ == "__main__":
    main()

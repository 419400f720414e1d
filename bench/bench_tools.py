"""Games per second of TOOLS with random legal play, against RLCard's UNO in the same run.

Usage: python bench/bench_tools.py [--seconds 5] [--players 2 4] [--games N]

Each figure is complete games per second on one core (this process), random legal play: TOOLS
through the public API (``legal_actions(game.current)`` + ``apply``, every rule checked, the default deck), UNO
through RLCard's environment with its RandomAgent (``env.run``), as RLCard users run it. RLCard is
optional (``pip install rlcard``); without it only the TOOLS figures are printed. Times are the CPU
time of this process, so that other work on a shared machine counts less. ``--games N`` plays
seeds ``0..N-1`` only and prints nothing: under ``valgrind --tool=cachegrind --cache-sim=no``,
the instructions of ``--games 200`` minus those of ``--games 0``, divided by 200, are a figure per
game that the load of a shared machine does not change (with ``PYTHONHASHSEED=0``, the same on
every run: string hashing moves it by about 1%). Only the public interface is used, so the same
script measures an older engine through ``PYTHONPATH=<its checkout>/src``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from parlor import tools


def tools_games(players: int) -> Callable[[int], int]:
    def play(seed: int) -> int:
        game = tools.new_game(players, seed=seed)
        rng = random.Random(seed)
        choice = rng.choice
        legal = game.legal_actions
        apply = game.apply
        while game.outcome is None:
            apply(choice(legal(game.current)))
        return len(game.log)

    return play


def rlcard_games(players: int) -> Callable[[int], int] | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": 0, "game_num_players": players})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def play(seed: int) -> int:
        trajectories, _ = env.run(is_training=False)
        return len(trajectories[0])

    return play


def measure(play: Callable[[int], int], seconds: float) -> tuple[float, float]:
    """(games per second, mean decisions per game) over about ``seconds`` of play."""
    play(10**6)  # warm up caches
    games = steps = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        steps += play(games)
        games += 1
    return games / elapsed, steps / games


def build() -> str:
    """Whether the compiled part of the TOOLS engine (``PARLOR_COMPILE=1``, see setup.py: the
    shuffle) runs compiled or as Python."""
    try:
        from parlor.tools import shuffling
    except ImportError:  # (an older engine, as at the start of issue 11)
        return "pure Python"
    return "compiled" if not (shuffling.__file__ or "").endswith(".py") else "pure Python"


def fixed_games(players: int, games: int) -> None:
    """Play seeds ``0..games-1`` and nothing else (no warm-up, no RLCard): for counting
    instructions, e.g. ``valgrind --tool=cachegrind --cache-sim=no``, against ``--games 0``."""
    play = tools_games(players)
    for seed in range(games):
        play(seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument(
        "--games", type=int, help="play this many games per player count and print nothing"
    )
    args = parser.parse_args()
    if args.games is not None:
        for n in args.players:
            fixed_games(n, args.games)
        return
    print(f"TOOLS engine: {build()}")
    print(f"{'players':>7}  {'TOOLS games/s':>13}  {'RLCard UNO games/s':>18}  {'ratio':>6}")
    for n in args.players:
        ours, our_len = measure(tools_games(n), args.seconds)
        uno = rlcard_games(n)
        if uno is None:
            print(f"{n:>7}  {ours:>13.0f}  {'(rlcard missing)':>18}")
            continue
        theirs, _ = measure(uno, args.seconds)
        print(f"{n:>7}  {ours:>13.0f}  {theirs:>18.0f}  {ours / theirs:>5.1f}x")
        print(f"         (TOOLS: {our_len:.0f} decisions per game on average)")


if __name__ == "__main__":
    main()

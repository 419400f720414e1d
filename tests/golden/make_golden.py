"""Write the golden replay files: seeded random games saved with their final snapshot.

    python tests/golden/make_golden.py

Run it only when a rules change is meant to change recorded games, and say so in the commit.
"""

from __future__ import annotations

from pathlib import Path

from parlor import monopoly, tools
from parlor.bots import RandomBot
from parlor.core.game import Game

HERE = Path(__file__).parent


def record(name: str, game: Game, steps: int) -> None:  # type: ignore[type-arg]
    bots = [RandomBot(1000 + p) for p in range(game.num_players)]
    for _ in range(steps):
        if game.is_over:
            break
        p = game.pending.player  # type: ignore[union-attr]
        game.apply(bots[p].choose(game, p))
    (HERE / f"{name}.json").write_text(game.to_json(indent=1) + "\n", encoding="utf-8")


def main() -> None:
    for edition in monopoly.EDITION_IDS:
        record(f"{edition}-4p", monopoly.new_game(edition, players=4, seed=2026), 800)
    record("classic-short", monopoly.new_game("classic", 3, 7, {"variant": "short"}), 800)
    record("tools-4p", tools.new_game(players=4, seed=2026), 800)


if __name__ == "__main__":
    main()

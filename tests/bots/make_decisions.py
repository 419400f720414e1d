"""Record the property bots' decisions in seeded games, to prove later changes keep them.

    python tests/bots/make_decisions.py

Each case is a seeded game of bots; the file keeps, per case, how many actions were taken, a hash
of the action log (in the replay format) and the winners. ``test_decisions.py`` replays the cases
with today's bots and compares. Run this only when a change is meant to change the bots' play, and
say so in the commit.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from parlor import monopoly
from parlor.bots.registry import make_bot
from parlor.core.game import action_to_dict

HERE = Path(__file__).parent
FIXTURE = HERE / "data" / "decisions.json"

#: Property games: (edition, players, options, seeds, bots per seat, most actions).
CASES: list[tuple[str, int, dict[str, Any], range, tuple[str, ...], int]] = [
    ("classic", 4, {}, range(10), ("heuristic",) * 4, 20000),
    ("matco", 4, {}, range(5), ("heuristic",) * 4, 20000),
    ("latam", 4, {}, range(5), ("heuristic",) * 4, 20000),
    ("matador", 4, {}, range(5), ("heuristic",) * 4, 20000),
    ("classic", 2, {}, range(2), ("heuristic",) * 2, 3000),  # seed 1 never ends
    ("matador", 3, {}, range(2), ("heuristic",) * 3, 20000),
    ("classic", 4, {"variant": "short"}, range(2), ("heuristic",) * 4, 20000),
    (
        "classic",
        4,
        {"free_parking_pot": True, "unlimited_buildings": True},
        range(2),
        ("heuristic",) * 4,
        20000,
    ),
    ("latam", 3, {"rent_claim": True}, range(2), ("heuristic",) * 3, 20000),
    ("matco", 4, {"auctions": False}, range(1), ("heuristic",) * 4, 20000),
    ("classic", 4, {}, range(3), ("offering", "heuristic", "heuristic", "heuristic"), 20000),
    ("matador", 4, {}, range(2), ("heuristic", "offering", "heuristic", "random"), 20000),
    ("classic", 4, {}, range(2), ("search", "heuristic", "heuristic", "heuristic"), 400),
    ("matador", 4, {}, range(1), ("heuristic", "search", "heuristic", "heuristic"), 400),
    ("latam", 3, {}, range(1), ("search", "offering", "heuristic"), 400),
    # The heuristic before issue 20's seat valuation of auction lots, kept for comparisons: these
    # games were recorded with the heuristic before that change (the same hashes).
    ("classic", 4, {}, range(3), ("heuristic-v1",) * 4, 20000),
    ("matador", 4, {}, range(2), ("heuristic-v1",) * 4, 20000),
    (
        "classic",
        4,
        {},
        range(1),
        ("heuristic", "heuristic-v1", "heuristic-v1", "heuristic-v1"),
        20000,
    ),
]

#: The search bot's budget in the cases (small, to keep the test quick).
SEARCH = {"simulations": 6, "depth": 60}


def case_key(
    edition: str, players: int, options: dict[str, Any], seed: int, bots: tuple[str, ...]
) -> str:
    opts = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    return f"{edition}/{players}p/{opts or '-'}/{'+'.join(bots)}/seed={seed}"


def play(
    edition: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    bots: tuple[str, ...],
    limit: int,
) -> dict[str, Any]:
    game = monopoly.new_game(edition, players, seed=seed, options=options)
    seats = [
        make_bot("monopoly", name, seed * 16 + p, **(SEARCH if name == "search" else {}))
        for p, name in enumerate(bots)
    ]
    n = 0
    while not game.is_over and n < limit:
        p = game.pending.player  # type: ignore[union-attr]
        game.apply(seats[p].choose(game, p))
        n += 1
    log = json.dumps([action_to_dict(a) for a in game.log], sort_keys=True)
    outcome = game.outcome
    return {
        "actions": n,
        "log_sha256": hashlib.sha256(log.encode()).hexdigest(),
        "winners": None if outcome is None else list(outcome.winners),
    }


def all_cases() -> list[tuple[str, tuple[str, int, dict[str, Any], int, tuple[str, ...], int]]]:
    out = []
    for edition, players, options, seeds, bots, limit in CASES:
        for seed in seeds:
            out.append(
                (
                    case_key(edition, players, options, seed, bots),
                    (edition, players, options, seed, bots, limit),
                )
            )
    return out


def main() -> None:
    record = {key: play(*args) for key, args in all_cases()}
    FIXTURE.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(record)} cases written to {FIXTURE}")


if __name__ == "__main__":
    main()

"""What the property bots pay at auction: the winning price over the lot's list price.

Usage: python bench/bench_auctions.py [--games 100] [--bots heuristic-v1 heuristic] [--seed 0]
       [--editions classic ...] [--worst 5]

For each bot kind, plays ``--games`` complete 4-player games of each edition with that kind in every
seat (seeds ``--seed`` on, the same deals for every kind), and prints, per edition and over all,
the percentiles of the winning price of each property auction divided by the lot's printed price,
the share of auctions won above 1.5 and 2 times the price, and the same by what the lot was to the
winner when the auction started (``complete``: the last lot of a colour group it held the rest of;
``block``: the last lot an opponent needed; ``step``: a lot of a group, or a railroad or utility
set, it had started; ``none``: no interest in the group). ``--worst`` lists the dearest sales.
Games stop after 20,000 decisions (counted).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

from parlor import monopoly
from parlor.bots.registry import make_bot

PERCENTILES = (10, 25, 50, 75, 90, 99, 100)
INTERESTS = ("complete", "block", "step", "none")


def interest(game: Any, player: int, sq: int) -> str:
    """What the lot ``sq`` is to ``player`` now (see the module docstring), from public facts."""
    ed = game.edition
    group = next(tuple(m) for m in ed.groups.values() if sq in m)
    owner = game.owner
    mine = sum(1 for s in group if owner[s] == player)
    if ed.squares[sq].kind == "street":
        if mine == len(group) - 1:
            return "complete"
        others = {owner[s] for s in group if s != sq}
        if mine == 0 and len(others) == 1 and min(others) >= 0:
            return "block"
    return "step" if mine else "none"


def play(edition: str, kind: str, seed: int) -> tuple[list[tuple[float, str, int, int, int]], bool]:
    """The property auctions of one game: ``(price / list, interest, lot, price, round)``, and
    whether the game ended."""
    game = monopoly.new_game(edition, 4, seed=seed)
    bots = [make_bot("monopoly", kind, seed * 16 + p) for p in range(4)]
    sales: list[tuple[float, str, int, int, int]] = []
    started: dict[int, str] = {}
    n = 0
    while not game.is_over and n < 20000:
        pending = game.pending
        assert pending is not None
        for ev in game.apply(bots[pending.player].choose(game, pending.player)):
            if ev.kind == "auction_started" and ev.data["item"] == "property":
                sq = int(ev.data["square"])
                started = {p: interest(game, p, sq) for p in range(4)}
            elif ev.kind == "auction_won" and ev.data["item"] == "property":
                sq, price = int(ev.data["square"]), int(ev.data["price"])
                listed = game.edition.squares[sq].price
                sales.append(
                    (price / listed, started[int(ev.data["player"])], sq, price, game.round)
                )
        n += 1
    return sales, game.is_over


def quantiles(values: Sequence[float]) -> list[float]:
    """The :data:`PERCENTILES` of ``values`` (nearest rank)."""
    ordered = sorted(values)
    n = len(ordered)
    return [ordered[min(n - 1, max(0, -(-q * n // 100) - 1))] for q in PERCENTILES]


def line(label: str, ratios: Sequence[float]) -> str:
    if not ratios:
        return f"  {label:22s} {0:5d}"
    q = "  ".join(f"{x:5.2f}" for x in quantiles(ratios))
    over15 = sum(r > 1.5 for r in ratios) / len(ratios)
    over2 = sum(r > 2 for r in ratios) / len(ratios)
    return f"  {label:22s} {len(ratios):5d}  {q}   {over15:6.1%} {over2:6.1%}"


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100, help="games per edition and bot kind")
    ap.add_argument("--bots", nargs="+", default=["heuristic-v1", "heuristic"])
    ap.add_argument("--editions", nargs="+", default=list(monopoly.EDITION_IDS))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--worst", type=int, default=3, help="list the N dearest sales per kind")
    args = ap.parse_args(argv)
    head = "  ".join(f"{'max' if q == 100 else f'p{q}':>5s}" for q in PERCENTILES)
    for kind in args.bots:
        start = time.perf_counter()
        print(f"{kind}: 4 bots, {args.games} games per edition, price / list price")
        print(f"  {'':22s} {'sales':>5s}  {head}   {'>1.5x':>6s} {'>2x':>6s}")
        every: list[float] = []
        by_interest: dict[str, list[float]] = {i: [] for i in INTERESTS}
        worst: list[tuple[float, str, int, str, int, int]] = []
        unfinished = 0
        for edition in args.editions:
            ratios: list[float] = []
            for seed in range(args.seed, args.seed + args.games):
                sales, ended = play(edition, kind, seed)
                unfinished += not ended
                for ratio, why, sq, price, rnd in sales:
                    ratios.append(ratio)
                    by_interest[why].append(ratio)
                    worst.append((ratio, edition, seed, why, sq, price))
                    del rnd
            every.extend(ratios)
            print(line(edition, ratios))
        print(line("all editions", every))
        for why in INTERESTS:
            print(line(f"  winner's interest: {why}", by_interest[why]))
        worst.sort(key=lambda w: -w[0])
        for ratio, edition, seed, why, sq, price in worst[: args.worst]:
            name = monopoly.new_game(edition, 4, seed=0).edition.squares[sq].name
            label = next(iter(name.values())) if isinstance(name, dict) else str(name)
            print(f"  dearest: {edition} seed {seed}: {label} for {price} ({ratio:.2f}x, {why})")
        wall = time.perf_counter() - start
        print(f"  ({unfinished} games stopped unfinished, {wall:.0f} s)", flush=True)


if __name__ == "__main__":
    main()

"""Bot tournaments: win rates with 95% Wilson confidence intervals against the issue's targets.

Usage::

    python bench/tournament.py                                 # all matchups, defaults
    python bench/tournament.py --matchups tools-search --games 200 --sims 400 --depth 40
    python bench/tournament.py --matchups monopoly-heuristic --games 400 --workers 2

Matchups (the bot under test first):

* ``monopoly-heuristic``: heuristic vs three random bots, target: wins >= 80%;
* ``monopoly-search``: search vs three heuristics, target: wins clearly above the 25% share;
* ``monopoly-offering``: the search bot's own policy without search (``offering``) vs three
  heuristics, same target;
* ``monopoly-bidding``: the heuristic vs three of the heuristic before its seat valuation of auction
  lots (``heuristic-v1``, issue 20), same target;
* ``monopoly-bidding-control``: the same games with ``heuristic-v1`` in the tested seat too (the
  control: game ``i`` of both matchups has the same deal and seat, so ``--results`` of the two
  runs pair up game by game, and games where the new valuation changed nothing cancel out);
* ``tools-heuristic``: heuristic vs random, 2 players, target: wins >= 65%;
* ``tools-search``: search vs heuristic, 2 players, target: wins >= 55%.

Game ``i`` of a matchup uses seed ``--seed + i``, puts the tested bot in seat ``i % players`` (so
seat advantages cancel out) and, for the property game, the edition ``i % len(--editions)``. A
game still running after ``--max-decisions`` decisions is stopped and counts as not won (the
number of such capped games is printed). A tie counts as a shared win (1 / number of winners).

Without ``--sims``/``--time-ms``/``--depth`` the search bots get the recommended budget of their
family (``DEFAULT_SEARCH``: 16 simulations and depth 150 for the property game, 1200 simulations and
depth 16 for TOOLS).

Verdicts: PASS when the whole 95% interval meets the target (for "clearly above 25%": its lower
bound is above 25%), LIKELY when only the point estimate does, FAIL otherwise.

``--duplicate`` plays every deal once from each seat (duplicate format, as in duplicate bridge):
game ``i`` uses seed ``--seed + i // players``, with the tested bot in seat ``i % players``, so the
luck of the deal falls on both sides. Games of one deal are not independent, so the interval is
then computed over deals: the mean score per deal, with its standard error between deals (normal
approximation, fine from a hundred deals up). The Wilson interval over games is printed beside it.
``--results FILE`` writes one JSON line per game (for pooling runs or looking at them again).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tqdm import tqdm  # type: ignore[import-untyped]

from parlor import monopoly, tools
from parlor.bots.registry import make_bot
from parlor.stats import wilson


@dataclass(frozen=True)
class Matchup:
    name: str
    family: str
    players: int
    tested: str
    opponent: str
    target: float
    strict: bool  # target is "clearly above" (lower bound must exceed it)
    description: str


MATCHUPS = {
    m.name: m
    for m in (
        Matchup(
            "monopoly-heuristic",
            "monopoly",
            4,
            "heuristic",
            "random",
            0.80,
            False,
            "property heuristic vs 3 random",
        ),
        Matchup(
            "monopoly-search",
            "monopoly",
            4,
            "search",
            "heuristic",
            0.25,
            True,
            "property search vs 3 heuristics",
        ),
        Matchup(
            "monopoly-offering",
            "monopoly",
            4,
            "offering",
            "heuristic",
            0.25,
            True,
            "property offering vs 3 heuristics",
        ),
        Matchup(
            "monopoly-bidding",
            "monopoly",
            4,
            "heuristic",
            "heuristic-v1",
            0.25,
            True,
            "property heuristic vs 3 heuristic-v1",
        ),
        Matchup(
            "monopoly-bidding-control",
            "monopoly",
            4,
            "heuristic-v1",
            "heuristic-v1",
            0.25,
            True,
            "property heuristic-v1 vs 3 heuristic-v1",
        ),
        Matchup(
            "tools-heuristic",
            "tools",
            2,
            "heuristic",
            "random",
            0.65,
            False,
            "TOOLS heuristic vs random (2p)",
        ),
        Matchup(
            "tools-search",
            "tools",
            2,
            "search",
            "heuristic",
            0.55,
            False,
            "TOOLS search vs heuristic (2p)",
        ),
    )
}


#: The search budget when none is given: the recommended one per game family.
DEFAULT_SEARCH: dict[str, dict[str, Any]] = {
    "monopoly": {"simulations": 16, "depth": 150},
    "tools": {"simulations": 1200, "depth": 16},
}


@dataclass(frozen=True)
class Job:
    matchup: str
    index: int
    seed: int
    seat: int
    edition: str
    variant: str
    search_options: tuple[tuple[str, Any], ...]
    max_decisions: int


@dataclass(frozen=True)
class Result:
    matchup: str
    index: int
    seed: int
    seat: int
    score: float  # 1 win, 1/k a k-way tie, 0 otherwise
    capped: bool
    decisions: int
    seconds: float


def play(job: Job) -> Result:
    m = MATCHUPS[job.matchup]
    start = time.perf_counter()
    game: Any
    if m.family == "monopoly":
        options = {"variant": job.variant} if job.variant != "standard" else None
        game = monopoly.new_game(job.edition, m.players, seed=job.seed, options=options)
    else:
        game = tools.new_game(m.players, seed=job.seed)
    seat = job.seat
    bots = []
    for p in range(m.players):
        name = m.tested if p == seat else m.opponent
        options = dict(job.search_options) if name == "search" else {}
        bots.append(make_bot(m.family, name, seed=job.seed * 16 + p, **options))
    decisions = 0
    while not game.is_over and decisions < job.max_decisions:
        pending = game.pending
        assert pending is not None
        game.apply(bots[pending.player].choose(game, pending.player))
        decisions += 1
    score = 0.0
    if game.is_over and seat in game.outcome.winners:
        score = 1.0 / len(game.outcome.winners)
    return Result(
        job.matchup,
        job.index,
        job.seed,
        seat,
        score,
        not game.is_over,
        decisions,
        time.perf_counter() - start,
    )


def by_deal(results: Sequence[Result]) -> tuple[float, float, float, int]:
    """Mean score over deals (seeds), with a 95% normal interval from the spread between deals:
    ``(mean, low, high, deals)``."""
    deals: dict[int, list[float]] = {}
    for r in results:
        deals.setdefault(r.seed, []).append(r.score)
    means = [sum(v) / len(v) for v in deals.values()]
    n = len(means)
    if n < 2:
        return (means[0] if means else 0.0, 0.0, 1.0, n)
    mean = statistics.fmean(means)
    half = 1.96 * statistics.stdev(means) / math.sqrt(n)
    return (mean, max(0.0, mean - half), min(1.0, mean + half), n)


def verdict(m: Matchup, rate: float, low: float) -> str:
    if m.strict:
        return "PASS" if low > m.target else ("LIKELY" if rate > m.target else "FAIL")
    return "PASS" if low >= m.target else ("LIKELY" if rate >= m.target else "FAIL")


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matchups", nargs="+", default=list(MATCHUPS), choices=list(MATCHUPS))
    ap.add_argument(
        "--games",
        type=int,
        nargs="+",
        default=[200],
        help="games per matchup (one number, or one per matchup)",
    )
    ap.add_argument("--seed", type=int, default=0, help="seed of the first game")
    ap.add_argument("--editions", nargs="+", default=list(monopoly.EDITION_IDS))
    ap.add_argument("--variant", default="standard", choices=list(monopoly.VARIANTS))
    ap.add_argument("--sims", type=int, default=None, help="search budget: simulations")
    ap.add_argument("--time-ms", type=float, default=None, help="search budget: ms per decision")
    ap.add_argument("--depth", type=int, default=None, help="search rollout depth (actions)")
    ap.add_argument("--max-decisions", type=int, default=20000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--duplicate", action="store_true", help="play every deal from each seat (see above)"
    )
    ap.add_argument("--results", default=None, help="write one JSON line per game to this file")
    args = ap.parse_args(argv)

    games = (
        args.games if len(args.games) == len(args.matchups) else args.games[:1] * len(args.matchups)
    )
    search: dict[str, Any] = {}
    if args.sims is not None:
        search["simulations"] = args.sims
    if args.time_ms is not None:
        search["time_ms"] = args.time_ms
    if args.depth is not None:
        search["depth"] = args.depth
    print(
        f"search options: {search or DEFAULT_SEARCH}; editions: {' '.join(args.editions)} "
        f"({args.variant}); workers: {args.workers}"
    )
    for name, count in zip(args.matchups, games, strict=True):
        m = MATCHUPS[name]
        options = search or DEFAULT_SEARCH[m.family]
        per_deal = m.players if args.duplicate else 1
        jobs = [
            Job(
                name,
                i,
                args.seed + i // per_deal,
                i % m.players,
                args.editions[(i // per_deal) % len(args.editions)],
                args.variant,
                tuple(sorted(options.items())),
                args.max_decisions,
            )
            for i in range(count)
        ]
        start = time.perf_counter()
        progress = tqdm(total=len(jobs), desc=name, unit="game", leave=False, mininterval=5)
        results: list[Result] = []
        wins = 0.0
        with contextlib.ExitStack() as stack:
            pool: Any = stack.enter_context(
                multiprocessing.Pool(args.workers) if args.workers > 1 else _Serial()
            )
            out = stack.enter_context(open(args.results, "a")) if args.results else None
            for r in pool.imap_unordered(play, jobs):
                results.append(r)
                wins += r.score
                progress.update()
                progress.set_postfix(rate=f"{wins / len(results):.1%}", refresh=False)
                if out is not None:  # as they come, so a stopped run keeps its games
                    out.write(json.dumps({**r.__dict__, "options": options}) + "\n")
                    out.flush()
        progress.close()
        wall = time.perf_counter() - start
        capped = sum(r.capped for r in results)
        n = len(results)
        rate = wins / n if n else 0.0
        low, high = wilson(wins, n)
        mean_decisions = sum(r.decisions for r in results) / max(1, n)
        target = f"{'>' if m.strict else '>='} {m.target:.0%}"
        print(
            f"{m.description:34s} games {n:4d}  wins {wins:7.1f}  rate {rate:6.1%}  "
            f"95% CI [{low:6.1%}, {high:6.1%}]  target {target:6s} -> {verdict(m, rate, low)}  "
            f"(capped {capped}, {mean_decisions:.0f} decisions/game, {wall:.0f} s)",
            flush=True,
        )
        if args.duplicate:
            mean, dlow, dhigh, deals = by_deal(results)
            print(
                f"{'  by deal (duplicate format)':34s} deals {deals:4d}  mean {mean:6.1%}  "
                f"95% CI [{dlow:6.1%}, {dhigh:6.1%}]  target {target:6s} -> "
                f"{verdict(m, mean, dlow)}",
                flush=True,
            )


class _Serial:
    """``multiprocessing.Pool``'s ``imap_unordered`` in this process (one worker)."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap_unordered(self, fn: Any, jobs: Sequence[Job]) -> Any:
        return map(fn, jobs)


if __name__ == "__main__":
    main()

"""How much of the `offering` bot's strength survives its trade offers snapped to a price ladder.

An imitation learner can only make the trades that have action ids, so its teacher is worth
what it wins with its offers snapped to the catalogue (docs/rl-baseline.md, issue 21). Two ways:

* in the engine (as ``bench/tournament.py --matchups monopoly-offering`` plays: the tested seat
  ``i % 4``, game seed ``--seed + i``, three heuristics): the bot's best offer of one deed for cash
  is replaced by the same purchase at the cheapest price of a ladder at least as high as its own
  (it offers the least the seller accepts); an offer of several deeds, of a deed given with the
  cash, or one above the ladder or the bot's cash is dropped (the heuristic's own move instead).
  Ladders, in eighths of the printed price: ``exact`` (its own offers), ``old`` (1x, 1.5x, 2x:
  the catalogue before the finer purchases), ``quarters`` (0.5x to 3.5x), ``eighths`` (0.5x to
  3.5x: the catalogue now);
* ``--env``: in the Gymnasium environment as ``parlor.rl.distill``'s iteration 0 plays it (the
  learning seat drawn at random, ``--skip-forced``, the full mask, ``--snap-trades``), game
  seeds ``parlor.rl.distill.game_seed(--seed, 0, i)``.

    python bench/bench_snapped_offers.py --games 600 --seed 6000 exact old quarters eighths
    python bench/bench_snapped_offers.py --env --games 300 --seed 7

Each line prints the wins with a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from parlor import monopoly
from parlor.bots.monopoly_offers import OfferingHeuristicBot, open_offers, record_choice
from parlor.bots.registry import make_bot
from parlor.monopoly.actions import ProposeTrade
from parlor.stats import wilson

LADDERS: dict[str, tuple[int, ...] | None] = {
    "exact": None,
    "old": (8, 12, 16),
    "quarters": tuple(range(4, 29, 2)),
    "eighths": tuple(range(4, 29)),
}


class SnappedOffering(OfferingHeuristicBot):
    """The offering bot with its offer snapped to a ladder (``None``: its own offer)."""

    def __init__(self, seed: int, ladder: tuple[int, ...] | None) -> None:
        super().__init__(seed)
        self.ladder = ladder

    def choose(self, game: Any, player: int) -> Any:
        choice = self.heuristic.choose(game, player)
        if game.pending.kind in ("start_turn", "end_turn"):
            offers = open_offers(game, player)
            if offers:
                record_choice(game, player, offers[0])
                snapped = self.snap(game, player, offers[0])
                if snapped is not None:
                    choice = snapped
        return choice

    def snap(self, game: Any, player: int, offer: ProposeTrade) -> ProposeTrade | None:
        if self.ladder is None:
            return offer
        if len(offer.take_squares) != 1 or offer.give_squares:
            return None
        unit = game.edition.money_unit
        base = game.edition.squares[offer.take_squares[0]].price
        for eighths in self.ladder:
            price = max(unit, (base * eighths // 8) // unit * unit)
            if price >= offer.give_cash:
                if price > game.cash[player]:
                    return None
                snapped = ProposeTrade(
                    player, offer.to, take_squares=offer.take_squares, give_cash=price
                )
                return snapped if game.is_legal(snapped) else None
        return None


def play(job: tuple[int, int, str]) -> bool:
    index, seed, ladder = job
    game: Any = monopoly.new_game("classic", 4, seed=seed)
    seat = index % 4
    bots: list[Any] = [
        SnappedOffering(seed * 16 + p, LADDERS[ladder])
        if p == seat
        else make_bot("monopoly", "heuristic", seed=seed * 16 + p)
        for p in range(4)
    ]
    decisions = 0
    while not game.is_over and decisions < 20_000:
        p = game.pending.player
        game.apply(bots[p].choose(game, p))
        decisions += 1
    return bool(game.is_over and seat in game.outcome.winners)


def report(name: str, won: int, games: int, start: float) -> None:
    low, high = wilson(won, games)
    print(
        f"{name:10s} {won}/{games} = {won / games:.1%} [{low:.1%}, {high:.1%}]"
        f"  {time.monotonic() - start:.0f} s",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ladders", nargs="*", help=f"of {list(LADDERS)} (default: all)")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=6000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--env", action="store_true", help="in the environment, as distill")
    args = parser.parse_args()
    args.ladders = args.ladders or list(LADDERS)
    if not set(args.ladders) <= set(LADDERS):
        parser.error(f"ladders are among {list(LADDERS)}")
    if args.env:
        from parlor.rl.distill import collect_parallel, game_seed

        start = time.monotonic()
        env = dict(
            game="classic",
            players=4,
            seat="random",
            opponents="heuristic",
            options={},
            trade_offers=True,
            liquidate="any_time",
            skip_forced=True,
            max_steps=4000,
        )
        seeds = [game_seed(args.seed, 0, i) for i in range(args.games)]
        _, counts = collect_parallel(env, "offering", {}, None, 1.0, seeds, args.workers, True)
        print(counts)
        report("env", counts["won"], counts["games"], start)
        return
    with ProcessPoolExecutor(args.workers) as pool:
        for ladder in args.ladders:
            start = time.monotonic()
            jobs = [(i, args.seed + i, ladder) for i in range(args.games)]
            report(ladder, sum(pool.map(play, jobs)), args.games, start)


if __name__ == "__main__":
    main()

"""Deck study: simulate many games for candidate decks and print how each plays.

    python -m parlor.analysis.deckstudy [--games 1000] [--players 2 4 6 10] [--deck my.toml]

For every deck, player count and kind of play (random legal moves, or the greedy bot at every
seat) it reports: mean game length in turns; how often the good-nail penalty strikes (per game,
and the share of games where it strikes at least once); how often seat 0, who plays first, wins
(against the fair 1/n); and the share of games that ended blocked. The figures behind the
default deck are in ``docs/tools-deck.md``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlor.bots.base import RandomBot
from parlor.bots.tools_greedy import GreedyBot
from parlor.i18n import environment_language, translator
from parlor.tools.actions import AcceptPenalty, PenaltyHammers
from parlor.tools.cards import Deck, default_deck, load_deck, parse_deck
from parlor.tools.game import ToolsGame


def _deck(
    name: str, per_color: Mapping[str, int], wilds: Mapping[str, int], colors: int = 4
) -> Deck:
    palette = ["red", "blue", "green", "yellow", "purple"][:colors]
    return parse_deck(
        {"name": name, "colors": palette, "copies": dict(per_color), "wilds": dict(wilds)}
    )


ACTIONS_2 = {"smashed_finger": 2, "reverse": 2, "box_of_nails": 2}
WILDS_4 = {"toolbox": 4, "wild_hammer": 4, "paint_brush": 4}

#: The candidates compared by the study (the default deck is added as it is shipped).
CANDIDATES: list[Deck] = [
    _deck("lean-6h", {"hammer": 6, "good_nail": 3, "bent_nail": 3, **ACTIONS_2}, WILDS_4),
    _deck("nail-heavy", {"hammer": 6, "good_nail": 5, "bent_nail": 3, **ACTIONS_2}, WILDS_4),
    _deck("hammer-10h", {"hammer": 10, "good_nail": 3, "bent_nail": 3, **ACTIONS_2}, WILDS_4),
    _deck(
        "few-wilds",
        {"hammer": 8, "good_nail": 3, "bent_nail": 3, **ACTIONS_2},
        {"toolbox": 2, "wild_hammer": 2, "paint_brush": 2},
    ),
    _deck(
        "uno-sized",
        {
            "hammer": 9,
            "good_nail": 4,
            "bent_nail": 4,
            "smashed_finger": 3,
            "reverse": 3,
            "box_of_nails": 3,
        },
        WILDS_4,
    ),
    _deck(
        "five-colors", {"hammer": 6, "good_nail": 3, "bent_nail": 3, **ACTIONS_2}, WILDS_4, colors=5
    ),
]


@dataclass
class Figures:
    games: int = 0
    turns: int = 0
    penalties: int = 0
    struck: int = 0
    first_wins: int = 0
    blocked: int = 0

    def row(self) -> dict[str, float]:
        g = max(self.games, 1)
        return {
            "turns": self.turns / g,
            "penalty_per_game": self.penalties / g,
            "penalty_games": self.struck / g,
            "first_seat_wins": self.first_wins / g,
            "blocked": self.blocked / g,
        }


def simulate(deck: Deck, players: int, games: int, bot: str, seed: int = 0) -> Figures:
    """Play ``games`` complete games with ``bot`` ("random" or "greedy") at every seat."""
    fig = Figures()
    for i in range(games):
        s = seed * 1_000_003 + i
        game = ToolsGame(players, s, deck)
        rng = random.Random(s)
        bots: list[Any] = [
            GreedyBot(s * 16 + p) if bot == "greedy" else RandomBot(s * 16 + p)
            for p in range(players)
        ]
        penalties = 0
        while game.outcome is None:
            p = game.current
            if bot == "random":
                action = rng.choice(game.legal_actions(p))
            else:
                action = bots[p].choose(game, p)
            if isinstance(action, PenaltyHammers) or (
                isinstance(action, AcceptPenalty)
                and game.pending is not None
                and game.pending.kind == "play"
            ):
                penalties += 1
            game.apply(action)
        outcome = game.outcome
        fig.games += 1
        fig.turns += game.turn
        fig.penalties += penalties
        fig.struck += penalties > 0
        fig.first_wins += outcome.winners == (0,)
        fig.blocked += outcome.reason == "blocked"
    return fig


def study(
    decks: Sequence[Deck], players: Sequence[int], games: int, bots: Sequence[str]
) -> Iterator[dict[str, Any]]:
    """One row of figures per deck, bot and player count, as each is measured."""
    for deck in decks:
        for bot in bots:
            for n in players:
                if deck.size < 7 * n + 1:
                    continue
                fig = simulate(deck, n, games, bot)
                yield {"deck": deck.name, "cards": deck.size, "bot": bot, "players": n, **fig.row()}


def main(argv: Sequence[str] | None = None) -> None:
    _ = translator(environment_language() or "en")  # the help in the user's language
    parser = argparse.ArgumentParser(
        description=_(
            "Deck study: simulate many games for candidate decks and print how each plays."
        )
    )
    parser.add_argument(
        "--games", type=int, default=1000, help=_("games per deck and player count")
    )
    parser.add_argument(
        "--players", type=int, nargs="+", default=[2, 4, 6, 10], help=_("player counts to study")
    )
    parser.add_argument(
        "--bots",
        nargs="+",
        default=["random", "greedy"],
        choices=["random", "greedy"],
        help=_("who plays every seat: random legal moves, the greedy bot, or both"),
    )
    parser.add_argument(
        "--deck", action="append", default=[], help=_("also study this deck TOML file")
    )
    parser.add_argument(
        "--only", action="store_true", help=_("study only the --deck files and the default")
    )
    args = parser.parse_args(argv)
    decks = [default_deck(), *(load_deck(p) for p in args.deck)]
    if not args.only:
        decks += CANDIDATES
    start = time.perf_counter()
    print(
        f"{'deck':<12} {'cards':>5} {'bot':<6} {'n':>2} {'turns':>6} {'pen/game':>8} "
        f"{'pen games':>9} {'seat0 win':>9} {'fair':>5} {'blocked':>7}"
    )
    for r in study(decks, args.players, args.games, args.bots):
        print(
            f"{r['deck']:<12} {r['cards']:>5} {r['bot']:<6} {r['players']:>2} {r['turns']:>6.1f} "
            f"{r['penalty_per_game']:>8.2f} {r['penalty_games']:>9.0%} "
            f"{r['first_seat_wins']:>9.1%} {1 / r['players']:>5.1%} {r['blocked']:>7.1%}",
            flush=True,
        )
    print(f"({args.games} games per row, {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()

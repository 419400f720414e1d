"""Count where throws and turns end in real games played by the engine, to check the exact chain.

The players follow a scripted policy that keeps money out of play: they decline every property and
pass every bid (so no rent is ever due), pay taxes at the flat rate, and in jail either leave at
once (use a held card, else pay the fine) or throw for doubles, as the chosen jail strategy says.
Salary outweighs taxes and fines, so a game practically never ends; if one does, another starts.

Only the engine's public interface is used: ``new_game``, ``pending``, ``apply`` and the events it
returns (the token is followed through ``moved``, ``jailed`` and ``left_jail`` events, and checked
against ``view`` from time to time).

>>> counts = simulate("classic", games=2, game_turns=100, seed=1)
>>> counts.turns, counts.turn.shape
(200, (2, 41))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from parlor import monopoly
from parlor.analysis.markov import N_SQUARES, FloatArray, JailStrategy
from parlor.core.errors import IllegalAction
from parlor.core.game import Event

IN_JAIL = N_SQUARES  # index of "in jail" in the count vectors (41 entries)


@dataclass(frozen=True, slots=True)
class Counts:
    """Where throws and turns ended, one row per game: 41 columns (squares 0..39, then in jail).

    Each game starts from a fresh shuffle. With a cycling deck the order stays (nearly) fixed for a
    whole game, and a fixed order has its own long-run figures; the exact chain's uniform draws are
    the average over shuffles. So the sampling error must be judged between games, not throws.
    """

    roll: FloatArray  # games x 41
    turn: FloatArray  # games x 41
    off_strategy: int  # jail turns where the strategy's action was not allowed (no cash, ...)

    @property
    def games(self) -> int:
        return int(self.turn.shape[0])

    @property
    def turns(self) -> int:
        return int(self.turn.sum())

    @property
    def throws(self) -> int:
        return int(self.roll.sum())


def simulate(
    edition: str = "classic",
    games: int = 10,
    game_turns: int = 1_000,
    seed: int = 0,
    jail: JailStrategy = "leave",
    use_jail_cards: bool = True,
    options: Mapping[str, Any] | None = None,
    players: int = 2,
    burn_in: int = 20,
) -> Counts:
    """Play ``games`` games, counting ``game_turns`` turns of each after its first ``burn_in``
    (and, when jail cards are kept, after every one has been drawn).

    ``jail="leave"`` leaves jail at once, with a held card if ``use_jail_cards`` (it goes back to
    the bottom of its deck) or else by paying; ``"stay"`` throws for doubles (cards are kept). A game
    that ends early (it practically never does) is topped up by another.
    """
    roll = np.zeros((games, N_SQUARES + 1))
    turn = np.zeros((games, N_SQUARES + 1))
    off = 0
    game_seed = seed
    for g in range(games):
        counted = 0
        while counted < game_turns:
            game_seed += 1
            counted, o = _play(
                edition,
                game_seed,
                jail,
                use_jail_cards,
                options,
                players,
                burn_in,
                game_turns,
                counted,
                roll[g],
                turn[g],
            )
            off += o
    return Counts(roll, turn, off)


def _play(
    edition: str,
    seed: int,
    jail: JailStrategy,
    use_jail_cards: bool,
    options: Mapping[str, Any] | None,
    players: int,
    burn_in: int,
    wanted: int,
    counted: int,
    roll: FloatArray,
    turn: FloatArray,
) -> tuple[int, int]:
    """Play one game, adding to ``roll`` and ``turn``; return (turns counted so far, off-strategy)."""
    game = monopoly.new_game(edition, players=players, seed=seed, options=options)
    ed = game.edition
    where = [ed.go_square] * players  # 0..39, or IN_JAIL
    jail_cards = [0] * players
    # When nobody uses a jail card, every one drawn is kept for good and the decks end up without
    # them (the chain's jail_cards="held"); count only from then on, not during that transient.
    keep_cards = jail == "stay" or not use_jail_cards
    loose = [sum(1 for c in ed.cards if c.effect == "get_out_of_jail") if keep_cards else 0]
    thrown = False
    played = off = 0

    def follow(events: list[Event]) -> None:
        for e in events:
            k, d = e.kind, e.data
            if k == "moved":
                where[d["player"]] = d["to"]
            elif k == "jailed":
                where[d["player"]] = IN_JAIL
            elif k == "left_jail" and where[d["player"]] == IN_JAIL:
                where[d["player"]] = ed.jail_square
            elif k == "card" and ed.cards[d["card"]].effect == "get_out_of_jail":
                jail_cards[d["player"]] += 1
                loose[0] -= keep_cards

    while counted < wanted:
        dec = game.pending
        if dec is None:  # the game ended: the caller starts another
            break
        p, kind = dec.player, dec.kind
        if thrown and kind in ("roll_again", "end_turn"):
            thrown = False  # the throw and all it set off are over: count where it ended
            if played >= burn_in and not loose[0]:
                roll[where[p]] += 1
        if kind in ("start_turn", "roll_again"):
            follow(game.apply(monopoly.RollDice(p)))
            thrown = True
        elif kind == "jail":
            if jail == "leave":
                use_card = use_jail_cards and jail_cards[p] > 0
                leave = monopoly.UseJailCard(p) if use_card else monopoly.PayJailFine(p)
                try:
                    follow(game.apply(leave))
                    jail_cards[p] -= use_card
                    continue  # out of jail: the turn now asks for an ordinary throw
                except IllegalAction:
                    off += 1  # e.g. not enough cash for the fine: throw instead
            follow(game.apply(monopoly.RollDice(p)))
            thrown = True
        elif kind == "end_turn":
            if played >= burn_in and not loose[0]:
                turn[where[p]] += 1
                counted += 1
            played += 1
            if played % 499 == 0:  # the position followed through events agrees with the table
                seen = game.view(None)["players"][p]
                pos = IN_JAIL if seen["in_jail"] else seen["position"]
                assert pos == where[p], f"seed {seed}: view says {pos}, events said {where[p]}"
            follow(game.apply(monopoly.EndTurn(p)))
        elif kind == "buy_or_auction":
            follow(game.apply(monopoly.DeclineProperty(p)))
        elif kind == "bid":
            follow(game.apply(monopoly.PassBid(p)))
        elif kind == "tax_choice":
            follow(game.apply(monopoly.ChooseTax(p, False)))
        elif kind == "raise_funds":
            try:
                follow(game.apply(monopoly.PayDebt(p)))
            except IllegalAction:
                follow(game.apply(monopoly.DeclareBankruptcy(p)))
        else:  # pragma: no cover - trades and mortgages never arise under this policy
            raise AssertionError(f"unexpected decision {kind!r} (seed {seed})")
    return counted, off

"""Count where throws and turns end in real games played by the engine, to check the exact chain.

The players follow the scripted policy of :mod:`parlor.analysis.scripted`, which keeps money out
of play, and pay taxes at the flat rate. Salary outweighs taxes and fines, so a game practically never ends; if one does, another starts.

Only the engine's public interface is used: ``new_game``, ``pending``, ``apply`` and the events it
returns (the token is followed through ``moved``, ``jailed`` and ``left_jail`` events, and checked
against ``view`` from time to time), and ``snapshot()`` for the decks' order.

:func:`simulate` plays many games, each with its own shuffle (the uniform chain's check);
:func:`long_game` plays one long game of a player alone, so that the decks are drawn by one token
only and keep one cyclic order: the situation :mod:`parlor.analysis.cycling` solves exactly for
that order.

>>> counts = simulate("classic", games=2, game_turns=100, seed=1)
>>> counts.turns, counts.turn.shape
(200, (2, 41))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from parlor import monopoly
from parlor.analysis import scripted
from parlor.analysis.markov import N_SQUARES, FloatArray, JailStrategy
from parlor.core.game import Event
from parlor.monopoly.edition import Edition, load_edition

IN_JAIL = N_SQUARES  # index of "in jail" in the count vectors (41 entries)


@dataclass(frozen=True, slots=True)
class Counts:
    """Where throws and turns ended, one row per game (or per batch of turns of one long game):
    41 columns (squares 0..39, then in jail).

    Each game starts from a fresh shuffle. With a cycling deck the order stays (nearly) fixed for a
    whole game, and a fixed order has its own long-run figures; averaged over shuffles they come
    within about 0.004 points of the uniform chain's (docs/analysis.md). So the sampling error of
    many games must be judged between games, not throws; that of one long game, between batches.
    """

    roll: FloatArray  # games (or batches) x 41
    turn: FloatArray  # games (or batches) x 41
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


@dataclass(frozen=True, slots=True)
class LongGame:
    """One long game: its counts in batches of consecutive turns, and the decks' order."""

    counts: Counts  # one row per batch
    decks_order: dict[str, list[int]]  # each deck's card ids, top first, when the game stopped
    seed: int


def solo(edition: str | Edition) -> Edition:
    """``edition`` played by one player alone (the same data, with ``min_players = 1``)."""
    ed = load_edition(edition) if isinstance(edition, str) else edition
    return dataclasses.replace(ed, min_players=1)


def long_game(
    edition: str | Edition = "classic",
    turns: int = 100_000,
    batches: int = 50,
    seed: int = 0,
    jail: JailStrategy = "leave",
    use_jail_cards: bool = True,
    options: Mapping[str, Any] | None = None,
    players: int = 1,
    burn_in: int = 20,
) -> LongGame:
    """Play ONE game, counting ``turns`` turns after its first ``burn_in`` (and, when jail cards
    are kept, after every one has been drawn) in ``batches`` rows of consecutive turns.

    One player by default (:func:`solo`): nobody else draws from the decks, so each keeps one
    cyclic order all game long (when the jail cards are kept, not used). The batches of one game
    are autocorrelated only over a few hundred throws, so with batches of thousands of turns
    their spread gives the standard error of the whole game's figures (batch means).
    """
    if batches < 1 or turns % batches:
        raise ValueError("turns must be a positive multiple of batches")
    ed = solo(edition) if players == 1 else edition
    roll = np.zeros((batches, N_SQUARES + 1))
    turn = np.zeros((batches, N_SQUARES + 1))
    counted, off, game = _play(
        ed,
        seed,
        jail,
        use_jail_cards,
        options,
        players,
        burn_in,
        turns,
        0,
        roll,
        turn,
        turns // batches,
    )
    if counted < turns:
        raise RuntimeError(f"seed {seed}: the game ended after {counted} counted turns")
    order = {d: [int(c) for c in cards] for d, cards in game.snapshot()["decks_order"].items()}
    return LongGame(Counts(roll, turn, off), order, seed)


def simulate(
    edition: str | Edition = "classic",
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
            counted, o, _ = _play(
                edition,
                game_seed,
                jail,
                use_jail_cards,
                options,
                players,
                burn_in,
                game_turns,
                counted,
                roll[g : g + 1],
                turn[g : g + 1],
                game_turns,
            )
            off += o
    return Counts(roll, turn, off)


def _play(
    edition: str | Edition,
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
    batch: int,
) -> tuple[int, int, monopoly.PropertyGame]:
    """Play one game, adding to row ``counted // batch`` of ``roll`` and ``turn``; return (turns
    counted so far, off-strategy jail turns, the game)."""
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
                roll[counted // batch, where[p]] += 1
        if kind == "end_turn":
            if played >= burn_in and not loose[0]:
                turn[counted // batch, where[p]] += 1
                counted += 1
            played += 1
            if played % 499 == 0:  # the position followed through events agrees with the table
                seen = game.view(None)["players"][p]
                pos = IN_JAIL if seen["in_jail"] else seen["position"]
                assert pos == where[p], f"seed {seed}: view says {pos}, events said {where[p]}"
        use_card = kind == "jail" and use_jail_cards and jail_cards[p] > 0
        step = scripted.answer(game, dec, jail=jail, use_jail_card=use_card)
        follow(step.events)
        if isinstance(step.action, monopoly.RollDice):
            thrown = True
        elif isinstance(step.action, monopoly.UseJailCard):
            jail_cards[p] -= 1
        off += not step.planned and kind == "jail"  # e.g. not enough cash for the fine
    return counted, off, game

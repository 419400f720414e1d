"""A fast seeded simulation of one token, written from the rules, to check the exact chain.

It plays turn after turn of one player on ``edition`` under ``options`` with the chain's
conventions (cards drawn independently and uniformly, get-out-of-jail cards left in the deck as
cards that do not move the token, jail left at once or by doubles as ``jail`` says) but none of
its code: the dice, doubles, the third doubles, jail, Go To Jail and every moving card are played
step by step, as a player would. It counts where each throw and each turn ends and how often Go is
passed, in batches of consecutive turns so that the tests can judge the sampling error.

The engine-driven check (:mod:`parlor.analysis.simulate`) plays real games through the engine and
is slower; this one runs a few hundred thousand turns a second or two, so every edition and rule
scenario can be checked.

>>> counts = simulate_token("classic", turns=2_000, batches=4, seed=1)
>>> int(counts.turn.sum()), counts.turn.shape
(2000, (4, 41))
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from parlor.analysis.markov import N_SQUARES, FloatArray, JailStrategy
from parlor.monopoly.edition import Card, Edition, load_edition
from parlor.monopoly.rules import RuleOptions

IN_JAIL = N_SQUARES  # column of "in jail" (41 columns: squares 0..39, then in jail)
MAX_CHAIN = 12


@dataclass(frozen=True, slots=True)
class TokenCounts:
    """One row per batch of consecutive turns: where throws and turns ended, and Go passes."""

    roll: FloatArray  # batches x 41
    turn: FloatArray  # batches x 41
    go_passes: FloatArray  # batches
    go_landings: FloatArray  # batches: forward moves ending on Go

    @property
    def turns(self) -> int:
        return int(self.turn.sum())


class _Token:
    def __init__(self, ed: Edition, options: RuleOptions, jail: JailStrategy, rng: random.Random):
        self.ed = ed
        self.opt = options
        self.jail = jail
        self.rng = rng
        self.pos = ed.go_square
        self.jailed = False
        self.failed = 0  # failed jail throws so far
        self.passes = 0
        self.landings = 0
        self.decks: dict[str, list[Card]] = {}
        for card in ed.cards:
            self.decks.setdefault(card.deck, []).append(card)

    def dice(self) -> tuple[int, bool]:
        a, b = self.rng.randint(1, 6), self.rng.randint(1, 6)
        return a + b, a == b

    def go_to_jail(self) -> None:
        self.jailed = True
        self.failed = 0
        self.pos = self.ed.jail_square

    def forward(self, steps: int, depth: int) -> None:
        """Move ``steps`` (negative: back, no salary) and do what the square says."""
        old = self.pos
        self.pos = (old + steps) % N_SQUARES
        if steps > 0 and old + steps >= N_SQUARES + self.ed.go_square:
            self.passes += 1
            self.landings += self.pos == self.ed.go_square
        self.land(depth)

    def land(self, depth: int) -> None:
        sq = self.ed.squares[self.pos]
        if sq.kind == "go_to_jail":
            self.go_to_jail()
            return
        if sq.kind not in ("chance", "community_chest") or depth >= MAX_CHAIN:
            return
        deck = self.decks.get(sq.deck or sq.kind)
        if not deck:
            return
        card = deck[self.rng.randrange(len(deck))]
        if card.effect == "go_to_jail":
            self.go_to_jail()
        elif card.effect == "move_to":
            assert card.target is not None
            steps = (card.target - self.pos) % N_SQUARES
            if steps == 0 and card.target == self.ed.go_square:
                steps = N_SQUARES
            self.forward(steps, depth + 1)
        elif card.effect == "move_relative":
            self.forward(card.steps, depth + 1)
        elif card.effect == "move_nearest":
            steps = 1
            while self.ed.squares[(self.pos + steps) % N_SQUARES].kind != card.kind:
                steps += 1
            self.forward(steps, depth + 1)

    def turn(self, roll: FloatArray) -> None:
        """One turn; ``roll[square]`` counts where each throw ends."""
        doubles_so_far = 0
        if self.jailed:
            if self.jail == "leave":
                self.jailed = False  # pays (or uses a card) before throwing
            else:
                total, doubles = self.dice()
                if doubles:
                    self.jailed = False
                    self.forward(total, 0)
                    roll[IN_JAIL if self.jailed else self.pos] += 1
                    if self.jailed or not self.opt.jail_doubles_extra_throw:
                        return
                    doubles_so_far = 1
                else:
                    self.failed += 1
                    if self.failed < self.opt.jail_max_turns:
                        roll[IN_JAIL] += 1
                        return
                    self.jailed = False  # the last failed throw: pay and move by it
                    self.forward(total, 0)
                    roll[IN_JAIL if self.jailed else self.pos] += 1
                    return
        while True:
            total, doubles = self.dice()
            if doubles and doubles_so_far == 2:
                self.go_to_jail()
                roll[IN_JAIL] += 1
                return
            self.forward(total, 0)
            roll[IN_JAIL if self.jailed else self.pos] += 1
            if self.jailed or not doubles:
                return
            doubles_so_far += 1


def simulate_token(
    edition: Edition | str = "classic",
    options: RuleOptions | Mapping[str, Any] | None = None,
    jail: JailStrategy = "leave",
    turns: int = 100_000,
    batches: int = 50,
    seed: int = 0,
) -> TokenCounts:
    """Play ``turns`` turns of one token, counted in ``batches`` batches of consecutive turns."""
    ed = load_edition(edition) if isinstance(edition, str) else edition
    opt = options if isinstance(options, RuleOptions) else RuleOptions.for_edition(ed, options)
    token = _Token(ed, opt, jail, random.Random(seed))
    for _ in range(200):  # forget the start on Go
        token.turn(np.zeros(N_SQUARES + 1))
    roll = np.zeros((batches, N_SQUARES + 1))
    turn = np.zeros((batches, N_SQUARES + 1))
    passes = np.zeros(batches)
    landings = np.zeros(batches)
    per = turns // batches
    for b in range(batches):
        token.passes = token.landings = 0
        n = per if b < batches - 1 else turns - per * (batches - 1)
        row = roll[b]
        ends = turn[b]
        for _ in range(n):
            token.turn(row)
            ends[IN_JAIL if token.jailed else token.pos] += 1
        passes[b] = token.passes
        landings[b] = token.landings
    return TokenCounts(roll, turn, passes, landings)

"""The bot protocol and the random bot, which plays uniformly among the legal actions."""

from __future__ import annotations

import random
from itertools import groupby
from typing import Any, Protocol

from parlor.core.game import Game


class Bot(Protocol):
    name: str

    def choose(self, game: Game[Any], player: int) -> Any:
        """Return an action for ``player``, who must decide now."""
        ...


class RandomBot:
    """Picks uniformly among the legal actions of the deciding player, from its own seeded generator.

    With probability ``anytime_rate`` it picks among every legal action, "any time" ones included
    (building, mortgaging, trading...); otherwise among the answers to the pending decision, and
    among everything only when no answer is legal (a debtor who must raise funds). It first picks
    a kind of action uniformly, then one action of that kind, so the hundreds of possible trade
    offers do not drown out building: without building, random property games rarely end.
    """

    name = "random"

    def __init__(self, seed: int | None = None, anytime_rate: float = 0.1) -> None:
        self.rng = random.Random(seed)
        self.anytime_rate = anytime_rate

    def choose(self, game: Game[Any], player: int) -> Any:
        rng = self.rng
        actions: list[Any] = []
        if rng.random() >= self.anytime_rate:
            actions = game.legal_actions(player, anytime=False)
        if not actions:
            actions = game.legal_actions(player)
        if not actions:
            raise ValueError(f"player {player} has no legal action")
        if len(set(map(type, actions))) == len(actions):
            # Each action a kind of its own (most answers: accept or reject, buy or decline): the
            # kinds are the actions, in order; the same two draws as below, without the grouping.
            chosen = rng.choice(actions)
            return rng.choice((chosen,))
        # The actions by kind, in order of first appearance. Listings put actions of one kind
        # next to each other (a hundred trade offers in a row), so they are taken run by run.
        kinds: dict[type, list[Any]] = {}
        for kind, run in groupby(actions, type):
            same = kinds.get(kind)
            if same is None:
                kinds[kind] = list(run)
            else:
                same.extend(run)
        return rng.choice(kinds[rng.choice(list(kinds))])

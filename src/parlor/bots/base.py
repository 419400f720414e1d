"""The bot protocol and the random bot, which plays uniformly among the legal actions."""

from __future__ import annotations

import random
from typing import Any, Protocol

from parlor.core.game import Game


class Bot(Protocol):
    name: str

    def choose(self, game: Game[Any], player: int) -> Any:
        """Return an action for ``player``, who must decide now."""
        ...


class RandomBot:
    """Picks uniformly among the legal actions of the deciding player, from its own seeded generator.

    Actions that answer the pending decision come first: "any time" actions (building, mortgaging,
    trading...) are chosen only when nothing else is legal, as when a debtor must raise funds.
    That keeps random games finite.
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game[Any], player: int) -> Any:
        actions = game.legal_actions(player, anytime=False) or game.legal_actions(player)
        if not actions:
            raise ValueError(f"player {player} has no legal action")
        return self.rng.choice(actions)

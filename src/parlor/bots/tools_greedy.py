"""A simple greedy TOOLS bot, for deck studies and as a sparring partner.

It plays whenever it can, keeps wilds for last, prefers cards that hurt the next player (a good
nail, a box of nails, a smashed finger), names the color it holds most, always answers a box of
nails, and always plays a playable drawn card. It reads only the public interface and its own view.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from parlor.core.game import Game
from parlor.tools.actions import ChooseColor, PlayCard, PlayDrawn, ToolsAction

# Lower is played first: attacking cards, then ordinary cards, then wilds (kept as insurance).
_PRIORITY = {
    "good_nail": 0,
    "box_of_nails": 0,
    "smashed_finger": 1,
    "bent_nail": 2,
    "reverse": 2,
    "hammer": 3,
    "paint_brush": 5,
    "wild_hammer": 6,
    "toolbox": 4,
}


class GreedyBot:
    """Greedy play as described in the module docstring; ties broken by its seeded generator."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game[Any], player: int) -> ToolsAction:
        actions: list[ToolsAction] = game.legal_actions(player)
        if not actions:
            raise ValueError(f"player {player} has no legal action")
        hand: list[str] = game.view(player)["hand"]
        colors = Counter(code.split(":")[1] for code in hand if ":" in code)
        plays = [a for a in actions if isinstance(a, PlayCard)]
        if plays:

            def score(a: PlayCard) -> tuple[int, int, float]:
                kind, _, color = a.card.partition(":")
                # Prefer the color held most, so the hand keeps matching what follows.
                return (_PRIORITY[kind], -colors.get(color, 0), self.rng.random())

            return min(plays, key=score)
        for a in actions:
            if isinstance(a, PlayDrawn):
                return a
        choices = [a for a in actions if isinstance(a, ChooseColor)]
        if choices:
            best = max(choices, key=lambda a: (colors.get(a.color, 0), self.rng.random()))
            return best
        return self.rng.choice(actions)

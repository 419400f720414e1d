"""TOOLS, the card game of hammers and nails, on Parlor's shared game protocol.

Settings and a seed make a game; ``pending`` says who decides what; ``legal_actions`` lists the
moves; ``apply`` validates and carries one out, or raises a :class:`parlor.core.errors.ParlorError`
and changes nothing. Games replay exactly from their JSON save.

>>> from parlor import tools
>>> game = tools.new_game(players=3, seed=7)
>>> game.pending.player, game.pending.kind
(0, 'play')
>>> len(game.view(0)["hand"]), game.view(0)["hand_sizes"]
(7, [7, 7, 7])
>>> "hand" in game.view(None)   # a spectator sees no hand
False
>>> action = game.legal_actions(0)[0]
>>> events = game.apply(action)
>>> game.apply(tools.Draw(0))
Traceback (most recent call last):
...
parlor.core.errors.NotYourDecision: it is Player 2's turn, not Player 1's
>>> again = tools.ToolsGame.from_json(game.to_json())
>>> again.snapshot() == game.snapshot()
True
>>> game.action_from_id(game.action_id(action), 0) == action
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from parlor.tools.actions import (
    AcceptPenalty,
    ChooseColor,
    Draw,
    EndTurn,
    KeepDrawn,
    PenaltyHammers,
    PlayCard,
    PlayDrawn,
    ToolsAction,
)
from parlor.tools.cards import Deck, bundled_deck, default_deck, load_deck, parse_deck
from parlor.tools.constraints import HandConstraint
from parlor.tools.game import ToolsGame
from parlor.tools.options import ToolsOptions


def new_game(
    players: int | Sequence[str] = 4,
    seed: int = 0,
    deck: Deck | Mapping[str, Any] | str | Path | None = None,
    options: ToolsOptions | Mapping[str, Any] | None = None,
) -> ToolsGame:
    """A new game: ``players`` is a count (2-10) or a list of names; ``deck`` a :class:`Deck`,
    parsed TOML data, a path to a deck TOML file, or ``None`` for the default deck; ``options`` a
    :class:`ToolsOptions` or a dict of its fields."""
    return ToolsGame(players, seed, deck, options)


__all__ = [
    "AcceptPenalty",
    "ChooseColor",
    "Deck",
    "Draw",
    "EndTurn",
    "HandConstraint",
    "KeepDrawn",
    "PenaltyHammers",
    "PlayCard",
    "PlayDrawn",
    "ToolsAction",
    "ToolsGame",
    "ToolsOptions",
    "bundled_deck",
    "default_deck",
    "load_deck",
    "new_game",
    "parse_deck",
]

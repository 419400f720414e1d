"""What the determinized search (:mod:`parlor.bots.search`) needs of one game family: an
:class:`Adapter` (its heuristic, the candidate actions worth searching, the evaluation of a
rollout cut off early), and the score of a finished game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from parlor.bots.base import Bot
from parlor.core.game import Game


@dataclass(frozen=True, slots=True)
class Adapter:
    """What the search needs to know about one game family."""

    make_heuristic: Callable[[int], Bot]
    #: Candidate actions at this decision (given the heuristic's choice); one or none: no search.
    candidates: Callable[[Game[Any], int, Any], list[Any]]
    #: The bot's score in [0, 1] for a game cut off before its end.
    evaluate: Callable[[Game[Any], int], float]
    #: Default rollout length in actions, or a function of the game giving it.
    depth: int | Callable[[Game[Any]], int]
    #: The bot's own policy outside searches (default: ``make_heuristic``).
    make_own: Callable[[int], Bot] | None = None
    #: The searching seat's policy in rollouts (default: ``make_heuristic``, as the others).
    make_own_rollout: Callable[[int], Bot] | None = None
    #: Told which action the search chose, so the adapter may remember it (e.g. offers made).
    chosen: Callable[[Game[Any], int, Any], None] | None = None
    #: The first candidate, not the heuristic's choice, is the one kept unless beaten clearly.
    first_is_default: bool = False
    #: ``(game, player, seed) -> copy`` resampling what ``player`` cannot see (default: the
    #: game's own ``determinize``).
    determinize: Callable[[Game[Any], int, int], Game[Any]] | None = None


def outcome_score(game: Game[Any], player: int) -> float:
    """1 for a win, a share of 1 for a tie, 0 for a loss."""
    outcome = game.outcome
    assert outcome is not None
    if player in outcome.winners:
        return 1.0 / len(outcome.winners)
    return 0.0

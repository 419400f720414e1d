"""The pieces every Parlor game shares: errors, decisions, events, outcomes and the game protocol."""

from parlor.core.errors import (
    GameOverError,
    IllegalAction,
    MalformedAction,
    NotYourDecision,
    ParlorError,
    ReplayError,
    SaveError,
    SettingsError,
    UnknownActionId,
)
from parlor.core.game import Decision, Event, Game, Outcome

__all__ = [
    "Decision",
    "Event",
    "Game",
    "GameOverError",
    "IllegalAction",
    "MalformedAction",
    "NotYourDecision",
    "Outcome",
    "ParlorError",
    "ReplayError",
    "SaveError",
    "SettingsError",
    "UnknownActionId",
]

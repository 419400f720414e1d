"""The exception hierarchy shared by every Parlor game.

All errors are :class:`ValueError` subclasses, so callers that only care about "bad input" can catch
that, while callers that care can tell a rule violation from a malformed request:

>>> issubclass(NotYourDecision, IllegalAction) and issubclass(IllegalAction, ValueError)
True
"""


class ParlorError(ValueError):
    """Base class of every error Parlor raises on purpose."""


class SettingsError(ParlorError):
    """The game cannot be created: unknown edition, bad player count, unknown or bad rule option."""


class MalformedAction(ParlorError):
    """The object is not an action of this game, or its fields are out of range."""


class IllegalAction(ParlorError):
    """A well-formed action that the rules forbid now. The message names the rule."""


class NotYourDecision(IllegalAction):
    """The acting player is not the one who must (or may) decide now."""


class GameOverError(IllegalAction):
    """The game has ended; no further action is possible."""


class UnknownActionId(ParlorError):
    """An integer action id outside the game's action space, or one with no meaning now."""


class ReplayError(ParlorError):
    """A saved game does not replay: wrong format, or its log or snapshot disagrees with the rules."""


class SaveError(ParlorError):
    """A game cannot be written as a save: its data is not JSON (nothing was written)."""

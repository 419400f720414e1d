"""The exception hierarchy shared by every Parlor game, and the words of its messages.

All errors are :class:`ValueError` subclasses, so callers that only care about "bad input" can catch
that, while callers that care can tell a rule violation from a malformed request:

>>> issubclass(NotYourDecision, IllegalAction) and issubclass(IllegalAction, ValueError)
True

A message is written as an English message id marked with :func:`E_` and its fields. ``str()`` of
the error is the English text; :func:`parlor.i18n.translate_error` says it in Spanish or Danish
from the ``errors`` catalog (this package is below :mod:`parlor.i18n` and cannot use it):

>>> err = IllegalAction(E_("{who} has only {cash}", who="Ann", cash="$20"))
>>> str(err), err.text.message, err.text.fields["cash"]
('Ann has only $20', '{who} has only {cash}', '$20')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


class Text(str):
    """A message in English (the string itself) that can be said in another language: a catalog
    message id and its fields. Fields may be texts themselves (:class:`Text`, :class:`Phrase`,
    an error), said in the same language."""

    message: str
    fields: Mapping[str, object]

    def __new__(cls, message: str, fields: Mapping[str, object]) -> Text:
        self = super().__new__(cls, message.format(**fields) if fields else message)
        self.message = message
        self.fields = fields
        return self

    def say(self, lang: str, gettext: Callable[[str], str]) -> str:
        """This text in ``lang``, with ``gettext`` the ``errors`` catalog of that language."""
        if not self.fields:
            return gettext(self.message)
        fields = {key: say(value, lang, gettext) for key, value in self.fields.items()}
        return gettext(self.message).format(**fields)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Text, (self.message, dict(self.fields)))


class Phrase(str):
    """A name or amount (a square, a card, money) whose words depend on the language: English
    (or the game's own language) as the string, ``render(lang)`` for the others."""

    render: Callable[[str], str]

    def __new__(cls, text: str, render: Callable[[str], str]) -> Phrase:
        self = super().__new__(cls, text)
        self.render = render
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # (a closure does not pickle: keep the words)
        return (str, (str(self),))


def E_(message: str, /, **fields: object) -> Text:
    """Marks ``message`` for the ``errors`` catalog (``scripts/i18n.sh`` extracts every ``E_``
    call) and fills in its fields for English."""
    return Text(message, fields)


def say(value: object, lang: str, gettext: Callable[[str], str]) -> str:
    """A field of a message in ``lang``: texts, phrases and errors translated, the rest as is."""
    if isinstance(value, ParlorError):
        value = value.text
    if isinstance(value, Text):
        return value.say(lang, gettext)
    if isinstance(value, Phrase):
        return value.render(lang)
    return str(value)


class ParlorError(ValueError):
    """Base class of every error Parlor raises on purpose.

    ``text`` is the message as a :class:`Text`; a plain string (not marked for the catalog) is
    kept as it is and stays English."""

    def __init__(self, message: str = "", /) -> None:
        super().__init__(message)
        self.text = message if isinstance(message, Text) else Text(str(message), {})

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.text,))


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

"""What is known about a hidden hand, for :meth:`parlor.tools.ToolsGame.determinize`."""

from __future__ import annotations

from dataclasses import dataclass

from parlor.core.errors import E_, MalformedAction


@dataclass(frozen=True, slots=True)
class HandConstraint:
    """At least ``count`` cards of a hand are none of the card codes in ``excluded``.

    A player who draws instead of playing held no card playable then, so its whole hand at that
    moment lies outside the playable codes:

    >>> c = HandConstraint(frozenset({"hammer:red", "good_nail:red"}), 3)
    >>> c.count, sorted(c.excluded)
    (3, ['good_nail:red', 'hammer:red'])
    >>> HandConstraint(frozenset(), -1)
    Traceback (most recent call last):
    ...
    parlor.core.errors.MalformedAction: a hand constraint's count must be an integer >= 0, not -1

    Codes are checked against the deck when the constraint is used (``determinize``).
    """

    excluded: frozenset[str]
    count: int

    def __post_init__(self) -> None:
        if type(self.count) is not int or self.count < 0:  # (a bool is not a count)
            raise MalformedAction(
                E_(
                    "a hand constraint's count must be an integer >= 0, not {value}",
                    value=repr(self.count),
                )
            )
        if not isinstance(self.excluded, frozenset) or not all(
            type(code) is str for code in self.excluded
        ):
            raise MalformedAction(
                E_(
                    "a hand constraint excludes a frozenset of card codes, not {value}",
                    value=repr(self.excluded),
                )
            )

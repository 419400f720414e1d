"""The actions of TOOLS: small frozen dataclasses whose first field is the acting seat.

Cards are named by kind code (``"hammer:red"``, ``"toolbox"``): copies of a kind are
interchangeable, so an action never depends on how the deck's cards happen to be numbered.

>>> str(PlayCard(0, "hammer:red"))
'player 0 plays hammer:red'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from parlor.core.validate import MaxLen, Seat

#: A card kind code or a color name (the game checks that it names one of its deck's).
Code = Annotated[str, MaxLen(40)]


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play one card of kind ``card`` from the hand (a normal play, a brush's second card, or a box
    of nails answering a box of nails)."""

    player: Seat
    card: Code

    def __str__(self) -> str:
        return f"player {self.player} plays {self.card}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw one card: allowed only when no card in hand may be played (see the options)."""

    player: Seat

    def __str__(self) -> str:
        return f"player {self.player} draws a card"


@dataclass(frozen=True, slots=True)
class PlayDrawn:
    """Play at once the playable card just drawn."""

    player: Seat

    def __str__(self) -> str:
        return f"player {self.player} plays the card just drawn"


@dataclass(frozen=True, slots=True)
class KeepDrawn:
    """Keep the card just drawn; the turn ends."""

    player: Seat

    def __str__(self) -> str:
        return f"player {self.player} keeps the card just drawn"


@dataclass(frozen=True, slots=True)
class ChooseColor:
    """Name the color after a paint brush."""

    player: Seat
    color: Code

    def __str__(self) -> str:
        return f"player {self.player} chooses {self.color}"


@dataclass(frozen=True, slots=True)
class PenaltyHammers:
    """The good-nail penalty: play two hammers (colors ``first`` then ``second``) and draw three."""

    player: Seat
    first: Code
    second: Code

    def __str__(self) -> str:
        return (
            f"player {self.player} plays a {self.first} hammer and a {self.second} hammer"
            " as the good-nail penalty, then draws 3"
        )


@dataclass(frozen=True, slots=True)
class AcceptPenalty:
    """Draw the cards owed and lose the turn: a box-of-nails stack, or the good-nail penalty of a
    player holding fewer than two hammers."""

    player: Seat

    def __str__(self) -> str:
        return f"player {self.player} takes the penalty"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Decline the paint brush's second card; the turn ends."""

    player: Seat

    def __str__(self) -> str:
        return f"player {self.player} ends the turn"


ToolsAction = (
    PlayCard | Draw | PlayDrawn | KeepDrawn | ChooseColor | PenaltyHammers | AcceptPenalty | EndTurn
)

ACTION_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        PlayCard,
        Draw,
        PlayDrawn,
        KeepDrawn,
        ChooseColor,
        PenaltyHammers,
        AcceptPenalty,
        EndTurn,
    )
}

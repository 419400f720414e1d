"""Rule options of TOOLS: where the rulebook leaves a choice open, or players may want a variant.

Every default follows the rulebook's text as read in ``docs/rules/tools.md``, which quotes the
sentence each option rests on.

>>> ToolsOptions().brush_color_binds
True
>>> ToolsOptions.from_dict({"hand_size": 5}).hand_size
5
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from parlor.core.errors import E_, SettingsError
from parlor.core.validate import Bounds, check_fields, short_repr


@dataclass(frozen=True, slots=True)
class ToolsOptions:
    """The rule options; all fields have the rulebook's defaults.

    Attributes:
        hand_size: cards dealt to each player ("Reparte 7 cartas a cada jugador").
        two_player_reverse_skips: with two players a change of turn also makes the other player
            lose the turn (the usual house rule), instead of only reversing a direction that then
            changes nothing.
        brush_color_binds: after a paint brush the chosen color stands for the next player while
            the brush is on top (they must play that color or a wild). If False, the general wild
            clause applies: any card may follow a wild on top, and the color only governs the
            brush player's optional second card.
        any_wild_on_good_nail: every wild may be played on a good nail (the wild clause: "en
            cualquier momento"). If False only the wild hammer, which repairs it, may.
        may_draw_when_able: a player may draw instead of playing even with a valid play. The
            rulebook allows drawing only "si no puedes realizar una jugada válida".
        may_play_drawn: a playable drawn card may be played at once ("puede bajarla
            inmediatamente o conservarla"). If False the drawn card is always kept.
        ask_after_every_draw: after every draw in a turn the drawer is asked (``drawn_card``),
            with only ``KeepDrawn`` legal when the card cannot be played, so that nobody else can
            tell from the flow of the game whether a kept card was playable. Off by default: the
            rulebook asks only about a playable card. A table of people at different screens
            wants it on.
        box_stacking: a box of nails may be answered with another box, passing the growing
            penalty on. If False the next player simply draws 2 and loses the turn.
        penalty_hammers_can_win: if the two penalty hammers were a player's last cards, the player
            wins at once. By default the penalty is one move that ends with drawing 3, so it can
            never empty a hand.
        max_turns: end the game after this many turns (0: no limit); the fewest cards wins.
    """

    hand_size: Annotated[int, Bounds(1, 30)] = 7
    two_player_reverse_skips: bool = False
    brush_color_binds: bool = True
    any_wild_on_good_nail: bool = True
    may_draw_when_able: bool = False
    may_play_drawn: bool = True
    ask_after_every_draw: bool = False
    box_stacking: bool = True
    penalty_hammers_can_win: bool = False
    max_turns: Annotated[int, Bounds(0, 10**6)] = 0

    def __post_init__(self) -> None:
        # Types and ranges from the annotations: no bool for a count, no float or NaN.
        check_fields(
            self, error=SettingsError, message=E_("option {field} must be {want}, not {value}")
        )

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> ToolsOptions:
        """Build options from a dict, rejecting unknown fields and values of the wrong type."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise SettingsError(
                E_("TOOLS options are a table of options, not {value}", value=short_repr(data))
            )
        known = {f.name: f for f in dataclasses.fields(cls)}
        unknown = [key for key in data if key not in known]
        if unknown:
            shown = ", ".join(short_repr(k) for k in unknown[:5])
            raise SettingsError(
                E_(
                    "unknown TOOLS option(s) {shown}; known: {choices}",
                    shown=shown,
                    choices=sorted(known),
                )
            )
        return cls(**data)

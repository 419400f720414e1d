"""The integer action space: stable ids for every action, for masks and learning.

Clauses (docs/rules/tools.md): "The API in one paragraph" (``0..K-1`` play a card kind,
type-major then color, wilds last; then Draw, PlayDrawn, KeepDrawn, AcceptPenalty, EndTurn; then
ChooseColor per color; then PenaltyHammers per ordered color pair: 52 ids with the default deck).
"""

from __future__ import annotations

from parlor.core.errors import E_, UnknownActionId
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
from parlor.tools.table import ToolsTable, Unchecked


class ToolsActionIds(ToolsTable):
    @property
    def num_actions(self) -> int:
        return self._t.num_actions  # K + 5 + C + C * C

    def action_id(self, action: Unchecked) -> int:
        """Stable ids: ``0..K-1`` play a card kind (type-major, then color; wilds last); then Draw,
        PlayDrawn, KeepDrawn, AcceptPenalty, EndTurn; then ChooseColor per color; then
        PenaltyHammers per (first, second) color pair."""
        self.validate_action(action)
        t = self._t
        K = t.K
        kind = type(action)
        # an unknown card or colour is refused as apply refuses it (MalformedAction), not as an id
        if kind is PlayCard:
            return self._kind_of_code(action.card)
        if kind is Draw:
            return K
        if kind is PlayDrawn:
            return K + 1
        if kind is KeepDrawn:
            return K + 2
        if kind is AcceptPenalty:
            return K + 3
        if kind is EndTurn:
            return K + 4
        if kind is ChooseColor:
            return K + 5 + self._color_index(action.color)
        if kind is PenaltyHammers:
            a = self._color_index(action.first)
            b = self._color_index(action.second)
            return K + 5 + t.C + a * t.C + b
        raise UnknownActionId(E_("{action} is not a TOOLS action", action=repr(action)))

    def action_from_id(self, action_id: Unchecked, player: Unchecked) -> ToolsAction:
        # (the checks and the index inline, one call: the RL environments call this every step)
        if type(action_id) is int and type(player) is int and 0 <= player < self._n:
            row = self._t.by_id[player]
            if 0 <= action_id < len(row):  # (a row has every id of the action space)
                return row[action_id]
        self.check_action_id(action_id, player)
        return self._action_of_id(action_id, player)

    def _action_of_id(self, action_id: int, player: int) -> ToolsAction:
        """The action ``action_id`` stands for (``action_from_id`` after its boundary check)."""
        row = self._t.by_id[player]
        if 0 <= action_id < len(row):
            return row[action_id]
        raise UnknownActionId(
            E_(
                "action id {value} is outside 0..{last}",
                value=action_id,
                last=self.num_actions - 1,
            )
        )

"""Legality: the decider's legal actions, and why any other action is refused.

Clauses (docs/rules/tools.md): "What may be played" (a card is legal when the playability table
of the context allows it and it is in hand), "The good-nail penalty" (no drawing on a good nail:
two hammers and draw 3, or draw 2, when it cannot be repaired), "Action cards" (a pending box of
nails is answered with another or taken), "Wild cards" (the paint brush's color and its second
card), "Drawing and the draw pile" (drawing only without a card to play unless
``may_draw_when_able``; playing or keeping the card drawn).
"""

from __future__ import annotations

from parlor.core.errors import E_, IllegalAction, MalformedAction, NotYourDecision
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
from parlor.tools.cards import TYPE_NAMES
from parlor.tools.table import (
    ALL_TYPES,
    BOX,
    COLOR,
    DRAWN,
    FOLLOW,
    OVER,
    PLAY,
    T_BENT,
    T_BOX,
    T_GOOD,
    T_HAMMER,
    Unchecked,
)
from parlor.tools.turn import ToolsTurn


class ToolsLegality(ToolsTurn):
    # ----- legal actions ----------
    def legal_actions(
        self, player: Unchecked = None, *, anytime: Unchecked = True
    ) -> list[ToolsAction]:
        """``player``'s legal actions: the decider's, for everybody else none (TOOLS has no "any
        time" actions, so ``anytime`` changes nothing).

        The decider's list shows its hand, so the player must be named: ``legal_actions()``
        without one raises :class:`MalformedAction` rather than answer for whoever decides.
        """
        p = self.current
        if type(player) is not int or player != p or type(anytime) is not bool:
            return self._not_the_deciders(player, anytime)  # (the decider is a valid seat)
        phase = self.phase
        if phase == OVER:
            return []
        t = self._t
        if phase == PLAY:
            ctx = self.ctx
            playable = self.held[p] & t.playable_bits[ctx]
            if t.good_nail[ctx]:
                return t.plays(p, playable) if playable else self._penalty_actions(p)
            if not playable:
                return [t.draw[p]]
            out = t.plays(p, playable)
            if self.options.may_draw_when_able:
                out.append(t.draw[p])
            return out
        if phase == BOX:
            out = t.plays(p, self.held[p] & t.box_bits)
            out.append(t.accept[p])
            return out
        if phase == DRAWN:
            if t.playable[self.ctx][self.drawn]:
                return [t.play_drawn[p], t.keep[p]]
            return [t.keep[p]]  # (asked only under ask_after_every_draw)
        if phase == COLOR:
            return list(t.choose[p])
        # FOLLOW
        out = t.plays(p, self.held[p] & t.playable_bits[self.ctx])
        out.append(t.end[p])
        return out

    def legal_action_ids(self, player: int) -> list[int]:
        """The ids of ``legal_actions(player)``, sorted: the same as the protocol's, read from
        the phase and the held bits without building the action objects (the RL environments
        ask this at every step; tests/rl/test_fast_obs.py compares it with ``action_id`` of
        every legal action)."""
        if type(player) is not int or not 0 <= player < self._n:  # (the check, inline: hot)
            self.check_query(player, optional=False)
        p = self.current
        phase = self.phase
        if player != p or phase == OVER:
            return []
        t = self._t
        K = t.K
        if phase == PLAY:
            ctx = self.ctx
            playable = self.held[p] & t.playable_bits[ctx]
            if t.good_nail[ctx]:
                return _kinds(playable) if playable else self._penalty_ids(p)
            if not playable:
                return [K]  # Draw
            ids = _kinds(playable)
            if self.options.may_draw_when_able:
                ids.append(K)
            return ids
        if phase == BOX:
            ids = _kinds(self.held[p] & t.box_bits)
            ids.append(K + 3)  # AcceptPenalty
            return ids
        if phase == DRAWN:
            return [K + 1, K + 2] if t.playable[self.ctx][self.drawn] else [K + 2]
        if phase == COLOR:
            return list(range(K + 5, K + 5 + t.C))
        # FOLLOW
        ids = _kinds(self.held[p] & t.playable_bits[self.ctx])
        ids.append(K + 4)  # EndTurn
        return ids

    def _penalty_ids(self, p: int) -> list[int]:
        """The ids of ``_penalty_actions(p)``: PenaltyHammers per held (first, second) pair, in
        id order, or AcceptPenalty without two hammers."""
        t = self._t
        hand = self.hands[p]
        C = t.C
        base = t.K + 5 + C
        held = [c for c in range(C) if hand[t.hammer_kind[c]]]
        ids = [
            base + a * C + b for a in held for b in held if a != b or hand[t.hammer_kind[a]] >= 2
        ]
        return ids or [t.K + 3]

    def _not_the_deciders(self, player: object, anytime: object) -> list[ToolsAction]:
        """``legal_actions`` of anything but the decider: bad arguments refused, another seat's
        list empty."""
        self.check_query(player, anytime)  # (raises unless player is None or a seat)
        if player is None:
            raise MalformedAction(
                E_(
                    "TOOLS actions show the decider's hand: name the player, "
                    "e.g. legal_actions(game.pending.player)"
                )
            )
        return []

    def _penalty_actions(self, p: int) -> list[ToolsAction]:
        t = self._t
        hand = self.hands[p]
        held = [c for c in range(t.C) if hand[t.hammer_kind[c]]]
        pairs: list[ToolsAction] = [
            t.penalty[p][a][b] for a in held for b in held if a != b or hand[t.hammer_kind[a]] >= 2
        ]
        return pairs or [t.accept[p]]

    # ----- validation ----------
    def _check(self, action: ToolsAction) -> None:
        p = action.player  # (a seat: apply and is_legal have validated the fields)
        if p != self.current:
            raise NotYourDecision(
                E_(
                    "it is {current}'s turn, not {who}'s",
                    current=self._name(self.current),
                    who=self._name(p),
                )
            )
        t = self._t
        phase = self.phase
        hand = self.hands[p]
        kind = type(action)
        if kind is PlayCard:
            # (the lookup inline, a call only to refuse an unknown card: every play passes here)
            k = t.kind_by_code.get(action.card, -1)  # type: ignore[union-attr]
            if k < 0:
                k = self._kind_of_code(action.card)  # type: ignore[union-attr]
            if not hand[k]:
                raise IllegalAction(
                    E_("{who} has no {card} in hand", who=self._name(p), card=self._card(k))
                )
            if phase == PLAY:
                if not t.playable[self.ctx][k]:
                    raise IllegalAction(
                        E_(
                            "you cannot play a {card} now: {rule}",
                            card=self._card(k),
                            rule=self._why(),
                        )
                    )
            elif phase == BOX:
                if t.ktype[k] != T_BOX:
                    raise IllegalAction(
                        E_(
                            "a box of nails is pending: answer with another box of nails or take the "
                            "{count} cards (AcceptPenalty)",
                            count=self.box_penalty,
                        )
                    )
            elif phase == FOLLOW:
                if not t.playable[self.ctx][k]:
                    color = self.deck.colors[self.color or 0]
                    raise IllegalAction(
                        E_(
                            "after the paint brush only a {color} card may follow now, or end the turn "
                            "(EndTurn)",
                            color=self._color(color),
                        )
                    )
            else:
                raise IllegalAction(self._phase_hint())
            return
        if kind is Draw:
            if phase != PLAY:
                raise IllegalAction(self._phase_hint())
            if t.good_nail[self.ctx]:
                raise IllegalAction(
                    E_(
                        "{rule}; without one you take the good-nail penalty instead of drawing",
                        rule=self._why(),
                    )
                )
            if not self.options.may_draw_when_able and self._has_play(p):
                playable = self._cards([k for k in t.playable_kinds[self.ctx] if hand[k]])
                raise IllegalAction(
                    E_(
                        "you may draw only when you have no card to play; you can play: {playable}",
                        playable=playable,
                    )
                )
            return
        if kind is PlayDrawn or kind is KeepDrawn:
            if phase != DRAWN:
                raise IllegalAction(
                    E_("you have not just drawn a playable card; {hint}", hint=self._phase_hint())
                )
            if kind is PlayDrawn and not t.playable[self.ctx][self.drawn]:
                raise IllegalAction(
                    E_(
                        "the {card} you drew cannot be played here; keep it",
                        card=self._card(self.drawn),
                    )
                )
            return
        if kind is ChooseColor:
            self._check_color(action.color)  # type: ignore[union-attr]
            if phase != COLOR:
                raise IllegalAction(
                    E_("there is no color to choose now; {hint}", hint=self._phase_hint())
                )
            return
        if kind is PenaltyHammers:
            a, b = action.first, action.second  # type: ignore[union-attr]
            self._check_color(a)
            self._check_color(b)
            if phase != PLAY or not self._on_good_nail():
                raise IllegalAction(E_("the two-hammer penalty applies only to a good nail on top"))
            if self._has_play(p):
                raise IllegalAction(
                    E_(
                        "you can repair the good nail, so there is no penalty: {rule}",
                        rule=self._why(),
                    )
                )
            ka, kb = t.hammer_kind[t.color_by_name[a]], t.hammer_kind[t.color_by_name[b]]
            need = 2 if ka == kb else 1
            if hand[ka] < need or hand[kb] < 1:
                which = (
                    E_("two {color} hammers", color=self._color(a))
                    if ka == kb
                    else E_(
                        "a {first} hammer and a {second} hammer",
                        first=self._color(a),
                        second=self._color(b),
                    )
                )
                raise IllegalAction(
                    E_("{who} does not hold {which}", who=self._name(p), which=which)
                )
            return
        if kind is AcceptPenalty:
            if phase == BOX:
                return
            if phase == PLAY and self._on_good_nail() and not self._has_play(p):
                if self._hammer_count(p) >= 2:
                    raise IllegalAction(
                        E_(
                            "you hold two hammers, so the good-nail penalty is to play two hammers and draw 3 "
                            "(PenaltyHammers), not to draw 2"
                        )
                    )
                return
            raise IllegalAction(E_("there is no penalty to take; {hint}", hint=self._phase_hint()))
        if kind is EndTurn:
            if phase != FOLLOW:
                raise IllegalAction(
                    E_(
                        "you can end the turn this way only after a paint brush; {hint}",
                        hint=self._phase_hint(),
                    )
                )
            return
        raise MalformedAction(E_("{action} is not a TOOLS action", action=repr(action)))

    def _check_color(self, color: object) -> None:
        self._color_index(color)

    def _why(self) -> str:
        """The rule in force for the next card, in words."""
        t = self._t
        ctx = self.ctx
        colors = self.deck.colors
        if ctx == t.free_ctx:
            return E_("a wild is on top, so any card may be played")
        if ctx >= t.K + t.C + 1:
            return E_(
                "the paint brush's second card must be {color}",
                color=self._color(colors[ctx - t.K - t.C - 1]),
            )
        if ctx >= t.K:
            c = self._color(colors[ctx - t.K])
            return E_("the paint brush named {color}: play a {color} card or a wild", color=c)
        tt, c = t.ktype[ctx], self._color(colors[t.kcolor[ctx]])
        if tt == T_HAMMER:
            return E_(
                "on a {color} hammer you may play any hammer, a {color} nail, a {color} action card, "
                "or a wild",
                color=c,
            )
        if tt == T_GOOD:
            wilds = E_("a wild") if self.options.any_wild_on_good_nail else E_("the wild hammer")
            return E_(
                "a {color} good nail is on top: only a {color} hammer (or {wilds}) may be played",
                color=c,
                wilds=wilds,
            )
        if tt == T_BENT:
            return E_(
                "on a {color} bent nail you may play any hammer, a {color} action card, or a wild",
                color=c,
            )
        return E_(
            "on a {card} you may play any {color} card, another {kind}, or a wild",
            card=self._card(ctx),
            color=c,
            kind=TYPE_NAMES[ALL_TYPES[tt]],
        )

    def _phase_hint(self) -> str:
        phase = self.phase
        if phase == DRAWN:
            if not self._t.playable[self.ctx][self.drawn]:
                return E_(
                    "you drew a {card}, which cannot be played: keep it",
                    card=self._card(self.drawn),
                )
            return E_(
                "you drew a {card}: play it (PlayDrawn) or keep it (KeepDrawn)",
                card=self._card(self.drawn),
            )
        if phase == COLOR:
            return E_("choose a color for the paint brush first (ChooseColor)")
        if phase == BOX:
            return E_(
                "a box of nails is pending: play a box of nails or take the {count} cards "
                "(AcceptPenalty)",
                count=self.box_penalty,
            )
        if phase == FOLLOW:
            return E_("play a second card of the color you named, or end the turn (EndTurn)")
        return E_("it is a normal turn: play a card (PlayCard) or, with no card to play, draw")


def _kinds(bits: int) -> list[int]:
    """The kinds whose bits are set, in order: the ids of their PlayCard actions."""
    out: list[int] = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out

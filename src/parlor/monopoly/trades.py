"""Trades between players: offers, answers, and what changes hands.

Clauses (docs/rules/README.md): S17 trades (an any-time offer answered before anything else
happens; a property or a jail card must change hands, no lending money; nothing from a group with
buildings; each side must hold what it gives, jail cards oldest first; checked again on
acceptance, where the proposal's check answers while nothing has happened since; a mortgaged
property received is lifted or kept, see mortgages.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from parlor.core.errors import E_, IllegalAction
from parlor.core.game import Decision, Event
from parlor.core.validate import MAX_SEATS
from parlor.monopoly.action_ids import ActionIds
from parlor.monopoly.actions import AcceptTrade, Action, ProposeTrade, RejectTrade, shared
from parlor.monopoly.frames import Frame, TradeOffer
from parlor.monopoly.table import AnytimeCheck, FrameRules, Handler

#: A trade offer's answers, per seat: accept or reject, or reject alone (when the offer may no
#: longer be accepted); tuples handed out again by ``legal_answers``.
_ACCEPT_OR_REJECT: Final = tuple(
    (shared(AcceptTrade, p), shared(RejectTrade, p)) for p in range(MAX_SEATS)
)
_REJECT_ONLY: Final = tuple((shared(RejectTrade, p),) for p in range(MAX_SEATS))


class TradeRules(ActionIds):
    # The offer on the table that its proposal's check found legal: while an offer awaits its
    # answer nothing else may happen (no any-time action, no other decision), so the check on
    # acceptance (S17: checked again) would read what the proposal's check read and give its
    # answer; the frame, compared by identity, is the key (a copy, a pickle or a loaded state
    # holds other frame objects and checks again). History, not state (HISTORY_FIELDS).
    _offer_checked: TradeOffer | None
    #: Each action kind's field check (``apply``'s, plain Python): the id space's, which passes
    #: its own trade offers without reading their fields again (``ActionSpace.field_checks``).
    _field_checks: dict[type, Callable[[Any, int], int]]

    def _derive(self) -> None:
        super()._derive()
        self._offer_checked = None
        self._field_checks = self._space.field_checks(len(self.names))

    def _trade_problem(
        self,
        p: int,
        q: int,
        give: tuple[int, ...],
        take: tuple[int, ...],
        give_cash: int,
        take_cash: int,
        give_cards: int,
        take_cards: int,
    ) -> str | None:
        """Why the rules refuse ``p``'s offer to ``q`` (its fields well formed: checked at the
        boundary, see parlor.core.validate), or None."""
        if p == q:
            return E_("a trade needs two different players")
        if self.bankrupt[q]:
            return E_("{who} is out of the game", who=self.names[q])
        if not (give or take or give_cards or take_cards):
            if not (give_cash or take_cash):
                return E_("the trade exchanges nothing")
            return E_("players may not lend or give each other money: trade property or cards")
        if len(give) + len(take) > 1 and len(set(give + take)) != len(give) + len(take):
            return E_("a property appears twice in the trade")
        owner, buildings = self.owner, self.buildings
        for squares, who in ((give, p), (take, q)):
            for sq in squares:
                if owner[sq] != who:
                    return E_(
                        "{who} does not own {square}", who=self.names[who], square=self.name_of(sq)
                    )
                for s in self.group_of(sq):
                    if buildings[s]:
                        return E_(
                            "buildings stand in the colour group of {square}: "
                            "sell them to the bank before trading it",
                            square=self.name_of(sq),
                        )
        cash, cards = self.cash, self.jail_cards
        if give_cash > cash[p]:
            return E_("{who} has only {amount}", who=self.names[p], amount=self.money(cash[p]))
        if take_cash > cash[q]:
            return E_("{who} has only {amount}", who=self.names[q], amount=self.money(cash[q]))
        if give_cards > len(cards[p]):
            return E_(
                "{who} holds {count} get-out-of-jail card(s)",
                who=self.names[p],
                count=len(cards[p]),
            )
        if take_cards > len(cards[q]):
            return E_(
                "{who} holds {count} get-out-of-jail card(s)",
                who=self.names[q],
                count=len(cards[q]),
            )
        return None

    def _acceptance_problem(self, t: TradeOffer) -> str | None:
        """Why the offer on the table may not be accepted now, or None (``_offer_checked``)."""
        if t is self._offer_checked:
            return None
        return self._trade_problem(
            t.proposer,
            t.to,
            t.give_squares,
            t.take_squares,
            t.give_cash,
            t.take_cash,
            t.give_jail_cards,
            t.take_jail_cards,
        )

    def _offer_dict(self, t: TradeOffer) -> dict[str, Any]:
        return {
            "to": t.to,
            "give_squares": list(t.give_squares),
            "take_squares": list(t.take_squares),
            "give_cash": t.give_cash,
            "take_cash": t.take_cash,
            "give_jail_cards": t.give_jail_cards,
            "take_jail_cards": t.take_jail_cards,
        }

    def _carry_out_trade(self, t: TradeOffer, ev: list[Event]) -> None:
        p, q = t.proposer, t.to
        self._pay(p, q, t.give_cash)
        self._pay(q, p, t.take_cash)
        for _ in range(t.give_jail_cards):
            self.jail_cards[q].append(self.jail_cards[p].pop(0))
        for _ in range(t.take_jail_cards):
            self.jail_cards[p].append(self.jail_cards[q].pop(0))
        for sq in t.give_squares:
            self.owner[sq] = q
            self._estate_changed(sq)
        for sq in t.take_squares:
            self.owner[sq] = p
            self._estate_changed(sq)
        ev.append(Event("trade_accepted", {"player": q, "from": p, **self._offer_dict(t)}))
        self._receive_mortgaged(p, [s for s in t.take_squares if self.mortgaged[s]])
        self._receive_mortgaged(q, [s for s in t.give_squares if self.mortgaged[s]])

    # ----- the offer (any time) and its answer -------------------------------------------------
    def _check_propose(self, action: ProposeTrade) -> None:
        # (its fields checked at the boundary: a seat, tuples of squares, whole amounts)
        problem = self._trade_problem(
            action.player,
            action.to,
            action.give_squares,
            action.take_squares,
            action.give_cash,
            action.take_cash,
            action.give_jail_cards,
            action.take_jail_cards,
        )
        if problem:
            raise IllegalAction(problem)

    def _do_propose(self, action: ProposeTrade, top: Frame, ev: list[Event]) -> None:
        # _check has found the offer legal in this same apply (its squares are tuples).
        offer = TradeOffer(
            action.player,
            action.to,
            action.give_squares,
            action.take_squares,
            action.give_cash,
            action.take_cash,
            action.give_jail_cards,
            action.take_jail_cards,
        )
        self.frames.append(offer)
        self._offer_checked = offer
        ev.append(Event("trade_proposed", {"player": action.player, **self._offer_dict(offer)}))

    def _offer_decision(self, top: TradeOffer) -> Decision:
        return Decision(
            top.to, "answer_trade", {"from": top.proposer, "offer": self._offer_dict(top)}
        )

    def _offer_answers(self, p: int, top: TradeOffer) -> list[Action]:
        if self._acceptance_problem(top) is None:
            return list(_ACCEPT_OR_REJECT[p])
        return list(_REJECT_ONLY[p])

    def legal_answers(self, player: Any = None) -> Sequence[Action]:
        """``legal_actions(player, anytime=False)``, the answers to the pending decision, as a
        sequence not to be changed: a trade offer's answers are the same tuple each time (most
        of a random opponent's decisions in the RL environments), so that a caller may keep what
        it learned of it; other decisions list their answers anew."""
        top = self.frames[-1] if self._outcome is None else None
        if type(top) is TradeOffer and type(player) is int and player == top.to:
            if self._acceptance_problem(top) is None:
                return _ACCEPT_OR_REJECT[player]
            return _REJECT_ONLY[player]
        return self.legal_actions(player, anytime=False)

    def _offer_problem(self, action: Action, top: TradeOffer) -> str | None:
        if isinstance(action, RejectTrade):
            return None
        if isinstance(action, AcceptTrade):
            return self._acceptance_problem(top)
        return E_("{who} must accept or reject the trade", who=self.names[action.player])

    def _do_accept(self, action: AcceptTrade, top: Frame, ev: list[Event]) -> None:
        assert isinstance(top, TradeOffer)
        self.frames.pop()
        self._carry_out_trade(top, ev)

    def _do_reject(self, action: RejectTrade, top: Frame, ev: list[Event]) -> None:
        self.frames.pop()
        ev.append(Event("trade_rejected", {"player": action.player}))


HANDLERS: dict[type[Action], Handler] = {
    ProposeTrade: TradeRules._do_propose,
    AcceptTrade: TradeRules._do_accept,
    RejectTrade: TradeRules._do_reject,
}
ANYTIME_CHECKS: dict[type[Action], AnytimeCheck] = {ProposeTrade: TradeRules._check_propose}
FRAMES: dict[type[Frame], FrameRules] = {
    TradeOffer: FrameRules(
        TradeRules._offer_decision, TradeRules._offer_answers, TradeRules._offer_problem
    ),
}

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
#: longer be accepted); tuples handed out again by ``legal_answers``. (Typed of any length:
#: compiled, a tuple of fixed length would be unboxed and each answer a new tuple.)
_ACCEPT_OR_REJECT: Final[tuple[tuple[Action, ...], ...]] = tuple(
    (shared(AcceptTrade, p), shared(RejectTrade, p)) for p in range(MAX_SEATS)
)
_REJECT_ONLY: Final[tuple[tuple[Action, ...], ...]] = tuple(
    (shared(RejectTrade, p),) for p in range(MAX_SEATS)
)


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
        self._field_checks = self._space.field_checks(len(self.names), self._first_bad)

    def _trade_problem(self, p: int, t: ProposeTrade | TradeOffer) -> str | None:
        """Why the rules refuse the offer ``t`` by ``p`` (a proposal, its fields well formed:
        checked at the boundary, see parlor.core.validate; or the offer on the table), or None.
        (The offer's fields read here, not passed: the random learner proposes at most steps.)"""
        q = t.to
        if p == q:
            return E_("a trade needs two different players")
        if self.bankrupt[q]:
            return E_("{who} is out of the game", who=self.names[q])
        give, take = t.give_squares, t.take_squares
        give_cards, take_cards = t.give_jail_cards, t.take_jail_cards
        if not (give or take or give_cards or take_cards):
            if not (t.give_cash or t.take_cash):
                return E_("the trade exchanges nothing")
            return E_("players may not lend or give each other money: trade property or cards")
        if len(give) + len(take) > 1 and len(set(give + take)) != len(give) + len(take):
            return E_("a property appears twice in the trade")
        owner, buildings, members = self.owner, self.buildings, self._sq.members
        for sq in give:
            if owner[sq] != p:
                return self._deed_problem(p, sq)
            for s in members[sq]:  # (group_of, inline)
                if buildings[s]:
                    return self._deed_problem(-1, sq)
        for sq in take:
            if owner[sq] != q:
                return self._deed_problem(q, sq)
            for s in members[sq]:
                if buildings[s]:
                    return self._deed_problem(-1, sq)
        cash = self.cash
        if t.give_cash > cash[p]:
            return E_("{who} has only {amount}", who=self.names[p], amount=self.money(cash[p]))
        if t.take_cash > cash[q]:
            return E_("{who} has only {amount}", who=self.names[q], amount=self.money(cash[q]))
        if give_cards or take_cards:  # (no card asked: most offers)
            cards = self.jail_cards
            for who, count in ((p, give_cards), (q, take_cards)):
                if count > len(cards[who]):
                    return E_(
                        "{who} holds {count} get-out-of-jail card(s)",
                        who=self.names[who],
                        count=len(cards[who]),
                    )
        return None

    def _deed_problem(self, who: int, sq: int) -> str:
        """Why ``sq`` may not be traded: ``who`` does not own it, or (``who`` -1) buildings stand
        in its colour group."""
        if who >= 0:
            return E_("{who} does not own {square}", who=self.names[who], square=self.name_of(sq))
        return E_(
            "buildings stand in the colour group of {square}: "
            "sell them to the bank before trading it",
            square=self.name_of(sq),
        )

    def _acceptance_problem(self, t: TradeOffer) -> str | None:
        """Why the offer on the table may not be accepted now, or None (``_offer_checked``)."""
        if t is self._offer_checked:
            return None
        return self._trade_problem(t.proposer, t)

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
        give, take = t.give_squares, t.take_squares
        give_cash, take_cash = t.give_cash, t.take_cash
        # (_pay's transfers between two seats, inline; an amount of 0 moves nothing)
        cash = self.cash
        if give_cash > 0:
            cash[p] -= give_cash
            cash[q] += give_cash
        if take_cash > 0:
            cash[q] -= take_cash
            cash[p] += take_cash
        if t.give_jail_cards or t.take_jail_cards:
            cards = self.jail_cards
            for _ in range(t.give_jail_cards):
                cards[q].append(cards[p].pop(0))
            for _ in range(t.take_jail_cards):
                cards[p].append(cards[q].pop(0))
        owner = self.owner
        for sq in give:
            owner[sq] = q
            self._estate_changed(sq)
        for sq in take:
            owner[sq] = p
            self._estate_changed(sq)
        # (the event's data in one dict, in _offer_dict's order after the two seats)
        ev.append(
            Event(
                "trade_accepted",
                {
                    "player": q,
                    "from": p,
                    "to": q,
                    "give_squares": [*give],
                    "take_squares": [*take],
                    "give_cash": give_cash,
                    "take_cash": take_cash,
                    "give_jail_cards": t.give_jail_cards,
                    "take_jail_cards": t.take_jail_cards,
                },
            )
        )
        mortgaged = self.mortgaged
        if take:  # (one side gives no deed in most offers: nothing of his to look at)
            self._receive_mortgaged(p, [s for s in take if mortgaged[s]])
        if give:
            self._receive_mortgaged(q, [s for s in give if mortgaged[s]])

    # ----- the offer (any time) and its answer -------------------------------------------------
    def _check_propose(self, action: ProposeTrade) -> None:
        # (its fields checked at the boundary: a seat, tuples of squares, whole amounts)
        problem = self._trade_problem(action.player, action)
        if problem:
            raise IllegalAction(problem)

    def _do_propose(self, action: ProposeTrade, top: Frame, ev: list[Event]) -> None:
        # _check has found the offer legal in this same apply (its squares are tuples).
        p, q = action.player, action.to
        give, take = action.give_squares, action.take_squares
        give_cash, take_cash = action.give_cash, action.take_cash
        give_cards, take_cards = action.give_jail_cards, action.take_jail_cards
        offer = TradeOffer(p, q, give, take, give_cash, take_cash, give_cards, take_cards)
        self.frames.append(offer)
        self._offer_checked = offer
        # (the event's data in one dict: the proposer, then _offer_dict's)
        ev.append(
            Event(
                "trade_proposed",
                {
                    "player": p,
                    "to": q,
                    "give_squares": [*give],
                    "take_squares": [*take],
                    "give_cash": give_cash,
                    "take_cash": take_cash,
                    "give_jail_cards": give_cards,
                    "take_jail_cards": take_cards,
                },
            )
        )

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
            # (_acceptance_problem's verdict; its first test inline: an offer just proposed)
            if top is self._offer_checked or self._acceptance_problem(top) is None:
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

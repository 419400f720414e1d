"""Debts that cannot be paid at once, and bankruptcy.

Clauses (docs/rules/README.md): S18 debts (raise the cash with any-time actions, then pay the
whole amount; bankruptcy only when selling every building and mortgaging everything cannot cover
it), S19 bankruptcy (buildings back to the bank at half price; everything to a creditor player,
mortgages kept; to the bank: properties unmortgaged and auctioned one by one; the player's
pending business dropped, the turn passed on), S20 (the end when one player is left).
"""

from __future__ import annotations

from parlor.core.errors import E_
from parlor.core.game import Decision, Event
from parlor.monopoly.actions import Action, DeclareBankruptcy, PayDebt, shared
from parlor.monopoly.frames import (
    BANK,
    Auction,
    BankAuctions,
    Debt,
    Frame,
    ShortageSale,
    TradeOffer,
    Turn,
)
from parlor.monopoly.table import HOTEL, FrameRules, Handler, debt_event
from parlor.monopoly.turn import TurnRules


class DebtRules(TurnRules):
    def liquidation_value(self, player: int) -> int:
        """Cash the player could raise from the bank: buildings at half, then every mortgage."""
        total = 0
        owner, mortgaged, buildings = self.owner, self.mortgaged, self.buildings
        mortgage = self._sq.mortgage
        for sq in self._sq.props:
            if owner[sq] == player:
                if buildings[sq]:
                    total += self._building_sale_value(sq)
                if not mortgaged[sq]:
                    total += mortgage[sq]
        return total

    # ----- the debt's decision (S18) -----------------------------------------------------------
    def _debt_decision(self, top: Debt) -> Decision:
        return Decision(
            top.debtor,
            "raise_funds",
            {"amount": top.amount, "creditor": top.creditor, "reason": top.reason},
        )

    def _can_pay(self, p: int, top: Debt) -> bool:
        return self.cash[p] >= top.amount

    def _cannot_raise(self, p: int, top: Debt) -> bool:
        """Bankruptcy is only for a debt that selling and mortgaging everything cannot pay."""
        return self.cash[p] + self.liquidation_value(p) < top.amount

    def _debt_answers(self, p: int, top: Debt) -> list[Action]:
        # (the predicates of _debt_problem: listing the answers formats no refusal)
        out: list[Action] = []
        if self._can_pay(p, top):
            out.append(shared(PayDebt, p))
        elif self._cannot_raise(p, top):  # (who can pay can raise it: no need to count)
            out.append(shared(DeclareBankruptcy, p))
        return out

    def _debt_problem(self, action: Action, top: Debt) -> str | None:
        p = action.player
        name = self.names[p]
        if isinstance(action, PayDebt):
            if not self._can_pay(p, top):
                return E_(
                    "{name} owes {amount} and has {cash}: sell buildings or mortgage first",
                    name=name,
                    amount=self.money(top.amount),
                    cash=self.money(self.cash[p]),
                )
            return None
        if isinstance(action, DeclareBankruptcy):
            if not self._cannot_raise(p, top):
                return E_(
                    "{name} can still raise {amount} by selling buildings and mortgaging: "
                    "bankruptcy is only for debts that cannot be paid",
                    name=name,
                    amount=self.money(top.amount),
                )
            return None
        return E_(
            "{name} must pay {amount} or declare bankruptcy",
            name=name,
            amount=self.money(top.amount),
        )

    def _do_pay_debt(self, action: PayDebt, top: Frame, ev: list[Event]) -> None:
        assert isinstance(top, Debt)
        self.frames.pop()
        self._pay(action.player, top.creditor, top.amount)
        ev.append(debt_event("paid", top))

    def _do_declare_bankruptcy(
        self, action: DeclareBankruptcy, top: Frame, ev: list[Event]
    ) -> None:
        assert isinstance(top, Debt)
        self.frames.pop()
        self._go_bankrupt(action.player, top.creditor, ev)

    # ----- bankruptcy (S19) --------------------------------------------------------------------
    def _go_bankrupt(self, p: int, creditor: int, ev: list[Event]) -> None:
        ed = self.edition
        # Buildings go back to the bank at half price first.
        for sq in ed.property_squares:
            if self.owner[sq] == p and self.buildings[sq]:
                refund = self._building_sale_value(sq)
                if not self.options.unlimited_buildings:
                    if self.buildings[sq] == HOTEL:
                        self.hotels_left += 1
                    else:
                        self.houses_left += self.buildings[sq]
                self.buildings[sq] = 0
                self._estate_changed(sq)
                self._pay(BANK, p, refund)
        squares = [sq for sq in ed.property_squares if self.owner[sq] == p]
        to_player = creditor >= 0
        self._pay(p, creditor, self.cash[p])  # a player, the bank, or the Free Parking pot
        if to_player:
            for sq in squares:
                self.owner[sq] = creditor
                self._estate_changed(sq)
            self.jail_cards[creditor].extend(self.jail_cards[p])
        else:
            for sq in squares:
                self.owner[sq] = -1
                self.mortgaged[sq] = False
                self._estate_changed(sq)
            for card in self.jail_cards[p]:
                self.decks[ed.cards[card].deck].append(card)
        self.jail_cards[p] = []
        self.bankrupt[p] = True
        self.bankrupt_order.append(p)
        self.in_jail[p] = False
        self.claims = [c for c in self.claims if p not in (c[0], c[1])]
        ev.append(Event("bankrupt", {"player": p, "creditor": creditor}))
        # Drop whatever the bankrupt player was in the middle of.
        turn = self.frames[0]
        kept: list[Frame] = [turn]
        for frame in self.frames[1:]:
            if isinstance(frame, Auction):
                if frame.high_bidder == p:  # a bid from a player who is out no longer stands
                    frame.high_bid, frame.high_bidder = 0, -1
                if p in frame.bidders:
                    i = frame.bidders.index(p)
                    frame.bidders.remove(p)
                    if i < frame.index:
                        frame.index -= 1
                    if frame.index >= len(frame.bidders):
                        frame.index = 0
                if frame.bidders:
                    kept.append(frame)
            elif isinstance(frame, TradeOffer):
                if p not in (frame.proposer, frame.to):
                    kept.append(frame)
            elif (
                isinstance(frame, BankAuctions | ShortageSale)
                or getattr(frame, "player", getattr(frame, "debtor", p)) != p
            ):
                kept.append(frame)
        self._return_reserved(f for f in self.frames if not any(f is k for k in kept))
        self.frames = kept
        if self._check_end(ev):
            return
        if to_player:
            self._receive_mortgaged(creditor, [s for s in squares if self.mortgaged[s]])
        elif squares and self.options.auctions:
            self.frames.append(BankAuctions(squares, (p + 1) % self.num_players))
        assert isinstance(turn, Turn)
        if turn.player == p:
            self.frames = [f for f in self.frames if not isinstance(f, Turn)]
            self.frames.insert(0, turn)
            self._next_turn(p, ev)


HANDLERS: dict[type[Action], Handler] = {
    PayDebt: DebtRules._do_pay_debt,
    DeclareBankruptcy: DebtRules._do_declare_bankruptcy,
}
FRAMES: dict[type[Frame], FrameRules] = {
    Debt: FrameRules(DebtRules._debt_decision, DebtRules._debt_answers, DebtRules._debt_problem),
}

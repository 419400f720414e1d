"""Mortgages: taking one, lifting one, and receiving a mortgaged property from another player.

Clauses (docs/rules/README.md): S16 mortgages (only unimproved groups; the bank pays the mortgage
value; lifting costs it plus the edition's interest; no rent while mortgaged, see rent.py), S17 and
S19 (a mortgaged property received in a trade or from a bankrupt player: lift it at once or keep it
and pay the interest now, where the edition charges that fee).
"""

from __future__ import annotations

from parlor.core.errors import E_, IllegalAction
from parlor.core.game import Decision, Event
from parlor.monopoly.actions import Action, KeepMortgage, LiftMortgageNow, Mortgage, Unmortgage
from parlor.monopoly.frames import BANK, Frame, MortgagedReceived
from parlor.monopoly.table import AnytimeCheck, FrameRules, Handler, Table


class MortgageRules(Table):
    def _lift_cost(self, square: int) -> int:
        return self._sq.mortgage[square] + self._sq.interest[square]

    def _can_lift(self, player: int, square: int) -> bool:
        return self.cash[player] >= self._lift_cost(square)

    # ----- mortgaging and lifting (S16) --------------------------------------------------------
    def _check_mortgage(self, action: Mortgage) -> None:
        sq = self._own_square(action.player, action.square)
        if self.mortgaged[sq]:
            raise IllegalAction(E_("{square} is already mortgaged", square=self.name_of(sq)))
        if self.group_has_buildings(sq):
            raise IllegalAction(E_("sell the buildings of the colour group before mortgaging"))

    def _check_unmortgage(self, action: Unmortgage) -> None:
        sq = self._own_square(action.player, action.square)
        if not self.mortgaged[sq]:
            raise IllegalAction(E_("{square} is not mortgaged", square=self.name_of(sq)))
        if not self._can_lift(action.player, sq):
            raise IllegalAction(
                E_("lifting the mortgage costs {amount}", amount=self.money(self._lift_cost(sq)))
            )

    def _do_mortgage(self, action: Mortgage, top: Frame, ev: list[Event]) -> None:
        p = action.player
        self.mortgaged[action.square] = True
        self._estate_changed(action.square)
        self._pay(BANK, p, self._sq.mortgage[action.square])
        ev.append(Event("mortgaged", {"player": p, "square": action.square}))

    def _do_unmortgage(self, action: Unmortgage, top: Frame, ev: list[Event]) -> None:
        p, sq = action.player, action.square
        self._pay(p, BANK, self._lift_cost(sq))
        self.mortgaged[sq] = False
        self._estate_changed(sq)
        ev.append(Event("unmortgaged", {"player": p, "square": sq}))

    # ----- a mortgaged property received (S17, S19) --------------------------------------------
    def _receive_mortgaged(self, player: int, squares: list[int]) -> None:
        if squares and self.options.mortgage_transfer_fee and not self.bankrupt[player]:
            self.frames.append(MortgagedReceived(player, squares))

    def _received_decision(self, top: MortgagedReceived) -> Decision:
        return Decision(top.player, "mortgaged_property", {"square": top.squares[0]})

    def _received_answers(self, p: int, top: MortgagedReceived) -> list[Action]:
        # (the cash test of _received_problem: listing the answers formats no refusal)
        sq = top.squares[0]
        keep = KeepMortgage(p, sq)
        if self._can_lift(p, sq):
            return [LiftMortgageNow(p, sq), keep]
        return [keep]

    def _received_problem(self, action: Action, top: MortgagedReceived) -> str | None:
        sq = top.squares[0]
        if isinstance(action, LiftMortgageNow | KeepMortgage):
            if action.square != sq:
                return E_("decide first about {square}", square=self.name_of(sq))
            if isinstance(action, LiftMortgageNow) and not self._can_lift(action.player, sq):
                return E_(
                    "lifting the mortgage costs {amount}", amount=self.money(self._lift_cost(sq))
                )
            return None
        return E_(
            "{who} must lift or keep the mortgage on {square}",
            who=self.names[action.player],
            square=self.name_of(sq),
        )

    def _next_received(self, top: Frame) -> int:
        assert isinstance(top, MortgagedReceived)
        sq = top.squares.pop(0)
        if not top.squares:
            self.frames.pop()
        return sq

    def _do_lift_now(self, action: LiftMortgageNow, top: Frame, ev: list[Event]) -> None:
        p = action.player
        sq = self._next_received(top)
        self._pay(p, BANK, self._lift_cost(sq))
        self.mortgaged[sq] = False
        self._estate_changed(sq)
        ev.append(Event("unmortgaged", {"player": p, "square": sq}))

    def _do_keep_mortgage(self, action: KeepMortgage, top: Frame, ev: list[Event]) -> None:
        p = action.player
        sq = self._next_received(top)
        ev.append(Event("kept_mortgage", {"player": p, "square": sq}))
        self._charge(p, BANK, self.edition.mortgage_interest(sq), "mortgage interest", ev)


HANDLERS: dict[type[Action], Handler] = {
    Mortgage: MortgageRules._do_mortgage,
    Unmortgage: MortgageRules._do_unmortgage,
    LiftMortgageNow: MortgageRules._do_lift_now,
    KeepMortgage: MortgageRules._do_keep_mortgage,
}
ANYTIME_CHECKS: dict[type[Action], AnytimeCheck] = {
    Mortgage: MortgageRules._check_mortgage,
    Unmortgage: MortgageRules._check_unmortgage,
}
FRAMES: dict[type[Frame], FrameRules] = {
    MortgagedReceived: FrameRules(
        MortgageRules._received_decision,
        MortgageRules._received_answers,
        MortgageRules._received_problem,
    ),
}

"""Rent: what a visitor owes, and the option under which the owner must ask for it.

Clauses (docs/rules/README.md): S8 rent (the deed's figure; doubled on an unimproved street of a
whole group; by buildings; railroads by how many the owner holds; utilities times the dice; none
on a mortgaged property), S9 the rent-claim option (a rent is owed only if the owner claims it before
the k-th active player after the payer throws, k = ``rent_claim_deadline``).
"""

from __future__ import annotations

from parlor.core.errors import E_, IllegalAction
from parlor.core.game import Event
from parlor.monopoly.actions import Action, ClaimRent
from parlor.monopoly.frames import Frame
from parlor.monopoly.mortgages import MortgageRules
from parlor.monopoly.table import AnytimeCheck, Handler


class RentRules(MortgageRules):
    def rent(
        self,
        square: int,
        dice_total: int,
        rent_multiplier: int = 1,
        dice_multiplier: int | None = None,
    ) -> int:
        """The rent a visitor owes the owner of ``square`` now (0 if unowned or mortgaged)."""
        owner = self.owner[square]
        if owner < 0 or self.mortgaged[square]:
            return 0
        facts = self._sq
        kind = facts.kind[square]
        rents = facts.rents[square]
        if kind == "street":
            b = self.buildings[square]
            amount = rents[b] if b else rents[0] * (2 if self.owns_group(owner, square) else 1)
        else:
            owners = self.owner
            owned = 0
            for s in facts.members[square]:
                if owners[s] == owner:
                    owned += 1
            if kind == "railroad":
                amount = rents[owned - 1]
            else:
                amount = (dice_multiplier or rents[owned - 1]) * dice_total
        return amount * rent_multiplier

    # ----- rent claims (S9, an option) ---------------------------------------------------------
    def _claim_deadline(self, payer: int) -> int:
        """The seat whose throw makes an unclaimed rent lapse: the k-th active player after payer."""
        n = self.num_players
        seat, count = payer, 0
        while count < self.options.rent_claim_deadline:
            seat = (seat + 1) % n
            if not self.bankrupt[seat]:
                count += 1
        return seat

    def _lapse_claims(self, thrower: int, ev: list[Event]) -> None:
        kept = []
        for claim in self.claims:
            if claim[4] == thrower:
                ev.append(
                    Event(
                        "rent_lapsed", {"player": claim[0], "owner": claim[1], "amount": claim[2]}
                    )
                )
            else:
                kept.append(claim)
        self.claims = kept

    def _check_claim_rent(self, action: ClaimRent) -> None:
        if not self.options.rent_claim:
            raise IllegalAction(E_("rent is collected automatically in this game"))
        if not any(c[1] == action.player for c in self.claims):
            raise IllegalAction(E_("no rent is owed to {who} now", who=self.names[action.player]))

    def _do_claim_rent(self, action: ClaimRent, top: Frame, ev: list[Event]) -> None:
        owner = action.player
        mine = [c for c in self.claims if c[1] == owner]
        self.claims = [c for c in self.claims if c[1] != owner]
        for payer, _, amount, _, _ in reversed(mine):
            if not self.bankrupt[payer]:
                self._charge_later(payer, owner, amount, "rent")
        self._settle_top_debts(ev)


HANDLERS: dict[type[Action], Handler] = {ClaimRent: RentRules._do_claim_rent}
ANYTIME_CHECKS: dict[type[Action], AnytimeCheck] = {ClaimRent: RentRules._check_claim_rent}

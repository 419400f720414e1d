"""Buying a property landed on, and auctions: of declined properties and of scarce buildings.

Clauses (docs/rules/README.md): S6 buying (the printed price, in cash; declining starts an
auction), S7 property auctions (from the decliner's left, the decliner last; a bid above the high
bid, at least the opening minimum and at most the cash in hand; passing leaves for good; nobody
bidding leaves the property with the bank; a winner short of the price owes the bank), S14 (a
building won at a shortage auction counts against its winner's wish and is placed by him; see
shortage.py).
"""

from __future__ import annotations

from typing import Final

from parlor.core.errors import E_
from parlor.core.game import Decision, Event
from parlor.monopoly.actions import Action, Bid, BuyProperty, DeclineProperty, PassBid, shared
from parlor.monopoly.frames import BANK, Auction, BuyChoice, Frame, PlaceBuildingChoice
from parlor.monopoly.interned import SHARED_ACTIONS
from parlor.monopoly.shortage import ShortageRules
from parlor.monopoly.table import FrameRules, Handler

#: The raises the action ids offer, in money units.
BID_STEPS: Final = (1, 5, 10, 25, 50, 100, 250, 500)


class BuyingRules(ShortageRules):
    # ----- buying (S6) -------------------------------------------------------------------------
    def _buy_decision(self, top: BuyChoice) -> Decision:
        return Decision(
            top.player,
            "buy_or_auction",
            {"square": top.square, "price": self._sq.price[top.square]},
        )

    def _can_buy(self, p: int, top: BuyChoice) -> bool:
        return self.cash[p] >= self._sq.price[top.square]

    def _buy_answers(self, p: int, top: BuyChoice) -> list[Action]:
        # (the predicate of _buy_problem: listing the answers formats no refusal)
        if self._can_buy(p, top):
            return [shared(BuyProperty, p), shared(DeclineProperty, p)]
        return [shared(DeclineProperty, p)]

    def _buy_problem(self, action: Action, top: BuyChoice) -> str | None:
        p = action.player
        name = self.names[p]
        if isinstance(action, BuyProperty):
            if not self._can_buy(p, top):
                price = self.edition.squares[top.square].price
                return E_(
                    "{name} has {cash}, {square} costs {price}: raise cash first or decline",
                    name=name,
                    cash=self.money(self.cash[p]),
                    square=self.name_of(top.square),
                    price=self.money(price),
                )
            return None
        if isinstance(action, DeclineProperty):
            return None
        return E_(
            "{name} must buy {square} or decline it", name=name, square=self.name_of(top.square)
        )

    def _do_buy(self, action: BuyProperty, top: Frame, ev: list[Event]) -> None:
        assert isinstance(top, BuyChoice)
        p = action.player
        self.frames.pop()
        price = self._sq.price[top.square]
        self._pay(p, BANK, price)
        self.owner[top.square] = p
        self._estate_changed(top.square)
        ev.append(Event("bought", {"player": p, "square": top.square, "price": price}))

    def _do_decline(self, action: DeclineProperty, top: Frame, ev: list[Event]) -> None:
        assert isinstance(top, BuyChoice)
        self.frames.pop()
        ev.append(Event("declined", {"player": action.player, "square": top.square}))
        self._start_property_auction(top.square, action.player, ev)

    # ----- auctions (S7) -----------------------------------------------------------------------
    def _auction_min(self) -> int:
        if self.options.auction_min_bid is not None:
            return self.options.auction_min_bid
        return self.edition.auction_min_bid

    def _min_raise(self, auction: Auction) -> int:
        """The lowest bid now: the opening minimum, then one money unit over the high bid."""
        return max(auction.min_bid, auction.high_bid + self._sq.money_unit)

    def _start_property_auction(self, square: int, decliner: int, ev: list[Event]) -> None:
        if not self.options.auctions:
            ev.append(Event("not_auctioned", {"square": square}))
            return
        n = self.num_players
        order = [(decliner + k) % n for k in range(1, n + 1)]
        bidders = [q for q in order if not self.bankrupt[q]]
        if not bidders:
            return
        self.frames.append(Auction("property", square, bidders, 0, 0, -1, self._auction_min()))
        ev.append(Event("auction_started", {"item": "property", "square": square}))

    def _auction_progress(self, a: Auction, ev: list[Event]) -> None:
        if not a.bidders:
            self.frames.pop()
            self._return_reserved([a])
            ev.append(Event("auction_unsold", {"item": a.item, "square": a.square}))
            if a.item != "property":
                self._shortage_auction_over(None)
            return
        if a.high_bidder >= 0 and a.bidders == [a.high_bidder]:
            self.frames.pop()
            winner, price = a.high_bidder, a.high_bid
            ev.append(
                Event(
                    "auction_won",
                    {"player": winner, "item": a.item, "square": a.square, "price": price},
                )
            )
            if a.item == "property":
                self.owner[a.square] = winner
                self._estate_changed(a.square)
            elif self._buildable_squares(winner, a.item):
                self._shortage_auction_over(winner)
                self.frames.append(PlaceBuildingChoice(winner, a.item, price))
            else:  # the winner's lots changed meanwhile: the building stays with the bank
                self._return_reserved([a])
                ev.append(Event("auction_void", {"player": winner, "item": a.item}))
                return
            # A winner who spent cash on other things during the auction owes the bank the rest.
            self._charge(winner, BANK, price, "auction", ev)

    def _auction_decision(self, top: Auction) -> Decision:
        return Decision(
            top.decider(),
            "bid",
            {
                "item": top.item,
                "square": top.square,
                "high_bid": top.high_bid,
                "high_bidder": top.high_bidder,
                "min_bid": self._min_raise(top),
            },
        )

    def _auction_answers(self, p: int, top: Auction) -> list[Action]:
        # The bid ladder: the high bid raised by each of BID_STEPS units, at least the least
        # raise, within cash. Its amounts never fall, so a repeat is the one before and the
        # first beyond cash ends it.
        cash = self.cash[p]
        out: list[Action] = [shared(PassBid, p)]
        unit = self._sq.money_unit
        high = top.high_bid
        low = self._min_raise(top)
        last = -1
        for step in BID_STEPS:  # (a loop: compiled, cheaper than a generator)
            amount = max(low, high + step * unit)
            if amount > cash:
                break
            if amount != last:
                # (shared's table read here: a call saved per rung, its entry made by it once)
                bid = SHARED_ACTIONS.get((Bid, p, amount))
                out.append(shared(Bid, p, amount) if bid is None else bid)
                last = amount
        return out

    def _auction_problem(self, action: Action, top: Auction) -> str | None:
        p = action.player
        if isinstance(action, PassBid):
            return None
        if isinstance(action, Bid):
            if not isinstance(action.amount, int):
                return E_("a bid is a whole amount")
            low = self._min_raise(top)
            if action.amount < low:
                return E_("the bid must be at least {amount}", amount=self.money(low))
            if action.amount > self.cash[p]:
                return E_(
                    "{who} cannot bid more than the {amount} in hand",
                    who=self.names[p],
                    amount=self.money(self.cash[p]),
                )
            return None
        return E_("{who} must bid or pass in the auction", who=self.names[p])

    def _do_bid(self, action: Bid, top: Frame, ev: list[Event]) -> None:
        assert isinstance(top, Auction)
        top.high_bid, top.high_bidder = action.amount, action.player
        top.index = (top.index + 1) % len(top.bidders)
        ev.append(Event("bid", {"player": action.player, "amount": action.amount}))
        self._auction_progress(top, ev)

    def _do_pass_bid(self, action: PassBid, top: Frame, ev: list[Event]) -> None:
        assert isinstance(top, Auction)
        del top.bidders[top.index]
        if top.index >= len(top.bidders):
            top.index = 0
        ev.append(Event("passed", {"player": action.player}))
        self._auction_progress(top, ev)


HANDLERS: dict[type[Action], Handler] = {
    BuyProperty: BuyingRules._do_buy,
    DeclineProperty: BuyingRules._do_decline,
    Bid: BuyingRules._do_bid,
    PassBid: BuyingRules._do_pass_bid,
}
FRAMES: dict[type[Frame], FrameRules] = {
    BuyChoice: FrameRules(
        BuyingRules._buy_decision, BuyingRules._buy_answers, BuyingRules._buy_problem
    ),
    Auction: FrameRules(
        BuyingRules._auction_decision, BuyingRules._auction_answers, BuyingRules._auction_problem
    ),
}

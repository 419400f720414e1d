"""The property encoder of before issue 21's speed work, kept as the reference that
tests/rl/test_fast_obs.py compares the encoder with, byte for byte."""

from __future__ import annotations

from typing import Any

from parlor.monopoly import PropertyGame
from parlor.rl.layout import Vector
from parlor.rl.property_obs import AUCTION_ITEMS, PROPERTY_DECISIONS, PropertyEncoder


def reference_encode(self: PropertyEncoder, game: PropertyGame, seat: int) -> Vector:
    """The encoder as it was before issue 21 (one call per entry), the test's reference."""
    view: dict[str, Any] = game.view(seat)
    lay, v, n, B = self.layout, self.layout.zeros(), self.n, self.board
    cash = self.cash_scale
    for p, info in enumerate(view["players"]):
        r = self.rel(seat, p)
        lay.hot(v, "position", r * B + info["position"])
        lay.hot(v, "cash", r, info["cash"] / cash)
        lay.hot(v, "in_jail", r, float(info["in_jail"]))
        lay.hot(v, "jail_turns", r, info["jail_turns"] / 3)
        lay.hot(v, "jail_cards", r, float(info["jail_cards"]))
        lay.hot(v, "bankrupt", r, float(info["bankrupt"]))
    if view["turn"] >= 0:
        lay.hot(v, "dice_holder", self.rel(seat, view["turn"]))
    for i, prop in enumerate(view["properties"]):
        owner = prop["owner"]
        lay.hot(v, "owner", i * (n + 1) + (0 if owner < 0 else 1 + self.rel(seat, owner)))
        lay.hot(v, "mortgaged", i, float(prop["mortgaged"]))
        lay.hot(v, "buildings", i, prop["buildings"] / 5)
        if owner >= 0 and game.owns_group(owner, prop["square"]):
            lay.hot(v, "group_complete", i)
    bank = view["bank"]
    lay.put(
        v,
        "bank_stock",
        [min(1.0, bank["houses"] / self.houses), min(1.0, bank["hotels"] / self.hotels)],
    )
    lay.put(v, "pot", view["pot"] / cash)
    lay.put(v, "doubles", view["doubles"] / 3)
    if self.time_limit:
        lay.put(v, "rounds_left", max(0, self.time_limit - view["round"]) / self.time_limit)
    owed = sum(c[2] for c in view["rent_claims"] if c[1] == seat)
    lay.put(v, "rent_owed_to_me", owed / cash)
    pending = view["pending"]
    if pending is not None:
        _reference_pending(self, v, seat, pending)
    return v


def _reference_pending(
    self: PropertyEncoder, v: Vector, seat: int, pending: dict[str, Any]
) -> None:
    lay, cash = self.layout, self.cash_scale
    kind, info = pending["kind"], pending["info"]
    lay.hot(v, "decider", self.rel(seat, pending["player"]))
    lay.hot(v, "pending_kind", PROPERTY_DECISIONS.index(kind))
    square = info.get("square")
    if isinstance(square, int) and 0 <= square < self.board:
        lay.hot(v, "pending_square", square)
    if kind == "buy_or_auction":
        lay.put(v, "price", info["price"] / cash)
    elif kind == "bid":
        lay.hot(v, "auction_item", AUCTION_ITEMS.index(info["item"]))
        lay.put(v, "high_bid", info["high_bid"] / cash)
        bidder = info["high_bidder"]
        lay.hot(v, "high_bidder", 0 if bidder < 0 else 1 + self.rel(seat, bidder))
        lay.put(v, "min_bid", info["min_bid"] / cash)
    elif kind == "building_wish":
        item = info["item"]
        lay.hot(v, "auction_item", AUCTION_ITEMS.index(item))
        scale = self.hotels if item == "hotel" else self.houses
        facts = (info["stock"], info["least"], info["most"], sum(info["wishes"].values()))
        lay.put(v, "shortage", [x / scale for x in facts])
    elif kind == "raise_funds":
        lay.put(v, "debt", info["amount"] / cash)
        creditor = info["creditor"]
        lay.hot(v, "creditor", 0 if creditor < 0 else 1 + self.rel(seat, creditor))
    elif kind == "tax_choice":
        lay.put(v, "tax", [info["flat"] / cash, info["percent"] / 100])
    elif kind == "answer_trade":
        offer = info["offer"]
        lay.hot(v, "trade_from", self.rel(seat, info["from"]))
        for sq in offer["give_squares"]:
            lay.hot(v, "trade_gives", self.lot_index[sq])
        for sq in offer["take_squares"]:
            lay.hot(v, "trade_takes", self.lot_index[sq])
        lay.put(v, "trade_cash", [offer["give_cash"] / cash, offer["take_cash"] / cash])
        lay.put(
            v,
            "trade_jail_cards",
            [float(offer["give_jail_cards"]), float(offer["take_jail_cards"])],
        )

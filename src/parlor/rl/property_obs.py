"""The property-game observation: the table as one seat sees it, as a fixed float vector.

Read from ``game.view(seat)`` and the public queries (``owns_group``); in these games only the
decks' order and the future dice are hidden, and neither appears. Seats are relative: position 0
of a per-player block is the observer, 1 the next seat (seat + 1), and so on. Money is divided by
the edition's starting cash, so the four editions (dollars, kroner...) share one scale.
"""

from __future__ import annotations

from typing import Any

from parlor.monopoly import PropertyGame
from parlor.rl.layout import Entry, Layout, Vector

#: Decision kinds of the property games, in the order of the ``pending_kind`` one-hot.
PROPERTY_DECISIONS = (
    "start_turn",
    "roll_again",
    "jail",
    "end_turn",
    "buy_or_auction",
    "bid",
    "tax_choice",
    "raise_funds",
    "answer_trade",
    "mortgaged_property",
    "place_building",
    "building_wish",
)
AUCTION_ITEMS = ("property", "house", "hotel")
BANK = -1  # a creditor that is not a player


class PropertyEncoder:
    """Builds the layout for an edition and player count, and encodes views into it."""

    def __init__(self, game: PropertyGame) -> None:
        ed = game.edition
        self.n = game.num_players
        self.board = len(ed.squares)
        self.lots: tuple[int, ...] = tuple(ed.property_squares)
        self.lot_index = {sq: i for i, sq in enumerate(self.lots)}
        self.cash_scale = float(ed.starting_cash)
        self.houses, self.hotels = max(1, ed.houses), max(1, ed.hotels)
        self.time_limit = game.options.time_limit_rounds
        n, B, P = self.n, self.board, len(self.lots)
        money = "money / starting cash"
        lots = (
            "the edition's property squares in board order (" + ", ".join(map(str, self.lots)) + ")"
        )
        self.layout = Layout(
            [
                Entry(
                    "position",
                    n * B,
                    f"each seat's square (seats relative, observer first; {B} squares per seat)",
                    "one-hot per seat",
                ),
                Entry("cash", n, "each seat's cash", money),
                Entry("in_jail", n, "each seat is in jail", "0/1"),
                Entry("jail_turns", n, "turns each seat has spent in jail", "turns / 3"),
                Entry("jail_cards", n, "get-out-of-jail cards each seat holds", "count"),
                Entry("bankrupt", n, "each seat is bankrupt (out of the game)", "0/1"),
                Entry(
                    "dice_holder",
                    n,
                    "whose turn it is (the dice holder), whatever decision is pending",
                    "one-hot",
                ),
                Entry(
                    "owner",
                    P * (n + 1),
                    f"owner of each deed: [unowned, seat +0, +1, ...] for each of {lots}",
                    "one-hot per deed",
                ),
                Entry("mortgaged", P, "each deed is mortgaged", "0/1"),
                Entry("buildings", P, "buildings on each deed (5 = a hotel)", "count / 5"),
                Entry("group_complete", P, "the deed's owner holds its whole colour group", "0/1"),
                Entry(
                    "bank_stock",
                    2,
                    "houses and hotels left in the bank",
                    "count / edition stock (capped at 1)",
                ),
                Entry("pot", 1, "the Free Parking pot (house rule; 0 otherwise)", money),
                Entry("doubles", 1, "doubles thrown in a row this turn", "count / 3"),
                Entry(
                    "rounds_left",
                    1,
                    "rounds left under a time limit; 0 when there is none",
                    "rounds / limit",
                ),
                Entry(
                    "rent_owed_to_me",
                    1,
                    "unclaimed rent the observer may still claim (rent-claim option)",
                    money,
                ),
                Entry(
                    "decider",
                    n,
                    "who must decide now (relative seat); all 0 once the game is over",
                    "one-hot",
                ),
                Entry(
                    "pending_kind",
                    len(PROPERTY_DECISIONS),
                    "the pending decision (" + ", ".join(PROPERTY_DECISIONS) + ")",
                    "one-hot",
                ),
                Entry(
                    "pending_square",
                    B,
                    "the square the decision is about (deed offered or auctioned, tax square, mortgaged deed received)",
                    "one-hot",
                ),
                Entry("price", 1, "price of the deed offered for purchase", money),
                Entry(
                    "auction_item",
                    len(AUCTION_ITEMS),
                    "what is auctioned, or wished for in a building shortage ("
                    + ", ".join(AUCTION_ITEMS)
                    + ")",
                    "one-hot",
                ),
                Entry("high_bid", 1, "the auction's high bid", money),
                Entry(
                    "high_bidder",
                    n + 1,
                    "the auction's high bidder: [nobody yet, seat +0, +1, ...]",
                    "one-hot",
                ),
                Entry("min_bid", 1, "the least bid the auction accepts now", money),
                Entry(
                    "shortage",
                    4,
                    "building shortage wish: the bank's stock of the item, the least and the most"
                    " the decider may wish for, and what the players asked before wished in all",
                    "count / edition stock of the item",
                ),
                Entry("debt", 1, "the amount the decider must raise", money),
                Entry(
                    "creditor",
                    n + 1,
                    "whom the debt is owed to: [the bank, seat +0, +1, ...]",
                    "one-hot",
                ),
                Entry(
                    "tax",
                    2,
                    "tax choice: the flat amount, and the percentage of worth",
                    "money / starting cash, percent / 100",
                ),
                Entry(
                    "trade_from",
                    n,
                    "who proposed the trade awaiting an answer (relative seat)",
                    "one-hot",
                ),
                Entry(
                    "trade_gives",
                    P,
                    "deeds the proposer gives (same deed order as `owner`)",
                    "multi-hot",
                ),
                Entry("trade_takes", P, "deeds the proposer asks for", "multi-hot"),
                Entry("trade_cash", 2, "cash the proposer gives, and asks for", money),
                Entry(
                    "trade_jail_cards", 2, "jail cards the proposer gives, and asks for", "count"
                ),
            ]
        )
        self._starts = {e.name: self.layout.slice(e.name).start for e in self.layout.entries}

    def update(self, game: PropertyGame, seat: int) -> Vector:
        """What the batched environments read: here a new vector (``encode``)."""
        return self.encode(game, seat)

    def rel(self, seat: int, other: int) -> int:
        return (other - seat) % self.n

    def encode(self, game: PropertyGame, seat: int) -> Vector:
        view: dict[str, Any] = game.view(seat)
        lay, v, n, B = self.layout, self.layout.zeros(), self.n, self.board
        cash = self.cash_scale
        at = self._starts
        for p, info in enumerate(view["players"]):
            r = (p - seat) % n
            v[at["position"] + r * B + info["position"]] = 1.0
            v[at["cash"] + r] = info["cash"] / cash
            v[at["in_jail"] + r] = float(info["in_jail"])
            v[at["jail_turns"] + r] = info["jail_turns"] / 3
            v[at["jail_cards"] + r] = float(info["jail_cards"])
            v[at["bankrupt"] + r] = float(info["bankrupt"])
        if view["turn"] >= 0:
            lay.hot(v, "dice_holder", self.rel(seat, view["turn"]))
        # The lots' blocks are written whole (one call per block, not per lot: the most of
        # the encoding's time went to per-position writes).
        props = view["properties"]
        count = len(props)
        v[at["mortgaged"] : at["mortgaged"] + count] = [float(p["mortgaged"]) for p in props]
        v[at["buildings"] : at["buildings"] + count] = [p["buildings"] / 5 for p in props]
        owner_at, complete_at, hot = at["owner"], at["group_complete"], []
        for i, prop in enumerate(props):
            owner = prop["owner"]
            hot.append(owner_at + i * (n + 1) + (0 if owner < 0 else 1 + (owner - seat) % n))
            if owner >= 0 and game.owns_group(owner, prop["square"]):
                hot.append(complete_at + i)
        v[hot] = 1.0
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
            self._pending(v, seat, pending)
        return v

    def _pending(self, v: Vector, seat: int, pending: dict[str, Any]) -> None:
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

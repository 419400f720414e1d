"""Building shortages (S14): who wishes to buy the bank's last houses or hotels, and their auction.

The books (classic C30, matco M30): "If there are a limited number of houses and hotels available
and two or more players wish to buy more than the Bank has, the houses or hotels must be sold at
auction to the highest bidder." Matador (D24): "If several players wish to buy and the bank does
not have enough for everyone, the bank puts the available houses up for auction." Latam (L27)
says the same without "more than the bank has".

How Parlor plays it (docs/rules/README.md, S14):

* A ``Build`` of a house (or hotel) asks first when the stock could fall short: at least two
  players could buy one (a lot where it may go, stock aside, and its price in cash) and together
  they could place and pay for more than the bank has. Otherwise it is sold at once.
* Then each of those players, the builder first and then to his left, says how many he wishes
  to buy (pending ``building_wish``, ``WishBuildings(count)``): the builder at least one, the
  others from none, each at most what he could place and pay for, and never more than the stock.
* If two or more wish some and the wishes add up to more than the stock, the bank auctions the
  buildings one at a time (S7 bids, opening at the price on the builder's lot) among those who
  wished, for as long as what they still wish exceeds what is left; a won building counts
  against its winner's wish and he places it (pending ``place_building``). When nobody bids, or
  what is still wished fits in the stock, the sale ends and players build as usual.
* Otherwise the builder's building is sold at its price, as if nobody had been asked.
* The answers stand for the rest of the turn (``standing_wishes``): while what the players still
  wish fits in the stock, a ``Build`` within the builder's remaining wish is sold at once, and
  nobody is asked again (a player who wished for none is not asked at the next house). A
  ``Build`` beyond one's wish asks everyone again. The remaining wishes after a sale stand too.
"""

from __future__ import annotations

from parlor.core.errors import E_
from parlor.core.game import Decision, Event
from parlor.monopoly.actions import Action, Build, WishBuildings
from parlor.monopoly.building import BuildingRules
from parlor.monopoly.frames import Auction, Frame, ShortageSale, ShortageWishes
from parlor.monopoly.table import HOTEL, FrameRules, Handler


class ShortageRules(BuildingRules):
    def _stock(self, item: str) -> int:
        return self.hotels_left if item == "hotel" else self.houses_left

    def _capacities(self, item: str, stock: int) -> list[int]:
        """Per player: how many ``item``s he could place now and pay for at their prices,
        cheapest first, at most ``stock`` (wishing for more than the bank has changes nothing).

        Houses: every house still missing on the streets of his whole, unmortgaged groups (he
        places them one after another). Hotels: the lots that may take one now (the group's
        every lot at the top house level, the lot itself without a hotel). One pass over the
        groups serves every player: a build asks this of all of them."""
        ed = self.edition
        squares = ed.squares
        owner, mortgaged, buildings = self.owner, self.mortgaged, self.buildings
        h = self.options.hotel_after_houses
        hotels = item == "hotel"
        # Per player: (price, how many at that price) of what he could place.
        offers: list[list[tuple[int, int]]] = [[] for _ in self.names]
        for members in ed.groups.values():
            q = owner[members[0]]
            if q < 0:
                continue
            for s in members:
                if owner[s] != q or mortgaged[s]:
                    break
            else:
                mine = offers[q]
                if hotels:
                    # A hotel goes on a lot at the top house level when none of the group is
                    # below it.
                    if min(self._level(s) for s in members) == h:
                        mine += [
                            (ed.hotel_cost(s), 1)
                            for s in members
                            if self._level(s) == h and squares[s].kind == "street"
                        ]
                else:
                    for s in members:
                        b = buildings[s]
                        if b != HOTEL and b < h and squares[s].kind == "street":
                            mine.append((squares[s].house_cost, h - b))
        out: list[int] = []
        for p, mine in enumerate(offers):
            cash, count = self.cash[p], 0
            if mine:
                mine.sort()
                for cost, many in mine:
                    # Cheapest first, until the stock or the cash runs out (all dearer ones
                    # cost more than the cash left, too).
                    take = min(many, stock - count, cash // cost)
                    count += take
                    cash -= take * cost
                    if take < many:
                        break
            out.append(count)
        return out

    def _shortage_possible(self, item: str, stock: int) -> bool:
        """Whether two players or more own a whole, unmortgaged group (only they can place a
        building: :meth:`_capacities` is zero for everyone else) and their groups have room for
        more ``item``s than ``stock`` (a capacity is at most its player's room): without prices
        or cash, False for most builds, before :meth:`_capacities` is asked. (Groups without a
        street are not read: their owners place nothing, so their capacities are zero, and the
        answer of :meth:`_shortage_asked` is the same.)"""
        streets = self._whole_streets()
        if streets is None:
            return False
        buildings = self.buildings
        h = self._hotel_level
        room = 0
        if item == "hotel":
            for s in streets:
                room += buildings[s] == h  # (a lot at the top house level may take one)
        else:
            for s in streets:
                b = buildings[s]
                if b < h:  # (a hotel, HOTEL, is above every house count)
                    room += h - b
        return room > stock

    def _whole_streets(self) -> tuple[int, ...] | None:
        """The streets of the groups each owned whole and unmortgaged, when two players or more
        own such a group (None otherwise). Kept with copies of the owners and mortgages it was
        found from, and found again when they differ (a run of builds changes neither): the
        copies compare in one step each, where the groups take a loop over their lots."""
        owner, mortgaged = self.owner, self.mortgaged
        kept = self._whole_kept
        if kept is not None and kept[0] == owner and kept[1] == mortgaged:
            return kept[2]
        first = -1
        two = False
        streets: list[int] = []
        for members, group_streets in self._sq.group_streets:
            q = owner[members[0]]
            if q < 0:
                continue
            for s in members:
                if owner[s] != q or mortgaged[s]:
                    break
            else:
                if first < 0:
                    first = q
                elif q != first:
                    two = True
                streets += group_streets
        found = tuple(streets) if two else None
        self._whole_kept = (list(owner), list(mortgaged), found)
        return found

    def _capacity(self, player: int, item: str, stock: int) -> int:
        """:meth:`_capacities` of one player."""
        return self._capacities(item, stock)[player]

    def _shortage_asked(self, builder: int, item: str) -> tuple[list[int], list[int]] | None:
        """The players to ask how many ``item``s they wish to buy, the builder first, and the most
        each may ask for; None when no shortage is possible (sell at once)."""
        if not self.options.building_shortage_auction or self.options.unlimited_buildings:
            return None
        stock = self._stock(item)
        if not self._shortage_possible(item, stock):
            return None  # (most builds, found cheaply)
        capacities = self._capacities(item, stock)
        n = self.num_players
        asked: list[int] = []
        most: list[int] = []
        for k in range(n):
            q = (builder + k) % n
            if not self.bankrupt[q] and (count := capacities[q]):
                asked.append(q)
                most.append(count)
        if len(asked) < 2 or sum(most) <= stock or asked[0] != builder:
            return None
        return asked, most

    # ----- a Build that meets a scarce stock -------------------------------------------------
    def _do_build(self, action: Build, top: Frame, ev: list[Event]) -> None:
        p, square = action.player, action.square
        item = self._item_for(square)
        if self.standing_wishes is not None and self._within_standing_wish(p, item):
            self._place_building(p, square, ev, cost=None)
            return
        self.standing_wishes = None  # a new question: everyone's answers are asked again
        asked = self._shortage_asked(p, item)
        if asked is None:
            self._place_building(p, square, ev, cost=None)
            return
        self.frames.append(ShortageWishes(p, square, item, *asked))
        ev.append(
            Event(
                "shortage",
                {"player": p, "square": square, "item": item, "stock": self._stock(item)},
            )
        )

    def _within_standing_wish(self, player: int, item: str) -> bool:
        """Whether ``player`` still wishes an ``item`` by what was said in this turn's shortage,
        with every remaining wish still fitting the stock; if so it counts against his wish."""
        said = self.standing_wishes
        if said is None or said[0] != item or said[1] != self.turns_taken:
            return False
        left = said[2]
        if not left[player] or sum(left) > self._stock(item):
            return False
        self._stand(item, [w - (q == player) for q, w in enumerate(left)])
        return True

    def _stand(self, item: str, left: list[int]) -> None:
        """Keep what each seat still wishes for the rest of the turn (None once nobody does)."""
        self.standing_wishes = (item, self.turns_taken, tuple(left)) if any(left) else None

    # ----- the wishes --------------------------------------------------------------------------
    def _wish_range(self, top: ShortageWishes) -> tuple[int, int]:
        i = len(top.wishes)
        return (1 if i == 0 else 0), top.most[i]  # the builder, asked first, wants one at least

    def _wish_decision(self, top: ShortageWishes) -> Decision:
        least, most = self._wish_range(top)
        return Decision(
            top.decider(),
            "building_wish",
            {
                "item": top.item,
                "square": top.square,
                "builder": top.builder,
                "stock": self._stock(top.item),
                "least": least,
                "most": most,
                "wishes": {str(q): w for q, w in zip(top.asked, top.wishes, strict=False)},
            },
        )

    def _wish_answers(self, p: int, top: ShortageWishes) -> list[Action]:
        least, most = self._wish_range(top)
        return [WishBuildings(p, count) for count in range(least, most + 1)]

    def _wish_problem(self, action: Action, top: ShortageWishes) -> str | None:
        least, most = self._wish_range(top)
        name = self.names[action.player]
        hotels = top.item == "hotel"
        if not isinstance(action, WishBuildings):
            if hotels:
                return E_(
                    "{name} must say how many of the bank's last hotels he wishes to buy", name=name
                )
            return E_(
                "{name} must say how many of the bank's last houses he wishes to buy", name=name
            )
        if not least <= action.count <= most:
            fields = {"name": name, "least": least, "most": most, "count": action.count}
            if hotels:
                return E_("{name} may wish for {least} to {most} hotels, not {count}", **fields)
            return E_("{name} may wish for {least} to {most} houses, not {count}", **fields)
        return None

    def _do_wish(self, action: WishBuildings, top: Frame, ev: list[Event]) -> None:
        assert isinstance(top, ShortageWishes)
        top.wishes.append(action.count)
        ev.append(
            Event("wished", {"player": action.player, "item": top.item, "count": action.count})
        )
        if len(top.wishes) < len(top.asked):
            return
        self.frames.pop()
        stock = self._stock(top.item)
        wanting = [(q, w) for q, w in zip(top.asked, top.wishes, strict=True) if w]
        total = sum(w for _, w in wanting)
        if len(wanting) >= 2 and total > stock:
            ev.append(
                Event("shortage_auction", {"item": top.item, "stock": stock, "wanted": total})
            )
            self.frames.append(
                ShortageSale(top.item, top.square, [q for q, _ in wanting], [w for _, w in wanting])
            )
            return
        # Enough for everyone: the builder's building is sold at its price. Nothing changed while
        # the players answered (no other action is taken meanwhile), so the Build still stands.
        # The answers stand: the builder's further wishes are sold without asking anyone again.
        left = [0] * self.num_players
        for q, w in zip(top.asked, top.wishes, strict=True):
            left[q] = w - (q == top.builder)
        self._stand(top.item, left)
        self._place_building(top.builder, top.square, ev, cost=None)

    # ----- the auctions --------------------------------------------------------------------------
    def _shortage_step(self, sale: ShortageSale, ev: list[Event]) -> None:
        """Auction the next scarce building, or end the sale (the frame is already popped)."""
        item = sale.item
        stock = self._stock(item)
        wanting: list[int] = []
        wishes: list[int] = []
        for q, wish in zip(sale.wanting, sale.wishes, strict=True):
            # What one still wishes is at most what one can still place and pay for.
            wish = 0 if self.bankrupt[q] else min(wish, self._capacity(q, item, stock))
            if wish:
                wanting.append(q)
                wishes.append(wish)
        if len(wanting) < 2 or sum(wishes) <= stock:
            ev.append(Event("shortage_over", {"item": item}))
            left = [0] * self.num_players  # what is still wished fits: it may be built as said
            for q, wish in zip(wanting, wishes, strict=True):
                left[q] = min(wish, stock)
            self._stand(item, left)
            return
        self.frames.append(ShortageSale(item, sale.square, wanting, wishes))
        # The bank sells no building below its price: bids open at the first wanted lot's.
        ed = self.edition
        opening = (
            ed.hotel_cost(sale.square) if item == "hotel" else ed.squares[sale.square].house_cost
        )
        # The building leaves the bank's stock while it is auctioned, so that nothing else (a
        # hotel sold back, say) can take it meanwhile.
        self._take_from_stock(item, 1)
        self.frames.append(Auction(item, sale.square, list(wanting), 0, 0, -1, opening))
        ev.append(Event("auction_started", {"item": item, "square": sale.square}))

    def _shortage_auction_over(self, winner: int | None) -> None:
        """A building auction ended (its frame popped): ``winner`` got one (it counts against his
        wish), or nobody bid (None): at the bank's price nobody wants one, and the sale ends."""
        sale = self.frames[-1] if self.frames else None
        if not isinstance(sale, ShortageSale):
            return
        if winner is None:
            self.frames.pop()
        elif winner in sale.wanting:
            sale.wishes[sale.wanting.index(winner)] -= 1


HANDLERS: dict[type[Action], Handler] = {
    Build: ShortageRules._do_build,
    WishBuildings: ShortageRules._do_wish,
}
FRAMES: dict[type[Frame], FrameRules] = {
    ShortageWishes: FrameRules(
        ShortageRules._wish_decision, ShortageRules._wish_answers, ShortageRules._wish_problem
    ),
}

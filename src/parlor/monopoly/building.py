"""Houses, hotels and the bank's stock of them.

Clauses (docs/rules/README.md): S13 building (the whole group, unmortgaged, evenly, hotels after the
houses, cash in hand), S14 building shortages (the bank's stock, a building reserved while it is
auctioned or placed; who wishes to buy how many is shortage.py), S15 selling buildings back (half
price, evenly; a hotel sold back gets its houses back only if the bank has them).
"""

from __future__ import annotations

from collections.abc import Iterable

from parlor.core.errors import E_, IllegalAction
from parlor.core.game import Decision, Event
from parlor.monopoly.actions import Action, Build, PlaceBuilding, SellBuilding
from parlor.monopoly.frames import BANK, Auction, Frame, PlaceBuildingChoice, ShortageSale
from parlor.monopoly.rent import RentRules
from parlor.monopoly.table import (
    HOTEL,
    N_SQUARES,
    AnytimeCheck,
    FrameRules,
    Handler,
)

#: What stops a building (BuildingRules._build_block); BUILD_OK (0) when nothing does.
(
    BUILD_OK,
    BUILD_NO_SQUARE,
    BUILD_NOT_STREET,
    BUILD_NOT_OWNER,
    BUILD_NOT_GROUP,
    BUILD_MORTGAGED,
    BUILD_HAS_HOTEL,
    BUILD_UNEVEN,
    BUILD_NO_HOTELS,
    BUILD_NO_HOUSES,
) = range(10)

#: The buildings as rule messages name them.
BUILDING_NAMES = {"house": E_("house"), "hotel": E_("hotel")}


class BuildingRules(RentRules):
    # ----- what buildings are worth ------------------------------------------------------------
    def building_cost_value(self, square: int) -> int:
        """What the buildings on ``square`` cost (a hotel: its price plus the houses turned in)."""
        b = self.buildings[square]
        cost = self._sq.house_cost[square]
        if b == HOTEL:
            return self._sq.hotel_cost[square] + self._hotel_level * cost
        return b * cost

    def _building_sale_value(self, square: int) -> int:
        b = self.buildings[square]
        half_house = self._sq.house_cost[square] // 2
        if b == HOTEL:
            return self._sq.hotel_cost[square] // 2 + self._hotel_level * half_house
        return b * half_house

    # ----- where one may build (S13) -----------------------------------------------------------
    def _build_block(self, player: int, square: int, check_stock: bool = True) -> int:
        """What stops ``player`` putting the next building on ``square``: one of the ``BUILD_*``
        codes, ``BUILD_OK`` (0) when nothing does. The rule as a predicate, so that listing the
        lots one may build on formats no message; :meth:`_build_problem` says it in words."""
        if not 0 <= square < N_SQUARES:
            return BUILD_NO_SQUARE
        if self._sq.kind[square] != "street":
            return BUILD_NOT_STREET
        owner = self.owner
        if owner[square] != player:
            return BUILD_NOT_OWNER
        group = self._sq.members[square]  # (group_of, inline)
        mortgaged = self.mortgaged
        for s in group:
            if owner[s] != player:
                return BUILD_NOT_GROUP
        for s in group:
            if mortgaged[s]:
                return BUILD_MORTGAGED
        h = self._hotel_level
        buildings = self.buildings
        b = buildings[square]
        if b == HOTEL:  # (levels as _level counts them, a hotel one over the houses)
            return BUILD_HAS_HOTEL
        for s in group:
            if buildings[s] < b:  # (a hotel, HOTEL, is above every house count)
                return BUILD_UNEVEN
        level = b
        if check_stock and not self._unlimited:
            if level == h:
                if self.hotels_left == 0:
                    return BUILD_NO_HOTELS
            elif self.houses_left == 0:
                return BUILD_NO_HOUSES
        return BUILD_OK

    def _build_problem(self, player: int, square: int, check_stock: bool = True) -> str | None:
        """Why ``player`` may not put the next building on ``square`` (None: they may)."""
        code = self._build_block(player, square, check_stock)
        if code == BUILD_OK:
            return None
        if code == BUILD_NO_SQUARE:
            return E_("there is no square {square}", square=square)
        name = self.name_of(square)
        if code == BUILD_NOT_STREET:
            return E_("{square} is not a street: nothing can be built there", square=name)
        if code == BUILD_NOT_OWNER:
            return E_("{who} does not own {square}", who=self.names[player], square=name)
        if code == BUILD_NOT_GROUP:
            return E_(
                "{who} does not own the whole colour group of {square}",
                who=self.names[player],
                square=name,
            )
        if code == BUILD_MORTGAGED:
            return E_("a property of the group is mortgaged: lift the mortgage before building")
        if code == BUILD_HAS_HOTEL:
            return E_("{square} already has a hotel", square=name)
        if code == BUILD_UNEVEN:
            return E_("build evenly: every lot of the group needs as many houses first")
        if code == BUILD_NO_HOTELS:
            return E_("the bank has no hotels left: wait until one is returned")
        return E_("the bank has no houses left: wait until some are returned")

    def _build_cost(self, square: int) -> int:
        if self.buildings[square] == self._hotel_level:  # (the level: no hotel yet)
            return self._sq.hotel_cost[square]
        return self._sq.house_cost[square]

    def _item_for(self, square: int) -> str:
        return "hotel" if self._level(square) == self._hotel_level else "house"

    def _buildable_squares(self, player: int, item: str | None = None) -> list[int]:
        out = []
        for sq in self.edition.property_squares:
            if (
                self.owner[sq] == player
                and self._build_block(player, sq, check_stock=False) == BUILD_OK
                and (item is None or self._item_for(sq) == item)
            ):
                out.append(sq)
        return out

    # ----- the bank's stock and shortages (S14, see shortage.py) ---------------------------------
    def _shortage_running(self) -> bool:
        """Are the bank's scarce buildings being auctioned (no building meanwhile)?"""
        for f in self.frames:  # (a loop, not any(): asked at every Build)
            if isinstance(f, ShortageSale) or (isinstance(f, Auction) and f.item != "property"):
                return True
        return False

    def _take_from_stock(self, item: str, count: int) -> None:
        if item == "hotel":
            self.hotels_left -= count
        else:
            self.houses_left -= count

    def _return_reserved(self, frames: Iterable[Frame]) -> None:
        """Put back in the bank's stock the buildings that ``frames`` (being dropped) held: one
        being auctioned, or won and not yet placed."""
        for frame in frames:
            if (isinstance(frame, Auction) and frame.item != "property") or isinstance(
                frame, PlaceBuildingChoice
            ):
                self._take_from_stock(frame.item, -1)

    def _place_building(self, player: int, square: int, ev: list[Event], cost: int | None) -> None:
        """Build on ``square`` for ``cost`` (``None``: the building's price, taken from the bank's
        stock; a number: the building won at auction, already out of the stock)."""
        h = self._hotel_level
        hotel = self.buildings[square] == h  # (the top house level: a hotel goes up)
        if cost is None:
            price = self._sq.hotel_cost[square] if hotel else self._sq.house_cost[square]
        else:
            price = cost
        self._pay(player, BANK, price)
        unlimited = self._unlimited
        from_stock = 1 if cost is None and not unlimited else 0
        if hotel:
            self.buildings[square] = HOTEL
            self._estate_changed(square)
            if not unlimited:
                self.hotels_left -= from_stock
                self.houses_left += h
            ev.append(Event("hotel_built", {"player": player, "square": square, "cost": price}))
        else:
            self.buildings[square] += 1
            self._estate_changed(square)
            if not unlimited:
                self.houses_left -= from_stock
            ev.append(Event("house_built", {"player": player, "square": square, "cost": price}))

    def _void_placement(self, top: PlaceBuildingChoice, ev: list[Event]) -> None:
        """The winner of a building can no longer place it (raising the price, it mortgaged or
        sold in the group): the bank takes the building back and returns the price."""
        self.frames.pop()
        self._return_reserved([top])
        self._pay(BANK, top.player, top.price)
        ev.append(
            Event("auction_void", {"player": top.player, "item": top.item, "refund": top.price})
        )

    # ----- buildings sold back (S15) -----------------------------------------------------------
    def _sell_building(self, p: int, sq: int, ev: list[Event]) -> None:
        half_house = self._sq.house_cost[sq] // 2
        h = self._hotel_level
        unlimited = self._unlimited
        if self.buildings[sq] == HOTEL:
            # The hotel goes back; its lot gets its houses back if the bank has them, and any it
            # lacks are sold too (the bank pays half their price).
            back = h if unlimited else min(h, self.houses_left)
            refund = self._sq.hotel_cost[sq] // 2 + (h - back) * half_house
            self.buildings[sq] = back
            self._estate_changed(sq)
            if not unlimited:
                self.hotels_left += 1
                self.houses_left -= back
            self._pay(BANK, p, refund)
            ev.append(Event("hotel_sold", {"player": p, "square": sq, "refund": refund}))
        else:
            self.buildings[sq] -= 1
            self._estate_changed(sq)
            if not unlimited:
                self.houses_left += 1
            self._pay(BANK, p, half_house)
            ev.append(Event("house_sold", {"player": p, "square": sq, "refund": half_house}))

    # ----- the actions -------------------------------------------------------------------------
    def _check_build(self, action: Build) -> None:
        # (the square is one of the board's: every field was checked before any rule)
        if self._shortage_running():
            raise IllegalAction(E_("the bank's scarce buildings are being auctioned: wait"))
        p = action.player
        if self._build_block(p, action.square) != BUILD_OK:  # (the words only when refused)
            problem = self._build_problem(p, action.square)
            assert problem is not None
            raise IllegalAction(problem)
        cost = self._build_cost(action.square)
        if self.cash[p] < cost:
            raise IllegalAction(
                E_(
                    "{who} has {cash}, building costs {cost}",
                    who=self.names[p],
                    cash=self.money(self.cash[p]),
                    cost=self.money(cost),
                )
            )

    def _check_sell_building(self, action: SellBuilding) -> None:
        sq = self._own_square(action.player, action.square)
        if not self.buildings[sq]:
            raise IllegalAction(E_("there is no building on {square}", square=self.name_of(sq)))
        level = self._level(sq)
        for s in self.group_of(sq):
            if self._level(s) > level:
                raise IllegalAction(
                    E_("sell evenly: sell from the most built lots of the group first")
                )

    def _do_sell_building(self, action: SellBuilding, top: Frame, ev: list[Event]) -> None:
        self._sell_building(action.player, action.square, ev)

    # ----- placing a building won at a shortage auction (S14) -----------------------------------
    def _placement_decision(self, top: PlaceBuildingChoice) -> Decision:
        return Decision(top.player, "place_building", {"item": top.item})

    def _placement_answers(self, p: int, top: PlaceBuildingChoice) -> list[Action]:
        return [PlaceBuilding(p, sq) for sq in self._buildable_squares(p, top.item)]

    def _placement_problem(self, action: Action, top: PlaceBuildingChoice) -> str | None:
        if isinstance(action, PlaceBuilding):
            squares = self._buildable_squares(action.player, top.item)
            if action.square not in squares:
                return E_(
                    "the {item} cannot go on square {square}",
                    item=BUILDING_NAMES[top.item],
                    square=action.square,
                )
            return None
        return E_(
            "{who} must place the {item} won at auction",
            who=self.names[action.player],
            item=BUILDING_NAMES[top.item],
        )

    def _do_place_building(self, action: PlaceBuilding, top: Frame, ev: list[Event]) -> None:
        assert isinstance(top, PlaceBuildingChoice)
        self.frames.pop()
        self._place_building(action.player, action.square, ev, cost=0)


HANDLERS: dict[type[Action], Handler] = {
    SellBuilding: BuildingRules._do_sell_building,
    PlaceBuilding: BuildingRules._do_place_building,
}
ANYTIME_CHECKS: dict[type[Action], AnytimeCheck] = {
    Build: BuildingRules._check_build,
    SellBuilding: BuildingRules._check_sell_building,
}
FRAMES: dict[type[Frame], FrameRules] = {
    PlaceBuildingChoice: FrameRules(
        BuildingRules._placement_decision,
        BuildingRules._placement_answers,
        BuildingRules._placement_problem,
    ),
}

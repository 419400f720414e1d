"""Rule scenarios for building shortages (S14, docs/rules/README.md).

Classic C30 and Matco M30: "If there are a limited number of houses and hotels available and two
or more players wish to buy more than the Bank has, the houses or hotels must be sold at auction
to the highest bidder." Matador D24: "If several players wish to buy and the bank does not have
enough for everyone, the bank puts the available houses up for auction." Latam L27: "Si hay un
número limitado de construcciones y dos o más jugadores desean comprarlas, el banco debe
subastarlas al mejor postor."
"""

from __future__ import annotations

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from parlor import monopoly as m
from parlor.core.errors import IllegalAction

from .kit import build, dice, give, kinds, money_total, new, settle

C30 = "two or more players wish to buy more than the Bank has"


def shortage(houses: int = 3) -> m.PropertyGame:
    """Ann holds the purples ($50 houses), Bo the dark blues ($200), Cy nothing buildable."""
    g = new()
    give(g, 0, 1, 3)
    give(g, 1, 37, 39)
    g.houses_left = houses
    return g


def wishes(g: m.PropertyGame, *counts: int) -> list[str]:
    """Answer the pending wishes in order; the kinds of the events of the last answer."""
    ev: list[m.Action] = []
    for count in counts:
        assert g.pending.kind == "building_wish"
        ev = g.apply(m.WishBuildings(g.pending.player, count))
    return kinds(ev)


def test_three_houses_left_and_two_players_wanting_three_each_go_to_auction() -> None:
    # C30: each wants 3, the bank has 3: "more than the Bank has" though only two players want.
    g = shortage(houses=3)
    total = money_total(g)
    ev = g.apply(m.Build(0, 1))
    assert kinds(ev) == ["shortage"] and g.buildings[1] == 0 and g.cash[0] == 1500
    d = g.pending
    assert (d.kind, d.player) == ("building_wish", 0)
    assert (d.info["item"], d.info["stock"], d.info["least"], d.info["most"]) == ("house", 3, 1, 3)
    # Every count is a legal answer, with its own id.
    assert g.legal_actions(0, anytime=False) == [m.WishBuildings(0, c) for c in (1, 2, 3)]
    ids = g.legal_action_ids(0)
    assert [g.action_from_id(i, 0) for i in ids] == [m.WishBuildings(0, c) for c in (1, 2, 3)]
    with pytest.raises(IllegalAction, match="must answer first"):
        g.apply(m.Build(1, 37))  # nothing else happens while the players say what they want
    g.apply(m.WishBuildings(0, 3))
    assert (g.pending.player, g.pending.info["least"], g.pending.info["wishes"]) == (1, 0, {"0": 3})
    assert g.pending.info["most"] == 3  # Bo could pay for 7 at $200, but the bank has 3
    assert wishes(g, 3)[-2:] == ["shortage_auction", "auction_started"]
    # One house at a time, the builder first, bids opening at the price of the lot he asked for.
    assert g.pending.kind == "bid" and g.pending.player == 0 and g.pending.info["min_bid"] == 50
    assert g.houses_left == 2  # the house on the block is out of the stock
    g.apply(m.Bid(0, 50))
    g.apply(m.PassBid(1))
    g.apply(m.PlaceBuilding(0, 1))
    assert g.buildings[1] == 1 and g.cash[0] == 1450
    # Ann still wants 2, Bo 3, and 2 are left: the next house is auctioned.
    assert g.pending.kind == "bid" and g.houses_left == 1
    g.apply(m.PassBid(0))
    g.apply(m.Bid(1, 260))
    ev = g.apply(m.PlaceBuilding(1, 39))
    assert g.buildings[39] == 1 and g.cash[1] == 1500 - 260
    # Ann 2 and Bo 2 for the last one: auctioned too; nobody bidding ends the sale.
    assert g.pending.kind == "bid" and g.houses_left == 0
    g.apply(m.PassBid(0))
    ev = g.apply(m.PassBid(1))
    assert "auction_unsold" in kinds(ev) and g.houses_left == 1
    assert g.pending.kind == "start_turn" and g.anytime_open
    assert money_total(g) == total


def test_when_the_wishes_fit_in_the_stock_the_house_is_sold_at_once() -> None:
    g = shortage(houses=3)
    g.apply(m.Build(0, 1))
    assert wishes(g, 1, 2) == ["wished", "house_built"]
    assert g.buildings[1] == 1 and g.cash[0] == 1450 and g.houses_left == 2
    assert g.pending.kind == "start_turn"


def test_one_player_wishing_more_than_the_bank_has_is_not_a_shortage() -> None:
    # C30 needs "two or more players": Ann wishing for all three while Bo wants none is no auction.
    g = shortage(houses=3)
    g.apply(m.Build(0, 1))
    assert wishes(g, 3, 0) == ["wished", "house_built"]
    assert g.buildings[1] == 1 and g.houses_left == 2


def test_nobody_is_asked_when_the_stock_covers_all_anyone_could_buy() -> None:
    # Ann could place 8 houses and Bo pay for 7: with 15 left no shortage is possible.
    g = shortage(houses=15)
    assert kinds(g.apply(m.Build(0, 1))) == ["house_built"]
    # A single player able to buy is not asked either, however few are left.
    g = new()
    give(g, 0, 1, 3)
    g.houses_left = 1
    assert kinds(g.apply(m.Build(0, 1))) == ["house_built"] and g.houses_left == 0


def test_a_wish_is_at_most_what_one_can_place_and_pay_for_and_the_builder_wants_one() -> None:
    g = shortage(houses=3)
    g.cash[1] = 450  # two $200 houses
    g.apply(m.Build(0, 1))
    with pytest.raises(IllegalAction, match="1 to 3 houses"):
        g.apply(m.WishBuildings(0, 0))
    g.apply(m.WishBuildings(0, 3))
    assert g.pending.info["most"] == 2
    with pytest.raises(IllegalAction, match="0 to 2 houses"):
        g.apply(m.WishBuildings(1, 3))
    assert not g.is_legal(m.Bid(1, 10)) and not g.is_legal(m.WishBuildings(2, 0))


def test_a_shortage_auction_needs_buyers_who_can_pay_and_blocks_other_building() -> None:
    # Only players who could buy one are asked ("wish to buy": able to place and pay).
    g = shortage(houses=1)
    give(g, 2, 6, 8, 9)
    g.cash[0] = 10
    with pytest.raises(IllegalAction, match="building costs"):
        g.apply(m.Build(0, 1))
    g.apply(m.Build(1, 37))
    assert g.pending.info["builder"] == 1 and g.pending.player == 1
    wishes(g, 1)
    assert g.pending.player == 2  # Ann, with $10, is not asked
    wishes(g, 1)
    assert g.pending.kind == "bid" and g.pending.info["min_bid"] == 200  # the lot's house price
    with pytest.raises(IllegalAction, match="being auctioned"):
        g.apply(m.Build(2, 6))


def test_hotels_in_shortage_are_auctioned_the_same_way() -> None:
    g = new()
    give(g, 0, 1, 3)
    give(g, 1, 37, 39)
    for sq in (1, 3, 37, 39):
        build(g, sq, 4)
    g.hotels_left = 1
    g.apply(m.Build(1, 39))
    assert (g.pending.info["item"], g.pending.info["most"]) == ("hotel", 1)
    assert wishes(g, 1, 1)[-2:] == ["shortage_auction", "auction_started"]
    assert g.pending.info["item"] == "hotel" and g.pending.info["min_bid"] == 200
    g.apply(m.Bid(1, 200))
    g.apply(m.PassBid(0))
    assert g.pending.kind == "place_building" and g.pending.info["item"] == "hotel"
    g.apply(m.PlaceBuilding(1, 37))
    assert g.buildings[37] == 5 and g.hotels_left == 0 and g.pending.kind == "start_turn"


@pytest.mark.parametrize("edition", m.EDITION_IDS)
def test_every_book_auctions_what_two_players_want_beyond_the_stock(edition: str) -> None:
    # C30 (classic), M30 (matco), L27 (latam), D24 (matador) all have the rule.
    g = new(edition)
    ed = g.edition
    streets = [s for s in ed.property_squares if ed.squares[s].kind == "street"]
    first, second = (
        ed.groups[ed.squares[streets[0]].group],
        ed.groups[ed.squares[streets[-1]].group],
    )
    give(g, 0, *first)
    give(g, 1, *second)
    g.houses_left = 2
    g.apply(m.Build(0, first[0]))
    assert wishes(g, 2, 1)[-1] == "auction_started"
    assert g.pending.info["min_bid"] == ed.squares[first[0]].house_cost


def test_the_option_off_or_unlimited_buildings_sell_first_come_first_served() -> None:
    for options in ({"building_shortage_auction": False}, {"unlimited_buildings": True}):
        g = new(options=options)
        give(g, 0, 1, 3)
        give(g, 1, 37, 39)
        g.houses_left = 1
        assert kinds(g.apply(m.Build(0, 1))) == ["house_built"]


def test_a_building_at_auction_is_out_of_the_banks_stock() -> None:
    # The last house is "sold at auction to the highest bidder", so nothing else may take it
    # meanwhile. Here a hotel is sold back during the auction: a hotel goes back as four houses
    # only if the bank has them, and the one being auctioned is not the bank's to give (found by
    # random play: the winner's house then left the stock at -1).
    g = shortage(houses=1)
    give(g, 2, 6, 8, 9)
    build(g, 6, 5)
    build(g, 8, 4)
    build(g, 9, 4)
    g.houses_left = 1
    g.apply(m.Build(0, 1))
    wishes(g, 1, 1)  # Cy, with his houses all up, cannot place one and is not asked
    assert g.pending.kind == "bid" and g.houses_left == 0  # the house is on the block
    g.apply(m.SellBuilding(2, 6))
    assert g.buildings[6] == 0 and g.houses_left == 0  # no house for the hotel's lot
    g.apply(m.Bid(0, 50))
    g.apply(m.PassBid(1))
    ev = g.apply(m.PlaceBuilding(0, 1))
    assert "shortage_over" in kinds(ev)
    assert g.buildings[1] == 1 and g.houses_left == 0


def test_a_won_building_that_can_no_longer_be_placed_goes_back_refunded() -> None:
    # The books are silent on a winner who, raising the price, mortgages in the group: the bank
    # takes the building back and returns the price (found by random play: the game was left
    # waiting for a placement that had no legal answer).
    g = shortage(houses=1)
    give(g, 0, 5, mortgaged=True)
    g.cash[0] = 150
    g.apply(m.Build(0, 1))
    wishes(g, 1, 1)
    g.apply(m.Bid(0, 50))
    g.apply(m.Unmortgage(0, 5))  # 110 spent during the auction: 40 left
    g.apply(m.PassBid(1))
    assert g.pending.kind == "raise_funds" and g.pending.player == 0
    g.apply(m.Mortgage(0, 3))
    ev = g.apply(m.PayDebt(0))
    assert "auction_void" in kinds(ev)
    assert g.pending.kind == "start_turn" and g.legal_actions(g.pending.player)
    assert g.houses_left == 1 and g.buildings[1] == 0
    assert g.cash[0] == 150 - 110 + 30  # the price paid, then refunded


def test_an_unsold_building_goes_back_to_the_bank() -> None:
    g = shortage(houses=1)
    g.apply(m.Build(0, 1))
    wishes(g, 1, 1)
    g.apply(m.PassBid(0))
    g.apply(m.PassBid(1))
    assert g.houses_left == 1 and g.buildings[1] == 0 and g.pending.kind == "start_turn"


def test_the_sale_goes_on_after_a_bidder_goes_bankrupt() -> None:
    # Cy bids all he has, spends it in a trade while the auction runs, wins and cannot pay:
    # he goes bankrupt to the bank (whose auctions of his deeds come first), and the sale of the
    # scarce houses goes on among the others.
    g = shortage(houses=2)
    give(g, 2, 6, 8, 9)
    give(g, 0, 12)
    g.cash[2] = 400
    g.apply(m.Build(0, 1))
    wishes(g, 2, 2, 2)
    g.apply(m.PassBid(0))
    g.apply(m.Bid(1, 50))
    g.apply(m.Bid(2, 400))
    g.apply(m.ProposeTrade(2, 0, take_squares=(12,), give_cash=390))
    g.apply(m.AcceptTrade(0))
    g.apply(m.PassBid(1))
    assert g.pending.kind == "raise_funds" and g.pending.player == 2
    g.apply(m.DeclareBankruptcy(2))
    assert g.bankrupt[2] and g.houses_left == 2  # the house he won went back to the bank
    for _ in range(4):  # his four deeds, auctioned by the bank: nobody bids
        assert g.pending.kind == "bid" and g.pending.info["item"] == "property"
        for p in (0, 1):
            g.apply(m.PassBid(p))
    # Two houses left, Ann and Bo still want two each: auctioned.
    assert g.pending.kind == "bid" and g.pending.info["item"] == "house"
    assert g.pending.player == 0 and g.houses_left == 1
    g.apply(m.PassBid(0))
    g.apply(m.Bid(1, 50))
    g.apply(m.PlaceBuilding(1, 37))
    assert g.pending.kind == "bid" and g.houses_left == 0  # Ann 2, Bo 1, and one left


@settings(max_examples=60, deadline=None)
@given(
    edition=st.sampled_from(m.EDITION_IDS),
    stock=st.integers(1, 14),
    cash=st.lists(st.integers(0, 3000), min_size=3, max_size=3),
    builder=st.integers(0, 2),
    data=st.data(),
)
def test_an_auction_exactly_when_two_or_more_wish_for_more_than_the_stock(
    edition: str, stock: int, cash: list[int], builder: int, data: st.DataObject
) -> None:
    # C30 as a property over every book: the wishes decide, whatever they are.
    g = new(edition)
    ed = g.edition
    groups = list(dict.fromkeys(ed.squares[s].group for s in ed.property_squares))
    streets = [gr for gr in groups if gr and ed.squares[ed.groups[gr][0]].kind == "street"]
    mine = [ed.groups[streets[i]] for i in (0, len(streets) // 2, -1)]
    for p in range(3):
        give(g, p, *mine[p])
        g.cash[p] = cash[p] * ed.starting_cash // 1500
    g.houses_left = stock
    square = mine[builder][0]
    assume(g.is_legal(m.Build(builder, square)))
    total = money_total(g)
    ev = g.apply(m.Build(builder, square))
    if g.pending.kind != "building_wish":
        event("sold without asking")
        assert kinds(ev) == ["house_built"] and g.buildings[square] == 1
        return
    assert g.pending.player == builder
    wished: dict[int, int] = {}
    while g.pending.kind == "building_wish":
        d = g.pending
        assert d.info["most"] <= stock and d.player not in wished
        count = data.draw(st.integers(d.info["least"], d.info["most"]))
        wished[d.player] = count
        ev = g.apply(m.WishBuildings(d.player, count))
    wanting = [w for w in wished.values() if w]
    shortage = len(wanting) >= 2 and sum(wanting) > stock
    event("auctioned" if shortage else "asked, then sold")
    assert ("shortage_auction" in kinds(ev)) == shortage
    assert (g.pending.kind == "bid") == shortage
    assert g.buildings[square] == (0 if shortage else 1)
    assert money_total(g) == total


def test_answers_stand_for_the_turn_so_nobody_is_asked_again_at_the_next_house() -> None:
    # C30: the auction is for when "two or more players wish to buy more than the Bank has".
    # Once Bo has said he wishes none and Ann three, with three left, nobody wishes beyond the
    # stock: Ann builds her three without Bo (or anyone) being asked again at each house.
    g = shortage(houses=3)
    g.apply(m.Build(0, 1))
    assert wishes(g, 3, 0) == ["wished", "house_built"]
    assert kinds(g.apply(m.Build(0, 3))) == ["house_built"]
    assert kinds(g.apply(m.Build(0, 1))) == ["house_built"]
    assert g.houses_left == 0 and g.buildings[1] + g.buildings[3] == 3
    assert g.pending.kind == "start_turn"


def test_a_house_beyond_ones_wish_asks_everyone_again() -> None:
    # Ann said one: a second house is a new wish, and Bo may now want some too (C30).
    g = shortage(houses=3)
    g.apply(m.Build(0, 1))
    assert wishes(g, 1, 0) == ["wished", "house_built"]
    assert kinds(g.apply(m.Build(0, 3))) == ["shortage"]
    assert (g.pending.player, g.pending.info["stock"]) == (0, 2)
    assert wishes(g, 2, 2)[-2:] == ["shortage_auction", "auction_started"]


def test_one_who_wished_none_and_then_builds_asks_everyone_again() -> None:
    g = shortage(houses=3)
    g.apply(m.Build(0, 1))
    wishes(g, 2, 0)
    assert kinds(g.apply(m.Build(1, 37))) == ["shortage"]  # Bo changed his mind
    assert [g.pending.player, g.pending.info["wishes"]] == [1, {}]
    assert wishes(g, 2, 1) == ["wished", "shortage_auction", "auction_started"]


def test_the_answers_lapse_when_the_turn_ends() -> None:
    g = shortage(houses=3)
    g.apply(m.Build(0, 1))
    wishes(g, 3, 0)
    dice(g, (1, 2))
    g.apply(m.RollDice(0))
    settle(g)  # Ann's turn ends; Bo's begins
    assert g.pending.player == 1
    assert kinds(g.apply(m.Build(0, 3))) == ["shortage"]  # a new turn: asked again


def test_what_is_still_wished_after_a_sale_may_be_built_without_asking() -> None:
    # Three left, Ann and Bo wish two each: auctioned. Bo wins two at prices that leave him
    # unable to pay for another, so what is still wished (Ann's) fits the last house, and Ann
    # builds it at its price without anyone being asked again.
    g = shortage(houses=3)
    g.apply(m.Build(0, 1))
    wishes(g, 2, 2)
    for price, lot in ((1000, 37), (350, 39)):
        g.apply(m.PassBid(0))
        g.apply(m.Bid(1, price))
        ev = g.apply(m.PlaceBuilding(1, lot))
    assert "shortage_over" in kinds(ev) and g.cash[1] == 150 and g.houses_left == 1
    assert kinds(g.apply(m.Build(0, 1))) == ["house_built"]
    assert g.houses_left == 0 and g.cash[0] == 1450

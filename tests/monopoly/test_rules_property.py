"""Rule scenarios: buying, auctions, rent, buildings, mortgages, trades, debts, bankruptcy, variants."""

from __future__ import annotations

import pickle

import pytest

from parlor import monopoly as m
from parlor.core import state
from parlor.core.errors import IllegalAction

from .kit import build, dice, give, kinds, money_total, new, put, settle


def land_on(g: m.PropertyGame, player: int, square: int) -> list:
    """Throw so that ``player`` (the one to move) lands on ``square``."""
    steps = (square - g.position[player]) % 40
    assert 3 <= steps <= 11
    dice(g, (1, steps - 1) if steps - 1 != 1 else (2, 1))
    return g.apply(m.RollDice(player))


# ----- buying and auctions ---------------------------------------------------------------------
def test_buy_at_printed_price() -> None:
    # "Whenever you land on an unowned property you may buy that property from the Bank at its
    # printed price."
    g = new()
    land_on(g, 0, 6)
    assert g.pending.kind == "buy_or_auction" and g.pending.info["price"] == 100
    g.apply(m.BuyProperty(0))
    assert g.owner[6] == 0 and g.cash[0] == 1400


def test_declined_property_is_auctioned_to_highest_bidder_including_decliner() -> None:
    # "If you do not wish to buy the property, the Banker sells it at auction to the highest
    # bidder ... Any player, including the one who declined ... may bid. Bidding may start at any price."
    g = new()
    land_on(g, 0, 6)
    g.apply(m.DeclineProperty(0))
    assert g.pending.kind == "bid" and g.pending.player == 1  # left of the decliner
    g.apply(m.Bid(1, 1))
    g.apply(m.PassBid(2))
    g.apply(m.Bid(0, 40))
    ev = g.apply(m.PassBid(1))
    assert "auction_won" in kinds(ev)
    assert g.owner[6] == 0 and g.cash[0] == 1460
    with pytest.raises(IllegalAction):
        g.apply(m.Bid(0, 50))


def test_latam_auction_opens_at_10_and_nobody_bidding_changes_nothing() -> None:
    # latam: "El banco empieza la subasta ofreciendo la propiedad en 10 $" / "¿Qué pasa si nadie la
    # quiere?. No pasa nada, nadie paga nada."
    g = new("latam")
    land_on(g, 0, 6)
    g.apply(m.DeclineProperty(0))
    with pytest.raises(IllegalAction, match="at least 10 \\$"):
        g.apply(m.Bid(1, 5))
    for p in (1, 2, 0):
        g.apply(m.PassBid(p))
    assert g.owner[6] == -1 and g.cash == [1500, 1500, 1500]
    assert g.pending.kind == "end_turn"


def test_no_auctions_house_rule() -> None:
    g = new(options={"auctions": False})
    land_on(g, 0, 6)
    ev = g.apply(m.DeclineProperty(0))
    assert "not_auctioned" in kinds(ev) and g.pending.kind == "end_turn"


def test_bid_cannot_exceed_cash() -> None:
    g = new()
    land_on(g, 0, 6)
    g.apply(m.DeclineProperty(0))
    with pytest.raises(IllegalAction, match="cannot bid more"):
        g.apply(m.Bid(1, 1501))


# ----- rent --------------------------------------------------------------------------------------
def test_rent_doubles_on_complete_group_even_with_one_mortgaged() -> None:
    # "the owner may then charge double rent for unimproved properties in that color-group. This
    # rule applies to unmortgaged properties even if another property in that color-group is mortgaged."
    g = new()
    give(g, 1, 37, 39)
    g.mortgaged[37] = True
    put(g, 0, 32)
    land_on(g, 0, 39)
    assert g.cash[1] == 1500 + 2 * 50


def test_no_rent_on_mortgaged_property() -> None:
    # "If the property is mortgaged, no rent can be collected."
    g = new()
    give(g, 1, 39, mortgaged=True)
    put(g, 0, 32)
    land_on(g, 0, 39)
    assert g.cash[1] == 1500


def test_rent_with_houses_and_hotel() -> None:
    g = new()
    give(g, 1, 37, 39)
    build(g, 39, 5)
    put(g, 0, 32)
    land_on(g, 0, 39)
    assert g.cash[0] == 1500 - 2000 + 0 or g.pending.kind == "raise_funds"
    assert g.pending.kind == "raise_funds" and g.pending.info["amount"] == 2000


def test_railroad_rent_by_number_owned_and_utilities_by_dice() -> None:
    # latam: "Si el dueño posee 1 ferrocarril la renta será de 25 $, si son 2 ... 50 $"; "Si el
    # propietario tiene un servicio ... multiplicar por 4 ... los dos servicios ... por 10"
    g = new("latam")
    give(g, 1, 5, 15)
    put(g, 0, 0)
    land_on(g, 0, 5)
    assert g.cash[1] == 1550
    g2 = new("latam")
    give(g2, 1, 12)
    put(g2, 0, 7)
    land_on(g2, 0, 12)  # throw of 5
    assert g2.cash[1] == 1500 + 4 * 5
    g3 = new("latam")
    give(g3, 1, 12, 28)
    put(g3, 0, 7)
    land_on(g3, 0, 12)
    assert g3.cash[1] == 1500 + 10 * 5


def test_matador_no_rent_while_owner_jailed() -> None:
    # Matador: "While you are in jail ... you may not collect rent from the other players."
    g = new("matador")
    give(g, 1, 1)
    g.in_jail[1], g.position[1] = True, 10
    put(g, 0, 38)
    ev = land_on(g, 0, 1)
    assert "no_rent_owner_jailed" in kinds(ev) and g.cash[1] == 30000
    g2 = new("classic")
    give(g2, 1, 1)
    g2.in_jail[1] = True
    put(g2, 0, 38)
    land_on(g2, 0, 1)
    assert g2.cash[1] == 1502  # classic: "Even though you are in Jail, you may ... collect rents"


def test_rent_claim_option_lapses_after_the_second_following_player_throws() -> None:
    # "The owner may not collect the rent if he/she fails to ask for it before the second player
    # following throws the dice."
    g = new(options={"rent_claim": True})
    give(g, 2, 6)
    land_on(g, 0, 6)
    assert g.cash[2] == 1500 and m.ClaimRent(2) in g.legal_actions(2)
    settle(g)
    dice(g, (1, 2))
    g.apply(m.RollDice(1))
    assert m.ClaimRent(2) in g.legal_actions(2)  # still claimable after the next player's throw
    settle(g)
    dice(g, (1, 2))
    ev = g.apply(m.RollDice(2))
    assert "rent_lapsed" in kinds(ev)
    with pytest.raises(IllegalAction):
        g.apply(m.ClaimRent(2))


def test_rent_claim_collects_when_asked() -> None:
    g = new(options={"rent_claim": True})
    give(g, 2, 6)
    land_on(g, 0, 6)
    g.apply(m.ClaimRent(2))
    assert g.cash[2] == 1506 and g.cash[0] == 1494


# ----- buildings -------------------------------------------------------------------------------
def test_building_needs_the_whole_group_and_goes_evenly() -> None:
    # "When you own all the properties in a color-group you may buy houses ... you must build
    # evenly"
    g = new()
    give(g, 0, 37)
    with pytest.raises(IllegalAction, match="whole colour group"):
        g.apply(m.Build(0, 37))
    give(g, 0, 39)
    g.apply(m.Build(0, 37))
    with pytest.raises(IllegalAction, match="evenly"):
        g.apply(m.Build(0, 37))
    g.apply(m.Build(0, 39))
    assert g.buildings[37] == g.buildings[39] == 1 and g.cash[0] == 1500 - 400
    assert g.houses_left == 30


def test_building_is_an_any_time_action_for_any_player() -> None:
    # latam: "No tienes que esperar a tu turno para comprar"
    g = new()
    give(g, 2, 1, 3)
    g.apply(m.Build(2, 1))
    assert g.buildings[1] == 1


def test_no_building_while_a_group_property_is_mortgaged() -> None:
    g = new()
    give(g, 0, 37, 39)
    g.mortgaged[37] = True
    with pytest.raises(IllegalAction, match="mortgaged"):
        g.apply(m.Build(0, 39))


def test_hotel_after_four_houses_returns_houses() -> None:
    # "When you have four houses on each property of a complete color-group, you may buy a hotel
    # ... You return the four houses from that property to the Bank"
    g = new()
    give(g, 0, 1, 3)
    build(g, 1, 4)
    build(g, 3, 4)
    houses = g.houses_left
    g.apply(m.Build(0, 1))
    assert g.buildings[1] == 5 and g.hotels_left == 11 and g.houses_left == houses + 4
    with pytest.raises(IllegalAction, match="already has a hotel"):
        g.apply(m.Build(0, 1))


def test_matador_hotel_costs_five_houses() -> None:
    # Matador: "The price of a hotel is five times the price of a house."
    g = new("matador")
    give(g, 0, 1, 3)
    build(g, 1, 4)
    build(g, 3, 4)
    g.apply(m.Build(0, 1))
    assert g.cash[0] == 30000 - 5 * 1000


def test_short_game_hotel_after_three_houses() -> None:
    # Short game 2: "You need only three houses (instead of four) on each lot"
    g = new(options={"variant": "short"})
    for sq in range(40):
        g.owner[sq] = -1
    give(g, 0, 1, 3)
    build(g, 1, 3)
    build(g, 3, 3)
    g.apply(m.Build(0, 1))
    assert g.buildings[1] == 5


def test_house_shortage_wait() -> None:
    # "When the Bank has no houses to sell, players wishing to build must wait"
    g = new()
    give(g, 0, 1, 3)
    g.houses_left = 0
    with pytest.raises(IllegalAction, match="no houses left"):
        g.apply(m.Build(0, 1))


def test_unlimited_buildings_house_rule() -> None:
    g = new(options={"unlimited_buildings": True})
    give(g, 0, 1, 3)
    g.houses_left = 0
    g.apply(m.Build(0, 1))
    assert g.buildings[1] == 1


def test_sell_buildings_at_half_price_evenly() -> None:
    # "Houses and hotels may be sold back to the Bank at any time for one-half the price paid"
    g = new()
    give(g, 0, 37, 39)
    build(g, 37, 2)
    build(g, 39, 1)
    with pytest.raises(IllegalAction, match="evenly"):
        g.apply(m.SellBuilding(0, 39))
    g.apply(m.SellBuilding(0, 37))
    assert g.cash[0] == 1600 and g.buildings[37] == 1


def test_hotel_sold_back_becomes_four_houses() -> None:
    # latam: "Vende hoteles al banco por la mitad de su costo e inmediatamente cámbialos por 4 casas."
    g = new("latam")
    give(g, 0, 1, 3)
    build(g, 1, 5)
    build(g, 3, 4)
    g.apply(m.SellBuilding(0, 1))
    assert g.buildings[1] == 4 and g.cash[0] == 1525 and g.hotels_left == 12


# ----- mortgages -------------------------------------------------------------------------------
def test_mortgage_and_lift_with_ten_percent() -> None:
    # "In order to lift the mortgage, the owner must pay the Bank the amount of the mortgage plus
    # 10% interest."
    g = new()
    give(g, 0, 39)
    g.apply(m.Mortgage(0, 39))
    assert g.cash[0] == 1700
    g.apply(m.Unmortgage(0, 39))
    assert g.cash[0] == 1700 - 220


def test_no_mortgage_with_buildings_in_the_group() -> None:
    # "Before an improved property can be mortgaged, all the buildings on all the properties of its
    # color-group must be sold back to the Bank"
    g = new()
    give(g, 0, 37, 39)
    build(g, 39, 1)
    with pytest.raises(IllegalAction, match="sell the buildings"):
        g.apply(m.Mortgage(0, 37))


def test_matador_interest_rounded_up_to_100() -> None:
    # Matador: "The interest is 10% (rounded up to the nearest 100 kr.)"
    g = new("matador")
    give(g, 0, 1)
    g.apply(m.Mortgage(0, 1))
    g.apply(m.Unmortgage(0, 1))
    assert g.cash[0] == 30000 - 100


# ----- trades ------------------------------------------------------------------------------------
def test_trade_properties_cash_and_jail_cards() -> None:
    # "Unimproved properties, railroads and utilities (but not buildings) may be sold to any player
    # as a private transaction"; the jail card "may sell it ... to another player"
    g = new()
    give(g, 0, 1)
    give(g, 1, 3)
    g.jail_cards[1] = [7]
    g.apply(
        m.ProposeTrade(0, 1, give_squares=(1,), take_squares=(3,), give_cash=50, take_jail_cards=1)
    )
    assert g.pending.kind == "answer_trade" and g.pending.player == 1
    with pytest.raises(IllegalAction, match="must answer first"):
        g.apply(m.Build(2, 1))
    g.apply(m.AcceptTrade(1))
    assert g.owner[1] == 1 and g.owner[3] == 0 and g.cash[:2] == [1450, 1550]
    assert g.jail_cards[0] == [7] and g.pending.kind == "start_turn"


def test_acceptance_is_checked_again_on_a_copy_of_the_offer() -> None:
    # S17: checked again on acceptance. Nothing can happen between an offer and its answer, so
    # the proposal's check answers for the offer it put on the table; an offer on any other
    # table (a copy, a loaded state) is checked afresh, and refused when it no longer holds.
    g = new()
    give(g, 1, 3)
    g.apply(m.ProposeTrade(0, 1, take_squares=(3,), give_cash=200))
    assert g.legal_actions(1) == [m.AcceptTrade(1), m.RejectTrade(1)]
    for copy in (
        g.clone(),
        pickle.loads(pickle.dumps(g)),
        state.import_state(type(g), g.settings, g.seed, state.export_state(g), g.log),
    ):
        assert copy.is_legal(m.AcceptTrade(1))
        copy.cash[0] = 100  # (set by hand: the proposer can no longer pay)
        assert copy.legal_actions(1) == [m.RejectTrade(1)]
        with pytest.raises(IllegalAction, match="has only"):
            copy.apply(m.AcceptTrade(1))
    g.apply(m.AcceptTrade(1))
    assert g.owner[3] == 0 and g.cash[:2] == [1300, 1700]


def test_no_trade_with_buildings_in_group_and_no_loans() -> None:
    # "no property can be sold to another player if buildings are standing on any properties of
    # that color-group"; "No player may borrow from or lend money to another player."
    g = new()
    give(g, 0, 37, 39)
    build(g, 39, 1)
    with pytest.raises(IllegalAction, match="buildings stand"):
        g.apply(m.ProposeTrade(0, 1, give_squares=(37,), take_cash=10))
    with pytest.raises(IllegalAction, match="lend"):
        g.apply(m.ProposeTrade(0, 1, give_cash=100))


def test_mortgaged_property_received_pays_interest_or_lifts_at_once() -> None:
    # "If the mortgage is not lifted at once, you must pay the Bank 10% interest when you buy the
    # property and if you lift the mortgage later you must pay ... an additional 10% interest"
    g = new()
    give(g, 0, 39, mortgaged=True)
    g.apply(m.ProposeTrade(0, 1, give_squares=(39,), take_cash=100))
    g.apply(m.AcceptTrade(1))
    assert g.pending.kind == "mortgaged_property" and g.pending.player == 1
    g.apply(m.KeepMortgage(1, 39))
    assert g.cash[1] == 1500 - 100 - 20 and g.mortgaged[39]
    g.apply(m.Unmortgage(1, 39))
    assert g.cash[1] == 1380 - 220
    g2 = new()
    give(g2, 0, 39, mortgaged=True)
    g2.apply(m.ProposeTrade(0, 1, give_squares=(39,), take_cash=100))
    g2.apply(m.AcceptTrade(1))
    g2.apply(m.LiftMortgageNow(1, 39))
    assert g2.cash[1] == 1500 - 100 - 220 and not g2.mortgaged[39]


def test_matador_mortgaged_trade_has_no_fee_at_transfer() -> None:
    g = new("matador")
    give(g, 0, 39, mortgaged=True)
    g.apply(m.ProposeTrade(0, 1, give_squares=(39,), take_cash=1000))
    g.apply(m.AcceptTrade(1))
    assert g.pending.kind == "start_turn" and g.cash[1] == 29000


# ----- debts and bankruptcy --------------------------------------------------------------------
def test_debt_must_be_raised_before_bankruptcy_is_allowed() -> None:
    # "You are declared bankrupt if you owe more than you can pay"
    g = new()
    give(g, 1, 37, 39)
    build(g, 39, 3)  # rent 1400
    give(g, 0, 21, 23, 24)  # mortgage values 110 + 110 + 120
    g.cash[0] = 1100
    put(g, 0, 32)
    land_on(g, 0, 39)
    assert g.pending.kind == "raise_funds" and g.pending.info["amount"] == 1400
    with pytest.raises(IllegalAction, match="can still raise"):
        g.apply(m.DeclareBankruptcy(0))
    with pytest.raises(IllegalAction, match="sell buildings or mortgage"):
        g.apply(m.PayDebt(0))
    for sq in (21, 23, 24):
        g.apply(m.Mortgage(0, sq))
    g.apply(m.PayDebt(0))
    assert g.cash[0] == 40 and g.cash[1] == 2900


def test_bankruptcy_to_a_player_hands_everything_over() -> None:
    # "If your debt is to another player, you must turn over to that player all that you have of
    # value ... if you own houses or hotels, you must return these to the Bank in exchange for money
    # to the extent of one-half the amount paid for them; this cash is given to the creditor."
    g = new()
    give(g, 1, 37, 39)
    build(g, 39, 5)
    give(g, 0, 1, 3)
    build(g, 1, 1)
    give(g, 0, 5, mortgaged=True)
    g.jail_cards[0] = [7]
    g.cash[0] = 0
    total = money_total(g)
    put(g, 0, 32)
    land_on(g, 0, 39)
    g.apply(m.Mortgage(0, 12)) if g.owner[12] == 0 else None
    with pytest.raises(IllegalAction):
        g.apply(m.PayDebt(0))
    g.apply(m.DeclareBankruptcy(0))
    assert g.bankrupt[0] and g.owner[1] == g.owner[3] == g.owner[5] == 1
    assert g.buildings[1] == 0 and g.jail_cards[1] == [7]
    assert g.cash[1] == 1500 + 25  # half the house
    assert g.pending.kind == "mortgaged_property" and g.pending.player == 1
    assert money_total(g) == total


def test_bankruptcy_to_the_bank_auctions_the_properties() -> None:
    # "Should you owe the Bank ... you must turn over all assets to the Bank. In this case, the Bank
    # immediately sells by auction all property so taken, except buildings."
    g = new()
    give(g, 0, 1, mortgaged=True)
    g.cash[0] = 10
    put(g, 0, 1)
    land_on(g, 0, 4)
    g.apply(m.ChooseTax(0, False))
    g.apply(m.DeclareBankruptcy(0))
    assert g.bankrupt[0] and g.owner[1] == -1 and not g.mortgaged[1]
    assert g.pending.kind == "bid" and g.pending.info["square"] == 1
    g.apply(m.Bid(g.pending.player, 5))
    g.apply(m.PassBid(g.pending.player))
    assert g.owner[1] in (1, 2) and g.pending.kind == "start_turn" and g.pending.player == 1


def test_last_player_standing_wins() -> None:
    g = new(players=("Ann", "Bo"))
    give(g, 1, 39)
    build(g, 39, 0)
    give(g, 1, 37)
    build(g, 39, 5)
    g.cash[0] = 5
    put(g, 0, 32)
    land_on(g, 0, 39)
    g.apply(m.DeclareBankruptcy(0))
    assert g.is_over and g.outcome.winners == (1,) and g.outcome.reason == "bankruptcy"
    assert g.pending is None and g.legal_actions() == []


# ----- variants ----------------------------------------------------------------------------------
def test_short_game_deals_three_free_deeds_and_ends_at_first_bankruptcy() -> None:
    # Short game 1: "the Banker shuffles then deals three Title Deed cards to each player. These are
    # free"; 5: "The game ends when one player goes bankrupt. The remaining players value their
    # property ... The richest player wins!"
    g = new(options={"variant": "short"})
    assert [g.owner.count(p) for p in range(3)] == [3, 3, 3] and g.cash == [1500] * 3
    g.cash[0] = 0
    for sq in range(40):
        if g.owner[sq] == 0:
            g.mortgaged[sq] = True
    put(g, 0, 1)
    land_on(g, 0, 4)
    g.apply(m.DeclareBankruptcy(0))
    assert g.is_over and g.outcome.reason == "first_bankruptcy"
    scores = g.outcome.scores
    assert g.outcome.winners == (max((1, 2), key=lambda p: scores[p]),)


def test_valuation_counts_mortgaged_at_half_and_buildings_at_cost() -> None:
    # Short game 5: "(3) any mortgaged property owned, at one-half the price printed on the board;
    # (4) houses, valued at purchase price; (5) hotels, valued at purchase price including the value
    # of the three houses turned in."
    g = new(options={"variant": "short"})
    for sq in range(40):
        g.owner[sq] = -1
    give(g, 0, 1, 3)
    g.mortgaged[3] = True
    build(g, 1, 5)
    assert g.valuation(0) == 1500 + 60 + 30 + 50 + 3 * 50


def test_time_limit_game_two_paid_deeds_and_end_after_rounds() -> None:
    # "the Banker shuffles and cuts the Title Deed cards and deals two to each player. Players
    # immediately pay the Bank the price of the properties dealt to them."
    g = new(options={"variant": "time_limit", "time_limit_rounds": 1})
    for p in range(3):
        paid = sum(g.edition.squares[s].price for s in range(40) if g.owner[s] == p)
        assert g.owner.count(p) == 2 and g.cash[p] == 1500 - paid
    for _ in range(3):
        dice(g, (1, 2))
        g.apply(m.RollDice(g.pending.player))
        settle(g)
    assert g.is_over and g.outcome.reason == "time_limit"


def test_time_can_be_called_in_a_quick_game() -> None:
    # Matador quick game: "Set a playing time. When the time is up, the player with the greatest
    # fortune wins."
    g = new("matador", options={"variant": "quick"})
    assert [g.owner.count(p) for p in range(3)] == [2, 2, 2]
    g.apply(m.CallTime(2))
    assert g.is_over and g.outcome.reason == "time_called"
    with pytest.raises(IllegalAction, match="only in a time-limit"):
        new().apply(m.CallTime(0))


def test_free_parking_pot_house_rule() -> None:
    g = new(options={"free_parking_pot": True})
    put(g, 0, 1)
    land_on(g, 0, 4)
    g.apply(m.ChooseTax(0, False))
    assert g.pot == 200
    settle(g)
    put(g, 1, 15)
    land_on(g, 1, 20)
    assert g.cash[1] == 1700 and g.pot == 0


def test_bankrupt_to_the_pot_pays_the_pot() -> None:
    g = new(options={"free_parking_pot": True})
    g.cash[0] = 30
    put(g, 0, 1)
    land_on(g, 0, 4)
    g.apply(m.ChooseTax(0, False))
    g.apply(m.DeclareBankruptcy(0))
    assert g.pot == 30 and money_total(g) == 1500 * 3 - 1470


def test_latam_rent_claim_lapses_when_the_next_player_throws() -> None:
    # latam: "Si el propietario no cobra la renta antes de que el siguiente jugador tire los dados
    # no debe pagarse la misma."
    g = new("latam", options={"rent_claim": True})
    give(g, 2, 6)
    land_on(g, 0, 6)
    settle(g)
    dice(g, (1, 2))
    ev = g.apply(m.RollDice(1))
    assert "rent_lapsed" in kinds(ev) and g.cash[2] == 1500


def test_latam_fine_may_be_paid_before_the_third_throw() -> None:
    # latam (a): "Pagar 50 $ en el siguiente turno" - read as before any jail throw.
    g = new("latam")
    g.in_jail[0], g.position[0], g.jail_turns[0] = True, 10, 2
    g.apply(m.PayJailFine(0))
    assert not g.in_jail[0] and g.cash[0] == 1450


@pytest.mark.parametrize("edition", ["classic", "matco"])
def test_matco_plays_the_classic_rules_with_tool_names(edition: str) -> None:
    # Matco: "It is an advantage to hold all the Tool Deed cards in a color-group (e.g., Jamestown
    # Road and 2s 4s 6s Street ...) because the owner may then charge double rent"; "Distributor
    # Tax ... $200 ... or ... 10% of your total worth".
    g = new(edition)
    give(g, 1, 37, 39)
    put(g, 0, 32)
    land_on(g, 0, 39)
    assert g.cash[1] == 1600
    if edition == "matco":
        assert g.name_of(39) == "Jamestown Road" and g.name_of(37) == "2s 4s 6s Street"
    settle(g)
    g.position[1] = 1
    land_on(g, 1, 4)
    assert g.pending.kind == "tax_choice"

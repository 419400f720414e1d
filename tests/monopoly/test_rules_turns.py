"""Rule scenarios: movement, Go, doubles, jail, cards, taxes. Each cites its clause."""

from __future__ import annotations

import pytest

from parlor import monopoly as m
from parlor.core.errors import IllegalAction, NotYourDecision

from .kit import dice, give, kinds, new, put, settle, stack_card


def test_move_and_pass_go_collects_salary() -> None:
    # Millennium, "GO": "Each time a player's token lands on or passes over GO, whether by throw of
    # the dice or by drawing a card, the Banker pays him/her a $200 salary."
    g = new()
    put(g, 0, 36)
    dice(g, (3, 2))
    ev = g.apply(m.RollDice(0))
    assert g.position[0] == 1
    assert "salary" in kinds(ev)
    assert g.cash[0] == 1500 + 200


def test_landing_exactly_on_go_pays_once_or_twice_with_house_rule() -> None:
    g = new()
    put(g, 0, 35)
    dice(g, (3, 2))
    g.apply(m.RollDice(0))
    assert g.cash[0] == 1700
    g2 = new(options={"double_salary_on_go": True})
    put(g2, 0, 35)
    dice(g2, (3, 2))
    g2.apply(m.RollDice(0))
    assert g2.cash[0] == 1900


def test_advance_to_go_card_after_passing_go_pays_twice() -> None:
    # "if you pass GO on the throw of the dice and land ... 7 spaces beyond it on Chance, and you
    # draw the "Advance to GO" card, you collect $200 for passing GO the first time and another $200"
    g = new()
    put(g, 0, 36)
    stack_card(g, "chance", "move_to", target=0)
    dice(g, (5, 6))  # 36 + 11 = 47 -> square 7, Chance
    g.apply(m.RollDice(0))
    assert g.position[0] == 0
    assert g.cash[0] == 1500 + 400


def test_doubles_give_another_throw_and_three_doubles_jail_without_moving() -> None:
    # "If you throw doubles three times in succession, move your token immediately to the In Jail"
    # Matador: "you may not move on the third throw and must go directly to jail".
    g = new()
    dice(g, (1, 1), (2, 2), (3, 3))
    g.apply(m.RollDice(0))  # to 2 (Community Chest)
    assert g.pending.player == 0
    while g.pending.kind != "roll_again":  # answer whatever the card asked
        g.apply(g.legal_actions(0, anytime=False)[-1])
    g.apply(m.RollDice(0))  # to 6 Oriental
    if g.pending.kind == "buy_or_auction":
        g.apply(m.BuyProperty(0))
    assert g.pending.kind == "roll_again"
    before = g.position[0]
    ev = g.apply(m.RollDice(0))
    assert "third_doubles" in kinds(ev) and "moved" not in kinds(ev)
    assert g.in_jail[0] and g.position[0] == 10 and before != 10
    assert g.pending.kind == "end_turn"


def test_go_to_jail_square_sends_to_jail_without_salary_and_ends_turn() -> None:
    # "When you are sent to Jail you cannot collect your $200 salary in that move ... Your turn
    # ends when you are sent to Jail" - even after doubles.
    g = new()
    put(g, 0, 26)
    dice(g, (2, 2))
    g.apply(m.RollDice(0))
    assert g.in_jail[0] and g.position[0] == 10 and g.cash[0] == 1500
    assert g.pending.kind == "end_turn"


def test_jail_fine_before_throwing_on_first_two_turns_only() -> None:
    # "(4) paying a fine of $50 before you roll the dice on either of your next two turns. If you
    # don't throw doubles by your third turn, you must pay the $50 fine. You then get out of Jail
    # and immediately move forward the number of spaces shown by your throw."
    g = new(players=("Ann", "Bo"))
    g.in_jail[0] = True
    g.position[0] = 10
    dice(g, (1, 2), (3, 4), (1, 3), (2, 5), (2, 3))
    g.apply(m.RollDice(0))  # first failed throw
    assert g.in_jail[0]
    settle(g)
    g.apply(m.RollDice(1))
    settle(g)
    assert m.PayJailFine(0) in g.legal_actions(0)
    g.apply(m.RollDice(0))  # second failed throw
    settle(g)
    g.apply(m.RollDice(1))
    settle(g)
    with pytest.raises(IllegalAction, match="first 2 turn"):
        g.apply(m.PayJailFine(0))
    cash = g.cash[0]
    g.apply(m.RollDice(0))  # third failed throw: pay and move 5
    assert not g.in_jail[0] and g.position[0] == 15
    assert g.cash[0] <= cash - 50


def test_doubles_out_of_jail_move_but_no_extra_throw_classic() -> None:
    # "if you succeed in doing this, you immediately move forward ... even though you had thrown
    # doubles, you do not take another turn"
    g = new()
    g.in_jail[0], g.position[0] = True, 10
    dice(g, (3, 3))
    g.apply(m.RollDice(0))
    assert not g.in_jail[0] and g.position[0] == 16
    g.apply(m.DeclineProperty(0))
    while g.pending.kind == "bid":
        g.apply(m.PassBid(g.pending.player))
    assert g.pending.kind == "end_turn"


def test_matador_doubles_out_of_jail_still_give_extra_throw() -> None:
    # Matador, Jail 3: "By throwing two of a kind. You then immediately move forward ... and you
    # still get an extra throw."
    g = new("matador")
    g.in_jail[0], g.position[0] = True, 10
    dice(g, (3, 3))
    g.apply(m.RollDice(0))
    while g.pending.kind == "bid" or g.pending.kind == "buy_or_auction":
        a = (
            m.DeclineProperty(0)
            if g.pending.kind == "buy_or_auction"
            else m.PassBid(g.pending.player)
        )
        g.apply(a)
    assert g.pending.kind == "roll_again" and g.pending.player == 0


def test_matador_fine_may_be_paid_on_any_jail_turn() -> None:
    # Matador: "By paying a fine of 1,000 kr. before you throw the dice."
    g = new("matador")
    g.in_jail[0], g.position[0], g.jail_turns[0] = True, 10, 2
    g.apply(m.PayJailFine(0))
    assert not g.in_jail[0] and g.cash[0] == 30000 - 1000


def test_jail_card_used_and_returned_to_bottom_of_deck() -> None:
    # "The "Get Out of Jail Free" card is held until used and then returned to the bottom of the deck."
    g = new()
    put(g, 0, 4)
    cid = stack_card(g, "chance", "get_out_of_jail")
    dice(g, (1, 2))
    g.apply(m.RollDice(0))
    assert g.jail_cards[0] == [cid] and cid not in g.decks["chance"]
    g.in_jail[0], g.position[0] = True, 10
    g.frames[0] = type(g.frames[0])(0)  # a fresh turn for the scenario
    g.apply(m.UseJailCard(0))
    assert not g.in_jail[0] and g.decks["chance"][-1] == cid


def test_short_game_jail_try_doubles_then_pay_same_turn() -> None:
    # Short game 3: "you may try to roll doubles and, failing to do so, pay the $50 on the same turn"
    g = new(options={"variant": "short"})
    g.in_jail[0], g.position[0] = True, 10
    dice(g, (1, 2))
    g.apply(m.RollDice(0))
    assert not g.in_jail[0] and g.position[0] == 13
    assert g.cash[0] == 1500 - 50 or g.pending.kind in ("buy_or_auction", "raise_funds")


def test_income_tax_choice_flat_or_ten_percent_of_total_worth() -> None:
    # "You may estimate your tax at $200 and pay the Bank, or you may pay 10% of your total worth
    # ... Your total worth is all your cash on hand, printed prices of mortgaged and unmortgaged
    # properties and cost price of all buildings you own."
    g = new()
    give(g, 0, 39)
    give(g, 0, 37, mortgaged=True)
    put(g, 0, 1)
    dice(g, (1, 2))
    g.apply(m.RollDice(0))
    assert g.pending.kind == "tax_choice"
    g.apply(m.ChooseTax(0, percent=True))
    assert g.cash[0] == 1500 - (1500 + 400 + 350) // 10


def test_latam_income_tax_is_the_printed_amount() -> None:
    # latam: "el jugador debe pagarle al banco la cantidad indicada en el tablero."
    g = new("latam")
    put(g, 0, 1)
    dice(g, (1, 2))
    g.apply(m.RollDice(0))
    assert g.cash[0] == 1300 and g.pending.kind == "end_turn"


def test_short_game_tax_is_flat() -> None:
    # Short game 4: "The penalty for landing on "Income Tax" is a flat $200"
    g = new(options={"variant": "short"})
    for sq in range(40):
        g.owner[sq] = -1
    put(g, 0, 1)
    dice(g, (1, 2))
    g.apply(m.RollDice(0))
    assert g.cash[0] == 1300


def test_nearest_railroad_card_pays_double_rent() -> None:
    # Chance: "Advance token to the nearest Railroad and pay owner twice the rental"
    g = new()
    give(g, 1, 15, 25)
    put(g, 0, 5)
    stack_card(g, "chance", "move_nearest", kind="railroad")
    dice(g, (1, 1))  # 5 + 2 = 7 Chance -> nearest railroad 15
    g.apply(m.RollDice(0))
    assert g.position[0] == 15
    assert g.cash[1] == 1500 + 2 * 50


def test_nearest_utility_card_throws_and_pays_ten_times() -> None:
    # "If owned, throw dice and pay owner a total ten times the amount thrown"
    g = new()
    give(g, 1, 12)
    put(g, 0, 3)
    stack_card(g, "chance", "move_nearest", kind="utility")
    dice(g, (2, 2), (3, 4))
    g.apply(m.RollDice(0))
    assert g.position[0] == 12
    assert g.cash[1] == 1500 + 70


def test_go_back_three_spaces_collects_no_salary() -> None:
    g = new()
    put(g, 0, 3)
    stack_card(g, "chance", "move_relative")
    dice(g, (2, 2))
    g.apply(m.RollDice(0))
    assert g.position[0] == 4 and g.pending.kind == "tax_choice"


def test_birthday_card_collects_from_each_player() -> None:
    # Community Chest: "Grand Opera Opening. Collect $50 from every player"
    g = new()
    put(g, 0, 0)
    stack_card(g, "community_chest", "collect_from_each")
    dice(g, (1, 1))
    g.apply(m.RollDice(0))
    assert g.cash == [1600, 1450, 1450]


def test_repairs_card_counts_houses_and_hotels() -> None:
    g = new()
    give(g, 0, 37, 39)
    g.buildings[37], g.buildings[39] = 3, 5
    put(g, 0, 0)
    stack_card(g, "community_chest", "repairs")
    dice(g, (1, 1))
    g.apply(m.RollDice(0))
    assert g.cash[0] == 1500 - (3 * 40 + 115)


def test_matador_legat_only_for_the_needy() -> None:
    # "Ved værdig trængende forstås, at Deres formue ... ikke overstiger kr. 15.000"
    for cash, expected in ((14000, 14000 + 40000), (16000, 16000)):
        g = new("matador")
        g.cash[0] = cash
        put(g, 0, 0)
        stack_card(g, "proev_lykken", "collect_if_worth_at_most")
        dice(g, (1, 1))
        g.apply(m.RollDice(0))
        assert g.cash[0] == expected


def test_wrong_player_and_wrong_answer_are_typed_errors() -> None:
    g = new()
    with pytest.raises(NotYourDecision, match="Ann's decision"):
        g.apply(m.RollDice(1))
    with pytest.raises(IllegalAction, match="throw the dice first"):
        g.apply(m.EndTurn(0))

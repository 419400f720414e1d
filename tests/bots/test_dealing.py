"""Trades valued by what a completed group does for the seat that gets it
(:mod:`parlor.bots.monopoly_dealing`, issue 20): the monopoly bonus counts as far as the seat's
money after the trade builds three houses a lot."""

from __future__ import annotations

import pytest

from parlor import monopoly
from parlor.bots.monopoly_dealing import funded_deltas, seat_best_offer, seat_trade_gain
from parlor.bots.monopoly_heuristic import MonopolyHeuristicBot
from parlor.bots.monopoly_table import Table, board_for
from parlor.bots.monopoly_trading import trade_gain

PARK_PLACE, BOARDWALK = 37, 39  # classic: $350 and $400, houses $200: $1200 for three a lot


def _table(cash1: int) -> tuple[monopoly.PropertyGame, Table]:
    """Classic, four players: seat 0 holds Park Place, seat 1 Boardwalk and ``cash1``."""
    game = monopoly.new_game("classic", 4, seed=0, options={"roll_for_first_player": False})
    game.owner[PARK_PLACE] = 0
    game.owner[BOARDWALK] = 1
    game.cash[1] = cash1
    return game, Table.from_game(board_for(game), game)


def _offer(pay: int) -> dict[str, object]:
    """Seat 1 asks for Park Place and pays ``pay``."""
    return {
        "give_squares": (),
        "take_squares": (PARK_PLACE,),
        "give_cash": pay,
        "take_cash": 0,
        "give_jail_cards": 0,
        "take_jail_cards": 0,
    }


def test_a_rich_seat_gains_the_whole_bonus_a_broke_one_a_share() -> None:
    """With $3000 seat 1 can pay $500 and still build the dark blues up: its gain is the plain
    one (the lot and the whole $1000 bonus). With $700 it keeps $125 above the $75 reserve
    after paying: about a tenth of the $1200 of houses, so it gains that share of the bonus."""
    _, rich = _table(3000)
    plain = rich.trade_deltas(1, 0, (), (PARK_PLACE,))
    assert funded_deltas(rich, 1, 0, (), (PARK_PLACE,), -500, 75) == pytest.approx(plain)
    _, broke = _table(700)
    d1, d0 = funded_deltas(broke, 1, 0, (), (PARK_PLACE,), -500, 75)
    bonus = broke.board.group_bonus[broke.board.group_index[PARK_PLACE]]
    assert bonus == 1000
    assert d0 == pytest.approx(plain[1])
    assert d1 == pytest.approx(plain[0] - bonus * (1 - (700 - 500 - 75) / 1200))


def test_selling_the_last_lot_to_a_seat_that_cannot_build_is_a_smaller_risk() -> None:
    """Seat 0 answers the same $500 offer for Park Place: from a seat left too poor to build the
    group it is a good sale; from a rich seat, which builds at once, it is not (the plain
    measure, which counts the bonus in full for both, refuses both)."""
    bot = MonopolyHeuristicBot(0)
    _, rich = _table(3000)
    _, broke = _table(700)
    assert seat_trade_gain(bot, rich, 1, 0, _offer(500), answering=True) < 0
    assert seat_trade_gain(bot, broke, 1, 0, _offer(500), answering=True) > 0
    assert trade_gain(bot, broke, 1, 0, _offer(500), answering=True) < 0


def test_a_seat_offers_no_more_for_a_group_than_it_could_build() -> None:
    """Seat 1 with $3000 offers to buy Park Place (the lowest price level seat 0 should take);
    with $700 the completed group would stand unbuilt, and the offer is not worth making."""
    bot = MonopolyHeuristicBot(1)
    game, rich = _table(3000)
    offer = seat_best_offer(bot, game, rich, 1, set())
    assert offer is not None and offer.take_squares == (PARK_PLACE,) and offer.give_cash > 350
    game, broke = _table(700)
    assert seat_best_offer(bot, game, broke, 1, set()) is None

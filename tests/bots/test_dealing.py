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
from parlor.monopoly.actions import ProposeTrade

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


def _reference_offer(bot, game, table, player, made, own):  # type: ignore[no-untyped-def]
    """best_offer by its definition (every sweetener, every price level in turn, both sides'
    measures at each): what the cached plans and early stops must reproduce."""
    from parlor.bots.monopoly_trading import _gain

    unit = table.board.edition.money_unit
    best = None
    cash = table.cash[player]
    reserve = bot._reserve(table)
    for target in table.offer_targets(player):
        if table.bankrupt[target.other]:
            continue
        for give in target.sweeteners:
            plain = table.trade_deltas(player, target.other, give, target.take)
            for factor in bot.price_factors:
                pay = int(target.base * factor) // unit * unit
                if pay > cash or (not give and pay <= 0) or cash - pay < reserve:
                    continue
                d_me, d_other = (
                    plain
                    if own is None
                    else own(table, player, target.other, give, target.take, -pay, reserve, plain)
                )
                mine = _gain(
                    bot,
                    table,
                    player,
                    target.other,
                    d_me - pay,
                    d_other + pay,
                    0,
                    False,
                    bot.propose_weight,
                )
                theirs = _gain(
                    bot, table, player, target.other, plain[0] - pay, plain[1] + pay, 0, True, None
                )
                offer = ProposeTrade(
                    player,
                    target.other,
                    give_squares=give,
                    take_squares=target.take,
                    give_cash=pay,
                )
                if mine <= 0 or theirs <= 0 or offer in made:
                    continue
                if best is None or mine > best[0]:
                    best = (mine, offer)
                break
    if best is None:
        return None
    return best[1] if game.is_legal(best[1]) else None


@pytest.mark.parametrize("edition", ["classic", "matador"])
def test_the_trade_search_equals_its_definition(edition: str) -> None:
    """Over the moments of a seeded game, for every seat, the heuristic's offer (plain and
    funded measures; the default bot, one whose price levels do not rise and one with a
    negative proposing weight, where the search may not stop early, and one with a negative
    trade weight, whose accepted prices need not be a tail of the levels) is the one a search
    of every price level finds, also when some offers were made before; and so is
    :func:`seat_best_offer`'s, the funded search the heuristic runs."""
    from parlor.bots.monopoly_trading import best_offer

    bots = [
        MonopolyHeuristicBot(0),
        MonopolyHeuristicBot(0, price_factors=(2.0, 0.5, 1.0, 0.25, 3.0)),
        MonopolyHeuristicBot(0, propose_weight=-0.2),
        MonopolyHeuristicBot(0, trade_weight=-0.3, propose_weight=0.5),
        MonopolyHeuristicBot(0, v1=True),
    ]
    players = [MonopolyHeuristicBot(p) for p in range(4)]
    game = monopoly.new_game(edition, 4, seed=3)
    found = 0
    made: set[ProposeTrade] = set()
    n = 0
    while not game.is_over and n < 900:
        if n % 5 == 0:
            table = Table.of(game)
            for bot in bots:
                for p in range(4):
                    if table.bankrupt[p]:
                        continue
                    for own in (None, funded_deltas):
                        got = best_offer(bot, game, table, p, made, funded=own is not None)
                        want = _reference_offer(bot, game, table, p, made, own)
                        assert got == want
                        if own is funded_deltas:  # (the heuristic's own search, written out)
                            assert seat_best_offer(bot, game, table, p, made) == want
                        if got is not None:
                            found += 1
                            if n % 3 == 0:
                                made.add(got)
        p = game.pending.player  # type: ignore[union-attr]
        game.apply(players[p].choose(game, p))
        n += 1
    assert found > 20

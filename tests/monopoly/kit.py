"""Test helpers for rule scenarios: rigged dice and direct set-up of a position.

Scenario tests set the table the way the rulebook's example describes it, then act through the
public ``apply``. Setting up touches engine attributes on purpose; acting never does.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from parlor import monopoly
from parlor.monopoly.game import PropertyGame


class RiggedDice(random.Random):
    """A generator whose dice throws come from a list; anything else is seeded randomness."""

    def __init__(self, throws: Iterable[tuple[int, int]]) -> None:
        super().__init__(0)
        self.values = [v for pair in throws for v in pair]

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 6), "only dice are rigged"
        assert self.values, "the scenario ran out of rigged dice"
        return self.values.pop(0)


def new(
    edition: str = "classic",
    players: int | Sequence[str] = ("Ann", "Bo", "Cy"),
    options: dict[str, Any] | None = None,
    seed: int = 0,
) -> PropertyGame:
    """A game whose first player is seat 0 (no roll-off), for readable scenarios."""
    opts = {"roll_for_first_player": False, **(options or {})}
    return monopoly.new_game(edition, players=players, seed=seed, options=opts)


def dice(game: PropertyGame, *throws: tuple[int, int]) -> None:
    game.rng = RiggedDice(throws)


def give(game: PropertyGame, player: int, *squares: int, mortgaged: bool = False) -> None:
    for sq in squares:
        game.owner[sq] = player
        game.mortgaged[sq] = mortgaged


def build(game: PropertyGame, square: int, count: int) -> None:
    game.houses_left -= count if count < 5 else 0
    game.hotels_left -= 1 if count == 5 else 0
    game.buildings[square] = count


def put(game: PropertyGame, player: int, square: int) -> None:
    game.position[player] = square


def stack_card(game: PropertyGame, deck: str, effect: str, **match: Any) -> int:
    """Move the first card of ``deck`` with that effect (and fields) to the top; return its id."""
    for cid in game.decks[deck]:
        card = game.edition.cards[cid]
        if card.effect == effect and all(getattr(card, k) == v for k, v in match.items()):
            game.decks[deck].remove(cid)
            game.decks[deck].insert(0, cid)
            return cid
    raise AssertionError(f"no {effect} card {match} in {deck}")


def kinds(events: Sequence[Any]) -> list[str]:
    return [e.kind for e in events]


def money_total(game: PropertyGame) -> int:
    """Players' cash plus the pot minus what the bank paid out: constant through a game."""
    return sum(game.cash) + game.pot - game.bank_flow


PASSIVE = {
    "buy_or_auction": lambda p: monopoly.DeclineProperty(p),
    "bid": lambda p: monopoly.PassBid(p),
    "tax_choice": lambda p: monopoly.ChooseTax(p, False),
    "raise_funds": lambda p: monopoly.PayDebt(p),
    "answer_trade": lambda p: monopoly.RejectTrade(p),
    "end_turn": lambda p: monopoly.EndTurn(p),
}


def settle(game: PropertyGame) -> None:
    """Answer passively (decline, pass, flat tax, pay) until someone must throw the dice."""
    while game.pending and game.pending.kind in PASSIVE:
        kind = game.pending.kind
        game.apply(PASSIVE[kind](game.pending.player))
        if kind == "end_turn":
            return

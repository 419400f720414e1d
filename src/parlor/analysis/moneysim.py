"""Count the money the engine moves per turn in real games, to check :mod:`parlor.analysis.money`.

The players follow the scripted policy of :mod:`parlor.analysis.scripted` (decline every property,
pass every bid, leave jail at once by paying or throw for doubles), and: they
never use a jail card (so once every jail card has been drawn the decks are the chain's
``jail_cards="held"``, and counting starts then), and at an income-tax choice they take the
cheaper way for their total worth. ``setup`` may set the table up before play (the tests give a
player buildings and everyone a deep purse), as rule-scenario tests do.

Only ``new_game``, ``pending``, ``apply``, the events and ``total_worth`` are used. What is
counted, per batch of consecutive turns (all players' turns, :data:`COLUMNS`): each player's taxes,
fines, pay and collect cards, repairs, money between players by card, the pot collected and the
landings on free parking; seat 0's turns and repairs alone (the tests give seat 0 the buildings);
and the money the rules predict from the mover's worth at the start of each turn
(``expect(worth)``: the percent income tax, Matador's worth-limited card).

>>> from parlor.analysis.moneysim import play
>>> c = play("classic", turns=200, batches=2, players=2, seed=1)
>>> c.rows.shape, int(c.column("turns").sum())
((2, 18), 200)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from parlor import monopoly
from parlor.analysis import scripted
from parlor.analysis.markov import FloatArray, JailStrategy
from parlor.core.game import Event
from parlor.monopoly.game import PropertyGame

BANK, POT = -1, -2  # creditors in "paid" events (parlor.monopoly.frames)

COLUMNS: tuple[str, ...] = (
    "turns",  # counted turns, all players
    "tax",
    "fines",
    "card_pay",  # "pay" cards, to the bank or the pot
    "card_collect",  # the bank's "collect" cards
    "repairs",
    "from_each",  # received by the drawer of "collect from every player", per payer
    "to_each",  # paid by the drawer of "pay every player", per receiver
    "worth_card",  # Matador's worth-limited card, collected
    "pot_in",  # everything paid into the pot
    "pot_out",  # everything collected from it
    "pot_landings",  # landings that collected a (non-empty) pot
    "parking_landings",  # moves ending on free parking
    "turns_seat0",
    "repairs_seat0",
    "rent_seat0",  # rent paid to seat 0
    "expect_tax",  # sum over turns of expect(worth)[0]: the predicted tax at the turn's worth
    "expect_worth_card",  # the same for the worth-limited card
)


@dataclass(frozen=True, slots=True)
class MoneyCounts:
    """One row per batch of consecutive turns, :data:`COLUMNS` as columns."""

    rows: FloatArray
    pots: list[int]  # each pot collected, in order

    def column(self, name: str) -> FloatArray:
        out: FloatArray = self.rows[:, COLUMNS.index(name)]
        return out


def play(
    edition: str = "classic",
    turns: int = 20_000,
    batches: int = 40,
    players: int = 3,
    seed: int = 0,
    jail: JailStrategy = "leave",
    options: Mapping[str, Any] | None = None,
    setup: Callable[[PropertyGame], None] | None = None,
    expect: Callable[[int], tuple[float, float]] | None = None,
    burn_in: int = 20,
    game_turns: int | None = None,
    wait_for_jail_cards: bool = True,
    use_jail_cards: bool = False,
) -> MoneyCounts:
    """Play one game of ``players`` (another if it ends, or after ``game_turns`` counted turns),
    counting ``turns`` turns in ``batches`` rows of consecutive turns (see the module's text).
    ``wait_for_jail_cards=False`` counts from the ``burn_in`` on, before every jail card is out
    (for figures the jail cards hardly move: the income tax square's landings differ by 0.2%).
    ``use_jail_cards``: under "leave", a player holding a jail card uses it instead of paying
    (the card goes back under its deck; the tables' ``jail_cards="deck"`` convention)."""
    if use_jail_cards and wait_for_jail_cards:
        raise ValueError("used jail cards come back: there is no waiting for them all to be out")
    if batches < 1 or turns % batches:
        raise ValueError("turns must be a positive multiple of batches")
    rows = np.zeros((batches, len(COLUMNS)))
    pots: list[int] = []
    counted = 0
    while counted < turns:
        stop = turns if game_turns is None else min(turns, counted + game_turns)
        counted = _play(
            edition, seed, players, jail, options, setup, expect, burn_in, stop, counted, rows,
            turns // batches, pots, wait_for_jail_cards, use_jail_cards,
        )  # fmt: skip
        seed += 1_000_003
    return MoneyCounts(rows, pots)


def _play(
    edition: str,
    seed: int,
    players: int,
    jail: JailStrategy,
    options: Mapping[str, Any] | None,
    setup: Callable[[PropertyGame], None] | None,
    expect: Callable[[int], tuple[float, float]] | None,
    burn_in: int,
    wanted: int,
    counted: int,
    rows: FloatArray,
    batch: int,
    pots: list[int],
    wait_for_jail_cards: bool,
    use_jail_cards: bool,
) -> int:
    game = monopoly.new_game(edition, players=players, seed=seed, options=options)
    if setup is not None:
        setup(game)
    ed = game.edition
    col = {name: i for i, name in enumerate(COLUMNS)}
    parking = {sq.index for sq in ed.squares if sq.kind == "free_parking"}
    loose = [
        sum(1 for c in ed.cards if c.effect == "get_out_of_jail") if wait_for_jail_cards else 0
    ]
    pot_rule = bool((options or {}).get("free_parking_pot", False))
    held = [0] * players
    played = 0
    counting = False
    acc = np.zeros(len(COLUMNS))

    def add(name: str, amount: float) -> None:
        if counting:
            acc[col[name]] += amount

    def follow(events: list[Event]) -> None:
        for e in events:
            k, d = e.kind, e.data
            if k == "card":
                card = ed.cards[d["card"]]
                if card.effect == "get_out_of_jail":
                    loose[0] -= wait_for_jail_cards
                    held[d["player"]] += 1
                elif card.effect == "collect":
                    add("card_collect", card.amount)
            elif k == "moved" and d["to"] in parking:
                add("parking_landings", 1)
            elif k == "pot_collected":
                add("pot_out", d["amount"])
                add("pot_landings", 1)
                if counting:
                    pots.append(int(d["amount"]))
            elif k == "collected":
                add("worth_card", d["amount"])
            elif k == "paid":
                who, to, amount, reason = d["player"], d["to"], d["amount"], d["reason"]
                if to == POT:
                    add("pot_in", amount)
                if reason == "tax":
                    add("tax", amount)
                elif reason == "jail fine":
                    add("fines", amount)
                elif reason == "rent" and to == 0:
                    add("rent_seat0", amount)
                elif reason == "repairs":
                    add("repairs", amount)
                    if who == 0:
                        add("repairs_seat0", amount)
                elif reason == "card" and to in (BANK, POT):
                    add("card_pay", amount)
                elif reason == "card" and to == mover[0]:
                    add("from_each", amount)
                elif reason == "card":
                    add("to_each", amount)

    mover = [-1]
    while counted < wanted:
        dec = game.pending
        if dec is None:  # the game ended: the caller starts another
            break
        p, kind = dec.player, dec.kind
        if kind in ("start_turn", "jail") and mover[0] != p:
            mover[0] = p
            counting = played >= burn_in and not loose[0]
            acc[:] = 0.0
            if counting and expect is not None:
                tax, card = expect(game.total_worth(p))
                acc[col["expect_tax"]] += tax
                acc[col["expect_worth_card"]] += card
        use_card = kind == "jail" and jail == "leave" and use_jail_cards and held[p] > 0
        step = scripted.answer(game, dec, jail=jail, use_jail_card=use_card, cheaper_tax=True)
        follow(step.events)
        if isinstance(step.action, monopoly.UseJailCard):
            held[p] -= 1
        elif isinstance(step.action, monopoly.PayJailFine):  # paid with no "paid" event
            add("fines", ed.jail_fine)
            add("pot_in", ed.jail_fine if pot_rule else 0)
        elif kind == "end_turn":
            if counting:
                acc[col["turns"]] += 1
                if p == 0:
                    acc[col["turns_seat0"]] += 1
                rows[counted // batch] += acc
                counted += 1
            acc[:] = 0.0
            mover[0] = -1
            played += 1
    return counted

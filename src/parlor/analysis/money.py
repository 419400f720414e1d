"""The money the rules move per turn, exactly, from one solved uniform-card chain.

Everything here is an expected amount per turn of ONE player (the mover), from the chain's
stationary vector and the edition's data; nothing depends on the table but where it says so:

* salary (every forward move reaching or passing Go; twice on landing under double salary);
* flat taxes, and the percent income-tax choice as a function of the mover's total worth;
* jail fines (paid at once under "leave", after the last failed throw under "stay");
* the bank's collect / pay cards; the cards between players (money per turn from, and to, EACH
  other player); Matador's "collect if your worth is at most ..." card (when eligible);
* repairs: the expected cost per turn of each house and each hotel the mover holds;
* the free-parking pot house rule: what flows into the pot per turn and what a landing collects.

Card draws per turn are counted card by card: every landing on a card square draws one card, and
a card that moves the token to another card square draws again (the chain's own card model).

>>> from parlor.analysis.markov import MarkovChain
>>> chain = MarkovChain("classic")
>>> m = money_per_turn(chain, chain.solve())
>>> m.percent_breakeven  # 10% of 2,000 is the flat 200
{4: 2000.0}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from parlor.analysis.markov import (
    MAX_CARD_CHAIN,
    N_SQUARES,
    ChainResult,
    FloatArray,
    MarkovChain,
)


@dataclass(frozen=True, slots=True)
class Money:
    """Expected money the rules move per turn of one player (see the module's text)."""

    go_passes: float
    go_landings: float
    salary: float
    tax: float  # every tax square at its flat amount
    bank_cards: float  # collect - pay, bank cards only (as before: between players left out)
    bank_collect: float
    bank_pay: float
    jail_entries: float  # turns that start in jail after being sent there
    forced_exits: float  # "stay": last failed throws, the fine forced
    jail_card_draws: float
    #: per jail card: the holder's mean turns from its draw to its use (under "leave")
    jail_card_hold_turns: dict[int, float]
    players: int  # at the table, for the fines
    jail_fines: float
    repairs_per_house: float  # per house held
    repairs_per_hotel: float  # per hotel held
    from_each: float  # received from each other player ("collect from every player")
    to_each: float  # paid to each other player ("pay every player")
    worth_card: float  # Matador's "collect if worth at most limit": rate x amount
    worth_card_limit: int | None
    parking_landings: float  # landings on the free-parking square per turn
    #: tax squares with the percent choice (under the rule options): square -> landings per turn
    percent_landings: dict[int, float] = field(default_factory=dict)
    percent_flat: dict[int, int] = field(default_factory=dict)
    percent: int = 10

    @property
    def percent_breakeven(self) -> dict[int, float]:
        """Worth at which the percentage equals the flat tax, per square with the choice."""
        return {s: flat * 100 / self.percent for s, flat in self.percent_flat.items()}

    def tax_at_worth(self, worth: float | None) -> float:
        """Expected tax per turn of a player of total ``worth`` who chooses the cheaper way
        (``None``: the flat tax everywhere). The engine rounds the percentage down."""
        tax = self.tax
        if worth is None:
            return tax
        for s, rate in self.percent_landings.items():
            flat = self.percent_flat[s]
            tax -= rate * (flat - min(flat, int(worth) * self.percent // 100))
        return tax

    def pot_inflow(self, houses: float = 0, hotels: float = 0, worth: float | None = None) -> float:
        """Money one player sends the free-parking pot per turn (taxes, fines, pay cards and
        repairs: what the engine's fee sink takes), holding ``houses`` and ``hotels``."""
        return (
            self.tax_at_worth(worth)
            + self.jail_fines
            + self.bank_pay
            + houses * self.repairs_per_house
            + hotels * self.repairs_per_hotel
        )

    def pot_per_landing(self, **holdings: float) -> float | None:
        """The pot a landing on free parking collects, on average over a long game of players
        alike: in the long run all that flows in flows out, and N players land N x
        ``parking_landings`` times per round while paying in N x ``pot_inflow``; so a landing
        takes inflow / landings per turn, whatever N (and a player collects, on average, what
        they pay in: the pot moves money between players, not out of play)."""
        if self.parking_landings <= 0:
            return None
        return self.pot_inflow(**holdings) / self.parking_landings


def money_per_turn(chain: MarkovChain, result: ChainResult, players: int = 4) -> Money:
    """The expected money of one turn, from the stationary vector of ``chain`` (solved as
    ``result``), at a table of ``players`` (only the fines depend on it).

    Salary is due on every forward move that reaches or passes Go (dice, "advance to" and
    "nearest" cards; not "go back" cards nor jail), as the engine pays it; under
    ``double_salary_on_go`` a move ending on Go pays twice. Fines: under "leave" the fine is paid
    on every jail turn but those a jail card pays for. With ``jail_cards="deck"`` a player holding
    a card uses it at the next visit, and it goes back to its deck: each card cycles between the
    deck (drawn by ``players`` players, each at its rate r per own turn) and a holder (for the
    mean number T of the holder's turns from its draw to the next turn that starts in jail,
    computed exactly from the chain), so it is in the deck a share 1 / (1 + players x r x T) of
    the time, and saves r / (1 + players x r x T) fines per turn of each player (a mean-field
    reading: the deck is taken as full while a card is out). With ``"held"`` the cards are kept
    for good and every visit pays. Under "stay" the fine is paid after the last failed throw (a
    held card is not used)."""
    ed = chain.edition
    go = ed.go_square
    n = chain.n_states
    n_cards = len(ed.cards)
    jail_ids = [c.id for c in ed.cards if c.effect == "get_out_of_jail"]
    # passes, landings on Go, draws of each card, then per jail card where it was drawn (40 each)
    width = 2 + n_cards + N_SQUARES * len(jail_ids)
    at = {cid: 2 + n_cards + N_SQUARES * k for k, cid in enumerate(jail_ids)}
    per_state = np.zeros((n, width))

    def forward(frm: int, steps: int) -> tuple[float, float]:
        if steps <= 0 or frm + steps < N_SQUARES + go:
            return 0.0, 0.0
        return 1.0, 1.0 if (frm + steps) % N_SQUARES == go else 0.0

    memo: dict[int, FloatArray] = {}

    def follow(square: int, depth: int) -> FloatArray:
        out = np.zeros(width)
        deck = chain.deck_at(square)
        if ed.squares[square].kind == "go_to_jail" or deck is None or depth >= MAX_CARD_CHAIN:
            return out
        drawn = chain.decks[deck]
        share = 1.0 / len(drawn)
        for card in drawn:
            out[2 + card.id] += share
            if card.id in at:
                out[at[card.id] + square] += share
            arrival, moved = chain.card_outcome(square, card)
            if not moved:
                continue
            to = arrival.square
            steps = card.steps if card.effect == "move_relative" else (to - square) % N_SQUARES
            if card.effect == "move_to" and steps == 0 and to == go:
                steps = N_SQUARES
            p, g = forward(square, steps)
            out[0] += share * p
            out[1] += share * g
            out += share * follow(to, depth + 1)
        return out

    for s in range(n):
        frm = s // 3 if s < chain.n_free else chain.jail_square
        for t in chain.throws(s):
            if t.to is None:
                continue
            p, g = forward(frm, t.total)
            if t.to not in memo:
                memo[t.to] = follow(t.to, 0)
            per_state[s, 0] += t.p * p
            per_state[s, 1] += t.p * g
            per_state[s] += t.p * memo[t.to]
    pi: FloatArray = result.stationary
    tpt = result.throws_per_turn  # per throw -> per turn
    totals = (pi @ per_state) * tpt
    go_passes, go_landings = float(totals[0]), float(totals[1])
    draws = totals[2 : 2 + n_cards]
    salary = ed.salary * go_passes
    if chain.options.double_salary_on_go:
        salary += ed.salary * go_landings

    def by_effect(effect: str, value: str = "amount") -> float:
        return float(sum(draws[c.id] * getattr(c, value) for c in ed.cards if c.effect == effect))

    land = result.landings.count
    tax = 0.0
    percent_landings: dict[int, float] = {}
    percent_flat: dict[int, int] = {}
    parking = 0.0
    for sq in ed.squares:
        if sq.kind == "tax":
            tax += float(land[sq.index]) * sq.tax
            if sq.tax_percent_option and chain.options.income_tax_choice:
                percent_landings[sq.index] = float(land[sq.index])
                percent_flat[sq.index] = sq.tax
        elif sq.kind == "free_parking":
            parking += float(land[sq.index])
    entries = float(pi[chain.jailed(0)]) * tpt
    forced = 0.0
    card_draws = float(sum(draws[c] for c in jail_ids))
    hold: dict[int, float] = {}
    if chain.jail == "leave":
        paid = entries
        if card_draws > 0:
            hold = _hold_turns(chain, pi, memo, at)
            for cid, turns in hold.items():
                r = float(draws[cid])
                paid -= r / (1 + players * r * turns)
    else:
        last = chain.jailed(chain.max_jail - 1)
        forced = float(pi[last]) * tpt * 30 / 36  # no doubles on the last throw
        paid = forced
    worth_cards = [c for c in ed.cards if c.effect == "collect_if_worth_at_most"]
    collect, pay = by_effect("collect"), by_effect("pay")
    return Money(
        go_passes=go_passes,
        go_landings=go_landings,
        salary=salary,
        tax=tax,
        bank_cards=collect - pay,
        bank_collect=collect,
        bank_pay=pay,
        jail_entries=entries,
        forced_exits=forced,
        jail_card_draws=card_draws,
        jail_card_hold_turns=hold,
        players=players,
        jail_fines=max(paid, 0.0) * ed.jail_fine,
        repairs_per_house=by_effect("repairs", "per_house"),
        repairs_per_hotel=by_effect("repairs", "per_hotel"),
        from_each=by_effect("collect_from_each"),
        to_each=by_effect("pay_each"),
        worth_card=by_effect("collect_if_worth_at_most"),
        worth_card_limit=worth_cards[0].limit if worth_cards else None,
        parking_landings=parking,
        percent_landings=percent_landings,
        percent_flat=percent_flat,
        percent=ed.income_tax_percent,
    )


#: Worths of the income-tax table, as fractions of the break-even worth (where 10% = flat).
WORTH_STEPS: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 4.0)


def income_tax_rows(
    m: Money, result: ChainResult, edition: str, scenario: str
) -> list[dict[str, Any]]:
    """The percent income-tax choice, per tax square that has it: at each worth (multiples of the
    break-even worth, plus the edition's starting cash) the tax a player choosing the cheaper way
    pays there and the expected tax per turn (that square, and every tax square)."""
    ed = result.edition
    rows: list[dict[str, Any]] = []
    for square, breakeven in m.percent_breakeven.items():
        flat = m.percent_flat[square]
        rate = m.percent_landings[square]
        worths = sorted({round(f * breakeven) for f in WORTH_STEPS} | {ed.starting_cash})
        for worth in worths:
            percent_tax = worth * m.percent // 100
            chosen = min(flat, percent_tax)
            rows.append(
                {
                    "edition": edition,
                    "scenario": scenario,
                    "jail": result.jail,
                    "square": square,
                    "name": ed.square_name(square),
                    "flat_tax": flat,
                    "percent": m.percent,
                    "breakeven_worth": breakeven,
                    "worth": worth,
                    "percent_tax": percent_tax,
                    "chosen_tax": chosen,
                    "landings_per_turn": rate,
                    "expected_tax_per_turn": rate * chosen,
                    "all_taxes_per_turn": m.tax_at_worth(worth),
                    "saving_per_turn": rate * (flat - chosen),
                }
            )
    return rows


def _hold_turns(
    chain: MarkovChain, pi: FloatArray, memo: dict[int, FloatArray], at: dict[int, int]
) -> dict[int, float]:
    """Per jail card: the mean number of its holder's turns from its draw to the next turn that
    starts in jail (where "leave" uses it). h(s), the expected turn starts from state s until
    the token arrives in jail, solves h = b + A h, A the transitions but into jail, b the chance
    that the next state starts a turn; the draw leaves the token on the card square with the
    throw's doubles count, so the mean is over where and after which throw each draw happens."""
    trans = chain.matrices()[0]
    n = chain.n_states
    jail0 = chain.jailed(0)
    starts = np.zeros(n)
    starts[[chain.free(q, 0) for q in range(N_SQUARES)]] = 1.0
    starts[chain.n_free :] = 1.0
    b = trans @ starts
    a = trans.copy()
    a[:, jail0] = 0.0
    h = np.linalg.solve(np.eye(n) - a, b)
    total = {cid: 0.0 for cid in at}
    weight = {cid: 0.0 for cid in at}
    for s in range(n):
        if pi[s] == 0:
            continue
        for t in chain.throws(s):
            if t.to is None:
                continue
            vec = memo[t.to]
            for cid, base in at.items():
                where = vec[base : base + N_SQUARES]
                for q in np.flatnonzero(where):
                    w = float(pi[s]) * t.p * float(where[q])
                    total[cid] += w * float(h[chain.free(int(q), t.again)])
                    weight[cid] += w
    return {cid: total[cid] / weight[cid] for cid in at if weight[cid] > 0}

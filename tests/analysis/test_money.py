"""The money tables (parlor.analysis.money) against long seeded games played by the engine.

Each figure of the chain is compared with the engine's per-turn average over one long game (a new
one if it ends), its standard error measured between batches of consecutive turns (the batches are
far longer than the few hundred throws over which a token forgets where it was). The games are
played with the free-parking pot on, jail cards kept and never used (so the chain to compare with
is ``jail_cards="held"``, counted once every jail card is out), every player with a deep purse so
that no debt ever interrupts a turn. Tolerance: every |z| below 4.5.

Rule clauses: Millennium rulebook "Chance and Community Chest" (repairs: "pay $25 for each house,
$100 for each hotel"; "pay each player $50", "collect $50 from every player"), "Income Tax" (10% of
total worth or $200), "Jail" (the fine); Free Parking pot: the engine's house rule
(``free_parking_pot``: taxes, fines and payments to the bank go to the pot, a move ending on Free
Parking takes it). Matador's "Matador-legat" (collect 40,000 if worth at most 15,000).
"""

from __future__ import annotations

import numpy as np
import pytest

from parlor.analysis.markov import JailStrategy, MarkovChain
from parlor.analysis.money import Money, money_per_turn
from parlor.analysis.moneysim import COLUMNS, MoneyCounts, play
from parlor.analysis.tables import deed_rows
from parlor.monopoly.game import PropertyGame
from tests.monopoly import kit

TOLERANCE = 4.5
POT = {"free_parking_pot": True}


def _money(edition: str, jail: JailStrategy, options: dict[str, object] | None = None) -> Money:
    chain = MarkovChain(edition, options, jail=jail, jail_cards="held")
    return money_per_turn(chain, chain.solve())


def _z(counts: MoneyCounts, name: str, want: float, per: str = "turns") -> float:
    """z-score of the per-``per`` average of column ``name`` against ``want`` (batch means)."""
    return _ratio_z(counts.column(name), counts.column(per), want, name)


def _ratio_z(num: np.ndarray, den: np.ndarray, want: float, name: str) -> float:
    ratio = float(num.sum() / den.sum())
    resid = num - ratio * den  # the ratio estimator's error, batch by batch
    b = len(num)
    se = float(np.sqrt((resid**2).sum() / (b * (b - 1))) / den.mean())
    if se == 0:
        assert ratio == pytest.approx(want, abs=1e-12), name
        return 0.0
    return (ratio - want) / se


def _rich(game: PropertyGame) -> None:
    for p in range(game.num_players):
        game.cash[p] = 10**8


@pytest.mark.parametrize(("edition", "jail"), [("classic", "leave"), ("matador", "stay")])
def test_fees_cards_and_pot_match_the_engine(edition: str, jail: JailStrategy) -> None:
    """Taxes, fines, the bank's cards, cards between players and the pot, per turn; and the pot a
    landing on free parking collects: inflow / landings per turn (three players alike)."""
    m = _money(edition, jail, POT)
    counts = play(edition, turns=18_000, batches=45, players=3, seed=7, jail=jail, options=POT)
    others = 2
    checks = {
        "tax": m.tax,
        "fines": m.jail_fines,
        "card_pay": m.bank_pay,
        "card_collect": m.bank_collect,
        # per mover's turn, from (to) each of the two others
        "from_each": m.from_each * others,
        "to_each": m.to_each * others,
        "parking_landings": m.parking_landings,
        "pot_in": m.pot_inflow(),
        "pot_out": m.pot_inflow(),  # what flows in flows out: a player collects what they pay
    }
    for name, want in checks.items():
        z = _z(counts, name, want)
        assert abs(z) < TOLERANCE, f"{edition} {jail} {name}: z = {z:.2f}"
    want = m.pot_per_landing()
    assert want is not None
    z = _z(counts, "pot_out", want, per="parking_landings")
    assert abs(z) < TOLERANCE, f"pot per landing: z = {z:.2f}"
    # Everything paid in came from the fee columns (no repairs: nobody builds).
    assert counts.column("pot_in").sum() == pytest.approx(
        sum(counts.column(c).sum() for c in ("tax", "fines", "card_pay"))
    )
    # The pot is often empty when someone lands (two landings close together).
    assert 0 < len(counts.pots) <= counts.column("parking_landings").sum()


def test_repairs_per_house_and_hotel_match_the_engine() -> None:
    """Seat 0 holds 8 houses and 1 hotel: its repairs per own turn = 8 x the per-house rate +
    the per-hotel rate (both cards of classic: 25/100 and 40/115); others pay nothing."""

    def setup(game: PropertyGame) -> None:
        _rich(game)
        kit.give(game, 0, 1, 3, 37, 39)
        kit.build(game, 1, 5)  # a hotel
        kit.build(game, 3, 4)
        kit.build(game, 37, 2)
        kit.build(game, 39, 2)

    m = _money("classic", "leave")
    counts = play("classic", turns=24_000, batches=48, players=2, seed=11, setup=setup)
    want = 8 * m.repairs_per_house + m.repairs_per_hotel
    assert counts.column("repairs").sum() == counts.column("repairs_seat0").sum() > 0
    z = _z(counts, "repairs_seat0", want, per="turns_seat0")
    assert abs(z) < TOLERANCE, f"repairs: z = {z:.2f} ({want:.3f} expected per own turn)"
    # The card rates themselves (Millennium: Chance 25/100, Community Chest 40/115).
    assert m.repairs_per_house == pytest.approx(
        sum(r * c for r, c in zip(_card_rates(m), (25, 40), strict=True))
    )


def _card_rates(m: Money) -> tuple[float, float]:
    """The draw rates per turn of classic's two repairs cards, from the per-hotel and per-house
    rates (two equations, two unknowns): a check that both cards are counted."""
    a = np.array([[25.0, 40.0], [100.0, 115.0]])
    x = np.linalg.solve(a, np.array([m.repairs_per_house, m.repairs_per_hotel]))
    return float(x[0]), float(x[1])


@pytest.mark.parametrize(("edition", "game_turns"), [("classic", 400), ("matador", 100)])
def test_income_tax_choice_and_worth_card_match_the_engine(edition: str, game_turns: int) -> None:
    """A player of modest means (no rent ever: everyone declines every deed) takes the cheaper
    income tax; the engine's taxes per turn equal the tables' tax_at_worth summed over each turn's
    worth, and Matador's worth-limited card pays only while worth <= 15,000."""
    m = _money(edition, "leave")
    limit = m.worth_card_limit

    def expect(worth: int) -> tuple[float, float]:
        card = m.worth_card if limit is not None and worth <= limit else 0.0
        return m.tax_at_worth(worth), card

    def setup(game: PropertyGame) -> None:
        # Start poor so that the percentage (and Matador's card) matters for a while; a fresh
        # game every game_turns turns starts poor again.
        for p in range(game.num_players):
            game.cash[p] = game.edition.starting_cash // 4

    counts = play(
        edition,
        turns=12_000,
        batches=40,
        players=2,
        seed=3,
        setup=setup,
        expect=expect,
        game_turns=game_turns,
        wait_for_jail_cards=False,
    )
    z = _z(counts, "tax", float(counts.column("expect_tax").sum() / counts.column("turns").sum()))
    assert abs(z) < TOLERANCE, f"income tax: z = {z:.2f}"
    flat = counts.column("turns").sum() * m.tax
    assert counts.column("tax").sum() < flat  # the choice saved money
    if limit is not None:
        got = counts.column("worth_card").sum() / counts.column("turns").sum()
        want = counts.column("expect_worth_card").sum() / counts.column("turns").sum()
        assert want > 0
        z = _z(counts, "worth_card", float(want))
        assert abs(z) < TOLERANCE, f"worth card: z = {z:.2f} ({got:.1f} vs {want:.1f})"


def test_columns_are_the_counts() -> None:
    assert COLUMNS[0] == "turns" and len(set(COLUMNS)) == len(COLUMNS)


def test_no_rent_while_the_owner_is_jailed_matches_the_engine() -> None:
    """Matador ("no rent while in jail", rent_while_jailed=false): the rent seat 0 collects per
    opponent turn is the tables' rent_collected_per_opponent_turn (the expected rent times the
    share of the owner's turns that end in jail), both players staying in jail (11% of turns)."""
    ed = "matador"
    group = (37, 39)

    def setup(game: PropertyGame) -> None:
        _rich(game)
        kit.give(game, 0, *group)
        for sq in group:
            kit.build(game, sq, 2)

    chain = MarkovChain(ed, jail="stay", jail_cards="held")
    r = chain.solve()
    rows = [
        row
        for row in deed_rows(r, ed, "standard")
        if row["square"] in group and row["level"] == "2 houses"
    ]
    want = sum(row["rent_collected_per_opponent_turn"] for row in rows)
    due = sum(row["expected_rent_per_opponent_turn"] for row in rows)
    assert want == pytest.approx(due * (1 - r.per_turn.in_jail)) and want < 0.9 * due
    counts = play(ed, turns=24_000, batches=48, players=2, seed=5, jail="stay", setup=setup)
    opponent_turns = counts.column("turns") - counts.column("turns_seat0")
    z = _ratio_z(counts.column("rent_seat0"), opponent_turns, want, "rent")
    assert abs(z) < TOLERANCE, f"rent collected: z = {z:.2f}"


@pytest.mark.parametrize("edition", ["classic", "matador"])
def test_fines_when_jail_cards_are_used_match_the_engine(edition: str) -> None:
    """Leaving jail at once with a held card when there is one (it goes back under its deck),
    else paying: the fines per turn at a table of three are the tables' figure (each card in the
    deck 1 / (1 + 3 r T) of the time), not "every visit pays" nor "every card drawn saves one"."""
    chain = MarkovChain(edition)
    r = chain.solve()
    m = money_per_turn(chain, r, players=3)
    counts = play(
        edition,
        turns=20_000,
        batches=50,
        players=3,
        seed=9,
        setup=_rich,
        use_jail_cards=True,
        wait_for_jail_cards=False,
    )
    z = _z(counts, "fines", m.jail_fines)
    assert abs(z) < TOLERANCE, f"fines: z = {z:.2f}"
    fine = r.edition.jail_fine
    assert m.jail_entries * fine > m.jail_fines > (m.jail_entries - m.jail_card_draws) * fine

"""The exact chain, checked against itself, published figures and long games played by the engine."""

from __future__ import annotations

import os

import numpy as np
import pytest

from parlor.analysis import JAIL, MarkovChain, analyse
from parlor.analysis.markov import JAIL_STRATEGIES, N_SQUARES
from parlor.analysis.rents import property_rents
from parlor.analysis.simulate import Counts, simulate
from parlor.core.errors import SettingsError
from parlor.monopoly.edition import EDITION_IDS

SEED = int(os.environ.get("PARLOR_ANALYSIS_SEED", "20240601"))


@pytest.mark.parametrize("edition", EDITION_IDS)
@pytest.mark.parametrize("jail", JAIL_STRATEGIES)
def test_probabilities_sum_to_one(edition: str, jail: str) -> None:
    chain = MarkovChain(edition, jail=jail)  # type: ignore[arg-type]
    trans, *_ = chain.matrices()
    assert np.allclose(trans.sum(axis=1), 1.0)
    r = chain.solve()
    assert r.per_roll.total == pytest.approx(1.0, abs=1e-12)
    assert r.per_turn.total == pytest.approx(1.0, abs=1e-12)
    assert (r.stationary >= 0).all()
    go_to_jail = [s.index for s in r.edition.squares if s.kind == "go_to_jail"]
    assert all(r.per_turn.squares[i] == 0 for i in go_to_jail)
    # Each turn has one last throw; the others are the doubles that came before it.
    assert 1.0 < r.throws_per_turn < 1.0 + 1 / 6 + 1 / 36 + 1e-9
    assert r.landings.count.sum() <= r.throws_per_turn


def test_classic_matches_published_figures() -> None:
    """Published per-roll figures (e.g. Truman Collins's tables): In Jail 3.95% leaving at once and
    9.39% staying; Illinois Avenue is the most landed street; Go and B&O follow near 3.1%."""
    leave, stay = analyse("classic", jail="leave"), analyse("classic", jail="stay")
    assert leave.per_roll.in_jail == pytest.approx(0.0395, abs=0.0005)
    assert stay.per_roll.in_jail == pytest.approx(0.0939, abs=0.0005)
    for r in (leave, stay):
        ranked = [s for s, _ in r.per_roll.ranked()]
        assert ranked[0] == JAIL
        assert ranked[1] == 24  # Illinois Avenue
        streets = [s for s in ranked if s >= 0 and r.edition.squares[s].kind == "street"]
        assert streets[0] == 24
    assert leave.per_roll.squares[24] == pytest.approx(0.0319, abs=0.0003)
    assert leave.per_roll.squares[0] == pytest.approx(0.0310, abs=0.0003)
    assert stay.per_roll.squares[24] == pytest.approx(0.0299, abs=0.0003)
    # Per turn the figures are higher for jail: a turn ends in jail, whatever doubles came before.
    assert leave.per_turn.in_jail > leave.per_roll.in_jail


def test_expected_rent_and_payback() -> None:
    r = analyse("classic", jail="leave")
    table = {p.square: p for p in property_rents(r)}
    boardwalk = table[39]
    levels = {lv.label: lv for lv in boardwalk.levels}
    assert levels["rent"].expected == pytest.approx(r.landings.rent_weight[39] * 50)
    assert levels["group"].expected == pytest.approx(2 * levels["rent"].expected)
    extra = levels["1 house"].expected - levels["group"].expected
    assert levels["1 house"].payback_turns == pytest.approx(200 / extra)
    # Reading Railroad gets the "nearest railroad, pay twice" cards: weight above plain landings.
    assert r.landings.rent_weight[5] > r.landings.count[5]
    water = {lv.label: lv for lv in table[28].levels}
    assert water["2 owned"].expected > 7 * 10 * r.landings.count[28] * 0.9


def test_bad_arguments_are_settings_errors() -> None:
    with pytest.raises(SettingsError):
        MarkovChain("classic", jail="sometimes")  # type: ignore[arg-type]
    with pytest.raises(SettingsError):
        MarkovChain("classic", {"jail_max_turns": 9})
    with pytest.raises(SettingsError):
        MarkovChain("nowhere")


def _z_scores(rows: np.ndarray, exact: np.ndarray) -> np.ndarray:
    """Each square's mean frequency over games, minus the exact figure, in standard errors measured
    between games (a game's deck order is fixed, so games, not throws, are the independent units)."""
    freq = rows / rows.sum(axis=1, keepdims=True)
    se = freq.std(axis=0, ddof=1) / np.sqrt(len(freq))
    diff = freq.mean(axis=0) - exact
    # A square never reached (Go To Jail) must never be counted.
    assert np.all(diff[exact == 0] == 0)
    return np.where(exact > 0, diff / np.where(se > 0, se, 1.0), 0.0)


@pytest.mark.parametrize("jail", JAIL_STRATEGIES)
def test_engine_games_agree_with_the_exact_chain(jail: str) -> None:
    """THE check: 150,000 turns of 2-player classic games, played by the engine with a policy that
    keeps money out of play, land where the chain says, square by square, per roll and per turn.

    The players keep any jail card they draw (leaving jail by paying, or by doubles), so in the long
    run the decks lack those cards: the chain's ``jail_cards="held"``.
    """
    exact = analyse("classic", jail=jail, jail_cards="held")  # type: ignore[arg-type]
    counts: Counts = simulate(
        "classic",
        games=50,
        game_turns=3_000,
        seed=SEED,
        jail=jail,  # type: ignore[arg-type]
        use_jail_cards=False,
    )
    assert counts.off_strategy == 0
    assert counts.turns == 150_000
    for rows, dist in ((counts.turn, exact.per_turn), (counts.roll, exact.per_roll)):
        want = np.append(dist.squares, dist.in_jail)
        z = _z_scores(rows, want)
        worst = int(np.abs(z).argmax())
        assert abs(z[worst]) < 4.5, f"square {worst}: z = {z[worst]:.2f}"
        # All 41 together: a chi-square-like sum (about 41 x 50/47 expected by chance).
        assert float((z**2).sum()) < 90, f"sum of z^2 = {(z**2).sum():.1f}"
    assert counts.throws / counts.turns == pytest.approx(exact.throws_per_turn, rel=0.01)


def test_engine_games_agree_for_matador_rules() -> None:
    """Matador: one 46-card deck, jail fine on any turn, and an extra throw after leaving jail with
    doubles (jail_doubles_extra_throw), which only the "stay" strategy exercises."""
    exact = analyse("matador", jail="stay", jail_cards="held")
    counts = simulate("matador", games=30, game_turns=2_000, seed=SEED + 1, jail="stay")
    for rows, dist in ((counts.turn, exact.per_turn), (counts.roll, exact.per_roll)):
        z = _z_scores(rows, np.append(dist.squares, dist.in_jail))
        assert np.abs(z).max() < 4.5
        assert float((z**2).sum()) < 95


def test_cards_that_send_on_are_followed() -> None:
    """Classic Chance "go back three spaces" from square 36 lands on Community Chest 33, which is
    drawn in turn; the outcome probabilities still add up to one."""
    chain = MarkovChain("classic")
    outcomes = chain.resolve(36)
    assert sum(p for p, _ in outcomes) == pytest.approx(1.0)
    assert any(a.square == 0 for _, a in outcomes)  # Go via either deck
    assert N_SQUARES == 40

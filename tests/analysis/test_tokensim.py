"""The exact chain and the money per turn against a long seeded simulation of one token, for
every edition, both jail strategies and the short game's jail rule.

Tolerance: each of the 41 figures (40 squares and In Jail, per throw and per turn) must be within
5 standard errors of the exact value, the standard error being the larger of the binomial one,
sqrt(p (1 - p) / n) over n throws or turns, and the one measured between 50 batches of consecutive
turns. The binomial error is right for a square a token leaves at once (measured: the batch error
is 0.9-1.0 times it); In Jail under "stay" lasts several turns, so its counts come in runs and the
batch error is about 1.7 times the binomial one (measured), which the batches catch. At 5 standard
errors a square fails by chance with probability below 1e-6 (about 5e-4 over the 820 figures of
this file); the seed is fixed, and PARLOR_ANALYSIS_SEED varies it. A real modelling error (a card
misread, a jail rule off) moves a figure by far more: with 100,000 turns the binomial error of a 3%
square is 0.05 points.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from parlor.analysis.markov import JAIL_STRATEGIES, JailStrategy, MarkovChain
from parlor.analysis.tables import money_per_turn
from parlor.analysis.tokensim import TokenCounts, simulate_token
from parlor.monopoly.edition import EDITION_IDS

SEED = int(os.environ.get("PARLOR_ANALYSIS_SEED", "20240601"))
TURNS = 100_000
TOLERANCE = 5.0  # standard errors


def _z(rows: np.ndarray, exact: np.ndarray) -> np.ndarray:
    n = rows.sum()
    freq = rows.sum(axis=0) / n
    binomial = np.sqrt(exact * (1 - exact) / n)
    per_batch = rows / rows.sum(axis=1, keepdims=True)
    batch = per_batch.std(axis=0, ddof=1) / np.sqrt(len(rows))
    # A square never reached (Go To Jail) must never be counted.
    assert np.all(freq[exact == 0] == 0)
    se = np.maximum(binomial, batch)
    return np.where(exact > 0, (freq - exact) / np.where(se > 0, se, 1.0), 0.0)


CASES: list[tuple[str, dict[str, str], JailStrategy]] = [
    (e, {}, j) for e in EDITION_IDS for j in JAIL_STRATEGIES
] + [
    # The short game: one jail turn, the fine after a failed throw (and Matador's extra throw).
    ("classic", {"variant": "short"}, "stay"),
    ("matador", {"variant": "short"}, "stay"),
]


@pytest.mark.parametrize(("edition", "options", "jail"), CASES)
def test_simulation_agrees_with_the_chain(
    edition: str, options: dict[str, str], jail: JailStrategy
) -> None:
    chain = MarkovChain(edition, options, jail=jail)
    exact = chain.solve()
    counts: TokenCounts = simulate_token(edition, options, jail, turns=TURNS, seed=SEED)
    assert counts.turns == TURNS
    for rows, dist in ((counts.turn, exact.per_turn), (counts.roll, exact.per_roll)):
        z = _z(rows, np.append(dist.squares, dist.in_jail))
        worst = int(np.abs(z).argmax())
        assert abs(z[worst]) < TOLERANCE, f"square {worst}: z = {z[worst]:.2f}"
        assert float((z**2).sum()) < 90, f"sum of z^2 = {(z**2).sum():.1f} (about 41 by chance)"
    assert counts.roll.sum() / TURNS == pytest.approx(exact.throws_per_turn, rel=0.01)
    # Salary: Go passes and landings per turn (the tables' money_per_turn) against the counts.
    money = money_per_turn(chain, exact)
    per = TURNS / len(counts.go_passes)
    for simulated, want in (
        (counts.go_passes / per, money.go_passes),
        (counts.go_landings / per, money.go_landings),
    ):
        se = simulated.std(ddof=1) / np.sqrt(len(simulated))
        assert abs(simulated.mean() - want) < TOLERANCE * se

"""The exact chain of cycling decks, checked against the whole chain, long engine games played
with one fixed order, and the uniform chain it should come close to when averaged over shuffles."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import numpy as np
import pytest

from parlor.analysis import analyse
from parlor.analysis.cycling import CyclingChain, average, random_orders
from parlor.analysis.markov import JAIL_CARD_MODELS, JAIL_STRATEGIES, ChainResult
from parlor.analysis.simulate import long_game
from parlor.cli.analyze_cmd import main as analyze_main
from parlor.core.errors import SettingsError
from parlor.monopoly.edition import Edition, load_edition

SEED = int(os.environ.get("PARLOR_ANALYSIS_SEED", "20240601"))
NEVER = 1e-12  # an exact figure below this is a square the token never ends a throw on


@pytest.mark.parametrize("edition", ["classic", "matador"])
@pytest.mark.parametrize("jail", JAIL_STRATEGIES)
@pytest.mark.parametrize("jail_cards", JAIL_CARD_MODELS)
def test_distributions_sum_to_one(edition: str, jail: str, jail_cards: str) -> None:
    chain = CyclingChain(edition, jail=jail, jail_cards=jail_cards)  # type: ignore[arg-type]
    r = chain.solve(random_orders(chain.edition, SEED))
    assert r.cards == "cycling"
    assert r.per_roll.total == pytest.approx(1.0, abs=1e-12)
    assert r.per_turn.total == pytest.approx(1.0, abs=1e-12)
    assert (r.stationary >= -1e-15).all()
    go_to_jail = [s.index for s in r.edition.squares if s.kind == "go_to_jail"]
    assert all(r.per_turn.squares[i] == 0 for i in go_to_jail)
    assert 1.0 < r.throws_per_turn < 1.0 + 1 / 6 + 1 / 36 + 1e-9
    assert r.landings.count.sum() <= r.throws_per_turn


@pytest.mark.parametrize(
    ("edition", "jail", "jail_cards"), [("classic", "leave", "deck"), ("matador", "stay", "held")]
)
def test_solution_is_stationary_for_the_whole_chain(
    edition: str, jail: str, jail_cards: str
) -> None:
    """The solver works on the chain seen at draws; the whole chain (state x deck positions, built
    throw by throw) must leave its answer unchanged, and its rows must be distributions."""
    chain = CyclingChain(edition, jail=jail, jail_cards=jail_cards)  # type: ignore[arg-type]
    orders = random_orders(chain.edition, SEED + 1)
    full = chain.full_stationary(orders).ravel()
    rows, cols, probs = chain.transitions(orders)
    assert np.allclose(np.bincount(rows, weights=probs, minlength=full.size), 1.0)
    after = np.bincount(cols, weights=full[rows] * probs, minlength=full.size)
    assert float(np.abs(after - full).sum()) < 1e-11
    assert full.sum() == pytest.approx(1.0)


def _batch_z(rows: np.ndarray, exact: np.ndarray) -> np.ndarray:
    """Each square's frequency over one long game minus the exact figure, in standard errors from
    batch means: the rows are batches of consecutive turns, each far longer than the few hundred
    throws over which the deck positions and the token forget where they were."""
    freq = rows / rows.sum(axis=1, keepdims=True)
    se = freq.std(axis=0, ddof=1) / np.sqrt(len(freq))
    never = exact < NEVER
    assert not freq[:, never].any(), (
        f"counted on squares the chain never reaches: {never.nonzero()}"
    )
    return np.where(never, 0.0, (freq.mean(axis=0) - exact) / np.where(se > 0, se, 1.0))


def _check_game(
    edition: Edition | str, jail: str, turns: int, batches: int, seed: int
) -> tuple[float, float]:
    """Play one long game of a player alone, keeping the jail cards (so the decks end up without
    them, each in one fixed cyclic order, read from ``snapshot()``), and check it against the exact
    chain of that order. Returns the largest sum of z^2 against it and against the uniform chain."""
    game = long_game(
        edition, turns=turns, batches=batches, seed=seed, jail=jail, use_jail_cards=False
    )  # type: ignore[arg-type]
    counts = game.counts
    assert counts.off_strategy == 0
    assert counts.turns == turns
    exact = CyclingChain(edition, jail=jail, jail_cards="held").solve(game.decks_order)  # type: ignore[arg-type]
    uniform = analyse(edition, jail=jail, jail_cards="held")  # type: ignore[arg-type]
    worst = {"cycling": 0.0, "uniform": 0.0}
    for name, r in (("cycling", exact), ("uniform", uniform)):
        for rows, dist in ((counts.turn, r.per_turn), (counts.roll, r.per_roll)):
            want = np.append(dist.squares, dist.in_jail)
            if name == "uniform":  # squares the uniform chain reaches may be out of a cycle's way
                freq = rows / rows.sum(axis=1, keepdims=True)
                se = freq.std(axis=0, ddof=1) / np.sqrt(len(freq))
                z = np.where(se > 0, (freq.mean(axis=0) - want) / np.where(se > 0, se, 1.0), 0.0)
            else:
                z = _batch_z(rows, want)
                top = int(np.abs(z).argmax())
                assert abs(z[top]) < 4.5, f"seed {seed}: square {top}: z = {z[top]:.2f}"
                # All 41 together: about 41 x b/(b-3) expected by chance with b batches.
                assert float((z**2).sum()) < 90, f"seed {seed}: sum of z^2 = {(z**2).sum():.1f}"
            worst[name] = max(worst[name], float((z**2).sum()))
    assert counts.throws / counts.turns == pytest.approx(exact.throws_per_turn, rel=0.01)
    return worst["cycling"], worst["uniform"]


def test_engine_game_agrees_with_its_deck_order_classic() -> None:
    """THE check on the real decks: 150,000 turns of one classic game (a player alone, staying in
    jail for doubles), whose decks keep one cyclic order, land where that order's exact chain says.

    On the real 16-card decks a typical order moves a Chance square by 0.03-0.04 points from the
    uniform chain, one or two standard errors of a game this long, so this game cannot tell the two
    apart (docs/analysis.md: 1.2 million turns begin to); the small-deck test can."""
    _check_game("classic", "stay", turns=150_000, batches=50, seed=SEED)


def small_decks() -> Edition:
    """Classic with three-card decks whose order matters a lot: Chance holds "advance to Chance
    22", "collect" and "go to jail", so a landing on Chance is followed by a second draw at once,
    and which card comes then is fixed by the order (uniform draws would pick afresh). Community
    Chest holds "advance to Go", "go to jail", "collect" and a get-out-of-jail card."""
    ed = load_edition("classic")

    def card(deck: str, effect: str, **changes: int) -> object:
        found = next(c for c in ed.cards if c.deck == deck and c.effect == effect)
        return dataclasses.replace(found, **changes)

    cards = [
        card("chance", "move_to", target=22),
        card("chance", "collect"),
        card("chance", "go_to_jail"),
        card("community_chest", "move_to"),
        card("community_chest", "go_to_jail"),
        card("community_chest", "collect"),
        card("community_chest", "get_out_of_jail"),
    ]
    numbered = tuple(dataclasses.replace(c, id=i) for i, c in enumerate(cards))  # type: ignore[type-var]
    return dataclasses.replace(ed, cards=numbered)


@pytest.mark.parametrize("jail", JAIL_STRATEGIES)
def test_engine_game_agrees_with_its_deck_order_small_decks(jail: str) -> None:
    """With small decks the order matters far beyond sampling error: the engine's game (120,000
    turns) must match its order's exact chain and reject the uniform chain outright."""
    seed = SEED + (7 if jail == "leave" else 8)
    _, uniform = _check_game(small_decks(), jail, turns=120_000, batches=40, seed=seed)
    assert uniform > 200, f"the uniform chain fits too well (sum of z^2 {uniform:.0f})"


def test_engine_game_agrees_with_its_deck_order_matador() -> None:
    """Matador: one 46-card deck (a card can send the token back to another square of the same
    deck: two draws in a row), jail left by doubles with an extra throw."""
    _check_game("matador", "stay", turns=100_000, batches=40, seed=SEED + 2)


def test_average_over_shuffles_is_close_to_uniform() -> None:
    """Every card is drawn exactly once per pass through its deck, so in the long run each card
    comes up as often as with uniform draws, for every order. What cycling changes is the
    correlation between successive draws (a card cannot come again before the others have), and
    the token's path depends on the sequence: so one order's figures differ from the uniform
    chain's (here by up to about 0.1 points on the Chance squares), and even the mean over all
    orders need not equal them exactly.

    Tolerance: the mean of n shuffles has sampling error sd/sqrt(n) (sd across shuffles, measured
    here), allowed 4.5 times; plus 0.01 points for the systematic difference between the mean over
    all shuffles and the uniform chain, measured at most 0.004 points on any square (classic,
    leave, 600 shuffles: Community Chest 2 per turn, -0.0037 points, 7.6 standard errors)."""
    n = 30
    avg = average("classic", jail="leave", orders=n, seed=SEED)
    uniform = analyse("classic", jail="leave")
    for per in ("roll", "turn"):
        values = avg.values(per)
        assert values.shape == (n, 41)
        mean = np.append(avg.mean.distribution(per).squares, avg.mean.distribution(per).in_jail)
        assert np.allclose(values.mean(axis=0), mean)
        dist = uniform.distribution(per)
        want = np.append(dist.squares, dist.in_jail)
        allowed = 4.5 * avg.std(per) / np.sqrt(n) + 1e-4
        assert (np.abs(mean - want) <= allowed).all(), np.abs(mean - want) / allowed
        # The shuffle matters: its spread dwarfs the systematic difference on the Chance squares.
        assert avg.std(per)[7] > 1e-4
        assert (avg.low(per) <= mean).all() and (mean <= avg.high(per)).all()
    assert avg.mean.throws_per_turn == pytest.approx(uniform.throws_per_turn, abs=1e-4)


def test_held_jail_cards_leave_the_cycle() -> None:
    """With ``held`` the same seed's order drops the jail cards; giving them or not is the same."""
    orders = random_orders("classic", 3)
    chain = CyclingChain("classic", jail="stay", jail_cards="held")
    jail_ids = {c.id for c in chain.edition.cards if c.effect == "get_out_of_jail"}
    short = {d: [c for c in o if c not in jail_ids] for d, o in orders.items()}
    a: ChainResult = chain.solve(orders)
    b = chain.solve(short)
    assert np.allclose(a.stationary, b.stationary, atol=1e-13)
    assert chain.deck_sizes == (15, 15)
    with pytest.raises(SettingsError):
        CyclingChain("classic").solve(short)  # the deck model needs the jail cards in the order
    with pytest.raises(SettingsError):
        CyclingChain("classic").solve({"chance": orders["chance"]})


def test_cli_cycling(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "a"
    assert (
        analyze_main(["--cards", "cycling", "--orders", "2", "--no-plot", "--out", str(out)]) == 0
    )
    text = capsys.readouterr().out
    assert "cycling decks, mean of 2 exact shuffles" in text and "±" in text
    head = (out / "squares.csv").read_text().splitlines()[0].split(",")
    assert "leave_per_roll_sd" in head and "stay_per_turn_max" in head
    assert (
        analyze_main(
            [
                "--cards",
                "cycling",
                "--deck-seed",
                "4",
                "--jail",
                "stay",
                "--no-plot",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert analyze_main(["--orders", "3", "--out", str(out)]) == 2  # --orders needs --cards cycling

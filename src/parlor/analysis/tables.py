"""Exact value tables for every edition, rule scenario and jail strategy, as CSV, Parquet and plots.

For each edition (classic, matco, latam, matador), each scenario (:data:`SCENARIOS`: the standard
rules, the short game, the quick game, double salary on Go) and each jail strategy (leave, stay),
the uniform-draw chain (:class:`~parlor.analysis.markov.MarkovChain`) is solved and turned into
four tables:

* ``squares``: each square's long-run chance per throw and per turn, and landings per turn;
* ``deeds``: each deed's expected rent per opponent turn at each level of development, the cost to
  reach that level, the opponent turns to pay it back and the return per unit spent;
* ``groups``: the same for a whole colour group (built evenly) or all the railroads / utilities;
* ``scenarios``: per scenario, throws and jail per turn and the money the rules move every turn
  (salary, taxes, the bank's money cards).

:func:`write_all` writes each as ``NAME.csv`` and ``NAME.parquet``, ``data_dictionary.md``
(every column with its unit) and PNG plots. :data:`COLUMNS` is the dictionary.

>>> from parlor.analysis.exact import analyse
>>> rows = deed_rows(analyse("classic"), "classic", "standard")
>>> boardwalk_hotel = [r for r in rows if r["square"] == 39 and r["level"] == "hotel"][0]
>>> boardwalk_hotel["cost_to_reach"]  # price 400, four houses and a hotel at 200
1400
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from parlor.analysis.markov import (
    JAIL_STRATEGIES,
    MAX_CARD_CHAIN,
    N_SQUARES,
    ChainResult,
    FloatArray,
    JailStrategy,
    MarkovChain,
)
from parlor.analysis.rents import property_rents
from parlor.monopoly.edition import EDITION_IDS, Edition, load_edition
from parlor.monopoly.rules import RuleOptions

Row = dict[str, Any]

#: The rule scenarios that change movement or money, as rule option overrides. The short game
#: changes jail (one jail turn) and hotels (after three houses); the quick game deals deeds at the
#: start (nothing the tables measure changes: its rows equal the standard ones, which the tests
#: check); double salary on Go changes the salary per turn.
SCENARIOS: dict[str, dict[str, Any]] = {
    "standard": {},
    "short": {"variant": "short"},
    "quick": {"variant": "quick"},
    "double_salary": {"double_salary_on_go": True},
}

#: The data dictionary: table -> column -> (unit, meaning).
KEYS: dict[str, tuple[str, str]] = {
    "edition": ("id", "edition id (classic, matco, latam, matador)"),
    "scenario": ("id", "rule scenario: standard, short, quick, double_salary (see options)"),
    "jail": (
        "id",
        "jail strategy: leave (pay or use a card at once) or stay (throw for doubles until forced out)",
    ),
}
SQUARE = {
    "square": ("index", "board position, 0 = Go, counted in the direction of play; -1 = In Jail"),
    "name": ("text", "the square's name in the edition's first language"),
    "kind": ("id", "street, railroad, utility, chance, community_chest, tax, go, jail, ..."),
}
COLUMNS: dict[str, dict[str, tuple[str, str]]] = {
    "squares": {
        **KEYS,
        **SQUARE,
        "group": ("id", "colour group or kind group of a property; empty otherwise"),
        "p_roll": (
            "probability",
            "long-run chance that a throw ends here (cards and jail applied)",
        ),
        "p_turn": ("probability", "long-run chance that a turn ends here (where the next starts)"),
        "landings_per_turn": (
            "landings / turn",
            "expected throws per turn that end here (a turn with doubles can land several times)",
        ),
    },
    "deeds": {
        **KEYS,
        **SQUARE,
        "group": ("id", "colour group (streets) or kind group (railroads, utilities)"),
        "price": ("currency", "the deed's price"),
        "level_index": ("count", "0 = unimproved; levels in order of development"),
        "level": (
            "text",
            "streets: rent, group (whole group owned), 1 house.., hotel; others: k owned",
        ),
        "rent": ("currency", "printed rent of the level (utilities: the deed's dice multiplier)"),
        "landings_per_turn": ("landings / turn", "an opponent's expected landings per turn"),
        "expected_rent_per_opponent_turn": (
            "currency / opponent turn",
            "expected rent one opponent pays per turn of theirs (card multipliers, utilities' "
            "throws included); x opponents = per round",
        ),
        "building_cost": ("currency", "cost of the building this level adds (0: none)"),
        "cost_to_reach": (
            "currency",
            "the deed's price plus the buildings on it up to this level (the other deeds of the "
            "group are in the groups table)",
        ),
        "payback_turns": (
            "opponent turns",
            "cost_to_reach / expected rent per opponent turn; / opponents = rounds",
        ),
        "marginal_payback_turns": (
            "opponent turns",
            "this level's building cost / the extra expected rent over the level below",
        ),
        "return_per_unit": (
            "1 / opponent turn",
            "expected rent per opponent turn per unit of money spent (1 / payback_turns)",
        ),
    },
    "groups": {
        **KEYS,
        "group": ("id", "colour group, or the kind group of the railroads / utilities"),
        "kind": ("id", "street, railroad or utility"),
        "deeds": ("count", "deeds in the group"),
        "level_index": ("count", "0 = the whole group owned, no buildings"),
        "level": (
            "text",
            "streets: group, then k houses on every deed, hotel on every deed; others: all owned",
        ),
        "landings_per_turn": ("landings / turn", "an opponent's expected landings on the group"),
        "expected_rent_per_opponent_turn": (
            "currency / opponent turn",
            "the group's expected rent from one opponent per turn of theirs",
        ),
        "cost_to_reach": ("currency", "all the deeds' prices plus every building to this level"),
        "payback_turns": ("opponent turns", "cost_to_reach / expected rent per opponent turn"),
        "marginal_payback_turns": (
            "opponent turns",
            "the cost of this level's buildings / the extra expected rent over the level below",
        ),
        "return_per_unit": ("1 / opponent turn", "expected rent per opponent turn per unit spent"),
    },
    "scenarios": {
        **KEYS,
        "options": ("text", "the rule options that differ from the edition's, key=value;..."),
        "currency": ("text", "the edition's currency"),
        "salary": ("currency", "the salary for passing Go"),
        "hotel_after_houses": ("count", "houses on each lot before a hotel"),
        "jail_max_turns": ("count", "most turns in jail"),
        "throws_per_turn": ("throws / turn", "expected throws per turn (doubles throw again)"),
        "p_in_jail_turn": ("probability", "long-run chance that a turn ends in jail"),
        "go_passes_per_turn": ("passes / turn", "expected forward passes (or landings) of Go"),
        "go_landings_per_turn": ("landings / turn", "expected forward moves ending on Go"),
        "salary_per_turn": (
            "currency / turn",
            "expected salary per turn (twice on landing on Go under double salary)",
        ),
        "tax_per_turn": (
            "currency / turn",
            "expected flat tax paid per turn (the percent choice is not modelled)",
        ),
        "bank_cards_per_turn": (
            "currency / turn",
            "expected net cash from the bank's collect/pay cards per turn (cards between players "
            "and repairs depend on the table and are left out)",
        ),
    },
}


@dataclass(frozen=True, slots=True)
class Money:
    """Expected money the rules move per turn, from one solved chain."""

    go_passes: float
    go_landings: float
    salary: float
    tax: float
    bank_cards: float


def money_per_turn(chain: MarkovChain, result: ChainResult) -> Money:
    """Go passes, salary, taxes and the bank's money cards per turn, from the stationary vector.

    Salary is due on every forward move that reaches or passes Go (dice, "advance to" and "nearest"
    cards; not "go back" cards nor jail), as the engine pays it; under ``double_salary_on_go`` a
    move ending on Go pays twice."""
    ed = chain.edition
    go = ed.go_square
    n = chain.n_states
    passes = np.zeros(n)
    lands = np.zeros(n)
    tax = np.zeros(n)
    cards = np.zeros(n)

    def forward(frm: int, steps: int) -> tuple[float, float]:
        if steps <= 0 or frm + steps < N_SQUARES + go:
            return 0.0, 0.0
        return 1.0, 1.0 if (frm + steps) % N_SQUARES == go else 0.0

    def follow(square: int, depth: int) -> tuple[float, float, float, float]:
        sq = ed.squares[square]
        if sq.kind == "go_to_jail":
            return 0.0, 0.0, 0.0, 0.0
        if sq.kind == "tax":
            return 0.0, 0.0, float(sq.tax), 0.0
        deck = chain.deck_at(square)
        if deck is None or depth >= MAX_CARD_CHAIN:
            return 0.0, 0.0, 0.0, 0.0
        drawn = chain.decks[deck]
        out = np.zeros(4)
        for card in drawn:
            share = 1.0 / len(drawn)
            if card.effect == "collect":
                out[3] += share * card.amount
            elif card.effect == "pay":
                out[3] -= share * card.amount
            arrival, moved = chain.card_outcome(square, card)
            if not moved:
                continue
            to = arrival.square
            steps = card.steps if card.effect == "move_relative" else (to - square) % N_SQUARES
            if card.effect == "move_to" and steps == 0 and to == go:
                steps = N_SQUARES
            p, g = forward(square, steps)
            out += share * np.array([p, g, 0.0, 0.0])
            out += share * np.array(follow(to, depth + 1))
        return float(out[0]), float(out[1]), float(out[2]), float(out[3])

    memo: dict[int, tuple[float, float, float, float]] = {}
    for s in range(n):
        frm = s // 3 if s < chain.n_free else chain.jail_square
        for t in chain.throws(s):
            if t.to is None:
                continue
            p, g = forward(frm, t.total)
            if t.to not in memo:
                memo[t.to] = follow(t.to, 0)
            cp, cg, ct, cc = memo[t.to]
            passes[s] += t.p * (p + cp)
            lands[s] += t.p * (g + cg)
            tax[s] += t.p * ct
            cards[s] += t.p * cc
    pi: FloatArray = result.stationary
    per_turn = result.throws_per_turn  # per throw -> per turn
    go_passes = float(pi @ passes) * per_turn
    go_landings = float(pi @ lands) * per_turn
    salary = ed.salary * go_passes
    if chain.options.double_salary_on_go:
        salary += ed.salary * go_landings
    return Money(
        go_passes=go_passes,
        go_landings=go_landings,
        salary=salary,
        tax=float(pi @ tax) * per_turn,
        bank_cards=float(pi @ cards) * per_turn,
    )


def _square_name(ed: Edition, square: int) -> str:
    if square < 0:
        return "In Jail"
    if square == ed.jail_square:
        return ed.text("just_visiting")
    return ed.square_name(square)


def square_rows(r: ChainResult, edition: str, scenario: str) -> list[Row]:
    ed = r.edition
    rows: list[Row] = []
    for i in [*range(N_SQUARES), -1]:
        sq = ed.squares[i] if i >= 0 else None
        rows.append(
            {
                "edition": edition,
                "scenario": scenario,
                "jail": r.jail,
                "square": i,
                "name": _square_name(ed, i),
                "kind": "in_jail" if sq is None else sq.kind,
                "group": "" if sq is None or not sq.is_property else (sq.group or sq.kind),
                "p_roll": r.per_roll.in_jail if sq is None else float(r.per_roll.squares[i]),
                "p_turn": r.per_turn.in_jail if sq is None else float(r.per_turn.squares[i]),
                "landings_per_turn": 0.0 if sq is None else float(r.landings.count[i]),
            }
        )
    return rows


def _ratio(a: float, b: float) -> float | None:
    return a / b if b > 0 else None


def deed_rows(r: ChainResult, edition: str, scenario: str) -> list[Row]:
    rows: list[Row] = []
    for prop in property_rents(r):
        spent = prop.price
        for k, lv in enumerate(prop.levels):
            spent += lv.cost
            rows.append(
                {
                    "edition": edition,
                    "scenario": scenario,
                    "jail": r.jail,
                    "square": prop.square,
                    "name": prop.name,
                    "kind": prop.kind,
                    "group": prop.group or prop.kind,
                    "price": prop.price,
                    "level_index": k,
                    "level": lv.label,
                    "rent": lv.rent,
                    "landings_per_turn": prop.landings,
                    "expected_rent_per_opponent_turn": lv.expected,
                    "building_cost": lv.cost,
                    "cost_to_reach": spent,
                    "payback_turns": _ratio(spent, lv.expected),
                    "marginal_payback_turns": lv.payback_turns,
                    "return_per_unit": lv.expected / spent if spent else None,
                }
            )
    return rows


def group_rows(deeds: list[Row]) -> list[Row]:
    """A group's rows from its deeds' rows (one edition, scenario and jail strategy): streets built
    evenly from "group" to "hotel"; railroads and utilities at "all owned"."""
    by_group: dict[str, list[Row]] = {}
    for row in deeds:
        by_group.setdefault(row["group"], []).append(row)
    rows: list[Row] = []
    for group, members in by_group.items():
        first = members[0]
        squares = sorted({m["square"] for m in members})
        kind = first["kind"]
        if kind == "street":
            labels = [m["level"] for m in members if m["square"] == squares[0]][1:]
        else:
            labels = [f"{len(squares)} owned"]
        prev: tuple[float, float] | None = None
        for k, label in enumerate(labels):
            at = [m for m in members if m["level"] == label]
            rent = sum(m["expected_rent_per_opponent_turn"] for m in at)
            cost = sum(m["cost_to_reach"] for m in at)
            marginal = None
            if prev is not None and rent > prev[0]:
                marginal = (cost - prev[1]) / (rent - prev[0])
            rows.append(
                {
                    "edition": first["edition"],
                    "scenario": first["scenario"],
                    "jail": first["jail"],
                    "group": group,
                    "kind": kind,
                    "deeds": len(squares),
                    "level_index": k,
                    "level": label,
                    "landings_per_turn": sum(m["landings_per_turn"] for m in at),
                    "expected_rent_per_opponent_turn": rent,
                    "cost_to_reach": cost,
                    "payback_turns": _ratio(cost, rent),
                    "marginal_payback_turns": marginal,
                    "return_per_unit": rent / cost if cost else None,
                }
            )
            prev = (rent, cost)
    return rows


def scenario_row(
    chain: MarkovChain, r: ChainResult, edition: str, scenario: str, overrides: dict[str, Any]
) -> Row:
    m = money_per_turn(chain, r)
    ed = r.edition
    return {
        "edition": edition,
        "scenario": scenario,
        "jail": r.jail,
        "options": ";".join(f"{k}={v}" for k, v in overrides.items()),
        "currency": ed.currency,
        "salary": ed.salary,
        "hotel_after_houses": r.options.hotel_after_houses,
        "jail_max_turns": r.options.jail_max_turns,
        "throws_per_turn": r.throws_per_turn,
        "p_in_jail_turn": r.per_turn.in_jail,
        "go_passes_per_turn": m.go_passes,
        "go_landings_per_turn": m.go_landings,
        "salary_per_turn": m.salary,
        "tax_per_turn": m.tax,
        "bank_cards_per_turn": m.bank_cards,
    }


@dataclass(frozen=True, slots=True)
class Tables:
    """All four tables, every row of every edition x scenario x jail strategy."""

    squares: list[Row]
    deeds: list[Row]
    groups: list[Row]
    scenarios: list[Row]
    results: dict[tuple[str, str, str], ChainResult]
    seconds: float

    def named(self) -> dict[str, list[Row]]:
        return {
            "squares": self.squares,
            "deeds": self.deeds,
            "groups": self.groups,
            "scenarios": self.scenarios,
        }


def build(
    editions: Iterable[str] = EDITION_IDS,
    scenarios: dict[str, dict[str, Any]] | None = None,
    jails: Iterable[JailStrategy] = JAIL_STRATEGIES,
    progress: Callable[[str], None] | None = None,
) -> Tables:
    """Solve every edition x scenario x jail strategy and build the tables."""
    start = time.perf_counter()
    out = Tables([], [], [], [], {}, 0.0)
    for edition in editions:
        ed = load_edition(edition)
        for scenario, overrides in (SCENARIOS if scenarios is None else scenarios).items():
            options = RuleOptions.for_edition(ed, overrides)
            for jail in jails:
                if progress is not None:
                    progress(f"{edition} {scenario} {jail}")
                chain = MarkovChain(ed, options, jail=jail)
                r = chain.solve()
                out.results[edition, scenario, jail] = r
                out.squares.extend(square_rows(r, edition, scenario))
                deeds = deed_rows(r, edition, scenario)
                out.deeds.extend(deeds)
                out.groups.extend(group_rows(deeds))
                out.scenarios.append(scenario_row(chain, r, edition, scenario, overrides))
    return Tables(
        out.squares,
        out.deeds,
        out.groups,
        out.scenarios,
        out.results,
        time.perf_counter() - start,
    )

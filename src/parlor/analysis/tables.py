"""Exact value tables for every edition, rule scenario and jail strategy, as CSV, Parquet and plots.

For each edition (classic, matco, latam, matador), each scenario (:data:`SCENARIOS`: the standard
rules, the short game, the quick game, double salary on Go) and each jail strategy (leave, stay),
the uniform-draw chain (:class:`~parlor.analysis.markov.MarkovChain`) is solved and turned into
five tables:

* ``squares``: each square's long-run chance per throw and per turn, and landings per turn;
* ``deeds``: each deed's expected rent per opponent turn at each level of development, the cost to
  reach that level, the opponent turns to pay it back and the return per unit spent; the rent
  collected when the owner's jail stops it (Matador), the owner's repairs cost and the net;
* ``groups``: the same for a whole colour group (built evenly) or all the railroads / utilities;
* ``scenarios``: per scenario, throws and jail per turn and the money the rules move every turn
  (:mod:`parlor.analysis.money`: salary, taxes, fines, cards of the bank and between players,
  repairs per building, the free-parking pot);
* ``income_tax``: the percent income-tax choice, the expected tax per turn by total worth.

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

from parlor.analysis.markov import (
    JAIL_STRATEGIES,
    N_SQUARES,
    ChainResult,
    JailStrategy,
    MarkovChain,
)
from parlor.analysis.money import Money, income_tax_rows, money_per_turn
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
#: Owner-side money of a deed or group at a level (deeds and groups tables).
OWNER = {
    "rent_collected_per_opponent_turn": (
        "currency / opponent turn",
        "expected rent actually collected: under 'no rent while the owner is in jail' (Matador's "
        "rent_while_jailed=false) times the share of the owner's turns ending in jail (the "
        "owner's jail strategy = the row's); otherwise equal to expected_rent_per_opponent_turn",
    ),
    "repair_cost_per_own_turn": (
        "currency / own turn",
        "the owner's expected repairs-card cost per turn of theirs for the buildings of this "
        "level (houses x per-house rate + hotels x per-hotel rate, see scenarios)",
    ),
    "opponents": ("count", "opponents assumed by net_per_round (parlor analyze --opponents)"),
    "net_per_round": (
        "currency / round",
        "rent_collected_per_opponent_turn x opponents - repair_cost_per_own_turn",
    ),
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
        **OWNER,
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
        **OWNER,
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
            "expected tax per turn, every tax square at its flat amount",
        ),
        "tax_per_turn_at_starting_cash": (
            "currency / turn",
            "the same for a player worth the starting cash who takes the percent choice when "
            "cheaper (see the income_tax table)",
        ),
        "percent_tax_breakeven_worth": (
            "currency",
            "total worth at which the percentage equals the flat tax (empty: no choice)",
        ),
        "bank_cards_per_turn": (
            "currency / turn",
            "expected net cash from the bank's collect/pay cards per turn (bank_collect - "
            "bank_pay; cards between players and repairs are in their own columns)",
        ),
        "bank_collect_per_turn": ("currency / turn", "the bank's 'collect' cards per turn"),
        "bank_pay_per_turn": (
            "currency / turn",
            "the 'pay' cards per turn (to the bank, or the pot under the pot rule)",
        ),
        "jail_entries_per_turn": ("turns / turn", "turns that start in jail after being sent"),
        "jail_cards_per_turn": ("cards / turn", "get-out-of-jail cards drawn per turn"),
        "players": ("count", "players at the table (opponents + 1), for the jail fines"),
        "jail_fines_per_turn": (
            "currency / turn",
            "fines paid per turn: leave = every jail visit but those a held jail card pays for "
            "(a card is used at the holder's next visit and goes back to its deck; see "
            "docs/analysis.md); stay = after the last failed throw",
        ),
        "repairs_per_house_per_turn": (
            "currency / turn / house",
            "expected repairs-card cost per own turn of each house held (draw rate x rate)",
        ),
        "repairs_per_hotel_per_turn": (
            "currency / turn / hotel",
            "the same per hotel held",
        ),
        "from_each_player_per_turn": (
            "currency / turn / player",
            "received from EACH other player per own turn ('collect from every player' cards)",
        ),
        "to_each_player_per_turn": (
            "currency / turn / player",
            "paid to EACH other player per own turn ('pay every player' cards)",
        ),
        "worth_card_per_turn": (
            "currency / turn",
            "Matador's 'collect if your worth is at most worth_card_limit' card per turn, when "
            "eligible (0 otherwise)",
        ),
        "worth_card_limit": ("currency", "the worth limit of that card (empty: no such card)"),
        "parking_landings_per_turn": ("landings / turn", "landings on the free-parking square"),
        "pot_inflow_per_turn": (
            "currency / turn",
            "under the free-parking pot house rule: what one player pays into the pot per turn "
            "with no buildings and flat tax (taxes + fines + pay cards; add repairs from the "
            "per-house and per-hotel columns)",
        ),
        "pot_per_landing": (
            "currency",
            "the pot a landing on free parking collects on average in a long game of players "
            "alike: pot_inflow_per_turn / parking_landings_per_turn, for any number of players",
        ),
    },
    "income_tax": {
        **KEYS,
        "square": ("index", "the tax square with the percent choice"),
        "name": ("text", "its name"),
        "flat_tax": ("currency", "the flat amount"),
        "percent": ("percent", "the percentage of total worth that may be paid instead"),
        "breakeven_worth": ("currency", "worth at which both are equal: flat x 100 / percent"),
        "worth": ("currency", "the player's total worth (cash, deeds, buildings) when landing"),
        "percent_tax": ("currency", "worth x percent / 100, rounded down as the engine does"),
        "chosen_tax": ("currency", "the cheaper of the two"),
        "landings_per_turn": ("landings / turn", "landings on the square per turn"),
        "expected_tax_per_turn": ("currency / turn", "landings x chosen_tax"),
        "all_taxes_per_turn": (
            "currency / turn",
            "every tax square's expected tax per turn at this worth (the others flat)",
        ),
        "saving_per_turn": ("currency / turn", "landings x (flat - chosen_tax)"),
    },
}


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


def _money_of(r: ChainResult) -> Money:
    chain = MarkovChain(r.edition, r.options, jail=r.jail, jail_cards=r.jail_cards)
    return money_per_turn(chain, r)


def _buildings(label: str) -> tuple[int, int]:
    """(houses, hotels) on a deed at the level ``label`` ("2 houses", "hotel", "group", ...)."""
    if label == "hotel":
        return 0, 1
    if label.endswith(("house", "houses")):
        return int(label.split()[0]), 0
    return 0, 0


def deed_rows(
    r: ChainResult,
    edition: str,
    scenario: str,
    money: Money | None = None,
    opponents: int = 3,
) -> list[Row]:
    """Every deed at every level (``money``: the case's :func:`money_per_turn`, for repairs;
    ``opponents``: for ``net_per_round``)."""
    m = _money_of(r) if money is None else money
    # Matador: no rent while the owner sits in jail; the owner's turns end there this often.
    collected = 1.0 if r.options.rent_while_jailed else 1.0 - r.per_turn.in_jail
    rows: list[Row] = []
    for prop in property_rents(r):
        spent = prop.price
        for k, lv in enumerate(prop.levels):
            spent += lv.cost
            houses, hotels = _buildings(lv.label) if prop.kind == "street" else (0, 0)
            repairs = houses * m.repairs_per_house + hotels * m.repairs_per_hotel
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
                    "rent_collected_per_opponent_turn": lv.expected * collected,
                    "repair_cost_per_own_turn": repairs,
                    "opponents": opponents,
                    "net_per_round": lv.expected * collected * opponents - repairs,
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
                    **{
                        key: sum(m[key] for m in at)
                        for key in (
                            "rent_collected_per_opponent_turn",
                            "repair_cost_per_own_turn",
                            "net_per_round",
                        )
                    },
                    "opponents": first["opponents"],
                }
            )
            prev = (rent, cost)
    return rows


def scenario_row(
    chain: MarkovChain,
    r: ChainResult,
    edition: str,
    scenario: str,
    overrides: dict[str, Any],
    money: Money | None = None,
) -> Row:
    m = money_per_turn(chain, r) if money is None else money
    ed = r.edition
    breakeven = list(m.percent_breakeven.values())
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
        "tax_per_turn_at_starting_cash": m.tax_at_worth(ed.starting_cash),
        "percent_tax_breakeven_worth": breakeven[0] if breakeven else None,
        "bank_cards_per_turn": m.bank_cards,
        "bank_collect_per_turn": m.bank_collect,
        "bank_pay_per_turn": m.bank_pay,
        "jail_entries_per_turn": m.jail_entries,
        "jail_cards_per_turn": m.jail_card_draws,
        "players": m.players,
        "jail_fines_per_turn": m.jail_fines,
        "repairs_per_house_per_turn": m.repairs_per_house,
        "repairs_per_hotel_per_turn": m.repairs_per_hotel,
        "from_each_player_per_turn": m.from_each,
        "to_each_player_per_turn": m.to_each,
        "worth_card_per_turn": m.worth_card,
        "worth_card_limit": m.worth_card_limit,
        "parking_landings_per_turn": m.parking_landings,
        "pot_inflow_per_turn": m.pot_inflow(),
        "pot_per_landing": m.pot_per_landing(),
    }


@dataclass(frozen=True, slots=True)
class Tables:
    """All five tables, every row of every edition x scenario x jail strategy."""

    squares: list[Row]
    deeds: list[Row]
    groups: list[Row]
    scenarios: list[Row]
    income_tax: list[Row]
    results: dict[tuple[str, str, str], ChainResult]
    seconds: float

    def named(self) -> dict[str, list[Row]]:
        return {
            "squares": self.squares,
            "deeds": self.deeds,
            "groups": self.groups,
            "scenarios": self.scenarios,
            "income_tax": self.income_tax,
        }


def build(
    editions: Iterable[str] = EDITION_IDS,
    scenarios: dict[str, dict[str, Any]] | None = None,
    jails: Iterable[JailStrategy] = JAIL_STRATEGIES,
    progress: Callable[[str], None] | None = None,
    opponents: int = 3,
) -> Tables:
    """Solve every edition x scenario x jail strategy and build the tables (``opponents``: of a
    property owner, for the net per round)."""
    start = time.perf_counter()
    out = Tables([], [], [], [], [], {}, 0.0)
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
                m = money_per_turn(chain, r, players=opponents + 1)
                out.squares.extend(square_rows(r, edition, scenario))
                deeds = deed_rows(r, edition, scenario, m, opponents)
                out.deeds.extend(deeds)
                out.groups.extend(group_rows(deeds))
                out.scenarios.append(scenario_row(chain, r, edition, scenario, overrides, m))
                out.income_tax.extend(income_tax_rows(m, r, edition, scenario))
    return Tables(
        out.squares,
        out.deeds,
        out.groups,
        out.scenarios,
        out.income_tax,
        out.results,
        time.perf_counter() - start,
    )

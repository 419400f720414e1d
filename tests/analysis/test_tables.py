"""The value tables: their arithmetic, the scenarios they tell apart, the files and the command."""

from __future__ import annotations

import csv
from pathlib import Path

import pyarrow.parquet as pq  # type: ignore[import-untyped]
import pytest

from parlor.analysis.tablefiles import dictionary_text, plot_returns, write_all
from parlor.analysis.tables import COLUMNS, SCENARIOS, Tables, build
from parlor.cli.analyze_cmd import main


@pytest.fixture(scope="module")
def classic() -> Tables:
    return build(["classic"])


def _rows(rows: list[dict[str, object]], **match: object) -> list[dict[str, object]]:
    return [r for r in rows if all(r[k] == v for k, v in match.items())]


def test_deed_rows_add_up(classic: Tables) -> None:
    """Boardwalk (price 400, houses 200, C-rules hotel = one more house payment): the cost to
    reach each level is cumulative, payback is cost over expected rent, return its inverse."""
    rows = _rows(classic.deeds, scenario="standard", jail="leave", square=39)
    assert [r["level"] for r in rows] == [
        "rent", "group", "1 house", "2 houses", "3 houses", "4 houses", "hotel"
    ]  # fmt: skip
    assert [r["cost_to_reach"] for r in rows] == [400, 400, 600, 800, 1000, 1200, 1400]
    r = classic.results["classic", "standard", "leave"]
    for row, rent in zip(rows, (50, 100, 200, 600, 1400, 1700, 2000), strict=True):
        assert row["rent"] == rent
        expected = float(r.landings.rent_weight[39]) * rent
        assert row["expected_rent_per_opponent_turn"] == pytest.approx(expected)
        assert row["payback_turns"] == pytest.approx(row["cost_to_reach"] / expected)  # type: ignore[operator]
        assert row["return_per_unit"] == pytest.approx(1 / row["payback_turns"])  # type: ignore[operator]


def test_group_rows_sum_their_deeds(classic: Tables) -> None:
    deeds = _rows(classic.deeds, scenario="short", jail="stay", group="orange", level="hotel")
    group = _rows(classic.groups, scenario="short", jail="stay", group="orange", level="hotel")
    assert len(deeds) == 3 and len(group) == 1
    g = group[0]
    assert g["cost_to_reach"] == sum(d["cost_to_reach"] for d in deeds)  # type: ignore[misc]
    assert g["expected_rent_per_opponent_turn"] == pytest.approx(
        sum(d["expected_rent_per_opponent_turn"] for d in deeds)  # type: ignore[misc]
    )
    # The short game builds hotels after three houses (its rules): 3 houses then hotel.
    levels = [
        r["level"] for r in _rows(classic.groups, scenario="short", jail="stay", group="orange")
    ]
    assert levels == ["group", "1 house", "2 houses", "3 houses", "hotel"]
    rails = _rows(classic.groups, scenario="standard", jail="leave", group="railroad")
    assert [r["level"] for r in rails] == ["4 owned"] and rails[0]["cost_to_reach"] == 800


def test_scenarios_change_what_they_should(classic: Tables) -> None:
    by = {(r["scenario"], r["jail"]): r for r in classic.scenarios}
    std, dbl = by["standard", "leave"], by["double_salary", "leave"]
    # Double salary: the same moves, plus one more salary for every move that ends on Go.
    assert dbl["go_passes_per_turn"] == std["go_passes_per_turn"]
    assert dbl["salary_per_turn"] == pytest.approx(
        std["salary_per_turn"] + 200 * std["go_landings_per_turn"]
    )
    # A token moves 7 a throw on average, a little more with the cards' jumps forward; jail
    # (back to square 10 from 30 and beyond) takes a little off: passes near 7 x throws / 40.
    assert std["go_passes_per_turn"] == pytest.approx(7 * std["throws_per_turn"] / 40, rel=0.03)
    # The short game's one jail turn: "stay" spends far less time in jail than the standard three.
    assert by["short", "stay"]["p_in_jail_turn"] < 0.5 * by["standard", "stay"]["p_in_jail_turn"]
    # The quick game only deals deeds at the start: every figure equals the standard rules'.
    for table in ("squares", "deeds", "groups"):
        rows = classic.named()[table]
        quick = [{**r, "scenario": "-"} for r in _rows(rows, scenario="quick")]
        standard = [{**r, "scenario": "-"} for r in _rows(rows, scenario="standard")]
        assert quick == standard
    assert {r["scenario"] for r in classic.scenarios} == set(SCENARIOS)


def test_files_match_the_data_dictionary(classic: Tables, tmp_path: Path) -> None:
    written = write_all(classic, tmp_path, plots=False)
    assert {p.name for p in written} >= {"deeds.csv", "deeds.parquet", "data_dictionary.md"}
    text = (tmp_path / "data_dictionary.md").read_text(encoding="utf-8")
    for name, columns in COLUMNS.items():
        table = pq.read_table(tmp_path / f"{name}.parquet")
        assert table.column_names == list(columns)
        assert table.num_rows == len(classic.named()[name])
        with (tmp_path / f"{name}.csv").open(encoding="utf-8") as fh:
            assert sum(1 for _ in csv.reader(fh)) == table.num_rows + 1
        for column in columns:
            assert f"| `{column}` |" in text
    squares = pq.read_table(tmp_path / "squares.parquet").to_pylist()
    per_case = _rows(squares, scenario="standard", jail="stay")
    assert sum(r["p_turn"] for r in per_case) == pytest.approx(1.0)  # type: ignore[misc]
    assert dictionary_text().startswith("# Parlor value tables")


def test_returns_plot(classic: Tables, tmp_path: Path) -> None:
    path = plot_returns(classic, "classic", tmp_path / "returns.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_analyze_all_writes_every_edition(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--all", "--no-plot", "--opponents", "2", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "matador  double_salary  stay" in out and "tables computed in" in out
    assert "money per turn" in out and "matador stay" in out
    rows = pq.read_table(tmp_path / "scenarios.parquet").to_pylist()
    assert len(rows) == 4 * len(SCENARIOS) * 2
    assert {r["edition"] for r in rows} == {"classic", "matco", "latam", "matador"}
    groups = pq.read_table(tmp_path / "groups.parquet").to_pylist()
    assert {g["opponents"] for g in groups} == {2}
    assert (tmp_path / "income_tax.parquet").exists()


def test_money_columns_add_up(classic: Tables) -> None:
    """Repairs, net per round and the income-tax table follow from the scenario's money rates
    (classic: repairs cards 25/100 and 40/115; income tax 200 or 10%, break-even at 2,000)."""
    scen = _rows(classic.scenarios, scenario="standard", jail="leave")[0]
    house, hotel = scen["repairs_per_house_per_turn"], scen["repairs_per_hotel_per_turn"]
    rows = _rows(classic.deeds, scenario="standard", jail="leave", square=39)
    by_level = {r["level"]: r for r in rows}
    assert by_level["3 houses"]["repair_cost_per_own_turn"] == pytest.approx(3 * house)  # type: ignore[operator]
    assert by_level["hotel"]["repair_cost_per_own_turn"] == pytest.approx(hotel)
    assert by_level["group"]["repair_cost_per_own_turn"] == 0
    for r in rows:  # classic collects rent from a jailed owner: nothing is lost
        assert r["rent_collected_per_opponent_turn"] == r["expected_rent_per_opponent_turn"]
        assert r["net_per_round"] == pytest.approx(
            3 * r["rent_collected_per_opponent_turn"] - r["repair_cost_per_own_turn"]  # type: ignore[operator]
        )
    group = _rows(classic.groups, scenario="standard", jail="leave", group="dark_blue")
    assert group[-1]["repair_cost_per_own_turn"] == pytest.approx(2 * hotel)  # type: ignore[operator]
    assert scen["percent_tax_breakeven_worth"] == 2000
    assert scen["pot_per_landing"] == pytest.approx(
        scen["pot_inflow_per_turn"] / scen["parking_landings_per_turn"]  # type: ignore[operator]
    )
    assert scen["pot_inflow_per_turn"] == pytest.approx(
        scen["tax_per_turn"] + scen["jail_fines_per_turn"] + scen["bank_pay_per_turn"]  # type: ignore[operator]
    )
    tax = {r["worth"]: r for r in _rows(classic.income_tax, scenario="standard", jail="leave")}
    assert tax[1500]["chosen_tax"] == 150 and tax[4000]["chosen_tax"] == 200
    assert tax[2000]["saving_per_turn"] == 0 < tax[1500]["saving_per_turn"]  # type: ignore[operator]
    assert scen["tax_per_turn_at_starting_cash"] == pytest.approx(tax[1500]["all_taxes_per_turn"])
    # The short game has no percent choice: no rows, no break-even.
    assert not _rows(classic.income_tax, scenario="short")
    assert _rows(classic.scenarios, scenario="short")[0]["percent_tax_breakeven_worth"] is None


def test_matador_owner_in_jail_collects_nothing() -> None:
    """Matador: no rent while the owner is in jail, so rent collected = rent x (1 - the share of
    the owner's turns that end in jail); the opponents count comes from --opponents."""
    tables = build(["matador"], scenarios={"standard": {}}, jails=["stay"], opponents=5)
    r = tables.results["matador", "standard", "stay"]
    row = _rows(tables.deeds, square=39, level="hotel")[0]
    assert row["rent_collected_per_opponent_turn"] == pytest.approx(
        row["expected_rent_per_opponent_turn"] * (1 - r.per_turn.in_jail)  # type: ignore[operator]
    )
    assert row["opponents"] == 5

"""Write the value tables (:mod:`parlor.analysis.tables`): CSV, Parquet, a data dictionary, plots,
and the short summary ``parlor analyze --all`` prints."""

from __future__ import annotations

from pathlib import Path

from parlor.analysis.tables import COLUMNS, Row, Tables

#: The plots' scenario and jail strategy (one board heatmap per edition and scenario would be 32).
PLOT_SCENARIO = "standard"
PLOT_JAIL = "leave"


def write_table(rows: list[Row], columns: list[str], path_stem: Path) -> list[Path]:
    """``path_stem``.csv and .parquet with ``columns`` in that order (None: an empty cell)."""
    import pyarrow as pa  # type: ignore[import-untyped]
    import pyarrow.csv as pacsv  # type: ignore[import-untyped]
    import pyarrow.parquet as pq  # type: ignore[import-untyped]

    data = {c: [r[c] for r in rows] for c in columns}
    table = pa.table(data)
    csv_path = path_stem.with_suffix(".csv")
    parquet_path = path_stem.with_suffix(".parquet")
    pacsv.write_csv(table, csv_path)
    pq.write_table(table, parquet_path)
    return [csv_path, parquet_path]


def dictionary_text(seconds: float | None = None) -> str:
    """The data dictionary as Markdown: every table's columns with unit and meaning."""
    lines = [
        "# Parlor value tables: data dictionary",
        "",
        "Written by `parlor analyze --all` (module `parlor.analysis.tables`). Every table is in "
        "`NAME.csv` and `NAME.parquet` with the same columns. Probabilities are fractions (0..1), "
        "money is in the edition's currency (see `scenarios.currency`), turns are one player's "
        "turns (a round of play holds one turn per player; rent per round = rent per opponent "
        "turn x opponents). Cards are drawn uniformly and independently (the published "
        "convention; `parlor analyze --cards cycling` solves decks that cycle). An empty cell is "
        "undefined (e.g. the payback of a level that earns nothing).",
    ]
    if seconds is not None:
        lines += ["", f"These files took {seconds:.1f} s to compute."]
    for table, columns in COLUMNS.items():
        lines += ["", f"## {table}", "", "| column | unit | meaning |", "|---|---|---|"]
        for name, (unit, meaning) in columns.items():
            lines.append(f"| `{name}` | {unit} | {meaning} |")
    return "\n".join(lines) + "\n"


def plot_returns(tables: Tables, edition: str, path: Path) -> Path:
    """Return per unit spent of each group at each level (standard rules, both jail strategies)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from parlor.analysis.board import FALLBACK, GROUP_COLOURS

    ed = tables.results[edition, PLOT_SCENARIO, PLOT_JAIL].edition
    fig, axes = plt.subplots(1, 2, figsize=(12, 5), sharey=True)
    for ax, jail in zip(axes, ("leave", "stay"), strict=True):
        rows = [
            r
            for r in tables.groups
            if r["edition"] == edition and r["scenario"] == PLOT_SCENARIO and r["jail"] == jail
        ]
        streets = [r for r in rows if r["kind"] == "street"]
        groups = list(dict.fromkeys(r["group"] for r in streets))
        labels = list(dict.fromkeys(r["level"] for r in streets))
        for i, g in enumerate(groups):
            ys = [
                100 * (r["return_per_unit"] or 0.0)
                for lb in labels
                for r in streets
                if r["group"] == g and r["level"] == lb
            ]
            colour = ed.group_colours.get(g) or GROUP_COLOURS.get(g, FALLBACK[i % len(FALLBACK)])
            ax.plot(labels, ys, marker="o", color=colour, label=ed.group_name(g))
        for r in rows:
            if r["kind"] != "street":
                ax.axhline(
                    100 * (r["return_per_unit"] or 0.0),
                    ls="--",
                    lw=1,
                    color="grey",
                )
                ax.annotate(
                    f"{r['group']} ({r['level']})",
                    (0, 100 * (r["return_per_unit"] or 0.0)),
                    fontsize=7,
                    color="grey",
                )
        ax.set_title(f"jail strategy: {jail}")
        ax.set_xlabel("development of every deed of the group")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("expected rent per opponent turn, % of the money spent")
    axes[1].legend(fontsize=7, loc="upper left")
    fig.suptitle(f"{ed.title}: return per unit spent by group (standard rules, uniform cards)")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100, bbox_inches="tight")
    plt.close(fig)
    return path


def write_all(tables: Tables, out: Path, plots: bool = True) -> list[Path]:
    """Every table as CSV and Parquet, ``data_dictionary.md`` and (``plots``) per edition a board
    heatmap per turn and the groups' return per unit spent."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for name, rows in tables.named().items():
        written += write_table(rows, list(COLUMNS[name]), out / name)
    dictionary = out / "data_dictionary.md"
    dictionary.write_text(dictionary_text(tables.seconds), encoding="utf-8")
    written.append(dictionary)
    if plots:
        from parlor.analysis.board import draw_board

        editions = list(dict.fromkeys(e for e, _, _ in tables.results))
        for edition in editions:
            r = tables.results[edition, PLOT_SCENARIO, PLOT_JAIL]
            written.append(
                draw_board(
                    r.edition,
                    r.per_turn,
                    out / f"board_{edition}.png",
                    f"probability per turn, {PLOT_SCENARIO} rules, jail strategy: {PLOT_JAIL}",
                )
            )
            written.append(plot_returns(tables, edition, out / f"returns_{edition}.png"))
    return written


def summary(tables: Tables) -> str:
    """Per edition, scenario and jail strategy: in jail per turn, salary per turn, the top square,
    and the group with the best return per unit spent at its top level."""
    head = (
        f"{'edition':<9}{'scenario':<15}{'jail':<7}{'jail/turn':>10}{'salary/turn':>12}"
        f"  {'top square (per turn)':<30}{'best group at hotel (return/unit, payback turns)'}"
    )
    lines = [head, "-" * len(head)]
    for row in tables.scenarios:
        key = (row["edition"], row["scenario"], row["jail"])
        r = tables.results[key]
        top = int(r.per_turn.squares.argmax())
        groups = [
            g
            for g in tables.groups
            if (g["edition"], g["scenario"], g["jail"]) == key
            and g["level"] == "hotel"
            and g["return_per_unit"] is not None
        ]
        best = max(groups, key=lambda g: g["return_per_unit"]) if groups else None
        best_text = (
            f"{best['group']} ({100 * best['return_per_unit']:.2f}%, {best['payback_turns']:.0f})"
            if best
            else "-"
        )
        lines.append(
            f"{key[0]:<9}{key[1]:<15}{key[2]:<7}{100 * row['p_in_jail_turn']:>9.2f}%"
            f"{row['salary_per_turn']:>12.1f}  "
            f"{r.edition.square_name(top)[:22]:<22}{100 * r.per_turn.squares[top]:>6.2f}%  "
            f"{best_text}"
        )
    lines += ["", *money_summary(tables)]
    return "\n".join(lines)


def money_summary(tables: Tables) -> list[str]:
    """Per edition and jail strategy (standard rules): the money per turn of one player (cards:
    the bank's, net), the pot's inflow and size per landing, and the worth below which the
    percent income tax is cheaper."""
    head = (
        f"{'money per turn':<17}{'salary':>8}{'taxes':>8}{'fines':>7}{'cards':>7}"
        f"{'repairs/house':>14}{'/hotel':>8}{'pot in':>8}{'pot/landing':>12}{'% tax below':>12}"
    )
    lines = [head, "-" * len(head)]
    for row in tables.scenarios:
        if row["scenario"] != "standard":
            continue
        breakeven = row["percent_tax_breakeven_worth"]
        lines.append(
            f"{row['edition'] + ' ' + row['jail']:<17}{row['salary_per_turn']:>8.1f}"
            f"{row['tax_per_turn']:>8.2f}{row['jail_fines_per_turn']:>7.2f}"
            f"{row['bank_cards_per_turn']:>7.2f}{row['repairs_per_house_per_turn']:>14.3f}"
            f"{row['repairs_per_hotel_per_turn']:>8.3f}{row['pot_inflow_per_turn']:>8.2f}"
            f"{row['pot_per_landing'] or 0:>12.0f}"
            f"{'-' if breakeven is None else f'{breakeven:.0f}':>12}"
        )
    return lines

"""What a simulation found: the table of games, the summary, a printed report and PNG plots.

>>> percentile([1, 2, 3, 4], 0.5)
2.5
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from parlor.sim.runner import CAPPED, ERROR, GameRecord, GameSpec, board_of
from parlor.sim.stream import IntHistogram, RowWriter, Tally, row_schema
from parlor.stats import wilson

#: Bar colours of the colour groups of every bundled edition (Matador's in Danish).
GROUP_COLORS = {
    "brown": "#8B4513",
    "light_blue": "#87CEEB",
    "pink": "#D63A96",
    "orange": "#F7941D",
    "red": "#ED1B24",
    "yellow": "#FEF200",
    "green": "#1FB25A",
    "dark_blue": "#0072BB",
    "railroad": "#444444",
    "utility": "#9E9E9E",
    "blaa": "#4F7FC4",
    "lilla": "#8E44AD",
    "graa": "#A0A0A0",
    "hvid": "#E8E8E8",
    "roed": "#ED1B24",
    "gul": "#FEF200",
    "groen": "#1FB25A",
    "rederi": "#444444",
    "bryggeri": "#9E9E9E",
}
OTHER_COLOR = "#C8C8C8"


# ----- statistics ------------------------------------------------------------------------------
def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) with linear interpolation, as numpy's default."""
    if not values:
        return float("nan")
    xs = sorted(values)
    pos = (len(xs) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return float(xs[lo] + (xs[hi] - xs[lo]) * (pos - lo))


def _distribution(values: Sequence[int]) -> dict[str, float | int | None]:
    hist = IntHistogram()
    for v in values:
        hist.add(v)
    return hist.distribution()


def _rate(wins: int, games: int, ties: int) -> dict[str, Any]:
    lo, hi = (round(x, 4) for x in wilson(wins, games))
    rate = round(wins / games, 4) if games else 0.0
    return {
        "games": games,
        "wins": wins,
        "ties": ties,
        "win_rate": rate,
        "ci_low": lo,
        "ci_high": hi,
    }


def summarize(
    records: Iterable[GameRecord] | Tally,
    spec: GameSpec,
    base_seed: int = 0,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The run in numbers, JSON-safe, from its records or from a :class:`Tally` of them.

    Win rates count outright wins over all games (capped games and errors count as games not
    won); a game won jointly counts as a tie for each joint winner. The 95% intervals are Wilson
    score intervals. Game lengths are over the games that ended (capped ones did not).
    """
    tally = records if isinstance(records, Tally) else Tally.of(records, spec)
    n = tally.games
    reasons = tally.reasons
    out: dict[str, Any] = {
        "game": spec.game,
        "edition": spec.edition,
        "spec": spec.to_dict(),
        "base_seed": base_seed,
        "games": n,
        "ended": tally.ended,
        "capped": reasons.get(CAPPED, 0),
        "errors": reasons.get(ERROR, 0),
        "error_examples": tally.error_examples(),
        "end_reasons": {k: reasons[k] for k in sorted(reasons, key=lambda k: (-reasons[k], k))},
        "fair_rate": round(1 / spec.players, 4),
        "seats": [
            {"seat": s, **_rate(tally.seat_wins[s], n, tally.seat_ties[s])}
            for s in range(spec.players)
        ],
        "bots": [
            {"bot": b, **_rate(tally.bot_wins[b], tally.bot_games[b], tally.bot_ties[b])}
            for b in sorted(tally.bot_games)
        ],
        "length": {
            "turns": tally.turns.distribution(),
            "rounds": tally.rounds.distribution(),
            "decisions": tally.decisions.distribution(),
        },
    }
    if spec.game == "monopoly":
        out["currency"] = board_of(spec).currency
        out["board"] = _board_summary(tally, spec)
    if extra:
        out.update(extra)
    return out


def _board_summary(tally: Tally, spec: GameSpec) -> list[dict[str, Any]]:
    edition = board_of(spec)
    n = max(1, tally.games)
    landings, rent = tally.landings, tally.rent
    total = sum(landings) or 1
    rows = []
    for sq in range(40):
        square = edition.squares[sq]
        rows.append(
            {
                "square": sq,
                "name": edition.square_name(sq),
                "kind": square.kind,
                "group": square.group,
                "landings": landings[sq],
                "landing_share": round(landings[sq] / total, 5),
                "rent_total": rent[sq],
                "rent_per_game": round(rent[sq] / n, 2),
            }
        )
    return rows


# ----- the table of games ----------------------------------------------------------------------
def records_table(records: Iterable[GameRecord]) -> Any:
    """The games as a :class:`pyarrow.Table`, one row per game, in the order given."""
    import pyarrow as pa  # type: ignore[import-untyped]

    return pa.Table.from_pylist([r.to_row() for r in records], schema=row_schema())


def write_table(
    records: Iterable[GameRecord],
    out_dir: Path,
    csv: bool = False,
    spec: GameSpec | None = None,
    base_seed: int = 0,
) -> list[Path]:
    """Write ``games.parquet`` (and ``games.csv``, list columns as JSON text) into ``out_dir``,
    in batches (see :class:`parlor.sim.stream.RowWriter`); with ``spec``, the file keeps the
    settings (and ``base_seed``) that :mod:`parlor.sim.rows` makes the report from."""
    with RowWriter(out_dir, csv=csv, spec=spec, base_seed=base_seed) as writer:
        for r in records:
            writer.add(r)
    return writer.paths


def write_summary(summary: Mapping[str, Any], out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "summary.json"
    path.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


# ----- the printed report ----------------------------------------------------------------------
def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _num(x: Any) -> str:
    if x is None:
        return "-"
    return f"{x:g}" if isinstance(x, float) else str(x)


def render_summary(summary: Mapping[str, Any], console: Any = None, top: int = 10) -> None:
    """Print the summary as tables (with rich) to ``console`` (default: standard output)."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    spec = summary["spec"]
    what = summary["game"] if summary["game"] == "tools" else f"{summary['edition']} edition"
    options = ", ".join(f"{k}={v}" for k, v in spec["options"].items()) or "defaults"
    console.print(
        f"[bold]{summary['games']} games[/] of {what}, {spec['players']} players, "
        f"line-up {', '.join(spec['bots'])}{' (rotating seats)' if spec['rotate'] else ''}; "
        f"rules: {options}; seeds {summary['base_seed']}.."
        f"{summary['base_seed'] + max(0, summary['games'] - 1)}; "
        f"cap {spec['max_decisions']} decisions"
    )

    def rate_table(title: str, key: str, rows: Sequence[Mapping[str, Any]]) -> Table:
        t = Table(title=title, box=box.SIMPLE_HEAVY, title_justify="left")
        t.add_column(key.capitalize())
        for col in ("games", "wins", "ties", "win rate", "95% CI"):
            t.add_column(col, justify="right")
        for row in rows:
            t.add_row(
                str(row[key]),
                str(row["games"]),
                str(row["wins"]),
                str(row["ties"]),
                _pct(row["win_rate"]),
                f"{_pct(row['ci_low'])} - {_pct(row['ci_high'])}",
            )
        return t

    fair = _pct(summary["fair_rate"])
    console.print(rate_table(f"Win rate per seat (fair share {fair})", "seat", summary["seats"]))
    console.print(rate_table("Win rate per bot (per seat played)", "bot", summary["bots"]))

    lengths = Table(
        title=f"Game length ({summary['ended']} games that ended)",
        box=box.SIMPLE_HEAVY,
        title_justify="left",
    )
    lengths.add_column("")
    for col in ("mean", "median", "p10", "p90", "min", "max"):
        lengths.add_column(col, justify="right")
    for name, dist in summary["length"].items():
        lengths.add_row(
            name, *(_num(dist[c]) for c in ("mean", "median", "p10", "p90", "min", "max"))
        )
    console.print(lengths)

    ends = Table(title="How games ended", box=box.SIMPLE_HEAVY, title_justify="left")
    ends.add_column("reason")
    ends.add_column("games", justify="right")
    ends.add_column("share", justify="right")
    for reason, count in summary["end_reasons"].items():
        # the ids (summary.json keeps them) in words: "empty_hand" reads "empty hand"
        label = reason.replace("_", " ")
        label = f"{label} (cap reached)" if reason == CAPPED else label
        ends.add_row(label, str(count), _pct(count / max(1, summary["games"])))
    console.print(ends)

    if "board" in summary:
        board = summary["board"]
        land = Table(
            title=f"Most landed-on squares (top {top})", box=box.SIMPLE_HEAVY, title_justify="left"
        )
        for col, justify in (("square", "right"), ("name", "left"), ("share", "right")):
            land.add_column(col, justify=justify)  # type: ignore[arg-type]
        for row in sorted(board, key=lambda r: -r["landings"])[:top]:
            land.add_row(str(row["square"]), row["name"], f"{100 * row['landing_share']:.2f}%")
        console.print(land)
        rent = Table(
            title=f"Top rent earners (top {top})", box=box.SIMPLE_HEAVY, title_justify="left"
        )
        for col, justify in (
            ("square", "right"),
            ("name", "left"),
            ("rent / game", "right"),
            ("total", "right"),
        ):
            rent.add_column(col, justify=justify)  # type: ignore[arg-type]
        for row in sorted(board, key=lambda r: -r["rent_total"])[:top]:
            if row["rent_total"]:
                rent.add_row(
                    str(row["square"]),
                    row["name"],
                    f"{row['rent_per_game']:,.0f}",
                    f"{row['rent_total']:,}",
                )
        console.print(rent)
    for err in summary.get("error_examples", []):
        console.print(f"[red]game {err['index']} (seed {err['seed']}) failed:[/] {err['error']}")


# ----- plots -----------------------------------------------------------------------------------
def plot_all(
    records: Iterable[GameRecord] | Tally,
    summary: Mapping[str, Any],
    out_dir: Path,
    top: int = 15,
) -> list[Path]:
    """Draw the PNG plots into ``out_dir`` and return their paths (from the run's records or
    its :class:`Tally`: the plots need the summary and the histogram of lengths only)."""
    import matplotlib

    matplotlib.use("Agg")
    out_dir.mkdir(parents=True, exist_ok=True)
    if not isinstance(records, Tally):
        records = Tally.of(records, _spec_of(summary))
    paths = [
        _plot_win_rates(summary, out_dir / "win_rates.png"),
        _plot_lengths(records, summary, out_dir / "game_lengths.png"),
    ]
    if "board" in summary:
        paths.append(_plot_landings(summary, out_dir / "landings.png"))
        paths.append(_plot_rent(summary, out_dir / "rent.png", top))
    return paths


def _title(summary: Mapping[str, Any]) -> str:
    what = "TOOLS" if summary["game"] == "tools" else f"{summary['edition']} edition"
    variant = summary["spec"]["options"].get("variant")
    if variant:
        what += f", {variant} variant"
    return f"{what}: {summary['games']} games, {summary['spec']['players']} players"


def _rate_bars(
    ax: Any,
    labels: Sequence[str],
    rows: Sequence[Mapping[str, Any]],
    fair: float,
    title: str,
    color: str,
) -> None:
    rates = [r["win_rate"] * 100 for r in rows]
    lower = [(r["win_rate"] - r["ci_low"]) * 100 for r in rows]
    upper = [(r["ci_high"] - r["win_rate"]) * 100 for r in rows]
    xs = range(len(rows))
    ax.bar(
        xs, rates, color=color, yerr=[lower, upper], capsize=6, ecolor="#333333", edgecolor="white"
    )
    ax.axhline(
        fair * 100,
        color="#B03A2E",
        linestyle="--",
        linewidth=1.2,
        label=f"fair share {fair * 100:.1f}%",
    )
    for x, r in zip(xs, rows, strict=True):
        ax.annotate(
            f"{r['win_rate'] * 100:.1f}%",
            (x, r["ci_high"] * 100),
            ha="center",
            va="bottom",
            fontsize=9,
            xytext=(0, 3),
            textcoords="offset points",
        )
    ax.set_xticks(list(xs), labels)
    ax.set_ylabel("win rate (%)")
    ax.set_title(title, fontsize=11)
    top = max([r["ci_high"] * 100 for r in rows] + [fair * 100])
    if top * 1.2 + 2 >= 100:  # leave room above 100% for the labels
        ax.set_ylim(0, 112)
        ax.set_yticks(range(0, 101, 20))
    else:
        ax.set_ylim(0, top * 1.2 + 2)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="upper right", fontsize=8, frameon=False)


def _plot_win_rates(summary: Mapping[str, Any], path: Path) -> Path:
    import matplotlib.pyplot as plt

    seats, bots = summary["seats"], summary["bots"]
    fig, axes = plt.subplots(
        1,
        2,
        figsize=(11, 4.5),
        gridspec_kw={"width_ratios": [max(2, len(seats)), max(2, len(bots))]},
    )
    fair = summary["fair_rate"]
    _rate_bars(axes[0], [f"seat {r['seat']}" for r in seats], seats, fair, "per seat", "#4C72B0")
    _rate_bars(
        axes[1], [r["bot"] for r in bots], bots, fair, "per bot (per seat played)", "#55A868"
    )
    fig.suptitle(f"Win rates with 95% Wilson intervals — {_title(summary)}", fontsize=12)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def _spec_of(summary: Mapping[str, Any]) -> GameSpec:
    spec = dict(summary["spec"])
    spec["bots"] = tuple(spec["bots"])
    return GameSpec(**spec)


def _plot_lengths(tally: Tally, summary: Mapping[str, Any], path: Path) -> Path:
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    turns = tally.turns
    by_reason = tally.turns_by_reason
    reasons = sorted(by_reason)
    fig, ax = plt.subplots(figsize=(9, 4.5))
    outliers = ""
    if turns.n:
        lo = turns.min()
        # A few very long games would squash the rest: show up to the 99th percentile.
        cut = max(turns.quantile(0.99), lo)
        hi = max(t for t in turns.counts if t <= cut)
        beyond = sum(c for t, c in turns.counts.items() if t > hi)
        if beyond:
            outliers = f"; {beyond} longer games (up to {turns.max()} turns) not shown"
        width = max(1, math.ceil((hi - lo + 1) / 40))
        edges = list(range(lo, hi + width + 1, width))
        shown = [sorted(t for t in by_reason[reason].counts if t <= hi) for reason in reasons]
        ax.hist(
            shown,
            weights=[
                [by_reason[reason].counts[t] for t in values]
                for reason, values in zip(reasons, shown, strict=True)
            ],
            bins=edges,
            stacked=True,
            label=reasons,
            edgecolor="white",
            linewidth=0.5,
        )
        dist = summary["length"]["turns"]
        for key, style in (("median", "-"), ("p90", ":")):
            ax.axvline(
                dist[key],
                color="#333333",
                linestyle=style,
                linewidth=1.2,
                label=f"{key} {dist[key]:g}",
            )
        ax.legend(fontsize=8, frameon=False, title="ended by", title_fontsize=8)
    else:
        ax.text(0.5, 0.5, "no game ended", ha="center", va="center", transform=ax.transAxes)
    capped = summary["capped"]
    note = (
        f"{capped} of {summary['games']} games capped at {summary['spec']['max_decisions']} "
        "decisions (not shown)"
        if capped
        else "no game capped"
    ) + outliers
    ax.set_title(f"Game length in turns — {_title(summary)}\n{note}", fontsize=11)
    ax.set_xlabel("turns")
    ax.set_ylabel("games")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def _square_color(row: Mapping[str, Any]) -> str:
    group = row.get("group")
    return GROUP_COLORS.get(str(group), OTHER_COLOR) if group else OTHER_COLOR


def _plot_landings(summary: Mapping[str, Any], path: Path) -> Path:
    import matplotlib.pyplot as plt

    board = summary["board"]
    shares = [r["landing_share"] * 100 for r in board]
    fig, ax = plt.subplots(figsize=(14, 5.5))
    ax.bar(
        range(40),
        shares,
        color=[_square_color(r) for r in board],
        edgecolor="#555555",
        linewidth=0.5,
    )
    ax.axhline(100 / 40, color="#B03A2E", linestyle="--", linewidth=1, label="uniform (2.5%)")
    ax.set_xticks(
        range(40),
        [f"{r['square']} {r['name']}" for r in board],
        rotation=70,
        ha="right",
        fontsize=7.5,
    )
    ax.set_xlim(-0.7, 39.7)
    ax.set_ylabel("share of all landings (%)")
    ax.set_title(
        f"How often each square is landed on — {_title(summary)}\n"
        "(bars in the colour of the property group; being sent to jail counts as "
        "landing on the jail square)",
        fontsize=11,
    )
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, frameon=False)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def _plot_rent(summary: Mapping[str, Any], path: Path, top: int) -> Path:
    import matplotlib.pyplot as plt

    rows = sorted(
        (r for r in summary["board"] if r["rent_total"] > 0), key=lambda r: -r["rent_total"]
    )[:top]
    fig, ax = plt.subplots(figsize=(9, 0.35 * max(4, len(rows)) + 1.6))
    if rows:
        rows = rows[::-1]
        values = [r["rent_per_game"] for r in rows]
        ax.barh(
            range(len(rows)),
            values,
            color=[_square_color(r) for r in rows],
            edgecolor="#555555",
            linewidth=0.5,
        )
        ax.set_yticks(range(len(rows)), [f"{r['name']} ({r['square']})" for r in rows], fontsize=9)
        for y, v in enumerate(values):
            ax.annotate(
                f"{v:,.0f}",
                (v, y),
                xytext=(3, 0),
                textcoords="offset points",
                va="center",
                fontsize=8,
            )
        ax.set_xlim(0, max(values) * 1.15)
    else:
        ax.text(0.5, 0.5, "no rent was paid", ha="center", va="center", transform=ax.transAxes)
    ax.set_xlabel(f"rent collected per game ({summary.get('currency') or 'money'})")
    ax.set_title(f"Top {top} rent earners — {_title(summary)}", fontsize=11)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path

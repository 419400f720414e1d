"""``parlor analyze``: exact landing probabilities, expected rents and payback for an edition.

    parlor analyze --edition classic --jail both --per both --opponents 3 --out out/analysis
    parlor analyze --edition classic --cards cycling --orders 20    # decks that cycle, exactly

prints the tables (80 columns wide), and writes under ``--out`` (by default a new
``out/analysis-DATE-TIME``; a folder of an earlier run is said to be replaced): ``squares.csv`` (every square's probability per
roll and per turn for each jail strategy), ``rents.csv`` (expected rent per opponent turn and
round at each level, payback of each house and hotel) and ``board_<jail>_<per>.png`` heatmaps.

Cards are drawn uniformly by default (the convention of published analyses). ``--cards cycling``
draws them as the rules do, from decks in a fixed order where a drawn card goes under: solved
exactly for each of ``--orders`` seeded shuffles and averaged (the tables show the spread across
shuffles; ``squares.csv`` has each square's standard deviation, minimum and maximum), or for the
one shuffle ``--deck-seed``.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path
from textwrap import fill
from typing import Any

from parlor.analysis.cycling import CyclingAverage, CyclingChain, average, random_orders
from parlor.analysis.markov import (
    CARD_MODELS,
    JAIL,
    JAIL_CARD_MODELS,
    JAIL_STRATEGIES,
    ChainResult,
    MarkovChain,
)
from parlor.analysis.rents import property_rents
from parlor.cli.common import help_language, parse_options
from parlor.core.errors import E_, ParlorError, SettingsError
from parlor.i18n import Translator, translate_error, translator
from parlor.monopoly.edition import load_edition
from parlor.monopoly.rules import VARIANTS, RuleOptions

PERS = ("roll", "turn")
DEFAULT_ORDERS = 20


#: The width the help's prose is wrapped to (argparse keeps a raw description as it is).
WIDTH = 78
EXAMPLES = """
    parlor analyze --edition classic --jail both --per both --opponents 3 --out out/analysis
    parlor analyze --edition classic --cards cycling --orders 20"""


def description(_: Translator) -> str:
    """The help's description (the module's docstring, in the help's language)."""
    paragraphs = [
        _(
            "parlor analyze: exact landing probabilities, expected rents and payback for an edition."
        ),
        EXAMPLES,
        _(
            "It prints the tables, and writes under --out: squares.csv (every square's "
            "probability per roll and per turn for each jail strategy), rents.csv (expected "
            "rent per opponent turn and round at each level, payback of each house and hotel) "
            "and board_<jail>_<per>.png heatmaps."
        ),
        _(
            "Cards are drawn uniformly by default (the convention of published analyses). "
            "--cards cycling draws them as the rules do, from decks in a fixed order where a "
            "drawn card goes under: solved exactly for each of --orders seeded shuffles and "
            "averaged, or for the one shuffle --deck-seed."
        ),
    ]
    return "\n\n".join(p if p is EXAMPLES else fill(p, WIDTH) for p in paragraphs)


def add_parser(subparsers: Any, _: Translator | None = None) -> argparse.ArgumentParser:
    """Register the ``analyze`` subcommand on an argparse subparsers object."""
    _ = _ or translator()
    p: argparse.ArgumentParser = subparsers.add_parser(
        "analyze",
        help=_("exact landing probabilities, expected rents and payback of an edition"),
        description=description(_),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--edition",
        default="classic",
        help=_("edition id (classic, matco, latam, matador) or an edition file"),
    )
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=_("a rule option, e.g. jail_max_turns=2 (repeatable)"),
    )
    p.add_argument("--variant", choices=VARIANTS, default=None, help=_("rules variant"))
    p.add_argument(
        "--jail",
        choices=(*JAIL_STRATEGIES, "both"),
        default="both",
        help=_("leave jail at once (pay or use a card), stay and throw for doubles, or both"),
    )
    p.add_argument(
        "--cards",
        choices=CARD_MODELS,
        default="uniform",
        help=_(
            "card draws: uniform (independent, the published convention; default) or cycling "
            "(each deck in a fixed order, a drawn card going under, as the rules have it)"
        ),
    )
    p.add_argument(
        "--orders",
        type=int,
        default=None,
        metavar="N",
        help=f"cycling: average the exact figures of N shuffles, deck seeds 0..N-1 "
        f"(default {DEFAULT_ORDERS})",
    )
    p.add_argument(
        "--deck-seed",
        type=int,
        default=None,
        metavar="S",
        help=_("cycling: the exact figures of the one shuffle with deck seed S"),
    )
    p.add_argument(
        "--jail-cards",
        choices=JAIL_CARD_MODELS,
        default="deck",
        help=_(
            "get-out-of-jail cards stay in the deck as no-move cards (the published "
            "convention) or are held for good, leaving the decks without them"
        ),
    )
    p.add_argument(
        "--per",
        choices=(*PERS, "both"),
        default="both",
        help=_("where each throw ends, where each turn ends, or both"),
    )
    p.add_argument(
        "--opponents",
        type=int,
        default=3,
        help=_("opponents of a property owner: opponent turns per round (default 3)"),
    )
    p.add_argument(
        "--out",
        default=None,
        help=_(
            "directory for CSV and PNG files (default: a new out/analysis-DATE-TIME, so that no "
            "run overwrites another)"
        ),
    )
    p.add_argument("--no-plot", action="store_true", help=_("skip the heatmaps"))
    p.add_argument(
        "--all",
        action="store_true",
        help=_(
            "the value tables of every edition, scenario and jail strategy: CSV, Parquet, a "
            "data dictionary and plots under --out (docs/analysis.md)"
        ),
    )
    p.set_defaults(run=run)
    return p


def _options(pairs: list[str], variant: str | None) -> dict[str, Any]:
    try:
        options = parse_options(pairs)
    except ValueError as exc:
        raise SettingsError(E_("--option: {reason}", reason=str(exc))) from exc
    if variant is not None:
        options["variant"] = variant
    return options


def run(args: argparse.Namespace) -> int:
    """Run the analysis; bad arguments print a message and give exit code 2."""
    try:
        return _run(args)
    except ParlorError as exc:
        lang = help_language([])  # (the environment's language: analyze has no --lang)
        reason = translate_error(exc, lang)
        _ = translator(lang)
        print(_("parlor analyze: {reason}", reason=reason), file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    if getattr(args, "all", False):
        return _run_all(args)
    if args.cards != "cycling" and (args.orders is not None or args.deck_seed is not None):
        raise SettingsError(E_("--orders and --deck-seed go with --cards cycling"))
    if args.orders is not None and args.deck_seed is not None:
        raise SettingsError(
            E_("--orders averages shuffles, --deck-seed picks one: give one of them")
        )
    if args.orders is not None and args.orders < 1:
        raise SettingsError(E_("--orders must be at least 1"))
    if args.opponents < 1:
        raise SettingsError(E_("--opponents must be at least 1"))
    edition = load_edition(args.edition)
    options = RuleOptions.for_edition(edition, _options(args.option, args.variant))
    jails = JAIL_STRATEGIES if args.jail == "both" else (args.jail,)
    pers = PERS if args.per == "both" else (args.per,)
    spread: dict[str, CyclingAverage] = {}
    if args.cards == "uniform":
        results = {
            j: MarkovChain(edition, options, jail=j, jail_cards=args.jail_cards).solve()
            for j in jails
        }
        cards = "uniform draws"
        label = ""
    elif args.deck_seed is not None:
        orders = random_orders(edition, args.deck_seed)
        results = {
            j: CyclingChain(edition, options, jail=j, jail_cards=args.jail_cards).solve(orders)
            for j in jails
        }
        cards = f"cycling decks, the shuffle with deck seed {args.deck_seed}"
        label = f"\ncycling decks, deck seed {args.deck_seed}"
    else:
        from tqdm import tqdm  # type: ignore[import-untyped]

        n = DEFAULT_ORDERS if args.orders is None else args.orders
        with tqdm(
            total=n * len(jails), desc="cycling decks", unit="shuffle", delay=2, file=sys.stderr
        ) as bar:
            for j in jails:
                spread[j] = average(
                    edition, options, j, args.jail_cards, orders=n, progress=bar.update
                )
        results = {j: a.mean for j, a in spread.items()}
        cards = f"cycling decks, mean of {n} exact shuffles (deck seeds 0..{n - 1}" + (
            "; ± the standard deviation across them)" if n > 1 else ")"
        )
        label = f"\ncycling decks, mean of {n} shuffles"
    out = _out_dir(args.out)
    out.mkdir(parents=True, exist_ok=True)
    # (every line fits 80 columns: a terminal wraps longer ones mid-word; issue 20)
    print(
        fill(
            f"{edition.title} ({edition.id}); cards: {cards}; jail cards: "
            f"{args.jail_cards}; jail_max_turns={options.jail_max_turns}, "
            f"jail_doubles_extra_throw={options.jail_doubles_extra_throw}",
            WIDTH,
        )
    )
    if not any(len(a.results) > 1 for a in spread.values()):
        spread = {}  # one shuffle: no spread to show
    print(square_table(results, pers, spread))
    for j, r in results.items():
        print()
        print(
            fill(
                f"Expected rent per opponent turn (jail strategy: {j}; "
                f"{r.throws_per_turn:.4f} throws per turn)",
                WIDTH,
            )
        )
        print(rent_table(r, args.opponents))
    names = ["squares.csv", "rents.csv"]
    if not args.no_plot:
        names += [f"board_{j}_{per}.png" for j in results for per in pers]
    earlier = [out / name for name in names if (out / name).exists()]
    write_squares_csv(results, out / "squares.csv", spread)
    write_rents_csv(results, args.opponents, out / "rents.csv")
    written = [out / "squares.csv", out / "rents.csv"]
    if not args.no_plot:
        from parlor.analysis.board import draw_board

        for j, r in results.items():
            for per in pers:
                written.append(
                    draw_board(
                        edition,
                        r.distribution(per),
                        out / f"board_{j}_{per}.png",
                        f"probability per {per}, jail strategy: {j}" + label,
                    )
                )
    print()
    _ = translator(help_language([]))  # (the environment's language: analyze has no --lang)
    print(fill(_("wrote {paths}", paths=", ".join(str(p) for p in written)), WIDTH))
    if earlier:  # (a folder named with --out: said, never done silently)
        print(
            fill(
                _(
                    "replaced what an earlier run had written there: {paths}",
                    paths=", ".join(p.name for p in earlier),
                ),
                WIDTH,
            )
        )
    return 0


def _out_dir(given: str | None) -> Path:
    """``--out``, or a new folder for this run (a second run never overwrites the first)."""
    if given is not None:
        return Path(given)
    base = Path("out") / time.strftime("analysis-%Y%m%d-%H%M%S")
    path, n = base, 2
    while path.exists():  # (two runs in one second)
        path, n = Path(f"{base}-{n}"), n + 1
    return path


def _run_all(args: argparse.Namespace) -> int:
    """``--all``: every edition x scenario x jail strategy (parlor.analysis.tables)."""
    from parlor.analysis.tablefiles import summary, write_all
    from parlor.analysis.tables import build

    if args.opponents < 1:
        raise SettingsError(E_("--opponents must be at least 1"))
    tables = build(opponents=args.opponents)
    written = write_all(tables, _out_dir(args.out), plots=not args.no_plot)
    _ = translator(help_language([]))  # (the environment's language: analyze has no --lang)
    print(summary(tables))
    print()
    print(_("tables computed in {seconds} s", seconds=f"{tables.seconds:.1f}"))
    print(_("wrote {paths}", paths=", ".join(str(p) for p in written)))
    return 0


def _square_name(r: ChainResult, square: int) -> str:
    if square == JAIL:
        return "In Jail"
    if square == r.edition.jail_square:
        return r.edition.text("just_visiting")
    return r.edition.square_name(square)


def square_table(
    results: dict[str, ChainResult],
    pers: tuple[str, ...],
    spread: dict[str, CyclingAverage] | None = None,
) -> str:
    """Every square (and In Jail) with its probability per roll/turn for each jail strategy; with
    ``spread`` (cycling decks, several shuffles), each followed by its standard deviation across
    the shuffles."""
    first = next(iter(results.values()))
    cols = [(j, per) for j in results for per in pers]
    sds = {(j, per): spread[j].std(per) for j, per in cols} if spread else {}
    width = 18 if sds else 12
    # as many columns as fit 80 characters; the rest in a table of their own below
    per_table = max(1, (WIDTH - 29) // width)
    tables = []
    for start in range(0, len(cols), per_table):
        part = cols[start : start + per_table]
        head = f"{'#':>3}  {'square':<24}" + "".join(f"{j + ' ' + per:>{width}}" for j, per in part)
        lines = [head, "-" * len(head)]
        for i, sq in enumerate([*range(40), JAIL]):
            row = f"{'' if sq == JAIL else sq:>3}  {_square_name(first, sq)[:24]:<24}"
            for j, per in part:
                d = results[j].distribution(per)
                p = d.in_jail if sq == JAIL else float(d.squares[sq])
                cell = f"{100 * p:.3f}%"
                if sds:
                    cell += f" ±{100 * sds[j, per][i]:.3f}"
                row += f"{cell:>{width}}"
            lines.append(row)
        tables.append("\n".join(lines))
    return "\n\n".join(tables)


def rent_table(r: ChainResult, opponents: int) -> str:
    """Streets: expected rent per opponent turn at each level, then each building's payback in
    opponent turns (and rounds); railroads and utilities: by the number the owner holds."""
    props = property_rents(r)
    streets = [p for p in props if p.kind == "street"]
    others = [p for p in props if p.kind != "street"]
    lines: list[str] = []
    # Two tables for the streets (rents, then paybacks), so that each fits 80 columns.
    if streets:
        short = {"1 house": "1 h", "2 houses": "2 h", "3 houses": "3 h", "4 houses": "4 h"}
        labels = [short.get(lv.label, lv.label) for lv in streets[0].levels]
        head = f"{'#':>3}  {'street':<18}{'land':>8}" + "".join(f"{lb:>7}" for lb in labels)
        lines += [head, "-" * len(head)]
        for prop in streets:
            row = f"{prop.square:>3}  {prop.name[:18]:<18}{100 * prop.landings:>7.3f}%"
            row += "".join(f"{_rent(lv.expected):>7}" for lv in prop.levels)
            lines.append(row)
        built = [lv.label for lv in streets[0].levels if lv.cost]
        lines += ["", f"Payback in opponent turns (rounds of {opponents} opponents)"]
        head = f"{'#':>3}  {'street':<18}" + "".join(f"{lb:>10}" for lb in built)
        lines += [head, "-" * len(head)]
        for prop in streets:
            row = f"{prop.square:>3}  {prop.name[:18]:<18}"
            paybacks = [lv.payback_turns for lv in prop.levels if lv.cost]
            row += "".join(
                f"{'-' if t is None else f'{t:.0f}({t / opponents:.0f})':>10}" for t in paybacks
            )
            lines.append(row)
    if others:
        lines.append("")
        head = f"{'#':>3}  {'railroad / utility':<22}{'land/turn':>10}" + "".join(
            f"{f'{k} owned':>10}" for k in range(1, 5)
        )
        lines += [head, "-" * len(head)]
        for prop in others:
            row = f"{prop.square:>3}  {prop.name[:22]:<22}{100 * prop.landings:>9.3f}%"
            row += "".join(f"{lv.expected:>10.2f}" for lv in prop.levels)
            lines.append(row)
    return "\n".join(lines)


def _rent(value: float) -> str:
    """An expected rent in at most 6 characters (kroner rents run to hundreds)."""
    if value < 100:
        return f"{value:.2f}"
    return f"{value:.1f}" if value < 1000 else f"{value:.0f}"


def write_squares_csv(
    results: dict[str, ChainResult],
    path: Path,
    spread: dict[str, CyclingAverage] | None = None,
) -> None:
    """One row per square (and In Jail); with ``spread`` (cycling decks, several shuffles) each
    probability is followed by its standard deviation, minimum and maximum across the shuffles."""
    first = next(iter(results.values()))
    stats = ("sd", "min", "max") if spread else ()
    extra: dict[tuple[str, str], list[Any]] = {}
    for j, a in (spread or {}).items():
        for per in PERS:
            extra[j, per] = [a.std(per), a.low(per), a.high(per)]
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        names = [
            f"{j}_per_{per}{suffix}"
            for j in results
            for per in PERS
            for suffix in ("", *(f"_{st}" for st in stats))
        ]
        w.writerow(["square", "name", "kind", *names])
        for i, sq in enumerate([*range(40), JAIL]):
            kind = "in_jail" if sq == JAIL else first.edition.squares[sq].kind
            values = []
            for j, r in results.items():
                for per in PERS:
                    d = r.distribution(per)
                    values.append(f"{d.in_jail if sq == JAIL else float(d.squares[sq]):.8f}")
                    values += [f"{v[i]:.8f}" for v in extra.get((j, per), [])]
            w.writerow([sq, _square_name(first, sq), kind, *values])


def write_rents_csv(results: dict[str, ChainResult], opponents: int, path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(
            [
                "jail",
                "square",
                "name",
                "kind",
                "group",
                "landings_per_turn",
                "level",
                "rent",
                "cost",
                "expected_per_opponent_turn",
                "expected_per_round",
                "payback_opponent_turns",
                "payback_rounds",
            ]
        )
        for j, r in results.items():
            for prop in property_rents(r):
                for lv in prop.levels:
                    pay = lv.payback_turns
                    w.writerow(
                        [
                            j,
                            prop.square,
                            prop.name,
                            prop.kind,
                            prop.group,
                            f"{prop.landings:.8f}",
                            lv.label,
                            lv.rent,
                            lv.cost,
                            f"{lv.expected:.6f}",
                            f"{lv.expected * opponents:.6f}",
                            "" if pay is None else f"{pay:.2f}",
                            "" if pay is None else f"{pay / opponents:.2f}",
                        ]
                    )


def main(argv: list[str] | None = None) -> int:
    """Run ``analyze`` on its own (``python -m parlor.cli.analyze_cmd``)."""
    parser = argparse.ArgumentParser(prog="parlor")
    add_parser(
        parser.add_subparsers(dest="command", required=True), translator(help_language(argv))
    )
    args = parser.parse_args(["analyze", *(sys.argv[1:] if argv is None else argv)])
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())

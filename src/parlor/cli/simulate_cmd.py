"""``parlor simulate``: play many seeded bot games and report who wins, how long games last and
how they end (for property games also where tokens land and which properties earn rent).

Example::

    parlor simulate --game monopoly --edition classic --bots heuristic,random,random,random \\
        --games 1000 --seed 1 --out out/classic
    parlor simulate --from out/classic --csv     # the report again, from games.parquet alone
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from textwrap import fill
from typing import Any

from parlor.build import PROBES, build_name, compiled_modules
from parlor.cli.common import help_language, parse_option
from parlor.core.errors import E_, ParlorError
from parlor.i18n import Translator, translate_error, translator

GAMES = ("monopoly", "tools")


#: The width the help's prose is wrapped to (argparse keeps a raw description as it is).
WIDTH = 78
EXAMPLE = """
    parlor simulate --game monopoly --edition classic --bots heuristic,random,random,random \\
        --games 1000 --seed 1 --out out/classic
    parlor simulate --from out/classic --csv"""


def description(_: Translator) -> str:
    """The help's description (the module's docstring, in the help's language)."""
    return (
        fill(
            _(
                "parlor simulate: play many seeded bot games and report who wins, how long "
                "games last and how they end (for property games also where tokens land and "
                "which properties earn rent)."
            ),
            WIDTH,
        )
        + "\n\n"
        + _("Example:")
        + "\n"
        + EXAMPLE
    )


def add_parser(subparsers: Any, _: Translator | None = None) -> argparse.ArgumentParser:
    """Register ``simulate`` on the ``parlor`` command's subparsers."""
    _ = _ or translator()
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "simulate",
        help=_("run many seeded bot games and report win rates, lengths and plots"),
        description=description(_),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(parser, _)
    parser.set_defaults(run=run)
    return parser


def add_arguments(parser: argparse.ArgumentParser, _: Translator) -> None:
    what = parser.add_argument_group(_("what to play"))
    what.add_argument(
        "--game",
        choices=GAMES,
        default="monopoly",
        help=_("monopoly (the property games) or tools (default: monopoly)"),
    )
    what.add_argument(
        "--edition",
        default=None,
        help=_(
            "property edition: classic, matco, latam, matador or an edition file (default: classic)"
        ),
    )
    what.add_argument(
        "--variant",
        default=None,
        help=_("property-game variant: standard, short, time_limit, quick"),
    )
    what.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=_(
            "a rule option, repeatable (e.g. --option time_limit_rounds=100, "
            "--option auctions=false, --option hand_size=5)"
        ),
    )
    what.add_argument("--deck", default=None, help=_("TOOLS deck file (default: the bundled deck)"))
    what.add_argument("--players", type=int, default=4, help=_("players per game (default: 4)"))
    what.add_argument(
        "--bots",
        default="random",
        help=_(
            "the line-up, one bot name per seat separated by commas, or one name "
            "for every seat (default: random)"
        ),
    )
    what.add_argument(
        "--bot-option",
        action="append",
        default=[],
        metavar="BOT.KEY=VALUE",
        help=_(
            "an option for every seat played by a bot, repeatable "
            "(e.g. --bot-option search.simulations=128)"
        ),
    )
    what.add_argument(
        "--rotate-seats",
        action="store_true",
        help=_("turn the line-up one seat per game, so each bot sits in every seat"),
    )
    what.add_argument("--games", type=int, default=100, help=_("number of games (default: 100)"))
    what.add_argument(
        "--seed", type=int, default=0, help=_("base seed: game i is seeded seed + i (default: 0)")
    )
    what.add_argument(
        "--max-decisions",
        type=int,
        default=None,
        help=_(
            "stop a game after this many decisions and count it as capped "
            "(default: 20000 for property games, 5000 for TOOLS)"
        ),
    )
    how = parser.add_argument_group(_("where to run"))
    how.add_argument(
        "--workers",
        type=int,
        default=None,
        help=_("worker processes, or Ray CPUs for a local Ray (default: all cores)"),
    )
    how.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help=_("local processes, or Ray (default: local)"),
    )
    how.add_argument(
        "--ray-address",
        default=None,
        help=_(
            "address of a Ray cluster (host:port of its head, ray://head:10001 or auto); "
            "implies --backend ray (default with --backend ray: $RAY_ADDRESS, else a local Ray)"
        ),
    )
    how.add_argument(
        "--ray-ship-code",
        action="store_true",
        help=_("upload this parlor package to the Ray workers (when the cluster lacks it)"),
    )
    out = parser.add_argument_group(_("output"))
    out.add_argument(
        "--out",
        type=Path,
        default=None,
        help=_("output directory (default: ./out/sim-<timestamp>)"),
    )
    out.add_argument("--csv", action="store_true", help=_("also write games.csv"))
    out.add_argument(
        "--records",
        type=Path,
        default=None,
        metavar="DIR",
        help=_("also write each game's record (docs/records.md) to DIR, one .plr file a game"),
    )
    out.add_argument("--no-plots", action="store_true", help=_("do not draw the PNG plots"))
    out.add_argument("--no-progress", action="store_true", help=_("no progress bar"))
    out.add_argument(
        "--top", type=int, default=15, help=_("properties shown in the rent chart (default: 15)")
    )
    again = parser.add_argument_group(_("the report of an earlier run"))
    again.add_argument(
        "--from",
        dest="rows",
        type=Path,
        default=None,
        metavar="PATH",
        help=_(
            "play nothing: make the summary and the plots (and games.csv with --csv) again from "
            "the rows of an earlier run, its games.parquet or the directory that holds it, "
            "into --out (default: that directory)"
        ),
    )


#: Options that say what to play and where: a report made --from a rows file takes none.
RUN_OPTIONS = (
    "game",
    "edition",
    "variant",
    "option",
    "deck",
    "players",
    "bots",
    "bot_option",
    "rotate_seats",
    "games",
    "seed",
    "max_decisions",
    "workers",
    "backend",
    "ray_address",
    "ray_ship_code",
    "records",
)


class UsageError(Exception):
    """Bad command-line settings: reported in one line with exit code 2."""


def build_spec(args: argparse.Namespace) -> Any:
    """The :class:`parlor.sim.GameSpec` the arguments describe (raises :class:`UsageError`)."""
    from parlor.sim import GameSpec

    options: dict[str, Any] = {}
    for text in args.option:
        try:
            key, value = parse_option(text)
        except ValueError as exc:
            raise UsageError(str(exc)) from exc
        options[key] = value
    if args.variant is not None:
        if args.game != "monopoly":
            raise UsageError(E_("--variant is for property games; TOOLS has rule options instead"))
        options["variant"] = args.variant
    if args.games < 0:
        raise UsageError(E_("--games must be at least 0"))
    if args.workers is not None and args.workers < 1:
        raise UsageError(E_("--workers must be at least 1"))
    bot_options: dict[str, dict[str, Any]] = {}
    for text in args.bot_option:
        try:
            key, value = parse_option(text)
        except ValueError as exc:
            raise UsageError(
                E_("a bot option is BOT.KEY=VALUE, not {text}", text=repr(text))
            ) from exc
        bot, dot, name = key.partition(".")
        if not dot or not bot or not name:
            raise UsageError(E_("a bot option is BOT.KEY=VALUE, not {text}", text=repr(text)))
        bot_options.setdefault(bot, {})[name] = value
    bots = tuple(b.strip() for b in args.bots.split(","))
    try:
        spec = GameSpec(
            game=args.game,
            edition=args.edition,
            players=args.players,
            bots=bots,
            options=options,
            deck=args.deck,
            max_decisions=args.max_decisions,
            rotate=args.rotate_seats,
            bot_options=bot_options,
            records=getattr(args, "records", None) is not None,
        )
        spec.check()
    except ParlorError as exc:
        raise UsageError(exc.text) from exc
    except (ValueError, TypeError) as exc:  # bots raise either
        raise UsageError(str(exc)) from exc
    return spec


def _error(exc: Exception) -> None:
    lang = help_language([])  # (the environment's language: simulate has no --lang)
    _ = translator(lang)
    reason = translate_error(exc, lang)
    print(_("parlor simulate: error: {reason}", reason=reason), file=sys.stderr)


def _out_problem(out_dir: Path | None, exc: OSError | None = None) -> UsageError | None:
    """Why the results cannot go to ``out_dir`` (made now if missing), or None: said before any
    game is played, in one line, not as a traceback (``--out /proc/x``: issue 20)."""
    if exc is None:
        if out_dir is None:
            return None
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
            if not os.access(out_dir, os.W_OK | os.X_OK):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
            return None
        except OSError as failed:
            exc = failed
    reason = exc.strerror or str(exc)
    return UsageError(
        E_("cannot write the results to {path}: {reason}", path=str(out_dir), reason=reason)
    )


def _run_options_given(args: argparse.Namespace) -> list[str]:
    parser = argparse.ArgumentParser()
    add_arguments(parser, translator())
    defaults = parser.parse_args([])
    return [
        "--" + name.replace("_", "-")
        for name in RUN_OPTIONS
        if getattr(args, name) != getattr(defaults, name)
    ]


def run(args: argparse.Namespace) -> int:
    if args.rows is not None:
        return run_from(args)
    try:
        spec = build_spec(args)
    except UsageError as exc:
        _error(exc)
        return 2
    from rich.console import Console

    from parlor.core.errors import ParlorError
    from parlor.sim import iter_records, report, rows
    from parlor.sim.stream import RowWriter

    backend = "ray" if args.ray_address else args.backend
    ray_address = args.ray_address or (os.environ.get("RAY_ADDRESS") if backend == "ray" else None)
    workers = args.workers or os.cpu_count() or 1
    out_dir: Path = args.out or Path("out") / time.strftime("sim-%Y%m%d-%H%M%S")
    problem = _out_problem(out_dir)
    if problem is not None:
        _error(problem)
        return 2
    console = Console()
    if args.records is not None:
        try:
            args.records.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            _error(exc)
            return 2
    started = time.perf_counter()
    # The games stream to the table's files as they finish: memory does not grow with the
    # number of games. The settings go into the file, and the report is then made from it.
    try:
        with RowWriter(out_dir, csv=args.csv, spec=spec, base_seed=args.seed) as writer:
            for record in iter_records(
                spec,
                args.games,
                args.seed,
                workers=workers,
                backend=backend,
                progress=not args.no_progress,
                ray_address=ray_address,
                ship_code=args.ray_ship_code,
            ):
                writer.add(record)
                if args.records is not None and record.record:
                    name = f"game-{record.index:06d}.plr"
                    (args.records / name).write_text(record.record, encoding="utf-8")
            seconds = time.perf_counter() - started
            writer.run = {
                "backend": backend,
                "workers": workers,
                "seconds": round(seconds, 2),
                "ray_address": ray_address,
                "build": build_name(),
            }
    except ParlorError as exc:
        _error(exc)
        return 2
    except OSError as exc:  # (the disk filled up, the folder went away...)
        _error(_out_problem(out_dir, exc) or exc)
        return 2
    # The same report `parlor simulate --from` makes: from the file, row group by row group.
    try:
        made = rows.make_report(writer.paths[0], out_dir, plots=not args.no_plots, top=args.top)
    except ParlorError as exc:  # (an edition file gone since the run started)
        _error(exc)
        return 2
    except OSError as exc:
        _error(_out_problem(out_dir, exc) or exc)
        return 2
    report.render_summary(made.summary, console, top=10)
    games = made.summary["games"]
    rate = games / seconds if seconds > 0 else float("inf")
    _ = translator(help_language([]))  # (the environment's language: simulate has no --lang)
    console.print(
        _(
            "{games} games in {seconds} s ({rate} games/s, {backend}, {workers} workers)",
            games=games,
            seconds=f"{seconds:.1f}",
            rate=f"{rate:.1f}",
            backend=backend,
            workers=workers,
        )
    )
    console.print(_build_line(_))
    written = [*writer.paths, *made.paths]
    if args.records is not None:
        written.append(args.records / "game-*.plr")
    console.print(_("wrote {paths}", paths=", ".join(str(p) for p in written)))
    return 0


def _build_line(_: Translator) -> str:
    """Which build of Parlor played here (the optional compiled one is faster: README)."""
    found = compiled_modules()
    if len(found) == len(PROBES):
        return _("build: compiled (mypyc)")
    if not found:
        return _("build: plain Python")
    return _("build: partly compiled ({modules})", modules=", ".join(found))


def run_from(args: argparse.Namespace) -> int:
    """``parlor simulate --from PATH``: the report of an earlier run, from its rows file."""
    given = _run_options_given(args)
    if given:
        _error(
            UsageError(
                E_(
                    "--from makes the report of a run that was played: it takes its settings "
                    "from the file, so leave out {options}",
                    options=", ".join(given),
                )
            )
        )
        return 2
    from rich.console import Console

    from parlor.core.errors import ParlorError
    from parlor.sim import report, rows

    problem = _out_problem(args.out)
    if problem is not None:
        _error(problem)
        return 2
    try:
        made = rows.make_report(
            args.rows, args.out, plots=not args.no_plots, csv=args.csv, top=args.top
        )
    except ParlorError as exc:
        _error(exc)
        return 2
    except OSError as exc:
        _error(_out_problem(args.out if args.out is not None else args.rows, exc) or exc)
        return 2
    console = Console()
    report.render_summary(made.summary, console, top=10)
    _ = translator(help_language([]))
    console.print(
        _(
            "made from the {games} rows of {path}",
            games=made.summary["games"],
            path=str(rows.locate(args.rows)),
        )
    )
    console.print(_("wrote {paths}", paths=", ".join(str(p) for p in made.paths)))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    _ = translator(help_language(argv))
    parser = argparse.ArgumentParser(
        prog="parlor simulate",
        description=description(_),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_arguments(parser, _)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())

"""Play a property-trading game in the terminal: ``parlor play``.

(Also ``python -m parlor.cli.monopoly_tui``.)

Every edition (classic, matco, latam, matador, or an edition file) and variant can be played by
humans and bots sharing the table, in the edition's language or in English, Spanish or Danish
(``--lang``). At a human's decision the table and standings are shown, the possible answers are
listed by number, and letters open the other menus: ``b`` to build, sell or mortgage, ``t`` to
propose a trade, ``v`` to view the board, ``s`` to save, ``q`` to quit, ``h`` for help. Bad input
and illegal moves are answered with the reason, and the prompt comes back. The other seats are
played by heuristic bots unless ``--bot`` names another kind; a save records who plays each seat.

The loop only uses the public game interface, and takes its streams as arguments, so a script
can drive it:

>>> import io
>>> out = io.StringIO()
>>> main(["--bots", "all", "--seed", "1", "--max-steps", "200"], io.StringIO(""), out)
0
>>> "Stopped after 200 steps" in out.getvalue()
True
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from parlor.bots.base import Bot
from parlor.bots.registry import bot_names, make_bot
from parlor.cli.common import (
    Seat,
    add_bot_arguments,
    add_save_arguments,
    bot_epilog,
    clean_text,
    help_language,
    parse_names,
    parse_options,
    parse_seats,
)
from parlor.cli.console import Terminal, harden_std_streams
from parlor.cli.monopoly_session import (
    DEFAULT_BOT_STEPS,
    SHOW_MODES,
    Options,
    Session,
    menu_actions,
)
from parlor.cli.saves import SaveError, read_save, replay
from parlor.core.errors import ParlorError
from parlor.core.game import Event
from parlor.i18n import (
    LANGUAGES,
    N_,
    Translator,
    check_language,
    pick_language,
    translate_error,
    translator,
)
from parlor.monopoly import EDITION_IDS, VARIANTS, CallTime, PropertyGame, load_edition, new_game
from parlor.monopoly import text as words

__all__ = ["DEFAULT_BOT_STEPS", "add_parser", "event_text", "main", "menu_actions", "play", "run"]

DEFAULT_BOT = "heuristic"
BOT_HELP = {
    "heuristic": N_("a sound rule-based player (the default)"),
    "offering": N_("the heuristic bot that also offers priced trades"),
    "random": N_("any legal move at random (a weak, erratic opponent)"),
    "search": N_("looks ahead over many simulated games (strong, slow)"),
}
#: A bot seat in the opening line, in the game's language.
BOT_SEAT = {
    "heuristic": N_("{name} (heuristic bot)"),
    "offering": N_("{name} (bot that offers trades)"),
    "random": N_("{name} (random bot)"),
    "search": N_("{name} (search bot)"),
}
VARIANT_NAMES = {
    "standard": N_("standard game"),
    "short": N_("short game"),
    "time_limit": N_("time-limit game"),
    "quick": N_("quick game"),
}


def event_text(game: PropertyGame, event: Event, lang: str | None = None) -> str:
    """An event in words, with the edition's names and money."""
    return words.describe_event(game, event, lang)


def play(
    game: PropertyGame,
    humans: set[int],
    bots: dict[int, Bot],
    input: TextIO,
    output: TextIO,
    *,
    max_steps: int | None = None,
    save_path: str | None = None,
    width: int = 80,
    minutes: float | None = None,
    lang: str | None = None,
    show: str | None = None,
    seats: list[Seat] | None = None,
) -> int:
    """Play ``game`` on the given streams: ``humans`` type, ``bots`` choose.

    Returns 0 when the game ends or ``max_steps`` actions were applied, 1 when a human quits or
    the input ends. With ``save_path`` the game is saved there after every human action and
    every turn, at the end and on quitting. Once no human is left in the game, the bots play on
    for at most ``DEFAULT_BOT_STEPS`` actions unless ``max_steps`` says otherwise. With ``minutes``
    (time-limit and quick games) time is called when they have passed.
    """
    missing = set(range(game.num_players)) - humans - set(bots)
    if missing:
        raise ValueError(f"seats {sorted(missing)} are neither human nor bot")
    options = Options(
        lang=words.language(game, lang),
        save_path=save_path,
        max_steps=max_steps,
        minutes=minutes,
        show=show,
        seats=seats or [],
    )
    return Session(game, humans, bots, Terminal(input, output, width), options).run()


# ----- the command -----------------------------------------------------------------------------
def add_parser(subparsers: Any, _: Translator | None = None) -> argparse.ArgumentParser:
    """Register the ``play`` subcommand."""
    _ = _ or translator()
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "play",
        help=_("play a property-trading game in the terminal"),
        description=_(
            "Play a property-trading game (classic, matco, latam, matador) against bots or "
            "friends at the same keyboard."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=bot_epilog("monopoly", BOT_HELP, _),
    )
    _add_arguments(parser, _)
    return parser


def _add_arguments(parser: argparse.ArgumentParser, _: Translator) -> None:
    parser.add_argument(
        "--edition",
        default=None,
        help=_(
            "{ids} (default classic), or the path of an edition TOML file",
            ids=", ".join(EDITION_IDS),
        ),
    )
    parser.add_argument("--players", type=int, default=None, help=_("number of players (4)"))
    parser.add_argument("--names", default=None, help=_('comma-separated names, e.g. "Ann,Bo,Cy"'))
    add_bot_arguments(parser, "monopoly", DEFAULT_BOT, _)
    parser.add_argument("--seed", type=int, default=None, help=_("random seed (default: random)"))
    parser.add_argument(
        "--variant", default=None, help=_("one of {names}", names=", ".join(VARIANTS))
    )
    parser.add_argument(
        "--option",
        action="append",
        default=None,
        metavar="KEY=VALUE",
        help=_("a rule option, e.g. auctions=false or time_limit_rounds=30 (repeatable)"),
    )
    parser.add_argument(
        "--lang",
        "--language",
        dest="lang",
        default=None,
        help=_(
            "language of the game: {langs} (default: the edition's own)", langs=", ".join(LANGUAGES)
        ),
    )
    add_save_arguments(parser, _)
    parser.add_argument(
        "--minutes",
        type=float,
        default=None,
        help=_("time-limit and quick games: call time after this many minutes"),
    )
    parser.add_argument(
        "--max-steps",
        type=int,
        default=None,
        help=_("stop after this many actions (bot-only games: {n})", n=DEFAULT_BOT_STEPS),
    )
    parser.add_argument(
        "--show",
        choices=SHOW_MODES,
        default=None,
        help=_(
            "how bot turns are shown: every event, short (auctions summed up; the default with "
            "a human) or quiet (purchases, trades and bankruptcies; the default for bots only)"
        ),
    )
    parser.add_argument(
        "--pace",
        type=float,
        default=0.0,
        help=_("seconds to wait after each bot turn, to follow the game (default 0)"),
    )
    parser.set_defaults(run=run)


class _SetupError(Exception):
    pass


def _load(
    args: argparse.Namespace, _: Translator
) -> tuple[PropertyGame, list[Seat] | None, str | None]:
    try:
        loaded = read_save(args.load)
        game = replay(PropertyGame, loaded)  # (a game on an edition file carries its data)
    except SaveError as exc:
        hint = ""
        if str(exc).startswith("unknown edition"):
            hint = " " + _("(a game on an edition file: give that file with --edition)")
        raise _SetupError(
            _(
                "--load: {path} is not a saved game that replays: {reason}",
                path=args.load,
                reason=translate_error(exc, _.lang),
            )
            + hint
        ) from exc
    return game, loaded.seats, loaded.language


def _seats_from_args(
    args: argparse.Namespace, players: int, seed: int, _: Translator
) -> list[Seat]:
    try:
        bot_seats = parse_seats(args.bots or "all-but-1", players, _)
    except ValueError as exc:
        raise _SetupError(f"--bots: {exc}") from exc
    kind = args.bot or DEFAULT_BOT
    return [Seat(kind, seed * 1000 + q) if q in bot_seats else Seat() for q in range(players)]


def _setup(
    args: argparse.Namespace, _: Translator
) -> tuple[PropertyGame, list[Seat], str, list[str]]:
    notes: list[str] = []
    if args.bot is not None and args.bot not in bot_names("monopoly"):
        raise _SetupError(
            _(
                "--bot: unknown bot {name}: choose one of {names}",
                name=repr(clean_text(args.bot)),
                names=", ".join(bot_names("monopoly")),
            )
        )
    if args.max_steps is not None and args.max_steps < 1:
        raise _SetupError(_("--max-steps must be at least 1"))
    if args.lang is not None:
        try:
            check_language(args.lang)
        except ParlorError as exc:
            raise _SetupError(f"--lang: {translate_error(exc, _.lang)}") from exc
    if args.load:
        ignored = [
            flag
            for flag, value in (
                ("--players", args.players),
                ("--names", args.names),
                ("--variant", args.variant),
                ("--option", args.option),
            )
            if value
        ]
        if ignored:
            notes.append(_("(the saved game decides: {flags} ignored)", flags=", ".join(ignored)))
        game, saved_seats, saved_lang = _load(args, _)
        seed = args.seed if args.seed is not None else game.seed
        if saved_seats is None or args.bots is not None or args.bot is not None:
            seats = _seats_from_args(args, game.num_players, seed, _)
        else:
            seats = saved_seats
        lang = args.lang or saved_lang or words.language(game)
        return game, seats, lang, notes
    try:
        names = parse_names(args.names, _)
    except ValueError as exc:
        raise _SetupError(f"--names: {exc}") from exc
    players = args.players if args.players is not None else (len(names) if names else 4)
    if names and len(names) != players:
        raise _SetupError(_("{n} names given for {players} players", n=len(names), players=players))
    try:
        options = parse_options(args.option, _)
    except ValueError as exc:
        raise _SetupError(f"--option: {translate_error(exc, _.lang)}") from exc
    if args.variant is not None:
        options["variant"] = args.variant
    edition = load_edition(args.edition or "classic")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    if not 1 <= players <= 64:
        raise _SetupError(
            _("{title} is played by {low} to {high} players, not {n}", title=edition.title,
              low=edition.min_players, high=edition.max_players, n=players)
        )  # fmt: skip
    seats = _seats_from_args(args, players, seed, _)
    lang = args.lang or pick_language(edition.languages)
    if names is None:
        _ = translator(lang)  # the default names in the game's language, not the command's
        names = [
            _("Bot {n}", n=q + 1) if not seat.is_human else _("Player {n}", n=q + 1)
            for q, seat in enumerate(seats)
        ]
    game = new_game(edition, names, seed=seed, options=options)
    return game, seats, lang, notes


def _make_bots(seats: Sequence[Seat]) -> dict[int, Bot]:
    return {
        q: make_bot("monopoly", seat.bot, seed=seat.seed)
        for q, seat in enumerate(seats)
        if seat.bot is not None
    }


def run(
    args: argparse.Namespace,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Set up the game from parsed arguments and play it; 2 (and a message) for bad arguments."""
    if stdin is None and stdout is None:
        harden_std_streams()
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else (out if stdout is not None else sys.stderr)
    _ = translator(args.lang if args.lang in LANGUAGES else "en")
    try:
        game, seats, lang, notes = _setup(args, _)
        bots = _make_bots(seats)
    except (_SetupError, ParlorError) as exc:
        print(_("parlor play: error: {reason}", reason=translate_error(exc, _.lang)), file=err)
        return 2
    _ = translator(lang)
    humans = {q for q, seat in enumerate(seats) if seat.is_human}
    # (NaN fails every comparison: "not 0 <= nan" refuses it, as it refuses -1 and infinity)
    if args.minutes is not None and not 0 <= args.minutes < float("inf"):  # (0: time is up)
        print(
            _(
                "parlor play: error: --minutes must be a number of minutes, 0 or more, not {value}",
                value=f"{args.minutes:g}",
            ),
            file=err,
        )
        return 2
    if args.minutes is not None and not game.is_legal(CallTime(0)):
        print(_("parlor play: error: --minutes needs --variant time_limit or quick"), file=err)
        return 2
    max_steps = args.max_steps
    if max_steps is None and not humans:
        max_steps = DEFAULT_BOT_STEPS
    width = shutil.get_terminal_size((80, 24)).columns if stdout is None else 80
    term = Terminal(inp, out, width)
    options = Options(
        lang=lang,
        save_path=args.save or args.load,  # a loaded game keeps saving to its file
        max_steps=max_steps,
        minutes=args.minutes,
        show=args.show,
        pace=max(0.0, min(args.pace, 10.0)),
        crash_path=None if stdout is not None else f"parlor-{game.edition.id}-{game.seed}.json",
        seats=seats,
    )
    session = Session(game, humans, bots, term, options)
    try:
        _introduce(session, seats, notes)
        return session.run()
    except Exception as exc:  # a bug: say so briefly, and keep the game
        saved = session.rescue()
        where = (
            _("the game is saved to {path}", path=saved)
            if saved
            else _("the game could not be saved")
        )
        print(
            _("parlor play: internal error ({kind}: {reason}); {where}.", kind=type(exc).__name__,
              reason=str(exc)[:200], where=where),
            file=err,
        )  # fmt: skip
        return 1


def seat_name(name: str, seat: Seat, _: Translator) -> str:
    """A seat as the opening line names it: the player's name, and what kind of bot it is."""
    if seat.is_human:
        return name
    if seat.bot in BOT_SEAT:
        return _(BOT_SEAT[seat.bot], name=name)
    return _("{name} (bot: {kind})", name=name, kind=seat.bot)


def _introduce(session: Session, seats: Sequence[Seat], notes: list[str]) -> None:
    game, _ = session.game, session._
    ed = game.edition
    who = ", ".join(seat_name(name, seat, _) for name, seat in zip(game.names, seats, strict=True))
    variant = game.options.variant
    kind = _(VARIANT_NAMES[variant]) if variant in VARIANT_NAMES else variant
    session.say(
        _(
            "{title} ({kind}), seed {seed}: {players}.",
            title=ed.title,
            kind=kind,
            seed=game.seed,
            players=who,
        )
    )
    for note in notes:
        session.say(note)
    if session.humans:
        session.say(_("Type h for help."))
    if game.log:
        session.say(_("Resuming after {n} actions.", n=len(game.log)))
    else:
        for event in game.setup_events:
            session.say(f"  {words.describe_event(game, event, session.lang)}")


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Standalone entry point: ``python -m parlor.cli.monopoly_tui [options]``."""
    _ = translator(help_language(argv))
    parser = argparse.ArgumentParser(
        prog="parlor play",
        description=_("Play a property-trading game in the terminal."),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=bot_epilog("monopoly", BOT_HELP, _),
    )
    _add_arguments(parser, _)
    args = parser.parse_args(argv)
    try:
        return run(args, stdin, stdout, stderr)
    except KeyboardInterrupt:
        print("\n" + _("bye"), file=stdout if stdout is not None else sys.stdout)
        return 130


if __name__ == "__main__":
    sys.exit(main())

"""Play TOOLS in the terminal: ``parlor tools`` (or ``python -m parlor.cli.tools_tui``).

Humans and bots (heuristic unless ``--bot`` says otherwise) share the table, in Spanish (the
game's language) or English or Danish (``--lang``). On a human's turn the hand is listed sorted
by colour, numbered, with the cards that can be played now marked ``*``; the player types a
card's number, or a letter for the other moves (``?`` lists them). With two or more humans at
one keyboard, each hand stays hidden until its player says they are ready. Bad input and
illegal moves are answered with the reason, and the prompt comes back. ``--save`` keeps the game
(and who plays each seat) after every move; ``--load`` resumes it.

The game loop takes its input and output streams as arguments, so it can be driven by a script:

>>> import io
>>> out = io.StringIO()
>>> main(["--players", "2", "--bots", "all", "--seed", "1", "--lang", "en"],
...      stdin=io.StringIO(""), stdout=out)
0
>>> "wins" in out.getvalue()
True
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from parlor.bots.registry import bot_names, make_bot
from parlor.cli.common import (
    Seat,
    add_bot_arguments,
    add_save_arguments,
    bot_epilog,
    clean_text,
    help_language,
    parse_names,
    parse_seats,
)
from parlor.cli.console import Terminal, harden_std_streams
from parlor.cli.saves import SaveError, read_save, replay
from parlor.cli.tools_table import Table, help_text, sorted_hand
from parlor.core.errors import ParlorError
from parlor.i18n import LANGUAGES, N_, Translator, check_language, translate_error, translator
from parlor.tools import (
    ToolsGame,
    new_game,
)
from parlor.tools import text as words

__all__ = ["add_parser", "help_text", "main", "parse_seats", "play", "run", "sorted_hand"]

DEFAULT_BOT = "heuristic"
BOT_HELP = {
    "heuristic": N_("a sound rule-based player (the default)"),
    "random": N_("any legal card at random (a weak, erratic opponent)"),
    "search": N_("looks ahead over many simulated deals (strong, slower)"),
}


# ----- the command -----------------------------------------------------------------------------
def add_parser(subparsers: Any, _: Translator | None = None) -> argparse.ArgumentParser:
    """Register the ``tools`` subcommand."""
    _ = _ or translator()
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "tools",
        help=_("play the TOOLS card game in the terminal"),
        description=_("Play TOOLS: 2-10 players, any seats played by bots."),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=bot_epilog("tools", BOT_HELP, _),
    )
    _add_arguments(parser, _)
    return parser


def _add_arguments(parser: argparse.ArgumentParser, _: Translator) -> None:
    parser.add_argument("--players", type=int, default=None, help=_("number of players, 2-10 (4)"))
    add_bot_arguments(parser, "tools", DEFAULT_BOT, _)
    parser.add_argument("--seed", type=int, default=None, help=_("random seed (default: random)"))
    parser.add_argument(
        "--names", default=None, help=_('comma-separated names, e.g. "Ana,Bob,Eva"')
    )
    parser.add_argument(
        "--deck", default=None, help=_("a deck TOML file (default: the built-in deck)")
    )
    parser.add_argument(
        "--lang",
        "--language",
        dest="lang",
        default=None,
        help=_("language of the game: {langs} (default es)", langs=", ".join(LANGUAGES)),
    )
    add_save_arguments(parser, _)
    parser.set_defaults(run=run)


class _SetupError(Exception):
    pass


def _setup(args: argparse.Namespace, _: Translator) -> tuple[ToolsGame, list[Seat], str]:
    if args.bot is not None and args.bot not in bot_names("tools"):
        raise _SetupError(
            _(
                "--bot: unknown bot {name}: choose one of {names}",
                name=repr(clean_text(args.bot)),
                names=", ".join(bot_names("tools")),
            )
        )
    if args.lang is not None:
        try:
            check_language(args.lang)
        except ParlorError as exc:
            raise _SetupError(f"--lang: {translate_error(exc, _.lang)}") from exc
    if args.load:
        try:
            loaded = read_save(args.load)
            game = replay(ToolsGame, loaded)
        except SaveError as exc:
            raise _SetupError(
                _(
                    "--load: {path} is not a saved game that replays: {reason}",
                    path=args.load,
                    reason=translate_error(exc, _.lang),
                )
            ) from exc
        if loaded.seats is not None and args.bots is None and args.bot is None:
            seats = loaded.seats
        else:
            seats = _seats(args, game.num_players, game.seed, _)
        return game, seats, args.lang or loaded.language or words.DEFAULT_LANGUAGE
    try:
        names = parse_names(args.names, _)
    except ValueError as exc:
        raise _SetupError(f"--names: {exc}") from exc
    players = args.players if args.players is not None else (len(names) if names else 4)
    if names and len(names) != players:
        raise _SetupError(_("{n} names given for {players} players", n=len(names), players=players))
    if not 2 <= players <= 10:
        raise _SetupError(_("TOOLS is for 2-10 players, not {n}", n=players))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    seats = _seats(args, players, seed, _)
    lang = args.lang or words.DEFAULT_LANGUAGE
    if names is None:
        _ = translator(lang)  # the default names in the game's language, not the command's
        names = [
            _("Player {n}", n=q + 1) if seat.is_human else _("Bot {n}", n=q + 1)
            for q, seat in enumerate(seats)
        ]
    game = new_game(names, seed=seed, deck=args.deck)
    return game, seats, lang


def _seats(args: argparse.Namespace, players: int, seed: int, _: Translator) -> list[Seat]:
    try:
        bot_seats = parse_seats(args.bots or "all-but-1", players, _)
    except ValueError as exc:
        raise _SetupError(f"--bots: {exc}") from exc
    kind = args.bot or DEFAULT_BOT
    return [Seat(kind, seed * 1000 + q) if q in bot_seats else Seat() for q in range(players)]


def run(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Set up the game from parsed arguments and play it on the given streams."""
    if stdin is None and stdout is None:
        harden_std_streams()
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    err = out if stdout is not None else sys.stderr  # (a refusal is not part of the game)
    _ = translator(args.lang if args.lang in LANGUAGES else "en")
    try:
        game, seats, lang = _setup(args, _)
        bots = {q: make_bot("tools", s.bot, seed=s.seed) for q, s in enumerate(seats) if s.bot}
    except (_SetupError, ParlorError) as exc:
        print(_("parlor tools: error: {reason}", reason=translate_error(exc, _.lang)), file=err)
        return 2
    width = shutil.get_terminal_size((80, 24)).columns if stdout is None else 80
    table = Table(game, seats, bots, Terminal(inp, out, width), lang, args.save or args.load)
    _ = table._
    try:
        table.say(
            _(
                "TOOLS, {n} players, seed {seed}. Type h for help.",
                n=game.num_players,
                seed=game.seed,
            )
        )
        if game.log:
            table.say(_("Resuming after {n} actions.", n=len(game.log)))
        return table.run()
    except Exception as exc:  # a bug: say so briefly, and keep the game
        saved = table.rescue()
        where = (
            _("the game is saved to {path}", path=saved)
            if saved
            else _("the game could not be saved")
        )
        print(
            _("parlor tools: internal error ({kind}: {reason}); {where}.", kind=type(exc).__name__,
              reason=str(exc)[:200], where=where),
            file=sys.stderr,
        )  # fmt: skip
        return 1


def play(
    game: ToolsGame,
    bot_seats: set[int],
    inp: TextIO,
    out: TextIO,
    bot_seed: int = 0,
    lang: str = "en",
    bot: str = DEFAULT_BOT,
) -> int:
    """Play ``game`` to the end; returns 0 when it ends, 1 if the human quits or input ends."""
    seats = [
        Seat(bot, bot_seed * 1000 + q) if q in bot_seats else Seat()
        for q in range(game.num_players)
    ]
    bots = {q: make_bot("tools", bot, seed=s.seed) for q, s in enumerate(seats) if s.bot}
    return Table(game, seats, bots, Terminal(inp, out), lang, None).run()


def main(
    argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    """Standalone entry point: ``python -m parlor.cli.tools_tui [options]``."""
    _ = translator(help_language(argv))
    parser = argparse.ArgumentParser(
        prog="parlor tools",
        description=_("Play TOOLS in the terminal."),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=bot_epilog("tools", BOT_HELP, _),
    )
    _add_arguments(parser, _)
    args = parser.parse_args(argv)
    try:
        return run(args, stdin, stdout)
    except KeyboardInterrupt:
        print("\n" + _("bye"), file=stdout if stdout is not None else sys.stdout)
        return 130


if __name__ == "__main__":
    sys.exit(main())

"""The ``parlor`` command: play in the terminal, simulate many games, analyse the board exactly."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from parlor.i18n import LANGUAGES, environment_language, translator


def help_language(argv: Sequence[str] | None) -> str:
    """The language of the help and messages: ``--lang`` on the command line, else the
    environment's (``LANGUAGE``/``LC_ALL``/``LANG``) when it is one of ours, else English.

    >>> help_language(["play", "--lang", "da"]), help_language(["--lang=es"])
    ('da', 'es')
    """
    args = list(sys.argv[1:] if argv is None else argv)
    for i, arg in enumerate(args):
        if arg in ("--lang", "--language") and i + 1 < len(args) and args[i + 1] in LANGUAGES:
            return args[i + 1]
        for flag in ("--lang=", "--language="):
            if arg.startswith(flag) and arg[len(flag) :] in LANGUAGES:
                return arg[len(flag) :]
    return environment_language() or "en"


def build_parser(lang: str = "en") -> argparse.ArgumentParser:
    _ = translator(lang)
    parser = argparse.ArgumentParser(
        prog="parlor",
        description=_(
            "The parlor command: play in the terminal, simulate many games, analyse the board "
            "exactly."
        ),
    )
    sub = parser.add_subparsers(dest="command", required=True)
    from parlor.cli import analyze_cmd, monopoly_tui, simulate_cmd, tools_tui

    monopoly_tui.add_parser(sub, _)
    tools_tui.add_parser(sub, _)
    simulate_cmd.add_parser(sub)
    analyze_cmd.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    lang = help_language(argv)
    parser = build_parser(lang)
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except (KeyboardInterrupt, EOFError):
        _ = translator(lang)
        print("\n" + _("bye"))
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main())

"""The ``parlor`` command: play in the terminal, simulate many games, analyse the board exactly."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from parlor.cli.common import help_language
from parlor.i18n import translator


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
    from parlor.cli import (
        analyze_cmd,
        monopoly_tui,
        records_cmd,
        render_cmd,
        simulate_cmd,
        tools_tui,
        verify_cmd,
    )

    monopoly_tui.add_parser(sub, _)
    tools_tui.add_parser(sub, _)
    simulate_cmd.add_parser(sub, _)
    analyze_cmd.add_parser(sub, _)
    from parlor.client import cli as client_cli
    from parlor.server import cli as server_cli
    from parlor.server import db_cli

    server_cli.add_parser(sub, _)
    db_cli.add_parser(sub, _)
    client_cli.add_parser(sub, _)
    render_cmd.add_parser(sub, _)
    verify_cmd.add_parser(sub, _)
    records_cmd.add_parser(sub, _)
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

"""``parlor bot --url LINK``: seat a bot that runs here at a table on a Parlor server."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from parlor.i18n import Translator, translator


def add_parser(sub: Any, _: Translator | None = None) -> None:
    _ = _ or translator()
    p = sub.add_parser(
        "bot", help=_("seat a bot at a table on a Parlor server (from its invite link)")
    )
    p.add_argument(
        "--url",
        required=True,
        help=_("the table's invite link, http://host:port/#table=T&invite=I"),
    )
    p.add_argument("--name", default="Remote bot", help=_("display name at the table"))
    p.add_argument(
        "--seat", type=int, default=None, help=_("which free seat to take (default: the first)")
    )
    p.add_argument(
        "--bot",
        default="random",
        choices=["random", "heuristic", "offering", "search"],
        help=_("the Parlor bot to play (offering: property games only)"),
    )
    p.add_argument(
        "--budget",
        type=int,
        default=None,
        help=_("search bot: simulations per searched decision (default 64)"),
    )
    p.add_argument(
        "--time-ms",
        type=int,
        default=None,
        help=_("search bot: milliseconds per decision (instead of --budget)"),
    )
    p.add_argument("--seed", type=int, default=None, help=_("the policy's random seed"))
    p.add_argument(
        "--lang", default=None, help=_("the language of the table's texts: en, es or da")
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from parlor.client import ServerError, bot_policy, play
    from parlor.core.errors import SettingsError

    options: dict[str, Any] = {}
    if args.bot == "search":  # (no budget given: the search bot's own default)
        if args.time_ms is not None:
            options["time_ms"] = args.time_ms
        elif args.budget is not None:
            options["simulations"] = args.budget
    # every bot decides on a sample of what its seat may know, asked of the server each time
    policy = bot_policy(args.bot, args.seed, **options)
    try:
        final = play(args.url, args.name, policy, seat=args.seat, lang=args.lang)
    except (ServerError, SettingsError) as exc:  # (a bot this game has not: told at its turn)
        print(f"parlor bot: {exc}", file=sys.stderr)
        return 2
    names = final.get("names") or []
    winners = ", ".join(str(names[w]) if w < len(names) else str(w) for w in final["winners"])
    print(f"game over ({final['reason']}): {winners} won")
    return 0

"""``parlor bot --url LINK``: seat a bot that runs here at a table on a Parlor server."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from parlor.core.errors import ParlorError
from parlor.i18n import (
    Translator,
    check_language,
    environment_language,
    translate_error,
    translator,
)


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
    from websockets.exceptions import WebSocketException

    from parlor.client import ServerError, bot_policy, parse_link, play
    from parlor.monopoly.text import OUTCOME_REASONS as PROPERTY_REASONS
    from parlor.tools.text import OUTCOME_REASONS as TOOLS_REASONS

    _ = translator(environment_language() or "en")
    try:
        if args.lang is not None:
            _ = translator(check_language(args.lang))
        link = parse_link(args.url)
        if not link.base.startswith(("http://", "https://")) or not link.table:
            raise ValueError(
                _(
                    "{url} is not an invite link (http://host:port/#table=T&invite=I)",
                    url=repr(args.url[:100]),
                )
            )
        options: dict[str, Any] = {}
        if args.bot == "search":  # (no budget given: the search bot's own default)
            if args.time_ms is not None:
                options["time_ms"] = args.time_ms
            elif args.budget is not None:
                options["simulations"] = args.budget
        # every bot decides on a sample of what its seat may know, asked of the server each time
        policy = bot_policy(args.bot, args.seed, **options)
        final = play(args.url, args.name, policy, seat=args.seat, lang=args.lang)
    except ServerError as exc:  # the server's refusal, in the table's language when it has one
        reason: object = translate_error(ValueError(exc.message), _.lang) or exc.code
    except ParlorError as exc:
        reason = translate_error(exc, _.lang)
    except (OSError, ValueError, WebSocketException) as exc:  # no server there, not a link
        reason = getattr(exc, "reason", None) or exc
    else:
        names = final.get("names") or []
        winners = [str(names[w]) if w < len(names) else str(w) for w in final["winners"]]
        key = str(final["reason"])
        words = {**PROPERTY_REASONS, **TOOLS_REASONS}.get(key)
        print(
            _.ngettext(
                "Game over: {names} wins ({reason}).",
                "Game over: {names} win ({reason}).",
                len(winners),
                names=_.join(winners),
                reason=_(words) if words else key.replace("_", " "),
            )
        )
        return 0
    print(_("parlor bot: error: {reason}", reason=str(reason)[:300]), file=sys.stderr)
    return 1

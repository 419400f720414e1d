"""``parlor bot --url LINK``: seat a bot that runs here at a table on a Parlor server."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "bot", help="seat a bot at a table on a Parlor server (from its invite link)"
    )
    p.add_argument(
        "--url", required=True, help="the table's invite link, http://host:port/#table=T&invite=I"
    )
    p.add_argument("--name", default="Remote bot", help="display name at the table")
    p.add_argument(
        "--seat", type=int, default=None, help="which free seat to take (default: the first)"
    )
    p.add_argument("--bot", default="random", choices=["random"], help="the policy to play")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--lang", default=None)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from parlor.client import play, random_policy

    final = play(args.url, args.name, random_policy(args.seed), seat=args.seat, lang=args.lang)
    names = final.get("names") or []
    winners = ", ".join(str(names[w]) if w < len(names) else str(w) for w in final["winners"])
    print(f"game over ({final['reason']}): {winners} won")
    return 0

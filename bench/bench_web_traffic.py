"""The browser page's traffic per seat of a 4-player classic table, before and after issue 18.

Usage: python bench/bench_web_traffic.py [--actions 600] [--per-minute 80] [--seed 3]

Heuristic bots play every seat (standing in for people) and, after each action, every seat's
page is sent what ``parlor serve`` would send it, built by the server's own functions: the
``update`` frame (events, view or changes, prompt). On top of that each page does what the
browser client does, counted in bytes both ways (WebSocket frames travel uncompressed: the server
turns per-message deflate off):

- before (the page before issue 18): protocol 2, the whole view in every update; a ``legal``
  request with the any-time actions after every update (trade proposals and refusal reasons
  included), and a ``POST /api/picture`` with its view for a new board SVG (sent uncompressed)
  after every update;
- after (the page now): protocol 3, each update carries the changes to the view the page holds
  (``parlor.server.viewdiff.smaller``: whole when that is shorter); ``legal`` with
  ``"trades": false`` only when what the page's deed buttons show may have changed (the page's
  ``legalKey``, mirrored below); the board picture fetched once for the table (gzipped), the page
  drawing owners, buildings, mortgages and tokens over it itself.

Bytes per minute = bytes per action x ``--per-minute`` actions a minute. 80 is the pace the
issue measured (about 80 ``legal`` replies a minute per seat with bots pausing 0.6 s); a table
of people is slower, so this is the busy case.
"""

from __future__ import annotations

import argparse
import gzip
import json
from typing import Any

import orjson

from parlor import monopoly
from parlor.bots.registry import make_bot
from parlor.server import games, viewdiff
from parlor.web import edition_data, picture, starting_board

SEATS = 4
#: decisions while which no any-time action is open (the page's CLOSED_KINDS)
CLOSED_KINDS = ("answer_trade", "mortgaged_property", "place_building", "building_wish")


def size(obj: Any) -> int:
    return len(orjson.dumps(obj))


def legal_key(view: dict[str, Any], me: int, ed: dict[str, Any]) -> str:
    """When the page asks ``legal`` (app.js ``legalKey``): its deeds, their groups, the bank's
    stock and what it can pay for, as yes or no, and whether any-time actions are open."""
    pl = view["players"][me]
    mine = [d for d in view["properties"] if d["owner"] == me]
    if not mine or pl["bankrupt"]:
        return ""
    sq = ed["squares"]
    groups = {sq[d["square"]]["group"] for d in mine if sq[d["square"]]["group"]}
    near = [
        [d["square"], d["owner"], d["buildings"], d["mortgaged"]]
        for d in view["properties"]
        if d["owner"] == me or sq[d["square"]]["group"] in groups
    ]
    can = [
        [
            pl["cash"] >= (sq[d["square"]]["house_cost"] or 0),
            pl["cash"] >= sq[d["square"]]["mortgage"] + (sq[d["square"]]["interest"] or 0),
        ]
        for d in mine
    ]
    p = view["pending"]
    when = ""
    if p is not None and p["kind"] in CLOSED_KINDS:
        when = "closed"
    elif p is not None and p["player"] == me and p["kind"] == "raise_funds":
        when = "debt"
    bank = [view["bank"]["houses"] > 0, view["bank"]["hotels"] > 0]
    return json.dumps([near, bank, can, when])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=600)
    parser.add_argument("--per-minute", type=float, default=80.0)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    game = monopoly.new_game("classic", ["Ann", "Bo", "Cy", "Di"], args.seed, {})
    ed = edition_data("classic", "en")
    bots = [make_bot("monopoly", "heuristic", seat) for seat in range(SEATS)]
    before = [0] * SEATS
    after = [0] * SEATS
    updates_before = updates_after = 0
    legal_before = legal_after = pictures_before = asks = changed = 0
    held: list[dict[str, Any] | None] = [None] * SEATS
    last_key = [""] * SEATS
    # the board picture, once per table: the request and its gzipped answer
    board = len(gzip.compress(starting_board("classic", "en", SEATS).encode(), 6)) + 300
    after = [board] * SEATS
    n = 0
    while n < args.actions and not game.is_over:
        seat = game.pending.player  # type: ignore[union-attr]
        events = game.apply(bots[seat].choose(game, seat))
        n += 1
        told = games.event_frames(game, events, "en")
        decider = game.pending.player if game.pending is not None else None
        action = size({"type": "action", "version": n, "id": 0}) / SEATS
        for s in range(SEATS):
            view = game.view(s)
            frame: dict[str, Any] = {
                "type": "update",
                "version": n,
                "events": told,
                "view": view,
                "prompt": games.prompt(game, s, n, "en") if s == decider else None,
                "final": games.final(game),
                "timer_left": None,
            }
            updates_before += size(frame)
            before[s] += int(size(frame) + action)
            # protocol 3: the changes to the view the page holds, when shorter
            old = held[s]
            patch = viewdiff.smaller(old, view) if old is not None else None
            if patch is not None:
                del frame["view"]
                frame["base"], frame["changes"] = n - 1, patch
                changed += 1
            held[s] = view
            updates_after += size(frame)
            after[s] += int(size(frame) + action)
            if game.is_over:
                continue
            # before: legal after every update, with the trades; a new picture every update
            ask = size({"type": "legal", "anytime": True})
            reply = {
                "type": "legal",
                "ref": None,
                "version": n,
                "actions": games.answers(game, s, "en", anytime=True),
                "refused": games.refused(game, s, "en"),
            }
            legal_before += size(reply)
            svg = picture(view, "en").encode()
            body = size({"view": view, "lang": "en", "heat": False, "options": {}})
            before[s] += ask + size(reply) + body + len(svg)
            pictures_before += body + len(svg)
            # after: legal without trades, only when the deed buttons may have changed
            key = legal_key(view, s, ed)
            if key and key != last_key[s]:
                reply = {
                    "type": "legal",
                    "ref": 1,
                    "version": n,
                    "actions": games.answers(game, s, "en", anytime=True, trades=False),
                    "refused": games.refused(game, s, "en"),
                }
                asks += 1
                legal_after += size(reply)
                after[s] += size({"type": "legal", "anytime": True, "trades": False, "ref": 1})
                after[s] += size(reply)
            last_key[s] = key
    per = args.per_minute / n / 1024
    print(f"4-player classic, {n} actions, {args.per_minute:g} actions a minute")
    print(
        f"update frames: before {updates_before / SEATS * per:.0f},"
        f" after {updates_after / SEATS * per:.0f} KB/min/seat"
        f" ({changed} of {n * SEATS} sent as changes)"
    )
    print(
        f"legal replies: before {legal_before / SEATS * per:.0f},"
        f" after {legal_after / SEATS * per:.0f} KB/min/seat"
        f" ({asks / SEATS:.0f} requests a seat, of {n} updates)"
    )
    print(
        f"board pictures: before {pictures_before / SEATS * per:.0f} KB/min/seat,"
        f" after one of {board / 1024:.1f} KB a table"
    )
    for name, counts in (("before", before), ("after", after)):
        each = " ".join(f"{c * per:.0f}" for c in counts)
        print(f"{name}: {sum(counts) / SEATS * per:.0f} KB/min/seat (seats: {each})")


if __name__ == "__main__":
    main()

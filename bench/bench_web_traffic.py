"""The browser page's traffic per seat of a 4-player classic table, before and after issue 18.

Usage: python bench/bench_web_traffic.py [--actions 600] [--per-minute 80] [--seed 3]

Heuristic bots play every seat (standing in for people) and, after each action, every seat's
page is sent what ``parlor serve`` would send it, built by the server's own functions: the
``update`` frame (events, view, prompt). On top of that each page does what the browser client
does, counted in bytes both ways (WebSocket frames travel uncompressed: the server turns
per-message deflate off):

- before: a ``legal`` request with the any-time actions after every update (trade proposals and
  refusal reasons included), and a ``POST /api/picture`` with its view for a new board SVG
  (sent uncompressed) after every update;
- after: ``legal`` with ``"trades": false`` only when the seat owns a deed (the page's any-time
  buttons are on its own deeds), and the board picture only when something the board draws
  outside its middle changed (owners, buildings, mortgages, jail: the page moves the tokens and
  draws the middle itself), gzip-compressed as the server sends it now.

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
from parlor.server import games
from parlor.web import picture

SEATS = 4


def size(obj: Any) -> int:
    return len(orjson.dumps(obj))


def drawn(view: dict[str, Any]) -> str:
    """What the board picture draws outside its middle that the page cannot move itself (the
    page's ``drawnKey``): tokens walk by the page, so positions are not in it."""
    players = [(p["in_jail"], p["bankrupt"]) for p in view["players"]]
    props = [(d["owner"], d["buildings"], d["mortgaged"]) for d in view["properties"]]
    return json.dumps([players, props])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=600)
    parser.add_argument("--per-minute", type=float, default=80.0)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    game = monopoly.new_game("classic", ["Ann", "Bo", "Cy", "Di"], args.seed, {})
    bots = [make_bot("monopoly", "heuristic", seat) for seat in range(SEATS)]
    before = [0] * SEATS
    after = [0] * SEATS
    updates = [0] * SEATS
    legal_before = legal_after = pictures_before = pictures_after = 0
    last_drawn: list[str | None] = [None] * SEATS
    n = 0
    while n < args.actions and not game.is_over:
        seat = game.pending.player  # type: ignore[union-attr]
        events = game.apply(bots[seat].choose(game, seat))
        n += 1
        told = games.event_frames(game, events, "en")
        decider = game.pending.player if game.pending is not None else None
        for s in range(SEATS):
            view = game.view(s)
            frame = {
                "type": "update",
                "version": n,
                "events": told,
                "view": view,
                "prompt": games.prompt(game, s, n, "en") if s == decider else None,
                "final": games.final(game),
                "timer_left": None,
            }
            common = size(frame) + size({"type": "action", "version": n, "id": 0}) / SEATS
            updates[s] += size(frame)
            before[s] += int(common)
            after[s] += int(common)
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
            # after: legal only with a deed of one's own, without trades; the picture on change
            if any(d["owner"] == s for d in view["properties"]):
                reply = {
                    "type": "legal",
                    "ref": None,
                    "version": n,
                    "actions": games.answers(game, s, "en", anytime=True, trades=False),
                    "refused": games.refused(game, s, "en"),
                }
                legal_after += size(reply)
                after[s] += size({"type": "legal", "anytime": True, "trades": False}) + size(reply)
            key = drawn(view)
            if key != last_drawn[s]:
                last_drawn[s] = key
                after[s] += body + len(gzip.compress(svg))
                pictures_after += body + len(gzip.compress(svg))
    per = args.per_minute / n / 1024
    print(f"4-player classic, {n} actions, {args.per_minute:g} actions a minute")
    print(f"update frames alone: {sum(updates) / SEATS * per:.0f} KB/min/seat")
    print(
        f"legal replies: before {legal_before / SEATS * per:.0f}, after {legal_after / SEATS * per:.0f} KB/min/seat"
    )
    print(
        f"board pictures: before {pictures_before / SEATS * per:.0f},"
        f" after {pictures_after / SEATS * per:.0f} KB/min/seat"
    )
    for name, counts in (("before", before), ("after", after)):
        each = " ".join(f"{c * per:.0f}" for c in counts)
        print(f"{name}: {sum(counts) / SEATS * per:.0f} KB/min/seat (seats: {each})")


if __name__ == "__main__":
    main()

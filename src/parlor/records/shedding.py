"""The notation of TOOLS (the shedding game) in a record.

Cards are written by their kind code (``hammer:red``, ``toolbox``; docs/tools-deck.md), which is
what the deck file and the engine call them. Moves: ``P1 play hammer:red``, ``P2 draw -> P2 draws
toolbox``, ``P2 play-drawn toolbox``, ``P2 keep``, ``P3 color blue``, ``P1 hammers red blue``
(the good-nail penalty), ``P4 take-penalty``, ``P1 end``. Chance is written where it happened: the
setup lines give every hand dealt (``* hand P1 ...``) and the card turned up (``* up ...``), and
every move that made somebody draw has the outcome ``Pk draws`` with the cards drawn (sorted:
the order within one draw is not shown), and ``reshuffle`` when the discards became the pile.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from parlor import tools
from parlor.core.errors import E_
from parlor.core.game import Event
from parlor.records.syntax import Line, Record, Tag, problem, tag

GAME = "tools"
_PLAIN: dict[str, type] = {
    "draw": tools.Draw,
    "keep": tools.KeepDrawn,
    "take-penalty": tools.AcceptPenalty,
    "end": tools.EndTurn,
    "play-drawn": tools.PlayDrawn,
}
_VERB_OF = {cls: verb for verb, cls in _PLAIN.items()}


def _default_options() -> dict[str, Any]:
    return tools.ToolsOptions().to_dict()


# ----- the header ---------------------------------------------------------------------------
def header(game: tools.ToolsGame) -> list[Tag]:
    deck = game.settings["deck"]
    tags = [tag("Deck", deck["name"])]
    try:
        bundled = tools.new_game(2, 0, tools.bundled_deck(deck["name"])).settings["deck"]
    except Exception:  # (no bundled deck of that name)
        bundled = None
    if bundled != deck:
        tags.append(tag("DeckData", json.dumps(deck, ensure_ascii=False, sort_keys=True)))
    tags.append(tag("Variant", "standard"))
    defaults = _default_options()
    for key, value in sorted(game.settings["options"].items()):
        if defaults.get(key, object()) != value:
            tags.append(tag("Option", key, json.dumps(value)))
    return tags


def settings(record: Record, names: list[str], option: Mapping[str, Any]) -> dict[str, Any]:
    deck: Any = None
    data = record.tag("DeckData")
    if data is not None:
        try:
            deck = json.loads(data)
        except ValueError:
            raise problem(0, E_("the [DeckData] tag is not JSON")) from None
    else:
        name = record.tag("Deck") or "default"
        if not re.fullmatch(r"[a-z0-9_-]{1,40}", name):  # (a name, never a path)
            raise problem(0, E_("unknown deck {name}", name=repr(name[:40])))
        try:
            deck = tools.new_game(2, 0, tools.bundled_deck(name)).settings["deck"]
        except Exception:
            raise problem(0, E_("unknown deck {name}", name=repr(name[:40]))) from None
    variant = record.tag("Variant", "standard")
    if variant != "standard":
        raise problem(0, E_("TOOLS has no variant {name}", name=repr((variant or "")[:40])))
    out: dict[str, Any] = {"players": names, "deck": deck, "options": {**_default_options()}}
    out["options"].update(option)
    return out


# ----- setup --------------------------------------------------------------------------------
def _hand(game: tools.ToolsGame, seat: int) -> list[str]:
    return list(game.view(seat).get("hand") or [])


def setup_lines(game: tools.ToolsGame) -> list[Line]:
    out = [
        Line(None, "hand", f"P{p + 1} " + ", ".join(sorted(_hand(game, p))))
        for p in range(game.num_players)
    ]
    out.append(Line(None, "up", str(game.view(None)["top"])))
    return out


# ----- moves --------------------------------------------------------------------------------
def start(game: tools.ToolsGame) -> list[Counter[str]]:
    """Every hand, kept up to date move by move (who drew what is read from them: a player's
    hand is looked at only after a move that made them draw)."""
    return [Counter(_hand(game, p)) for p in range(game.num_players)]


def before(game: tools.ToolsGame, hands: list[Counter[str]]) -> list[Counter[str]]:
    return hands


def outcomes(
    game: tools.ToolsGame, events: Sequence[Event], hands: list[Counter[str]]
) -> list[str]:
    """The cards drawn, by whom, and reshuffles; ``hands`` (before the move) are brought up to
    date."""
    drawers: list[int] = []
    out: list[str] = []
    for e in events:
        d = e.data
        if e.kind == "play":
            hands[d["player"]][d["card"]] -= 1
        elif e.kind == "draw" and d["player"] not in drawers:
            drawers.append(d["player"])
        elif e.kind == "reshuffle":
            out.append("reshuffle")
    for p in drawers:
        now = Counter(_hand(game, p))
        drawn = now - hands[p]
        hands[p] = now
        cards = ", ".join(sorted(drawn.elements())) or "nothing"  # (no card left to draw)
        out.append(f"P{p + 1} draws {cards}")
    return out


def write(game: tools.ToolsGame, action: Any, events: Sequence[Event], hands: Any) -> Line:
    p = action.player
    kind = type(action)
    if kind is tools.PlayCard:
        verb, args = "play", action.card
    elif kind is tools.ChooseColor:
        verb, args = "color", action.color
    elif kind is tools.PenaltyHammers:
        verb, args = "hammers", f"{action.first} {action.second}"
    else:
        verb, args = _VERB_OF[kind], ""
        if kind is tools.PlayDrawn:
            args = next((e.data["card"] for e in events if e.kind == "play"), "")
    return Line(p, verb, args, tuple(outcomes(game, events, hands)))


def read(game: tools.ToolsGame, line: Line) -> Any:
    assert line.seat is not None
    p, verb, args, no = line.seat, line.verb, line.args, line.line
    if verb in _PLAIN:
        return _PLAIN[verb](p)
    if verb == "play":
        return tools.PlayCard(p, args)
    if verb == "color":
        return tools.ChooseColor(p, args)
    if verb == "hammers":
        words = args.split()
        if len(words) != 2:
            raise problem(no, E_("the penalty names two hammers' colors: hammers red blue"))
        return tools.PenaltyHammers(p, words[0], words[1])
    raise problem(no, E_("{verb} is not a move of this game", verb=repr(verb)))


def turn_passed(game: tools.ToolsGame, turn_before: int) -> bool:
    return int(game.view(None)["turn"]) != turn_before

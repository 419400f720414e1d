"""The notation of the property-trading games (every edition) in a record.

A move is its player, a verb and what the verb needs: ``P2 roll 3+4 -> Illinois Avenue``,
``P1 buy Illinois Avenue``, ``P3 bid 120``, ``P1 offer P3 [Boardwalk, 100] for [Park Place]``.
Squares are written by their name in the edition's language (``#24`` for a name that the grammar
could misread). Chance is written where it happened: the dice after ``roll``, and as outcomes the
squares a token moved to, each card drawn (``card "its text"``), ``jail`` and the dice thrown for
a utility's rent (``dice 2+6``). Before the first move, setup lines give the throws for who
starts, who starts, and the deeds dealt in the short and time-limit games.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from parlor import monopoly
from parlor.core.errors import E_
from parlor.core.game import Decision, Event
from parlor.records.syntax import Line, Record, Tag, problem, quote, tag

GAME = "monopoly"
#: Verbs of the actions that take no argument.
_PLAIN: dict[str, type[monopoly.Action]] = {
    "end": monopoly.EndTurn,
    "pass": monopoly.PassBid,
    "pay-fine": monopoly.PayJailFine,
    "use-card": monopoly.UseJailCard,
    "pay-debt": monopoly.PayDebt,
    "bankrupt": monopoly.DeclareBankruptcy,
    "accept": monopoly.AcceptTrade,
    "reject": monopoly.RejectTrade,
    "claim-rent": monopoly.ClaimRent,
    "call-time": monopoly.CallTime,
}
#: Verbs of the actions on one square.
_ON_SQUARE: dict[str, Any] = {
    "lift": monopoly.LiftMortgageNow,
    "keep": monopoly.KeepMortgage,
    "place": monopoly.PlaceBuilding,
    "build": monopoly.Build,
    "sell": monopoly.SellBuilding,
    "mortgage": monopoly.Mortgage,
    "unmortgage": monopoly.Unmortgage,
}
_VERB_OF = {cls: verb for verb, cls in (*_PLAIN.items(), *_ON_SQUARE.items())}
_UNSAFE = re.compile(r"[\[\],;\"{}]|->|^#|^\d+$|^\d+ jail cards?$|^\s|\s$")
_JAIL_CARDS = re.compile(r"(\d+) jail cards?")


class Names:
    """The edition's squares by name and back (``#N`` for a name that is not safe to write)."""

    def __init__(self, edition: monopoly.Edition) -> None:
        self.edition = edition
        self.names = [edition.square_name(sq) for sq in range(40)]
        props = set(edition.property_squares)
        counts: dict[str, int] = {}
        for n in self.names:
            counts[n] = counts.get(n, 0) + 1
        self.written = [
            n if not _UNSAFE.search(n) and (counts[n] == 1 or sq not in props) else f"#{sq}"
            for sq, n in enumerate(self.names)
        ]
        self.by_name: dict[str, int] = {}
        for sq, n in enumerate(self.written):
            if sq in props or n not in self.by_name:
                self.by_name[n] = sq

    def square(self, text: str, line: int) -> int:
        text = text.strip()
        if text.startswith("#") and text[1:].isdigit() and int(text[1:]) < 40:
            return int(text[1:])
        sq = self.by_name.get(text)
        if sq is None:
            raise problem(line, E_("{name} is no square of this edition", name=repr(text[:40])))
        return sq


_NAMES: dict[int, tuple[monopoly.Edition, Names]] = {}


def names_of(edition: monopoly.Edition) -> Names:
    """The :class:`Names` of ``edition``, made once per edition object."""
    known = _NAMES.get(id(edition))
    if known is None or known[0] is not edition:
        if len(_NAMES) > 64:
            _NAMES.clear()
        known = _NAMES[id(edition)] = (edition, Names(edition))
    return known[1]


# ----- the header ---------------------------------------------------------------------------
def header(game: monopoly.PropertyGame) -> list[Tag]:
    settings = game.settings
    edition = settings["edition"]
    tags = [tag("Edition", edition if isinstance(edition, str) else "custom")]
    if not isinstance(edition, str):
        tags.append(tag("EditionData", json.dumps(edition, ensure_ascii=False, sort_keys=True)))
    tags.append(tag("Title", game.edition.title))
    tags.append(tag("Variant", game.options.variant))
    for key, value in sorted(settings.get("options", {}).items()):
        if key != "variant":
            tags.append(tag("Option", key, json.dumps(value)))
    return tags


def settings(record: Record, names: list[str], option: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's settings that the record's tags give."""
    edition_id = record.tag("Edition") or "classic"
    edition: Any = edition_id
    if edition_id == "custom":
        data = record.tag("EditionData")
        if data is None:
            raise problem(0, E_("a custom edition needs its [EditionData] tag"))
        try:
            edition = json.loads(data)
        except ValueError:
            raise problem(0, E_("the [EditionData] tag is not JSON")) from None
    options = dict(option)
    variant = record.tag("Variant")
    if variant is not None:
        ed = monopoly.Game.from_settings({"edition": edition, "players": names}, 0).edition
        if variant != monopoly.RuleOptions.for_edition(ed).variant:
            options["variant"] = variant
    return {"edition": edition, "players": names, "options": options}


# ----- setup --------------------------------------------------------------------------------
def setup_lines(game: monopoly.PropertyGame) -> list[Line]:
    names = names_of(game.edition)
    out: list[Line] = []
    for e in getattr(game, "setup_events", []):
        d = e.data
        if e.kind == "first_throw":
            throws = ", ".join(f"P{int(p) + 1} {t}" for p, t in d["throws"].items())
            out.append(Line(None, "throws", throws))
        elif e.kind == "first_player":
            out.append(Line(None, "first", f"P{d['player'] + 1}"))
        elif e.kind == "deed_dealt":
            out.append(Line(None, "deed", f"P{d['player'] + 1} {names.written[d['square']]}"))
    return out


# ----- moves --------------------------------------------------------------------------------
def start(game: monopoly.PropertyGame) -> None:
    return None


def before(game: monopoly.PropertyGame, memo: None) -> Decision | None:
    return game.pending


def _card_text(edition: monopoly.Edition, card_id: int) -> str:
    for card in edition.cards:
        if card.id == card_id:
            return card.text.get(edition.language) or next(iter(card.text.values()))
    return str(card_id)  # pragma: no cover - an engine's card is the edition's


def outcomes(game: monopoly.PropertyGame, events: Sequence[Event], skip_dice: bool) -> list[str]:
    """What chance and the rules did with a move: squares moved to, cards, jail, dice."""
    names = names_of(game.edition)
    out: list[str] = []
    for e in events:
        d = e.data
        if e.kind == "dice":
            if skip_dice:
                skip_dice = False
                continue
            out.append("dice {}+{}".format(*d["dice"]))
        elif e.kind == "moved":
            out.append(names.written[d["to"]])
        elif e.kind == "card":
            out.append("card " + quote(_card_text(game.edition, d["card"])))
        elif e.kind == "jailed":
            out.append("jail")
    return out


def _items(names: Names, squares: Sequence[int], cash: int, cards: int) -> str:
    items = [names.written[sq] for sq in squares]
    if cash:
        items.append(str(cash))
    if cards:
        items.append(f"{cards} jail card" + ("s" if cards > 1 else ""))
    return "[" + ", ".join(items) + "]"


def write(game: monopoly.PropertyGame, action: Any, events: Sequence[Event], pending: Any) -> Line:
    """The line of ``action`` taken when ``pending`` was the decision; ``game`` is after it."""
    names = names_of(game.edition)
    p = action.player
    kind = type(action)
    if kind is monopoly.RollDice:
        dice = next((e.data["dice"] for e in events if e.kind == "dice"), None)
        args = "{}+{}".format(*dice) if dice else ""
        return Line(p, "roll", args, tuple(outcomes(game, events, True)))
    verb = _VERB_OF.get(kind)
    if kind in (monopoly.BuyProperty, monopoly.DeclineProperty):
        verb = "buy" if kind is monopoly.BuyProperty else "decline"
        args = names.written[pending.info["square"]] if pending is not None else ""
    elif kind is monopoly.Bid:
        verb, args = "bid", str(action.amount)
    elif kind is monopoly.ChooseTax:
        verb, args = "tax", "percent" if action.percent else "flat"
    elif kind is monopoly.WishBuildings:
        verb, args = "wish", str(action.count)
    elif kind is monopoly.ProposeTrade:
        give = _items(names, action.give_squares, action.give_cash, action.give_jail_cards)
        take = _items(names, action.take_squares, action.take_cash, action.take_jail_cards)
        verb, args = "offer", f"P{action.to + 1} {give} for {take}"
    elif kind in _ON_SQUARE.values():
        args = names.written[action.square]
    else:
        args = ""
    assert verb is not None, kind
    return Line(p, verb, args, tuple(outcomes(game, events, False)))


def _list(text: str, names: Names, line: int) -> tuple[list[int], int, int]:
    text = text.strip()
    if not (text.startswith("[") and text.endswith("]")):
        raise problem(line, E_("a trade's sides are lists in brackets: [a, b]"))
    squares: list[int] = []
    cash = cards = 0
    for item in (i.strip() for i in text[1:-1].split(",")):
        if not item:
            continue
        m = _JAIL_CARDS.fullmatch(item)
        if m:
            cards += int(m.group(1))
        elif item.isdigit():
            cash += int(item)
        else:
            squares.append(names.square(item, line))
    return squares, cash, cards


def _int(text: str, line: int) -> int:
    if not text.isdigit() or len(text) > 10:
        raise problem(line, E_("{word} is not a whole number", word=repr(text[:12])))
    return int(text)


def read(game: monopoly.PropertyGame, line: Line) -> monopoly.Action:
    """The action a move line stands for, in ``game`` as it is before the move."""
    assert line.seat is not None
    p, verb, args, no = line.seat, line.verb, line.args, line.line
    names = names_of(game.edition)
    if verb == "roll":
        return monopoly.RollDice(p)
    if verb in _PLAIN:
        return _PLAIN[verb](p)
    if verb in _ON_SQUARE:
        action: monopoly.Action = _ON_SQUARE[verb](p, names.square(args, no))
        return action
    if verb in ("buy", "decline"):
        return monopoly.BuyProperty(p) if verb == "buy" else monopoly.DeclineProperty(p)
    if verb == "bid":
        return monopoly.Bid(p, _int(args, no))
    if verb == "wish":
        return monopoly.WishBuildings(p, _int(args, no))
    if verb == "tax":
        if args not in ("flat", "percent"):
            raise problem(no, E_("tax is paid flat or percent"))
        return monopoly.ChooseTax(p, args == "percent")
    if verb == "offer":
        to, _, rest = args.partition(" ")
        m = re.fullmatch(r"P([1-9][0-9]?)", to)
        give, sep, take = rest.partition("] for [")
        if not m or not sep:
            raise problem(
                no, E_("an offer is written: offer P2 [what you give] for [what you take]")
            )
        gs, gc, gj = _list(give + "]", names, no)
        ts, tc, tj = _list("[" + take, names, no)
        return monopoly.ProposeTrade(p, int(m.group(1)) - 1, tuple(gs), tuple(ts), gc, tc, gj, tj)
    raise problem(no, E_("{verb} is not a move of this game", verb=repr(verb)))


def turn_passed(events: Sequence[Event]) -> bool:
    return any(e.kind == "turn" for e in events)

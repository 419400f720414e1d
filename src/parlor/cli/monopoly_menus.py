"""The property game's "any time" menus in the terminal: building and mortgaging, and trades.

The build menu numbers the player's properties once, in board order, and keeps those numbers
while it is open; each property's operations have fixed letters (``+`` build, ``-`` sell, ``m``
mortgage, ``u`` lift), so the same keys never do something else. Selling asks once, saying what
the building cost and what it brings back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlor.cli import monopoly_view as view
from parlor.cli.common import parse_int
from parlor.i18n import Translator
from parlor.monopoly import Action, Build, Mortgage, ProposeTrade, SellBuilding, Unmortgage
from parlor.monopoly import text as words

if TYPE_CHECKING:
    from parlor.cli.monopoly_session import Session

OPERATIONS: dict[str, type] = {"+": Build, "-": SellBuilding, "m": Mortgage, "u": Unmortgage}


def help_text(_: Translator) -> str:
    return "\n".join(
        [
            _("Commands:"),
            "  <n>          " + _("choose that answer from the menu"),
            "  bid <n>      " + _('bid any amount in an auction (e.g. "bid 120")'),
            "  b            " + _("build, sell buildings, mortgage or lift mortgages"),
            "  t            " + _("propose a trade to another player"),
            "  v            " + _("view the whole board"),
            "  i            " + _("the table and the standings again"),
            "  r            " + _("what the question is about, and the rule behind it"),
            "  ?            " + _("a hint: what the heuristic bot would do"),
            "  s            " + _("save the game"),
            "  q            " + _("quit (you may save first)"),
            "  h            " + _("this help"),
        ]
    )


# ----- building, selling, mortgaging -----------------------------------------------------------
def _operations(s: Session, p: int, square: int) -> dict[str, Action]:
    game = s.game
    found: dict[str, Action] = {}
    for action in game.legal_actions(p):
        if getattr(action, "square", None) != square:
            continue
        for key, kind in OPERATIONS.items():
            if type(action) is kind:
                found[key] = action
    return found


def _why_not_build(s: Session, p: int, square: int) -> str | None:
    """Why a street of ``p`` cannot be built on now, when that is the usual question."""
    _ = s._
    game = s.game
    sq = game.edition.squares[square]
    if sq.kind != "street":
        return None
    owners = {prop["square"]: prop["owner"] for prop in game.view()["properties"]}
    if any(owners.get(m) != p for m in game.group_of(square)):
        return _("build once you own the whole group")
    cash = int(game.view(p)["players"][p]["cash"])
    if sq.house_cost > 0 and cash < sq.house_cost:
        return _(
            "a house costs {cost}: you are {short} short",
            cost=words.money(game, sq.house_cost, s.lang),
            short=words.money(game, sq.house_cost - cash, s.lang),
        )
    return None


def _refusal(s: Session, p: int, square: int, op: str) -> str:
    """Why the rules refuse ``op`` on ``square``, in the engine's words (``why_illegal``)."""
    action = OPERATIONS[op](p, square)
    reason = s.game.why_illegal(action, s.lang)
    if reason is None:  # (legal, yet not offered: only the table's own limits could say why)
        return s._(
            "that is not possible on {square} now", square=words.square(s.game, square, s.lang)
        )
    return reason


def build_menu(s: Session, p: int) -> None:
    _ = s._
    game = s.game
    decision = game.pending
    assert decision is not None
    if not game.anytime_open:
        s.say(_("Not now: answer the question first."))
        return
    mine = [prop["square"] for prop in game.view(p)["properties"] if prop["owner"] == p]
    if not mine:
        s.say(_("You own no property yet."))
        return
    shown = False  # the table is printed again only after something changed
    while True:
        table = {i: (square, _operations(s, p, square)) for i, square in enumerate(mine, 1)}
        if not shown:
            cash = words.money(game, game.view(p)["players"][p]["cash"], s.lang)
            s.say(_("Build, sell or mortgage (you have {cash}):", cash=cash))
            for i, (square, ops) in table.items():
                s.term.show(_property_line(s, i, square, ops, p))
            s.say(
                "  " + _('(+ build, - sell, m mortgage, u lift: e.g. "2+" or "2 m"; Enter: back)')
            )
            shown = True
        if not any(ops for _sq, ops in table.values()):
            s.say(_("You have nothing to build, sell or mortgage now."))
            return
        text = s.ask(_("property and operation") + " > ").replace(" ", "").lower()
        if text in ("", "x", "back", "q"):
            return
        op = text[-1] if text and text[-1] in OPERATIONS else ""
        number = parse_int(text[:-1] if op else text)
        if number is None or number not in table:
            s.say(
                _("Sorry: choose a property number from 1 to {n}, then +, -, m or u", n=len(mine))
            )
            continue
        square, ops = table[number]
        if not op:
            if len(ops) != 1:
                s.say(_('Sorry: say what to do with it: +, -, m or u (e.g. "{n}+")', n=number))
                continue
            op = next(iter(ops))
        if op not in ops:
            s.say(_("Sorry: {reason}", reason=_refusal(s, p, square, op)))
            continue
        action = ops[op]
        if isinstance(action, SellBuilding) and not s.confirm(_sale_question(s, square)):
            continue
        if not s.apply(action):
            continue
        shown = False
        after = game.pending
        if after is None or after.player != p or after.kind != decision.kind:
            return


def _property_line(s: Session, i: int, square: int, ops: dict[str, Action], p: int) -> Any:
    from rich.text import Text

    game = s.game
    sq = game.edition.squares[square]
    line = Text(f"  {i:>2}. ")
    line.append(words.square(game, square, s.lang), style=view.group_style(game, sq.group))
    state = view.built_on(game, square)
    mortgaged = next(x["mortgaged"] for x in game.view()["properties"] if x["square"] == square)
    if state:
        line.append(f" ({words.buildings(game, state, s.lang)})")
    if mortgaged:
        line.append(" [" + s._("mortgaged") + "]", style="yellow")
    if ops:
        parts = [f"{key} {_op_words(s, action)}" for key, action in ops.items()]
        line.append(": " + "; ".join(parts))
    else:
        why = _why_not_build(s, p, square)
        if why:
            line.append(f" - {why}", style="dim")
    return line


def _op_words(s: Session, action: Action) -> str:
    _ = s._
    game = s.game
    ed = game.edition
    assert isinstance(action, Build | SellBuilding | Mortgage | Unmortgage)
    square = action.square
    sq = ed.squares[square]
    if isinstance(action, Build):
        hotel = view.built_on(game, square) == game.options.hotel_after_houses
        cost = ed.hotel_cost(square) if hotel else sq.house_cost
        what = words.item(game, "hotel" if hotel else "house", s.lang)
        return _("build {what} for {cost}", what=what, cost=words.money(game, cost, s.lang))
    if isinstance(action, SellBuilding):
        return _("sell one for {amount}", amount=words.money(game, _sale_value(s, square), s.lang))
    if isinstance(action, Mortgage):
        return _("mortgage for {amount}", amount=words.money(game, sq.mortgage, s.lang))
    lift = sq.mortgage + ed.mortgage_interest(square)
    return _("lift for {amount}", amount=words.money(game, lift, s.lang))


def _sale_value(s: Session, square: int) -> int:
    game = s.game
    sq = game.edition.squares[square]
    if view.built_on(game, square) == words.HOTEL:
        return game.edition.hotel_cost(square) // 2
    return sq.house_cost // 2


def _sale_question(s: Session, square: int) -> str:
    game = s.game
    sq = game.edition.squares[square]
    hotel = view.built_on(game, square) == words.HOTEL
    paid = game.edition.hotel_cost(square) if hotel else sq.house_cost
    return s._(
        "Sell {what} on {square} for {amount} (it cost {paid})?",
        what=words.item(game, "hotel" if hotel else "house", s.lang),
        square=words.square(game, square, s.lang),
        amount=words.money(game, _sale_value(s, square), s.lang),
        paid=words.money(game, paid, s.lang),
    )


# ----- trading ---------------------------------------------------------------------------------
def trade_dialogue(s: Session, p: int) -> None:
    _ = s._
    game = s.game
    if not game.anytime_open:
        s.say(_("Not now: answer the question first."))
        return
    state = game.view(p)
    players = state["players"]
    others = [q for q in range(game.num_players) if q != p and not players[q]["bankrupt"]]
    if len(others) == 1:  # nothing to ask: a key typed ahead goes to the first real question
        s.say(
            _(
                "Propose a trade to {name} (Enter at any question cancels it).",
                name=game.names[others[0]],
            )
        )
        chosen: int | None = others[0]
    else:
        s.say(_("Propose a trade (Enter at any question cancels it). With whom?"))
        for i, seat in enumerate(others, 1):
            cash = words.money(game, players[seat]["cash"], s.lang)
            s.say(f"  {i}. {game.names[seat]} ({cash})")
        chosen = None
    while chosen is None:
        text = s.ask(_("player") + " > ")
        if not text:
            s.say(_("Trade cancelled."))
            return
        n = parse_int(text)
        if n is not None and 1 <= n <= len(others):
            chosen = others[n - 1]
        else:
            s.say(_("Sorry: choose a number from 1 to {n}", n=len(others)))
    q = chosen
    give = _pick_squares(s, p, _("Properties you give:"), state)
    take = (
        None
        if give is None
        else _pick_squares(s, q, _("Properties you take from {name}:", name=game.names[q]), state)
    )
    if give is None or take is None:
        s.say(_("Trade cancelled."))
        return
    amounts = []
    for question, limit in (
        (_("Cash you give"), players[p]["cash"]),
        (_("Cash {name} gives you", name=game.names[q]), players[q]["cash"]),
    ):
        amount = _ask_number(s, f"{question} (0-{limit}) > ")
        if amount is None:
            s.say(_("Trade cancelled."))
            return
        amounts.append(amount)
    cards = [0, 0]
    card = words.word(game, "get_out_of_jail_card", s.lang)
    for k, (who, held) in enumerate(((p, players[p]["jail_cards"]), (q, players[q]["jail_cards"]))):
        if held:
            question = (
                _("How many x {card} you give", card=card)
                if who == p
                else _("How many x {card} {name} gives you", card=card, name=game.names[q])
            )
            number = _ask_number(s, f"{question} (0-{held}) > ")
            if number is None:
                s.say(_("Trade cancelled."))
                return
            cards[k] = number
    action = ProposeTrade(p, q, give, take, amounts[0], amounts[1], cards[0], cards[1])
    s.say(words.describe_trade(game, action, p, s.lang) + ".")
    if not s.confirm(_("Propose it?")):
        s.say(_("Trade cancelled."))
        return
    s.apply(action)


def _pick_squares(
    s: Session, owner: int, heading: str, state: dict[str, Any]
) -> tuple[int, ...] | None:
    _ = s._
    game = s.game
    held = [prop for prop in state["properties"] if prop["owner"] == owner]
    if not held:
        s.say("(" + _("{name} owns no property.", name=game.names[owner]) + ")")
        return ()
    s.say(heading)
    for i, prop in enumerate(held, 1):
        marks = ""
        if game.group_has_buildings(prop["square"]):
            marks += " " + _("(buildings in its group: cannot be traded)")
        if prop["mortgaged"]:
            marks += " [" + _("mortgaged") + "]"
        s.say(f"  {i:>2}. {words.square(game, prop['square'], s.lang)}{marks}")
    while True:
        text = s.ask(_("numbers separated by spaces, 0 for none") + " > ")
        if not text:
            return None
        parts = text.replace(",", " ").split()
        if parts == ["0"]:
            return ()
        numbers = [parse_int(x) for x in parts]
        if all(n is not None and 1 <= n <= len(held) for n in numbers):
            return tuple(sorted({held[n - 1]["square"] for n in numbers if n is not None}))
        s.say(_("Sorry: give numbers from 1 to {n}, or 0 for none", n=len(held)))


def _ask_number(s: Session, prompt: str) -> int | None:
    while True:
        text = s.ask(prompt).lstrip("$").replace(",", "").replace(".", "")
        if not text:
            return None
        number = parse_int(text)
        if number is not None:
            return number
        s.say(s._("Sorry: type a whole number (Enter cancels)"))

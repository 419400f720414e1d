"""Play a property-trading game in the terminal: ``parlor play``.

(Also ``python -m parlor.cli.monopoly_tui``.)

Every edition (classic, matco, latam, matador, or an edition file) and variant can be played by
humans and bots sharing the table. At a human's decision the table is summed up, the possible
answers are listed by number, and letters open the other menus: ``b`` to build, sell or mortgage,
``t`` to propose a trade, ``v`` to view the board, ``s`` to save, ``q`` to quit, ``h`` for help.
Bad input and illegal moves are answered with the reason, and the prompt comes back.

The loop only uses the public game interface, and takes its streams as arguments, so a script
can drive it:

>>> import io
>>> out = io.StringIO()
>>> main(["--bots", "all", "--seed", "1", "--max-steps", "200"], io.StringIO(""), out)
0
>>> "Stopped after 200 steps" in out.getvalue()
True
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import random
import re
import shutil
import sys
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from parlor.bots.base import Bot
from parlor.bots.registry import bot_names, make_bot
from parlor.cli.common import parse_names, parse_options, parse_seats
from parlor.core.errors import ParlorError
from parlor.core.game import Event
from parlor.monopoly import (
    EDITION_IDS,
    VARIANTS,
    Action,
    Bid,
    Build,
    CallTime,
    ClaimRent,
    Mortgage,
    PropertyGame,
    ProposeTrade,
    SellBuilding,
    Unmortgage,
    load_edition,
    new_game,
)
from parlor.monopoly.edition import Edition
from parlor.monopoly.game import HOTEL
from parlor.monopoly.text import describe_event, describe_trade

#: Bot-only games without ``--max-steps`` stop after this many actions (random bots rarely finish).
DEFAULT_BOT_STEPS = 20000

HELP = """Commands:
  <number>     choose that answer from the menu
  bid <amount> bid any amount in an auction (e.g. "bid 120")
  b            build, sell buildings, mortgage or lift mortgages
  t            propose a trade to another player
  v            view the whole board          i   the table summary again
  s            save the game                 q   quit (you may save first)
  h            this help"""

#: Decisions at which "any time" actions (building, trading...) must wait for the answer.
#: Decisions at which the human always gets the full table summary.
_FULL_SUMMARY = {"start_turn", "jail", "raise_funds", "answer_trade"}


class _Quit(Exception):
    """The human quit (``typed=True``) or the input ended."""

    def __init__(self, typed: bool) -> None:
        super().__init__("quit")
        self.typed = typed


# ----- words -------------------------------------------------------------------------------------
def _party(game: PropertyGame, seat: int) -> str:
    """A player's name, or the bank (-1) or the Free Parking pot (-2)."""
    if seat == -1:
        return game.edition.text("bank")
    if seat == -2:
        return game.edition.text("free_parking")
    return game.names[seat]


def _group_name(group: str | None) -> str:
    return (group or "").replace("_", " ")


def _buildings_text(game: PropertyGame, count: int) -> str:
    ed = game.edition
    if count == HOTEL:
        return f"1 {ed.text('hotel')}"
    return f"{count} {ed.text('house') if count == 1 else ed.text('houses')}"


def event_text(game: PropertyGame, event: Event) -> str:
    """An event in words, with the edition's names and money."""
    return describe_event(game, event)


def _decision_text(game: PropertyGame, p: int) -> str:
    """What the pending decision asks of ``p``, in words (no doubled full stop after "kr.")."""
    return re.sub(r"\.\.(?=\s|$)", ".", _decision_words(game, p))


def _decision_words(game: PropertyGame, p: int) -> str:
    decision = game.pending
    assert decision is not None
    info = decision.info
    kind = decision.kind
    ed = game.edition
    name = game.names[p]
    cash = game.money(game.view(p)["players"][p]["cash"])
    if kind == "start_turn":
        return f"{name}, it is your turn."
    if kind == "roll_again":
        return f"{name}, you threw doubles: throw again."
    if kind == "end_turn":
        return f"{name}, end your turn (or build, mortgage or trade first)."
    if kind == "jail":
        turns = int(info.get("turns_in_jail", 0))
        return f"{name}, you are in {ed.text('jail')} ({_ordinal(turns + 1)} turn there)."
    if kind == "buy_or_auction":
        square = int(info["square"])
        return (
            f"{game.name_of(square)} is for sale at {game.money(info['price'])} "
            f"(you have {cash}): {_square_facts(game, square, p)}."
        )
    if kind == "bid":
        what = game.name_of(info["square"]) if info["item"] == "property" else f"a {info['item']}"
        high = (
            f"high bid {game.money(info['high_bid'])} by {game.names[info['high_bidder']]}"
            if info.get("high_bidder", -1) >= 0
            else "no bid yet"
        )
        return (
            f"Auction of {what}: {high}; the next bid is at least "
            f"{game.money(info['min_bid'])}. You have {cash}."
        )
    if kind == "tax_choice":
        return (
            f"{ed.text('income_tax')}: pay {game.money(info['flat'])} or {info['percent']}% of "
            f"your total worth ({game.money(game.total_worth(p) * int(info['percent']) // 100)})."
        )
    if kind == "raise_funds":
        return (
            f"You owe {game.money(info['amount'])} to {_party(game, info['creditor'])} "
            f"({info['reason']}) and have {cash}."
        )
    if kind == "answer_trade":
        return describe_trade(game, dict(info["offer"]), int(info["from"])) + ". Do you accept?"
    if kind == "mortgaged_property":
        square = int(info["square"])
        lift = ed.squares[square].mortgage + ed.mortgage_interest(square)
        return (
            f"You received {game.name_of(square)}, mortgaged: lift the mortgage now for "
            f"{game.money(lift)}, or keep it mortgaged."
        )
    if kind == "place_building":
        return f"Place the {info['item']} you won at auction."
    return f"{name}: {kind}"


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _ordinal(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th') }"


def _square_facts(game: PropertyGame, square: int, p: int) -> str:
    """Rents and group ownership of a property, for the buy decision."""
    ed = game.edition
    sq = ed.squares[square]
    group = game.group_of(square)
    owners = {prop["square"]: prop["owner"] for prop in game.view(p)["properties"]}
    mine = sum(1 for s in group if owners.get(s) == p)
    others = sorted({game.names[owners[s]] for s in group if owners.get(s, -1) not in (-1, p)})
    held = f"; {', '.join(others)} hold{'s' if len(others) == 1 else ''} some" if others else ""
    if sq.kind == "street":
        rents = f"rent {game.money(sq.rents[0])} (with a hotel: {game.money(sq.rents[-1])})"
    elif sq.kind == "railroad":
        rents = "rent " + " / ".join(game.money(r) for r in sq.rents)
    else:
        rents = "rent " + " or ".join(f"{r}x the dice" for r in sq.rents)
    return f"{rents}; group {_group_name(sq.group)}: you own {mine} of {len(group)}{held}"


def _where(game: PropertyGame, player: dict[str, Any]) -> str:
    ed = game.edition
    if player["bankrupt"]:
        return "bankrupt"
    if player["in_jail"]:
        return f"in {ed.text('jail')} ({_ordinal(int(player['jail_turns']) + 1)} turn)"
    if player["position"] == ed.jail_square:
        return ed.text("just_visiting")
    return game.name_of(player["position"])


def _action_label(game: PropertyGame, action: Action) -> str:
    """A menu line: the action in words, with what building and mortgaging cost or bring."""
    ed = game.edition
    text = game.describe(action)
    if isinstance(action, Build | SellBuilding | Mortgage | Unmortgage):
        sq = ed.squares[action.square]
        built = next(
            prop["buildings"]
            for prop in game.view()["properties"]
            if prop["square"] == action.square
        )
        hotel_next = built == game.options.hotel_after_houses
        if isinstance(action, Build):
            item = ed.text("hotel") if hotel_next else ed.text("house")
            cost = ed.hotel_cost(action.square) if hotel_next else sq.house_cost
            return f"{text}: a {item} for {game.money(cost)} (now {_buildings_text(game, built)})"
        if isinstance(action, SellBuilding):
            return f"{text} (now {_buildings_text(game, built)})"
        if isinstance(action, Mortgage):
            return f"{text}: get {game.money(sq.mortgage)}"
        return f"{text}: pay {game.money(sq.mortgage + ed.mortgage_interest(action.square))}"
    return text


# ----- the table ---------------------------------------------------------------------------------
def summary(game: PropertyGame, p: int | None) -> list[str]:
    """The table in a few lines: players, ``p``'s properties by group, the bank's stock."""
    view = game.view(p)
    ed = game.edition
    lines = [f"=== Round {view['round'] + 1}, {game.names[view['turn']]}'s turn ==="]
    counts = [0] * game.num_players
    for prop in view["properties"]:
        if prop["owner"] >= 0:
            counts[prop["owner"]] += 1
    width = max(len(n) for n in game.names)
    for q, player in enumerate(view["players"]):
        marker = ">" if q == view["turn"] else " "
        cards = player["jail_cards"]
        extra = f", {cards} x {ed.text('get_out_of_jail_card')}" if cards else ""
        cash = "" if player["bankrupt"] else game.money(player["cash"])
        lines.append(
            f" {marker} {player['name']:<{width}}  {cash:>12}  {_where(game, player):<28} "
            f"{_plural(counts[q], 'property', 'properties')}{extra}"
        )
    bank = view["bank"]
    if game.options.unlimited_buildings:
        lines.append("The bank's buildings are unlimited.")
    else:
        lines.append(
            f"The bank has {bank['houses']} {ed.text('houses')} and {bank['hotels']} "
            f"{ed.text('hotels')} left."
        )
    if view["pot"]:
        lines.append(f"{ed.text('free_parking')} pot: {game.money(view['pot'])}")
    if p is not None:
        lines.extend(_holdings(game, view, p))
    return lines


def _holdings(game: PropertyGame, view: dict[str, Any], p: int) -> list[str]:
    ed = game.edition
    mine = [prop for prop in view["properties"] if prop["owner"] == p]
    if not mine:
        return [f"{game.names[p]} owns no property."]
    lines = [f"{game.names[p]}'s properties:"]
    groups: dict[str, list[dict[str, Any]]] = {}
    for prop in mine:
        groups.setdefault(ed.squares[prop["square"]].group or "", []).append(prop)
    for group, props in groups.items():
        full = len(props) == len(game.group_of(props[0]["square"]))
        parts = []
        for prop in props:
            text = game.name_of(prop["square"])
            if prop["buildings"]:
                text += f" ({_buildings_text(game, prop['buildings'])})"
            if prop["mortgaged"]:
                text += f" [{ed.text('mortgaged')}]"
            parts.append(text)
        total = len(game.group_of(props[0]["square"]))
        mark = "  * full set" if full else f"  ({len(props)} of {total})"
        lines.append(f"  {_group_name(group):<12} {', '.join(parts)}{mark}")
    return lines


def board(game: PropertyGame, width: int = 80) -> list[str]:
    """The 40 squares with owners, buildings, mortgages and the players standing there."""
    view = game.view()
    ed = game.edition
    props = {prop["square"]: prop for prop in view["properties"]}
    here: dict[int, list[str]] = {}
    for player in view["players"]:
        if not player["bankrupt"]:
            mark = "(jailed)" if player["in_jail"] else ""
            here.setdefault(player["position"], []).append(player["name"] + mark)
    name_width = min(24, max(len(game.name_of(i)) for i in range(40)))
    rows = []
    for i, sq in enumerate(ed.squares):
        detail = ""
        if i in props:
            prop = props[i]
            if prop["owner"] < 0:
                detail = f"{game.money(sq.price)} for sale"
            else:
                detail = game.names[prop["owner"]]
                if prop["buildings"]:
                    detail += f", {_buildings_text(game, prop['buildings'])}"
                if prop["mortgaged"]:
                    detail += f", {ed.text('mortgaged')}"
        tokens = f"  @ {', '.join(here[i])}" if i in here else ""
        rows.append(f"{i:>2} {game.name_of(i)[:name_width]:<{name_width}} {detail}{tokens}")
    column = max(len(r) for r in rows) + 2
    if width >= 2 * column:
        return [
            f"{left:<{column}}{right}".rstrip()
            for left, right in zip(rows[:20], rows[20:], strict=True)
        ]
    return rows


def menu_actions(game: PropertyGame, player: int) -> list[Action]:
    """The numbered menu at ``player``'s decision: the answers, then claiming rent and calling
    time when those are possible (the other "any time" actions have their own menus)."""
    items = game.legal_actions(player, anytime=False)
    items += [a for a in game.legal_actions(player) if isinstance(a, ClaimRent)]
    if game.is_legal(CallTime(player)):  # accepted, though not listed among the moves
        items.append(CallTime(player))
    return items


# ----- the session -------------------------------------------------------------------------------
class _Session:
    def __init__(
        self,
        game: PropertyGame,
        humans: set[int],
        bots: dict[int, Bot],
        inp: TextIO,
        out: TextIO,
        max_steps: int | None,
        save_path: str | None,
        width: int,
        minutes: float | None = None,
    ) -> None:
        self.game = game
        # Time-limit and quick games: when the agreed minutes are up, time is called.
        self.deadline = None if minutes is None else time.monotonic() + 60 * minutes
        self.humans = humans
        self.bots = bots
        self.inp = inp
        self.out = out
        self.max_steps = max_steps
        self.save_path = save_path
        self.width = width
        self.steps = 0
        self.menu_shown_at = -1  # len(game.log) when the menu was last printed
        self.summaries: set[tuple[int, int, int]] = set()

    # --- input and output ---
    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            raise _Quit(typed=False)
        return line.strip()

    def apply(self, action: Action) -> bool:
        """Apply a human's action and print what happened; False (and the reason) if illegal."""
        try:
            events = self.game.apply(action)
        except ParlorError as exc:
            self.say(f"Not allowed: {exc}")
            return False
        self.steps += 1
        self.report(events)
        return True

    def report(self, events: list[Event]) -> None:
        for event in events:
            if event.kind == "turn":
                self.say()
            self.say(f"  {event_text(self.game, event)}")

    # --- the loop ---
    def run(self) -> int:
        game = self.game
        try:
            while not game.is_over:
                if self.max_steps is not None and self.steps >= self.max_steps:
                    return self.stop_at_cap()
                if self.deadline is not None and time.monotonic() >= self.deadline:
                    self.say("Time is up.")
                    self.report(game.apply(CallTime(game.current_player)))
                    break
                decision = game.pending
                assert decision is not None
                p = decision.player
                if p in self.bots:
                    self.bot_move(p)
                else:
                    self.human_move(p)
                if self.max_steps is None and not any(
                    not game.view()["players"][h]["bankrupt"] for h in self.humans
                ):
                    if self.humans:
                        self.say("(Every human player is out: the bots play on.)")
                    self.max_steps = self.steps + DEFAULT_BOT_STEPS
        except _Quit as quit_:
            return self.quit(quit_.typed)
        except KeyboardInterrupt:
            self.say("\nInterrupted: game abandoned.")
            self.save(ask=False)
            return 130
        self.finish()
        return 0

    def bot_move(self, p: int) -> None:
        action = self.bots[p].choose(self.game, p)
        events = self.game.apply(action)
        self.steps += 1
        self.report(events)

    def human_move(self, p: int) -> None:
        """Prompt ``p`` until one action is applied (or the human quits)."""
        game = self.game
        decision = game.pending
        assert decision is not None
        view = game.view(p)
        key = (view["round"], view["turn"], p)
        fresh = self.menu_shown_at != len(game.log)
        if fresh and (decision.kind in _FULL_SUMMARY or key not in self.summaries):
            self.say()
            for line in summary(game, p):
                self.say(line)
            self.summaries.add(key)
        start = len(game.log)
        while len(game.log) == start:
            items = menu_actions(self.game, p)
            if self.menu_shown_at != len(game.log):
                self.show_menu(p, items)
            text = self.ask(f"{game.names[p]} > ").lower()
            self.command(p, text, items)

    def show_menu(self, p: int, items: list[Action]) -> None:
        game = self.game
        self.say(textwrap.fill(_decision_text(game, p), max(40, self.width - 1)))
        for i, action in enumerate(items, 1):
            self.say(f"  {i:>2}. {_action_label(game, action)}")
        decision = game.pending
        assert decision is not None
        if decision.kind == "raise_funds" and not items:
            self.say("  You cannot pay yet: sell buildings or mortgage (b), or trade (t).")
        letters = "b build/mortgage  t trade  v board  i table  s save  h help  q quit"
        self.say(f"  ({'bid <amount>  ' if decision.kind == 'bid' else ''}{letters})")
        self.menu_shown_at = len(game.log)

    def command(self, p: int, text: str, items: list[Action]) -> None:
        game = self.game
        if text in ("q", "quit", "exit"):
            raise _Quit(typed=True)
        if text in ("h", "help", "?"):
            self.say(HELP)
        elif text in ("v", "view", "board"):
            for line in board(game, self.width):
                self.say(line)
            self.menu_shown_at = -1
        elif text in ("i", "info"):
            for line in summary(game, p):
                self.say(line)
            self.menu_shown_at = -1
        elif text in ("s", "save"):
            self.save(ask=True)
        elif text in ("b", "build"):
            self.build_menu(p)
            self.menu_shown_at = -1
        elif text in ("t", "trade"):
            self.trade_dialogue(p)
            self.menu_shown_at = -1
        elif text.startswith("bid"):
            amount = text[3:].strip().lstrip("$").replace(",", "")
            if not amount.isdigit():
                self.say("Sorry: write a bid as 'bid <amount>', e.g. 'bid 120'")
            else:
                self.apply(Bid(p, int(amount)))
        elif text.isdigit():
            n = int(text)
            if not items:
                self.say("Sorry: there is no numbered answer now; type b, t or h")
            elif not 1 <= n <= len(items):
                self.say(f"Sorry: {n} is not in the menu: choose 1-{len(items)}")
            else:
                self.apply(items[n - 1])
        else:
            shown = f" (1-{len(items)})" if items else ""
            self.say(
                f"Sorry: I did not understand {text!r}. Type a menu number{shown}, "
                "or b, t, v, i, s, h or q (h for help)"
            )

    # --- building and mortgaging ---
    def build_menu(self, p: int) -> None:
        game = self.game
        decision = game.pending
        assert decision is not None
        if not game.anytime_open:
            self.say("Not now: answer the question first.")
            return
        while True:
            options = [
                a
                for a in game.legal_actions(p)
                if isinstance(a, Build | SellBuilding | Mortgage | Unmortgage)
            ]
            if not options:
                self.say("You have nothing to build, sell or mortgage now.")
                return
            cash = game.money(game.view(p)["players"][p]["cash"])
            self.say(f"Build, sell or mortgage (you have {cash}):")
            for i, action in enumerate(options, 1):
                self.say(f"  {i:>2}. {_action_label(game, action)}")
            text = self.ask("number (Enter: back) > ")
            if text.lower() in ("", "x", "back"):
                return
            if not text.isdigit() or not 1 <= int(text) <= len(options):
                self.say(f"Sorry: choose a number from 1 to {len(options)}, or Enter to go back")
                continue
            if not self.apply(options[int(text) - 1]):
                continue
            after = game.pending
            if after is None or after.player != p or after.kind != decision.kind:
                return

    # --- trading ---
    def trade_dialogue(self, p: int) -> None:
        game = self.game
        decision = game.pending
        assert decision is not None
        if not game.anytime_open:
            self.say("Not now: answer the question first.")
            return
        view = game.view(p)
        players = view["players"]
        others = [q for q in range(game.num_players) if q != p and not players[q]["bankrupt"]]
        self.say("Propose a trade (Enter at any question cancels it). With whom?")
        for i, seat in enumerate(others, 1):
            self.say(f"  {i}. {game.names[seat]} ({game.money(players[seat]['cash'])})")
        chosen = others[0] if len(others) == 1 else None
        while chosen is None:
            text = self.ask("player > ")
            if not text:
                return self.say("Trade cancelled.")
            if text.isdigit() and 1 <= int(text) <= len(others):
                chosen = others[int(text) - 1]
            else:
                self.say(f"Sorry: choose a number from 1 to {len(others)}")
        q = chosen
        if len(others) == 1:
            self.say(f"  (with {game.names[q]})")
        give = self.pick_squares(p, "you give", view)
        take = self.pick_squares(q, f"you take from {game.names[q]}", view)
        if give is None or take is None:
            return self.say("Trade cancelled.")
        amounts = []
        for question, limit in (
            ("Cash you give", players[p]["cash"]),
            (f"Cash {game.names[q]} gives you", players[q]["cash"]),
        ):
            amount = self.ask_number(f"{question} (0-{limit}) > ")
            if amount is None:
                return self.say("Trade cancelled.")
            amounts.append(amount)
        cards = [0, 0]
        card = game.edition.text("get_out_of_jail_card")
        for k, (who, held) in enumerate(
            ((p, players[p]["jail_cards"]), (q, players[q]["jail_cards"]))
        ):
            if held:
                verb = "you give" if who == p else f"{game.names[q]} gives you"
                number = self.ask_number(f"How many x {card} {verb} (0-{held}) > ")
                if number is None:
                    return self.say("Trade cancelled.")
                cards[k] = number
        action = ProposeTrade(p, q, give, take, amounts[0], amounts[1], cards[0], cards[1])
        self.say(describe_trade(game, action, p) + ".")
        if self.ask("Propose it? (y/n) > ").lower() not in ("y", "yes"):
            return self.say("Trade cancelled.")
        self.apply(action)
        return None

    def pick_squares(self, owner: int, what: str, view: dict[str, Any]) -> tuple[int, ...] | None:
        game = self.game
        held = [prop for prop in view["properties"] if prop["owner"] == owner]
        if not held:
            self.say(f"({game.names[owner]} owns no property.)")
            return ()
        self.say(f"Properties {what}:")
        for i, prop in enumerate(held, 1):
            marks = ""
            if game.group_has_buildings(prop["square"]):
                marks += " (buildings in its group: cannot be traded)"
            if prop["mortgaged"]:
                marks += f" [{game.edition.text('mortgaged')}]"
            self.say(f"  {i:>2}. {game.name_of(prop['square'])}{marks}")
        while True:
            text = self.ask("numbers separated by spaces, 0 for none > ")
            if not text:
                return None
            parts = text.replace(",", " ").split()
            if parts == ["0"]:
                return ()
            if all(x.isdigit() and 1 <= int(x) <= len(held) for x in parts):
                return tuple(sorted({held[int(x) - 1]["square"] for x in parts}))
            self.say(f"Sorry: give numbers from 1 to {len(held)}, or 0 for none")

    def ask_number(self, prompt: str) -> int | None:
        while True:
            text = self.ask(prompt).lstrip("$").replace(",", "").replace(".", "")
            if not text:
                return None
            if text.isdigit():
                return int(text)
            self.say("Sorry: type a whole number (Enter cancels)")

    # --- saving and the end ---
    def save(self, ask: bool) -> None:
        path = self.save_path
        if path is None and ask:
            path = self.ask("Save to which file? (Enter: don't save) > ") or None
        if path is None:
            return
        try:
            Path(path).write_text(self.game.to_json(indent=1), encoding="utf-8")
        except OSError as exc:
            self.say(f"Could not save to {path}: {exc.strerror or exc}")
            return
        self.save_path = path
        self.say(f"Game saved to {path}.")

    def quit(self, typed: bool) -> int:
        if not typed:
            self.say("\nInput ended: game abandoned.")
            self.save(ask=False)
            return 1
        with contextlib.suppress(_Quit):
            self.save(ask=True)
        self.say("Game abandoned.")
        return 1

    def standings(self, scores: Sequence[float], ranking: Sequence[int]) -> None:
        view = self.game.view()
        for place, q in enumerate(ranking, 1):
            worth = (
                "bankrupt"
                if view["players"][q]["bankrupt"]
                else f"worth {self.game.money(int(scores[q]))}"
            )
            self.say(f"  {place}. {self.game.names[q]:<12} {worth}")

    def stop_at_cap(self) -> int:
        game = self.game
        self.say(f"\nStopped after {self.steps} steps (the step limit); the game is not over.")
        active = [q for q in range(game.num_players) if not game.view()["players"][q]["bankrupt"]]
        scores = [float(game.valuation(q)) for q in range(game.num_players)]
        ranking = sorted(active, key=lambda q: -scores[q])
        ranking += [q for q in range(game.num_players) if q not in active]
        self.say("Standings (cash, printed prices, mortgaged at half, buildings at cost):")
        self.standings(scores, ranking)
        self.save(ask=False)
        return 0

    def finish(self) -> None:
        game = self.game
        outcome = game.outcome
        assert outcome is not None
        winners = " and ".join(game.names[w] for w in outcome.winners)
        verb = "wins" if len(outcome.winners) == 1 else "win"
        reasons = {
            "bankruptcy": "everyone else went bankrupt",
            "first_bankruptcy": "richest at the first bankruptcy",
            "time_limit": "richest after the agreed number of rounds",
            "time_called": "richest when time was called",
        }
        why = reasons.get(outcome.reason, outcome.reason)
        self.say(f"\n*** {winners} {verb} ({why}) in round {game.view()['round'] + 1}. ***")
        self.say("Final ranking (cash, printed prices, mortgaged at half, buildings at cost):")
        self.standings(outcome.scores, outcome.ranking)
        self.save(ask=False)


def play(
    game: PropertyGame,
    humans: set[int],
    bots: dict[int, Bot],
    input: TextIO,
    output: TextIO,
    *,
    max_steps: int | None = None,
    save_path: str | None = None,
    width: int = 80,
    minutes: float | None = None,
) -> int:
    """Play ``game`` on the given streams: ``humans`` type, ``bots`` choose.

    Returns 0 when the game ends or ``max_steps`` actions were applied, 1 when a human quits or
    the input ends. With ``save_path`` the game is saved there at the end and on quitting.
    Once no human is left in the game, the bots play on for at most ``DEFAULT_BOT_STEPS`` actions
    unless ``max_steps`` says otherwise. With ``minutes`` (time-limit and quick games) time is
    called when they have passed.
    """
    missing = set(range(game.num_players)) - humans - set(bots)
    if missing:
        raise ValueError(f"seats {sorted(missing)} are neither human nor bot")
    session = _Session(game, humans, bots, input, output, max_steps, save_path, width, minutes)
    return session.run()


# ----- the command -------------------------------------------------------------------------------
def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register the ``play`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "play",
        help="play a property-trading game in the terminal",
        description="Play a property-trading game (classic, matco, latam, matador) against bots "
        "or friends at the same keyboard.",
    )
    _add_arguments(parser)
    return parser


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--edition",
        default=None,
        help=f"{', '.join(EDITION_IDS)} (default classic), or the path of an edition TOML file",
    )
    parser.add_argument("--players", type=int, default=None, help="number of players (4)")
    parser.add_argument("--names", default=None, help='comma-separated names, e.g. "Ann,Bo,Cy"')
    parser.add_argument(
        "--bots",
        default="all-but-1",
        help='seats played by bots: "2,3,4", "all-but-1" (default), "all" or "none"',
    )
    parser.add_argument(
        "--bot",
        default="random",
        help=f"which bot plays: {', '.join(bot_names('monopoly'))} (default random)",
    )
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    parser.add_argument("--variant", default=None, help=f"one of {', '.join(VARIANTS)}")
    parser.add_argument(
        "--option",
        action="append",
        default=None,
        metavar="KEY=VALUE",
        help="a rule option, e.g. auctions=false or time_limit_rounds=30 (repeatable)",
    )
    parser.add_argument("--language", default=None, help="one of the edition's languages")
    parser.add_argument(
        "--save", default=None, help="save the game to this file at the end or on quit"
    )
    parser.add_argument("--load", default=None, help="resume a game saved with --save or s")
    parser.add_argument(
        "--minutes",
        type=float,
        default=None,
        help="time-limit and quick games: call time after this many minutes",
    )
    parser.add_argument(
        "--max-steps",
        type=int,
        default=None,
        help=f"stop after this many actions (bot-only games: {DEFAULT_BOT_STEPS})",
    )
    parser.set_defaults(run=run)


class _SetupError(Exception):
    pass


def _edition_for(spec: str | None, language: str | None) -> Edition:
    edition = load_edition(spec or "classic")
    if language is None:
        return edition
    if language not in edition.languages:
        raise _SetupError(
            f"--language: {edition.title} speaks {', '.join(edition.languages)}, not {language!r}"
        )
    rest = tuple(lang for lang in edition.languages if lang != language)
    return dataclasses.replace(edition, languages=(language, *rest))


def _load(args: argparse.Namespace) -> PropertyGame:
    try:
        text = Path(args.load).read_text(encoding="utf-8")
    except OSError as exc:
        raise _SetupError(f"--load: cannot read {args.load}: {exc.strerror or exc}") from exc
    try:
        data = json.loads(text)
        game = PropertyGame.from_dict(data)  # (a game on an edition file carries its data)
    except (ParlorError, json.JSONDecodeError, KeyError, TypeError, AttributeError) as exc:
        hint = ""
        if isinstance(exc, ParlorError) and str(exc).startswith("unknown edition"):
            hint = " (a game on an edition file: give that file with --edition)"
        raise _SetupError(
            f"--load: {args.load} is not a saved game that replays: {exc}{hint}"
        ) from exc
    if args.language:
        # Same game, shown in another language: replay the log on the edition in that language.
        edition = _edition_for(args.edition or game.edition.id, args.language)
        shown = new_game(edition, list(game.names), game.seed, game.settings.get("options"))
        for action in game.log:
            shown.apply(action)
        game = shown
    return game


def _setup(args: argparse.Namespace) -> tuple[PropertyGame, set[int], dict[int, Bot], list[str]]:
    notes: list[str] = []
    if args.bot not in bot_names("monopoly"):
        raise _SetupError(
            f"--bot: unknown bot {args.bot!r}: choose one of {', '.join(bot_names('monopoly'))}"
        )
    if args.max_steps is not None and args.max_steps < 1:
        raise _SetupError("--max-steps must be at least 1")
    if args.load:
        ignored = [
            flag
            for flag, value in (
                ("--players", args.players),
                ("--names", args.names),
                ("--variant", args.variant),
                ("--option", args.option),
            )
            if value
        ]
        if ignored:
            notes.append(f"(the saved game decides: {', '.join(ignored)} ignored)")
        game = _load(args)
    else:
        try:
            names = parse_names(args.names)
        except ValueError as exc:
            raise _SetupError(f"--names: {exc}") from exc
        players = args.players if args.players is not None else (len(names) if names else 4)
        if names and len(names) != players:
            raise _SetupError(f"{len(names)} names given for {players} players")
        try:
            options = parse_options(args.option)
        except ValueError as exc:
            raise _SetupError(f"--option: {exc}") from exc
        if args.variant is not None:
            options["variant"] = args.variant
        edition = _edition_for(args.edition, args.language)
        if names is None:
            try:
                bot_seats = parse_seats(args.bots, players)
            except ValueError:
                bot_seats = set()  # reported below, once the player count is known to be valid
            names = [
                f"Bot {i + 1}" if i in bot_seats else f"Player {i + 1}" for i in range(players)
            ]
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
        game = new_game(edition, names, seed=seed, options=options)
    try:
        bot_seats = parse_seats(args.bots, game.num_players)
    except ValueError as exc:
        raise _SetupError(f"--bots: {exc}") from exc
    seed = args.seed if args.seed is not None else game.seed
    bots = {s: make_bot("monopoly", args.bot, seed=seed * 1000 + s) for s in sorted(bot_seats)}
    humans = set(range(game.num_players)) - bot_seats
    return game, humans, bots, notes


def run(
    args: argparse.Namespace,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Set up the game from parsed arguments and play it; 2 (and a message) for bad arguments."""
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else (out if stdout is not None else sys.stderr)
    try:
        game, humans, bots, notes = _setup(args)
    except _SetupError as exc:
        print(f"parlor play: error: {exc}", file=err)
        return 2
    except ParlorError as exc:
        print(f"parlor play: error: {exc}", file=err)
        return 2
    max_steps = args.max_steps
    if max_steps is None and not humans:
        max_steps = DEFAULT_BOT_STEPS
    ed = game.edition
    seats = ", ".join(f"{name}{' (bot)' if i in bots else ''}" for i, name in enumerate(game.names))
    variant = game.options.variant
    print(
        f"{ed.title} ({ed.id}{'' if variant == 'standard' else ', ' + variant} game), "
        f"seed {game.seed}: {seats}.",
        file=out,
    )
    for note in notes:
        print(note, file=out)
    if humans:
        print("Type h for help.", file=out)
    if game.log:
        print(f"Resuming after {len(game.log)} actions.", file=out)
    else:
        for event in game.setup_events:
            print(f"  {event_text(game, event)}", file=out)
    width = shutil.get_terminal_size((80, 24)).columns if stdout is None else 80
    if args.minutes is not None and not game.is_legal(CallTime(0)):
        print("parlor play: error: --minutes needs --variant time_limit or quick", file=err)
        return 2
    return play(
        game,
        humans,
        bots,
        inp,
        out,
        max_steps=max_steps,
        save_path=args.save,
        width=width,
        minutes=args.minutes,
    )


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Standalone entry point: ``python -m parlor.cli.monopoly_tui [options]``."""
    parser = argparse.ArgumentParser(
        prog="parlor play", description="Play a property-trading game in the terminal."
    )
    _add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run(args, stdin, stdout, stderr)
    except KeyboardInterrupt:
        print("\nbye", file=stdout if stdout is not None else sys.stdout)
        return 130


if __name__ == "__main__":
    sys.exit(main())

"""The property game's terminal loop: whose decision it is, what is shown, what is typed.

Humans answer menus by number; bots choose and their turns are summarised. The game is saved
(atomically) after every human action and every turn when a save file is given, and on any crash,
so the game in progress is never lost.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from parlor.bots.base import Bot
from parlor.bots.registry import make_bot
from parlor.cli import monopoly_view as view
from parlor.cli.common import Seat, parse_int
from parlor.cli.console import InputEnded, OutputGone, Terminal
from parlor.cli.explain import property_rule
from parlor.cli.saves import SaveError, write_save
from parlor.cli.wrap import pack_items
from parlor.core.errors import ParlorError
from parlor.core.game import Event
from parlor.i18n import Translator, translate_error
from parlor.monopoly import (
    Action,
    Bid,
    BuyProperty,
    CallTime,
    ClaimRent,
    DeclareBankruptcy,
    LiftMortgageNow,
    PayDebt,
    PayJailFine,
    PropertyGame,
)
from parlor.monopoly import text as words

#: Bot-only games without ``--max-steps`` stop after this many actions.
DEFAULT_BOT_STEPS = 20000
#: Decisions at which the human always gets the full table.
FULL_SUMMARY = {"start_turn", "jail", "raise_funds", "answer_trade"}
#: Events worth a line when bot turns are shown quietly (a watched bot game).
QUIET_EVENTS = {
    "bought",
    "auction_won",
    "trade_accepted",
    "bankrupt",
    "time_called",
    "hotel_built",
    "first_player",
}
SHOW_MODES = ("full", "short", "quiet")


class Quit(Exception):
    """The human typed q."""


@dataclass
class Options:
    lang: str
    save_path: str | None = None
    max_steps: int | None = None
    minutes: float | None = None
    show: str | None = None  # full, short, quiet; None: short with humans, quiet without
    pace: float = 0.0
    crash_path: str | None = None  # where to save on a crash when there is no save_path
    seats: list[Seat] = field(default_factory=list)


def menu_actions(game: PropertyGame, player: int) -> list[Action]:
    """The numbered menu at ``player``'s decision: the answers, then claiming rent and calling
    time when those are possible (the other "any time" actions have their own menus)."""
    items = game.legal_actions(player, anytime=False)
    items += [a for a in game.legal_actions(player) if isinstance(a, ClaimRent)]
    if game.is_legal(CallTime(player)):  # accepted, though not listed among the moves
        items.append(CallTime(player))
    return items


class Session:
    def __init__(
        self,
        game: PropertyGame,
        humans: set[int],
        bots: dict[int, Bot],
        term: Terminal,
        options: Options,
    ) -> None:
        self.game = game
        self.humans = humans
        self.bots = bots
        self.term = term
        self.opts = options
        self.lang = options.lang
        self._: Translator = words.tr(game, options.lang)
        self.deadline = None if options.minutes is None else time.monotonic() + 60 * options.minutes
        self.max_steps = options.max_steps
        self.save_path = options.save_path
        self.show_mode = options.show or ("short" if humans else "quiet")
        self.steps = 0
        self.menu_shown_at = -1  # len(game.log) when the menu was last printed
        self.summaries: set[tuple[int, int, int]] = set()
        self.auction_bids = 0
        self.last_offer = ""

    # --- output ---
    def say(self, text: str = "") -> None:
        self.term.say(text)

    def ask(self, prompt: str) -> str:
        return self.term.ask(prompt)

    def confirm(self, question: str) -> bool:
        """A yes/no question; Enter means no, anything else unexpected is asked again."""
        return ask_yes_no(self.term, self._, question)

    def apply(self, action: Action) -> bool:
        """Apply a human's action and print what happened; False (and the reason) if illegal."""
        try:
            events = self.game.apply(action)
        except ParlorError as exc:
            self.say(self._("Not allowed: {reason}", reason=translate_error(exc, self.lang)))
            return False
        self.steps += 1
        self.report(events, by_bot=False)
        self.autosave()
        return True

    def report(self, events: list[Event], by_bot: bool) -> None:
        mode = self.show_mode if by_bot else "full"
        for event in events:
            if event.kind == "game_over":
                continue  # the end is announced with the ranking
            if event.kind == "tax_chosen":
                continue  # the payment (or the debt) that follows says the amount
            if event.kind == "turn" and event.data.get("player") in self.humans and mode != "quiet":
                continue  # a human's turn opens with the table under its own header
            if event.kind == "turn" and mode != "quiet":
                self.say()
            if mode == "short" and event.kind in ("bid", "passed"):
                self.auction_bids += event.kind == "bid"
                continue
            if event.kind == "trade_proposed":
                self.last_offer = words.describe_event(self.game, event, self.lang)
            if mode == "quiet" and event.kind == "trade_accepted" and self.last_offer:
                self.say(f"  {self.last_offer}")  # what was accepted
            if mode == "quiet" and event.kind not in QUIET_EVENTS:
                if event.kind == "turn":
                    self.quiet_round_check()
                continue
            line = words.describe_event(self.game, event, self.lang)
            if event.kind == "auction_won" and self.auction_bids > 1 and mode != "full":
                line += " " + self._("(after {n} bids)", n=self.auction_bids)
            if event.kind in ("auction_won", "auction_unsold", "auction_started"):
                self.auction_bids = 0
            self.say(f"  {line}")

    def quiet_round_check(self) -> None:
        """In a watched bot game: the standings every ten rounds."""
        round_ = self.game.view()["round"]
        if round_ and round_ % 10 == 0 and self.game.view()["turn"] == 0:
            self.say(self._("--- round {n} ---", n=round_ + 1))
            for line in view.standings(self.game, self.lang):
                self.term.show(line)

    # --- saving ---
    def seats(self) -> list[Seat]:
        return self.opts.seats or [
            Seat() if q in self.humans else Seat("random") for q in range(self.game.num_players)
        ]

    def write(self, path: str) -> bool:
        try:
            write_save(path, self.game, self.seats(), self.lang)
        except SaveError as exc:
            self.say(
                self._(
                    "Could not save to {path}: {reason}",
                    path=path,
                    reason=translate_error(exc, self.lang),
                )
            )
            return False
        return True

    def autosave(self) -> None:
        if self.save_path is not None:
            self.write(self.save_path)

    def save(self, ask: bool) -> None:
        path = self.save_path
        if path is None and ask:
            path = self.ask(self._("Save to which file? (Enter: don't save)") + " > ") or None
        if path is None:
            return
        if self.write(path):
            self.save_path = path
            self.say(self._("Game saved to {path}.", path=path))

    def rescue(self) -> str | None:
        """Save wherever possible after a failure; the path written, if any."""
        for path in (self.save_path, self.opts.crash_path):
            if path is not None:
                try:
                    write_save(path, self.game, self.seats(), self.lang)
                except SaveError:
                    continue
                return path
        return None

    # --- the loop ---
    def run(self) -> int:
        game = self.game
        try:
            while not game.is_over:
                if self.max_steps is not None and self.steps >= self.max_steps:
                    return self.stop_at_cap()
                if self.deadline is not None and time.monotonic() >= self.deadline:
                    self.say(self._("Time is up."))
                    self.report(game.apply(CallTime(game.current_player)), by_bot=False)
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
                        self.say(self._("(Every human player is out: the bots play on.)"))
                        self.show_mode = "quiet"
                    self.max_steps = self.steps + DEFAULT_BOT_STEPS
        except Quit:
            with _suppress_io():
                self.save(ask=True)
            with _suppress_io():
                self.say(self._("Game abandoned."))
            return 1
        except InputEnded:
            with _suppress_io():
                self.say("\n" + self._("Input ended: game abandoned."))
            self.save_quietly()
            return 1
        except OutputGone:
            saved = self.rescue()
            if saved is not None:
                with contextlib.suppress(OSError, ValueError):
                    print(
                        self._("The output closed: the game is saved to {path}.", path=saved),
                        file=sys.stderr,
                    )
            return 1
        except KeyboardInterrupt:
            with _suppress_io():
                self.say("\n" + self._("Interrupted: game abandoned."))
            self.save_quietly()
            return 130
        self.finish()
        return 0

    def save_quietly(self) -> None:
        if self.save_path is not None and self.write(self.save_path):
            with _suppress_io():
                self.say(self._("Game saved to {path}.", path=self.save_path))

    def bot_move(self, p: int) -> None:
        action = self.bots[p].choose(self.game, p)
        events = self.game.apply(action)
        self.steps += 1
        self.report(events, by_bot=True)
        if any(e.kind == "turn" for e in events):
            self.autosave()
            if self.opts.pace > 0 and self.humans:
                self.term.flush()
                time.sleep(self.opts.pace)

    def human_move(self, p: int) -> None:
        """Prompt ``p`` until one action is applied (or the human quits)."""
        game = self.game
        decision = game.pending
        assert decision is not None
        state = game.view(p)
        key = (state["round"], state["turn"], p)
        fresh = self.menu_shown_at != len(game.log)
        if fresh and (decision.kind in FULL_SUMMARY or key not in self.summaries):
            self.say()
            for line in view.summary(game, self.lang, p):
                self.term.show(line)
            self.summaries.add(key)
        if fresh and decision.kind == "answer_trade":
            for line in view.trade_details(
                game, decision.info["offer"], int(decision.info["from"]), p, self.lang
            ):
                self.term.show(line)
        start = len(game.log)
        while len(game.log) == start:
            items = menu_actions(self.game, p)
            if self.menu_shown_at != len(game.log):
                self.show_menu(p, items)
            text = self.ask(f"{game.names[p]} > ").lower()
            if text:
                self.command(p, text, items)

    def show_menu(self, p: int, items: list[Action]) -> None:
        game = self.game
        decision = game.pending
        assert decision is not None
        self.say(words.describe_decision(game, decision, self.lang))
        for i, action in enumerate(items, 1):
            self.say(f"  {i:>2}. {view.action_label(game, action, self.lang)}")
        for note in self.missing_answers(p, items):
            self.say(f"  ({note})")
        letters = self._(
            "b build  t trade  v board  i table  r rule  ? hint  s save  h help  q quit"
        )
        keys = [self._("bid <amount>")] if decision.kind == "bid" else []
        keys += [key for key in letters.split("  ") if key.strip()]
        for line in pack_items(keys, self.term.width):
            self.say(line)
        self.menu_shown_at = len(game.log)

    def missing_answers(self, p: int, items: Sequence[Action]) -> list[str]:
        """Why an answer one might expect is not in the menu (mostly: not enough cash)."""
        _ = self._
        game = self.game
        decision = game.pending
        assert decision is not None
        info = decision.info
        cash = int(game.view(p)["players"][p]["cash"])
        kinds = {type(a) for a in items}

        def short(cost: int) -> str:
            return words.money(game, cost - cash, self.lang)

        notes = []
        kind = decision.kind
        if kind == "buy_or_auction" and BuyProperty not in kinds and cash < int(info["price"]):
            notes.append(
                _("You cannot buy it: you are {amount} short.", amount=short(int(info["price"])))
            )
        elif kind == "mortgaged_property" and LiftMortgageNow not in kinds:
            square = int(info["square"])
            cost = game.edition.squares[square].mortgage + game.edition.mortgage_interest(square)
            if cash < cost:
                notes.append(
                    _(
                        "You cannot lift the mortgage now: you are {amount} short.",
                        amount=short(cost),
                    )
                )
        elif kind == "jail" and PayJailFine not in kinds and cash < game.edition.jail_fine:
            notes.append(
                _(
                    "You cannot pay the fine: you are {amount} short.",
                    amount=short(game.edition.jail_fine),
                )
            )
        elif kind == "raise_funds" and PayDebt not in kinds:
            notes.append(
                _(
                    "You cannot pay yet: you are {amount} short. Sell buildings or mortgage (b), "
                    "or trade (t).",
                    amount=short(int(info["amount"])),
                )
            )
        elif kind == "bid" and Bid not in kinds and cash < int(info["min_bid"]):
            notes.append(_("You cannot bid: the next bid is more than you have."))
        return notes

    def command(self, p: int, text: str, items: list[Action]) -> None:
        from parlor.cli import monopoly_menus as menus

        _ = self._
        game = self.game
        if text in ("q", "quit", "exit"):
            raise Quit()
        if text in ("h", "help"):
            self.say(menus.help_text(_))
        elif text in ("r", "rule", "rules"):
            for said in property_rule(game, self.lang, p):
                self.say(said)
        elif text in ("?", "hint"):
            self.hint(p, items)
        elif text in ("v", "view", "board"):
            for line in view.board(game, self.lang, self.term.width):
                self.term.show(line)
            self.menu_shown_at = -1
        elif text in ("i", "info"):
            for line in view.summary(game, self.lang, p):
                self.term.show(line)
            self.menu_shown_at = -1
        elif text in ("s", "save"):
            self.save(ask=True)
        elif text in ("b", "build"):
            menus.build_menu(self, p)
            self.menu_shown_at = -1
        elif text in ("t", "trade"):
            menus.trade_dialogue(self, p)
            self.menu_shown_at = -1
        elif text.startswith(("bid", _("bid"))):
            amount = (
                parse_int(text.split(maxsplit=1)[1].lstrip("$").replace(",", "").replace(".", ""))
                if " " in text
                else None
            )
            if amount is None:
                self.say(_("Sorry: write a bid as 'bid <amount>', e.g. 'bid 120'"))
            else:
                self.apply(Bid(p, amount))
        elif (n := parse_int(text)) is not None:
            if not items:
                self.say(_("Sorry: there is no numbered answer now; type b, t or h"))
            elif not 1 <= n <= len(items):
                self.say(_("Sorry: {n} is not in the menu: choose 1-{last}", n=n, last=len(items)))
            elif self.confirmed(p, items[n - 1]):
                self.apply(items[n - 1])
            else:
                self.menu_shown_at = -1  # a "no": the question and its menu again
        else:
            self.say(
                _(
                    "Sorry: I did not understand {text}. Type a menu number (1-{last}), or b, t, "
                    "v, i, r, ?, s, h or q (h for help)",
                    text=repr(text[:40]),
                    last=max(1, len(items)),
                )
            )

    def hint(self, p: int, items: list[Action]) -> None:
        """What the heuristic bot would do at ``p``'s decision (a bot of its own, seeded by the
        position, so that asking again gives the same advice)."""
        _ = self._
        advice = make_bot("monopoly", "heuristic", seed=len(self.game.log)).choose(self.game, p)
        label = view.action_label(self.game, advice, self.lang)
        if advice in items:
            self.say(
                _("Hint: the heuristic bot would choose {n}, {action}.",
                  n=items.index(advice) + 1, action=label)
            )  # fmt: skip
        elif isinstance(advice, Bid):
            self.say(
                _("Hint: the heuristic bot would {action} (type 'bid <amount>').", action=label)
            )
        else:
            self.say(
                _("Hint: the heuristic bot would {action} first (b builds or mortgages, t trades).",
                  action=label)
            )  # fmt: skip

    def confirmed(self, p: int, action: Action) -> bool:
        """Bankruptcy says what it costs and asks once. (Accepting a trade is one step: the
        offer's details were shown with the question.)"""
        _ = self._
        game = self.game
        if isinstance(action, DeclareBankruptcy):
            decision = game.pending
            creditor = decision.info.get("creditor", -1) if decision else -1
            worth = words.money(game, game.valuation(p), self.lang)
            question = _(
                "Declaring bankruptcy ends your game: everything you own (worth {worth}) goes to "
                "{to}. Declare bankruptcy?",
                worth=worth,
                to=words.party(game, int(creditor), self.lang),
            )
            return self.confirm(question)
        return True

    # --- the end ---
    def stop_at_cap(self) -> int:
        game = self.game
        self.say(
            "\n"
            + self._(
                "Stopped after {n} steps (the step limit); the game is not over.", n=self.steps
            )
        )
        active = [q for q in range(game.num_players) if not game.view()["players"][q]["bankrupt"]]
        scores = [float(game.valuation(q)) for q in range(game.num_players)]
        ranking = sorted(active, key=lambda q: -scores[q])
        ranking += [q for q in range(game.num_players) if q not in active]
        self.say(self._("Standings (cash, printed prices, mortgaged at half, buildings at cost):"))
        for line in view.final_ranking(game, self.lang, scores, ranking):
            self.say(line)
        self.save_quietly()
        return 0

    def finish(self) -> None:
        _ = self._
        game = self.game
        outcome = game.outcome
        assert outcome is not None
        winners = _.join([game.names[w] for w in outcome.winners])
        line = _.ngettext(
            "*** {names} wins ({why}) in round {round}. ***",
            "*** {names} win ({why}) in round {round}. ***",
            len(outcome.winners),
            names=winners,
            why=words.outcome_reason(game, outcome.reason, self.lang),
            round=game.view()["round"] + 1,
        )
        self.say("\n" + line)
        self.say(_("Final ranking (cash, printed prices, mortgaged at half, buildings at cost):"))
        for text in view.final_ranking(game, self.lang, outcome.scores, outcome.ranking):
            self.say(text)
        self.save_quietly()


def ask_yes_no(term: Terminal, _: Translator, question: str) -> bool:
    """Ask until the answer is yes or no (in English or the game's language); Enter is no."""
    yes = {"y", "yes", _("y"), _("yes")}
    no = {"n", "no", _("n"), _("no"), ""}
    while True:
        answer = term.ask(question + " " + _("(y/n)") + " > ").lower()
        if answer in yes or answer in no:
            return answer in yes
        term.say(
            _(
                "Sorry: {text} is not an answer here. Type {yes} for yes or {no} for no "
                "(Enter: no).",
                text=repr(answer[:40]),
                yes=_("y"),
                no=_("n"),
            )
        )


def _suppress_io() -> contextlib.suppress:
    """Ignore a vanished stream while saying goodbye."""
    return contextlib.suppress(OutputGone, InputEnded)

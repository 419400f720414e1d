"""The TOOLS table in the terminal: whose turn it is, the hand, what is typed, what happened.

The hand is shown sorted by colour and numbered, playable cards marked; at a hot seat (two or
more humans at one keyboard) a hand is shown only once its player says they are ready. Moves the
rules refuse are explained in the player's language; the game is saved after every move when a
save file is given, and on any failure of the streams.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from rich.text import Text

from parlor.bots.base import Bot
from parlor.bots.registry import make_bot
from parlor.cli.common import Seat, parse_int
from parlor.cli.console import InputEnded, OutputGone, Terminal
from parlor.cli.explain import tools_rule
from parlor.cli.saves import SaveError, write_save
from parlor.core.errors import ParlorError
from parlor.core.game import Decision, Event
from parlor.i18n import Translator, translate_error, translator
from parlor.tools import (
    AcceptPenalty,
    ChooseColor,
    Draw,
    EndTurn,
    KeepDrawn,
    PenaltyHammers,
    PlayCard,
    PlayDrawn,
    ToolsAction,
    ToolsGame,
)
from parlor.tools import text as words
from parlor.tools.cards import COLORED_TYPES, WILD_TYPES

COLOR_STYLES = {
    "red": "bold red",
    "blue": "bold blue",
    "green": "bold green",
    "yellow": "bold yellow",
}


class _Quit(Exception):
    pass


def help_text(_: Translator) -> str:
    return "\n".join(
        [
            _("Commands:"),
            "  <n>          "
            + _("play the card with that number in your hand (* marks playable cards)"),
            "  <n> <m>      "
            + _("good-nail penalty: play those two hammers (in that order), then draw 3"),
            "  d            " + _("draw a card (only when you cannot play)"),
            "  p / k        " + _("play / keep the card you just drew"),
            "  a            " + _("take the penalty (draw the cards owed, lose your turn)"),
            "  e            " + _("end your turn (after a paint brush)"),
            "  <color>      " + _("name a color after a paint brush (its name or number)"),
            "  ?            " + _("list your legal moves, and what the heuristic bot would play"),
            "  r            " + _("what the question is about, and the rule behind it"),
            "  s            " + _("save the game"),
            "  h            " + _("this help"),
            "  q            " + _("quit"),
        ]
    )


def sorted_hand(game: ToolsGame, hand: Sequence[str]) -> list[str]:
    """A hand as shown and numbered: by colour (the deck's order), then type; wilds last."""
    colors = list(game.deck.colors)
    order = {t: i for i, t in enumerate((*COLORED_TYPES, *WILD_TYPES))}

    def key(code: str) -> tuple[int, int]:
        kind, _sep, color = code.partition(":")
        return (colors.index(color) if color in colors else len(colors), order.get(kind, 99))

    return sorted(hand, key=key)


# ----- the table -------------------------------------------------------------------------------
class Table:
    def __init__(
        self,
        game: ToolsGame,
        seats: list[Seat],
        bots: dict[int, Bot],
        term: Terminal,
        lang: str,
        save_path: str | None,
    ) -> None:
        self.game = game
        self.seats = seats
        self.bots = bots
        self.term = term
        self.lang = lang
        self._ = translator(lang)
        self.save_path = save_path
        self.hot_seat = sum(1 for s in seats if s.is_human) > 1
        self.ready: int | None = None  # the human whose hand may be shown

    def say(self, text: str = "") -> None:
        self.term.say(text)

    def card(self, code: str) -> str:
        return words.card_name(self.game, code, self.lang)

    def styled_card(self, code: str) -> Text:
        color = code.partition(":")[2]
        return Text(
            self.card(code), style=COLOR_STYLES.get(color, "bold magenta" if not color else "")
        )

    # --- saving ---
    def write(self, path: str) -> bool:
        try:
            write_save(path, self.game, self.seats, self.lang)
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

    def rescue(self) -> str | None:
        if self.save_path is not None:
            try:
                write_save(self.save_path, self.game, self.seats, self.lang)
            except SaveError:
                return None
            return self.save_path
        return None

    def save(self, ask: bool) -> None:
        path = self.save_path
        if path is None and ask:
            path = self.term.ask(self._("Save to which file? (Enter: don't save)") + " > ") or None
        if path is not None and self.write(path):
            self.save_path = path
            self.say(self._("Game saved to {path}.", path=path))

    # --- the loop ---
    def run(self) -> int:
        _ = self._
        try:
            return self._loop()
        except _Quit:
            with contextlib.suppress(InputEnded, OutputGone):
                self.save(ask=True)
            with contextlib.suppress(OutputGone):
                self.say(_("game abandoned"))
            return 1
        except InputEnded:
            with contextlib.suppress(OutputGone):
                self.say("\n" + _("input ended; game abandoned"))
            if self.save_path is not None:
                self.write(self.save_path)
            return 1
        except OutputGone:
            self.rescue()
            return 1
        except KeyboardInterrupt:
            self.rescue()
            return 130

    def _loop(self) -> int:
        game = self.game
        _ = self._
        last_shown: tuple[int, int, str] | None = None
        while not game.is_over:
            decision = game.pending
            assert decision is not None
            p = decision.player
            if p in self.bots:
                action = self.bots[p].choose(game, p)
                self.report(action, game.apply(action), private_to=None)
                if self.save_path is not None and game.pending and game.pending.player != p:
                    self.write(self.save_path)
                continue
            if self.hot_seat and self.ready != p:
                self.say()
                self.say(
                    _(
                        "{name}, it is your turn: press Enter when only you can see the screen.",
                        name=game.names[p],
                    )
                )
                self.term.ask("> ")
                self.ready = p
            if last_shown != (game.turn, p, decision.kind):  # not again after bad input
                self.show(p)
                last_shown = (game.turn, p, decision.kind)
            text = self.term.ask(self.prompt(p)).lower()
            if not text:
                continue
            if text in ("q", "quit", "exit"):
                raise _Quit()
            if text in ("h", "help"):
                self.say(help_text(_))
                continue
            if text in ("s", "save"):
                self.save(ask=True)
                continue
            if text == "?":
                moves = "; ".join(
                    words.describe_action(game, a, self.lang) for a in game.legal_actions(p)
                )
                self.say(_("Your legal moves: {moves}", moves=moves))
                self.say(self.hint(p))
                continue
            if text in ("r", "rule", "rules"):
                for line in tools_rule(game, self.lang, p):
                    self.say(line)
                continue
            try:
                action = self.parse(p, text)
            except ValueError as exc:
                self.say(_("Sorry: {reason}", reason=str(exc)))
                continue
            if not game.is_legal(action):
                self.say(_("Not allowed: {reason}", reason=self.why_not(p, action)))
                continue
            before = list(game.view(p)["hand"])
            try:
                events = game.apply(action)
            except ParlorError as exc:
                self.say(_("Not allowed: {reason}", reason=translate_error(exc, self.lang)))
                continue
            self.report(action, events, private_to=p, hand_before=before)
            if self.save_path is not None:
                self.write(self.save_path)
            after = game.pending
            if self.hot_seat and (after is None or after.player != p):
                self.ready = None
                if self.term.interactive:
                    self.term.console.clear()
        self.finish()
        return 0

    def finish(self) -> None:
        game, _ = self.game, self._
        outcome = game.outcome
        assert outcome is not None
        line = _.ngettext(
            "*** {names} wins ({how}) after {n} turns. ***",
            "*** {names} win ({how}) after {n} turns. ***",
            len(outcome.winners),
            names=_.join([game.names[w] for w in outcome.winners]),
            how=words.outcome_reason(outcome.reason, self.lang),
            n=game.turn,
        )
        self.say("\n" + line)
        counts = ", ".join(
            f"{n}: {s}" for n, s in zip(game.names, game.view()["hand_sizes"], strict=True)
        )
        self.say(_("Cards left: {counts}", counts=counts))
        if self.save_path is not None and self.write(self.save_path):
            self.say(_("Game saved to {path}.", path=self.save_path))

    # --- showing ---
    def sorted_hand(self, p: int) -> list[str]:
        return sorted_hand(self.game, self.game.view(p)["hand"])

    def show(self, p: int) -> None:
        game, _ = self.game, self._
        view = game.view(p)
        top = self.styled_card(view["top"])
        self.say()
        self.say(_("=== Turn {n}: {name} ===", n=view["turn"] + 1, name=game.names[p]))
        line = Text(_("Discard pile top:") + " ")
        line.append(top)
        if view["color"]:
            line.append(
                " "
                + _(
                    "(color in force: {color})",
                    color=words.color_name(game, view["color"], self.lang),
                )
            )
        self.term.show(line)
        clockwise = view["direction"] == "clockwise"
        penalty = (
            ", " + _("box of nails penalty: {n}", n=view["box_penalty"])
            if view["box_penalty"]
            else ""
        )
        self.say(
            _("Draw pile: {n} cards, direction: {direction}", n=view["draw_pile"],
              direction=words.direction(clockwise, self.lang)) + penalty
        )  # fmt: skip
        others = ", ".join(
            f"{game.names[q]}: {view['hand_sizes'][q]}" for q in range(game.num_players) if q != p
        )
        self.say(_("Cards in hand: {counts}", counts=others))
        playable = game.playable_cards()
        self.say(_("Your hand (* can be played now):"))
        for i, code in enumerate(self.sorted_hand(p), 1):
            row = Text(f"  {i:2}. {'*' if code in playable else ' '} ")
            row.append(self.styled_card(code))
            self.term.show(row)

    def decision(self, p: int) -> Decision:
        """The decision as ``p`` may see it (their drawn card included)."""
        decision = self.game.pending_for(p)
        assert decision is not None
        return decision

    def prompt(self, p: int) -> str:
        game, _ = self.game, self._
        decision = self.decision(p)
        kind = decision.kind
        text = words.describe_decision(game, decision, self.lang)
        if kind == "drawn_card":
            return text + " " + _("p = play it, k = keep it") + " > "
        if kind == "choose_color":
            colors = "  ".join(
                f"{i}. {words.color_name(game, c, self.lang)}"
                for i, c in enumerate(game.deck.colors, 1)
            )
            return text + f" ({colors}) > "
        if kind == "brush_second_card":
            return text + " " + _("(its number, or e)") + " > "
        if kind == "box_of_nails":
            return text + " " + _("(its number, or a)") + " > "
        penalty = decision.info.get("good_nail_penalty")
        if penalty == "two_hammers":
            return text + " " + _("(two numbers, e.g. '2 5')") + " > "
        if penalty == "draw_two":
            return text + " " + _("a = take it") + " > "
        legal = game.legal_actions(p)
        if any(isinstance(a, Draw) for a in legal):
            if len(legal) == 1:
                return _("You have no card to play: d = draw") + " > "
            return _("Play a card (its number), or d = draw") + " > "
        return _("Play a card (its number)") + " > "

    def why_not(self, p: int, action: ToolsAction) -> str:
        """Why a move the player typed is not legal now, in the player's language."""
        game, _ = self.game, self._
        kind = self.decision(p).kind
        if isinstance(action, PlayCard):
            top = self.card(game.view(p)["top"])
            if kind == "drawn_card":
                return _("you have just drawn a card: play it (p) or keep it (k)")
            if kind == "box_of_nails":
                return _(
                    "only a box of nails answers a box of nails (of any color); or take the "
                    "penalty (a)"
                )
            return _(
                "the {card} cannot be played on the {top} now", card=self.card(action.card), top=top
            )
        if isinstance(action, Draw):
            return self.why_not_draw(p, kind)
        if isinstance(action, PlayDrawn | KeepDrawn):
            return _("you have not just drawn a card")
        if isinstance(action, AcceptPenalty):
            return _("there is no penalty to take now")
        if isinstance(action, EndTurn):
            return _("you may end your turn only after a paint brush")
        if isinstance(action, PenaltyHammers):
            return _("two hammers are played only when you cannot repair a good nail")
        return _("that move is not possible now")

    def hint(self, p: int) -> str:
        """What the heuristic bot would do at ``p``'s decision (a bot of its own, seeded by the
        position, so that asking again gives the same advice)."""
        _ = self._
        advice = make_bot("tools", "heuristic", seed=self.game.turn).choose(self.game, p)
        if isinstance(advice, PlayCard):
            return _(
                "Hint: the heuristic bot would play the {card} ({n}).",
                card=self.card(advice.card),
                n=self.sorted_hand(p).index(advice.card) + 1,
            )
        return _(
            "Hint: the heuristic bot would do this: {action}.",
            action=words.describe_action(self.game, advice, self.lang),
        )

    def why_not_draw(self, p: int, kind: str) -> str:
        """Why drawing one card is refused at this decision (not always "you can play")."""
        _ = self._
        if kind == "drawn_card":
            return _("you have just drawn a card: play it (p) or keep it (k)")
        if kind == "box_of_nails":
            return _(
                "a box of nails is not answered by drawing one card: answer with a box of "
                "nails (its number) or take the penalty (a)"
            )
        if kind in ("choose_color", "brush_second_card"):
            return _("after a paint brush you name a color, then play a card of it or end (e)")
        penalty = self.decision(p).info.get("good_nail_penalty")
        if penalty == "two_hammers":
            return _(
                "on a good nail you cannot repair, the penalty replaces drawing: play two "
                "hammers (e.g. '2 5'), then draw 3"
            )
        if penalty == "draw_two":
            return _(
                "on a good nail you cannot repair, the penalty replaces drawing: take it (a), "
                "draw 2 and lose your turn"
            )
        return _("you can play a card, so you may not draw")

    def parse(self, p: int, text: str) -> ToolsAction:
        """A typed line as an action; ValueError with a helpful message if it means nothing."""
        game, _ = self.game, self._
        hand = self.sorted_hand(p)
        letters: dict[str, ToolsAction] = {
            "d": Draw(p),
            "p": PlayDrawn(p),
            "k": KeepDrawn(p),
            "a": AcceptPenalty(p),
            "e": EndTurn(p),
        }
        if self.decision(p).kind == "choose_color":
            colors = list(game.deck.colors)
            names = {words.color_name(game, c, self.lang).lower(): c for c in colors}
            number = parse_int(text)
            if number is not None and 1 <= number <= len(colors):
                return ChooseColor(p, colors[number - 1])
            if text in colors or text in names:
                return ChooseColor(p, names.get(text, text))
            raise ValueError(
                _(
                    "name a color: {names} (or its number 1-{n})",
                    names=", ".join(names),
                    n=len(colors),
                )
            )
        if text in letters:
            return letters[text]
        parts = text.replace(",", " ").split()
        numbers = [parse_int(part) for part in parts]
        if parts and all(n is not None for n in numbers):
            picked = [n for n in numbers if n is not None]
            bad = [n for n in picked if not 1 <= n <= len(hand)]
            if bad:
                raise ValueError(
                    _(
                        "{n} is not a card number: your hand has cards 1-{last}",
                        n=bad[0],
                        last=len(hand),
                    )
                )
            if len(picked) == 1:
                return PlayCard(p, hand[picked[0] - 1])
            if len(picked) == 2:
                if picked[0] == picked[1]:
                    raise ValueError(_("pick two different cards for the penalty"))
                codes = [hand[n - 1] for n in picked]
                if not all(code.startswith("hammer:") for code in codes):
                    raise ValueError(
                        _("the good-nail penalty takes two hammers (not wild hammers)")
                    )
                return PenaltyHammers(p, codes[0].split(":")[1], codes[1].split(":")[1])
            raise ValueError(_("type one card number (or two hammers for the good-nail penalty)"))
        raise ValueError(
            _(
                "I did not understand {text}. Type a card number (1-{n}), a letter (d draw, p/k "
                "play/keep drawn card, a take penalty, e end turn), ? for your moves, r for the "
                "rule, h for help or q to quit",
                text=repr(text[:40]),
                n=len(hand),
            )
        )

    def report(
        self,
        action: ToolsAction,
        events: list[Event],
        private_to: int | None,
        hand_before: list[str] | None = None,
    ) -> None:
        """Print what happened; which cards were drawn only to the human who drew them."""
        game = self.game
        if isinstance(action, PenaltyHammers | KeepDrawn | EndTurn | AcceptPenalty):
            self.say(words.describe_action(game, action, self.lang) + ".")
        for ev in events:
            if ev.kind == "play" and isinstance(action, PenaltyHammers):
                continue
            if ev.kind == "game_over":
                continue
            self.say(words.describe_event(game, ev, self.lang) + ".")
        if private_to is not None and hand_before is not None and not game.is_over:
            after = list(game.view(private_to)["hand"])
            before = list(hand_before)
            for ev in events:  # the cards played leave the hand first (a hammer drawn back counts)
                if ev.kind == "play" and ev.data.get("player") == private_to:
                    with contextlib.suppress(ValueError):
                        before.remove(str(ev.data["card"]))
            for code in before:
                if code in after:
                    after.remove(code)
            if after:
                got = ", ".join(self.card(c) for c in after)
                self.say("(" + self._("You drew: {cards}.", cards=got) + ")")

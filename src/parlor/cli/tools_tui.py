"""Play TOOLS in the terminal: ``parlor tools`` (or ``python -m parlor.cli.tools_tui``).

Humans and bots share the table; on a human's turn the hand is listed by number and the player
types a card's number, or a letter for the other moves (``?`` lists them). Bad input and illegal
moves are answered with the reason, and the prompt comes back.

The game loop takes its input and output streams as arguments, so it can be driven by a script:

>>> import io
>>> out = io.StringIO()
>>> main(["--players", "2", "--bots", "all", "--seed", "1"], stdin=io.StringIO(""), stdout=out)
0
>>> "wins" in out.getvalue()
True
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from parlor.bots.base import RandomBot
from parlor.cli.common import parse_names, parse_seats
from parlor.core.errors import ParlorError
from parlor.core.game import Event
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
    new_game,
)

HELP = """Commands:
  <number>     play the card with that number in your hand
  <n> <m>      good-nail penalty: play those two hammers (in that order), then draw 3
  d            draw a card (only when you cannot play)
  p / k        play / keep the card you just drew
  a            take the penalty (draw the cards owed, lose your turn)
  e            end your turn (after a paint brush)
  <color>      name a color after a paint brush (its name or number)
  ?            list your legal moves      h  this help      q  quit"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register the ``tools`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "tools",
        help="play the TOOLS card game in the terminal",
        description="Play TOOLS: 2-10 players, any seats played by bots.",
    )
    _add_arguments(parser)
    return parser


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=None, help="number of players, 2-10 (4)")
    parser.add_argument(
        "--bots",
        default="all-but-1",
        help='seats played by bots: "2,3,4", "all-but-1" (default), "all" or "none"',
    )
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    parser.add_argument("--names", default=None, help='comma-separated names, e.g. "Ana,Bob,Eva"')
    parser.add_argument(
        "--deck", default=None, help="a deck TOML file (default: the built-in deck)"
    )
    parser.add_argument("--save", default=None, help="write the finished game as JSON to this file")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Set up the game from parsed arguments and play it on the given streams."""
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    try:
        names = parse_names(args.names)
    except ValueError as exc:
        print(f"error: --names: {exc}", file=out)
        return 2
    players = args.players if args.players is not None else (len(names) if names else 4)
    if names and len(names) != players:
        print(f"error: {len(names)} names given for {players} players", file=out)
        return 2
    if not 2 <= players <= 10:
        print(f"error: TOOLS is for 2-10 players, not {players}", file=out)
        return 2
    try:
        bots = parse_seats(args.bots, players)
    except ValueError as exc:
        print(f"error: --bots: {exc}", file=out)
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    if names is None:
        names = [f"Bot {i + 1}" if i in bots else f"Player {i + 1}" for i in range(players)]
    try:
        game = new_game(names, seed=seed, deck=args.deck)
    except ParlorError as exc:
        print(f"error: {exc}", file=out)
        return 2
    print(f"TOOLS, {players} players, seed {seed}. Type h for help.", file=out)
    code = play(game, bots, inp, out, bot_seed=seed)
    if args.save:
        with open(args.save, "w", encoding="utf-8") as fh:
            fh.write(game.to_json(indent=1))
        print(f"saved to {args.save}", file=out)
    return code


def play(game: ToolsGame, bot_seats: set[int], inp: TextIO, out: TextIO, bot_seed: int = 0) -> int:
    """Play ``game`` to the end; returns 0 when it ends, 1 if the human quits or input ends."""
    bots = {seat: RandomBot(bot_seed * 1000 + seat) for seat in bot_seats}
    last_shown: tuple[int, int, str] | None = None
    while not game.is_over:
        decision = game.pending
        assert decision is not None
        p = decision.player
        if p in bots:
            action = bots[p].choose(game, p)
            events = game.apply(action)
            _report(game, action, events, out, private_to=None)
            continue
        if last_shown != (game.turn, p, decision.kind):  # not again after bad input
            _show(game, p, out)
            last_shown = (game.turn, p, decision.kind)
        out.write(_prompt(game, p))
        out.flush()
        line = inp.readline()
        if not line:
            print("\ninput ended; game abandoned", file=out)
            return 1
        text = line.strip().lower()
        if text in ("q", "quit", "exit"):
            print("game abandoned", file=out)
            return 1
        if text in ("h", "help"):
            print(HELP, file=out)
            continue
        if text == "?":
            moves = "; ".join(game.describe(a) for a in game.legal_actions(p))
            print(f"Your legal moves: {moves}", file=out)
            continue
        try:
            action = _parse(game, p, text)
        except ValueError as exc:
            print(f"Sorry: {exc}", file=out)
            continue
        before = list(game.view(p)["hand"])
        try:
            events = game.apply(action)
        except ParlorError as exc:
            print(f"Not allowed: {exc}", file=out)
            continue
        _report(game, action, events, out, private_to=p, hand_before=before)
    outcome = game.outcome
    assert outcome is not None
    winners = " and ".join(game.names[w] for w in outcome.winners)
    verb = "wins" if len(outcome.winners) == 1 else "win"
    how = "emptied their hand" if outcome.reason == "empty hand" else outcome.reason
    print(f"\n*** {winners} {verb} ({how}) after {game.turn} turns. ***", file=out)
    counts = ", ".join(
        f"{n}: {s}" for n, s in zip(game.names, game.view()["hand_sizes"], strict=True)
    )
    print(f"Cards left: {counts}", file=out)
    return 0


def _hand(game: ToolsGame, p: int) -> list[str]:
    hand: list[str] = game.view(p)["hand"]
    return hand


def _show(game: ToolsGame, p: int, out: TextIO) -> None:
    view = game.view(p)
    top = game.card_name(view["top"])
    color = f" (color in force: {view['color']})" if view["color"] else " (any card may follow)"
    others = ", ".join(
        f"{game.names[q]}: {view['hand_sizes'][q]}" for q in range(game.num_players) if q != p
    )
    print(f"\n=== Turn {view['turn'] + 1}: {game.names[p]} ===", file=out)
    print(f"Discard pile top: {top}{color}", file=out)
    penalty = f", box of nails penalty: {view['box_penalty']}" if view["box_penalty"] else ""
    print(
        f"Draw pile: {view['draw_pile']} cards, direction: {view['direction']}{penalty}", file=out
    )
    print(f"Cards in hand: {others}", file=out)
    print("Your hand:", file=out)
    for i, code in enumerate(view["hand"], 1):
        print(f"  {i:2}. {game.card_name(code)}", file=out)


def _prompt(game: ToolsGame, p: int) -> str:
    decision = game.pending_for(p)
    assert decision is not None
    info = decision.info
    kind = decision.kind
    if kind == "drawn_card":
        return f"You drew a {game.card_name(info['drawn'])}. p = play it, k = keep it > "
    if kind == "choose_color":
        colors = "  ".join(f"{i}. {c}" for i, c in enumerate(game.deck.colors, 1))
        return f"Paint brush: choose a color ({colors}) > "
    if kind == "brush_second_card":
        return f"You may play a second {info['color']} card (its number), or e to end the turn > "
    if kind == "box_of_nails":
        return (
            f"A box of nails hits you ({info['penalty']} cards). Answer with a box of nails "
            f"(its number), or a to draw {info['penalty']} and lose your turn > "
        )
    penalty = info.get("good_nail_penalty")
    top = game.card_name(info["top"])
    if penalty == "two_hammers":
        return (
            f"You cannot repair the {top}: play two hammers (two numbers, e.g. '2 5'), "
            "then you draw 3 > "
        )
    if penalty == "draw_two":
        return (
            f"You cannot repair the {top} and hold fewer than two hammers: a = draw 2, lose turn > "
        )
    if any(isinstance(a, Draw) for a in game.legal_actions(p)):
        if len(game.legal_actions(p)) == 1:
            return "You have no card to play: d = draw > "
        return "Play a card (its number), or d = draw > "
    return "Play a card (its number) > "


def _parse(game: ToolsGame, p: int, text: str) -> ToolsAction:
    """Turn a typed line into an action; ValueError with a helpful message if it means nothing."""
    hand = _hand(game, p)
    decision = game.pending_for(p)
    assert decision is not None
    letters: dict[str, ToolsAction] = {
        "d": Draw(p),
        "p": PlayDrawn(p),
        "k": KeepDrawn(p),
        "a": AcceptPenalty(p),
        "e": EndTurn(p),
    }
    if decision.kind == "choose_color":
        colors = list(game.deck.colors)
        if text.isdigit() and 1 <= int(text) <= len(colors):
            return ChooseColor(p, colors[int(text) - 1])
        if text in colors:
            return ChooseColor(p, text)
        raise ValueError(f"name a color: {', '.join(colors)} (or its number 1-{len(colors)})")
    if text in letters:
        return letters[text]
    parts = text.replace(",", " ").split()
    if parts and all(part.isdigit() for part in parts):
        numbers = [int(part) for part in parts]
        bad = [n for n in numbers if not 1 <= n <= len(hand)]
        if bad:
            raise ValueError(f"{bad[0]} is not a card number: your hand has cards 1-{len(hand)}")
        if len(numbers) == 1:
            return PlayCard(p, hand[numbers[0] - 1])
        if len(numbers) == 2:
            if numbers[0] == numbers[1]:
                raise ValueError("pick two different cards for the penalty")
            codes = [hand[n - 1] for n in numbers]
            if not all(code.startswith("hammer:") for code in codes):
                raise ValueError("the good-nail penalty takes two hammers (not wild hammers)")
            return PenaltyHammers(p, codes[0].split(":")[1], codes[1].split(":")[1])
        raise ValueError("type one card number (or two hammers for the good-nail penalty)")
    raise ValueError(
        f"I did not understand {text!r}. Type a card number (1-{len(hand)}), a letter "
        "(d draw, p/k play/keep drawn card, a take penalty, e end turn), ? for your moves, "
        "h for help or q to quit"
    )


def _report(
    game: ToolsGame,
    action: ToolsAction,
    events: list[Event],
    out: TextIO,
    private_to: int | None,
    hand_before: list[str] | None = None,
) -> None:
    """Print what happened; card identities of draws only to the human who drew them."""
    names = game.names
    if isinstance(action, PenaltyHammers | KeepDrawn | EndTurn | AcceptPenalty):
        print(f"{game.describe(action)}.", file=out)
    for ev in events:
        d = ev.data
        if ev.kind == "play" and not isinstance(action, PenaltyHammers):
            print(f"{names[d['player']]} plays {game.card_name(d['card'])}.", file=out)
        elif ev.kind == "color":
            print(f"{names[d['player']]} names the color {d['color']}.", file=out)
        elif ev.kind == "draw":
            who = names[d["player"]]
            count = d["count"]
            print(f"{who} draws {count} card{'s' if count != 1 else ''}.", file=out)
        elif ev.kind == "skip":
            print(f"{names[d['player']]} loses the turn.", file=out)
        elif ev.kind == "reverse":
            print(
                f"Play now goes {'clockwise' if d['direction'] == 1 else 'counterclockwise'}.",
                file=out,
            )
        elif ev.kind == "reshuffle":
            print(
                f"The discard pile is shuffled into a new draw pile ({d['draw_pile']} cards).",
                file=out,
            )
    if private_to is not None and hand_before is not None and not game.is_over:
        after = list(game.view(private_to)["hand"])
        for code in hand_before:
            if code in after:
                after.remove(code)
        if after:
            got = ", ".join(game.card_name(c) for c in after)
            print(f"(You drew: {got}.)", file=out)


def main(
    argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    """Standalone entry point: ``python -m parlor.cli.tools_tui [options]``."""
    parser = argparse.ArgumentParser(prog="parlor tools", description="Play TOOLS in the terminal.")
    _add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run(args, stdin, stdout)
    except KeyboardInterrupt:
        print("\nbye", file=stdout if stdout is not None else sys.stdout)
        return 130


if __name__ == "__main__":
    sys.exit(main())

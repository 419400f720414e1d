"""``parlor replay`` and ``parlor records``: game records (docs/records.md) in the terminal.

    parlor replay game.plr                   # step through: Enter, a move number, e (end), q
    parlor replay game.json --all            # a save works too; --all prints every move
    parlor records convert game.json game.plr
    parlor records convert game.plr game.json
    parlor records check out/records/*.plr   # replay each, every line checked

The stepper prints plain text wrapped at 80 columns: the move as the record writes it, then what
happened in words, then the table in one line.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from textwrap import fill, indent
from typing import Any

from parlor.cli.common import help_language
from parlor.core.errors import E_, ParlorError
from parlor.core.game import Game
from parlor.i18n import LANGUAGES, Translator, translate_error, translator

WIDTH = 80


def add_parser(subparsers: Any, _: Translator | None = None) -> None:
    """Register ``replay`` and ``records`` on the ``parlor`` command's subparsers."""
    _ = _ or translator()
    p: argparse.ArgumentParser = subparsers.add_parser(
        "replay",
        help=_("step through a game record (or a saved game) in the terminal"),
        description=_(
            "Step through a game record in the terminal: Enter shows the next move, a number "
            "jumps to that move, e jumps to the end, q quits."
        ),
    )
    p.add_argument("file", metavar="FILE", help=_("a game record (.plr) or a saved game (.json)"))
    p.add_argument("--all", action="store_true", help=_("print every move, without asking"))
    p.add_argument("--seed", type=int, default=None, help=_("the seed a record withholds"))
    p.add_argument("--lang", choices=LANGUAGES, default=None, help=_("language of the events"))
    p.set_defaults(run=run_replay)
    r: argparse.ArgumentParser = subparsers.add_parser(
        "records",
        help=_("convert saved games and game records, check records"),
        description=_(
            "Game records (docs/records.md): convert a saved game (.json) to a record (.plr) "
            "or back, or check records by replaying them."
        ),
    )
    sub = r.add_subparsers(dest="records_command", required=True)
    c = sub.add_parser("convert", help=_("a saved game to a record, or a record to a save"))
    c.add_argument("source", metavar="IN", help=_("a saved game (.json) or a record (.plr)"))
    c.add_argument("target", metavar="OUT", help=_("the file to write: .plr or .json"))
    c.add_argument("--hide-seed", action="store_true", help=_("write the seed's commitment only"))
    c.add_argument("--seed", type=int, default=None, help=_("the seed a record withholds"))
    c.set_defaults(run=run_convert)
    k = sub.add_parser("check", help=_("replay records, every line checked"))
    k.add_argument("files", metavar="FILE", nargs="+", help=_("game records"))
    k.set_defaults(run=run_check)


def _fail(exc: BaseException, lang: str) -> int:
    _ = translator(lang)
    print(_("error: {reason}", reason=translate_error(exc, lang)), file=sys.stderr)
    return 2


def _read(path: str) -> str:
    from parlor.core.files import read_text_limited
    from parlor.records import MAX_RECORD_BYTES, RecordError

    return read_text_limited(path, MAX_RECORD_BYTES, RecordError, what=E_("game record"))


def _is_save(text: str) -> bool:
    return text.lstrip().startswith("{")


def _record_text(path: str) -> str:
    """The record in ``path``, or the record of the saved game in it."""
    from parlor.records import save_to_record

    text = _read(path)
    return save_to_record(text) if _is_save(text) else text


def run_convert(args: argparse.Namespace) -> int:
    from parlor.core.saves import write_atomic
    from parlor.records import record_to_save, rewrite, save_to_record

    lang = help_language(None)
    try:
        raw = _read(args.source)
        if args.target.endswith(".json"):
            if _is_save(raw):  # (a save to a save: checked by replaying it through a record)
                raw = save_to_record(raw)
            data = record_to_save(raw, args.seed)
            out = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
        elif _is_save(raw):
            out = save_to_record(raw, hide_seed=args.hide_seed)
        else:
            out = rewrite(raw, args.seed, hide_seed=args.hide_seed)
        write_atomic(args.target, out.encode("utf-8"))
    except (ParlorError, OSError, ValueError) as exc:
        return _fail(exc, lang)
    return 0


def run_check(args: argparse.Namespace) -> int:
    from parlor.records import read_game

    lang = help_language(None)
    _ = translator(lang)
    bad = 0
    for path in args.files:
        try:
            game = read_game(_record_text(path))
        except (ParlorError, OSError) as exc:
            bad += 1
            print(f"{path}: " + translate_error(exc, lang))
            continue
        print(f"{path}: " + _("ok, {n} moves", n=len(game.log)))
    return 1 if bad else 0


# ----- the stepper --------------------------------------------------------------------------
def _table(game: Game[Any], _: Translator) -> str:
    """The table in one line: each player's cash and square, or hand size and the top card."""
    view = game.view(None)
    if game.game_name == "tools":
        sizes = ", ".join(
            f"{name} {n}" for name, n in zip(view["names"], view["hand_sizes"], strict=True)
        )
        return _("cards: {sizes}; on top: {top}", sizes=sizes, top=view["top"])
    edition = getattr(game, "edition", None)
    parts = []
    for p in view["players"]:
        where = edition.square_name(p["position"]) if edition is not None else p["position"]
        gone = " " + _("(bankrupt)") if p["bankrupt"] else ""
        parts.append(f"{p['name']} {p['cash']} @ {where}{gone}")
    return "; ".join(parts)


def _say(text: str, width: int = WIDTH, prefix: str = "") -> str:
    return indent(fill(text, width - len(prefix)), prefix) if text else ""


def stepper(
    record: Any,
    seed: int | None,
    lang: str,
    ask: Callable[[str], str] | None,
    out: Callable[[str], None],
) -> int:
    """Step through ``record``: ``ask`` reads a command (None: print every move)."""
    from parlor.records import Replay

    _ = translator(lang)
    run = Replay(record, seed)
    moves = record.moves
    game_name = record.tag("Game")
    title = record.tag("Title") or record.tag("Deck") or ""
    names = ", ".join(f"P{i + 1} {n}" for i, n in enumerate(run.names))
    out(_say(f"{game_name} {title} — {names}".strip()))
    for line in record.setup:
        out(_say(line.text()))
    target = len(moves) if ask is None else 0
    steps = run.steps()
    while True:
        while run.done < target:
            step = next(steps)
            out(_say(step.line.text()))
            for event in step.events:
                words = run.game.describe_event(event, lang)
                if words:
                    out(_say(words, prefix="    "))
            out(_say(_table(run.game, _), prefix="    "))
        if run.done >= len(moves):
            run.finish()
            outcome = run.game.outcome
            if outcome is None:
                out(_("The record ends before the game does."))
            else:
                winners = ", ".join(run.names[w] for w in outcome.winners)
                out(
                    _(
                        "The game is over: {winners} ({reason}).",
                        winners=winners,
                        reason=outcome.reason,
                    )
                )
            return 0
        if ask is None:  # pragma: no cover - the loop above went to the end
            return 0
        answer = ask(
            _("[move {n} of {total}] Enter: next, a number: go to it, e: end, q: quit > ",
              n=run.done, total=len(moves))
        ).strip().lower()  # fmt: skip
        if answer in ("q", "quit"):
            return 0
        if answer in ("e", "end"):
            target = len(moves)
        elif answer.isdigit():
            n = min(int(answer), len(moves))
            if n < run.done:  # back: replay from the start, quietly
                run = Replay(record, seed)
                steps = run.steps()
                for _step in range(n):
                    next(steps)
                out(_say(_table(run.game, _), prefix="    "))
            target = n
        else:
            target = run.done + 1


def _ask(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError:  # (the end of piped commands: quit)
        return "q"


def run_replay(args: argparse.Namespace) -> int:
    from parlor.records import parse

    lang = args.lang or help_language(None)
    try:
        record = parse(_record_text(args.file))
        return stepper(record, args.seed, lang, None if args.all else _ask, print)
    except BrokenPipeError:
        raise
    except (ParlorError, OSError) as exc:
        return _fail(exc, lang)
    except StopIteration:  # pragma: no cover - steps end with the moves
        return 0

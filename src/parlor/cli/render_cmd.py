"""``parlor render``: draw a saved game's table as SVG or PNG, at any step of its log.

    parlor render game.json --out board.svg                  # the end of the game, as a spectator
    parlor render game.json --out board.png --step 120 --player 2 --heat

The save is the engine's JSON (``parlor play --save``, ``parlor tools --save``, ``to_json()``).
``--step N`` replays only its first N actions (a step past the end draws the end, with a note);
``--player P`` draws the table as seat P (1 is the first seat) sees it, and a spectator's picture
otherwise; ``--heat`` lays the exact analysis over a property board. The file's suffix picks the format: ``.png`` (through cairosvg), else SVG.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from textwrap import fill
from typing import Any

from parlor.cli.common import help_language
from parlor.core.errors import E_, ParlorError, ReplayError, SettingsError
from parlor.i18n import Translator, translate_error, translator

#: The width the help's prose is wrapped to (argparse keeps a raw description as it is).
WIDTH = 78
EXAMPLES = """
    parlor render game.json --out board.svg
    parlor render game.json --out board.png --step 120 --player 2 --heat"""


def description(_: Translator) -> str:
    """The help's description (the module's docstring, in the help's language)."""
    paragraphs = [
        _("parlor render: draw a saved game's table as SVG or PNG, at any step of its log."),
        EXAMPLES,
        _(
            "The save is the engine's JSON (parlor play --save, parlor tools --save, "
            "to_json()). --step N replays only its first N actions; --player P draws the table "
            "as seat P (1 is the first seat) sees it, and a spectator's picture otherwise; "
            "--heat lays the exact analysis over a property board. The file's suffix picks the "
            "format: .png (through cairosvg), else SVG."
        ),
    ]
    return "\n\n".join(p if p is EXAMPLES else fill(p, WIDTH) for p in paragraphs)


def add_parser(subparsers: Any, _: Translator | None = None) -> argparse.ArgumentParser:
    """Register the ``render`` subcommand on an argparse subparsers object."""
    _ = _ or translator()
    p: argparse.ArgumentParser = subparsers.add_parser(
        "render",
        help=_("draw a saved game's board or table as SVG or PNG"),
        description=description(_),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("save", metavar="SAVE", help=_("a saved game (JSON)"))
    p.add_argument("--out", required=True, help=_("the picture to write: NAME.svg or NAME.png"))
    p.add_argument(
        "--step", type=int, default=None, metavar="N", help=_("replay only the first N actions")
    )
    p.add_argument(
        "--player",
        type=int,
        default=None,
        metavar="P",
        help=_("draw the table as seat P sees it (1 is the first seat); default: a spectator"),
    )
    p.add_argument(
        "--heat",
        action="store_true",
        help=_("property games: lay the exact analysis over the board"),
    )
    p.add_argument(
        "--jail",
        choices=("leave", "stay"),
        default="leave",
        help=_("--heat: the jail strategy of the analysis (default leave)"),
    )
    p.add_argument(
        "--language", default=None, help=_("property games: one of the edition's languages")
    )
    p.add_argument("--scale", type=float, default=1.0, help=_("PNG: times the nominal size"))
    p.set_defaults(run=run)
    return p


def load_at_step(text: str, step: int | None) -> Any:
    """The saved game, replayed to its end (checking the save's snapshot) or to ``step``."""
    from parlor.monopoly.game import PropertyGame
    from parlor.tools.game import ToolsGame

    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReplayError(E_("not a saved game: {reason}", reason=str(exc))) from exc
    kinds: dict[str, type[PropertyGame] | type[ToolsGame]] = {
        PropertyGame.game_name: PropertyGame,
        ToolsGame.game_name: ToolsGame,
    }
    kind = kinds.get(str(data.get("game"))) if isinstance(data, dict) else None
    if kind is None:
        first, second = kinds
        raise ReplayError(E_("not a saved game of {first} or {second}", first=first, second=second))
    game = kind.from_json(text)
    if step is None:
        return game
    actions = data.get("actions", [])
    if step < 0:
        raise SettingsError(E_("--step must be at least 0"))
    if step >= len(actions):  # (a step past the end draws the end: _run says so)
        return game
    return kind.from_dict({**data, "actions": actions[:step]}, check_snapshot=False)


def run(args: argparse.Namespace) -> int:
    """Draw the picture; a bad save or argument prints a message and gives exit code 2."""
    try:
        return _run(args)
    except (ParlorError, OSError) as exc:
        lang = help_language([])  # (the environment's language: render has no --lang)
        reason = translate_error(exc, lang)
        _ = translator(lang)
        print(_("parlor render: {reason}", reason=reason), file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    from parlor.monopoly.game import PropertyGame
    from parlor.render import board_svg, tools_svg

    game = load_at_step(Path(args.save).read_text(encoding="utf-8"), args.step)
    if args.step is not None and args.step > len(game.log):
        _ = translator(help_language([]))
        # a short save is not an error: the README's --step 120 on a game of a few moves
        print(
            _(
                "note: the save has {count} actions, not {step}: drawing its last step",
                count=len(game.log),
                step=args.step,
            ),
            file=sys.stderr,
        )
    seat = None
    if args.player is not None:
        if not 1 <= args.player <= game.num_players:
            raise SettingsError(
                E_("--player must be a seat from 1 to {count}", count=game.num_players)
            )
        seat = args.player - 1
    if isinstance(game, PropertyGame):
        picture = board_svg(game, seat, heat=args.heat, jail=args.jail, language=args.language)
    else:
        if args.heat or args.language:
            raise SettingsError(E_("--heat and --language are for property games"))
        picture = tools_svg(game, seat)
    out = picture.save(args.out, scale=args.scale)
    _ = translator(help_language([]))
    print(_("wrote {path} (step {step} of the save)", path=out, step=len(game.log)))
    return 0

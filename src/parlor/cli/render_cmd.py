"""``parlor render``: draw a saved game's table as SVG or PNG, at any step of its log.

    parlor render game.json --out board.svg                  # the end of the game, as a spectator
    parlor render game.json --out board.png --step 120 --player 2 --heat

The save is the engine's JSON (``parlor play --save``, ``parlor tools --save``, ``to_json()``).
``--step N`` replays only its first N actions; ``--player P`` draws the table as seat P (1 is the
first seat) sees it, and a spectator's picture otherwise; ``--heat`` lays the exact analysis over
a property board. The file's suffix picks the format: ``.png`` (through cairosvg), else SVG.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from parlor.core.errors import ParlorError, ReplayError, SettingsError


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register the ``render`` subcommand on an argparse subparsers object."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "render",
        help="draw a saved game's board or table as SVG or PNG",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("save", metavar="SAVE", help="a saved game (JSON)")
    p.add_argument("--out", required=True, help="the picture to write: NAME.svg or NAME.png")
    p.add_argument(
        "--step", type=int, default=None, metavar="N", help="replay only the first N actions"
    )
    p.add_argument(
        "--player",
        type=int,
        default=None,
        metavar="P",
        help="draw the table as seat P sees it (1 is the first seat); default: a spectator",
    )
    p.add_argument(
        "--heat", action="store_true", help="property games: lay the exact analysis over the board"
    )
    p.add_argument(
        "--jail",
        choices=("leave", "stay"),
        default="leave",
        help="--heat: the jail strategy of the analysis (default leave)",
    )
    p.add_argument(
        "--language", default=None, help="property games: one of the edition's languages"
    )
    p.add_argument("--scale", type=float, default=1.0, help="PNG: times the nominal size")
    p.set_defaults(run=run)
    return p


def load_at_step(text: str, step: int | None) -> Any:
    """The saved game, replayed to its end (checking the save's snapshot) or to ``step``."""
    from parlor.monopoly.game import PropertyGame
    from parlor.tools.game import ToolsGame

    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReplayError(f"not a saved game: {exc}") from exc
    kinds: dict[str, type[PropertyGame] | type[ToolsGame]] = {
        PropertyGame.game_name: PropertyGame,
        ToolsGame.game_name: ToolsGame,
    }
    kind = kinds.get(str(data.get("game"))) if isinstance(data, dict) else None
    if kind is None:
        raise ReplayError(f"not a saved game of {' or '.join(kinds)}")
    game = kind.from_json(text)
    if step is None:
        return game
    actions = data.get("actions", [])
    if not 0 <= step <= len(actions):
        raise SettingsError(f"--step must be from 0 to {len(actions)} (the actions in the save)")
    return kind.from_dict({**data, "actions": actions[:step]}, check_snapshot=False)


def run(args: argparse.Namespace) -> int:
    """Draw the picture; a bad save or argument prints a message and gives exit code 2."""
    try:
        return _run(args)
    except (ParlorError, OSError) as exc:
        print(f"parlor render: {exc}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    from parlor.monopoly.game import PropertyGame
    from parlor.render import board_svg, tools_svg

    game = load_at_step(Path(args.save).read_text(encoding="utf-8"), args.step)
    seat = None
    if args.player is not None:
        if not 1 <= args.player <= game.num_players:
            raise SettingsError(f"--player must be a seat from 1 to {game.num_players}")
        seat = args.player - 1
    if isinstance(game, PropertyGame):
        picture = board_svg(game, seat, heat=args.heat, jail=args.jail, language=args.language)
    else:
        if args.heat or args.language:
            raise SettingsError("--heat and --language are for property games")
        picture = tools_svg(game, seat)
    out = picture.save(args.out, scale=args.scale)
    print(f"wrote {out} (step {len(game.log)} of the save)")
    return 0

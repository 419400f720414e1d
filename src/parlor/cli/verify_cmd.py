"""``parlor verify SAVE.json``: check a finished server game against the commitment it was
played under (docs/server.md, "Dice and decks anyone can verify")."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from parlor.core.errors import E_, ParlorError, ReplayError
from parlor.i18n import Translator, environment_language, translate_error, translator


def add_parser(subparsers: Any, _: Translator | None = None) -> argparse.ArgumentParser:
    """Register the ``verify`` subcommand on an argparse subparsers object."""
    _ = _ or translator()
    p: argparse.ArgumentParser = subparsers.add_parser(
        "verify",
        help=_(
            "check that a server game's dice and cards came from the randomness it committed to"
        ),
        description=_(
            "Recompute the commitment of a game exported from a Parlor server after its end, "
            "derive the game's seed from the committed seed, the salt and the seats' nonces, "
            "replay every action and check each die and each card. Exit code 0: every one came "
            "from the committed randomness; 1: the first that did not is named."
        ),
    )
    p.add_argument("save", metavar="SAVE", help=_("the game exported after its end (JSON)"))
    p.add_argument(
        "--commitment",
        default=None,
        metavar="HEX",
        help=_("the commitment you were shown when you joined: it must be the save's"),
    )
    p.set_defaults(run=run)
    return p


def check(path: str, seen: str | None) -> dict[str, Any]:
    """The summary of a save that verifies; a :class:`ReplayError` naming what does not."""
    from parlor.core.fairness import verify_save
    from parlor.core.files import read_text_limited
    from parlor.core.saves import MAX_SAVE_BYTES
    from parlor.core.validate import json_problem
    from parlor.monopoly.game import PropertyGame
    from parlor.tools.game import ToolsGame

    text = read_text_limited(path, MAX_SAVE_BYTES, ReplayError, what=E_("saved game"))
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ReplayError(E_("not a saved game: {reason}", reason=json_problem(exc))) from None
    summary = verify_save(data, [PropertyGame, ToolsGame])
    if seen is not None and seen.strip().lower() != summary["commitment"]:
        raise ReplayError(E_("the save's commitment is not the one shown when you joined"))
    return summary


def run(args: argparse.Namespace) -> int:
    _ = translator(environment_language() or "en")
    try:
        s = check(args.save, args.commitment)
    except (ParlorError, OSError) as exc:
        reason = translate_error(exc, _.lang) if isinstance(exc, ParlorError) else str(exc)
        print(_("parlor verify: NOT verified: {reason}", reason=reason), file=sys.stderr)
        return 1
    print(_("Verified: {path}", path=args.save))
    print(_("commitment {commitment}", commitment=s["commitment"]))
    print(
        _(
            "{actions} actions replayed; {dice} dice and {cards} cards came from the committed "
            "seed, its salt and the nonces of {nonces} of the {seats} seats.",
            actions=s["actions"],
            dice=s["dice"],
            cards=s["cards"],
            nonces=s["nonces"],
            seats=s["seats"],
        )
    )
    return 0

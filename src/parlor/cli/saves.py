"""Saved games of the terminal: the game (settings, seed, actions) plus who plays each seat.

A save file is the game's own save (:mod:`parlor.core.saves`, so ``from_json`` and the server
read it too) whose ``extra`` table says who plays each seat and in which language::

    "extra": {"seats": [{"role": "human"}, {"role": "bot", "bot": "heuristic", "seed": 7001}],
              "language": "da"}

A save without them loads too; its seats are then decided by the command line. Writing is
atomic (``parlor.core.saves.write_save``): a failure at any point leaves the previous save whole.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from parlor.cli.common import Seat
from parlor.core import saves as core_saves
from parlor.core.errors import E_, ParlorError
from parlor.core.game import Game
from parlor.core.validate import json_problem
from parlor.i18n import LANGUAGES

#: A save larger than this is refused unread (a long game is well under 1 MB).
MAX_SAVE_BYTES = 16 * 1024 * 1024

G = TypeVar("G", bound=Game[Any])


class SaveError(Exception):
    """A save that cannot be written or read; the message says why, briefly."""


def write_save(
    path: str | os.PathLike[str], game: Game[Any], seats: Sequence[Seat], language: str | None
) -> None:
    """Save the game and its seats atomically; :class:`SaveError` with the reason on failure."""
    extra = {"seats": [seat.to_dict() for seat in seats], "language": language}
    try:
        core_saves.write_save(Path(path), game, extra)
    except ParlorError as exc:
        raise SaveError(exc.text) from exc
    except (OSError, UnicodeError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise SaveError(reason[:200]) from exc


@dataclass
class Loaded:
    data: dict[str, Any]  # the game's dict, for the game class to replay
    seats: list[Seat] | None
    language: str | None


def read_save(path: str | os.PathLike[str]) -> Loaded:
    """Read a save file (with seats, or a bare game); :class:`SaveError` if it is not one."""
    target = Path(path)
    try:
        if not target.exists():
            raise SaveError(E_("no such file"))
        if not target.is_file():
            raise SaveError(E_("not a regular file"))
        with open(target, "rb") as fh:
            raw = fh.read(MAX_SAVE_BYTES + 1)
    except OSError as exc:
        raise SaveError(exc.strerror or str(exc)) from exc
    if len(raw) > MAX_SAVE_BYTES:
        raise SaveError(E_("larger than {size} MB", size=MAX_SAVE_BYTES // 2**20))
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError) as exc:  # (not UTF-8, not JSON, too deep or long)
        raise SaveError(json_problem(exc)) from exc
    if not isinstance(data, dict):
        raise SaveError(E_("a saved game is a JSON object"))
    extra = data.get("extra")
    if not isinstance(extra, dict):
        extra = {}
    raw_seats = extra.get("seats")
    language = extra.get("language")
    seats = None
    if raw_seats is not None:
        if not isinstance(raw_seats, list):
            raise SaveError(E_("the seats are not a list"))
        try:
            seats = [Seat.from_dict(s) for s in raw_seats]
        except ValueError as exc:
            raise SaveError(exc.args[0]) from exc  # the message, still translatable
    return Loaded(data, seats, language if language in LANGUAGES else None)


def replay(cls: type[G], loaded: Loaded) -> G:
    """The game of a save, replayed; :class:`SaveError` if it does not replay."""
    try:
        game = cls.from_dict(loaded.data)
    except ParlorError as exc:
        raise SaveError(exc.text) from exc
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as exc:
        raise SaveError(str(exc)[:200]) from exc
    if loaded.seats is not None and len(loaded.seats) != game.num_players:
        raise SaveError(
            E_("{seats} seats for {count} players", seats=len(loaded.seats), count=game.num_players)
        )
    return game

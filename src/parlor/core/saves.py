"""Saved games on disk: written atomically, read with a size cap, every problem a typed error.

:func:`write_save` never leaves a half-written or empty file where the previous save was: the JSON
is encoded first (an encoding error changes no file), written to a temporary file in the same
folder, flushed to the disk, and renamed over the old save in one step; a crash at any point leaves
either the old save or the new one. :func:`read_save` reads a regular file of bounded size and
replays it; anything wrong is a :class:`ReplayError` with a short message.

A save is the game's ``to_dict()`` plus, optionally, ``"extra"``: JSON data a front end keeps with
the game (who is human, which bot plays each other seat...), returned as it was written.

>>> import tempfile, os
>>> from parlor import tools
>>> game = tools.new_game(2, seed=3)
>>> _ = game.apply(game.legal_actions(0)[0])
>>> with tempfile.TemporaryDirectory() as folder:
...     path = os.path.join(folder, "game.json")
...     write_save(path, game, extra={"seats": ["human", "heuristic"]})
...     again, extra = read_save(path, tools.ToolsGame)
>>> again.snapshot() == game.snapshot(), extra
(True, {'seats': ['human', 'heuristic']})
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar, overload

from parlor.core.errors import E_, ReplayError, SaveError
from parlor.core.files import read_text_limited
from parlor.core.game import Game
from parlor.core.validate import json_problem, short_repr

#: The largest save read (a long property game's log is a few MB).
MAX_SAVE_BYTES = 32 << 20
#: The largest ``extra`` a save may carry, as JSON text.
MAX_EXTRA_BYTES = 1 << 16

G = TypeVar("G", bound=Game[Any])


def save_text(game: Game[Any], extra: Mapping[str, Any] | None = None) -> str:
    """The JSON text of a save (what :func:`write_save` writes); raise :class:`SaveError` if
    ``extra`` is not JSON data or too large."""
    data = game.to_dict()
    if extra is not None:
        if not isinstance(extra, Mapping):
            raise SaveError(
                E_("extra is a table of JSON data, not {value}", value=short_repr(extra))
            )
        try:
            extra_text = json.dumps(extra, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError, RecursionError) as exc:
            raise SaveError(
                E_("extra is not JSON data: {reason}", reason=short_repr(str(exc), 80))
            ) from None
        if len(extra_text.encode("utf-8", "surrogatepass")) > MAX_EXTRA_BYTES:
            raise SaveError(E_("extra is larger than {most} bytes", most=MAX_EXTRA_BYTES))
        data["extra"] = json.loads(extra_text)
    return json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def write_save(path: str | Path, game: Game[Any], extra: Mapping[str, Any] | None = None) -> None:
    """Save ``game`` (and ``extra``) to ``path`` atomically.

    Raises :class:`SaveError` when the game or ``extra`` cannot be encoded (no file is touched),
    and :class:`OSError` when the folder cannot be written (the previous save is left as it was).
    The file is created readable by its owner only: a save holds the seed and the deck order.
    """
    try:
        payload = save_text(game, extra).encode("utf-8")
    except UnicodeEncodeError as exc:  # (a lone surrogate in a text)
        raise SaveError(
            E_("the game holds text that is not valid Unicode: {reason}", reason=exc.reason)
        ) from None
    write_atomic(path, payload)


def write_atomic(path: str | Path, payload: bytes) -> None:
    """Replace the file at ``path`` by ``payload`` in one step: a temporary file beside it,
    flushed to disk, then renamed over it, so that a failure at any point leaves the old file
    whole and no temporary file behind."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_folder(target.parent)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX; elsewhere a no-op)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@overload
def read_save(
    path: str | Path, game_type: type[G], *, check_snapshot: bool = True
) -> tuple[G, dict[str, Any]]: ...


@overload
def read_save(
    path: str | Path, game_type: Sequence[type[Game[Any]]], *, check_snapshot: bool = True
) -> tuple[Game[Any], dict[str, Any]]: ...


def read_save(
    path: str | Path,
    game_type: type[Game[Any]] | Sequence[type[Game[Any]]],
    *,
    check_snapshot: bool = True,
) -> tuple[Game[Any], dict[str, Any]]:
    """Load the save at ``path``: the replayed game and its ``extra`` (``{}`` if none).

    ``game_type`` is the game class expected, or several (the save's ``"game"`` picks one).
    Raises :class:`ReplayError` for everything: a missing file, a device or directory, more than
    :data:`MAX_SAVE_BYTES`, text that is not UTF-8 or JSON, a save that does not replay.
    """
    text = read_text_limited(path, MAX_SAVE_BYTES, ReplayError, what=E_("saved game"))
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ReplayError(E_("not a saved game: {reason}", reason=json_problem(exc))) from None
    candidates = [game_type] if isinstance(game_type, type) else list(game_type)
    name = data.get("game") if isinstance(data, dict) else None
    cls = next((c for c in candidates if c.game_name == name), candidates[0])
    game = cls.from_dict(data, check_snapshot=check_snapshot)
    extra = data.get("extra", {})
    if not isinstance(extra, dict):
        raise ReplayError(E_("the saved extra data is not a table"))
    return game, extra

"""Game records: a documented text format for every Parlor game that people and other programs
can read without Parlor (docs/records.md has the grammar and examples).

>>> from parlor import tools
>>> from parlor.bots.base import RandomBot
>>> game = tools.new_game(2, seed=4)
>>> bot = RandomBot(1)
>>> for _ in range(6):
...     _ = game.apply(bot.choose(game, game.pending.player))
>>> text = write_record(game, seats=["random", "random"])
>>> text.splitlines()[0]
'[Format "parlor-record 1"]'
>>> again = read_game(text)
>>> again.log == game.log and again.snapshot() == game.snapshot()
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from parlor.core.errors import E_
from parlor.core.files import read_text_limited
from parlor.core.game import Game
from parlor.records.replay import (
    FACT_TAGS,
    Replay,
    Step,
    game_class,
    record_of,
    replay,
    seed_commitment,
)
from parlor.records.syntax import (
    FORMAT_NAME,
    FORMAT_VERSION,
    MAX_RECORD_BYTES,
    Line,
    Record,
    RecordError,
    Tag,
    format_record,
    parse,
)

#: The file name ending of a record.
SUFFIX = ".plr"

__all__ = [
    "FACT_TAGS",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "MAX_RECORD_BYTES",
    "SUFFIX",
    "Line",
    "Record",
    "RecordError",
    "Replay",
    "Step",
    "Tag",
    "format_record",
    "game_class",
    "parse",
    "read_file",
    "read_game",
    "record_of",
    "record_to_save",
    "replay",
    "rewrite",
    "save_to_record",
    "seed_commitment",
    "write_record",
]


def write_record(
    game: Game[Any],
    *,
    seats: Sequence[str] | None = None,
    tags: Mapping[str, str] | None = None,
    hide_seed: bool = False,
) -> str:
    """The text of ``game``'s record (see :func:`record_of`)."""
    return format_record(record_of(game, seats=seats, tags=tags, hide_seed=hide_seed))


def read_game(text: str, seed: int | None = None) -> Game[Any]:
    """The game a record's text stands for, every line checked (:class:`RecordError`)."""
    return replay(parse(text), seed)


def read_file(path: str | Path) -> Record:
    """The record in the file at ``path`` (size-capped, UTF-8; :class:`RecordError`)."""
    text = read_text_limited(path, MAX_RECORD_BYTES, RecordError, what=E_("game record"))
    return parse(text)


def _seat_kinds(extra: Mapping[str, Any]) -> list[str]:
    """Who played each seat, from a save's ``extra`` (the terminal's and the server's forms)."""
    kinds: list[str] = []
    for seat in extra.get("seats") or []:
        if not isinstance(seat, Mapping):
            return []
        role = seat.get("role") or seat.get("kind")
        kinds.append(str(seat.get("bot") or role or "") if role == "bot" else str(role or ""))
    return kinds


def save_to_record(save: str | Mapping[str, Any], *, hide_seed: bool = False) -> str:
    """A saved game's JSON (text or data) as a record's text; the seats' players from its
    ``extra`` when it says them."""
    data = json.loads(save) if isinstance(save, str) else save
    if not isinstance(data, Mapping):
        raise RecordError(E_("a saved game is a JSON object"))
    cls = game_class(str(data.get("game")))
    game = cls.from_dict(data)
    extra = data.get("extra")
    kinds = _seat_kinds(extra) if isinstance(extra, Mapping) else []
    return write_record(game, seats=kinds or None, hide_seed=hide_seed)


def record_to_save(text: str, seed: int | None = None) -> dict[str, Any]:
    """A record's text as the engine's JSON save (with the seats' players in ``extra``)."""
    record = parse(text)
    run = Replay(record, seed)
    game = run.finish()
    data = game.to_dict()
    if all(run.kinds):  # (the terminal's seats: a human, or a bot by name)
        data["extra"] = {
            "seats": [
                {"role": "human"} if k == "human" else {"role": "bot", "bot": k} for k in run.kinds
            ]
        }
    return data


def rewrite(text: str, seed: int | None = None, *, hide_seed: bool = False) -> str:
    """A record checked and written again in the writer's own form (its descriptive tags and
    who played each seat kept; comments dropped), with the seed or only its commitment."""
    record = parse(text)
    run = Replay(record, seed)
    game = run.finish()
    free = {t.name: " ".join(t.values) for t in record.tags if t.name not in FACT_TAGS}
    kinds = run.kinds if any(run.kinds) else None
    return write_record(game, seats=kinds, tags=free, hide_seed=hide_seed)

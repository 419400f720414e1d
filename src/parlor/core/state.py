"""A game's changing state as JSON data, and a game rebuilt from it without replaying its log.

A game is its settings, seed and action log; replaying them is exact but costs time proportional to
the log (a long property game has tens of thousands of actions). This module writes the part of a
game that actions change, as each engine lists it in ``STATE_FIELDS``, and restores it on a game
made fresh from the same settings, so that a stored game loads in about the time of one setup.

Two uses, with different secrets:

* :func:`export_state` of a live game holds everything, hidden parts and the random generator's
  whole state included: it is for the game's own storage (the server's snapshots), never for a
  player.
* :func:`seat_state` is what one seat may hold: the state of ``game.determinize(player, seed)``,
  a sample in which whatever that seat cannot see was resampled from ``seed`` alone (the engines
  promise that the sample depends only on what the seat knows and the seed). A bot given the game
  :func:`import_state` rebuilds from it decides from the seat's knowledge only.

Values are JSON types, tuples, string- or integer-keyed tables, ``random.Random`` states and the
engine's own dataclasses (frames, events, outcomes), the latter only from Parlor's rules packages.

>>> from parlor import tools
>>> game = tools.new_game(3, seed=5)
>>> for _ in range(8):
...     _ = game.apply(game.legal_actions(game.pending.player)[0])
>>> data = export_state(game)
>>> again = import_state(tools.ToolsGame, game.settings, game.seed, data, game.log)
>>> again.snapshot() == game.snapshot()
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import random
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any, TypeVar

from parlor.core.errors import E_, ReplayError
from parlor.core.game import Game

G = TypeVar("G", bound=Game[Any])

#: Format of the exported state (a change of the encoding bumps it).
STATE_FORMAT = 1
#: The packages whose dataclasses a state may hold.
_PACKAGES = ("parlor.core.", "parlor.monopoly.", "parlor.tools.")


def _fields(game: Game[Any]) -> tuple[str, ...]:
    names: tuple[str, ...] | None = getattr(type(game), "STATE_FIELDS", None)
    if not names:
        raise ReplayError(
            E_("{game} cannot save its state ({kind})", game=game.game_name, kind="STATE_FIELDS")
        )
    return names


def export_state(game: Game[Any]) -> dict[str, Any]:
    """The whole changing state of ``game`` (hidden parts included) as JSON-safe data; the log is
    not included (the caller has it)."""
    return {
        "format": STATE_FORMAT,
        "game": game.game_name,
        "actions": len(game.log),
        "fields": {name: _encode(getattr(game, name)) for name in _fields(game)},
    }


def seat_state(game: Game[Any], player: int, seed: int) -> dict[str, Any]:
    """What ``player`` may hold of ``game``: the exported state of ``determinize(player, seed)``
    (other hands, deck order and future dice resampled from ``seed``), with its public log."""
    sample = game.determinize(player, seed)  # type: ignore[attr-defined]
    out = export_state(sample)
    out["seat"] = player
    return out


def import_state(
    cls: type[G],
    settings: Mapping[str, Any],
    seed: int,
    state: Mapping[str, Any],
    log: Sequence[Any],
    into: G | None = None,
) -> G:
    """The game of ``cls`` made from ``settings`` and ``seed`` and then given ``state`` (from
    :func:`export_state` or :func:`seat_state`) and ``log`` (actions or their JSON form).

    With ``into`` (a game of ``cls`` on the same settings) that game is given the state instead
    of a new one: whoever remembers things per game object (a bot's offers already made) keeps
    its memory from one sample of a seat to the next. Any problem is a :class:`ReplayError` (and
    ``into`` is left as it was); the caller may then replay the log instead."""
    try:
        if state.get("format") != STATE_FORMAT or state.get("game") != cls.game_name:
            raise ReplayError(E_("the saved state does not fit this game"))
        if state.get("actions") != len(log):
            raise ReplayError(E_("the saved state does not fit this game"))
        if into is not None and (type(into) is not cls or into.settings != settings):
            raise ReplayError(E_("the saved state does not fit this game"))
        game = cls.from_settings(settings, seed) if into is None else into
        fields = state["fields"]
        names = _fields(game)
        if set(fields) != set(names):
            raise ReplayError(E_("the saved state does not fit this game"))
        values = {name: _decode(fields[name]) for name in names}
        # Actions are immutable values: one object per distinct table of the log (a loader that
        # shares the tables of equal actions gets a few hundred decodings instead of thousands).
        decoded: dict[int, Any] = {}
        actions = []
        for a in log:
            if isinstance(a, dict):  # (JSON's tables; an action object is taken as it is)
                action = decoded.get(id(a))
                if action is None:
                    action = decoded[id(a)] = cls.decode_action(a)
                a = action
            actions.append(a)
        for name, value in values.items():  # (all decoded first: a bad state changes nothing)
            setattr(game, name, value)
        game.log = actions
        game.seed = seed
        return game
    except ReplayError:
        raise
    except Exception as exc:  # (bad data of any kind: the caller falls back to replaying)
        raise ReplayError(
            E_("the saved state does not load ({kind})", kind=type(exc).__name__)
        ) from exc


@cache
def engine_fingerprint() -> str:
    """A digest of the rules' source and data: a state saved by other rules is not restored."""
    h = hashlib.sha256(f"state format {STATE_FORMAT}".encode())
    for package in ("parlor.core", "parlor.monopoly", "parlor.tools"):
        stack = [resources.files(package)]
        while stack:
            folder = stack.pop()
            for entry in sorted(folder.iterdir(), key=lambda e: e.name):
                if entry.is_dir():
                    if entry.name != "__pycache__":
                        stack.append(entry)
                elif entry.name.endswith((".py", ".toml", ".json", ".txt")):
                    h.update(entry.name.encode())
                    h.update(entry.read_bytes())
    return h.hexdigest()[:32]


# ----- the encoding ------------------------------------------------------------------------------
def _encode(value: Any) -> Any:
    if value is None or type(value) in (bool, int, float, str):
        return value
    if type(value) is list:
        return [_encode(v) for v in value]
    if type(value) is tuple:
        return {"$tuple": [_encode(v) for v in value]}
    if isinstance(value, frozenset):
        return {"$frozenset": sorted((_encode(v) for v in value), key=repr)}
    if isinstance(value, dict | Mapping):
        if all(type(k) is str and not k.startswith("$") for k in value):
            return {k: _encode(v) for k, v in value.items()}
        return {"$map": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if type(value) is random.Random:
        version, internal, gauss = value.getstate()
        return {"$random": [version, list(internal), gauss]}
    kind = type(value)
    if dataclasses.is_dataclass(value) and kind.__module__.startswith(_PACKAGES):
        return {
            "$dc": f"{kind.__module__}:{kind.__qualname__}",
            "fields": {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)},
        }
    raise ReplayError(
        E_("{game} cannot save its state ({kind})", game="parlor", kind=kind.__name__)
    )


def _decode(data: Any) -> Any:
    if data is None or type(data) in (bool, int, float, str):
        return data
    if type(data) is list:
        return [_decode(v) for v in data]
    if type(data) is not dict:
        raise ReplayError(E_("the saved state does not fit this game"))
    if "$tuple" in data:
        return tuple(_decode(v) for v in data["$tuple"])
    if "$frozenset" in data:
        return frozenset(_decode(v) for v in data["$frozenset"])
    if "$map" in data:
        return {_decode(k): _decode(v) for k, v in data["$map"]}
    if "$random" in data:
        version, internal, gauss = data["$random"]
        rng = random.Random()
        rng.setstate((version, tuple(internal), gauss))
        return rng
    if "$dc" in data:
        kind = _dataclass(data["$dc"])
        return kind(**{k: _decode(v) for k, v in data["fields"].items()})
    return {k: _decode(v) for k, v in data.items()}


@cache
def _dataclass(name: str) -> Any:
    """A dataclass of Parlor's rules packages by ``module:Name`` (nothing else may be named)."""
    module, _, qualname = name.partition(":")
    if not module.startswith(_PACKAGES) or not qualname.isidentifier():
        raise ReplayError(E_("the saved state does not fit this game"))
    kind = getattr(importlib.import_module(module), qualname, None)
    if not (isinstance(kind, type) and dataclasses.is_dataclass(kind)):
        raise ReplayError(E_("the saved state does not fit this game"))
    return kind

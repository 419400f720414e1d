"""The game protocol: what every Parlor game exposes, and the parts they all implement the same way.

A game is its settings, its seed and its action log. Subclasses supply the rules (``_check`` validates
an action without touching the state, ``_execute`` carries it out) and the action catalogue; this base
class supplies the public surface: ``apply`` with its all-or-nothing guarantee, JSON save and replay,
legal-action masks and cloning.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Self, TypeVar

from parlor.core.errors import (
    GameOverError,
    MalformedAction,
    ParlorError,
    ReplayError,
    UnknownActionId,
)


@dataclass(frozen=True, slots=True)
class Decision:
    """Who must decide what, now.

    ``kind`` is a short name such as ``"start_turn"``, ``"buy_or_auction"`` or ``"bid"``; ``info``
    carries what the decider needs to know (the square, the amount owed, the current bid...).
    """

    player: int
    kind: str
    info: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def __str__(self) -> str:
        extra = ", ".join(f"{k}={v}" for k, v in self.info.items())
        return f"player {self.player}: {self.kind}" + (f" ({extra})" if extra else "")


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened: ``kind`` names it, ``data`` holds its facts (JSON-safe values)."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def __str__(self) -> str:
        extra = ", ".join(f"{k}={v}" for k, v in self.data.items())
        return f"{self.kind}({extra})"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``winners`` holds one seat, or several on a tie; ``ranking`` lists every seat best first;
    ``scores`` is the measure the ranking rests on (net worth, cards left...), one per seat.
    """

    winners: tuple[int, ...]
    reason: str
    ranking: tuple[int, ...]
    scores: tuple[float, ...]

    @property
    def winner(self) -> int | None:
        """The single winner, or ``None`` on a tie."""
        return self.winners[0] if len(self.winners) == 1 else None


A = TypeVar("A")


def action_to_dict(action: object) -> dict[str, Any]:
    """Encode an action dataclass as ``{"type": ClassName, field: value, ...}``."""
    if not dataclasses.is_dataclass(action) or isinstance(action, type):
        raise MalformedAction(f"{action!r} is not an action")
    out: dict[str, Any] = {"type": type(action).__name__}
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


class Game(ABC, Generic[A]):
    """Base class of every Parlor game; see the module docstring for the division of labour."""

    #: Name used in saved games, e.g. ``"monopoly"`` or ``"tools"``.
    game_name: ClassVar[str]
    #: Every action class of the game, by class name, for decoding saved logs.
    action_types: ClassVar[Mapping[str, type]]

    settings: dict[str, Any]
    seed: int
    log: list[A]

    # ----- what subclasses provide -------------------------------------------------------------
    @property
    @abstractmethod
    def pending(self) -> Decision | None:
        """The decision the game waits for, or ``None`` once it is over.

        Public: what anybody at the table may know of it (see :meth:`pending_for`)."""

    def pending_for(self, player: int | None) -> Decision | None:
        """The pending decision as ``player`` may see it (``None``: a spectator).

        ``pending`` is the public form, safe to show anybody; a game whose decisions carry
        private details (a card just drawn) gives them only here, to the decider. Games with
        nothing private in their decisions keep this default.
        """
        if player is not None and (type(player) is not int or not 0 <= player < self.num_players):
            raise MalformedAction(
                f"player must be a seat number 0..{self.num_players - 1} or None, not {player!r}"
            )
        return self.pending

    @property
    @abstractmethod
    def num_players(self) -> int: ...

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    @abstractmethod
    def legal_actions(self, player: int | None = None, *, anytime: bool = True) -> list[A]:
        """Legal actions now: of ``player``, or of everyone who may act when ``player`` is None.

        With ``anytime=False`` only the actions that answer the pending decision are listed, not
        the optional ones a rulebook allows "at any time" (building, mortgaging, trading...).
        """

    @abstractmethod
    def _check(self, action: A) -> None:
        """Raise a :class:`ParlorError` if ``action`` may not be applied now. Must not mutate."""

    @abstractmethod
    def _execute(self, action: A) -> list[Event]:
        """Carry out an action that ``_check`` accepted, returning what happened."""

    @abstractmethod
    def view(self, player: int | None = None) -> dict[str, Any]:
        """A JSON-safe picture of the game as ``player`` may see it (``None``: a spectator)."""

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The full state as JSON-safe data, hidden parts included; equal snapshots mean equal games."""

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """Size of the integer action space (the length of every legal-action mask)."""

    @abstractmethod
    def action_id(self, action: A) -> int:
        """The stable integer id of ``action`` (raises :class:`UnknownActionId` if it has none)."""

    @abstractmethod
    def action_from_id(self, action_id: int, player: int) -> A:
        """The action that ``action_id`` stands for, taken by ``player``, in the current state."""

    @classmethod
    @abstractmethod
    def from_settings(cls, settings: Mapping[str, Any], seed: int) -> Self:
        """A new game from the ``settings`` dict a saved game records."""

    # ----- shared behaviour --------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def is_legal(self, action: A) -> bool:
        if type(action) not in self._action_classes or self.is_over:
            return False
        try:
            self._check(action)
        except ParlorError:
            return False
        return True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "action_types" in cls.__dict__:
            # A set of classes makes the type check on the hot path one lookup.
            cls._action_classes = frozenset(cls.action_types.values())

    _action_classes: ClassVar[frozenset[type]] = frozenset()

    def apply(self, action: A) -> list[Event]:
        """Validate and carry out ``action``; on any rule violation raise and change nothing."""
        if type(action) not in self._action_classes:
            raise MalformedAction(f"{action!r} is not an action of {self.game_name}")
        if self.is_over:
            raise GameOverError("the game is over")
        self._check(action)
        events = self._execute(action)
        self.log.append(action)
        return events

    def legal_action_mask(self, player: int) -> list[bool]:
        mask = [False] * self.num_actions
        for action_id in self.legal_action_ids(player):
            mask[action_id] = True
        return mask

    def legal_action_ids(self, player: int) -> list[int]:
        ids = set()
        for action in self.legal_actions(player):
            try:
                ids.add(self.action_id(action))
            except UnknownActionId:
                continue
        return sorted(ids)

    def clone(self) -> Self:
        return copy.deepcopy(self)

    # ----- saving and replaying ----------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game_name,
            "format": 1,
            "settings": self.settings,
            "seed": self.seed,
            "actions": [action_to_dict(a) for a in self.log],
            "snapshot": self.snapshot(),
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def decode_action(cls, data: Mapping[str, Any]) -> A:
        try:
            kind = cls.action_types[data["type"]]
            kwargs = {
                k: (tuple(v) if isinstance(v, list) else v) for k, v in data.items() if k != "type"
            }
            return kind(**kwargs)  # type: ignore[no-any-return]
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise ReplayError(f"cannot decode action {data!r}: {exc}") from exc

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], check_snapshot: bool = True) -> Self:
        if not isinstance(data, Mapping):
            raise ReplayError("a saved game is a JSON object")
        if data.get("game") != cls.game_name:
            raise ReplayError(f"this is a saved {data.get('game')!r} game, not {cls.game_name!r}")
        try:
            game = cls.from_settings(data["settings"], int(data["seed"]))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ReplayError(f"the saved settings are not usable: {exc!r}") from exc
        for i, raw in enumerate(data.get("actions", [])):
            action = cls.decode_action(raw)
            try:
                game.apply(action)
            except ValueError as exc:
                raise ReplayError(f"action {i} ({raw!r}) does not replay: {exc}") from exc
        replayed = json.loads(json.dumps(game.snapshot()))
        if check_snapshot and "snapshot" in data and data["snapshot"] != replayed:
            raise ReplayError("the saved snapshot differs from the replayed state")
        return game

    @classmethod
    def from_json(cls, text: str, check_snapshot: bool = True) -> Self:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ReplayError(f"not a saved game: {exc}") from exc
        return cls.from_dict(data, check_snapshot)

    @staticmethod
    def _players_from(players: int | Sequence[str]) -> list[str]:
        if isinstance(players, int):
            return [f"Player {i + 1}" for i in range(players)]
        return [str(p) for p in players]

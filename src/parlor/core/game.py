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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar

from parlor.core.errors import (
    E_,
    GameOverError,
    MalformedAction,
    ParlorError,
    ReplayError,
    UnknownActionId,
)
from parlor.core.records import Decision as Decision
from parlor.core.records import Event as Event
from parlor.core.validate import (
    check_seat,
    check_seed,
    checker,
    json_problem,
    player_names,
    problem,
    short_repr,
)


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
        raise MalformedAction(E_("{action} is not an action", action=repr(action)))
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
        self.check_query(player)
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

    def legal_answers(self, player: int | None = None) -> Sequence[A]:
        """``legal_actions(player, anytime=False)`` as a sequence the caller must not change: a
        game may hand out the same one again for the same answers (the property games do for a
        trade offer's), so that a caller may keep what it learned of it."""
        return self.legal_actions(player, anytime=False)

    @abstractmethod
    def _check(self, action: A) -> None:
        """Raise a :class:`ParlorError` if ``action`` may not be applied now. Must not mutate."""

    @abstractmethod
    def _execute(self, action: A) -> list[Event]:
        """Carry out an action that ``_check`` accepted, returning what happened."""

    @abstractmethod
    def view(self, player: int | None = None) -> dict[str, Any]:
        """A JSON-safe picture of the game as ``player`` may see it (``None``: a spectator)."""

    def views(self, players: Sequence[int | None]) -> list[dict[str, Any]]:
        """``[self.view(p) for p in players]``, which a game may build faster: parts that every
        one of them sees alike may be one object shared by the views (read them, don't change
        them). A server telling a whole table at once calls this."""
        return [self.view(p) for p in players]

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

    @abstractmethod
    def describe(self, action: A, lang: str | None = None) -> str:
        """``action`` in words in ``lang`` (the game's own language when ``None``)."""

    @abstractmethod
    def describe_event(self, event: Event, lang: str | None = None) -> str:
        """A public event in words in ``lang``: what anybody at the table may read."""

    @classmethod
    @abstractmethod
    def from_settings(cls, settings: Mapping[str, Any], seed: int) -> Self:
        """A new game from the ``settings`` dict a saved game records."""

    # ----- shared behaviour --------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def decider(self) -> int | None:
        """The seat that holds the pending decision, ``None`` once the game is over: public,
        ``pending.player`` without building the decision (engines may answer it cheaper)."""
        pending = self.pending
        return None if pending is None else pending.player

    def is_legal(self, action: A) -> bool:
        first_bad = self._first_bad.get(type(action))
        if first_bad is None or self.is_over or first_bad(action, self.num_players) >= 0:
            return False
        try:
            self._check(action)
        except ParlorError:
            return False
        return True

    def validate_action(self, action: object) -> None:
        """Raise :class:`MalformedAction` unless ``action`` is one of this game's actions with
        every field of the type and range its annotation gives (see :mod:`parlor.core.validate`).

        ``apply``, ``is_legal``, ``action_id`` and ``describe`` call it first, so no rule ever sees
        a bool for a number, a huge integer, or a seat that does not exist.
        """
        first_bad = self._first_bad.get(type(action))
        if first_bad is None:
            kind = type(action)
            what = (
                f"{kind.__module__}.{kind.__name__}"
                if kind.__name__ in self.action_types
                else short_repr(action)
            )
            raise MalformedAction(
                E_("{what} is not an action of {game}", what=what, game=self.game_name)
            )
        n = self.num_players
        bad = first_bad(action, n)
        if bad >= 0:
            raise MalformedAction(problem(action, bad, n))

    def check_query(self, player: object, anytime: object = True, optional: bool = True) -> None:
        """Raise :class:`MalformedAction` for query arguments that are not a seat (or None when
        ``optional``) and a bool: ``legal_actions(-1)`` or ``legal_actions("0")`` are errors, not
        empty or foreign lists."""
        if not (optional and player is None):
            check_seat(player, self.num_players)
        if type(anytime) is not bool:
            raise MalformedAction(
                E_("anytime must be true or false, not {value}", value=short_repr(anytime))
            )

    def check_action_id(self, action_id: object, player: object) -> None:
        """Raise :class:`UnknownActionId` unless ``action_id`` is an integer of the action space,
        and :class:`MalformedAction` unless ``player`` is a seat."""
        if type(action_id) is not int or not 0 <= action_id < self.num_actions:
            raise UnknownActionId(
                E_(
                    "action ids are integers from 0 to {last}, not {value}",
                    last=self.num_actions - 1,
                    value=short_repr(action_id),
                )
            )
        check_seat(player, self.num_players)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "action_types" in cls.__dict__:
            # One lookup on the hot path: is it our action, and the compiled check of its fields.
            cls._first_bad = {kind: checker(kind).first_bad for kind in cls.action_types.values()}

    _first_bad: ClassVar[dict[type, Callable[[Any, int], int]]] = {}

    def apply(self, action: A) -> list[Event]:
        """Validate and carry out ``action``; on any rule violation raise and change nothing."""
        first_bad = self._first_bad.get(type(action))  # (validate_action, inlined: the hot path)
        if first_bad is None or first_bad(action, self.num_players) >= 0:
            self.validate_action(action)
        if self.is_over:
            raise GameOverError(E_("the game is over"))
        self._check(action)
        events = self._execute(action)
        self.log.append(action)
        return events

    def legal_action_mask(self, player: int) -> list[bool]:
        self.check_query(player, optional=False)
        mask = [False] * self.num_actions
        for action_id in self.legal_action_ids(player):
            mask[action_id] = True
        return mask

    def legal_action_ids(self, player: int) -> list[int]:
        self.check_query(player, optional=False)
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
            "settings": copy.deepcopy(self.settings),  # (a caller's edit must not change the game)
            "seed": self.seed,
            "actions": [action_to_dict(a) for a in self.log],
            "snapshot": self.snapshot(),
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False, allow_nan=False)

    @classmethod
    def decode_action(cls, data: object) -> A:
        """The action a saved log records as ``{"type": ClassName, field: value, ...}`` (lists
        become tuples). Its fields are checked when it is applied."""
        if not isinstance(data, Mapping):
            raise ReplayError(E_("an action is a table, not {value}", value=short_repr(data)))
        name = data.get("type")
        kind = cls.action_types.get(name) if type(name) is str else None
        if kind is None:
            raise ReplayError(E_("unknown action type {name}", name=short_repr(name)))
        fields = {f.name for f in dataclasses.fields(kind)}
        unknown = [k for k in data if k != "type" and k not in fields]
        if unknown:
            raise ReplayError(
                E_("{name} has no field {field}", name=name, field=short_repr(unknown[0]))
            )
        kwargs = {
            k: (tuple(v) if isinstance(v, list) else v) for k, v in data.items() if k != "type"
        }
        try:
            return kind(**kwargs)  # type: ignore[no-any-return]
        except TypeError:  # (a required field is missing)
            missing = sorted(fields - set(kwargs))
            raise ReplayError(
                E_("{name} lacks {fields}", name=name, fields=", ".join(missing) or E_("a field"))
            ) from None

    #: The keys a saved game may have ("extra": what a front end keeps with it, see core.saves;
    #: "fairness": a server's commitment and its reveal, see core.fairness).
    SAVE_KEYS: ClassVar[frozenset[str]] = frozenset(
        {"game", "format", "settings", "seed", "actions", "snapshot", "extra", "fairness"}
    )
    #: The longest log a save may hold (long games have a few tens of thousands of actions).
    MAX_SAVED_ACTIONS: ClassVar[int] = 1_000_000

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], check_snapshot: bool = True) -> Self:
        """Replay a saved game. Every problem, whatever the data, is a short :class:`ReplayError`."""
        try:
            return cls._replay(data, check_snapshot)
        except ReplayError:
            raise
        except ParlorError as exc:
            raise ReplayError(exc.text) from exc
        except RecursionError:
            raise ReplayError(E_("the saved game is nested too deeply")) from None
        except Exception as exc:  # (a bug, not the save's fault; kept as the cause)
            raise ReplayError(
                E_("the saved game does not load ({kind})", kind=type(exc).__name__)
            ) from exc

    @classmethod
    def _replay(cls, data: Mapping[str, Any], check_snapshot: bool) -> Self:
        if not isinstance(data, Mapping):
            raise ReplayError(
                E_("a saved game is a JSON object, not {value}", value=short_repr(data))
            )
        if data.get("game") != cls.game_name:
            raise ReplayError(
                E_(
                    "this is a saved {found} game, not {game}",
                    found=short_repr(data.get("game")),
                    game=repr(cls.game_name),
                )
            )
        if type(data.get("format")) is not int or data["format"] != 1:
            raise ReplayError(
                E_("unknown save format {found} (this is 1)", found=short_repr(data.get("format")))
            )
        unknown = [k for k in data if k not in cls.SAVE_KEYS]
        if unknown:
            raise ReplayError(E_("unknown key {key} in the saved game", key=short_repr(unknown[0])))
        for key in ("settings", "seed"):
            if key not in data:
                raise ReplayError(E_("the saved game has no {key}", key=key))
        try:
            seed = check_seed(data["seed"])
            game = cls.from_settings(data["settings"], seed)
        except ParlorError as exc:
            raise ReplayError(E_("the saved settings are not usable: {error}", error=exc)) from exc
        actions = data.get("actions", [])
        if not isinstance(actions, list) or len(actions) > cls.MAX_SAVED_ACTIONS:
            raise ReplayError(
                E_(
                    "the actions are a list of at most {most}",
                    most=cls.MAX_SAVED_ACTIONS,
                )
            )
        for i, raw in enumerate(actions):
            try:
                game.apply(cls.decode_action(raw))
            except ParlorError as exc:
                raise ReplayError(
                    E_("action {index} does not replay: {error}", index=i, error=exc)
                ) from exc
        if check_snapshot and "snapshot" in data:
            replayed = json.loads(json.dumps(game.snapshot()))
            if not _agrees(data["snapshot"], replayed):
                raise ReplayError(E_("the saved snapshot differs from the replayed state"))
        return game

    @classmethod
    def from_json(cls, text: str | bytes, check_snapshot: bool = True) -> Self:
        """Replay a saved game from its JSON text; every problem is a short :class:`ReplayError`."""
        if not isinstance(text, str | bytes | bytearray):
            raise ReplayError(E_("a saved game is JSON text, not {value}", value=short_repr(text)))
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:  # (bad JSON or UTF-8, 4300 digits, nesting)
            raise ReplayError(E_("not a saved game: {reason}", reason=json_problem(exc))) from None
        return cls.from_dict(data, check_snapshot)

    @staticmethod
    def _players_from(players: int | Sequence[str]) -> list[str]:
        """Seat names from a count or a list of names (see :func:`parlor.core.validate.player_names`)."""
        return player_names(players)

    @staticmethod
    def _seed_from(seed: object) -> int:
        return check_seed(seed)


def _agrees(saved: object, replayed: object) -> bool:
    """Whether a saved snapshot agrees with the replayed one. A table (dict) agrees when every key
    it has agrees, so a save from an older Parlor, whose snapshot lacks what was added since (a
    new rule option, a new field), still loads; everything else must be equal."""
    if isinstance(saved, dict) and isinstance(replayed, dict):
        return all(k in replayed and _agrees(v, replayed[k]) for k, v in saved.items())
    return saved == replayed

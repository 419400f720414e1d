"""Type and range checks at the boundary, driven by dataclass field annotations.

Actions and option sets are small frozen dataclasses. Their annotations say what each field holds,
and :func:`check_fields` enforces it before any rule looks at the object: an ``int`` is an int and
not a bool, within its :class:`Bounds` (or :data:`SEAT`, a seat number of the game at hand, or by
default the range JSON numbers hold exactly); a ``bool`` is a bool; a ``str`` is a str of bounded
length; a ``tuple[X, ...]`` is a tuple of bounded length of valid ``X``; ``X | None`` allows None.
Each class's checks are compiled once, so the check costs a few attribute reads per action.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Raise:
...     player: Seat
...     amount: Annotated[int, Bounds(1, 500)]
>>> check_fields(Raise(1, 20), num_players=2)
>>> check_fields(Raise(1, True), num_players=2)
Traceback (most recent call last):
...
parlor.core.errors.MalformedAction: Raise.amount must be an integer from 1 to 500, not True (a bool)
>>> check_fields(Raise(2, 20), num_players=2)
Traceback (most recent call last):
...
parlor.core.errors.MalformedAction: Raise.player must be a seat number from 0 to 1, not 2
"""

from __future__ import annotations

import dataclasses
import json
import re
import string
import types
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, NamedTuple, Union, get_args, get_origin, get_type_hints

from parlor.core.errors import E_, MalformedAction, ParlorError, SettingsError, Text

#: The default range of an ``int`` field: what a JSON number (a double) holds exactly.
MAX_INT = 2**53
#: The default longest ``str`` field and ``tuple`` field.
MAX_STR = 100
MAX_ITEMS = 100


@dataclass(frozen=True, slots=True)
class Bounds:
    """An ``int`` field's inclusive range: ``Annotated[int, Bounds(0, 39)]``."""

    low: int
    high: int


@dataclass(frozen=True, slots=True)
class MaxLen:
    """The longest a ``str`` or ``tuple`` field may be: ``Annotated[str, MaxLen(40)]``."""

    length: int


class _SeatBound:
    def __repr__(self) -> str:
        return "SEAT"


#: Marks an ``int`` field that names a seat: ``0 <= value < num_players`` of the game at hand.
SEAT = _SeatBound()
Seat = Annotated[int, SEAT]


def short_repr(value: object, limit: int = 40) -> str:
    """A repr that is short and never fails: huge integers are not converted to text (Python
    refuses beyond 4300 digits, and a long text is no use in a message), long strings are cut."""
    if isinstance(value, bool):
        return E_("{value} (a bool)", value=value)
    if isinstance(value, int):
        if value.bit_length() > 64:
            digits = int(value.bit_length() * 0.30103) + 1
            return E_("an integer of about {digits} digits", digits=digits)
        return str(value)
    if isinstance(value, str | bytes):
        text = repr(value[: limit + 1])
        return text if len(value) <= limit else text[: limit + 1] + "..."
    if isinstance(value, int | float | type(None)):
        return repr(value)
    kind = type(value).__name__
    if kind[:1] in ("a", "e", "i", "o", "u"):
        return E_("an {type}", type=kind)
    return E_("a {type}", type=kind)


class _Rule(NamedTuple):
    """One field's check: a Python condition on ``v`` (``n`` is the player count), the condition
    each item of a tuple must meet (or None), and what the field must be, in words."""

    test: str
    item_test: str | None
    want: Callable[[int], str]


def _scalar(hint: Any, extras: tuple[Any, ...], where: str) -> tuple[str, Callable[[int], str]]:
    bound = next((e for e in extras if isinstance(e, Bounds | _SeatBound)), None)
    max_len = next((e.length for e in extras if isinstance(e, MaxLen)), None)
    if hint is bool:
        return "type(v) is bool", lambda n: E_("true or false")
    if hint is int:
        if isinstance(bound, _SeatBound):
            return "type(v) is int and v >= 0 and v < n", lambda n: E_(
                "a seat number from 0 to {last}", last=n - 1
            )
        if bound is None:
            return (
                f"type(v) is int and v >= {-MAX_INT} and v <= {MAX_INT}",
                lambda n: E_("an integer of at most 16 digits"),
            )
        low, high = int(bound.low), int(bound.high)
        return (
            f"type(v) is int and v >= {low} and v <= {high}",
            lambda n: E_("an integer from {low} to {high}", low=low, high=high),
        )
    if hint is str:
        longest = int(max_len or MAX_STR)
        return (
            f"type(v) is str and len(v) <= {longest}",
            lambda n: E_("a text of at most {longest} characters", longest=longest),
        )
    raise TypeError(f"{where}: no check for annotation {hint!r}")


def _split(hint: Any) -> tuple[Any, tuple[Any, ...]]:
    if get_origin(hint) is Annotated:
        base, *extras = get_args(hint)
        return base, tuple(extras)
    return hint, ()


def _rule(hint: Any, where: str) -> _Rule:
    """The check for one annotation. An annotation it does not know raises TypeError: every field
    of a checked class must say what it holds."""
    hint, extras = _split(hint)
    origin = get_origin(hint)
    if origin is Union or origin is types.UnionType:
        members = [a for a in get_args(hint) if a is not type(None)]
        if len(members) != 1 or len(get_args(hint)) != 2:
            raise TypeError(f"{where}: only 'X | None' unions are checked, not {hint}")
        inner, inner_extras = _split(members[0])
        test, want = _scalar(inner, inner_extras + extras, where)
        return _Rule(
            f"v is None or ({test})", None, lambda n: E_("{want}, or nothing", want=want(n))
        )
    if origin is tuple:
        args = get_args(hint)
        if len(args) != 2 or args[1] is not Ellipsis:
            raise TypeError(f"{where}: only tuple[X, ...] is checked, not {hint}")
        item, item_extras = _split(args[0])
        item_test, item_want = _scalar(item, item_extras, where)
        most = int(next((e.length for e in extras if isinstance(e, MaxLen)), MAX_ITEMS))
        return _Rule(
            f"type(v) is tuple and len(v) <= {most}",
            item_test,
            lambda n: E_(
                "a tuple of at most {most} items, each {want}", most=most, want=item_want(n)
            ),
        )
    test, want = _scalar(hint, extras, where)
    return _Rule(test, None, want)


class Checker(NamedTuple):
    """A class's compiled field check: ``first_bad(obj, num_players)`` is the index of the first
    field whose value is not allowed, or -1; ``names`` and ``wants`` say which and why."""

    first_bad: Callable[[Any, int], int]
    names: tuple[str, ...]
    wants: tuple[Callable[[int], str], ...]


_CHECKERS: dict[type, Checker] = {}


def checker(cls: type) -> Checker:
    """The compiled check of a dataclass's fields (built once per class).

    The check is generated as one small function of plain comparisons (like the ``__init__`` that
    :mod:`dataclasses` generates): it runs on every action a game applies, so it must cost no
    more than a few attribute reads.
    """
    found = _CHECKERS.get(cls)
    if found is not None:
        return found
    hints = get_type_hints(cls, include_extras=True)
    names = tuple(f.name for f in dataclasses.fields(cls))
    rules = [_rule(hints[name], f"{cls.__name__}.{name}") for name in names]
    # (the builtins as defaults, read as locals; comparisons unchained: fewer bytecodes a call)
    lines = ["def first_bad(obj, n, type=type, int=int, bool=bool, str=str, tuple=tuple, len=len):"]
    for i, (name, rule) in enumerate(zip(names, rules, strict=True)):
        lines += [f"    v = obj.{name}", f"    if not ({rule.test}):", f"        return {i}"]
        if rule.item_test is not None:
            lines += [
                "    for v in v:",
                f"        if not ({rule.item_test}):",
                f"            return {i}",
            ]
    lines.append("    return -1")
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), namespace)  # (the source is built from annotations only)
    found = Checker(namespace["first_bad"], names, tuple(r.want for r in rules))
    _CHECKERS[cls] = found
    return found


def problem(obj: object, bad: int, num_players: int, message: Text | None = None) -> Text:
    """The message for field ``bad`` of ``obj`` (as found by its checker). ``message`` replaces
    the default "{field} must be {want}, not {value}" (there ``field`` is ``Class.name``; in
    ``message``, a setting the user typed, it is the name quoted as typed: ``'auctions'``)."""
    c = checker(type(obj))
    name = c.names[bad]
    fields = {
        "field": f"{type(obj).__name__}.{name}" if message is None else repr(name),
        "want": c.wants[bad](num_players),
        "value": short_repr(getattr(obj, name)),
    }
    return Text((message or E_("{field} must be {want}, not {value}")).message, fields)


def check_fields(
    obj: object,
    num_players: int = 0,
    error: type[ParlorError] = MalformedAction,
    message: Text | None = None,
) -> None:
    """Raise ``error`` (a :class:`MalformedAction` by default) naming the first field of the
    dataclass ``obj`` whose value its annotation does not allow (``message``: see
    :func:`problem`)."""
    bad = checker(type(obj)).first_bad(obj, num_players)
    if bad >= 0:
        raise error(problem(obj, bad, num_players, message))


def check_seat(player: object, num_players: int, what: str = "player") -> None:
    """Raise :class:`MalformedAction` unless ``player`` is a seat number of the game."""
    if type(player) is not int or not 0 <= player < num_players:
        raise MalformedAction(
            E_(
                "{what} must be a seat number from 0 to {last}, not {value}",
                what=what,
                last=num_players - 1,
                value=short_repr(player),
            )
        )


#: The most seats any game may have (each game has its own, lower, limit), and the longest name.
MAX_SEATS = 16
MAX_NAME = 40
#: Seeds: what a 64-bit integer holds, so that every save loads anywhere.
SEED_RANGE = (-(2**63), 2**64 - 1)


def player_names(players: object, max_players: int = MAX_SEATS) -> list[str]:
    """The seats' names from a count (``3`` -> ``["Player 1", "Player 2", "Player 3"]``) or a list
    or tuple of names; raise :class:`SettingsError` for anything else.

    Names are texts of 1 to 40 characters without control characters (a terminal or a log would
    show them raw) or lone surrogates (they cannot be written as UTF-8), and distinct.

    >>> player_names(2)
    ['Player 1', 'Player 2']
    >>> player_names("abc")
    Traceback (most recent call last):
    ...
    parlor.core.errors.SettingsError: 'players' must be a count or a list of names, not 'abc'
    """
    if type(players) is int:
        if not 0 <= players <= max_players:
            raise SettingsError(
                E_(
                    "'players' must be a count of at most {most}, not {value}",
                    most=max_players,
                    value=short_repr(players),
                )
            )
        return [f"Player {i + 1}" for i in range(players)]
    if not isinstance(players, list | tuple):
        raise SettingsError(
            E_(
                "'players' must be a count or a list of names, not {value}",
                value=short_repr(players),
            )
        )
    if len(players) > max_players:
        raise SettingsError(
            E_("at most {most} players, not {count}", most=max_players, count=len(players))
        )
    names: list[str] = []
    for name in players:
        if type(name) is not str or not name.strip() or len(name) > MAX_NAME:
            raise SettingsError(
                E_(
                    "a player's name is a text of 1 to {most} characters, not {value}",
                    most=MAX_NAME,
                    value=short_repr(name),
                )
            )
        if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in name):
            raise SettingsError(
                E_("a player's name may not hold control characters: {name}", name=short_repr(name))
            )
        if name in names:
            raise SettingsError(E_("two players are named {name}", name=short_repr(name)))
        names.append(name)
    return names


def json_problem(exc: ValueError | RecursionError) -> Text:
    """Why a text is not JSON, in words the catalogs hold (the json module's own are English):
    where the syntax breaks, a number too long to read, nesting too deep, text not UTF-8.

    >>> import json
    >>> try:
    ...     json.loads('{"a": nope}')
    ... except ValueError as exc:
    ...     print(json_problem(exc))
    not JSON (line 1, column 7)
    """
    if isinstance(exc, RecursionError):
        return E_("nested too deeply")
    if isinstance(exc, UnicodeDecodeError):
        return E_("the text is not UTF-8 (byte {start})", start=exc.start)
    if isinstance(exc, json.JSONDecodeError):
        return E_("not JSON (line {line}, column {column})", line=exc.lineno, column=exc.colno)
    return E_("a number too long to read")  # (int() refuses more than 4300 digits)


_TOML_WHERE = re.compile(r"\(at line (\d+), column (\d+)\)$")


def toml_problem(exc: ValueError) -> Text:
    """Where a TOML text breaks, in words the catalogs hold (tomllib's own are English; Python
    3.11 gives the place only inside its message).

    >>> import tomllib
    >>> try:
    ...     tomllib.loads("a = [1,")
    ... except tomllib.TOMLDecodeError as exc:
    ...     print(toml_problem(exc))
    at the end of the file

    A ValueError that is not a TOMLDecodeError is int()'s refusal of more than 4300 digits,
    which tomllib lets through (issue 20).
    """
    import tomllib

    if not isinstance(exc, tomllib.TOMLDecodeError):
        return E_("a number too long to read")
    text = str(exc)
    if text.endswith("(at end of document)"):
        return E_("at the end of the file")
    found = _TOML_WHERE.search(text)
    if found:
        return E_("at line {line}, column {column}", line=found[1], column=found[2])
    return Text(short_repr(text, 80), {})


#: What the edition schema's checks (pydantic error types) mean, in catalog words; ``ctx``
#: fields fill them in. An error type not listed keeps the library's English words.
_SCHEMA_WORDS: dict[str, str] = {
    "greater_than_equal": E_("must be at least {ge}"),
    "greater_than": E_("must be more than {gt}"),
    "less_than_equal": E_("must be at most {le}"),
    "less_than": E_("must be less than {lt}"),
    "int_type": E_("must be a whole number"),
    "int_parsing": E_("must be a whole number"),
    "int_from_float": E_("must be a whole number"),
    "bool_type": E_("must be true or false"),
    "bool_parsing": E_("must be true or false"),
    "string_type": E_("must be a text"),
    "string_too_long": E_("must be a text of at most {max_length} characters"),
    "string_too_short": E_("must be a text of at least {min_length} characters"),
    "string_pattern_mismatch": E_("is not written the expected way"),
    "too_long": E_("may hold at most {max_length} items"),
    "too_short": E_("must hold at least {min_length} items"),
    "list_type": E_("must be a list"),
    "tuple_type": E_("must be a list"),
    "dict_type": E_("must be a table"),
    "model_type": E_("must be a table"),
    "model_attributes_type": E_("must be a table"),
    "missing": E_("is missing"),
    "extra_forbidden": E_("is not a field of this file"),
    "literal_error": E_("must be one of {expected}"),
    "enum": E_("must be one of {expected}"),
}


def schema_problem(error: Mapping[str, Any]) -> Text:
    """One problem a schema check found (a pydantic error dict: ``type``, ``msg``, ``ctx``), in
    catalog words when its type is known.

    >>> str(schema_problem({"type": "greater_than_equal", "msg": "...", "ctx": {"ge": 1}}))
    'must be at least 1'
    >>> str(schema_problem({"type": "new_kind", "msg": "Input is odd"}))
    'Input is odd'
    """
    words = _SCHEMA_WORDS.get(str(error.get("type")))
    ctx = error.get("ctx") or {}
    if words is not None:
        wanted = [name for _lit, name, _spec, _conv in string.Formatter().parse(words) if name]
        if all(name in ctx for name in wanted):
            value = {n: ctx[n] if isinstance(ctx[n], str) else short_repr(ctx[n]) for n in wanted}
            return Text(words, value)
    return Text(str(error.get("msg", ""))[:120], {})


def check_sample_seed(seed: object) -> int:
    """The seed of a resample (``determinize``), if it is an integer of 64 bits; raise
    :class:`MalformedAction` otherwise (a float NaN, say, would seed from its identity and give
    a different resample each run; a text is taken for something else)."""
    low, high = SEED_RANGE
    if type(seed) is not int or not low <= seed <= high:
        raise MalformedAction(
            E_(
                "the seed of a resample must be an integer of 64 bits, not {value}",
                value=short_repr(seed),
            )
        )
    return seed


def check_seed(seed: object) -> int:
    """The seed, if it is an integer of 64 bits; raise :class:`SettingsError` otherwise (a float
    would be truncated, a bool or a text taken for something else)."""
    low, high = SEED_RANGE
    if type(seed) is not int or not low <= seed <= high:
        raise SettingsError(
            E_("the seed must be an integer of 64 bits, not {value}", value=short_repr(seed))
        )
    return seed

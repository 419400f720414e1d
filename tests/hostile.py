"""Hypothesis strategies for hostile input: values of the wrong type or size for each kind of field.

The test's own idea of "wrong" is independent of the engine's validator: it knows only the field's
plain type (int, bool, str, tuple of int) and the bounds every field shares (no negative counts,
no seat past the last player, nothing near 2**53), so a validator that lets one through fails.
"""

from __future__ import annotations

import dataclasses
import math
import typing
from typing import Any

from hypothesis import strategies as st

from parlor.monopoly.actions import MAX_WISH

HUGE = st.sampled_from([10**30, -(10**30), 10**5000, 2**64, 2**53 + 1])
LONG_TEXT = st.sampled_from(["x" * 41, "y" * 10_000, "z" * 1_000_000])
ODD = st.one_of(
    st.none(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.just(math.nan),
    st.lists(st.integers(0, 3), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.just(object()),
    st.binary(max_size=5),
)


def plain_type(cls: type, name: str) -> Any:
    """The field's type with its Annotated bounds stripped: int, bool, str or tuple[int, ...]."""
    hint = typing.get_type_hints(cls)[name]
    return hint


def wrong_values(cls: type, name: str, num_players: int) -> st.SearchStrategy[Any]:
    """Values that field ``name`` of action class ``cls`` must refuse."""
    hint = plain_type(cls, name)
    if hint is bool:
        return st.one_of(st.integers(-2, 2), st.text(max_size=3), ODD)
    if hint is int:
        wrong = [st.booleans(), st.text(max_size=3), ODD, HUGE, st.integers(max_value=-1)]
        if name in ("player", "to"):
            wrong.append(st.integers(min_value=num_players, max_value=10**6))
        return st.one_of(*wrong)
    if hint is str:
        return st.one_of(st.integers(), st.booleans(), ODD, LONG_TEXT)
    if typing.get_origin(hint) is tuple:
        bad_item = st.one_of(st.booleans(), st.integers(min_value=40), st.integers(max_value=-1))
        return st.one_of(
            st.lists(st.integers(0, 39), max_size=3),  # a list is not a tuple
            st.lists(bad_item, min_size=1, max_size=3).map(tuple),
            st.just(tuple(range(40)) * 2),
            st.integers(),
            st.text(max_size=3),
            st.none(),
        )
    raise AssertionError(f"no wrong values for {cls.__name__}.{name}: {hint}")


def good_value(cls: type, name: str, num_players: int, codes: list[str]) -> st.SearchStrategy[Any]:
    """Values of the right type and range for field ``name`` (legal or not)."""
    hint = plain_type(cls, name)
    if hint is bool:
        return st.booleans()
    if hint is int:
        if name in ("player", "to"):
            return st.integers(0, num_players - 1)
        if name == "square":
            return st.integers(0, 39)
        if name.endswith("jail_cards"):
            return st.integers(0, 3)
        if name == "count":  # buildings wished for in a shortage (WishBuildings)
            return st.integers(0, MAX_WISH)
        return st.integers(0, 3000)
    if hint is str:
        return st.sampled_from(codes) if codes else st.text(max_size=10)
    if typing.get_origin(hint) is tuple:
        return st.lists(st.integers(0, 39), max_size=3, unique=True).map(tuple)
    raise AssertionError(f"no values for {cls.__name__}.{name}: {hint}")


@st.composite
def malformed_action(draw: st.DrawFn, action_types: list[type], num_players: int) -> Any:
    """An action with one field wrong (the others right)."""
    cls = draw(st.sampled_from([c for c in action_types if dataclasses.fields(c)]))
    fields = [f.name for f in dataclasses.fields(cls)]
    bad = draw(st.sampled_from(fields))
    values = {
        name: draw(
            wrong_values(cls, name, num_players)
            if name == bad
            else good_value(cls, name, num_players, [])
        )
        for name in fields
    }
    return cls(**values)


@st.composite
def well_typed_action(
    draw: st.DrawFn, action_types: list[type], num_players: int, codes: list[str]
) -> Any:
    cls = draw(st.sampled_from(action_types))
    return cls(
        **{
            f.name: draw(good_value(cls, f.name, num_players, codes))
            for f in dataclasses.fields(cls)
        }
    )


def hostile_json() -> st.SearchStrategy[Any]:
    """Values to put anywhere in a save or a data file."""
    return st.one_of(
        st.booleans(),
        st.integers(-3, 3),
        HUGE,
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=5),
        LONG_TEXT,
        st.none(),
        st.just([]),
        st.just({}),
        st.just([[[[[[[[]]]]]]]]),
        st.just({"type": "RollDice", "player": 0}),
    )


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside nested dicts and lists (the first items of long lists)."""
    out = [prefix] if prefix else []
    if isinstance(data, dict):
        for key, value in data.items():
            out += paths(value, (*prefix, key))
    elif isinstance(data, list):
        for i, value in enumerate(data[:6]):
            out += paths(value, (*prefix, i))
    return out


def replace_at(data: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def delete_at(data: Any, path: tuple[Any, ...]) -> None:
    for key in path[:-1]:
        data = data[key]
    del data[path[-1]]

"""The actions' native field checks (``Action.bad_field``, what the compiled engine asks) give the
same answer as the check generated from their annotations (``parlor.core.validate``, what the
plain engine asks and what the errors' words come from), in both builds."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import pickle
from typing import Any, get_type_hints

import pytest

from parlor.core.validate import checker
from parlor.monopoly.actions import (
    ACTION_TYPES,
    FIELD_TYPES,
    Action,
    EndTurn,
    ProposeTrade,
    RollDice,
)

#: A valid value of each field (for 2 to 4 players).
GOOD: dict[str, Any] = {
    "player": 0,
    "square": 5,
    "amount": 10,
    "percent": False,
    "count": 1,
    "to": 1,
    "give_squares": (),
    "take_squares": (3,),
    "give_cash": 0,
    "take_cash": 7,
    "give_jail_cards": 0,
    "take_jail_cards": 1,
}
#: Values at and beyond every bound, of every wrong type.
VALUES: list[Any] = [
    -1, 0, 1, 2, 3, 4, 39, 40, 160, 161, 1000, 1001, 10**9, 10**9 + 1, 2**70, -(2**70),
    True, False, None, "x", "", 1.0, b"1",
    (), (1,), (True,), ("a",), (39, 40), (0, 39), tuple(range(40)), tuple(range(41)), [1], {1},
]  # fmt: skip

KINDS = sorted(ACTION_TYPES.values(), key=lambda kind: kind.__name__)


def _names(kind: type) -> list[str]:
    return [f.name for f in dataclasses.fields(kind)]


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_annotations_are_the_field_types(kind: type) -> None:
    # (compiled, the classes' annotations are set from FIELD_TYPES; plain, they are as written)
    hints = get_type_hints(kind, include_extras=True)
    assert {name: hints[name] for name in _names(kind)} == {
        name: FIELD_TYPES[name] for name in _names(kind)
    }


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_native_check_agrees_with_the_generated_one(kind: type[Action]) -> None:
    names = _names(kind)
    first_bad = checker(kind).first_bad
    seen_bad = 0
    # every field alone at every value, and every pair of fields at every pair of values
    cases: list[dict[str, Any]] = [{name: v} for name in names for v in VALUES]
    for a, b in itertools.combinations(names, 2):
        cases += [{a: va, b: vb} for va in VALUES[::3] for vb in VALUES[1::3]]
    for change in cases:
        action = kind(**{name: change.get(name, GOOD[name]) for name in names})
        for n in (2, 3, 4):
            want = first_bad(action, n)
            assert action.bad_field(n) == want, (action, n)
            seen_bad += want >= 0
    assert seen_bad > 0


def test_anytime_actions() -> None:
    assert {k.__name__ for k in KINDS if k.anytime} == {
        "Build",
        "SellBuilding",
        "Mortgage",
        "Unmortgage",
        "ProposeTrade",
        "ClaimRent",
        "CallTime",
    }
    assert not Action.anytime
    assert RollDice(0) != EndTurn(0) and len({RollDice(0), EndTurn(0), RollDice(0)}) == 2
    assert ProposeTrade(0, 1).anytime


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.__name__)
def test_value_semantics(kind: type[Action]) -> None:
    names = _names(kind)
    action = kind(**{name: GOOD[name] for name in names})
    twin = kind(**{name: GOOD[name] for name in names})
    assert action == twin and hash(action) == hash(twin) and action is not twin
    # (the hash of the generated dataclass method: the same sets, in the same order)
    fields_in_order = tuple(GOOD[name] for name in names)
    assert action.field_values() == fields_in_order and hash(action) == hash(fields_in_order)
    assert action.__eq__(fields_in_order) is NotImplemented and action != fields_in_order
    assert kind(**{**{name: GOOD[name] for name in names}, "player": 1}) != action
    assert dataclasses.replace(action, player=1) == kind(
        **{**{name: GOOD[name] for name in names}, "player": 1}
    )
    assert (
        repr(action)
        == f"{kind.__name__}(" + ", ".join(f"{name}={GOOD[name]!r}" for name in names) + ")"
    )
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(action, proto))
        assert back == action and type(back) is kind
    assert copy.copy(action) == action == copy.deepcopy(action)
    assert not hasattr(action, "__dict__")  # (slots only, as the dataclasses had)
    with pytest.raises(dataclasses.FrozenInstanceError):
        action.player = 1  # type: ignore[misc]
    # a value of any type is kept as given, until a game checks it
    odd = kind(**{name: (True if name == "player" else GOOD[name]) for name in names})
    assert odd.player is True and odd.bad_field(2) == 0

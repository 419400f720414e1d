"""The records every engine hands out (``parlor.core.records``): values that behave the same
whether the module runs as Python or compiled (setup.py), and copy and pickle whole."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from parlor import monopoly, tools
from parlor.core.game import Decision, Event
from parlor.monopoly.actions import Bid, RollDice, shared
from parlor.monopoly.edition import load_edition
from parlor.monopoly.rules import RuleOptions


def test_decision_and_event_are_frozen_values() -> None:
    d = Decision(1, "bid", {"square": 39})
    assert d == Decision(1, "bid", {"square": 39}) and d != Decision(2, "bid", {"square": 39})
    assert hash(d) == hash(Decision(1, "bid", {"other": 1}))  # (info is not hashed)
    assert Decision(0, "start_turn").info == {} and Event("x").data == {}
    assert repr(Event("dice", {"dice": [3, 4]})) == "Event(kind='dice', data={'dice': [3, 4]})"
    assert str(d) == "player 1: bid (square=39)"
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.kind = "other"  # type: ignore[misc]
    assert [f.name for f in dataclasses.fields(Event)] == ["kind", "data"]


@pytest.mark.parametrize("record", [Decision(2, "raise_funds", {"amount": 50}), Event("dice")])
def test_records_copy_and_pickle(record: Decision | Event) -> None:
    for other in (pickle.loads(pickle.dumps(record)), copy.deepcopy(record), copy.copy(record)):
        assert other == record and type(other) is type(record)


def test_games_with_their_records_pickle_whole() -> None:
    for game in (monopoly.new_game("classic", 3, seed=5), tools.new_game(2, seed=5)):
        again = pickle.loads(pickle.dumps(game))
        assert again.pending == game.pending and again.snapshot() == game.snapshot()


def test_default_options_are_shared_and_overrides_are_not() -> None:
    ed = load_edition("classic")
    assert RuleOptions.for_edition(ed) is RuleOptions.for_edition(ed, {})
    short = RuleOptions.for_edition(ed, {"variant": "short"})
    assert short.hotel_after_houses == 3 and RuleOptions.for_edition(ed).hotel_after_houses == 4
    assert shared(Bid, 1, 20) is shared(Bid, 1, 20) == Bid(1, 20)
    assert shared(RollDice, 1) is shared(RollDice, 1) is not shared(RollDice, 2)

"""The property bots play exactly as when ``data/decisions.json`` was recorded (by
``make_decisions.py``): the same actions, in the same order, with the same winners, across
editions, player counts, rule options and the heuristic, offering and search bots. Speed work on
the bots must leave these games unchanged."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.bots.make_decisions import FIXTURE, all_cases, play

RECORDED: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
CASES = all_cases()


def test_every_case_is_recorded() -> None:
    assert sorted(RECORDED) == sorted(key for key, _ in CASES)


@pytest.mark.parametrize(("key", "args"), CASES, ids=[key for key, _ in CASES])
def test_bots_play_as_recorded(key: str, args: Any) -> None:
    assert play(*args) == RECORDED[key]

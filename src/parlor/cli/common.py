"""Helpers shared by the terminal games: seat lists, names and ``key=value`` options."""

from __future__ import annotations

from typing import Any


def parse_seats(spec: str, players: int) -> set[int]:
    """Bot seats from ``"2,3"`` (1-based), ``"all-but-1"``, ``"all"`` or ``"none"``; 0-based out.

    >>> sorted(parse_seats("all-but-1", 4)), sorted(parse_seats("2, 4", 4))
    ([1, 2, 3], [1, 3])
    """
    text = spec.strip().lower()
    everyone = set(range(players))
    if text == "all":
        return everyone
    if text in ("none", ""):
        return set()
    if text.startswith("all-but-"):
        return everyone - _seat_list(text[len("all-but-") :], players)
    return _seat_list(text, players)


def _seat_list(text: str, players: int) -> set[int]:
    seats: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or not 1 <= int(part) <= players:
            raise ValueError(f"seat {part!r} is not a number from 1 to {players}")
        seats.add(int(part) - 1)
    return seats


def parse_names(spec: str | None) -> list[str] | None:
    """Player names from ``"Ann, Bo,Cy"``; None when no names are given.

    >>> parse_names("Ann, Bo,Cy")
    ['Ann', 'Bo', 'Cy']
    """
    if not spec:
        return None
    names = [s.strip() for s in spec.split(",")]
    if any(not n for n in names):
        raise ValueError(f"empty name in {spec!r}")
    return names


def parse_value(text: str) -> Any:
    """A typed option value: true/false (yes/no, on/off), none/null, a number, else text.

    >>> [parse_value(t) for t in ("true", "Off", "none", "-3", "0.5", "short")]
    [True, False, None, -3, 0.5, 'short']
    """
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null"):
        return None
    for number in (int, float):
        try:
            return number(low)
        except ValueError:
            pass
    return text.strip()


def parse_option(text: str) -> tuple[str, Any]:
    """``"key=value"`` as ``(key, typed value)``.

    >>> parse_option("time_limit_rounds=100"), parse_option("search.exploration=0.5")
    (('time_limit_rounds', 100), ('search.exploration', 0.5))
    """
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise ValueError(f"an option is written key=value, not {text!r}")
    return key, parse_value(raw)


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """``["auctions=false", "time_limit_rounds=20"]`` as a dict of typed values.

    >>> parse_options(["auctions=false", "time_limit_rounds = 20"])
    {'auctions': False, 'time_limit_rounds': 20}
    """
    return dict(parse_option(pair) for pair in pairs or [])

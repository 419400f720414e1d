"""The edition's numbers the engine reads at every step, as one native table per edition.

The edition (``Edition``, ``Square``) stays what users see: frozen dataclasses of plain Python.
Read from the compiled engine (setup.py), each ``self.edition.squares[i].kind`` is two generic
attribute lookups and a call into Python for ``hotel_cost`` or ``mortgage_interest``; here the
same numbers are lists of a native class, read directly. Built once per edition and shared by
its games (an Edition is immutable), like the action space of ``action_ids``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeVar

from parlor.monopoly.edition import PROPERTY_KINDS, Edition


class SquareFacts:
    """Per square (0-39): its kind, price, rents, building and mortgage costs, group members."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        squares = edition.squares
        self.kind = [sq.kind for sq in squares]
        self.is_property = [sq.kind in PROPERTY_KINDS for sq in squares]
        self.price = [sq.price for sq in squares]
        self.rents = [sq.rents for sq in squares]
        self.house_cost = [sq.house_cost for sq in squares]
        self.hotel_cost = [edition.hotel_cost(i) for i in range(len(squares))]
        self.mortgage = [sq.mortgage for sq in squares]
        self.interest = [
            edition.mortgage_interest(i) if sq.kind in PROPERTY_KINDS else 0
            for i, sq in enumerate(squares)
        ]
        #: The squares of each square's colour group (a square of no group: itself alone).
        self.members = [edition.groups[sq.group] if sq.group else (sq.index,) for sq in squares]
        #: The colour groups, in the edition's order, and the property squares.
        self.groups = list(edition.groups.values())
        #: The groups with a street among their lots: only there may a building go.
        self.street_groups = [m for m in self.groups if any(self.kind[s] == "street" for s in m)]
        #: Each of those groups with its streets (a Build's shortage precheck counts their room).
        self.group_streets = [
            (m, tuple(s for s in m if self.kind[s] == "street")) for m in self.street_groups
        ]
        self.props = edition.property_squares
        self.go_square = edition.go_square
        self.jail_square = edition.jail_square
        self.salary = edition.salary
        self.jail_fine = edition.jail_fine
        self.money_unit = edition.money_unit


T = TypeVar("T")


def per_edition(
    cache: dict[int, tuple[Edition, T]], edition: Edition, build: Callable[[Edition], T]
) -> T:
    """What ``build(edition)`` makes, built once per edition and shared by its games (an
    Edition is immutable): the tables of this module and the action space of ``action_ids``.
    Keyed by identity, so that a large edition is not hashed at every new game."""
    found = cache.get(id(edition))
    if found is not None and found[0] is edition:
        return found[1]
    if len(cache) > 64:  # editions built on the fly (tests): do not keep them all
        cache.clear()
    value = build(edition)
    cache[id(edition)] = (edition, value)
    return value


_FACTS: Final[dict[int, tuple[Edition, SquareFacts]]] = {}


def facts_for(edition: Edition) -> SquareFacts:
    """The table of ``edition``, shared by its games."""
    return per_edition(_FACTS, edition, SquareFacts)

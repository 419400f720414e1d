"""The analysis overlay: ``parlor.analysis`` figures for each square, from the public view.

The chain is solved once per edition, rule options and jail strategy and kept (solving takes
about half a second). For each square: its landing probability per turn (the heat colour); for
each deed, the expected rent per opponent turn at the level it stands at now, and how many
opponent turns the next house or hotel takes to pay back its cost.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from parlor.analysis.markov import ChainResult, JailStrategy, MarkovChain
from parlor.analysis.rents import PropertyRent, property_rents
from parlor.monopoly.edition import Edition
from parlor.monopoly.rules import RuleOptions

HOTEL = 5  # the engine's value of ``buildings`` for a hotel

_CACHE: dict[
    tuple[str, str, RuleOptions, str], tuple[Edition, ChainResult, list[PropertyRent]]
] = {}


def solved(
    edition: Edition, options: RuleOptions, jail: JailStrategy = "leave"
) -> tuple[ChainResult, list[PropertyRent]]:
    """The solved chain and the rent table, cached per edition, options and jail strategy."""
    key = (edition.id, edition.title, options, jail)
    hit = _CACHE.get(key)
    # An edition file may reuse an id: the cached entry counts only for an equal edition.
    if hit is not None and (hit[0] is edition or hit[0] == edition):
        return hit[1], hit[2]
    result = MarkovChain(edition, options, jail=jail).solve()
    rents = property_rents(result)
    _CACHE[key] = (edition, result, rents)
    return result, rents


@dataclass(frozen=True, slots=True)
class DeedFigures:
    """What the overlay writes on a deed."""

    level: str  # the rent level it stands at now ("rent", "group", "2 houses", "3 owned"...)
    expected_rent: float  # per opponent turn at that level (0 when mortgaged)
    next_building: str | None  # the next house or hotel that could stand there
    payback_turns: float | None  # opponent turns that building takes to pay back its cost


def deed_figures(
    rent: PropertyRent,
    properties: Mapping[int, Mapping[str, Any]],
    groups: Mapping[str, tuple[int, ...]],
) -> DeedFigures:
    """The figures of one deed, from the view's ``properties`` (by square) and the edition's
    groups: the level follows the owner and the buildings, as the engine's rent does."""
    prop = properties[rent.square]
    owner = int(prop["owner"])
    levels = rent.levels
    if rent.kind == "street":
        b = int(prop["buildings"])
        holds_group = owner >= 0 and all(
            int(properties[s]["owner"]) == owner for s in groups[rent.group]
        )
        if b == HOTEL:
            index = len(levels) - 1
        elif b:
            index = 1 + b
        else:
            index = 1 if holds_group else 0
        following = [lv for lv in levels[max(index, 1) + 1 :] if lv.cost]
        nxt = following[0] if following else None
    else:
        owned = sum(
            1 for s in groups[rent.group] if owner >= 0 and int(properties[s]["owner"]) == owner
        )
        index = max(owned, 1) - 1
        nxt = None
    level = levels[index]
    expected = 0.0 if prop["mortgaged"] else level.expected
    return DeedFigures(
        level=level.label,
        expected_rent=expected,
        next_building=None if nxt is None else nxt.label,
        payback_turns=None if nxt is None else nxt.payback_turns,
    )


@cache
def _viridis() -> Any:
    import matplotlib

    return matplotlib.colormaps["viridis"]  # (each lookup copies the map: keep one)


def heat_colour(p: float, low: float, high: float) -> str:
    """The viridis colour of probability ``p`` on the scale ``low``..``high``.

    >>> heat_colour(0.01, 0.01, 0.03), heat_colour(0.03, 0.01, 0.03)
    ('#440154', '#fde725')
    """
    t = 0.0 if high <= low else min(1.0, max(0.0, (p - low) / (high - low)))
    r, g, b, _ = _viridis()(t)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"

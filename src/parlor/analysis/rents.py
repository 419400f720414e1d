"""Expected rent per opponent turn, and how many opponent turns a house or hotel takes to pay.

Rent follows the engine's rules (``PropertyGame.rent``): a street's unimproved rent doubles when the
owner holds the whole group; railroads charge by how many the owner holds, times a card's rent
multiplier ("pay the owner twice the rent"); utilities charge the deed's multiplier times the total
of the throw that brought the token there, or, when a card sent it, the card's multiplier times a
fresh throw (expected total 7).

The expected rent per opponent turn of a level is the expected number of landings per turn
(:class:`~parlor.analysis.markov.Landings`, which counts every landing of a turn with doubles and
weights each by its card multiplier) times the rent of that level. A building's payback is its cost
over the extra expected rent per opponent turn it brings; with ``opponents`` opponents a round
holds that many opponent turns, so payback in rounds is the turns divided by ``opponents``.

>>> from parlor.analysis import analyse
>>> table = property_rents(analyse("classic"))
>>> [lv.label for lv in table[0].levels]
['rent', 'group', '1 house', '2 houses', '3 houses', '4 houses', 'hotel']
"""

from __future__ import annotations

from dataclasses import dataclass

from parlor.analysis.markov import ChainResult


@dataclass(frozen=True, slots=True)
class RentLevel:
    """One rent level of a property and what it earns per opponent turn."""

    label: str  # "rent", "group", "1 house".., "hotel"; railroads "1 owned"..; utilities too
    rent: float  # the printed rent (utilities: the deed's dice multiplier)
    expected: float  # expected rent per opponent turn
    cost: int = 0  # what the building of this level costs (0: no building)
    payback_turns: float | None = None  # cost / extra expected rent over the level below


@dataclass(frozen=True, slots=True)
class PropertyRent:
    square: int
    name: str
    kind: str
    group: str
    price: int
    landings: float  # expected landings per opponent turn
    levels: tuple[RentLevel, ...]


def property_rents(result: ChainResult) -> list[PropertyRent]:
    """Expected rent per opponent turn at each level for every property of the edition."""
    ed = result.edition
    land = result.landings
    hotel_after = result.options.hotel_after_houses
    out: list[PropertyRent] = []
    for sq in ed.squares:
        if not sq.is_property:
            continue
        i = sq.index
        weight = float(land.rent_weight[i])
        levels: list[RentLevel] = []
        if sq.kind == "street":
            steps: list[tuple[str, float, int]] = [
                ("rent", sq.rents[0], 0),
                ("group", 2 * sq.rents[0], 0),
            ]
            for h in range(1, hotel_after + 1):
                steps.append((f"{h} house{'s' if h > 1 else ''}", sq.rents[h], sq.house_cost))
            steps.append(("hotel", sq.rents[5], ed.hotel_cost(i)))
            prev: float | None = None
            for label, rent, cost in steps:
                expected = weight * rent
                payback = None
                if cost and prev is not None and expected > prev:
                    payback = cost / (expected - prev)
                levels.append(RentLevel(label, rent, expected, cost, payback))
                prev = expected
        elif sq.kind == "railroad":
            for k, rent in enumerate(sq.rents, start=1):
                levels.append(RentLevel(f"{k} owned", rent, weight * rent))
        else:  # utility: multiplier x the landing throw, or a card's multiplier x a fresh throw
            dice = float(land.dice_weight[i])
            card = float(land.card_dice[i])
            for k, mult in enumerate(sq.rents, start=1):
                levels.append(RentLevel(f"{k} owned", mult, mult * dice + card))
        out.append(
            PropertyRent(
                square=i,
                name=ed.square_name(i),
                kind=sq.kind,
                group=sq.group or "",
                price=sq.price,
                landings=float(land.count[i]),
                levels=tuple(levels),
            )
        )
    return out

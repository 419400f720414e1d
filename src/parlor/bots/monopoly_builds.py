"""Where a property bot may build next, what each building costs and gains, and which of those
lots it builds on first: read from a :class:`parlor.bots.monopoly_table.Table` and kept with its
deeds (they follow from the owners, mortgages and buildings alone).
"""

from __future__ import annotations

from parlor.bots.monopoly_table import HOTEL, Table

__all__ = ["best_builds", "build_cost", "build_gain", "build_options", "build_spots"]


def build_spots(table: Table, player: int) -> list[int]:
    """The lots (in board order) where ``player`` may put the next building by the even-build
    rule, the bank's stock aside: complete, unmortgaged street groups, lowest lots first."""
    deeds = table.deeds
    cached = deeds._spots[player]
    if cached is not None:
        return cached
    spots: list[int] = []
    for gi in deeds.complete[player]:
        spots.extend(_group_builds(table, gi)[0])
    if len(spots) > 1:
        order = table.board.order
        last = -1
        for sq in spots:  # (sorted only when not in board order already, as above)
            if order[sq] < last:
                spots.sort(key=order.__getitem__)
                break
            last = order[sq]
    deeds._spots[player] = spots
    return spots


def _group_builds(table: Table, gi: int) -> tuple[list[int], list[tuple[int, int, float]]]:
    """Group ``gi``'s part of :func:`build_spots` (for its whole owner; in the group's order)
    and of :func:`build_options`. They follow from the group alone, so they are kept per group
    while its stamp holds (a build elsewhere keeps them)."""
    deeds = table.deeds
    stamp = deeds.stamps[gi]
    cache = deeds.group_builds
    hit = cache.get(gi)
    if hit is not None and hit[0] == stamp:
        return hit[1], hit[2]
    b = table.board
    mortgaged = table.mortgaged
    buildings = table.buildings
    max_level = table.max_level
    members = b.groups[gi]
    spots: list[int] = []
    options: list[tuple[int, int, float]] = []
    low = -1  # (the least level: min() and max() written out, cheaper on two or three lots)
    # (plain loops: cheaper than generators compiled)
    for s in members:
        if mortgaged[s]:
            break
        lvl = buildings[s]  # (level(), inlined)
        if lvl == HOTEL:
            lvl = max_level
        if low < 0 or lvl < low:
            low = lvl
    else:
        # (each lot's cost and score at its level, the edition's: an unbuilt lot of a whole
        # group charges double)
        steps = b.build_steps
        for s in members:
            lvl = buildings[s]
            if lvl == HOTEL:
                lvl = max_level
            if lvl <= low:
                options_at = steps[s]
                if lvl < len(options_at):  # (below the top, and a street)
                    spots.append(s)
                    options.append(options_at[lvl])
    if len(cache) > 256:
        cache.clear()
    cache[gi] = (stamp, spots, options)
    return spots, options


def build_cost(table: Table, sq: int) -> int:
    """What the next building on ``sq`` costs."""
    lvl = table.buildings[sq]  # (level(), inlined)
    if lvl == HOTEL:
        lvl = table.max_level
    if lvl == table.max_level - 1:
        return table.board.hotel_cost[sq]
    return table.board.house_cost[sq]


def build_gain(table: Table, sq: int) -> float:
    """The rent the next building on ``sq`` adds, per unit of its cost (-1 at the top)."""
    lvl = table.buildings[sq]  # (level(), inlined)
    if lvl == HOTEL:
        lvl = table.max_level
    if lvl >= table.max_level:
        return -1.0
    gain = table.rent_at(sq, lvl + 1) - table.rent_at(sq, lvl)
    return gain / max(1, build_cost(table, sq))


def build_options(table: Table, player: int) -> list[tuple[int, int, float]]:
    """``(lot, cost, score)`` for each of :func:`build_spots`: the score is the rent gained per
    unit spent, plus 1 below the third house (where rents jump: get there first)."""
    deeds = table.deeds
    cached = deeds._build_options[player]
    if cached is None:
        # (each group's options, in the board order of their lots as build_spots gives them)
        cached = []
        for gi in deeds.complete[player]:
            cached.extend(_group_builds(table, gi)[1])
        if len(cached) > 1:
            # (the groups' parts are usually in board order already: checked by a loop, which
            # costs less than sorting with a key function)
            order = table.board.order
            last = -1
            for option in cached:
                at = order[option[0]]
                if at < last:
                    cached.sort(key=lambda option: order[option[0]])
                    break
                last = at
        deeds._build_options[player] = cached
    return cached


def best_builds(
    table: Table, options: list[tuple[int, int, float]], budget: int
) -> tuple[int, int, int]:
    """The best lot to build on among ``options`` (a player's :func:`build_options`, by score,
    the bank's stock allowing) within ``budget``, the best at any cost, and the least cost of a
    building there; -1 where there is none."""
    best_in = best_any = least = -1
    score_in = score_any = 0.0
    # (the bank's stock, read once: the same for every lot, and asked lot by lot only when
    # it lacks houses or hotels)
    houses = table.bank_houses > 0
    hotels = table.bank_hotels > 0
    short = not (table.board.unlimited_buildings or (houses and hotels))
    buildings = table.buildings
    top = table.max_level - 1
    for sq, cost, score in options:
        if short:
            lvl = buildings[sq]
            if lvl == HOTEL:
                lvl = top + 1
            if not (hotels if lvl == top else houses):
                continue
        if best_any < 0 or score > score_any:
            best_any, score_any = sq, score
        if least < 0 or cost < least:
            least = cost
        if cost <= budget and (best_in < 0 or score > score_in):
            best_in, score_in = sq, score
    return best_in, best_any, least

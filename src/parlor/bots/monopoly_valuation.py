"""What a deed is worth to one seat, and so the most the property heuristic bids for it.

A good player at an auction asks what the lot does for *this* seat, and what else the money
would do. :func:`seat_value` says it in five parts:

* **the lot itself**: its printed price (what the bank asks, and about what it fetches in a
  trade), or only :data:`BUSY_SHARE` of it while the seat has a colour group to build on and not
  the cash to build it up: there every unit is worth more as houses;
* **group completion**: the lot completes one of the seat's colour groups: :data:`COMPLETE_SHARE`
  of the group's monopoly bonus (the one :meth:`Table.worth` counts), but only as far as the seat
  can still build after paying: the bonus is earned by houses, so it counts in proportion to how
  much of :data:`HOUSES_NEEDED` houses a lot the funds left (cash, and what its lone lots would
  raise by mortgage) pay for. A seat that would spend its last money on the lot gains a group it
  cannot develop;
* **blocking**: the lot is the last one an opponent needs: :data:`BLOCK_SHARE` of that group's
  bonus, shared with the other opponents (a monopoly costs every other seat alike, so one seat
  pays its part of stopping it: all of it with two players, a third with four);
* **a step towards a group**: :data:`STEP_SHARE` of the price when the seat already holds a lot of
  the colour group; for railroads and utilities :data:`SET_SHARE` of the price per lot of the set
  it already holds (their rents grow with the set);
* **cash needs**: the bid never leaves less cash than :func:`cash_reserve`, the bot's reserve or
  :data:`RENT_SHARE` of the dearest rent it could owe after its next throw (on the opponents'
  lots 2 to 12 squares ahead), whichever is more.

The old valuation (before issue 20: completion and blocking as a flat share of the bonus, bids of
all the cash in hand for them) is kept as :func:`listed_value` and :func:`listed_bid_limit`, the
registered bot kind ``heuristic-v1``, for comparisons (``bench/bench_auctions.py``,
``bench/tournament.py --matchups monopoly-bidding``).
"""

from __future__ import annotations

from parlor.bots.monopoly_builds import build_options
from parlor.bots.monopoly_table import N_SQUARES, Table

#: Share of the group's monopoly bonus a completing lot adds, with the funds to build it up.
COMPLETE_SHARE = 0.8
#: Share of an opponent's monopoly bonus a blocking lot adds, split over the other opponents.
BLOCK_SHARE = 0.5
#: A street lot's extra worth (of its price) when the seat holds part of its group.
STEP_SHARE = 0.2
#: A railroad's or utility's extra worth (of its price) per lot of its set the seat holds.
SET_SHARE = 0.3
#: A lone lot's worth (of its price) while the seat's own group still wants houses it cannot pay.
BUSY_SHARE = 0.6
#: Houses per lot a completed group needs before it earns its bonus (rents jump at the third).
HOUSES_NEEDED = 3
#: Share of the dearest rent one throw away (:func:`reach_rent`) that a bid keeps in hand.
RENT_SHARE = 0.5


def reach_rent(table: Table, player: int) -> int:
    """The dearest rent ``player`` could owe after its next throw: on the opponents' unmortgaged
    lots 2 to 12 squares ahead."""
    owner = table.owner
    mortgaged = table.mortgaged
    pos = table.position[player]
    rents = table.deeds.rents()
    most = 0
    for d in range(2, 13):
        s = (pos + d) % N_SQUARES
        o = owner[s]
        if o >= 0 and o != player and not mortgaged[s]:
            rent = rents[s]
            if rent > most:
                most = rent
    return most


def cash_reserve(table: Table, player: int, reserve: float) -> int:
    """Cash a bid leaves in hand: ``reserve`` (a share of the starting cash) or
    :data:`RENT_SHARE` of the dearest rent ``player`` could owe after its next throw
    (:func:`reach_rent`), whichever is more."""
    base = int(reserve * table.board.starting_cash)
    return max(base, int(RENT_SHARE * reach_rent(table, player)))


def funds(table: Table, player: int, group: int = -1) -> int:
    """``player``'s cash and what its lone lots (unmortgaged, outside complete colour groups and
    the group of index ``group``, unbuilt) would raise by mortgage: the money it could put into
    houses (:meth:`Table.lone_funds`, kept with the deeds)."""
    total, per_group = table.lone_funds(player)
    if group >= 0:
        total -= per_group[group]
    return table.cash[player] + total


def _busy(table: Table, player: int) -> bool:
    """Whether ``player`` has a lot to build on and less cash than its cheapest next building
    there and a tenth of the starting cash."""
    options = build_options(table, player)
    if not options:
        return False
    cheapest = options[0][1]
    for _sq, cost, _score in options:
        if cost < cheapest:
            cheapest = cost
    return table.cash[player] < cheapest + int(0.1 * table.board.starting_cash)


def _parts(table: Table, player: int, sq: int) -> tuple[float, float, float, int]:
    """``(base, completion bonus, houses cost, funds)``: the lot's worth without completion, the
    completion premium at full funding (0 when it does not complete a group), the cost of
    :data:`HOUSES_NEEDED` houses on every lot of the group, and ``player``'s :func:`funds`."""
    b = table.board
    price = b.price[sq]
    group = b.group_of[sq]
    owner = table.owner
    mine = 0
    for s in group:
        if owner[s] == player:
            mine += 1
    if b.kind[sq] != "street":
        return float(price) + SET_SHARE * price * mine, 0.0, 0.0, 0
    gi = b.group_index[sq]
    if mine == len(group) - 1:
        houses = HOUSES_NEEDED * b.group_house_cost[gi]  # (the sum over its lots: the same)
        bonus = COMPLETE_SHARE * b.group_bonus[gi]
        return float(price), bonus, float(houses), funds(table, player, gi)
    base = float(price) * (BUSY_SHARE if _busy(table, player) else 1.0)
    if mine:
        return base + STEP_SHARE * price, 0.0, 0.0, 0
    # Blocking: every other lot of the group is one opponent's.
    other = -1
    for s in group:
        if s == sq:
            continue
        o = owner[s]
        if o < 0 or (other >= 0 and o != other):
            return base, 0.0, 0.0, 0
        other = o
    if other >= 0:
        opponents = max(1, table.n_active() - 1)
        base += BLOCK_SHARE * b.group_bonus[gi] / opponents
    return base, 0.0, 0.0, 0


def seat_value(table: Table, player: int, sq: int, pay: float, reserve: int = 0) -> float:
    """What the lot ``sq`` is worth to ``player`` if it pays ``pay`` for it (the completion
    premium shrinks as the payment eats the money for houses; ``reserve`` is kept back)."""
    base, bonus, houses, money = _parts(table, player, sq)
    if bonus <= 0.0:
        return base
    left = money - pay - reserve
    if left >= houses:
        return base + bonus
    return base + bonus * max(0.0, left) / houses


def value_limit(table: Table, player: int, sq: int, reserve: int) -> float:
    """The highest payment ``p`` with ``p <= seat_value(..., p)``: the most the lot is worth
    paying for (solved, the premium falling linearly with the payment)."""
    base, bonus, houses, money = _parts(table, player, sq)
    if bonus <= 0.0:
        return base
    spare = float(money - reserve)
    if spare - (base + bonus) >= houses:
        return base + bonus
    # p = base + bonus * (spare - p) / houses  =>  p = (base + k * spare) / (1 + k)
    k = bonus / houses
    return max(0.0, min(base + bonus, (base + k * spare) / (1.0 + k)))


def bid_limit(table: Table, player: int, sq: int, reserve: float) -> float:
    """The most ``player`` bids for ``sq``: its :func:`value_limit`, within the cash in hand
    less :func:`cash_reserve`."""
    keep = cash_reserve(table, player, reserve)
    return min(value_limit(table, player, sq, keep), float(table.cash[player] - keep))


# ----- the valuation before issue 20 (bot kind ``heuristic-v1``) -------------------------------
def listed_value(table: Table, player: int, sq: int) -> float:
    """The old valuation: the price, plus 0.8 of the group's bonus for completing it, half of
    it for blocking one, a fifth of the price for a step, 0.3 of it per railroad/utility held."""
    b = table.board
    group = b.group_of[sq]
    price = b.price[sq]
    mine = sum(1 for s in group if table.owner[s] == player)
    owners = {table.owner[s] for s in group if s != sq and table.owner[s] >= 0}
    value = float(price)
    if b.kind[sq] == "street":
        if mine == len(group) - 1:
            value += sum(b.bonus[s] for s in group) * 0.8
        elif len(owners) == 1 and player not in owners:
            other = next(iter(owners))
            if sum(1 for s in group if table.owner[s] == other) == len(group) - 1:
                value += sum(b.bonus[s] for s in group) * 0.5  # blocks a monopoly
        elif mine:
            value += 0.2 * price
    else:
        value += 0.3 * price * mine
    return value


def listed_bid_limit(table: Table, player: int, sq: int, reserve: float) -> float:
    """The old limit: :func:`listed_value`, within the cash less the reserve, or within all the
    cash in hand when the value is over 1.3 times the price."""
    cash = table.cash[player]
    limit = listed_value(table, player, sq)
    if limit <= table.board.price[sq] * 1.3:
        return min(limit, cash - int(reserve * table.board.starting_cash))
    return min(limit, cash)

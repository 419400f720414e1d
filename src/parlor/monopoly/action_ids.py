"""The integer action space, and the any-time actions listed straight from the state.

Ids never change meaning: a fixed block of answers, a ladder of bid raises (relative to the current
high bid, S7), per-square blocks (building, selling, mortgaging...), a catalogue of simple
trades at price levels (one property or one jail card for cash at 1x, 1.5x or 2x the printed price
or the jail fine, S17), one id per count a player may wish for in a building shortage (S14), and,
last, the finer purchase ladder: buying one property for cash at every other eighth of its printed
price from 0.5x to 3.5x (0.5x, 0.625x, 0.75x, 0.875x, 1.125x, ...; 1x, 1.5x and 2x keep their
ids above). The purchases' prices together are every eighth from 0.5x to 3.5x: the price a seller
accepts depends on the game, and the bots' offers snapped to 1x, 1.5x and 2x lost most of their
strength (docs/rl-baseline.md).

The any-time actions (S13 building, S15 selling back, S16 mortgages, S17 the catalogue trades, S9
claiming rent) are the bulk of every legal-action list: about 130 at mid-game, most of them trade
offers. They are listed by one loop over the state (``_anytime_list``) that tests the rules as
plain comparisons and, for each legal action, appends its entry from a :class:`Catalogue` of the
seat: its id (``legal_action_ids``, masks) or its action object, built once per edition, player
count and seat and shared by every game (actions are immutable values). So ids and lists are one
computation and cannot disagree, and no object is built or exception raised on the hot path.
"""

from __future__ import annotations

from bisect import bisect_right
from operator import itemgetter
from typing import Any, Final, Generic, TypeVar

from parlor.core.errors import E_, UnknownActionId
from parlor.monopoly.actions import (
    MAX_WISH,
    AcceptTrade,
    Action,
    Bid,
    Build,
    BuyProperty,
    CallTime,
    ChooseTax,
    ClaimRent,
    DeclareBankruptcy,
    DeclineProperty,
    EndTurn,
    KeepMortgage,
    LiftMortgageNow,
    Mortgage,
    PassBid,
    PayDebt,
    PayJailFine,
    PlaceBuilding,
    ProposeTrade,
    RejectTrade,
    RollDice,
    SellBuilding,
    Unmortgage,
    UseJailCard,
    WishBuildings,
)
from parlor.monopoly.buying import BID_STEPS, BuyingRules
from parlor.monopoly.edition import Edition
from parlor.monopoly.facts import per_edition
from parlor.monopoly.frames import Auction
from parlor.monopoly.table import HOTEL, N_SQUARES

_FIXED: tuple[Action, ...] = (
    RollDice(0), EndTurn(0), BuyProperty(0), DeclineProperty(0), PassBid(0), PayJailFine(0),
    UseJailCard(0), ChooseTax(0, False), ChooseTax(0, True), PayDebt(0), DeclareBankruptcy(0),
    AcceptTrade(0), RejectTrade(0), ClaimRent(0), CallTime(0),
)  # fmt: skip
_FIXED_IDS = {
    type(a).__name__ + (f":{a.percent}" if isinstance(a, ChooseTax) else ""): i
    for i, a in enumerate(_FIXED)
}
_BID_BASE = len(_FIXED)
_SQUARE_ACTIONS: tuple[type[Action], ...] = (
    Build, SellBuilding, Mortgage, Unmortgage, LiftMortgageNow, KeepMortgage, PlaceBuilding,
)  # fmt: skip
_SQUARE_BASE = _BID_BASE + len(BID_STEPS)
PRICE_LEVELS = (2, 3, 4)  # halves of the printed price: 1x, 1.5x, 2x
#: Prices of the purchases (taking one property for cash), in eighths of the printed price:
#: 0.5x to 3.5x. Those equal to a ``PRICE_LEVELS`` level keep that block's ids.
BUY_EIGHTHS = tuple(range(4, 29))
_OLD_EIGHTHS = tuple(4 * level for level in PRICE_LEVELS)
_FINE_EIGHTHS = tuple(e for e in BUY_EIGHTHS if e not in _OLD_EIGHTHS)
_BUY_LEVELS = range(len(BUY_EIGHTHS))
_MAX_OTHERS = 7
_LEVELS = range(len(PRICE_LEVELS))
_NO_GROUPS: frozenset[str | None] = frozenset()
_TRADE_BUY_BASE = _SQUARE_BASE + len(_SQUARE_ACTIONS) * N_SQUARES
_TRADE_SELL_BASE = _TRADE_BUY_BASE + N_SQUARES * len(PRICE_LEVELS)
_CARD_SELL_BASE = _TRADE_SELL_BASE + N_SQUARES * _MAX_OTHERS * len(PRICE_LEVELS)
_CARD_BUY_BASE = _CARD_SELL_BASE + _MAX_OTHERS * len(PRICE_LEVELS)
# Building shortage wishes (S14): one id per count, 0 to MAX_WISH (appended last, so the ids
# before keep their meaning).
_WISH_BASE = _CARD_BUY_BASE + _MAX_OTHERS * len(PRICE_LEVELS)
# The finer purchase ladder (appended last too): per square, the eighths of _FINE_EIGHTHS.
_FINE_BUY_BASE = _WISH_BASE + MAX_WISH + 1
NUM_ACTIONS = _FINE_BUY_BASE + N_SQUARES * len(_FINE_EIGHTHS)


def _buy_id(sq: int, eighths: int) -> int:
    """The id of taking square ``sq`` for ``eighths`` eighths of its printed price."""
    if eighths in _OLD_EIGHTHS:
        return _TRADE_BUY_BASE + sq * len(PRICE_LEVELS) + _OLD_EIGHTHS.index(eighths)
    return _FINE_BUY_BASE + sq * len(_FINE_EIGHTHS) + _FINE_EIGHTHS.index(eighths)


T = TypeVar("T")


def coarse_buy_id(action_id: int) -> int:
    """For an id of the finer purchase ladder, the id of the 1x, 1.5x or 2x purchase of the same
    square nearest in price (the cheaper on a tie); any other id is its own. A policy trained
    before the ladder was appended can be widened by copying these ids' output rows."""
    if not _FINE_BUY_BASE <= action_id < NUM_ACTIONS:
        return action_id
    sq, k = divmod(action_id - _FINE_BUY_BASE, len(_FINE_EIGHTHS))
    nearest = min(_OLD_EIGHTHS, key=lambda e: (abs(e - _FINE_EIGHTHS[k]), e))
    return _buy_id(sq, nearest)


def level_price(unit: int, base: int, level: int) -> int:
    """``level`` halves of ``base``, rounded down to the money unit (at least one unit)."""
    return max(unit, (base * level // 2) // unit * unit)


def eighths_price(unit: int, base: int, eighths: int) -> int:
    """``eighths`` eighths of ``base``, rounded down to the money unit (at least one unit); equal
    to :func:`level_price` for ``eighths = 4 * level``."""
    return max(unit, (base * eighths // 8) // unit * unit)


def _decode(edition: Edition, n: int, action_id: int, player: int, holder: int) -> Action:
    """The action of a fixed, per-square or trade id; ``holder`` owns the square a buy id takes."""
    if action_id < _BID_BASE:
        template = _FIXED[action_id]
        if isinstance(template, ChooseTax):
            return ChooseTax(player, template.percent)
        return type(template)(player)
    unit = edition.money_unit
    if action_id >= _FINE_BUY_BASE:
        sq, k = divmod(action_id - _FINE_BUY_BASE, len(_FINE_EIGHTHS))
        price = eighths_price(unit, edition.squares[sq].price, _FINE_EIGHTHS[k])
        return ProposeTrade(player, holder, take_squares=(sq,), give_cash=price)
    if action_id >= _WISH_BASE:
        return WishBuildings(player, action_id - _WISH_BASE)
    if action_id < _TRADE_BUY_BASE:
        k, sq = divmod(action_id - _SQUARE_BASE, N_SQUARES)
        return _SQUARE_ACTIONS[k](player, sq)  # type: ignore[call-arg]
    levels = len(PRICE_LEVELS)
    if action_id < _TRADE_SELL_BASE:
        sq, k = divmod(action_id - _TRADE_BUY_BASE, levels)
        price = level_price(unit, edition.squares[sq].price, PRICE_LEVELS[k])
        return ProposeTrade(player, holder, take_squares=(sq,), give_cash=price)
    if action_id < _CARD_SELL_BASE:
        rest, k = divmod(action_id - _TRADE_SELL_BASE, levels)
        sq, off = divmod(rest, _MAX_OTHERS)
        price = level_price(unit, edition.squares[sq].price, PRICE_LEVELS[k])
        return ProposeTrade(player, (player + off + 1) % n, give_squares=(sq,), take_cash=price)
    base = _CARD_SELL_BASE if action_id < _CARD_BUY_BASE else _CARD_BUY_BASE
    off, k = divmod(action_id - base, levels)
    price = level_price(unit, edition.jail_fine, PRICE_LEVELS[k])
    to = (player + off + 1) % n
    if base == _CARD_SELL_BASE:
        return ProposeTrade(player, to, give_jail_cards=1, take_cash=price)
    return ProposeTrade(player, to, take_jail_cards=1, give_cash=price)


class Catalogue(Generic[T]):
    """What each any-time action of one seat is in a listing: its id, or its action object.

    Indexed by square (``build``, ``sell``, ``mortgage``, ``unmortgage``), by square, purchase
    price (``BUY_EIGHTHS``) and holder (``buy``: taking the holder's square for cash), by square,
    price level and the buyer's offset to the left minus one (``sell_to``), by that offset and
    level (``card_sell``, ``card_buy``: a jail card for cash), and ``claim`` (claiming rent).
    ``buy_all`` and ``sell_all`` are the whole rows, for the common case where every price is
    affordable.
    """

    __slots__ = (
        "build",
        "buy",
        "buy_all",
        "card_buy",
        "card_sell",
        "claim",
        "mortgage",
        "sell",
        "sell_all",
        "sell_to",
        "unmortgage",
    )

    def __init__(
        self,
        build: list[T],
        sell: list[T],
        mortgage: list[T],
        unmortgage: list[T],
        buy: list[list[list[T]]],
        sell_to: list[list[list[T]]],
        card_sell: list[list[T]],
        card_buy: list[list[T]],
        claim: T,
    ) -> None:
        self.build, self.sell, self.mortgage, self.unmortgage = build, sell, mortgage, unmortgage
        self.buy, self.sell_to, self.card_sell, self.card_buy = buy, sell_to, card_sell, card_buy
        self.claim = claim
        levels = _LEVELS
        self.buy_all = [
            [tuple(rows[j][h] for j in _BUY_LEVELS) for h in range(len(rows[0]))] for rows in buy
        ]
        self.sell_all = [tuple(x for j in levels for x in rows[j]) for rows in sell_to]


class ActionSpace:
    """The fixed tables of one edition's action space, and the seats' catalogues (built lazily)."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        unit = edition.money_unit
        squares = edition.squares
        self.props = edition.property_squares
        self.street = [sq.kind == "street" for sq in squares]
        self.group_name = [sq.group for sq in squares]
        self.members = [
            edition.groups[sq.group] if sq.group else (sq.index,) for sq in edition.squares
        ]
        self.house_cost = [sq.house_cost for sq in squares]
        self.hotel_cost = [edition.hotel_cost(i) for i in range(len(squares))]
        self.lift_cost = [
            sq.mortgage + edition.mortgage_interest(i) if sq.is_property else 0
            for i, sq in enumerate(squares)
        ]
        self.trade_amounts = [
            tuple(level_price(unit, sq.price, level) for level in PRICE_LEVELS) for sq in squares
        ]
        self.buy_amounts = [
            tuple(eighths_price(unit, sq.price, e) for e in BUY_EIGHTHS) for sq in squares
        ]
        self.card_amounts = tuple(level_price(unit, edition.jail_fine, lv) for lv in PRICE_LEVELS)
        # Two price levels that round to the same amount are one action, with the first one's id.
        self.trade_k = [tuple(a.index(x) for x in a) for a in self.trade_amounts]
        self.buy_k = [tuple(a.index(x) for x in a) for a in self.buy_amounts]
        self.card_k = tuple(self.card_amounts.index(x) for x in self.card_amounts)
        # Only the rows a listing can hold: the other squares (price 0) round every level to one
        # unit and are never listed, and counting them sent every edition to the set and sort.
        self.repeats = any(
            len(set(a)) < len(a)
            for a in (
                *(self.trade_amounts[sq] for sq in self.props),
                *(self.buy_amounts[sq] for sq in self.props),
                self.card_amounts,
            )
        )
        self._ids: dict[tuple[int, int], Catalogue[int]] = {}
        self._actions: dict[tuple[int, int], Catalogue[Action]] = {}
        self._decoded: dict[int, Action] = {}
        self._others: dict[tuple[int, int], tuple[list[tuple[int, int]], Any]] = {}

    def action(self, n: int, action_id: int, player: int, holder: int) -> Action:
        """The shared action object of a fixed, per-square or trade id (see ``_decode``)."""
        key = (((action_id << 4 | n) << 3 | holder) << 3) | player
        found = self._decoded.get(key)
        if found is None:
            found = self._decoded[key] = _decode(self.edition, n, action_id, player, holder)
        return found

    def others(self, n: int, p: int) -> tuple[list[tuple[int, int]], Any]:
        """The other seats of ``n`` after ``p`` in turn order, each with its offset to the left
        minus one (its place in a catalogue row), and the getter of their cash from the
        players' (``itemgetter``: a tuple, or one amount for two players)."""
        found = self._others.get((n, p))
        if found is None:
            pairs = [(q, (q - p) % n - 1) for q in ((p + k) % n for k in range(1, n))]
            found = self._others[(n, p)] = (pairs, itemgetter(*[q for q, _ in pairs]))
        return found

    def ids(self, n: int, p: int) -> Catalogue[int]:
        found = self._ids.get((n, p))
        if found is None:
            found = self._ids[(n, p)] = self._id_catalogue(n)
        return found

    def actions(self, n: int, p: int) -> Catalogue[Action]:
        found = self._actions.get((n, p))
        if found is None:
            found = self._actions[(n, p)] = self._action_catalogue(n, p)
        return found

    def _id_catalogue(self, n: int) -> Catalogue[int]:
        levels = len(PRICE_LEVELS)
        squares = range(N_SQUARES)
        return Catalogue(
            build=[_SQUARE_BASE + sq for sq in squares],
            sell=[_SQUARE_BASE + N_SQUARES + sq for sq in squares],
            mortgage=[_SQUARE_BASE + 2 * N_SQUARES + sq for sq in squares],
            unmortgage=[_SQUARE_BASE + 3 * N_SQUARES + sq for sq in squares],
            buy=[[[_buy_id(sq, BUY_EIGHTHS[k])] * n for k in self.buy_k[sq]] for sq in squares],
            sell_to=[
                [
                    [
                        _TRADE_SELL_BASE + (sq * _MAX_OTHERS + off) * levels + k
                        for off in range(n - 1)
                    ]
                    for k in self.trade_k[sq]
                ]
                for sq in squares
            ],
            card_sell=[
                [_CARD_SELL_BASE + off * levels + k for k in self.card_k] for off in range(n - 1)
            ],
            card_buy=[
                [_CARD_BUY_BASE + off * levels + k for k in self.card_k] for off in range(n - 1)
            ],
            claim=_FIXED_IDS["ClaimRent"],
        )

    def _action_catalogue(self, n: int, p: int) -> Catalogue[Action]:
        ids = self.ids(n, p)

        def decode(action_id: int, holder: int = p) -> Action:
            return self.action(n, action_id, p, holder)

        return Catalogue(
            build=[decode(i) for i in ids.build],
            sell=[decode(i) for i in ids.sell],
            mortgage=[decode(i) for i in ids.mortgage],
            unmortgage=[decode(i) for i in ids.unmortgage],
            buy=[[[decode(i, h) for h, i in enumerate(row)] for row in sq] for sq in ids.buy],
            sell_to=[[[decode(i) for i in row] for row in sq] for sq in ids.sell_to],
            card_sell=[[decode(i) for i in row] for row in ids.card_sell],
            card_buy=[[decode(i) for i in row] for row in ids.card_buy],
            claim=decode(ids.claim),
        )


_SPACES: Final[dict[int, tuple[Edition, ActionSpace]]] = {}


def space_for(edition: Edition) -> ActionSpace:
    """The action space of ``edition``, shared by its games."""
    return per_edition(_SPACES, edition, ActionSpace)


#: The deeds with an owner, in square order: (square, owner, tradable: no buildings in the group).
DeedRows = list[tuple[int, int, bool]]


class ActionIds(BuyingRules):
    _space: ActionSpace
    # The owners and buildings (copies) that ``_deed_rows`` last worked its rows out for, and
    # those rows: a memo, not state (compared by value, never by ``estate_revision``, so that
    # lists set by hand are seen too; a copy of the game starts without it).
    _deeds_memo: tuple[list[int], list[int], DeedRows] | None

    def _derive(self) -> None:
        super()._derive()
        self._deeds_memo = None

    def _deed_rows(self) -> DeedRows:
        """The deeds with an owner, in square order, as (square, owner, tradable): most of a
        listing's deeds have none in the opening, where random play spends its steps, and the
        owners and buildings change at few of a learner's decisions."""
        owner, buildings = self.owner, self.buildings
        memo = self._deeds_memo
        if memo is not None and memo[0] == owner and memo[1] == buildings:
            return memo[2]
        sp = self._space
        group_name = sp.group_name
        # Groups with buildings: none of their properties is traded or mortgaged (S16, S17).
        built = {group_name[s] for s in sp.props if buildings[s]} if any(buildings) else _NO_GROUPS
        rows = [(sq, owner[sq], group_name[sq] not in built) for sq in sp.props if owner[sq] >= 0]
        self._deeds_memo = (owner[:], buildings[:], rows)
        return rows

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    def _level_price(self, base: int, level: int) -> int:
        return level_price(self.edition.money_unit, base, level)

    # ----- the any-time actions, from the state ------------------------------------------------
    def _anytime_list(self, p: int, cat: Catalogue[T]) -> list[T]:
        """The legal any-time actions of ``p`` as entries of ``cat``, in the listing order: per
        property, building, selling a building, then lifting or taking a mortgage; then the
        catalogue trades, per property; then the jail-card trades; then claiming rent. The caller
        has checked that ``p`` is in the game and that any-time actions are open.

        The tests are those of the checks (``_check_build``, ``_check_sell_building``,
        ``_check_mortgage``, ``_check_unmortgage``, ``_trade_problem``) written as comparisons;
        tests/monopoly/test_action_space.py holds the two equal.
        """
        sp = self._space
        owner, mortgaged, buildings, cash = self.owner, self.mortgaged, self.buildings, self.cash
        my_cash = cash[p]
        h = self.options.hotel_after_houses
        unlimited = self.options.unlimited_buildings
        # No building while the bank's scarce buildings are being auctioned (S14).
        may_build = not self._shortage_running()
        house_in_stock = unlimited or self.houses_left > 0
        hotel_in_stock = unlimited or self.hotels_left > 0
        members_of, street = sp.members, sp.street
        trade_amounts, buy_amounts = sp.trade_amounts, sp.buy_amounts
        bankrupt = self.bankrupt
        others, their_cash = sp.others(len(self.names), p)
        # All the others are in the game: a sale every one of them can pay is the whole row.
        everyone_can_pay = True not in bankrupt
        if not everyone_can_pay:
            others = [(q, off) for q, off in others if not bankrupt[q]]
            their_cash = itemgetter(*[q for q, _ in others]) if others else None
        # (the cash of the others in the game, in one C call: a tuple, or one seat's amount)
        poorest = richest = 0
        if their_cash is not None:
            paying = their_cash(cash)
            if isinstance(paying, tuple):
                poorest, richest = min(paying), max(paying)
            else:
                poorest = richest = paying
        out: list[T] = []
        trades: list[T] = []
        for sq, holder, tradable in self._deed_rows():
            if holder != p:
                if tradable:
                    # Buy it for cash: the levels cost more and more, so those affordable are
                    # the row's first ones (found by bisection, taken by one slice: about half
                    # the listing's work was this loop over 25 levels).
                    amounts = buy_amounts[sq]
                    if amounts[-1] <= my_cash:
                        trades += cat.buy_all[sq][holder]
                    elif amounts[0] <= my_cash:
                        trades += cat.buy_all[sq][holder][: bisect_right(amounts, my_cash)]
                continue
            if street[sq]:
                members = members_of[sq]
                b = buildings[sq]
                level = h + 1 if b == HOTEL else b
                if may_build and level <= h:
                    # The whole group, none mortgaged, no lot below this one; stock and cash.
                    for s in members:
                        bs = buildings[s]
                        if owner[s] != p or mortgaged[s] or (h + 1 if bs == HOTEL else bs) < level:
                            break
                    else:
                        if (
                            (hotel_in_stock and my_cash >= sp.hotel_cost[sq])
                            if level == h
                            else (house_in_stock and my_cash >= sp.house_cost[sq])
                        ):
                            out.append(cat.build[sq])
                if b:
                    # Sell evenly: no lot of the group above this one.
                    for s in members:
                        bs = buildings[s]
                        if (h + 1 if bs == HOTEL else bs) > level:
                            break
                    else:
                        out.append(cat.sell[sq])
            if mortgaged[sq]:
                if my_cash >= sp.lift_cost[sq]:
                    out.append(cat.unmortgage[sq])
            elif tradable:
                out.append(cat.mortgage[sq])
            if tradable:
                # Sell it for cash to each other player who can pay.
                amounts = trade_amounts[sq]
                if everyone_can_pay and amounts[-1] <= poorest:
                    trades += cat.sell_all[sq]
                else:
                    sell_rows = cat.sell_to[sq]
                    for j in _LEVELS:
                        amount, row = amounts[j], sell_rows[j]
                        if amount > richest:  # (nobody pays this level, nor the dearer ones)
                            break
                        if everyone_can_pay and amount <= poorest:
                            trades += row  # (the row is the others in turn order, as ``others``)
                            continue
                        for q, off in others:
                            if amount <= cash[q]:
                                trades.append(row[off])
        out += trades
        jail_cards = self.jail_cards
        mine = bool(jail_cards[p])
        for q, off in others:
            theirs = bool(jail_cards[q])
            if not (mine or theirs):
                continue
            sells, buys = cat.card_sell[off], cat.card_buy[off]
            for j, amount in enumerate(sp.card_amounts):
                if mine and amount <= cash[q]:
                    out.append(sells[j])
                if theirs and amount <= my_cash:
                    out.append(buys[j])
        if self.claims and self.options.rent_claim and any(c[1] == p for c in self.claims):
            out.append(cat.claim)
        # CallTime is accepted (see ending.py) but not listed: it is the table's signal that the
        # agreed time ran out, not a move a player or bot chooses.
        return out

    def _anytime_actions(self, p: int) -> list[Action]:
        return self._anytime_list(p, self._space.actions(len(self.names), p))

    def _anytime_ids(self, p: int) -> list[int]:
        return self._anytime_list(p, self._space.ids(len(self.names), p))

    def _bid_ids(self, p: int, top: Auction) -> list[int]:
        """Ids of the bidder's answers: passing, and each raise of the ladder within the cash."""
        unit, low, cash = self.edition.money_unit, self._min_raise(top), self.cash[p]
        ids, amounts = [_FIXED_IDS["PassBid"]], []
        for k, step in enumerate(BID_STEPS):
            amount = max(low, top.high_bid + step * unit)
            if amount not in amounts:
                amounts.append(amount)
                if amount <= cash:
                    ids.append(_BID_BASE + k)
        return ids

    # ----- ids and actions ---------------------------------------------------------------------
    def _id_of(self, action: Action) -> int:
        """The id of a well-formed action (``action_id`` without the boundary check, for the
        actions the engine lists itself)."""
        name = type(action).__name__
        if isinstance(action, ChooseTax):
            return _FIXED_IDS[f"ChooseTax:{action.percent}"]
        if name in _FIXED_IDS:
            return _FIXED_IDS[name]
        if isinstance(action, Bid):
            top = self.frames[-1] if self.frames else None
            if isinstance(top, Auction):
                unit = self.edition.money_unit
                low = self._min_raise(top)
                for k, step in enumerate(BID_STEPS):
                    if max(low, top.high_bid + step * unit) == action.amount:
                        return _BID_BASE + k
            raise UnknownActionId(
                E_("a bid of {amount} is not on the bid ladder now", amount=action.amount)
            )
        for k, cls in enumerate(_SQUARE_ACTIONS):
            if isinstance(action, cls):
                square: int = action.square  # type: ignore[attr-defined]
                return _SQUARE_BASE + k * N_SQUARES + square
        if isinstance(action, ProposeTrade):
            return self._trade_id(action)
        if isinstance(action, WishBuildings):
            count: int = action.count
            return _WISH_BASE + count
        raise UnknownActionId(E_("{action} has no action id", action=repr(action)))

    def _trade_id(self, a: ProposeTrade) -> int:
        n = self.num_players
        offset: int = (a.to - a.player) % n
        fine = self.edition.jail_fine
        if len(a.take_squares) == 1 and not (
            a.give_squares or a.take_cash or a.give_jail_cards or a.take_jail_cards
        ):
            sq = a.take_squares[0]
            if a.to != (self.owner[sq] if self.owner[sq] >= 0 else a.player):
                raise UnknownActionId(
                    E_("a catalogue purchase has an id only when offered to the owner")
                )
            unit, base = self.edition.money_unit, self.edition.squares[sq].price
            for e in BUY_EIGHTHS:
                if a.give_cash == eighths_price(unit, base, e):
                    return _buy_id(sq, e)
        if (
            len(a.give_squares) == 1
            and not (a.take_squares or a.give_cash or a.give_jail_cards or a.take_jail_cards)
            and offset
        ):
            given: int = a.give_squares[0]
            for k, level in enumerate(PRICE_LEVELS):
                if a.take_cash == self._level_price(self.edition.squares[given].price, level):
                    return (
                        _TRADE_SELL_BASE
                        + (given * _MAX_OTHERS + offset - 1) * len(PRICE_LEVELS)
                        + k
                    )
        if not (a.give_squares or a.take_squares) and offset:
            cards_and_cash = (a.give_jail_cards, a.take_jail_cards, a.give_cash, a.take_cash)
            for k, level in enumerate(PRICE_LEVELS):
                price = self._level_price(fine, level)
                if cards_and_cash == (1, 0, 0, price):
                    return _CARD_SELL_BASE + (offset - 1) * len(PRICE_LEVELS) + k
                if cards_and_cash == (0, 1, price, 0):
                    return _CARD_BUY_BASE + (offset - 1) * len(PRICE_LEVELS) + k
        raise UnknownActionId(
            E_("only the catalogue trades (one property or card for cash) have ids")
        )

    def _action_of_id(self, action_id: int, player: int) -> Action:
        """The action ``action_id`` stands for (``action_from_id`` after its boundary check)."""
        if _BID_BASE <= action_id < _SQUARE_BASE:
            top = self.frames[-1] if self.frames else None
            if not isinstance(top, Auction):
                raise UnknownActionId(E_("bid ids have a meaning only during an auction"))
            step = BID_STEPS[action_id - _BID_BASE] * self.edition.money_unit
            return Bid(player, max(self._min_raise(top), top.high_bid + step))
        holder = player
        square = -1
        if _TRADE_BUY_BASE <= action_id < _TRADE_SELL_BASE:
            square = (action_id - _TRADE_BUY_BASE) // len(PRICE_LEVELS)
        elif _FINE_BUY_BASE <= action_id < NUM_ACTIONS:
            square = (action_id - _FINE_BUY_BASE) // len(_FINE_EIGHTHS)
        if square >= 0:
            owner = self.owner[square]
            holder = owner if owner >= 0 else player
        return self._space.action(len(self.names), action_id, player, holder)

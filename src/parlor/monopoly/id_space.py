"""The integer action space's fixed tables: the ids' layout, the prices of the catalogue
trades, and each seat's :class:`Catalogue` (what every any-time action is in a listing: its id
or its action object), built once per edition, player count and seat (see ``action_ids``, which
lists the legal ones from the state)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from operator import itemgetter
from typing import Any, Final, Generic, TypeVar

from parlor.core.validate import checker
from parlor.monopoly.actions import (
    MAX_WISH,
    AcceptTrade,
    Action,
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
from parlor.monopoly.buying import BID_STEPS
from parlor.monopoly.edition import Edition
from parlor.monopoly.facts import per_edition
from parlor.monopoly.table import N_SQUARES

_FIXED: tuple[Action, ...] = (
    RollDice(0), EndTurn(0), BuyProperty(0), DeclineProperty(0), PassBid(0), PayJailFine(0),
    UseJailCard(0), ChooseTax(0, False), ChooseTax(0, True), PayDebt(0), DeclareBankruptcy(0),
    AcceptTrade(0), RejectTrade(0), ClaimRent(0), CallTime(0),
)  # fmt: skip
_FIXED_IDS = {
    type(a).__name__ + (f":{a.percent}" if isinstance(a, ChooseTax) else ""): i
    for i, a in enumerate(_FIXED)
}
#: The ids of a turn's plain answers (``_turn_answers``: before the throw, out of jail, only
#: the throw; after it, only the end of the turn).
ROLL_ID: Final = _FIXED_IDS["RollDice"]
END_TURN_ID: Final = _FIXED_IDS["EndTurn"]
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
    affordable. ``others`` and ``their_cash`` are the seat's :meth:`ActionSpace.others`, kept
    here so that a listing reads them with its catalogue.
    """

    __slots__ = (
        "build",
        "buy",
        "buy_all",
        "card_buy",
        "card_sell",
        "claim",
        "mortgage",
        "others",
        "sell",
        "sell_all",
        "sell_to",
        "their_cash",
        "unmortgage",
    )
    others: list[tuple[int, int]]
    their_cash: Any

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
        self._offers: dict[int, set[int]] = {}
        self._checks: dict[int, dict[type, Callable[[Any, int], int]]] = {}

    def action(self, n: int, action_id: int, player: int, holder: int) -> Action:
        """The shared action object of a fixed, per-square or trade id (see ``_decode``)."""
        key = (((action_id << 4 | n) << 3 | holder) << 3) | player
        found = self._decoded.get(key)
        if found is None:
            found = self._decoded[key] = _decode(self.edition, n, action_id, player, holder)
            if type(found) is ProposeTrade and checker(ProposeTrade).first_bad(found, n) < 0:
                self._offer_ids(n).add(id(found))
        return found

    def _offer_ids(self, n: int) -> set[int]:
        """The ``id`` of each trade offer this space made for ``n`` players, its fields checked
        once when made (immutable since): the space keeps them, so no other object takes their
        ids while it lives (the game that asks holds the space)."""
        found = self._offers.get(n)
        if found is None:
            found = self._offers[n] = set()
        return found

    def field_checks(
        self, n: int, checks: Mapping[type, Callable[[Any, int], int]]
    ) -> dict[type, Callable[[Any, int], int]]:
        """Each action kind's field check for a game of ``n`` players (``first_bad(action,
        n)``): the game class's ``checks`` (``Game._first_bad``), but a trade offer of this
        space's own (``action_from_id``, the listings) passes without its eight fields read
        again: the random learner proposes at most of its steps."""
        found = self._checks.get(n)
        if found is None:
            offers = self._offer_ids(n)
            full = checks[ProposeTrade]

            def offer_check(action: Any, n: int) -> int:
                return -1 if id(action) in offers else full(action, n)

            found = self._checks[n] = {**checks, ProposeTrade: offer_check}
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
            found.others, found.their_cash = self.others(n, p)
        return found

    def actions(self, n: int, p: int) -> Catalogue[Action]:
        found = self._actions.get((n, p))
        if found is None:
            found = self._actions[(n, p)] = self._action_catalogue(n, p)
            found.others, found.their_cash = self.others(n, p)
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

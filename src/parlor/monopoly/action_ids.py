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

from parlor.core.errors import E_, UnknownActionId
from parlor.monopoly.actions import (
    Action,
    Bid,
    ChooseTax,
    ProposeTrade,
    WishBuildings,
)
from parlor.monopoly.buying import BID_STEPS, BuyingRules
from parlor.monopoly.frames import Auction, Turn
from parlor.monopoly.id_space import (
    _BID_BASE,
    _CARD_BUY_BASE,
    _CARD_SELL_BASE,
    _FINE_BUY_BASE,
    _FINE_EIGHTHS,
    _FIXED_IDS,
    _LEVELS,
    _MAX_OTHERS,
    _NO_GROUPS,
    _SQUARE_ACTIONS,
    _SQUARE_BASE,
    _TRADE_BUY_BASE,
    _TRADE_SELL_BASE,
    _WISH_BASE,
    BUY_EIGHTHS,
    NUM_ACTIONS,
    PRICE_LEVELS,
    ActionSpace,
    Catalogue,
    T,
    _buy_id,
    eighths_price,
    level_price,
)
from parlor.monopoly.table import HOTEL, N_SQUARES

__all__ = ["ActionIds"]


#: The deeds with an owner, in square order: (square, owner, tradable: no buildings in the group).
DeedRows = list[tuple[int, int, bool]]


#: What ``_anytime_list`` reads of the state (the catalogue, the edition and the options are
#: the game's for good): every seat's cash, the owners, buildings and mortgages, who is
#: bankrupt, the bank's houses and hotels, whether a shortage sale runs (S14), the jail cards
#: and the rent claims, in one tuple (the cash first: what most often changes between two
#: listings). A seat's memo keeps copies of them, compared with the game's lists in one call.
ListingKey = tuple[
    list[int], list[int], list[int], list[bool], list[bool], int, int, bool,
    list[list[int]] | None, list[list[int]] | None,
]  # fmt: skip


class Listed:
    """One seat's last listing of legal ids, worked out from the state ``key`` holds copies of:
    a memo, not state. The seat's any-time ids (``anytime``); ``ids``, the whole listing after
    ``answers`` (the seat's answers to the pending decision, worked out afresh at each call),
    and ``ordered`` its sorted set: handed out as they are by ``_legal_id_list`` (the same
    objects while the memo holds), copied by the public queries."""

    __slots__ = ("answers", "anytime", "ids", "key", "ordered")

    def __init__(self, key: ListingKey) -> None:
        self.key = key
        self.anytime: list[int] | None = None
        self.answers: list[int] = []
        self.ids: list[int] | None = None
        self.ordered: list[int] | None = None


class ActionIds(BuyingRules):
    _space: ActionSpace
    # The owners and buildings (copies) that ``_deed_rows`` last worked its rows out for, and
    # those rows: a memo, not state (compared by value, never by ``estate_revision``, so that
    # lists set by hand are seen too; a copy of the game starts without it).
    _deeds_memo: tuple[list[int], list[int], DeedRows] | None
    # Each seat's last listing (``Listed``): a memo, not state (a copy starts without it, a
    # pickle or a snapshot never holds it). About half the classic learner's listings follow
    # a refused trade offer, which changes nothing the listing reads.
    _listing_memo: list[Listed | None]

    def _derive(self) -> None:
        super()._derive()
        self._deeds_memo = None
        self._listing_memo = [None] * len(self.names)

    def _with_anytime_ids(self, p: int, answers: list[int]) -> list[int]:
        """``answers`` (the ids of ``p``'s answers to the pending decision, if his: worked out
        afresh) and then his legal any-time ids: the seat's last list again (the same object)
        while the state is what it was listed from (compared by value, in C: lists set by hand
        are seen too). The caller has checked that ``p`` is in the game and that any-time
        actions are open. Not to be changed: the memo's own list."""
        frames = self.frames
        # (a shortage sale is a frame above the turn: with the turn alone, no call)
        shortage = (len(frames) > 1 or type(frames[0]) is not Turn) and self._shortage_running()
        # (nobody's jail card and no claim, most of the time: None, no copy)
        cards, claims = self.jail_cards, self.claims
        held = any(cards)
        now = (
            self.cash, self.owner, self.buildings, self.mortgaged, self.bankrupt,
            self.houses_left, self.hotels_left, shortage, cards if held else None, claims or None,
        )  # fmt: skip
        memo = self._listing_memo[p]
        if memo is None or memo.key != now:
            cash, owner, buildings, mortgaged, bankrupt, houses, hotels, _, _, _ = now
            key: ListingKey = (
                cash[:], owner[:], buildings[:], mortgaged[:], bankrupt[:], houses, hotels,
                shortage, [*map(list, cards)] if held else None,
                [*map(list, claims)] if claims else None,
            )  # fmt: skip
            if memo is None:
                memo = self._listing_memo[p] = Listed(key)
            else:  # (the seat's memo, emptied: no new object)
                memo.key = key
                memo.anytime = memo.ids = memo.ordered = None
        else:
            ids = memo.ids
            if ids is not None and memo.answers == answers:
                return ids
        anytime = memo.anytime
        if anytime is None:
            anytime = memo.anytime = self._anytime_list(p, self._space.ids(len(self.names), p))
        memo.answers = answers
        memo.ids = ids = answers + anytime if answers else anytime
        memo.ordered = None
        return ids

    def _ordered_ids(self, p: int, ids: list[int]) -> list[int]:
        """``ids`` (a listing of ``p``'s legal ids) sorted, without repeats: a new list, sorted
        once per memo listing (the Gymnasium environments ask it at every step)."""
        memo = self._listing_memo[p]
        if memo is None or memo.ids is not ids:  # (a fresh list: the caller's own)
            if self._space.repeats:  # price levels that round to one amount list an id twice
                return sorted(set(ids))
            ids.sort()
            return ids
        ordered = memo.ordered
        if ordered is None:
            ordered = memo.ordered = sorted(set(ids)) if self._space.repeats else sorted(ids)
        return ordered[:]

    def _deed_rows(self, owner: list[int], buildings: list[int]) -> DeedRows:
        """The deeds with an owner, in square order, as (square, owner, tradable), worked out
        for these owners and buildings (the game's) and kept in the memo: the listing reads the
        memo itself while they stay the same (most of a listing's deeds have none in the
        opening, where random play spends its steps, and they change at few decisions)."""
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
        members_of, street = sp.members, sp.street
        trade_amounts, buy_amounts = sp.trade_amounts, sp.buy_amounts
        bankrupt = self.bankrupt
        others, their_cash = cat.others, cat.their_cash
        # All the others are in the game: a sale every one of them can pay is the whole row.
        everyone_can_pay = True not in bankrupt
        if not everyone_can_pay:
            others = [(q, off) for q, off in others if not bankrupt[q]]
            their_cash = itemgetter(*[q for q, _ in others]) if others else None
        # (the least and most cash of the others in the game: read at the seat's first deed to
        # sell, -1 until then; most listings of the opening have none)
        poorest = richest = -1
        out: list[T] = []
        trades: list[T] = []
        memo = self._deeds_memo
        if memo is not None and memo[0] == owner and memo[1] == buildings:
            rows = memo[2]
        else:
            rows = self._deed_rows(owner, buildings)
        for sq, holder, tradable in rows:
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
                if level <= h:
                    # The whole group, none mortgaged, no lot below this one; stock and cash;
                    # no building while the bank's scarce buildings are auctioned (S14). (The
                    # state's other reads only here: most listings have no group to build on.)
                    for s in members:
                        bs = buildings[s]
                        if owner[s] != p or mortgaged[s] or (h + 1 if bs == HOTEL else bs) < level:
                            break
                    else:
                        unlimited = self.options.unlimited_buildings
                        if (
                            ((unlimited or self.hotels_left > 0) and my_cash >= sp.hotel_cost[sq])
                            if level == h
                            else (
                                (unlimited or self.houses_left > 0) and my_cash >= sp.house_cost[sq]
                            )
                        ) and not self._shortage_running():
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
                if richest < 0:
                    poorest = richest = 0
                    if their_cash is not None:  # (in one C call: a tuple, or one seat's amount)
                        paying = their_cash(cash)
                        if isinstance(paying, tuple):
                            poorest, richest = min(paying), max(paying)
                        else:
                            poorest = richest = paying
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
        if any(jail_cards):  # (else no card to trade: most listings)
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
        # (not kept: the bots that list actions seldom ask twice in one state, where the memo's
        # copies would cost more than it saved)
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

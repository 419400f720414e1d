"""The integer action space: stable ids for the answers, bids, per-square actions and simple trades.

Ids never change meaning: a fixed block of answers, a ladder of bid raises (relative to the current
high bid, S7), per-square blocks (building, selling, mortgaging...), and a catalogue of simple
trades at price levels (one property or one jail card for cash at 1x, 1.5x or 2x the printed price
or the jail fine, S17).
"""

from __future__ import annotations

from parlor.core.errors import UnknownActionId
from parlor.monopoly.actions import (
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
)
from parlor.monopoly.buying import BID_STEPS, BuyingRules
from parlor.monopoly.frames import Auction
from parlor.monopoly.table import N_SQUARES

_FIXED: tuple[Action, ...] = (
    RollDice(0),
    EndTurn(0),
    BuyProperty(0),
    DeclineProperty(0),
    PassBid(0),
    PayJailFine(0),
    UseJailCard(0),
    ChooseTax(0, False),
    ChooseTax(0, True),
    PayDebt(0),
    DeclareBankruptcy(0),
    AcceptTrade(0),
    RejectTrade(0),
    ClaimRent(0),
    CallTime(0),
)
_FIXED_IDS = {
    type(a).__name__ + (f":{a.percent}" if isinstance(a, ChooseTax) else ""): i
    for i, a in enumerate(_FIXED)
}
_BID_BASE = len(_FIXED)
_SQUARE_ACTIONS: tuple[type[Action], ...] = (
    Build,
    SellBuilding,
    Mortgage,
    Unmortgage,
    LiftMortgageNow,
    KeepMortgage,
    PlaceBuilding,
)
_SQUARE_BASE = _BID_BASE + len(BID_STEPS)
PRICE_LEVELS = (2, 3, 4)  # halves of the printed price: 1x, 1.5x, 2x
_MAX_OTHERS = 7
_TRADE_BUY_BASE = _SQUARE_BASE + len(_SQUARE_ACTIONS) * N_SQUARES
_TRADE_SELL_BASE = _TRADE_BUY_BASE + N_SQUARES * len(PRICE_LEVELS)
_CARD_SELL_BASE = _TRADE_SELL_BASE + N_SQUARES * _MAX_OTHERS * len(PRICE_LEVELS)
_CARD_BUY_BASE = _CARD_SELL_BASE + _MAX_OTHERS * len(PRICE_LEVELS)
NUM_ACTIONS = _CARD_BUY_BASE + _MAX_OTHERS * len(PRICE_LEVELS)


class ActionIds(BuyingRules):
    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    def _level_price(self, base: int, level: int) -> int:
        unit = self.edition.money_unit
        return max(unit, (base * level // 2) // unit * unit)

    def _catalogue_trades(self, p: int) -> list[ProposeTrade]:
        """The legal simple trades that have action ids: one property for cash, or a jail card for
        cash, at 1x, 1.5x or 2x the printed price (jail cards: of the jail fine).

        Built directly from the rules of ``_trade_problem`` (ownership, no buildings in the group,
        cash in hand) because checking every candidate is the engine's hottest path.
        """
        n = self.num_players
        ed = self.edition
        owner, cash = self.owner, self.cash
        others = [(p + k) % n for k in range(1, n) if not self.bankrupt[(p + k) % n]]
        built_groups = {ed.squares[s].group for s in ed.property_squares if self.buildings[s]}
        out = []
        for sq in ed.property_squares:
            holder = owner[sq]
            if holder < 0 or ed.squares[sq].group in built_groups:
                continue
            price = ed.squares[sq].price
            for level in PRICE_LEVELS:
                amount = self._level_price(price, level)
                if holder != p:
                    if amount <= cash[p]:
                        out.append(ProposeTrade(p, holder, take_squares=(sq,), give_cash=amount))
                    continue
                for q in others:
                    if amount <= cash[q]:
                        out.append(ProposeTrade(p, q, give_squares=(sq,), take_cash=amount))
        for q in others:
            for level in PRICE_LEVELS:
                amount = self._level_price(ed.jail_fine, level)
                if self.jail_cards[p] and amount <= cash[q]:
                    out.append(ProposeTrade(p, q, give_jail_cards=1, take_cash=amount))
                if self.jail_cards[q] and amount <= cash[p]:
                    out.append(ProposeTrade(p, q, take_jail_cards=1, give_cash=amount))
        return out

    def action_id(self, action: Action) -> int:
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
            raise UnknownActionId(f"a bid of {action.amount} is not on the bid ladder now")
        for k, cls in enumerate(_SQUARE_ACTIONS):
            if isinstance(action, cls):
                square: int = action.square  # type: ignore[attr-defined]
                return _SQUARE_BASE + k * N_SQUARES + square
        if isinstance(action, ProposeTrade):
            return self._trade_id(action)
        raise UnknownActionId(f"{action!r} has no action id")

    def _trade_id(self, a: ProposeTrade) -> int:
        n = self.num_players
        offset = (a.to - a.player) % n
        fine = self.edition.jail_fine
        if len(a.take_squares) == 1 and not (
            a.give_squares or a.take_cash or a.give_jail_cards or a.take_jail_cards
        ):
            sq = a.take_squares[0]
            for k, level in enumerate(PRICE_LEVELS):
                if a.give_cash == self._level_price(self.edition.squares[sq].price, level):
                    return _TRADE_BUY_BASE + sq * len(PRICE_LEVELS) + k
        if (
            len(a.give_squares) == 1
            and not (a.take_squares or a.give_cash or a.give_jail_cards or a.take_jail_cards)
            and offset
        ):
            sq = a.give_squares[0]
            for k, level in enumerate(PRICE_LEVELS):
                if a.take_cash == self._level_price(self.edition.squares[sq].price, level):
                    return (
                        _TRADE_SELL_BASE + (sq * _MAX_OTHERS + offset - 1) * len(PRICE_LEVELS) + k
                    )
        if not (a.give_squares or a.take_squares) and offset:
            for k, level in enumerate(PRICE_LEVELS):
                price = self._level_price(fine, level)
                if (a.give_jail_cards, a.take_jail_cards, a.give_cash, a.take_cash) == (
                    1,
                    0,
                    0,
                    price,
                ):
                    return _CARD_SELL_BASE + (offset - 1) * len(PRICE_LEVELS) + k
                if (a.give_jail_cards, a.take_jail_cards, a.give_cash, a.take_cash) == (
                    0,
                    1,
                    price,
                    0,
                ):
                    return _CARD_BUY_BASE + (offset - 1) * len(PRICE_LEVELS) + k
        raise UnknownActionId("only the catalogue trades (one property or card for cash) have ids")

    def action_from_id(self, action_id: int, player: int) -> Action:
        if not 0 <= action_id < NUM_ACTIONS:
            raise UnknownActionId(f"action ids run from 0 to {NUM_ACTIONS - 1}, not {action_id}")
        if action_id < _BID_BASE:
            template = _FIXED[action_id]
            if isinstance(template, ChooseTax):
                return ChooseTax(player, template.percent)
            return type(template)(player)
        if action_id < _SQUARE_BASE:
            top = self.frames[-1] if self.frames else None
            if not isinstance(top, Auction):
                raise UnknownActionId("bid ids have a meaning only during an auction")
            step = BID_STEPS[action_id - _BID_BASE] * self.edition.money_unit
            return Bid(player, max(self._min_raise(top), top.high_bid + step))
        if action_id < _TRADE_BUY_BASE:
            k, sq = divmod(action_id - _SQUARE_BASE, N_SQUARES)
            return _SQUARE_ACTIONS[k](player, sq)  # type: ignore[call-arg]
        levels = len(PRICE_LEVELS)
        n = self.num_players
        if action_id < _TRADE_SELL_BASE:
            sq, k = divmod(action_id - _TRADE_BUY_BASE, levels)
            price = self._level_price(self.edition.squares[sq].price, PRICE_LEVELS[k])
            owner = self.owner[sq]
            return ProposeTrade(
                player, owner if owner >= 0 else player, take_squares=(sq,), give_cash=price
            )
        if action_id < _CARD_SELL_BASE:
            rest, k = divmod(action_id - _TRADE_SELL_BASE, levels)
            sq, off = divmod(rest, _MAX_OTHERS)
            price = self._level_price(self.edition.squares[sq].price, PRICE_LEVELS[k])
            return ProposeTrade(player, (player + off + 1) % n, give_squares=(sq,), take_cash=price)
        base = _CARD_SELL_BASE if action_id < _CARD_BUY_BASE else _CARD_BUY_BASE
        off, k = divmod(action_id - base, levels)
        price = self._level_price(self.edition.jail_fine, PRICE_LEVELS[k])
        to = (player + off + 1) % n
        if base == _CARD_SELL_BASE:
            return ProposeTrade(player, to, give_jail_cards=1, take_cash=price)
        return ProposeTrade(player, to, take_jail_cards=1, give_cash=price)

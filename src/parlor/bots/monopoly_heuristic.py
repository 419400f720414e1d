"""A rule-based player for every property-trading edition, through the public interface only.

It reads the table from the game's public state (:class:`parlor.bots.monopoly_table.Table`, the
same facts as ``game.view(player)`` without building the view's dicts), the board from
``game.edition`` and the rules from ``game.options``; it asks the engine only documented questions
(``legal_actions``, ``is_legal``, ``total_worth``). Its policy:

* buy what it lands on while it keeps a small cash reserve, and always when the property
  completes or blocks a colour group;
* bid in auctions up to what the lot is worth to its seat (:mod:`parlor.bots.monopoly_valuation`:
  group completion as far as it can still build, blocking, cash kept against likely rents);
* build evenly and aggressively where the rent gained per unit spent is highest, lifting the
  mortgages that stand in the way first, and mortgaging lone properties to fund houses; in a
  building shortage, wish for as many as that budget pays for;
* raise funds by whatever costs least in future rent per unit of cash, declaring bankruptcy only
  when the engine says nothing else can pay the debt;
* pick the cheaper income-tax option, leave jail early in the game and stay there late;
* propose at most one trade per turn, completing one of its colour groups at a price the other
  side should find fair (never the same offer twice), and answer trades by comparing what each side
  gains, group completion included as far as the side's money after the trade builds the group
  (:mod:`parlor.bots.monopoly_dealing`), taking only offers that gain it more than the proposer.

Memory (offers made, actions per decision) is kept per game object, so one bot may play many games.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from parlor.bots.monopoly_builds import build_cost, build_gain, build_options, build_spots
from parlor.bots.monopoly_dealing import seat_trade_gain
from parlor.bots.monopoly_estate import (
    LANDINGS,
    Idle,
    idle_span,
    junk_mortgage,
    manage_lots,
    raise_funds,
    still_idle,
)
from parlor.bots.monopoly_table import HOTEL, Board, Deeds, Table, board_for, table_of
from parlor.bots.monopoly_trading import TradeKind, offer_search, trade_gain
from parlor.bots.monopoly_valuation import bid_limit, listed_bid_limit, listed_value, seat_value
from parlor.core.game import Game
from parlor.monopoly.actions import (
    AcceptTrade,
    Action,
    Bid,
    BuyProperty,
    ChooseTax,
    ClaimRent,
    DeclineProperty,
    EndTurn,
    KeepMortgage,
    LiftMortgageNow,
    PassBid,
    PayJailFine,
    PlaceBuilding,
    ProposeTrade,
    RejectTrade,
    RollDice,
    UseJailCard,
    WishBuildings,
    shared,
)

__all__ = ["HOTEL", "LANDINGS", "Board", "Deeds", "MonopolyHeuristicBot", "Table", "board_for"]

#: Decisions whose only answer the interface fixes (``RollDice``, ``EndTurn``), and the debt,
#: whose answer the bot finds from the deeds (:func:`parlor.bots.monopoly_estate.raise_funds`):
#: the bot does not ask the engine to list the answers.
_UNLISTED = frozenset(("start_turn", "roll_again", "end_turn", "raise_funds"))
#: The answers of unlisted decisions (never changed: no decision of those kinds adds to it).
_NO_ANSWERS: list[Action] = []
#: Decisions at which the bot may first take an optional action (trade, build, mortgage).
_MANAGED = frozenset(("start_turn", "roll_again", "end_turn", "jail", "buy_or_auction"))
#: Per player: its ``RollDice`` and ``EndTurn`` (actions are frozen values).
_ROLLS: dict[int, RollDice] = {}
_ENDS: dict[int, EndTurn] = {}
#: The managed decisions with a fixed answer, and where those answers are kept.
_FIXED: dict[str, dict[int, Any]] = {"start_turn": _ROLLS, "roll_again": _ROLLS, "end_turn": _ENDS}


#: The prices the heuristic's trade offers try, as multiples of the lots' prices: the lowest the
#: other side should accept, in quarter steps up to twice the price (a seller's gain grows in
#: small steps with the price; coarser steps overpay by up to half the price).
PRICE_FACTORS = (0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0)
#: The price levels of ``heuristic-v1``.
V1_PRICE_FACTORS = (0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0)


@dataclass(slots=True)
class _Memory:
    offers: set[ProposeTrade]
    last_offer_turn: int
    anytime_count: dict[tuple[Any, ...], int]
    #: Per seat (:data:`_SEATS` of them): where managing its lots last found nothing to do, and
    #: the cash in which it finds nothing while its lots and the bank's stock are as they were.
    idle: list[Idle | None]
    #: Per player: the auctioned lot's :meth:`MonopolyHeuristicBot.bid_limit` with what it
    #: reads (the deeds' version, the lot, the player's cash and square, the players left):
    #: an auction asks each bidder several times with those unchanged.
    bids: dict[int, tuple[int, int, int, int, int, float]]
    #: At least the highest of ``anytime_count``'s counts: below ``max_anytime``, no decision
    #: has reached the limit, and the key is made only when an action is counted.
    top_count: int


#: The most seats a game has (``parlor.core.validate.MAX_SEATS``; the turn's key, ``round * 16
#: + seat``, counts on it too): the length of the per-seat lists of the memory.
_SEATS = 16


def _count_key(game: Any, table: Table, player: int, kind: str) -> tuple[int, int, str, int]:
    """The decision whose optional actions ``anytime_count`` counts (a lot offered is one
    decision per log entry)."""
    return (table.round, player, kind, len(game.log) if kind == "buy_or_auction" else 0)


def _fixed_answer(fixed: dict[int, Any], player: int) -> Action:
    """The turn's fixed answer of ``player`` (a throw or the end), made once per player."""
    answer: Action
    try:  # (cheaper than get() where the answer is made: all but the first)
        answer = fixed[player]
    except KeyError:
        answer = fixed[player] = EndTurn(player) if fixed is _ENDS else RollDice(player)
    return answer


class MonopolyHeuristicBot:
    """The rule-based property-game player described in the module docstring.

    Parameters (all optional): ``reserve`` (cash kept back, as a fraction of the starting cash),
    ``build_reserve`` (the same when building), ``trade`` (propose trades), ``trade_weight``
    (how much the other side's gain counts against a trade, in games of three or more;
    ``accept_weight`` and ``propose_weight`` override it for answering and for choosing its own
    offers; ``accept_weight`` is 1 by default: it takes an offer only when it gains more than the
    proposer), ``price_factors`` (the prices its offers try, as multiples of the lots' prices),
    ``max_anytime`` (most optional actions at one decision, a guard against loops),
    ``seat_trades`` (value trades by what a completed group does for the seat that gets it,
    :mod:`parlor.bots.monopoly_dealing`), ``v1`` (the bot kind ``heuristic-v1``: lots valued for
    auctions, buying and trades as before issue 20, answering with ``trade_weight``, the old
    price factors).
    """

    name = "heuristic"

    def __init__(
        self,
        seed: int | None = None,
        *,
        reserve: float = 0.05,
        build_reserve: float = 0.1,
        trade: bool = True,
        trade_weight: float = 0.5,
        accept_weight: float | None = None,
        propose_weight: float | None = None,
        price_factors: tuple[float, ...] | None = None,
        max_anytime: int = 60,
        v1: bool = False,
        seat_trades: bool | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.reserve = reserve
        self.build_reserve = build_reserve
        self.trade = trade
        self.trade_weight = trade_weight
        if accept_weight is None:
            accept_weight = trade_weight if v1 else 1.0
        self.accept_weight = accept_weight
        self.propose_weight = trade_weight if propose_weight is None else propose_weight
        if price_factors is None:
            price_factors = V1_PRICE_FACTORS if v1 else PRICE_FACTORS
        self.price_factors = price_factors
        self.max_anytime = max_anytime
        # The valuation before issue 20 (bot kind ``heuristic-v1``), kept for comparisons.
        self.v1 = v1
        # Trades valued by what a completed group does for the seat (monopoly_dealing).
        self.seat_trades = not v1 if seat_trades is None else seat_trades
        self.name = "heuristic-v1" if v1 else "heuristic"
        # The trade search's key for its parameters (monopoly_trading.bot_kind).
        self._trade_kind: tuple[tuple[float, ...], float, TradeKind, bool] | None = None
        # The game of the memory (held: a compiled game cannot be weakly referenced).
        self._game: Any = None
        self._memory = _Memory(set(), -1, {}, [None] * _SEATS, {}, 0)

    # ----- memory ------------------------------------------------------------------------------
    def _memory_for(self, game: Any) -> _Memory:
        if self._game is not game:
            self._game = game
            self._memory = _Memory(set(), -1, {}, [None] * _SEATS, {}, 0)
        return self._memory

    # ----- the entry point ---------------------------------------------------------------------
    def choose(self, game: Game[Any], player: int) -> Action:
        pending = game.pending
        if pending is None or pending.player != player:
            raise ValueError(f"player {player} has no decision to take")
        kind = pending.kind
        fixed = _FIXED.get(kind)
        if fixed is not None:
            # The turn's start, a throw again, its end: most decisions, with a fixed answer and
            # no info to read. The any-time actions first (none at most), the answer made once
            # per player; with rent claims, or once an action was counted near the limit, the
            # general path below.
            if self._game is not game:  # (_memory_for, inlined: asked at every decision)
                self._memory_for(game)
            memory = self._memory
            table = table_of(game)
            if not table.board.rent_claim and memory.top_count < self.max_anytime:
                extra = self._manage_turn(game, table, player, memory, kind)
                if extra is not None:
                    return self._counted(game, table, player, kind, memory, extra)
                answer: Action
                try:  # (_fixed_answer written out: most decisions end here)
                    answer = fixed[player]
                except KeyError:
                    answer = fixed[player] = EndTurn(player) if fixed is _ENDS else RollDice(player)
                return answer
        answers: list[Action] = _NO_ANSWERS
        if fixed is None and kind not in _UNLISTED:
            if kind == "answer_trade":
                # (answered without the list where no rent claim comes first)
                table = table_of(game)
                if not table.board.rent_claim:
                    return self._answer(game, table, player, pending.info)
            answers = game.legal_actions(player, anytime=False)
            if len(answers) == 1 and kind not in ("jail", "buy_or_auction"):
                return answers[0]
        if self._game is not game:  # (_memory_for, inlined: asked at every decision)
            self._memory_for(game)
        memory = self._memory
        table = table_of(game)
        board = table.board

        # Collect rent owed as soon as possible (rent-claim option).
        if board.rent_claim and self._claims_rent(game, player):
            claim = ClaimRent(player)
            if game.is_legal(claim):
                return claim

        info: Any = None  # (a Mapping past the fixed kinds)
        if fixed is None:
            info = pending.info
            if kind == "raise_funds":
                return raise_funds(game, table, player, int(info["amount"]))
        if fixed is not None or kind in _MANAGED:  # (and the jail, a lot to buy)
            # (the managed decisions are the turn's own: ``player`` is the dice holder,
            # ``game.current_player``, whose property is not asked)
            counts = memory.anytime_count
            limit = self.max_anytime
            extra = None
            if (
                memory.top_count < limit
                or counts.get(_count_key(game, table, player, kind), 0) < limit
            ):
                extra = self._manage(game, table, player, memory, kind, info)
            if extra is not None:
                return self._counted(game, table, player, kind, memory, extra)
            if fixed is not None:
                return _fixed_answer(fixed, player)
        if kind == "jail":
            return self._jail(game, table, player, answers)
        if kind == "buy_or_auction":
            sq = int(info["square"])
            if shared(BuyProperty, player) in answers and self._wants_to_buy(table, player, sq):
                return shared(BuyProperty, player)
            return shared(DeclineProperty, player)
        if kind == "bid":
            return self._bid(table, player, info, answers)
        if kind == "tax_choice":
            return self._tax(game, player, info, answers)
        if kind == "answer_trade":
            return self._answer(game, table, player, info)
        if kind == "mortgaged_property":
            sq = int(info["square"])
            lift = LiftMortgageNow(player, sq)
            cost = board.lift_cost[sq]
            if lift in answers and (
                table.owns_group(player, sq) or table.cash[player] - cost >= self._reserve(table)
            ):
                return lift
            return KeepMortgage(player, sq)
        if kind == "building_wish":
            return self._wish(table, player, info, answers)
        if kind == "place_building":
            return max(
                answers,
                key=lambda a: build_gain(table, a.square) if isinstance(a, PlaceBuilding) else -1.0,
            )
        return answers[0] if answers else self.rng.choice(game.legal_actions(player))

    @staticmethod
    def _counted(
        game: Any, table: Table, player: int, kind: str, memory: _Memory, extra: Action
    ) -> Action:
        """``extra``, an optional action taken at a decision, counted against ``max_anytime``."""
        counts = memory.anytime_count
        key = _count_key(game, table, player, kind)
        count = counts.get(key, 0) + 1
        if len(counts) > 256:
            counts.clear()
            memory.top_count = 0
        counts[key] = count
        if count > memory.top_count:
            memory.top_count = count
        return extra

    @staticmethod
    def _claims_rent(game: Any, player: int) -> bool:
        """Whether ``player`` is owed a rent it may claim (rent-claim option)."""
        claims = getattr(game, "claims", None)
        if claims is None:
            claims = game.view(player)["rent_claims"]
        return any(c[1] == player for c in claims)

    def _answer(self, game: Any, table: Table, player: int, info: Any) -> Action:
        """The answer to a trade offer (the decision's ``info``), without listing the answers:
        rejecting is always legal, accepting is asked only when the gain is positive."""
        gain = self.answer_gain(table, int(info["from"]), player, info["offer"])
        if gain > 0:
            accept = shared(AcceptTrade, player)
            if game.is_legal(accept):
                return accept
        return shared(RejectTrade, player)

    def answer_gain(self, table: Table, proposer: int, to: int, offer: Any) -> float:
        """How good ``proposer``'s ``offer`` (the view's offer dict) is for ``to`` by this bot's
        answer: it accepts when the gain is positive."""
        gain = seat_trade_gain if self.seat_trades else trade_gain
        return gain(self, table, proposer, to, offer, answering=True, weight=self.accept_weight)

    # ----- cash policy -------------------------------------------------------------------------
    def _danger(self, table: Table, player: int) -> int:
        """The highest rent an opponent's property could charge now."""
        return table.danger(player)

    def _reserve(self, table: Table) -> int:
        start = table.board.starting_cash
        return int(self.reserve * start)

    def _build_reserve(self, table: Table, player: int) -> int:
        # (max() written out, and the danger asked of the table: asked at every build)
        floor = self.build_reserve * table.board.starting_cash
        danger = 0.25 * table.danger(player)
        return int(danger if danger > floor else floor)

    # ----- valuing a property ------------------------------------------------------------------
    def property_value(self, table: Table, player: int, sq: int) -> float:
        """What ``sq`` is worth to ``player`` bought at its price (see
        :mod:`parlor.bots.monopoly_valuation`; ``heuristic-v1``: the old flat valuation)."""
        if self.v1:
            return listed_value(table, player, sq)
        return seat_value(table, player, sq, table.board.price[sq], self._reserve(table))

    def _wants_to_buy(self, table: Table, player: int, sq: int) -> bool:
        price = table.board.price[sq]
        left = table.cash[player] - price
        if self.property_value(table, player, sq) > price * 1.3:
            return left >= 0
        return left >= self._reserve(table)

    def bid_limit(self, table: Table, player: int, sq: int) -> float:
        """The most ``player`` bids for the lot ``sq`` in an auction."""
        if self.v1:
            return listed_bid_limit(table, player, sq, self.reserve)
        return bid_limit(table, player, sq, self.reserve)

    def _bid(self, table: Table, player: int, info: Any, answers: list[Action]) -> Action:
        item = info["item"]
        sq = int(info["square"])
        cash = table.cash[player]
        limit: float
        if item == "property":
            version = table.deeds.version
            position = table.position[player]
            active = table.n_active()
            bids = self._memory.bids  # (keyed by the deeds' version: unique in the process)
            known = bids.get(player)
            if (
                known is not None
                and known[0] == version
                and known[1] == sq
                and known[2] == cash
                and known[3] == position
                and known[4] == active
            ):
                limit = known[5]
            else:
                limit = self.bid_limit(table, player, sq)
                bids[player] = (version, sq, cash, position, active, limit)
        else:
            # Lots that could take the auctioned building (it is out of the bank's stock while
            # auctioned, so the stock is not asked).
            top = table.board.max_level - 1
            spots = [
                s
                for s in build_spots(table, player)
                if (table.level(s) == top) == (item == "hotel")
            ]
            if not spots:
                return shared(PassBid, player)
            cost = max(build_cost(table, s) for s in spots)
            limit = min(1.5 * cost, cash - self._reserve(table))
        # Raise by about a tenth of the lot's price (the auction ends in a few rounds), never
        # beyond the limit.
        step = 1
        if item == "property" and table.board.price[sq] // 10 > 1:
            step = table.board.price[sq] // 10
        raised = int(info["high_bid"]) + step
        target = raised if raised < limit else limit  # (min(), written out)
        # In one plain loop over the bids, not sorted (the choices are those of a stable sort
        # by amount): the lowest (the first of equal ones), and the dearest within the target
        # (the first of equal ones).
        lowest: Bid | None = None
        best: Bid | None = None
        least = dearest = 0  # (their amounts)
        for a in answers:
            if isinstance(a, Bid):
                amount = a.amount
                if lowest is None or amount < least:
                    lowest, least = a, amount
                if amount <= target and (best is None or amount > dearest):
                    best, dearest = a, amount
        if lowest is None or least > limit:
            return shared(PassBid, player)
        return lowest if best is None else best

    def _wish(self, table: Table, player: int, info: Any, answers: list[Action]) -> Action:
        """Building shortage: as many of the scarce buildings as its cash above the building
        reserve pays for at its cheapest lot that can take one (within the legal counts)."""
        wishes = sorted((a for a in answers if isinstance(a, WishBuildings)), key=lambda a: a.count)
        top = table.board.max_level - 1
        hotel = info["item"] == "hotel"
        costs = [
            build_cost(table, s)
            for s in build_spots(table, player)
            if (table.level(s) == top) == hotel
        ]
        budget = table.cash[player] - self._build_reserve(table, player)
        want = budget // min(costs) if costs and budget > 0 else 0
        return next((a for a in reversed(wishes) if a.count <= want), wishes[0])

    # ----- tax and jail ------------------------------------------------------------------------
    def _tax(self, game: Any, player: int, info: Any, answers: list[Action]) -> Action:
        flat = int(info.get("flat", 0))
        percent = int(info.get("percent", 10))
        by_percent = game.total_worth(player) * percent // 100
        choice = ChooseTax(player, by_percent < flat)
        return choice if choice in answers else answers[0]

    def _jail(self, game: Any, table: Table, player: int, answers: list[Action]) -> Action:
        b = table.board
        # (from the deeds: the lots owned are their players' lists, and buildings stand only
        # in the groups they say are built, or on a lot of no group)
        owner, buildings = table.owner, table.buildings
        deeds = table.deeds
        unowned = len(b.properties)
        for lots in deeds.owned:
            unowned -= len(lots)
        danger = i_earn = False
        for gi, has in enumerate(deeds.built_groups()):
            if has:
                for s in b.groups[gi]:
                    if buildings[s]:
                        if owner[s] == player:
                            i_earn = True
                        else:
                            danger = True
        for s in b.ungrouped:
            if buildings[s]:
                if owner[s] == player:
                    i_earn = True
                else:
                    danger = True
        early = unowned >= len(b.properties) // 3
        leave = early or not danger or (i_earn and not b.rent_while_jailed)
        if leave:
            for a in (UseJailCard(player), PayJailFine(player)):
                if a in answers and (
                    isinstance(a, UseJailCard)
                    or table.cash[player] - b.jail_fine >= self._reserve(table)
                ):
                    return a
        return shared(RollDice, player)

    # ----- any-time management: trades, mortgages, building ------------------------------------
    def _manage(
        self, game: Any, table: Table, player: int, memory: _Memory, kind: str, info: Any
    ) -> Action | None:
        if kind == "buy_or_auction":
            # Mortgage a lone property to buy one that completes a group.
            b = table.board
            sq = int(info["square"])
            price = b.price[sq]
            if table.cash[player] < price and self.property_value(table, player, sq) > price * 1.3:
                junk = sum(
                    b.mortgage[s]
                    for s in table.owned(player)
                    if not table.mortgaged[s]
                    and not table.group_built(s)
                    and not (b.kind[s] == "street" and table.owns_group(player, s))
                )
                if table.cash[player] + junk >= price:
                    return junk_mortgage(table, player)
            return None
        return self._manage_turn(game, table, player, memory, kind)

    def _manage_turn(
        self, game: Any, table: Table, player: int, memory: _Memory, kind: str
    ) -> Action | None:
        """:meth:`_manage` at the turn's own decisions (not a lot to buy)."""
        # (two comparisons: cheaper than a tuple's ``in``)
        if (kind == "start_turn" or kind == "end_turn") and self.trade:
            turn = table.round * 16 + player
            if memory.last_offer_turn != turn:
                # (seat_best_offer, or best_offer with the plain measure: one direct call, not
                # made when offer_search's first test, written out here, finds no target: most
                # turns' starts and ends)
                targets = table.deeds._offer_targets[player]
                offer = (
                    None
                    if targets is not None and not targets
                    else offer_search(self, game, table, player, memory.offers, self.seat_trades)
                )
                memory.last_offer_turn = turn
                if offer is not None:
                    memory.offers.add(offer)
                    if len(memory.offers) > 2000:
                        memory.offers.clear()
                    return offer
        # Lifts, builds and mortgages: none while the cash stays in the span where its lots
        # and the bank's stock as they are gave none (found at the first such answer).
        idle = memory.idle[player]
        version = table.deeds.version
        options: list[tuple[int, int, float]] | None = None
        if idle is None or idle.version != version:
            options = build_options(table, player)
            if not options and not table.has_mortgaged(player):
                # (nothing to build or lift: nothing at any cash while the version holds)
                if idle is None or not idle.bare:
                    memory.idle[player] = Idle(version, True, True, 0, 0, [], -1, -1, True)
                else:
                    idle.version = version
                return None
            if idle is not None and (idle.bare or not still_idle(self, table, player, idle)):
                idle = None
        elif idle.bare:
            return None
        if (
            idle is not None
            and idle.houses == (table.bank_houses > 0)
            and idle.hotels == (table.bank_hotels > 0)
        ):
            if idle.lo <= table.cash[player] < idle.hi:
                return None
            return manage_lots(self, table, player, options)
        action = manage_lots(self, table, player, options)
        if action is None:
            memory.idle[player] = idle_span(self, table, player, options)
        return action

"""The property-trading rules engine: one engine, every edition as data.

>>> from parlor import monopoly
>>> game = monopoly.new_game("classic", players=["Ann", "Bo"], seed=7)
>>> game.pending.kind, game.pending.player
('start_turn', 1)
>>> events = game.apply(monopoly.RollDice(1))
>>> events[0].kind
'dice'
>>> game.apply(monopoly.Build(0, square=39))
Traceback (most recent call last):
...
parlor.core.errors.IllegalAction: Ann does not own Boardwalk
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from parlor.core.errors import (
    IllegalAction,
    MalformedAction,
    NotYourDecision,
    SettingsError,
    UnknownActionId,
)
from parlor.core.game import Decision, Event, Game, Outcome
from parlor.monopoly.actions import (
    ACTION_TYPES,
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
from parlor.monopoly.edition import Card, Edition, edition_from_save, load_edition, saved_edition
from parlor.monopoly.frames import (
    BANK,
    POT,
    Auction,
    BankAuctions,
    BuyChoice,
    Debt,
    Frame,
    MortgagedReceived,
    Move,
    PlaceBuildingChoice,
    TaxChoice,
    TradeOffer,
    Turn,
)
from parlor.monopoly.rules import RuleOptions

HOTEL = 5  # buildings[square] == HOTEL means a hotel stands there
N_SQUARES = 40

# ----- the integer action space ---------------------------------------------------------------
# Ids never change meaning: a fixed block of answers, a ladder of bid raises (relative to the
# current high bid), per-square blocks, and a catalogue of simple trades at price levels.
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
BID_STEPS = (1, 5, 10, 25, 50, 100, 250, 500)  # times the edition's money unit
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


def _debt_event(kind: str, debt: Debt, square: int | None = None) -> Event:
    """A "paid" or "debt" event; ``square`` names the property a rent is for."""
    data: dict[str, Any] = {
        "player": debt.debtor,
        "to": debt.creditor,
        "amount": debt.amount,
        "reason": debt.reason,
    }
    if square is not None:
        data["square"] = square
    return Event(kind, data)


def new_game(
    edition: str | Edition = "classic",
    players: int | Sequence[str] = 4,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
) -> PropertyGame:
    """Start a game of ``edition`` (an id such as ``"matador"``, a file path, or an Edition)."""
    return PropertyGame(edition, players, seed, options)


class PropertyGame(Game[Action]):
    """A game of one property-trading edition. See the package docstring for the interface."""

    game_name: ClassVar[str] = "monopoly"
    action_types: ClassVar[Mapping[str, type]] = ACTION_TYPES

    def __init__(
        self,
        edition: str | Edition = "classic",
        players: int | Sequence[str] = 4,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self.edition = edition if isinstance(edition, Edition) else load_edition(edition)
        ed = self.edition
        self.options = RuleOptions.for_edition(ed, options)
        names = self._players_from(players)
        if not ed.min_players <= len(names) <= ed.max_players:
            raise SettingsError(
                f"{ed.title} is played by {ed.min_players} to {ed.max_players} players, "
                f"not {len(names)}"
            )
        self.names = names
        self.seed = self._seed_from(seed)
        self.settings = {
            # A bundled edition by its id, any other by its data (a save opens no file).
            "edition": saved_edition(ed),
            "players": list(names),
            "options": {k: v for k, v in (options or {}).items()},
        }
        self.log = []
        self.rng = random.Random(self.seed)
        n = len(names)
        self.cash = [ed.starting_cash] * n
        self.position = [ed.go_square] * n
        self.in_jail = [False] * n
        self.jail_turns = [0] * n
        self.jail_cards: list[list[int]] = [[] for _ in range(n)]
        self.bankrupt = [False] * n
        self.bankrupt_order: list[int] = []
        self.owner = [-1] * N_SQUARES
        self.mortgaged = [False] * N_SQUARES
        self.buildings = [0] * N_SQUARES
        self.houses_left = ed.houses
        self.hotels_left = ed.hotels
        self.pot = 0
        self.bank_flow = 0  # money the bank paid out minus money it took in
        self.doubles = 0
        self.round = 0
        self.turns_taken = 0
        self.last_dice: tuple[int, int] | None = None
        self.claims: list[list[int]] = []  # [payer, owner, amount, square, lapses_on_throw_of]
        self._outcome: Outcome | None = None
        self.decks: dict[str, list[int]] = {d: [] for d in ed.decks}
        for card in ed.cards:
            self.decks[card.deck].append(card.id)
        self.frames: list[Frame] = []
        self.setup_events: list[Event] = []
        self._setup()

    # ----- setup -------------------------------------------------------------------------------
    def _setup(self) -> None:
        ev = self.setup_events
        for deck in self.decks.values():
            self.rng.shuffle(deck)
        n = self.num_players
        first = 0
        if self.options.roll_for_first_player:
            contenders = list(range(n))
            while len(contenders) > 1:
                throws = {p: self.rng.randint(1, 6) + self.rng.randint(1, 6) for p in contenders}
                ev.append(Event("first_throw", {"throws": {str(p): t for p, t in throws.items()}}))
                best = max(throws.values())
                contenders = [p for p in contenders if throws[p] == best]
            first = contenders[0]
        self.first_player = first
        ev.append(Event("first_player", {"player": first}))
        if self.options.starting_deeds:
            deeds = list(self.edition.property_squares)
            self.rng.shuffle(deeds)
            for _ in range(self.options.starting_deeds):
                for k in range(n):
                    p = (first + k) % n
                    sq = deeds.pop()
                    self.owner[sq] = p
                    price = (
                        self.edition.squares[sq].price if self.options.starting_deeds_paid else 0
                    )
                    self._pay(p, BANK, price)
                    ev.append(Event("deed_dealt", {"player": p, "square": sq, "paid": price}))
        self.frames.append(Turn(first))

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any], seed: int) -> PropertyGame:
        if not isinstance(settings, Mapping) or not {"edition", "players"} <= set(settings):
            raise SettingsError("the settings of a property game name its edition and players")
        edition = edition_from_save(settings["edition"])
        return cls(edition, settings["players"], seed, settings.get("options") or {})

    # ----- basic queries -----------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self.names)

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def active_players(self) -> list[int]:
        return [p for p in range(self.num_players) if not self.bankrupt[p]]

    @property
    def anytime_open(self) -> bool:
        """May "any time" actions (build, mortgage, trade...) be taken now? Not while a trade
        awaits its answer, a received mortgage awaits a decision, or a won building awaits a lot."""
        return self._outcome is None and bool(self.frames) and self.frames[-1].anytime_ok

    @property
    def current_player(self) -> int:
        """Whose turn it is (the dice holder), whatever decision is pending."""
        return self.frames[0].decider() if self.frames else -1

    @property
    def pending(self) -> Decision | None:
        if self._outcome is not None or not self.frames:
            return None
        top = self.frames[-1]
        p = top.decider()
        if isinstance(top, Turn):
            if top.phase == "post_roll":
                return Decision(p, "end_turn")
            if self.in_jail[p]:
                return Decision(p, "jail", {"turns_in_jail": self.jail_turns[p]})
            return Decision(p, "roll_again" if self.doubles else "start_turn")
        if isinstance(top, BuyChoice):
            return Decision(
                p,
                "buy_or_auction",
                {"square": top.square, "price": self.edition.squares[top.square].price},
            )
        if isinstance(top, Auction):
            return Decision(
                p,
                "bid",
                {
                    "item": top.item,
                    "square": top.square,
                    "high_bid": top.high_bid,
                    "high_bidder": top.high_bidder,
                    "min_bid": self._min_raise(top),
                },
            )
        if isinstance(top, TaxChoice):
            sq = self.edition.squares[top.square]
            return Decision(
                p,
                "tax_choice",
                {"square": top.square, "flat": sq.tax, "percent": self.edition.income_tax_percent},
            )
        if isinstance(top, Debt):
            return Decision(
                p,
                "raise_funds",
                {"amount": top.amount, "creditor": top.creditor, "reason": top.reason},
            )
        if isinstance(top, TradeOffer):
            return Decision(
                p, "answer_trade", {"from": top.proposer, "offer": self._offer_dict(top)}
            )
        if isinstance(top, MortgagedReceived):
            return Decision(p, "mortgaged_property", {"square": top.squares[0]})
        if isinstance(top, PlaceBuildingChoice):
            return Decision(p, "place_building", {"item": top.item})
        raise AssertionError(f"no decision for frame {top!r}")  # pragma: no cover

    def name_of(self, square: int) -> str:
        return self.edition.square_name(square)

    def money(self, amount: int) -> str:
        return self.edition.format_money(amount)

    # ----- money ---------------------------------------------------------------------------------
    def _pay(self, frm: int, to: int, amount: int) -> None:
        if amount <= 0:
            return
        if frm == BANK:
            self.bank_flow += amount
        elif frm == POT:
            self.pot -= amount
        else:
            self.cash[frm] -= amount
        if to == BANK:
            self.bank_flow -= amount
        elif to == POT:
            self.pot += amount
        else:
            self.cash[to] += amount

    def _fee_sink(self) -> int:
        """Where taxes and fines go: the bank, or the Free Parking pot under that house rule."""
        return POT if self.options.free_parking_pot else BANK

    def _charge(
        self,
        debtor: int,
        creditor: int,
        amount: int,
        reason: str,
        ev: list[Event],
        square: int | None = None,
    ) -> None:
        """Make ``debtor`` pay now, or leave a debt to be settled (raise funds or go bankrupt).

        ``square`` names the property a rent is for, in the event."""
        if amount <= 0:
            return
        debt = Debt(debtor, creditor, amount, reason)
        if self.cash[debtor] >= amount:
            self._pay(debtor, creditor, amount)
            ev.append(_debt_event("paid", debt, square))
        else:
            self.frames.append(debt)
            ev.append(_debt_event("debt", debt, square))

    # ----- valuations --------------------------------------------------------------------------
    def building_cost_value(self, square: int) -> int:
        """What the buildings on ``square`` cost (a hotel: its price plus the houses turned in)."""
        b = self.buildings[square]
        cost = self.edition.squares[square].house_cost
        if b == HOTEL:
            return self.edition.hotel_cost(square) + self.options.hotel_after_houses * cost
        return b * cost

    def total_worth(self, player: int) -> int:
        """Cash, printed prices of all properties (mortgaged or not) and the cost of buildings:
        the income-tax and Matador-legat measure."""
        worth = self.cash[player]
        for sq in self.edition.property_squares:
            if self.owner[sq] == player:
                worth += self.edition.squares[sq].price + self.building_cost_value(sq)
        return worth

    def valuation(self, player: int) -> int:
        """The short game's valuation: cash, printed prices, mortgaged at half, buildings at cost."""
        if self.bankrupt[player]:
            return 0
        worth = self.cash[player]
        for sq in self.edition.property_squares:
            if self.owner[sq] == player:
                price = self.edition.squares[sq].price
                worth += price // 2 if self.mortgaged[sq] else price
                worth += self.building_cost_value(sq)
        return worth

    def liquidation_value(self, player: int) -> int:
        """Cash the player could raise from the bank: buildings at half, then every mortgage."""
        total = 0
        for sq in self.edition.property_squares:
            if self.owner[sq] == player:
                total += self._building_sale_value(sq)
                if not self.mortgaged[sq]:
                    total += self.edition.squares[sq].mortgage
        return total

    def _building_sale_value(self, square: int) -> int:
        b = self.buildings[square]
        half_house = self.edition.squares[square].house_cost // 2
        if b == HOTEL:
            return (
                self.edition.hotel_cost(square) // 2 + self.options.hotel_after_houses * half_house
            )
        return b * half_house

    # ----- groups and buildings ----------------------------------------------------------------
    def group_of(self, square: int) -> tuple[int, ...]:
        group = self.edition.squares[square].group
        return self.edition.groups[group] if group else (square,)

    def owns_group(self, player: int, square: int) -> bool:
        return all(self.owner[s] == player for s in self.group_of(square))

    def _level(self, square: int) -> int:
        b = self.buildings[square]
        return self.options.hotel_after_houses + 1 if b == HOTEL else b

    def group_has_buildings(self, square: int) -> bool:
        return any(self.buildings[s] for s in self.group_of(square))

    def _build_problem(self, player: int, square: int, check_stock: bool = True) -> str | None:
        """Why ``player`` may not put the next building on ``square`` (None: they may)."""
        ed = self.edition
        if not 0 <= square < N_SQUARES:
            return f"there is no square {square}"
        sq = ed.squares[square]
        if sq.kind != "street":
            return f"{self.name_of(square)} is not a street: nothing can be built there"
        if self.owner[square] != player:
            return f"{self.names[player]} does not own {self.name_of(square)}"
        if not self.owns_group(player, square):
            return f"{self.names[player]} does not own the whole colour group of {self.name_of(square)}"
        group = self.group_of(square)
        if any(self.mortgaged[s] for s in group):
            return "a property of the group is mortgaged: lift the mortgage before building"
        level = self._level(square)
        h = self.options.hotel_after_houses
        if level > h:
            return f"{self.name_of(square)} already has a hotel"
        if level > min(self._level(s) for s in group):
            return "build evenly: every lot of the group needs as many houses first"
        hotel = level == h
        if check_stock and not self.options.unlimited_buildings:
            if hotel and self.hotels_left == 0:
                return "the bank has no hotels left: wait until one is returned"
            if not hotel and self.houses_left == 0:
                return "the bank has no houses left: wait until some are returned"
        return None

    def _build_cost(self, square: int) -> int:
        if self._level(square) == self.options.hotel_after_houses:
            return self.edition.hotel_cost(square)
        return self.edition.squares[square].house_cost

    def _item_for(self, square: int) -> str:
        return "hotel" if self._level(square) == self.options.hotel_after_houses else "house"

    def _buildable_squares(self, player: int, item: str | None = None) -> list[int]:
        out = []
        for sq in self.edition.property_squares:
            if (
                self.owner[sq] == player
                and self._build_problem(player, sq, check_stock=False) is None
                and (item is None or self._item_for(sq) == item)
            ):
                out.append(sq)
        return out

    def _shortage_bidders(self, item: str) -> list[int] | None:
        """Players who want (can place and afford) a scarce building, when they outnumber the
        bank's stock: then the building is auctioned (BUILDING SHORTAGES)."""
        if not self.options.building_shortage_auction or self.options.unlimited_buildings:
            return None
        stock = self.hotels_left if item == "hotel" else self.houses_left
        if stock == 0 or stock >= self.num_players:
            return None
        wanting = []
        for p in self.active_players:
            squares = self._buildable_squares(p, item)
            if any(self.cash[p] >= self._build_cost(sq) for sq in squares):
                wanting.append(p)
        return wanting if len(wanting) >= 2 and stock < len(wanting) else None

    def _take_from_stock(self, item: str, count: int) -> None:
        if item == "hotel":
            self.hotels_left -= count
        else:
            self.houses_left -= count

    def _return_reserved(self, frames: Iterable[Frame]) -> None:
        """Put back in the bank's stock the buildings that ``frames`` (being dropped) held: one
        being auctioned, or won and not yet placed."""
        for frame in frames:
            if (isinstance(frame, Auction) and frame.item != "property") or isinstance(
                frame, PlaceBuildingChoice
            ):
                self._take_from_stock(frame.item, -1)

    def _place_building(self, player: int, square: int, ev: list[Event], cost: int | None) -> None:
        """Build on ``square`` for ``cost`` (``None``: the building's price, taken from the bank's
        stock; a number: the building won at auction, already out of the stock)."""
        h = self.options.hotel_after_houses
        price = self._build_cost(square) if cost is None else cost
        self._pay(player, BANK, price)
        unlimited = self.options.unlimited_buildings
        from_stock = 1 if cost is None and not unlimited else 0
        if self._level(square) == h:
            self.buildings[square] = HOTEL
            if not unlimited:
                self.hotels_left -= from_stock
                self.houses_left += h
            ev.append(Event("hotel_built", {"player": player, "square": square, "cost": price}))
        else:
            self.buildings[square] += 1
            if not unlimited:
                self.houses_left -= from_stock
            ev.append(Event("house_built", {"player": player, "square": square, "cost": price}))

    # ----- rent --------------------------------------------------------------------------------
    def rent(
        self,
        square: int,
        dice_total: int,
        rent_multiplier: int = 1,
        dice_multiplier: int | None = None,
    ) -> int:
        """The rent a visitor owes the owner of ``square`` now (0 if unowned or mortgaged)."""
        owner = self.owner[square]
        if owner < 0 or self.mortgaged[square]:
            return 0
        sq = self.edition.squares[square]
        if sq.kind == "street":
            b = self.buildings[square]
            if b:
                amount = sq.rents[b]
            else:
                amount = sq.rents[0] * (2 if self.owns_group(owner, square) else 1)
        else:
            owned = sum(1 for s in self.group_of(square) if self.owner[s] == owner)
            if sq.kind == "railroad":
                amount = sq.rents[owned - 1]
            else:
                amount = (dice_multiplier or sq.rents[owned - 1]) * dice_total
        return amount * rent_multiplier

    # ----- legality ----------------------------------------------------------------------------
    def _check(self, action: Action) -> None:
        if not isinstance(action, Action):
            raise MalformedAction(f"{action!r} is not an action of this game")
        p = action.player
        if not isinstance(p, int) or not 0 <= p < self.num_players:
            raise MalformedAction(f"there is no player {p!r}")
        if self.bankrupt[p]:
            raise IllegalAction(f"{self.names[p]} is bankrupt and out of the game")
        if action.anytime:
            top = self.frames[-1]
            if not top.anytime_ok:
                raise IllegalAction(
                    f"{self.names[top.decider()]} must answer first ({self.pending.kind})"  # type: ignore[union-attr]
                )
            self._check_anytime(action)
            return
        top = self.frames[-1]
        decider = top.decider()
        if p != decider:
            raise NotYourDecision(
                f"it is {self.names[decider]}'s decision ({self.pending.kind}), "  # type: ignore[union-attr]
                f"not {self.names[p]}'s"
            )
        problem = self._answer_problem(action, top)
        if problem:
            raise IllegalAction(problem)

    def _answer_problem(self, action: Action, top: Frame) -> str | None:
        p = action.player
        name = self.names[p]
        ed = self.edition
        if isinstance(top, Turn):
            if isinstance(action, RollDice):
                return None if top.phase == "pre_roll" else f"{name} has thrown: end the turn"
            if isinstance(action, EndTurn):
                return None if top.phase == "post_roll" else f"{name} must throw the dice first"
            if isinstance(action, PayJailFine | UseJailCard):
                if top.phase != "pre_roll" or not self.in_jail[p]:
                    return f"{name} is not in jail"
                if isinstance(action, UseJailCard):
                    return None if self.jail_cards[p] else f"{name} has no get-out-of-jail card"
                if self.jail_turns[p] >= self.options.jail_fine_turns:
                    return (
                        f"the fine may be paid before throwing only on the first "
                        f"{self.options.jail_fine_turns} turn(s) in jail: throw the dice"
                    )
                if self.cash[p] < ed.jail_fine:
                    return f"{name} has {self.money(self.cash[p])}, the fine is {self.money(ed.jail_fine)}"
                return None
            return f"{name} must {'throw the dice' if top.phase == 'pre_roll' else 'end the turn'}"
        if isinstance(top, BuyChoice):
            if isinstance(action, BuyProperty):
                price = ed.squares[top.square].price
                if self.cash[p] < price:
                    return (
                        f"{name} has {self.money(self.cash[p])}, {self.name_of(top.square)} "
                        f"costs {self.money(price)}: raise cash first or decline"
                    )
                return None
            if isinstance(action, DeclineProperty):
                return None
            return f"{name} must buy {self.name_of(top.square)} or decline it"
        if isinstance(top, Auction):
            if isinstance(action, PassBid):
                return None
            if isinstance(action, Bid):
                if not isinstance(action.amount, int):
                    return "a bid is a whole amount"
                low = self._min_raise(top)
                if action.amount < low:
                    return f"the bid must be at least {self.money(low)}"
                if action.amount > self.cash[p]:
                    return f"{name} cannot bid more than the {self.money(self.cash[p])} in hand"
                return None
            return f"{name} must bid or pass in the auction"
        if isinstance(top, TaxChoice):
            return (
                None if isinstance(action, ChooseTax) else f"{name} must choose how to pay the tax"
            )
        if isinstance(top, Debt):
            if isinstance(action, PayDebt):
                if self.cash[p] < top.amount:
                    return (
                        f"{name} owes {self.money(top.amount)} and has "
                        f"{self.money(self.cash[p])}: sell buildings or mortgage first"
                    )
                return None
            if isinstance(action, DeclareBankruptcy):
                if self.cash[p] + self.liquidation_value(p) >= top.amount:
                    return (
                        f"{name} can still raise {self.money(top.amount)} by selling buildings "
                        "and mortgaging: bankruptcy is only for debts that cannot be paid"
                    )
                return None
            return f"{name} must pay {self.money(top.amount)} or declare bankruptcy"
        if isinstance(top, TradeOffer):
            if isinstance(action, RejectTrade):
                return None
            if isinstance(action, AcceptTrade):
                return self._trade_problem(top)
            return f"{name} must accept or reject the trade"
        if isinstance(top, MortgagedReceived):
            sq = top.squares[0]
            if isinstance(action, LiftMortgageNow | KeepMortgage):
                if action.square != sq:
                    return f"decide first about {self.name_of(sq)}"
                if isinstance(action, LiftMortgageNow):
                    cost = ed.squares[sq].mortgage + ed.mortgage_interest(sq)
                    if self.cash[p] < cost:
                        return f"lifting the mortgage costs {self.money(cost)}"
                return None
            return f"{name} must lift or keep the mortgage on {self.name_of(sq)}"
        if isinstance(top, PlaceBuildingChoice):
            if isinstance(action, PlaceBuilding):
                squares = self._buildable_squares(p, top.item)
                if action.square not in squares:
                    return f"the {top.item} cannot go on square {action.square}"
                return None
            return f"{name} must place the {top.item} won at auction"
        return "that is not possible now"  # pragma: no cover

    def _check_anytime(self, action: Action) -> None:
        p = action.player
        name = self.names[p]
        ed = self.edition
        if isinstance(action, Build | SellBuilding | Mortgage | Unmortgage):
            sq = action.square
            if not isinstance(sq, int) or not 0 <= sq < N_SQUARES:
                raise MalformedAction(f"there is no square {sq!r}")
        if isinstance(action, Build):
            if any(isinstance(f, Auction) and f.item != "property" for f in self.frames):
                raise IllegalAction("the bank's scarce buildings are being auctioned: wait")
            problem = self._build_problem(p, action.square)
            if problem:
                raise IllegalAction(problem)
            cost = self._build_cost(action.square)
            if self.cash[p] < cost:
                raise IllegalAction(
                    f"{name} has {self.money(self.cash[p])}, building costs {self.money(cost)}"
                )
            return
        if isinstance(action, SellBuilding):
            sq = action.square
            if self.owner[sq] != p:
                raise IllegalAction(f"{name} does not own {self.name_of(sq)}")
            if not self.buildings[sq]:
                raise IllegalAction(f"there is no building on {self.name_of(sq)}")
            if self._level(sq) < max(self._level(s) for s in self.group_of(sq)):
                raise IllegalAction("sell evenly: sell from the most built lots of the group first")
            return
        if isinstance(action, Mortgage):
            sq = action.square
            if self.owner[sq] != p:
                raise IllegalAction(f"{name} does not own {self.name_of(sq)}")
            if self.mortgaged[sq]:
                raise IllegalAction(f"{self.name_of(sq)} is already mortgaged")
            if self.group_has_buildings(sq):
                raise IllegalAction("sell the buildings of the colour group before mortgaging")
            return
        if isinstance(action, Unmortgage):
            sq = action.square
            if self.owner[sq] != p:
                raise IllegalAction(f"{name} does not own {self.name_of(sq)}")
            if not self.mortgaged[sq]:
                raise IllegalAction(f"{self.name_of(sq)} is not mortgaged")
            cost = ed.squares[sq].mortgage + ed.mortgage_interest(sq)
            if self.cash[p] < cost:
                raise IllegalAction(f"lifting the mortgage costs {self.money(cost)}")
            return
        if isinstance(action, ProposeTrade):
            offer = self._offer_from(action)
            problem = self._trade_problem(offer)
            if problem:
                raise IllegalAction(problem)
            return
        if isinstance(action, ClaimRent):
            if not self.options.rent_claim:
                raise IllegalAction("rent is collected automatically in this game")
            if not any(c[1] == p for c in self.claims):
                raise IllegalAction(f"no rent is owed to {name} now")
            return
        if isinstance(action, CallTime):
            if not self.options.time_call_allowed:
                raise IllegalAction("time can be called only in a time-limit or quick game")
            return
        raise MalformedAction(f"{action!r} is not an action of this game")  # pragma: no cover

    def _offer_from(self, a: ProposeTrade) -> TradeOffer:
        for field_name in ("give_cash", "take_cash", "give_jail_cards", "take_jail_cards"):
            value = getattr(a, field_name)
            if not isinstance(value, int) or value < 0:
                raise MalformedAction(f"{field_name} must be a whole amount, at least 0")
        if not isinstance(a.to, int) or not 0 <= a.to < self.num_players:
            raise MalformedAction(f"there is no player {a.to!r}")
        if not isinstance(a.give_squares, tuple | list) or not isinstance(
            a.take_squares, tuple | list
        ):
            raise MalformedAction("give_squares and take_squares are lists of square numbers")
        for sq in (*a.give_squares, *a.take_squares):
            if not isinstance(sq, int) or not 0 <= sq < N_SQUARES:
                raise MalformedAction(f"there is no square {sq!r}")
        return TradeOffer(
            a.player,
            a.to,
            tuple(a.give_squares),
            tuple(a.take_squares),
            a.give_cash,
            a.take_cash,
            a.give_jail_cards,
            a.take_jail_cards,
        )

    def _trade_problem(self, t: TradeOffer) -> str | None:
        p, q = t.proposer, t.to
        if p == q:
            return "a trade needs two different players"
        if self.bankrupt[q]:
            return f"{self.names[q]} is out of the game"
        if not (
            t.give_squares
            or t.take_squares
            or t.give_cash
            or t.take_cash
            or t.give_jail_cards
            or t.take_jail_cards
        ):
            return "the trade exchanges nothing"
        if not (t.give_squares or t.take_squares or t.give_jail_cards or t.take_jail_cards):
            return "players may not lend or give each other money: trade property or cards"
        all_squares = t.give_squares + t.take_squares
        if len(set(all_squares)) != len(all_squares):
            return "a property appears twice in the trade"
        for sq, who in [(s, p) for s in t.give_squares] + [(s, q) for s in t.take_squares]:
            if self.owner[sq] != who:
                return f"{self.names[who]} does not own {self.name_of(sq)}"
            if self.group_has_buildings(sq):
                return (
                    f"buildings stand in the colour group of {self.name_of(sq)}: "
                    "sell them to the bank before trading it"
                )
        if t.give_cash > self.cash[p]:
            return f"{self.names[p]} has only {self.money(self.cash[p])}"
        if t.take_cash > self.cash[q]:
            return f"{self.names[q]} has only {self.money(self.cash[q])}"
        if t.give_jail_cards > len(self.jail_cards[p]):
            return f"{self.names[p]} holds {len(self.jail_cards[p])} get-out-of-jail card(s)"
        if t.take_jail_cards > len(self.jail_cards[q]):
            return f"{self.names[q]} holds {len(self.jail_cards[q])} get-out-of-jail card(s)"
        return None

    def _min_raise(self, auction: Auction) -> int:
        """The lowest bid now: the opening minimum, then one money unit over the high bid."""
        return max(auction.min_bid, auction.high_bid + self.edition.money_unit)

    # ----- legal actions -----------------------------------------------------------------------
    def legal_actions(self, player: int | None = None, *, anytime: bool = True) -> list[Action]:
        self.check_query(player, anytime)
        if self._outcome is not None:
            return []
        top = self.frames[-1]
        decider = top.decider()
        out: list[Action] = []
        if player is None or player == decider:
            out.extend(self._answers(decider, top))
        if anytime and top.anytime_ok:
            players = self.active_players if player is None else [player]
            for p in players:
                if not self.bankrupt[p]:
                    out.extend(self._anytime_actions(p))
        return out

    def _answers(self, p: int, top: Frame) -> list[Action]:
        candidates: list[Action]
        if isinstance(top, Turn):
            if top.phase == "post_roll":
                candidates = [EndTurn(p)]
            else:
                candidates = [RollDice(p)]
                if self.in_jail[p]:
                    candidates += [PayJailFine(p), UseJailCard(p)]
        elif isinstance(top, BuyChoice):
            candidates = [BuyProperty(p), DeclineProperty(p)]
        elif isinstance(top, Auction):
            candidates = [PassBid(p)] + [Bid(p, amount) for amount in self._bid_ladder(top)]
            return [a for a in candidates if isinstance(a, PassBid) or a.amount <= self.cash[p]]  # type: ignore[attr-defined]
        elif isinstance(top, TaxChoice):
            candidates = [ChooseTax(p, False), ChooseTax(p, True)]
        elif isinstance(top, Debt):
            candidates = [PayDebt(p), DeclareBankruptcy(p)]
        elif isinstance(top, TradeOffer):
            candidates = [AcceptTrade(p), RejectTrade(p)]
        elif isinstance(top, MortgagedReceived):
            candidates = [LiftMortgageNow(p, top.squares[0]), KeepMortgage(p, top.squares[0])]
        elif isinstance(top, PlaceBuildingChoice):
            return [PlaceBuilding(p, sq) for sq in self._buildable_squares(p, top.item)]
        else:  # pragma: no cover
            candidates = []
        return [a for a in candidates if self._answer_problem(a, top) is None]

    def _bid_ladder(self, auction: Auction) -> list[int]:
        unit = self.edition.money_unit
        low = self._min_raise(auction)
        amounts: list[int] = []
        for step in BID_STEPS:
            amount = max(low, auction.high_bid + step * unit)
            if amount not in amounts:
                amounts.append(amount)
        return amounts

    def _anytime_actions(self, p: int) -> list[Action]:
        out: list[Action] = []
        ed = self.edition
        for sq in ed.property_squares:
            if self.owner[sq] != p:
                continue
            if ed.squares[sq].kind == "street":
                for building_action in (Build(p, sq), SellBuilding(p, sq)):
                    if self.is_legal(building_action):
                        out.append(building_action)
            if self.mortgaged[sq]:
                if self.cash[p] >= ed.squares[sq].mortgage + ed.mortgage_interest(sq):
                    out.append(Unmortgage(p, sq))
            elif not self.group_has_buildings(sq):
                out.append(Mortgage(p, sq))
        out.extend(self._catalogue_trades(p))
        if self.options.rent_claim and any(c[1] == p for c in self.claims):
            out.append(ClaimRent(p))
        # CallTime is accepted (see _check_anytime) but not listed: it is the table's signal that
        # the agreed time ran out, not a move a player or bot chooses.
        return out

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

    # ----- action ids --------------------------------------------------------------------------
    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    def action_id(self, action: Action) -> int:
        self.validate_action(action)
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
            if a.to != (self.owner[sq] if self.owner[sq] >= 0 else a.player):
                raise UnknownActionId(
                    "a catalogue purchase has an id only when offered to the owner"
                )
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
        self.check_action_id(action_id, player)
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

    # ----- carrying actions out ----------------------------------------------------------------
    def _execute(self, action: Action) -> list[Event]:
        ev: list[Event] = []
        p = action.player
        top = self.frames[-1]
        if isinstance(action, RollDice):
            self._roll(p, top, ev)  # type: ignore[arg-type]
        elif isinstance(action, EndTurn):
            self._next_turn(p, ev)
        elif isinstance(action, PayJailFine):
            self._pay(p, self._fee_sink(), self.edition.jail_fine)
            self._leave_jail(p, "fine", ev)
        elif isinstance(action, UseJailCard):
            card = self.jail_cards[p].pop(0)
            self.decks[self.edition.cards[card].deck].append(card)
            self._leave_jail(p, "card", ev)
        elif isinstance(action, BuyProperty):
            assert isinstance(top, BuyChoice)
            self.frames.pop()
            price = self.edition.squares[top.square].price
            self._pay(p, BANK, price)
            self.owner[top.square] = p
            ev.append(Event("bought", {"player": p, "square": top.square, "price": price}))
        elif isinstance(action, DeclineProperty):
            assert isinstance(top, BuyChoice)
            self.frames.pop()
            ev.append(Event("declined", {"player": p, "square": top.square}))
            self._start_property_auction(top.square, p, ev)
        elif isinstance(action, Bid):
            assert isinstance(top, Auction)
            top.high_bid, top.high_bidder = action.amount, p
            top.index = (top.index + 1) % len(top.bidders)
            ev.append(Event("bid", {"player": p, "amount": action.amount}))
            self._auction_progress(top, ev)
        elif isinstance(action, PassBid):
            assert isinstance(top, Auction)
            del top.bidders[top.index]
            if top.index >= len(top.bidders):
                top.index = 0
            ev.append(Event("passed", {"player": p}))
            self._auction_progress(top, ev)
        elif isinstance(action, ChooseTax):
            assert isinstance(top, TaxChoice)
            self.frames.pop()
            flat = self.edition.squares[top.square].tax
            amount = (
                self.total_worth(p) * self.edition.income_tax_percent // 100
                if action.percent
                else flat
            )
            ev.append(
                Event("tax_chosen", {"player": p, "percent": action.percent, "amount": amount})
            )
            self._charge(p, self._fee_sink(), amount, "tax", ev)
        elif isinstance(action, PayDebt):
            assert isinstance(top, Debt)
            self.frames.pop()
            self._pay(p, top.creditor, top.amount)
            ev.append(_debt_event("paid", top))
        elif isinstance(action, DeclareBankruptcy):
            assert isinstance(top, Debt)
            self.frames.pop()
            self._go_bankrupt(p, top.creditor, ev)
        elif isinstance(action, AcceptTrade):
            assert isinstance(top, TradeOffer)
            self.frames.pop()
            self._carry_out_trade(top, ev)
        elif isinstance(action, RejectTrade):
            self.frames.pop()
            ev.append(Event("trade_rejected", {"player": p}))
        elif isinstance(action, LiftMortgageNow | KeepMortgage):
            assert isinstance(top, MortgagedReceived)
            sq = top.squares.pop(0)
            if not top.squares:
                self.frames.pop()
            interest = self.edition.mortgage_interest(sq)
            if isinstance(action, LiftMortgageNow):
                self._pay(p, BANK, self.edition.squares[sq].mortgage + interest)
                self.mortgaged[sq] = False
                ev.append(Event("unmortgaged", {"player": p, "square": sq}))
            else:
                ev.append(Event("kept_mortgage", {"player": p, "square": sq}))
                self._charge(p, BANK, interest, "mortgage interest", ev)
        elif isinstance(action, PlaceBuilding):
            assert isinstance(top, PlaceBuildingChoice)
            self.frames.pop()
            self._place_building(p, action.square, ev, cost=0)
        elif isinstance(action, Build):
            item = self._item_for(action.square)
            bidders = self._shortage_bidders(item)
            if bidders is None:
                self._place_building(p, action.square, ev, cost=None)
            else:
                order = sorted(bidders, key=lambda q: (q - p) % self.num_players)
                # The bank sells no building below its price: bids open at the wanted lot's price.
                opening = self._build_cost(action.square)
                # The building leaves the bank's stock while it is auctioned, so that nothing
                # else (a hotel sold back, say) can take it meanwhile.
                self._take_from_stock(item, 1)
                self.frames.append(Auction(item, action.square, order, 0, 0, -1, opening))
                ev.append(Event("auction_started", {"item": item, "square": action.square}))
        elif isinstance(action, SellBuilding):
            self._sell_building(p, action.square, ev)
        elif isinstance(action, Mortgage):
            self.mortgaged[action.square] = True
            self._pay(BANK, p, self.edition.squares[action.square].mortgage)
            ev.append(Event("mortgaged", {"player": p, "square": action.square}))
        elif isinstance(action, Unmortgage):
            sq = action.square
            self._pay(
                p, BANK, self.edition.squares[sq].mortgage + self.edition.mortgage_interest(sq)
            )
            self.mortgaged[sq] = False
            ev.append(Event("unmortgaged", {"player": p, "square": sq}))
        elif isinstance(action, ProposeTrade):
            offer = self._offer_from(action)
            self.frames.append(offer)
            ev.append(Event("trade_proposed", {"player": p, **self._offer_dict(offer)}))
        elif isinstance(action, ClaimRent):
            self._claim_rent(p, ev)
        elif isinstance(action, CallTime):
            ev.append(Event("time_called", {"player": p}))
            self._finish_by_valuation("time_called", ev)
        self._advance(ev)
        return ev

    def _advance(self, ev: list[Event]) -> None:
        """Run automatic frames until a decision is needed or the game ends."""
        while self._outcome is None and self.frames:
            top = self.frames[-1]
            if isinstance(top, PlaceBuildingChoice) and not self._buildable_squares(
                top.player, top.item
            ):
                self._void_placement(top, ev)
                continue
            if not top.auto:
                break
            frame = self.frames.pop()
            if isinstance(frame, Move):
                self._move(frame, ev)
            elif isinstance(frame, BankAuctions) and frame.squares:
                sq = frame.squares.pop(0)
                if frame.squares:
                    self.frames.append(frame)
                self._start_property_auction(sq, frame.first_bidder - 1, ev)

    def _void_placement(self, top: PlaceBuildingChoice, ev: list[Event]) -> None:
        """The winner of a building can no longer place it (raising the price, it mortgaged or
        sold in the group): the bank takes the building back and returns the price."""
        self.frames.pop()
        self._return_reserved([top])
        self._pay(BANK, top.player, top.price)
        ev.append(
            Event("auction_void", {"player": top.player, "item": top.item, "refund": top.price})
        )

    # ----- turn flow ---------------------------------------------------------------------------
    def _throw(self) -> tuple[int, int]:
        dice = (self.rng.randint(1, 6), self.rng.randint(1, 6))
        self.last_dice = dice
        return dice

    def _roll(self, p: int, turn: Turn, ev: list[Event]) -> None:
        if self.claims:
            self._lapse_claims(p, ev)
        d1, d2 = self._throw()
        doubles = d1 == d2
        ev.append(Event("dice", {"player": p, "dice": [d1, d2]}))
        if self.in_jail[p]:
            if doubles:
                self._leave_jail(p, "doubles", ev)
                if self.options.jail_doubles_extra_throw:
                    self.doubles = 1
                    turn.phase = "pre_roll"
                else:
                    turn.phase = "post_roll"
                self.frames.append(Move(p, d1 + d2))
                return
            self.jail_turns[p] += 1
            turn.phase = "post_roll"
            if self.jail_turns[p] >= self.options.jail_max_turns:
                # Last attempt failed: pay the fine, leave, and move by this throw.
                self._leave_jail(p, "fine", ev)
                self.frames.append(Move(p, d1 + d2))
                self._charge(p, self._fee_sink(), self.edition.jail_fine, "jail fine", ev)
            else:
                ev.append(Event("stays_in_jail", {"player": p, "turns": self.jail_turns[p]}))
            return
        if doubles:
            self.doubles += 1
            if self.doubles == 3:
                ev.append(Event("third_doubles", {"player": p}))
                self._send_to_jail(p, ev)
                return
            turn.phase = "pre_roll"
        else:
            turn.phase = "post_roll"
        self.frames.append(Move(p, d1 + d2))

    def _leave_jail(self, p: int, how: str, ev: list[Event]) -> None:
        self.in_jail[p] = False
        self.jail_turns[p] = 0
        ev.append(Event("left_jail", {"player": p, "how": how}))

    def _send_to_jail(self, p: int, ev: list[Event]) -> None:
        self.position[p] = self.edition.jail_square
        self.in_jail[p] = True
        self.jail_turns[p] = 0
        self.doubles = 0
        turn = self.frames[0]
        if isinstance(turn, Turn) and turn.player == p:
            turn.phase = "post_roll"
        ev.append(Event("jailed", {"player": p}))

    def _next_turn(self, p: int, ev: list[Event]) -> None:
        n = self.num_players
        nxt = (p + 1) % n
        while self.bankrupt[nxt]:
            nxt = (nxt + 1) % n
        first = self.first_player
        if (nxt - first) % n <= (p - first) % n:
            self.round += 1
        self.turns_taken += 1
        self.doubles = 0
        self.frames[0] = Turn(nxt)
        ev.append(Event("turn", {"player": nxt, "round": self.round}))
        limit = self.options.time_limit_rounds
        if limit is not None and self.round >= limit:
            self._finish_by_valuation("time_limit", ev)

    def _move(self, m: Move, ev: list[Event]) -> None:
        p = m.player
        if self.bankrupt[p]:
            return
        ed = self.edition
        old = self.position[p]
        new = (old + m.steps) % N_SQUARES
        self.position[p] = new
        ev.append(Event("moved", {"player": p, "from": old, "to": new}))
        if m.steps > 0 and (old + m.steps) >= N_SQUARES + ed.go_square:
            salary = ed.salary
            if new == ed.go_square and self.options.double_salary_on_go:
                salary *= 2
            self._pay(BANK, p, salary)
            ev.append(Event("salary", {"player": p, "amount": salary}))
        self._land(p, m, ev)

    def _land(self, p: int, m: Move, ev: list[Event]) -> None:
        ed = self.edition
        sq_index = self.position[p]
        sq = ed.squares[sq_index]
        kind = sq.kind
        if sq.is_property:
            owner = self.owner[sq_index]
            if owner < 0:
                self.frames.append(BuyChoice(p, sq_index))
            elif owner != p and not self.mortgaged[sq_index]:
                if self.in_jail[owner] and not self.options.rent_while_jailed:
                    ev.append(Event("no_rent_owner_jailed", {"square": sq_index, "owner": owner}))
                    return
                if sq.kind == "utility" and m.dice_multiplier is not None:
                    d1, d2 = self._throw()
                    ev.append(Event("dice", {"player": p, "dice": [d1, d2], "for": "rent"}))
                    amount = self.rent(sq_index, d1 + d2, m.rent_multiplier, m.dice_multiplier)
                else:
                    total = sum(self.last_dice) if self.last_dice else 0
                    amount = self.rent(sq_index, total, m.rent_multiplier)
                if self.options.rent_claim:
                    self.claims.append([p, owner, amount, sq_index, self._claim_deadline(p)])
                    ev.append(Event("rent_due", {"player": p, "owner": owner, "amount": amount}))
                else:
                    self._charge(p, owner, amount, "rent", ev, square=sq_index)
        elif kind in ("chance", "community_chest"):
            self._draw_card(p, sq.deck or kind, ev)
        elif kind == "tax":
            if sq.tax_percent_option and self.options.income_tax_choice:
                self.frames.append(TaxChoice(p, sq_index))
            else:
                self._charge(p, self._fee_sink(), sq.tax, "tax", ev)
        elif kind == "go_to_jail":
            self._send_to_jail(p, ev)
        elif kind == "free_parking" and self.options.free_parking_pot and self.pot:
            amount = self.pot
            self._pay(POT, p, amount)
            ev.append(Event("pot_collected", {"player": p, "amount": amount}))

    # ----- cards -------------------------------------------------------------------------------
    def _draw_card(self, p: int, deck: str, ev: list[Event]) -> None:
        cards = self.decks[deck]
        if not cards:  # every card of the deck is held as a jail card
            return
        card = self.edition.cards[cards.pop(0)]
        ev.append(Event("card", {"player": p, "deck": deck, "card": card.id}))
        if card.effect == "get_out_of_jail":
            self.jail_cards[p].append(card.id)
        else:
            cards.append(card.id)
            self._card_effect(p, card, ev)

    def _card_effect(self, p: int, card: Card, ev: list[Event]) -> None:
        effect = card.effect
        pos = self.position[p]
        if effect == "move_to":
            assert card.target is not None
            steps = (card.target - pos) % N_SQUARES
            self.frames.append(
                Move(
                    p, steps if steps else N_SQUARES if card.target == self.edition.go_square else 0
                )
            )
        elif effect == "move_relative":
            self.frames.append(Move(p, card.steps))
        elif effect == "move_nearest":
            steps = 1
            while self.edition.squares[(pos + steps) % N_SQUARES].kind != card.kind:
                steps += 1
            self.frames.append(Move(p, steps, card.rent_multiplier, card.dice_multiplier))
        elif effect == "collect":
            self._pay(BANK, p, card.amount)
        elif effect == "pay":
            self._charge(p, self._fee_sink(), card.amount, "card", ev)
        elif effect == "collect_from_each":
            for q in reversed(self.active_players):
                if q != p:
                    self._charge(q, p, card.amount, "card", ev)
        elif effect == "pay_each":
            for q in reversed(self.active_players):
                if q != p:
                    self._charge_later(p, q, card.amount, "card")
            self._settle_top_debts(ev)
        elif effect == "repairs":
            houses = sum(b for b in self._owned_buildings(p) if b != HOTEL)
            hotels = sum(1 for b in self._owned_buildings(p) if b == HOTEL)
            amount = houses * card.per_house + hotels * card.per_hotel
            self._charge(p, self._fee_sink(), amount, "repairs", ev)
        elif effect == "go_to_jail":
            self._send_to_jail(p, ev)
        elif effect == "collect_if_worth_at_most" and self.total_worth(p) <= card.limit:
            self._pay(BANK, p, card.amount)
            ev.append(Event("collected", {"player": p, "amount": card.amount}))

    def _owned_buildings(self, p: int) -> list[int]:
        return [self.buildings[s] for s in self.edition.property_squares if self.owner[s] == p]

    def _charge_later(self, debtor: int, creditor: int, amount: int, reason: str) -> None:
        self.frames.append(Debt(debtor, creditor, amount, reason))

    def _settle_top_debts(self, ev: list[Event]) -> None:
        """Pay at once the debts just stacked that the debtor can afford, in order."""
        while self.frames and isinstance(self.frames[-1], Debt):
            debt = self.frames[-1]
            assert isinstance(debt, Debt)
            if self.cash[debt.debtor] < debt.amount:
                ev.append(_debt_event("debt", debt))
                return
            self.frames.pop()
            self._pay(debt.debtor, debt.creditor, debt.amount)
            ev.append(_debt_event("paid", debt))

    # ----- auctions ----------------------------------------------------------------------------
    def _auction_min(self) -> int:
        if self.options.auction_min_bid is not None:
            return self.options.auction_min_bid
        return self.edition.auction_min_bid

    def _start_property_auction(self, square: int, decliner: int, ev: list[Event]) -> None:
        if not self.options.auctions:
            ev.append(Event("not_auctioned", {"square": square}))
            return
        n = self.num_players
        order = [(decliner + k) % n for k in range(1, n + 1)]
        bidders = [q for q in order if not self.bankrupt[q]]
        if not bidders:
            return
        self.frames.append(Auction("property", square, bidders, 0, 0, -1, self._auction_min()))
        ev.append(Event("auction_started", {"item": "property", "square": square}))

    def _auction_progress(self, a: Auction, ev: list[Event]) -> None:
        if not a.bidders:
            self.frames.pop()
            self._return_reserved([a])
            ev.append(Event("auction_unsold", {"item": a.item, "square": a.square}))
            return
        if a.high_bidder >= 0 and a.bidders == [a.high_bidder]:
            self.frames.pop()
            winner, price = a.high_bidder, a.high_bid
            ev.append(
                Event(
                    "auction_won",
                    {"player": winner, "item": a.item, "square": a.square, "price": price},
                )
            )
            if a.item == "property":
                self.owner[a.square] = winner
            elif self._buildable_squares(winner, a.item):
                self.frames.append(PlaceBuildingChoice(winner, a.item, price))
            else:  # the winner's lots changed meanwhile: the building stays with the bank
                self._return_reserved([a])
                ev.append(Event("auction_void", {"player": winner, "item": a.item}))
                return
            # A winner who spent cash on other things during the auction owes the bank the rest.
            self._charge(winner, BANK, price, "auction", ev)

    # ----- buildings sold back -----------------------------------------------------------------
    def _sell_building(self, p: int, sq: int, ev: list[Event]) -> None:
        half_house = self.edition.squares[sq].house_cost // 2
        h = self.options.hotel_after_houses
        unlimited = self.options.unlimited_buildings
        if self.buildings[sq] == HOTEL:
            # The hotel goes back; its lot gets its houses back if the bank has them, and any it
            # lacks are sold too (the bank pays half their price).
            back = h if unlimited else min(h, self.houses_left)
            refund = self.edition.hotel_cost(sq) // 2 + (h - back) * half_house
            self.buildings[sq] = back
            if not unlimited:
                self.hotels_left += 1
                self.houses_left -= back
            self._pay(BANK, p, refund)
            ev.append(Event("hotel_sold", {"player": p, "square": sq, "refund": refund}))
        else:
            self.buildings[sq] -= 1
            if not unlimited:
                self.houses_left += 1
            self._pay(BANK, p, half_house)
            ev.append(Event("house_sold", {"player": p, "square": sq, "refund": half_house}))

    # ----- trades ------------------------------------------------------------------------------
    def _offer_dict(self, t: TradeOffer) -> dict[str, Any]:
        return {
            "to": t.to,
            "give_squares": list(t.give_squares),
            "take_squares": list(t.take_squares),
            "give_cash": t.give_cash,
            "take_cash": t.take_cash,
            "give_jail_cards": t.give_jail_cards,
            "take_jail_cards": t.take_jail_cards,
        }

    def _carry_out_trade(self, t: TradeOffer, ev: list[Event]) -> None:
        p, q = t.proposer, t.to
        self._pay(p, q, t.give_cash)
        self._pay(q, p, t.take_cash)
        for _ in range(t.give_jail_cards):
            self.jail_cards[q].append(self.jail_cards[p].pop(0))
        for _ in range(t.take_jail_cards):
            self.jail_cards[p].append(self.jail_cards[q].pop(0))
        for sq in t.give_squares:
            self.owner[sq] = q
        for sq in t.take_squares:
            self.owner[sq] = p
        ev.append(Event("trade_accepted", {"player": q, "from": p, **self._offer_dict(t)}))
        self._receive_mortgaged(p, [s for s in t.take_squares if self.mortgaged[s]])
        self._receive_mortgaged(q, [s for s in t.give_squares if self.mortgaged[s]])

    def _receive_mortgaged(self, player: int, squares: list[int]) -> None:
        if squares and self.options.mortgage_transfer_fee and not self.bankrupt[player]:
            self.frames.append(MortgagedReceived(player, squares))

    # ----- rent claims (option) ----------------------------------------------------------------
    def _claim_deadline(self, payer: int) -> int:
        """The seat whose throw makes an unclaimed rent lapse: the k-th active player after payer."""
        n = self.num_players
        seat, count = payer, 0
        while count < self.options.rent_claim_deadline:
            seat = (seat + 1) % n
            if not self.bankrupt[seat]:
                count += 1
        return seat

    def _lapse_claims(self, thrower: int, ev: list[Event]) -> None:
        kept = []
        for claim in self.claims:
            if claim[4] == thrower:
                ev.append(
                    Event(
                        "rent_lapsed", {"player": claim[0], "owner": claim[1], "amount": claim[2]}
                    )
                )
            else:
                kept.append(claim)
        self.claims = kept

    def _claim_rent(self, owner: int, ev: list[Event]) -> None:
        mine = [c for c in self.claims if c[1] == owner]
        self.claims = [c for c in self.claims if c[1] != owner]
        for payer, _, amount, _, _ in reversed(mine):
            if not self.bankrupt[payer]:
                self._charge_later(payer, owner, amount, "rent")
        self._settle_top_debts(ev)

    # ----- bankruptcy and the end --------------------------------------------------------------
    def _go_bankrupt(self, p: int, creditor: int, ev: list[Event]) -> None:
        ed = self.edition
        # Buildings go back to the bank at half price first.
        for sq in ed.property_squares:
            if self.owner[sq] == p and self.buildings[sq]:
                refund = self._building_sale_value(sq)
                if not self.options.unlimited_buildings:
                    if self.buildings[sq] == HOTEL:
                        self.hotels_left += 1
                    else:
                        self.houses_left += self.buildings[sq]
                self.buildings[sq] = 0
                self._pay(BANK, p, refund)
        squares = [sq for sq in ed.property_squares if self.owner[sq] == p]
        to_player = creditor >= 0
        self._pay(p, creditor, self.cash[p])  # a player, the bank, or the Free Parking pot
        if to_player:
            for sq in squares:
                self.owner[sq] = creditor
            self.jail_cards[creditor].extend(self.jail_cards[p])
        else:
            for sq in squares:
                self.owner[sq] = -1
                self.mortgaged[sq] = False
            for card in self.jail_cards[p]:
                self.decks[ed.cards[card].deck].append(card)
        self.jail_cards[p] = []
        self.bankrupt[p] = True
        self.bankrupt_order.append(p)
        self.in_jail[p] = False
        self.claims = [c for c in self.claims if p not in (c[0], c[1])]
        ev.append(Event("bankrupt", {"player": p, "creditor": creditor}))
        # Drop whatever the bankrupt player was in the middle of.
        turn = self.frames[0]
        kept: list[Frame] = [turn]
        for frame in self.frames[1:]:
            if isinstance(frame, Auction):
                if frame.high_bidder == p:  # a bid from a player who is out no longer stands
                    frame.high_bid, frame.high_bidder = 0, -1
                if p in frame.bidders:
                    i = frame.bidders.index(p)
                    frame.bidders.remove(p)
                    if i < frame.index:
                        frame.index -= 1
                    if frame.index >= len(frame.bidders):
                        frame.index = 0
                if frame.bidders:
                    kept.append(frame)
            elif isinstance(frame, TradeOffer):
                if p not in (frame.proposer, frame.to):
                    kept.append(frame)
            elif (
                isinstance(frame, BankAuctions)
                or getattr(frame, "player", getattr(frame, "debtor", p)) != p
            ):
                kept.append(frame)
        self._return_reserved(f for f in self.frames if not any(f is k for k in kept))
        self.frames = kept
        if self._check_end(ev):
            return
        if to_player:
            self._receive_mortgaged(creditor, [s for s in squares if self.mortgaged[s]])
        elif squares and self.options.auctions:
            self.frames.append(BankAuctions(squares, (p + 1) % self.num_players))
        assert isinstance(turn, Turn)
        if turn.player == p:
            self.frames = [f for f in self.frames if not isinstance(f, Turn)]
            self.frames.insert(0, turn)
            self._next_turn(p, ev)

    def _check_end(self, ev: list[Event]) -> bool:
        active = self.active_players
        if len(active) == 1:
            ranking = (active[0], *reversed(self.bankrupt_order))
            self._set_outcome((active[0],), "bankruptcy", ranking, ev)
            return True
        if self.options.end_at_first_bankruptcy:
            self._finish_by_valuation("first_bankruptcy", ev)
            return True
        return False

    def _finish_by_valuation(self, reason: str, ev: list[Event]) -> None:
        scores = [self.valuation(p) for p in range(self.num_players)]
        active = self.active_players
        best = max(scores[p] for p in active)
        winners = tuple(p for p in active if scores[p] == best)
        ranking = tuple(sorted(active, key=lambda q: -scores[q])) + tuple(
            reversed(self.bankrupt_order)
        )
        self._set_outcome(winners, reason, ranking, ev, scores)

    def _set_outcome(
        self,
        winners: tuple[int, ...],
        reason: str,
        ranking: tuple[int, ...],
        ev: list[Event],
        scores: list[int] | None = None,
    ) -> None:
        scores = scores or [self.valuation(p) for p in range(self.num_players)]
        self._outcome = Outcome(winners, reason, ranking, tuple(float(s) for s in scores))
        self._return_reserved(self.frames)
        self.frames = []
        ev.append(Event("game_over", {"winners": list(winners), "reason": reason}))

    # ----- views -------------------------------------------------------------------------------
    def view(self, player: int | None = None) -> dict[str, Any]:
        """The table as ``player`` sees it. In this game only the decks' order is hidden."""
        self.check_query(player)
        pending = self.pending
        ed = self.edition
        return {
            "edition": ed.id,
            "viewer": player,
            "players": [
                {
                    "name": self.names[p],
                    "cash": self.cash[p],
                    "position": self.position[p],
                    "in_jail": self.in_jail[p],
                    "jail_turns": self.jail_turns[p],
                    "jail_cards": len(self.jail_cards[p]),
                    "bankrupt": self.bankrupt[p],
                }
                for p in range(self.num_players)
            ],
            "properties": [
                {
                    "square": sq,
                    "owner": self.owner[sq],
                    "mortgaged": self.mortgaged[sq],
                    "buildings": self.buildings[sq],
                }
                for sq in ed.property_squares
            ],
            "bank": {"houses": self.houses_left, "hotels": self.hotels_left},
            "pot": self.pot,
            "turn": self.current_player,
            "round": self.round,
            "doubles": self.doubles,
            "last_dice": list(self.last_dice) if self.last_dice else None,
            "decks": {d: len(cards) for d, cards in self.decks.items()},
            "rent_claims": [list(c) for c in self.claims],
            "pending": None
            if pending is None
            else {"player": pending.player, "kind": pending.kind, "info": dict(pending.info)},
            "outcome": None
            if self._outcome is None
            else {"winners": list(self._outcome.winners), "reason": self._outcome.reason},
        }

    def snapshot(self) -> dict[str, Any]:
        data = self.view(None)
        data["decks_order"] = {d: list(c) for d, c in self.decks.items()}
        data["jail_card_ids"] = [list(c) for c in self.jail_cards]
        data["frames"] = [repr(f) for f in self.frames]
        data["bank_flow"] = self.bank_flow
        data["options"] = self.options.as_dict()  # (names and edition are in the view)
        data["rng"] = hashlib.sha256(repr(self.rng.getstate()).encode()).hexdigest()[:16]
        return data

    def clone(self) -> PropertyGame:
        new = object.__new__(PropertyGame)
        new.__dict__.update(self.__dict__)
        for name in (
            "cash",
            "position",
            "in_jail",
            "jail_turns",
            "bankrupt",
            "bankrupt_order",
            "owner",
            "mortgaged",
            "buildings",
            "log",
        ):
            setattr(new, name, list(getattr(self, name)))
        new.jail_cards = [list(c) for c in self.jail_cards]
        new.decks = {d: list(c) for d, c in self.decks.items()}
        new.claims = [list(c) for c in self.claims]
        new.frames = [f.copy() for f in self.frames]
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        return new

    def determinize(self, player: int, seed: int) -> PropertyGame:
        """A copy in which what ``player`` cannot know (deck order, future dice) is resampled."""
        new = self.clone()
        new.rng = random.Random(seed)
        for cards in new.decks.values():
            new.rng.shuffle(cards)
        return new

    # ----- words -------------------------------------------------------------------------------
    def describe(self, action: Action) -> str:
        """The action in words, with the edition's names and money."""
        from parlor.monopoly.text import describe_action

        self.validate_action(action)
        return describe_action(self, action)

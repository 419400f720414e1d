"""What the game is in the middle of: a stack of frames, the top one being acted on.

Decision frames wait for a player's action; automatic frames (``auto`` true) are carried out by
the engine as soon as they reach the top. A frame pushed below another runs after it: that is how
"pay the fine, then move" or "auction each property the bank took" are sequenced.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Final

BANK: Final = -1
POT: Final = -2  # the Free Parking pot (house rule)


@dataclass(slots=True)
class Frame:
    # Compiled (setup.py), every frame is a native class: each writes its own ``__init__``
    # (``init=False``; the one dataclasses generates would run as Python), and ``auto`` and
    # ``anytime_ok`` are properties, not class variables (mypyc hands a dataclass its class
    # variables' types without ``ClassVar``, which would make them fields), read from the
    # kinds' sets below (which the rules read directly: one lookup, where a property is a call).
    @property
    def auto(self) -> bool:
        """Carried out by the engine as soon as it reaches the top (no decision)."""
        return type(self) in AUTO_FRAMES

    @property
    def anytime_ok(self) -> bool:
        """May "any time" actions be taken while this frame waits?"""
        return type(self) not in CLOSED_FRAMES

    def decider(self) -> int:
        raise NotImplementedError

    def copy(self) -> Frame:
        raise NotImplementedError

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt through the constructor (pickled games, deep copies): compiled (setup.py), a
        # native class's ``__new__`` runs its ``__init__``, which needs the fields.
        return (type(self), tuple(getattr(self, f.name) for f in fields(self)))


@dataclass(slots=True, init=False)
class Turn(Frame):
    player: int
    phase: str = "pre_roll"  # "pre_roll" (throw next) or "post_roll" (may end the turn)

    def __init__(self, player: int, phase: str = "pre_roll") -> None:
        self.player = player
        self.phase = phase

    def decider(self) -> int:
        return self.player

    def copy(self) -> Turn:
        return Turn(self.player, self.phase)


@dataclass(slots=True, init=False)
class BuyChoice(Frame):
    player: int
    square: int

    def __init__(self, player: int, square: int) -> None:
        self.player = player
        self.square = square

    def decider(self) -> int:
        return self.player

    def copy(self) -> BuyChoice:
        return BuyChoice(self.player, self.square)


@dataclass(slots=True, init=False)
class Auction(Frame):
    item: str  # "property", "house" or "hotel"
    square: int  # the property sold, or the lot the building was first wanted for
    bidders: list[int]
    index: int = 0
    high_bid: int = 0
    high_bidder: int = -1
    min_bid: int = 1

    def __init__(
        self,
        item: str,
        square: int,
        bidders: list[int],
        index: int = 0,
        high_bid: int = 0,
        high_bidder: int = -1,
        min_bid: int = 1,
    ) -> None:
        self.item = item
        self.square = square
        self.bidders = bidders
        self.index = index
        self.high_bid = high_bid
        self.high_bidder = high_bidder
        self.min_bid = min_bid

    def decider(self) -> int:
        return self.bidders[self.index]

    def copy(self) -> Auction:
        return Auction(
            self.item,
            self.square,
            list(self.bidders),
            self.index,
            self.high_bid,
            self.high_bidder,
            self.min_bid,
        )


@dataclass(slots=True, init=False)
class TaxChoice(Frame):
    player: int
    square: int

    def __init__(self, player: int, square: int) -> None:
        self.player = player
        self.square = square

    def decider(self) -> int:
        return self.player

    def copy(self) -> TaxChoice:
        return TaxChoice(self.player, self.square)


@dataclass(slots=True, init=False)
class Debt(Frame):
    debtor: int
    creditor: int  # a seat, BANK or POT
    amount: int
    reason: str

    def __init__(self, debtor: int, creditor: int, amount: int, reason: str) -> None:
        self.debtor = debtor
        self.creditor = creditor
        self.amount = amount
        self.reason = reason

    def decider(self) -> int:
        return self.debtor

    def copy(self) -> Debt:
        return Debt(self.debtor, self.creditor, self.amount, self.reason)


@dataclass(slots=True, init=False)
class TradeOffer(Frame):
    proposer: int
    to: int
    give_squares: tuple[int, ...]
    take_squares: tuple[int, ...]
    give_cash: int
    take_cash: int
    give_jail_cards: int
    take_jail_cards: int

    def __init__(
        self,
        proposer: int,
        to: int,
        give_squares: tuple[int, ...],
        take_squares: tuple[int, ...],
        give_cash: int,
        take_cash: int,
        give_jail_cards: int,
        take_jail_cards: int,
    ) -> None:
        self.proposer = proposer
        self.to = to
        self.give_squares = give_squares
        self.take_squares = take_squares
        self.give_cash = give_cash
        self.take_cash = take_cash
        self.give_jail_cards = give_jail_cards
        self.take_jail_cards = take_jail_cards

    def decider(self) -> int:
        return self.to

    def copy(self) -> TradeOffer:
        return TradeOffer(
            self.proposer,
            self.to,
            self.give_squares,
            self.take_squares,
            self.give_cash,
            self.take_cash,
            self.give_jail_cards,
            self.take_jail_cards,
        )


@dataclass(slots=True, init=False)
class MortgagedReceived(Frame):
    player: int
    squares: list[int] = field(default_factory=list)

    def __init__(self, player: int, squares: list[int] | None = None) -> None:
        self.player = player
        self.squares = [] if squares is None else squares

    def decider(self) -> int:
        return self.player

    def copy(self) -> MortgagedReceived:
        return MortgagedReceived(self.player, list(self.squares))


@dataclass(slots=True, init=False)
class PlaceBuildingChoice(Frame):
    player: int
    item: str  # "house" or "hotel"
    price: int = 0  # what the auction's winner pays for it

    def __init__(self, player: int, item: str, price: int = 0) -> None:
        self.player = player
        self.item = item
        self.price = price

    def decider(self) -> int:
        return self.player

    def copy(self) -> PlaceBuildingChoice:
        return PlaceBuildingChoice(self.player, self.item, self.price)


@dataclass(slots=True, init=False)
class Move(Frame):
    """Move ``player`` by ``steps`` (negative: backwards, no salary), then resolve the square."""

    player: int
    steps: int
    rent_multiplier: int = 1
    dice_multiplier: int | None = None  # card-directed utility rent: this times a fresh throw

    def __init__(
        self, player: int, steps: int, rent_multiplier: int = 1, dice_multiplier: int | None = None
    ) -> None:
        self.player = player
        self.steps = steps
        self.rent_multiplier = rent_multiplier
        self.dice_multiplier = dice_multiplier

    def copy(self) -> Move:
        return Move(self.player, self.steps, self.rent_multiplier, self.dice_multiplier)


@dataclass(slots=True, init=False)
class BankAuctions(Frame):
    """Properties the bank took from a bankrupt player, auctioned one after another."""

    squares: list[int]
    first_bidder: int

    def __init__(self, squares: list[int], first_bidder: int) -> None:
        self.squares = squares
        self.first_bidder = first_bidder

    def copy(self) -> BankAuctions:
        return BankAuctions(list(self.squares), self.first_bidder)


@dataclass(slots=True, init=False)
class ShortageWishes(Frame):
    """A building shortage (S14): each player who could buy the scarce ``item`` says, in turn, how
    many they wish to buy. ``builder`` asked to build on ``square``; his purchase waits for the
    answers (nothing else happens meanwhile)."""

    builder: int
    square: int
    item: str  # "house" or "hotel"
    asked: list[int]  # the players asked, in order (the builder first)
    most: list[int]  # the most each may ask for (what he could place and pay, at most the stock)
    wishes: list[int] = field(default_factory=list)  # the answers so far, in the order asked

    def __init__(
        self,
        builder: int,
        square: int,
        item: str,
        asked: list[int],
        most: list[int],
        wishes: list[int] | None = None,
    ) -> None:
        self.builder = builder
        self.square = square
        self.item = item
        self.asked = asked
        self.most = most
        self.wishes = [] if wishes is None else wishes

    def decider(self) -> int:
        return self.asked[len(self.wishes)]

    def copy(self) -> ShortageWishes:
        return ShortageWishes(
            self.builder,
            self.square,
            self.item,
            list(self.asked),
            list(self.most),
            list(self.wishes),
        )


@dataclass(slots=True, init=False)
class ShortageSale(Frame):
    """The scarce buildings auctioned one at a time while the players' remaining wishes exceed the
    bank's stock (S14). ``wanting`` and ``wishes`` are aligned; a won building counts against its
    winner's wish."""

    item: str
    square: int  # the lot the building was first wanted for (its price opens the bids)
    wanting: list[int]
    wishes: list[int]

    def __init__(self, item: str, square: int, wanting: list[int], wishes: list[int]) -> None:
        self.item = item
        self.square = square
        self.wanting = wanting
        self.wishes = wishes

    def copy(self) -> ShortageSale:
        return ShortageSale(self.item, self.square, list(self.wanting), list(self.wishes))


#: The frames the engine carries out itself as soon as they reach the top (``auto``).
AUTO_FRAMES: Final = frozenset({Move, BankAuctions, ShortageSale})
#: The frames during which no "any time" action may be taken (``anytime_ok`` false): a trade
#: awaiting its answer, a received mortgage, a won building awaiting its lot, a shortage's wishes.
CLOSED_FRAMES: Final = frozenset(
    {TradeOffer, MortgagedReceived, PlaceBuildingChoice, ShortageWishes}
)

"""The actions of the property-trading game: small frozen value types, the acting player first.

``anytime`` marks the actions a rulebook allows "at any time" (between atomic steps, by any player,
not only on their own turn): building, selling buildings, mortgaging, lifting a mortgage, proposing
a trade (which is also how a jail card is sold), claiming rent and calling time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from parlor.core.validate import Bounds, MaxLen, Seat
from parlor.monopoly.interned import shared as shared

#: Field types: the game checks every action's fields against them before any rule (see
#: parlor.core.validate); the rules then say whether a well-formed action is legal now.
SquareNo = Annotated[int, Bounds(0, 39)]
Money = Annotated[int, Bounds(0, 10**9)]
CardCount = Annotated[int, Bounds(0, 1000)]
#: The most buildings of one kind a player could place at once: four houses on every square.
MAX_WISH = 4 * 40
WishCount = Annotated[int, Bounds(0, MAX_WISH)]
Squares = Annotated[tuple[SquareNo, ...], MaxLen(40)]


@dataclass(frozen=True, slots=True)
class Action:
    player: Seat
    anytime: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class RollDice(Action):
    """Throw the dice: to move, to roll again after doubles, or to try for doubles in jail."""


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """Finish the turn; the dice pass to the next player."""


@dataclass(frozen=True, slots=True)
class BuyProperty(Action):
    """Buy the unowned property you landed on at its printed price."""


@dataclass(frozen=True, slots=True)
class DeclineProperty(Action):
    """Do not buy: the bank auctions the property."""


@dataclass(frozen=True, slots=True)
class Bid(Action):
    amount: Money


@dataclass(frozen=True, slots=True)
class PassBid(Action):
    """Leave the auction for good."""


@dataclass(frozen=True, slots=True)
class PayJailFine(Action):
    """Pay the fine before throwing, and leave jail."""


@dataclass(frozen=True, slots=True)
class UseJailCard(Action):
    """Play a get-out-of-jail card (returned to the bottom of its deck)."""


@dataclass(frozen=True, slots=True)
class ChooseTax(Action):
    """Income tax: ``percent=False`` pays the flat amount, ``True`` the percentage of total worth."""

    percent: bool


@dataclass(frozen=True, slots=True)
class PayDebt(Action):
    """Pay what you owe, once you have raised the cash."""


@dataclass(frozen=True, slots=True)
class DeclareBankruptcy(Action):
    """Give up when even selling every building and mortgaging everything cannot pay the debt."""


@dataclass(frozen=True, slots=True)
class AcceptTrade(Action):
    pass


@dataclass(frozen=True, slots=True)
class RejectTrade(Action):
    pass


@dataclass(frozen=True, slots=True)
class LiftMortgageNow(Action):
    """You received a mortgaged property: lift it at once (mortgage plus 10%)."""

    square: SquareNo


@dataclass(frozen=True, slots=True)
class KeepMortgage(Action):
    """You received a mortgaged property: keep it mortgaged (pay the 10% interest now where the
    edition says so)."""

    square: SquareNo


@dataclass(frozen=True, slots=True)
class PlaceBuilding(Action):
    """Put the building you won at a shortage auction on one of your lots."""

    square: SquareNo


@dataclass(frozen=True, slots=True)
class WishBuildings(Action):
    """Building shortage: say how many of the scarce houses (or hotels) you wish to buy now."""

    count: WishCount


@dataclass(frozen=True, slots=True)
class Build(Action):
    """Buy one house (or the hotel, when the lot has its houses) for ``square``."""

    square: SquareNo
    anytime: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class SellBuilding(Action):
    """Sell one house (or the hotel) on ``square`` back to the bank at half price."""

    square: SquareNo
    anytime: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Mortgage(Action):
    square: SquareNo
    anytime: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Unmortgage(Action):
    square: SquareNo
    anytime: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class ProposeTrade(Action):
    """Offer ``to`` a deal: what you give and what you take. Properties must have no buildings in
    their colour group; jail cards are counted (the oldest held go first)."""

    to: Seat
    give_squares: Squares = ()
    take_squares: Squares = ()
    give_cash: Money = 0
    take_cash: Money = 0
    give_jail_cards: CardCount = 0
    take_jail_cards: CardCount = 0
    anytime: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class ClaimRent(Action):
    """With the rent-claim option: ask for every rent owed to you that has not lapsed."""

    anytime: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class CallTime(Action):
    """Time-limit and quick games: the agreed time is up; the richest player wins."""

    anytime: ClassVar[bool] = True


ACTION_TYPES: dict[str, type[Action]] = {
    cls.__name__: cls
    for cls in (
        RollDice,
        EndTurn,
        BuyProperty,
        DeclineProperty,
        Bid,
        PassBid,
        PayJailFine,
        UseJailCard,
        ChooseTax,
        PayDebt,
        DeclareBankruptcy,
        AcceptTrade,
        RejectTrade,
        LiftMortgageNow,
        KeepMortgage,
        PlaceBuilding,
        WishBuildings,
        Build,
        SellBuilding,
        Mortgage,
        Unmortgage,
        ProposeTrade,
        ClaimRent,
        CallTime,
    )
}

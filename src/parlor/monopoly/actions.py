"""The actions of the property-trading game: small frozen value types, the acting player first.

``anytime`` marks the actions a rulebook allows "at any time" (between atomic steps, by any player,
not only on their own turn): building, selling buildings, mortgaging, lifting a mortgage, proposing
a trade (which is also how a jail card is sold), claiming rent and calling time.

The optional compiled build (setup.py) compiles this module, so that the engine and the bots read
an action's fields directly. An action holds whatever it was built with until a game checks it
(a bool, a text, a float: the game then refuses it with a :class:`MalformedAction` naming the
field), so its fields are typed ``Any`` for the compiler (a native ``int`` field would refuse a
text when built and turn ``True`` into ``1``); what each field may hold is :data:`FIELD_TYPES`,
which every class's annotations give to :mod:`parlor.core.validate` and which
:meth:`Action.bad_field` checks natively.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Annotated, Any, ClassVar, Final

from parlor.core.validate import Bounds, MaxLen, Seat
from parlor.monopoly.interned import shared as shared

#: Whether this module runs compiled (setup.py): the game then checks an action's fields with
#: :meth:`Action.bad_field`, a native call, instead of the check generated from the annotations.
NATIVE_ACTIONS: Final = not __file__.endswith(".py")

#: Field types: the game checks every action's fields against them before any rule (see
#: parlor.core.validate); the rules then say whether a well-formed action is legal now.
SquareNo = Annotated[int, Bounds(0, 39)]
Money = Annotated[int, Bounds(0, 10**9)]
CardCount = Annotated[int, Bounds(0, 1000)]
#: The most buildings of one kind a player could place at once: four houses on every square.
MAX_WISH = 4 * 40
WishCount = Annotated[int, Bounds(0, MAX_WISH)]
Squares = Annotated[tuple[SquareNo, ...], MaxLen(40)]

#: What each field of an action may hold, by the field's name (the same name means the same
#: type in every action): the classes' annotations, as the field checks read them.
FIELD_TYPES: Final[dict[str, Any]] = {
    "player": Seat,
    "square": SquareNo,
    "amount": Money,
    "percent": bool,
    "count": WishCount,
    "to": Seat,
    "give_squares": Squares,
    "take_squares": Squares,
    "give_cash": Money,
    "take_cash": Money,
    "give_jail_cards": CardCount,
    "take_jail_cards": CardCount,
}

_MONEY: Final = 10**9


def _bad_seat(v: Any, num_players: int) -> bool:
    return not (type(v) is int and 0 <= v < num_players)


def _bad_square(v: Any) -> bool:
    return not (type(v) is int and 0 <= v <= 39)


def _bad_squares(v: Any) -> bool:
    if not (type(v) is tuple and len(v) <= 40):
        return True
    return any(_bad_square(item) for item in v)


def _bad_count(v: Any, high: int) -> bool:
    return not (type(v) is int and 0 <= v <= high)


class _Kind:
    # (the class variable outside the dataclasses: compiled, mypyc hands a dataclass its class
    # variables as fields; no slots of its own, so that an action has no __dict__, as before)
    __slots__ = ()
    anytime: ClassVar[bool] = False


@dataclass(frozen=True, slots=True, init=False, eq=False)
class Action(_Kind):
    # (``__init__``, ``__eq__`` and ``__hash__`` written out, not generated: compiled, the
    # generated ones run as Python; these have the generated ones' arguments, answers and hashes)
    player: Any

    def __init__(self, player: Any) -> None:
        object.__setattr__(self, "player", player)

    def field_values(self) -> tuple[Any, ...]:
        """The fields' values, in order (what equality and the hash compare)."""
        return (self.player,)

    # (equality and the hash in the generated ones' form, field by field: no call in plain Python)
    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Action)
        return (self.player,) == (other.player,)

    def __hash__(self) -> int:
        return hash((self.player,))

    def bad_field(self, num_players: int) -> int:
        """The index of the first field whose value :data:`FIELD_TYPES` does not allow, or -1:
        the same answer as ``parlor.core.validate.checker(type(self)).first_bad`` (a test keeps
        them equal), without a call into Python in the compiled build."""
        return 0 if _bad_seat(self.player, num_players) else -1

    def __reduce__(self) -> tuple[Any, ...]:
        # (a native class is pickled and copied through its constructor)
        return (type(self), self.field_values())


@dataclass(frozen=True, slots=True, init=False, eq=False)
class _OnSquare(Action):
    """An action on one square (its fields, their check, equality and hash, shared)."""

    square: Any

    def __init__(self, player: Any, square: Any) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "square", square)

    def field_values(self) -> tuple[Any, ...]:
        return (self.player, self.square)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _OnSquare)
        return (self.player, self.square) == (other.player, other.square)

    def __hash__(self) -> int:
        return hash((self.player, self.square))

    def bad_field(self, num_players: int) -> int:
        if _bad_seat(self.player, num_players):
            return 0
        return 1 if _bad_square(self.square) else -1


@dataclass(frozen=True, slots=True, init=False, eq=False)
class RollDice(Action):
    """Throw the dice: to move, to roll again after doubles, or to try for doubles in jail."""


@dataclass(frozen=True, slots=True, init=False, eq=False)
class EndTurn(Action):
    """Finish the turn; the dice pass to the next player."""


@dataclass(frozen=True, slots=True, init=False, eq=False)
class BuyProperty(Action):
    """Buy the unowned property you landed on at its printed price."""


@dataclass(frozen=True, slots=True, init=False, eq=False)
class DeclineProperty(Action):
    """Do not buy: the bank auctions the property."""


@dataclass(frozen=True, slots=True, init=False, eq=False)
class Bid(Action):
    amount: Any

    def __init__(self, player: Any, amount: Any) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "amount", amount)

    def field_values(self) -> tuple[Any, ...]:
        return (self.player, self.amount)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Bid)
        return (self.player, self.amount) == (other.player, other.amount)

    def __hash__(self) -> int:
        return hash((self.player, self.amount))

    def bad_field(self, num_players: int) -> int:
        if _bad_seat(self.player, num_players):
            return 0
        return 1 if _bad_count(self.amount, _MONEY) else -1


@dataclass(frozen=True, slots=True, init=False, eq=False)
class PassBid(Action):
    """Leave the auction for good."""


@dataclass(frozen=True, slots=True, init=False, eq=False)
class PayJailFine(Action):
    """Pay the fine before throwing, and leave jail."""


@dataclass(frozen=True, slots=True, init=False, eq=False)
class UseJailCard(Action):
    """Play a get-out-of-jail card (returned to the bottom of its deck)."""


@dataclass(frozen=True, slots=True, init=False, eq=False)
class ChooseTax(Action):
    """Income tax: ``percent=False`` pays the flat amount, ``True`` the percentage of total worth."""

    percent: Any

    def __init__(self, player: Any, percent: Any) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "percent", percent)

    def field_values(self) -> tuple[Any, ...]:
        return (self.player, self.percent)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, ChooseTax)
        return (self.player, self.percent) == (other.player, other.percent)

    def __hash__(self) -> int:
        return hash((self.player, self.percent))

    def bad_field(self, num_players: int) -> int:
        if _bad_seat(self.player, num_players):
            return 0
        return 1 if type(self.percent) is not bool else -1


@dataclass(frozen=True, slots=True, init=False, eq=False)
class PayDebt(Action):
    """Pay what you owe, once you have raised the cash."""


@dataclass(frozen=True, slots=True, init=False, eq=False)
class DeclareBankruptcy(Action):
    """Give up when even selling every building and mortgaging everything cannot pay the debt."""


@dataclass(frozen=True, slots=True, init=False, eq=False)
class AcceptTrade(Action):
    pass


@dataclass(frozen=True, slots=True, init=False, eq=False)
class RejectTrade(Action):
    pass


@dataclass(frozen=True, slots=True, init=False, eq=False)
class LiftMortgageNow(_OnSquare):
    """You received a mortgaged property: lift it at once (mortgage plus 10%)."""


@dataclass(frozen=True, slots=True, init=False, eq=False)
class KeepMortgage(_OnSquare):
    """You received a mortgaged property: keep it mortgaged (pay the 10% interest now where the
    edition says so)."""


@dataclass(frozen=True, slots=True, init=False, eq=False)
class PlaceBuilding(_OnSquare):
    """Put the building you won at a shortage auction on one of your lots."""


@dataclass(frozen=True, slots=True, init=False, eq=False)
class WishBuildings(Action):
    """Building shortage: say how many of the scarce houses (or hotels) you wish to buy now."""

    count: Any

    def __init__(self, player: Any, count: Any) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "count", count)

    def field_values(self) -> tuple[Any, ...]:
        return (self.player, self.count)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, WishBuildings)
        return (self.player, self.count) == (other.player, other.count)

    def __hash__(self) -> int:
        return hash((self.player, self.count))

    def bad_field(self, num_players: int) -> int:
        if _bad_seat(self.player, num_players):
            return 0
        return 1 if _bad_count(self.count, MAX_WISH) else -1


@dataclass(frozen=True, slots=True, init=False, eq=False)
class Build(_OnSquare):
    """Buy one house (or the hotel, when the lot has its houses) for ``square``."""


@dataclass(frozen=True, slots=True, init=False, eq=False)
class SellBuilding(_OnSquare):
    """Sell one house (or the hotel) on ``square`` back to the bank at half price."""


@dataclass(frozen=True, slots=True, init=False, eq=False)
class Mortgage(_OnSquare):
    """Mortgage ``square``: the bank pays its mortgage value."""


@dataclass(frozen=True, slots=True, init=False, eq=False)
class Unmortgage(_OnSquare):
    """Lift the mortgage on ``square``: its mortgage value plus the interest."""


@dataclass(frozen=True, slots=True, init=False, eq=False)
class ProposeTrade(Action):
    """Offer ``to`` a deal: what you give and what you take. Properties must have no buildings in
    their colour group; jail cards are counted (the oldest held go first)."""

    to: Any
    give_squares: Any = ()
    take_squares: Any = ()
    give_cash: Any = 0
    take_cash: Any = 0
    give_jail_cards: Any = 0
    take_jail_cards: Any = 0

    def __init__(
        self,
        player: Any,
        to: Any,
        give_squares: Any = (),
        take_squares: Any = (),
        give_cash: Any = 0,
        take_cash: Any = 0,
        give_jail_cards: Any = 0,
        take_jail_cards: Any = 0,
    ) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "to", to)
        object.__setattr__(self, "give_squares", give_squares)
        object.__setattr__(self, "take_squares", take_squares)
        object.__setattr__(self, "give_cash", give_cash)
        object.__setattr__(self, "take_cash", take_cash)
        object.__setattr__(self, "give_jail_cards", give_jail_cards)
        object.__setattr__(self, "take_jail_cards", take_jail_cards)

    def field_values(self) -> tuple[Any, ...]:
        return (
            self.player,
            self.to,
            self.give_squares,
            self.take_squares,
            self.give_cash,
            self.take_cash,
            self.give_jail_cards,
            self.take_jail_cards,
        )

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, ProposeTrade)
        return (
            self.player,
            self.to,
            self.give_squares,
            self.take_squares,
            self.give_cash,
            self.take_cash,
            self.give_jail_cards,
            self.take_jail_cards,
        ) == (
            other.player,
            other.to,
            other.give_squares,
            other.take_squares,
            other.give_cash,
            other.take_cash,
            other.give_jail_cards,
            other.take_jail_cards,
        )

    def __hash__(self) -> int:
        return hash(
            (
                self.player,
                self.to,
                self.give_squares,
                self.take_squares,
                self.give_cash,
                self.take_cash,
                self.give_jail_cards,
                self.take_jail_cards,
            )
        )

    def bad_field(self, num_players: int) -> int:
        if _bad_seat(self.player, num_players):
            return 0
        if _bad_seat(self.to, num_players):
            return 1
        if _bad_squares(self.give_squares):
            return 2
        if _bad_squares(self.take_squares):
            return 3
        if _bad_count(self.give_cash, _MONEY):
            return 4
        if _bad_count(self.take_cash, _MONEY):
            return 5
        if _bad_count(self.give_jail_cards, 1000):
            return 6
        if _bad_count(self.take_jail_cards, 1000):
            return 7
        return -1


@dataclass(frozen=True, slots=True, init=False, eq=False)
class ClaimRent(Action):
    """With the rent-claim option: ask for every rent owed to you that has not lapsed."""


@dataclass(frozen=True, slots=True, init=False, eq=False)
class CallTime(Action):
    """Time-limit and quick games: the agreed time is up; the richest player wins."""


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


#: The actions allowed at any time (see the module's docstring).
_ANYTIME: tuple[type[Action], ...] = (
    Build,
    SellBuilding,
    Mortgage,
    Unmortgage,
    ProposeTrade,
    ClaimRent,
    CallTime,
)
for _kind in _ANYTIME:
    _kind.anytime = True

# Every class's annotations as the field checks read them (parlor.core.validate): the fields are
# typed Any above for the compiler, and compiled, a dataclass's annotations are runtime types.
_ALL: list[type[Action]] = [Action, _OnSquare, *ACTION_TYPES.values()]
for _cls in _ALL:
    _cls.__annotations__ = {
        f.name: FIELD_TYPES[f.name]
        for f in fields(_cls)
        if f.name in vars(_cls).get("__annotations__", {})
    }

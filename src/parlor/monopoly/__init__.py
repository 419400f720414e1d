"""The property-trading game family: four editions (classic, matco, latam, matador) on one engine.

>>> from parlor import monopoly
>>> game = monopoly.new_game("matador", players=["Ann", "Bo", "Cy"], seed=7)
>>> game.pending
Decision(player=0, kind='start_turn', info={})
>>> [game.describe(a) for a in game.legal_actions(0, anytime=False)]  # Matador speaks Danish
['slå med terningerne']
>>> game.apply(monopoly.EndTurn(0))
Traceback (most recent call last):
...
parlor.core.errors.IllegalAction: Ann must throw the dice first
"""

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
    WishBuildings,
)
from parlor.monopoly.edition import EDITION_IDS, Edition, load_edition
from parlor.monopoly.game import NUM_ACTIONS, PropertyGame, new_game
from parlor.monopoly.rules import VARIANTS, RuleOptions

Game = PropertyGame

__all__ = [
    "ACTION_TYPES",
    "EDITION_IDS",
    "NUM_ACTIONS",
    "VARIANTS",
    "AcceptTrade",
    "Action",
    "Bid",
    "Build",
    "BuyProperty",
    "CallTime",
    "ChooseTax",
    "ClaimRent",
    "DeclareBankruptcy",
    "DeclineProperty",
    "Edition",
    "EndTurn",
    "Game",
    "KeepMortgage",
    "LiftMortgageNow",
    "Mortgage",
    "PassBid",
    "PayDebt",
    "PayJailFine",
    "PlaceBuilding",
    "PropertyGame",
    "ProposeTrade",
    "RejectTrade",
    "RollDice",
    "RuleOptions",
    "SellBuilding",
    "Unmortgage",
    "UseJailCard",
    "WishBuildings",
    "load_edition",
    "new_game",
]

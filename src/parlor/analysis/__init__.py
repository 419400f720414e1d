"""Exact analysis of property editions: where tokens land, and what that is worth.

``parlor.analysis.markov`` solves the long-run distribution of a player's position, cards drawn
uniformly; ``parlor.analysis.cycling`` solves it with each deck in a fixed order, cycling;
``parlor.analysis.exact.analyse`` solves either; ``parlor.analysis.rents`` turns it into expected rent and payback per property;
``parlor.analysis.board`` draws it as a heatmap of the board.
``parlor.analysis.tables`` builds the value tables of every edition, scenario and jail strategy
(written by ``parlor.analysis.tablefiles``); ``parlor.analysis.tokensim`` simulates one token to
check the chain; ``parlor.analysis.pe84`` is Project Euler problem 84 from its own rules.
"""

from parlor.analysis.cycling import CyclingAverage, CyclingChain
from parlor.analysis.exact import analyse
from parlor.analysis.markov import (
    JAIL,
    ChainResult,
    Distribution,
    Landings,
    MarkovChain,
)

__all__ = [
    "JAIL",
    "ChainResult",
    "CyclingAverage",
    "CyclingChain",
    "Distribution",
    "Landings",
    "MarkovChain",
    "analyse",
]

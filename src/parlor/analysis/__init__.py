"""Exact analysis of property editions: where tokens land, and what that is worth.

``parlor.analysis.markov`` solves the long-run distribution of a player's position;
``parlor.analysis.rents`` turns it into expected rent and payback per property;
``parlor.analysis.board`` draws it as a heatmap of the board.
"""

from parlor.analysis.markov import (
    JAIL,
    ChainResult,
    Distribution,
    Landings,
    MarkovChain,
    analyse,
)

__all__ = ["JAIL", "ChainResult", "Distribution", "Landings", "MarkovChain", "analyse"]

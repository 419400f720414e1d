"""One entry point to the exact chains, whichever way the cards are drawn.

:mod:`parlor.analysis.markov` draws cards uniformly and :mod:`parlor.analysis.cycling` (built on
it) from decks that cycle; choosing between them lives here, above both, so that neither module
imports the other both ways.

>>> r = analyse("classic", jail="leave")
>>> r.cards, round(r.per_turn.total, 12)
('uniform', 1.0)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlor.analysis.cycling import average
from parlor.analysis.markov import CardModel, ChainResult, JailCards, JailStrategy, MarkovChain
from parlor.monopoly.edition import Edition
from parlor.monopoly.rules import RuleOptions


def analyse(
    edition: Edition | str = "classic",
    options: RuleOptions | Mapping[str, Any] | None = None,
    jail: JailStrategy = "leave",
    cards: CardModel = "uniform",
    jail_cards: JailCards = "deck",
) -> ChainResult:
    """Build and solve the chain (see :class:`~parlor.analysis.markov.MarkovChain`).
    ``cards="cycling"`` gives the mean over seeded shuffles of the exact cycling chains
    (:func:`parlor.analysis.cycling.average`)."""
    if cards == "cycling":
        return average(edition, options, jail, jail_cards).mean
    return MarkovChain(edition, options, jail, cards, jail_cards).solve()

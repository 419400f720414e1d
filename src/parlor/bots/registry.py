"""Bots by name, for the CLI, simulations and tournaments: ``make_bot("monopoly", "random", seed)``.

Each game family ("monopoly" for the property editions, "tools") maps bot names to factories that
take a seed and keyword options: ``random`` (legal actions only), ``heuristic`` (a rule-based
player), for the property game ``offering`` (the search bot's own policy: the
heuristic plus priced trade offers), and ``search`` (Monte-Carlo search over determinized games; options
``simulations`` or ``time_ms``). The heuristic and search modules are imported only when such a bot is made.
Kinds kept for comparisons only (:data:`REFERENCE`: ``heuristic-v1``, the property heuristic with
its auction valuation of before issue 20) are made by name too, but not listed for players.

>>> make_bot("monopoly", "heuristic", seed=1).name
'heuristic'
>>> make_bot("tools", "search", seed=1, simulations=8).name
'search'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from parlor.bots.base import Bot, RandomBot
from parlor.core.errors import E_, SettingsError

BotFactory = Callable[..., Bot]


def _monopoly_heuristic(seed: int | None = None, **options: Any) -> Bot:
    from parlor.bots.monopoly_heuristic import MonopolyHeuristicBot

    return MonopolyHeuristicBot(seed, **options)


def _monopoly_heuristic_v1(seed: int | None = None, **options: Any) -> Bot:
    from parlor.bots.monopoly_heuristic import MonopolyHeuristicBot

    return MonopolyHeuristicBot(seed, v1=True, **options)


def _tools_heuristic(seed: int | None = None, **options: Any) -> Bot:
    from parlor.bots.tools_heuristic import ToolsHeuristicBot

    return ToolsHeuristicBot(seed, **options)


def _offering(seed: int | None = None, **options: Any) -> Bot:
    from parlor.bots.search import OfferingHeuristicBot

    return OfferingHeuristicBot(seed, **options)


def _search(seed: int | None = None, **options: Any) -> Bot:
    from parlor.bots.search import SearchBot

    return SearchBot(seed, **options)


REGISTRY: dict[str, dict[str, BotFactory]] = {
    "monopoly": {
        "random": RandomBot,
        "heuristic": _monopoly_heuristic,
        "offering": _offering,
        "search": _search,
    },
    "tools": {"random": RandomBot, "heuristic": _tools_heuristic, "search": _search},
}

#: Bot kinds kept for comparisons (benchmarks, simulations, tournaments): :func:`make_bot` makes
#: them, but they are not offered to players (:func:`bot_names`, the terminal games' ``--bot``,
#: the server's seats).
REFERENCE: dict[str, dict[str, BotFactory]] = {
    "monopoly": {"heuristic-v1": _monopoly_heuristic_v1},
}


def register(game: str, name: str, factory: BotFactory) -> None:
    REGISTRY.setdefault(game, {})[name] = factory


def bot_names(game: str) -> list[str]:
    return sorted(REGISTRY.get(game, {}))


def make_bot(game: str, name: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot for ``game`` by name.

    >>> make_bot("monopoly", "random", seed=1).name
    'random'
    """
    factories = REGISTRY.get(game)
    if factories is None:
        raise SettingsError(
            E_(
                "unknown game {game}: choose one of {choices}",
                game=repr(game),
                choices=", ".join(sorted(REGISTRY)),
            )
        )
    factory = factories.get(name) or REFERENCE.get(game, {}).get(name)
    if factory is None:
        raise SettingsError(
            E_(
                "unknown bot {name} for {game}: choose one of {choices}",
                name=repr(name),
                game=game,
                choices=", ".join(bot_names(game)),
            )
        )
    return factory(seed=seed, **options)

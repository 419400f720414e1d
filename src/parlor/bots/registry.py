"""Bots by name, for the CLI, simulations and tournaments: ``make_bot("monopoly", "random", seed)``.

Each game family ("monopoly" for the property editions, "tools") maps bot names to factories that
take a seed and keyword options.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from parlor.bots.base import Bot, RandomBot
from parlor.core.errors import SettingsError

BotFactory = Callable[..., Bot]

REGISTRY: dict[str, dict[str, BotFactory]] = {
    "monopoly": {"random": RandomBot},
    "tools": {"random": RandomBot},
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
        raise SettingsError(f"unknown game {game!r}: choose one of {', '.join(sorted(REGISTRY))}")
    if name not in factories:
        raise SettingsError(f"unknown bot {name!r} for {game}: choose one of {', '.join(bot_names(game))}")
    return factories[name](seed=seed, **options)

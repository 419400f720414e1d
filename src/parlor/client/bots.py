"""Any Parlor bot at a remote table, deciding from what its seat may know and nothing more.

The bots read a whole engine game (the heuristic its public state and own view, the search bot
``determinize``). A remote seat gets one from the server for each decision: ``sample`` returns the
state of ``game.determinize(seat, fresh_seed)``, a copy in which whatever the seat cannot see
(other hands, the order of the decks, future dice) was resampled from a seed unrelated to the
table's; the engines promise that such a sample depends only on what the seat knows and the seed.
The client rebuilds the engine's own game from it (``parlor.core.state.import_state``) and lets the
bot choose on it. What the seat sees in it (its ``view``, the pending decision as it may see it,
its legal actions) is exactly what it sees at the table; everything else is a guess.

>>> policy = bot_policy("heuristic", seed=1)
>>> callable(policy)
True
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from parlor.bots.base import Bot
from parlor.bots.registry import make_bot
from parlor.client.errors import ServerError
from parlor.core.errors import E_
from parlor.core.game import Game, action_to_dict
from parlor.core.state import import_state

_FAMILIES = ("monopoly", "tools")


class SeatSamples:
    """Samples of one seat's game, with the public log kept between them (each request asks only
    for the actions after those it has)."""

    def __init__(self) -> None:
        self.log: list[Any] = []  # the public log so far, decoded (actions are immutable values)
        #: one game object for the whole table, given each new sample: the bots remember things
        #: per game object (offers made, what they planned), as they do at the server
        self.current: Game[Any] | None = None

    async def game(self, table: Any) -> tuple[Game[Any], int]:
        """A game the seat may hold now, and the table version it stands for."""
        reply = await table.request({"type": "sample", "since": len(self.log)})
        while reply.get("code") == "rate_limited":  # (a fast table: the limit is per second)
            await asyncio.sleep(0.5)
            reply = await table.request({"type": "sample", "since": len(self.log)})
        if reply["type"] == "error":
            raise ServerError(reply["code"], reply["message"])
        return self.take(reply)

    def take(self, reply: dict[str, Any]) -> tuple[Game[Any], int]:
        """The game a ``sample`` reply stands for (the log kept so far plus its new actions)."""
        family = reply["game"]
        if family not in _FAMILIES:
            raise ServerError(
                "bad_request",
                E_("unknown game {game}: choose monopoly or tools", game=repr(family)),
            )
        cls = _game_class(family)
        del self.log[reply["log_from"] :]
        self.log.extend(cls.decode_action(a) for a in reply["log"])
        into = self.current if type(self.current) is cls else None
        if into is not None and into.settings != reply["settings"]:
            into = None
        game = import_state(cls, reply["settings"], reply["seed"], reply["state"], self.log, into)
        self.current = game
        if family == "tools":  # (its log does not replay from its seed: never try)
            from parlor.bots.tools_inference import assume
            from parlor.tools import HandConstraint

            assume(
                game,  # type: ignore[arg-type]
                {
                    int(q): [HandConstraint(frozenset(c["excluded"]), c["count"]) for c in cons]
                    for q, cons in reply.get("constraints", {}).items()
                },
            )
        return game, int(reply["version"])


def _game_class(family: str) -> type[Game[Any]]:
    if family == "tools":
        from parlor.tools import ToolsGame

        return ToolsGame
    from parlor.monopoly import PropertyGame

    return PropertyGame


def bot_policy(
    name: str, seed: int | None = None, **options: Any
) -> Callable[[Any], Awaitable[dict[str, Any]]]:
    """A policy for :func:`parlor.client.play_table` that plays Parlor's bot ``name`` (``random``,
    ``heuristic``, ``offering``, ``search`` with ``simulations`` or ``time_ms``...) for the
    table's game, on a sample of what the seat may know. The bot thinks in a worker thread: the
    event loop stays free, so the WebSocket answers the server's pings and keeps the frames that
    come in meanwhile (a search may take seconds)."""
    bots: dict[str, Bot] = {}
    samples = SeatSamples()

    async def choose(table: Any) -> dict[str, Any]:
        family = table.table.get("game", "monopoly")
        bot = bots.get(family)
        if bot is None:
            bot = bots[family] = make_bot(family, name, seed, **options)
        game, _version = await samples.game(table)
        seat = table.you["seat"]
        action = await asyncio.to_thread(bot.choose, game, seat)
        return action_to_dict(action)

    return choose

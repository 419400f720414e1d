"""Bots: players that choose actions through the public game interface only.

Every bot has one method, ``choose(game, player) -> action``, called when ``player`` must decide
(``game.pending.player == player``). Bots never read engine internals.
"""

from parlor.bots.base import Bot, RandomBot

__all__ = ["Bot", "RandomBot"]

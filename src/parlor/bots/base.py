"""The bot protocol and the random bot, which plays uniformly among the legal actions."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby
from random import Random
from typing import Any, Protocol

from parlor.core.game import Game


class Bot(Protocol):
    name: str

    def choose(self, game: Game[Any], player: int) -> Any:
        """Return an action for ``player``, who must decide now."""
        ...


class RandomBot:
    """Picks uniformly among the legal actions of the deciding player, from its own seeded generator.

    With probability ``anytime_rate`` it picks among every legal action, "any time" ones included
    (building, mortgaging, trading...); otherwise among the answers to the pending decision, and
    among everything only when no answer is legal (a debtor who must raise funds). It first picks
    a kind of action uniformly, then one action of that kind, so the hundreds of possible trade
    offers do not drown out building: without building, random property games rarely end.
    """

    name = "random"

    def __init__(self, seed: int | None = None, anytime_rate: float = 0.1) -> None:
        self.rng = Random(seed)
        self.anytime_rate = anytime_rate
        # The last answers found to be each a kind of its own, when the game handed out a tuple
        # (``legal_answers``: the property games give a trade offer's answers so, each time).
        self._distinct: Sequence[Any] = ()

    def choose(self, game: Game[Any], player: int) -> Any:
        rng = self.rng
        actions: Sequence[Any] = ()
        if rng.random() >= self.anytime_rate:
            actions = game.legal_answers(player)
        if not actions:
            actions = game.legal_actions(player)
        if not actions:
            raise ValueError(f"player {player} has no legal action")
        n = len(actions)
        if actions is not self._distinct:
            if len(set(map(type, actions))) != n:
                # The actions by kind, in order of first appearance. Listings put actions of
                # one kind next to each other (a hundred trade offers in a row), so they are
                # taken run by run.
                kinds: dict[type, list[Any]] = {}
                for kind, run in groupby(actions, type):
                    same = kinds.get(kind)
                    if same is None:
                        kinds[kind] = list(run)
                    else:
                        same.extend(run)
                return _pick(rng, kinds[_pick(rng, list(kinds))])
            if type(actions) is tuple:
                self._distinct = actions
        # Each action a kind of its own (most answers: accept or reject, buy or decline): the
        # kinds are the actions, in order; the same two draws as above, without the grouping
        # (the second a choice among one: the kind's only action).
        if type(rng) is not Random:
            return rng.choice((rng.choice(actions),))
        # (``_pick``'s draws inline: most of a random opponent's decisions come here)
        bits = rng.getrandbits
        k = n.bit_length()
        i = bits(k)
        while i >= n:
            i = bits(k)
        while bits(1):
            pass
        return actions[i]


def _pick(rng: Random, items: Sequence[Any]) -> Any:
    """``rng.choice(items)``: the same draws, and the same generator state after (for a
    ``random.Random``: ``bit_length(n)`` bits, drawn again while they make ``n`` or more, as its
    ``choice`` draws them; tests/bots/test_bots.py holds the two equal), without two calls into
    Python (``choice`` and ``_randbelow``). A generator of another kind chooses its own way."""
    if type(rng) is not Random:
        return rng.choice(items)
    n = len(items)
    bits = rng.getrandbits
    k = n.bit_length()
    i = bits(k)
    while i >= n:
        i = bits(k)
    return items[i]

"""What the public log of a TOOLS game says about the other hands, for the search bot.

Whenever an opponent draws instead of playing (``may_draw_when_able`` off), takes the good-nail
penalty, or takes a box-of-nails penalty, it held no card that could be played at that moment: the
cards it held then lie outside the kinds playable in that context. Those cards stay in its hand
until it plays cards (each play may use one of them up, so the count that must still lie outside
falls by one per play). :class:`ToolsInference` follows the public log (by replaying it on a
shadow copy, reading only public state: the context, the hand sizes, the phase) and keeps, per
opponent, constraints "at least ``m`` cards of the hand are of none of the kinds ``F``".

:func:`determinize` builds on the engine's uniform ``determinize``: it redeals each constrained
opponent's hand from that hand plus the draw pile, taking first the constrained cards (from the
kinds allowed by every constraint that covers them, the oldest and smallest first) and the rest
uniformly, then shuffles the remainder back into the draw pile. Only public information is used:
the bot's own hand, the discard pile and the log of actions.
"""

from __future__ import annotations

import random
import weakref
from dataclasses import dataclass, field
from typing import Any

from parlor.tools.actions import AcceptPenalty, Draw, PenaltyHammers, PlayCard
from parlor.tools.game import BOX, DRAWN, PLAY, ToolsGame

#: Switch for experiments and tests: without inference the search samples uniformly.
ENABLED = True


@dataclass(slots=True)
class _Constraint:
    forbidden: frozenset[int]  # card kinds none of the constrained cards is
    count: int  # how many cards of the hand, at least, are constrained


@dataclass(slots=True)
class ToolsInference:
    """Constraints on the other hands, following one game's log."""

    shadow: ToolsGame
    done: int = 0
    constraints: dict[int, list[_Constraint]] = field(default_factory=dict)

    def update(self, game: ToolsGame) -> None:
        log = game.log
        s = self.shadow
        t = s._t
        o = s.options
        while self.done < len(log):
            action = log[self.done]
            self.done += 1
            q = action.player
            mine = self.constraints.setdefault(q, [])
            kind = type(action)
            before = s.sizes[q]
            new: _Constraint | None = None
            played = 0
            if kind is PlayCard:
                played = 1
            elif kind is Draw and s.phase == PLAY and not o.may_draw_when_able:
                new = _Constraint(frozenset(t.playable_kinds[s.ctx]), before)
            elif kind is PenaltyHammers:
                played = 2
                new = _Constraint(frozenset(t.playable_kinds[s.ctx]), before - 2)
            elif kind is AcceptPenalty:
                if s.phase == BOX:
                    new = _Constraint(frozenset(t.box_kinds), before)
                elif s.phase == PLAY:
                    new = _Constraint(frozenset(t.playable_kinds[s.ctx]), before)
            s.apply(action)
            if played:
                for c in mine:
                    c.count -= played
            if new is not None:
                if kind is Draw and not (s.phase == DRAWN and s.current == q):
                    # The drawn card could not be played either (or the turn ends anyway).
                    got = s.sizes[q] - before
                    if o.may_play_drawn:
                        new.count += got
                mine.append(new)
            self.constraints[q] = [c for c in mine if c.count > 0 and c.forbidden]

    def resample(self, g: ToolsGame, player: int, rng: random.Random) -> None:
        """Redeal, in the determinized copy ``g``, each other hand under its constraints."""
        K = g._t.K
        for q, cons in self.constraints.items():
            if q == player or not cons:
                continue
            hand = g.hands[q]
            size = g.sizes[q]
            if g.phase == DRAWN and g.current == q:
                continue  # (not at the bot's own decisions; left as the engine dealt it)
            pool = list(g.draw_pile)
            pool.extend(k for k in range(K) for _ in range(hand[k]))
            rng.shuffle(pool)
            new = [0] * K
            taken = 0
            # The oldest constraints (fewest cards) first: their cards are also under the newer.
            ordered = sorted(cons, key=lambda c: c.count)
            for i, c in enumerate(ordered):
                want = min(c.count, size) - taken
                if want <= 0:
                    continue
                banned: set[int] = set()
                for d in ordered[i:]:
                    banned |= d.forbidden
                keep: list[int] = []
                for j in range(len(pool) - 1, -1, -1):
                    if want <= 0:
                        break
                    k = pool[j]
                    if k not in banned:
                        new[k] += 1
                        keep.append(j)
                        want -= 1
                        taken += 1
                for j in keep:  # (descending indices)
                    pool.pop(j)
            while taken < size and pool:
                new[pool.pop()] += 1
                taken += 1
            g.hands[q] = new
            g.draw_pile = pool


_CACHE: weakref.WeakKeyDictionary[Any, ToolsInference] = weakref.WeakKeyDictionary()


def inference_for(game: ToolsGame) -> ToolsInference:
    """The inference following ``game`` (kept per game object, updated to its log)."""
    inf = _CACHE.get(game)
    if inf is None or inf.done > len(game.log):
        shadow = ToolsGame.from_settings(game.settings, game.seed)
        inf = _CACHE[game] = ToolsInference(shadow)
    inf.update(game)
    return inf


def determinize(game: ToolsGame, player: int, seed: int) -> ToolsGame:
    """``game.determinize(player, seed)`` with the other hands redealt under the constraints."""
    g = game.determinize(player, seed)
    if not ENABLED or type(game) is not ToolsGame or not game.log:
        return g
    inf = inference_for(game)
    inf.resample(g, player, random.Random(seed ^ 0x5EED))
    return g

"""A turn carried out: playing a card and what it does, drawing, the card drawn, the color named,
the penalties, the next seat and the end of the game.

Clauses (docs/rules/tools.md): "Action cards" (smashed finger: the next player loses its turn;
change of turn: the direction reverses, and with two players the other loses its turn if
``two_player_reverse_skips``; box of nails: the next player draws 2, or the boxes stack with
``box_stacking``), "Wild cards" (toolbox: the next player draws 4 and loses its turn; wild hammer;
paint brush: the same player names a color, then may play a second card of it), "The good-nail
penalty" (two hammers played and 3 drawn, or 2 drawn, and the turn is lost), "Drawing and the draw
pile" (one card, which may be played at once if it fits and ``may_play_drawn``; the discard pile but its top
reshuffled into a new draw pile), "End of the game" (an empty hand wins at once; a blocked round or
the turn limit ends the game with the fewest cards winning).
"""

from __future__ import annotations

from parlor.core.game import Event, Outcome
from parlor.tools.actions import (
    AcceptPenalty,
    ChooseColor,
    Draw,
    EndTurn,
    KeepDrawn,
    PenaltyHammers,
    PlayCard,
    PlayDrawn,
    ToolsAction,
)
from parlor.tools.hidden import ToolsViews
from parlor.tools.shuffling import shuffle
from parlor.tools.table import (
    BOX,
    COLOR,
    DRAWN,
    FOLLOW,
    OVER,
    PLAY,
    T_BENT,
    T_BOX,
    T_FINGER,
    T_REVERSE,
    T_TOOLBOX,
    T_WHAMMER,
)


class ToolsTurn(ToolsViews):
    # ----- execution ----------
    def _execute(self, action: ToolsAction) -> list[Event]:
        events: list[Event] = []
        p = action.player
        t = self._t
        kind = type(action)
        if kind is PlayCard:
            k = t.kind_by_code[action.card]  # type: ignore[union-attr]
            self._play(p, k, events)
        elif kind is Draw:
            k = self._draw(p, 1, events)
            opts = self.options
            if (
                k >= 0
                and opts.may_play_drawn
                and (opts.ask_after_every_draw or t.playable[self.ctx][k])
            ):
                self.phase = DRAWN
                self.drawn = k
            else:
                self._next(0, events)
        elif kind is PlayDrawn:
            k = self.drawn
            self.drawn = -1
            self._play(p, k, events)
        elif kind is KeepDrawn:
            self.drawn = -1
            self._next(0, events)
        elif kind is ChooseColor:
            c = t.color_by_name[action.color]  # type: ignore[union-attr]
            self.color = c
            events.append(t.color_events[p][c])
            if self.held[p] & t.color_bits[c]:
                self.phase = FOLLOW
                self.ctx = t.follow_ctx[c]
            else:
                self.ctx = t.bind_ctx[c] if self.options.brush_color_binds else t.free_ctx
                self._next(0, events)
        elif kind is EndTurn:
            c = self.color if self.color is not None else 0
            self.ctx = t.bind_ctx[c] if self.options.brush_color_binds else t.free_ctx
            self._next(0, events)
        elif kind is PenaltyHammers:
            hand = self.hands[p]
            logs = self._hand_logs
            for color in (action.first, action.second):  # type: ignore[union-attr]
                k = t.hammer_kind[t.color_by_name[color]]
                hand[k] -= 1
                if not hand[k]:
                    self.held[p] ^= 1 << k
                if logs is not None:
                    logs[p].append(~k)
                self.sizes[p] -= 1
                self.discard.append(k)
                events.append(t.play_events[p][k])
            self.ctx = k
            self.color = t.kcolor[k]
            self._moved = True
            if self.sizes[p] == 0 and self.options.penalty_hammers_can_win:
                self._finish(p, "empty hand", events)
                return events
            self._draw(p, 3, events)
            if self.sizes[p] == 0:
                self._finish(p, "empty hand", events)
                return events
            self._next(0, events)
        elif kind is AcceptPenalty:
            if self.phase == BOX:
                owed = self.box_penalty
                self.box_penalty = 0
                self._draw(p, owed, events)
            else:  # the good-nail penalty without two hammers: draw 2 and lose the turn
                self._draw(p, 2, events)
            self._next(0, events)
        return events

    def _play(self, p: int, k: int, events: list[Event]) -> None:
        t = self._t
        hand = self.hands[p]
        count = hand[k] = hand[k] - 1
        if not count:
            self.held[p] ^= 1 << k
        logs = self._hand_logs
        if logs is not None:  # (the readers' record of the hand: see hand_log)
            logs[p].append(~k)
        sizes = self.sizes
        left = sizes[p] = sizes[p] - 1
        self.discard.append(k)
        self._moved = True
        events.append(t.play_events[p][k])
        if left == 0:
            # "La partida termina inmediatamente cuando un jugador logra quedarse sin cartas"
            self._finish(p, "empty hand", events)
            return
        tt = t.ktype[k]
        if tt <= T_BENT:
            self.ctx = k
            self.color = t.kcolor[k]
            self._next(0, events)
        elif tt == T_FINGER:
            self.ctx = k
            self.color = t.kcolor[k]
            self._next(1, events)
        elif tt == T_REVERSE:
            self.ctx = k
            self.color = t.kcolor[k]
            self.direction = -self.direction
            events.append(t.reverse_events[self.direction])
            skip = 1 if self._n == 2 and self.options.two_player_reverse_skips else 0
            self._next(skip, events)
        elif tt == T_BOX:
            self.ctx = k
            self.color = t.kcolor[k]
            if self.options.box_stacking:
                self.box_penalty += 2
                self._next(0, events)
            else:
                victim = (p + self.direction) % self._n
                self._draw(victim, 2, events)
                self._next(1, events)
        elif tt == T_TOOLBOX:
            self.ctx = t.free_ctx
            self.color = None
            victim = (p + self.direction) % self._n
            self._draw(victim, 4, events)
            self._next(1, events)
        elif tt == T_WHAMMER:
            self.ctx = t.free_ctx
            self.color = None
            self._next(0, events)
        else:  # paint brush: the same player names a color next
            self.ctx = t.free_ctx
            self.color = None
            self.phase = COLOR

    def _draw(self, p: int, count: int, events: list[Event]) -> int:
        """Draw up to ``count`` cards for ``p``, reshuffling the discard pile when needed; the
        last card drawn, or -1 if none was left."""
        pile = self.draw_pile
        hand = self.hands[p]
        held = self.held[p]
        logs = self._hand_logs
        log = None if logs is None else logs[p]
        k = -1
        got = 0
        for _ in range(count):
            if not pile:
                pile = self._reshuffle(events)
                if not pile:
                    break
            k = pile.pop()
            if not hand[k]:
                held |= 1 << k
            hand[k] += 1
            got += 1
            if log is not None:
                log.append(k)
        if got:
            self.held[p] = held
            self.sizes[p] += got
            self._moved = True
        shared = self._t.draw_events[p]
        events.append(
            shared[got] if got < len(shared) else Event("draw", {"player": p, "count": got})
        )
        return k

    def _reshuffle(self, events: list[Event]) -> list[int]:
        """The new draw pile: the discard pile but its top card, shuffled (empty when that is
        all there is)."""
        if len(self.discard) <= 1:
            return self.draw_pile
        # "todas las cartas de la pila de descarte, excepto la carta superior, se mezclan
        # nuevamente para crear una nueva pila de robo"
        pile = self.discard[:-1]
        self.discard = self.discard[-1:]
        shuffle(self.rng, pile)
        self.draw_pile = pile
        events.append(Event("reshuffle", {"draw_pile": len(pile)}))
        return pile

    def _next(self, skip: int, events: list[Event]) -> None:
        """End the turn: move ``1 + skip`` seats in the current direction."""
        n = self._n
        if skip:
            skipped = (self.current + self.direction) % n
            events.append(self._t.skip_events[skipped])
        if self._moved:
            self.idle = 0
            self._moved = False
        elif self._has_play(self.current):
            # Nothing moved, but only by choice (an optional draw from empty piles, or taking a
            # penalty of 0 cards while holding a box): the position is not stuck.
            self.idle = 0
        else:
            self.idle += 1
        self.current = (self.current + self.direction * (1 + skip)) % n
        self.phase = BOX if self.box_penalty else PLAY
        turn = self.turn = self.turn + 1
        if self.idle >= n:  # a whole round in which nobody could move a card: nobody ever will
            self._finish(None, "blocked", events)
            return
        limit = self.options.max_turns
        if limit and turn >= limit:
            self._finish(None, "turn limit", events)

    def _finish(self, winner: int | None, reason: str, events: list[Event]) -> None:
        self.phase = OVER
        sizes = self.sizes
        if winner is None:
            best = min(sizes)
            winners = tuple(p for p in range(self._n) if sizes[p] == best)
        else:
            winners = (winner,)
        ranking = tuple(
            [q for _, _, q in sorted([(q not in winners, sizes[q], q) for q in range(self._n)])]
        )
        self._outcome = Outcome(winners, reason, ranking, tuple(float(s) for s in sizes))
        events.append(Event("game_over", {"winners": list(winners), "reason": reason}))

"""Hidden information: the pending decision and the view as each seat may see it, snapshots,
copies, and determinization for search.

Clauses (docs/rules/tools.md): "Hidden information" (a seat sees its own hand, the others' sizes,
the discard pile and the draw pile's size; only the decider learns the card it just drew and the
good-nail penalty it faces; determinize resamples everything a seat cannot see, under
:class:`~parlor.tools.HandConstraint`s), "The good-nail penalty" (which penalty the decider faces).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from operator import itemgetter
from typing import Any, Self

from parlor.core.errors import E_, MalformedAction
from parlor.core.game import Decision
from parlor.core.validate import check_sample_seed, check_seat
from parlor.tools.action_ids import ToolsActionIds
from parlor.tools.constraints import HandConstraint
from parlor.tools.table import (
    _NO_CODES,
    BOX,
    DRAWN,
    FOLLOW,
    OVER,
    PHASE_NAMES,
    PLAY,
    Unchecked,
)


class ToolsViews(ToolsActionIds):
    # ----- the pending decision ----------
    @property
    def pending(self) -> Decision | None:
        """The pending decision as everybody may see it: no private detail of the decider's.

        The decider's own view, with the card just drawn and the good-nail penalty it faces,
        comes from :meth:`pending_for`.
        """
        return self.pending_for(None)

    def pending_for(self, player: Unchecked) -> Decision | None:
        """The pending decision as ``player`` may see it (``None``: a spectator).

        Only the decider learns the card it just drew (``info["drawn"]``) and, on a good nail it
        cannot repair, which penalty it faces (``info["good_nail_penalty"]``: that would tell what
        its hand lacks).

        >>> import random
        >>> from parlor import tools
        >>> game, rng = tools.new_game(2, seed=0), random.Random(0)
        >>> while game.pending_for(game.pending.player).kind != "drawn_card":
        ...     _ = game.apply(rng.choice(game.legal_actions(game.pending.player)))
        >>> p = game.pending.player
        >>> game.pending_for(p).info["drawn"], "drawn" in game.pending_for(1 - p).info
        ('good_nail:blue', False)
        >>> game.pending.kind  # (to the others the drawer is still at play)
        'play'
        >>> game.pending == game.pending_for(1 - p) == game.pending_for(None)
        True
        """
        self.check_query(player)
        phase = self.phase
        if phase == OVER:
            return None
        info: dict[str, Any] = {"top": self.deck.code(self.discard[-1])}
        if self.color is not None:
            info["color"] = self.deck.colors[self.color]
        mine = player == self.current
        kind = PHASE_NAMES[phase]
        if phase == DRAWN:
            if mine:
                info["drawn"] = self.deck.code(self.drawn)
            else:
                # Others see the drawer still at play: the kind ``drawn_card`` would tell them
                # that a card kept afterwards was playable (asked only then, unless
                # ask_after_every_draw), which only the drawer knows (issue 20).
                kind = PHASE_NAMES[PLAY]
        elif phase == BOX:
            info["penalty"] = self.box_penalty
        elif mine and phase == PLAY and self._on_good_nail() and not self._has_play(self.current):
            hammers = self._hammer_count(self.current)
            info["good_nail_penalty"] = "two_hammers" if hammers >= 2 else "draw_two"
        return Decision(self.current, kind, info)

    @property
    def decider(self) -> int | None:
        """``pending.player`` without building the decision (the RL tables ask it each step)."""
        return None if self.phase == OVER else self.current

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """Every hand's size by seat: public, and much cheaper than ``view(p)["hand_sizes"]``."""
        return tuple(self.sizes)

    def hand_counts(self, player: Unchecked) -> list[int]:
        """``player``'s own hand as copies of each card kind (``deck.codes`` order): what
        ``view(player)["hand"]`` lists, counted, without building the view."""
        if type(player) is not int or not 0 <= player < self._n:  # (the check, inline: hot)
            check_seat(player, self._n)
        return list(self.hands[player])

    def hand_log(self, player: Unchecked) -> list[int]:
        """What entered and left ``player``'s own hand, card by card, oldest first: kind ``k``
        for a card that entered it, ``~k`` (``-k - 1``) for one that left it. The engine's own
        list: read it, don't change it.

        The engine only appends to this list while it plays; it starts a new list when the
        hands changed otherwise (the first call on a game object, a clone, a pickle,
        ``determinize``, a state given by :func:`parlor.core.state.import_state`), so a reader
        that keeps the list with its length and the counts it read (``hand_counts``) then knows
        the hand now from the entries past that length, without comparing every kind. Hands
        changed by hand in place are not logged: code that edits a game's hands makes the
        game anew instead. History, not state: not in ``snapshot()`` or ``STATE_FIELDS``.

        >>> from parlor import tools
        >>> game = tools.new_game(2, seed=1)
        >>> log = game.hand_log(0)
        >>> _ = game.apply(game.legal_actions(0)[0])  # (plays a blue hammer)
        >>> log, game.deck.codes[~log[0]], game.hand_log(0) is log
        ([-2], 'hammer:blue', True)
        >>> game = tools.new_game(2, seed=0)
        >>> log = game.hand_log(0)
        >>> _ = game.apply(game.legal_actions(0)[0])  # (on a good nail: takes two cards)
        >>> [game.deck.codes[k] for k in log]
        ['box_of_nails:yellow', 'hammer:blue']
        >>> game.clone().hand_log(0) is log  # (a copy logs afresh)
        False
        """
        if type(player) is not int or not 0 <= player < self._n:  # (the check, inline: hot)
            check_seat(player, self._n)
        logs = self._hand_logs
        if logs is None or self._logged_hands is not self.hands:
            logs = self._hand_logs = [[] for _ in range(self._n)]
            self._logged_hands = self.hands
        return logs[player]

    def discard_counts(self) -> list[int]:
        """Copies of each card kind in the discard pile (public: every card played).

        Counted once: the engine only appends to its discard pile or replaces the list (a
        reshuffle, a restore, a clone), so the cards past the memo's length are the new ones,
        and another list is counted afresh."""
        pile = self.discard
        counts = self._counts
        start = self._counted_len
        if counts is None or pile is not self._counted or len(pile) < start:
            counts = self._counts = [0] * self._t.K
            self._counted = pile
            start = 0
        end = len(pile)
        for i in range(start, end):
            counts[pile[i]] += 1
        self._counted_len = end
        return list(counts)

    def public_numbers(self) -> tuple[int, int, int, int, int, int]:
        """What every seat sees, as numbers: the face-up card's kind, the colour in force's index
        (-1 for none), the direction (1 clockwise, -1 counterclockwise), the box-of-nails
        penalty, the draw pile's size and the turn: ``view()``'s public numbers, cheaply."""
        color = -1 if self.color is None else self.color
        return (
            self.discard[-1],
            color,
            self.direction,
            self.box_penalty,
            len(self.draw_pile),
            self.turn,
        )

    def pending_numbers(self, player: Unchecked) -> tuple[int, int, int, int]:
        """The pending decision as ``player`` may see it, as numbers: the decider (-1 once the
        game is over), the kind's index in ``PHASE_NAMES``, the kind of the card just drawn (-1
        unless ``player`` drew it), and the good-nail penalty ``player`` faces (0 two hammers,
        1 draw two, -1 none): what :meth:`pending_for` says, without its strings and records.

        >>> from parlor import tools
        >>> game = tools.new_game(2, seed=0)
        >>> game.pending_numbers(0), game.pending_numbers(1)
        ((0, 0, -1, 1), (0, 0, -1, -1))
        """
        if type(player) is not int or not 0 <= player < self._n:  # (the check, inline: hot)
            check_seat(player, self._n)
        phase = self.phase
        if phase == OVER:
            return (-1, OVER, -1, -1)
        current = self.current
        if player != current:
            return (current, PLAY if phase == DRAWN else phase, -1, -1)  # (as pending_for)
        if phase == DRAWN:
            return (current, phase, self.drawn, -1)
        if phase == PLAY and self._on_good_nail() and not self._has_play(current):
            return (current, phase, -1, 0 if self._hammer_count(current) >= 2 else 1)
        return (current, phase, -1, -1)

    def playable_cards(self) -> frozenset[str]:
        """The card codes the deciding player could play now, whatever its hand holds.

        Public information only (the top card, a named color): in a normal turn and for the
        paint brush's second card, the codes playable in the current context; while a box of
        nails is pending, the box-of-nails codes; otherwise (a drawn card, a color to choose, the
        game over) none. The legal ``PlayCard`` actions are exactly these codes that are in hand.

        >>> from parlor import tools
        >>> game = tools.new_game(2, seed=1)
        >>> game.pending.info["top"]  # on a bent nail: any hammer, a blue action card, a wild
        'bent_nail:blue'
        >>> sorted(c for c in game.playable_cards() if not c.startswith("hammer:"))
        ['box_of_nails:blue', 'paint_brush', 'reverse:blue', 'smashed_finger:blue', 'toolbox', 'wild_hammer']
        >>> "bent_nail:blue" in game.playable_cards(), "hammer:red" in game.playable_cards()
        (False, True)
        """
        phase = self.phase
        if phase in (PLAY, FOLLOW):
            return self._t.playable_codes[self.ctx]
        if phase == BOX:
            return self._t.box_codes
        return _NO_CODES

    # ----- views and snapshots ----------
    def _hand_codes(self, p: int) -> list[str]:
        codes = self.deck.codes
        return [codes[k] for k, cnt in enumerate(self.hands[p]) for _ in range(cnt)]

    def view(self, player: Unchecked = None) -> dict[str, Any]:
        """What ``player`` may see: own hand, others' hand sizes, the face-up pile, pile sizes.

        Never another hand nor the draw pile's order; the pending decision's private details
        (the card just drawn) only to the player deciding.
        """
        self.check_query(player)
        codes = self.deck.codes
        pending = self.pending_for(player)
        view: dict[str, Any] = {
            "game": "tools",
            "player": player,
            "names": list(self.names),
            "hand_sizes": list(self.sizes),
            "top": codes[self.discard[-1]],
            "discard": [codes[k] for k in self.discard],
            "draw_pile": len(self.draw_pile),
            "color": None if self.color is None else self.deck.colors[self.color],
            "direction": "clockwise" if self.direction == 1 else "counterclockwise",
            "current": self.current,
            "box_penalty": self.box_penalty,
            "turn": self.turn,
            "pending": None,
            "outcome": None,
        }
        if player is not None:
            view["hand"] = self._hand_codes(player)
        if pending is not None:
            view["pending"] = {
                "player": pending.player,
                "kind": pending.kind,
                "info": dict(pending.info),
            }
        if self._outcome is not None:
            o = self._outcome
            view["outcome"] = {
                "winners": list(o.winners),
                "reason": o.reason,
                "ranking": list(o.ranking),
                "cards_left": [int(s) for s in o.scores],
            }
        return view

    def snapshot(self) -> dict[str, Any]:
        codes = self.deck.codes
        o = self._outcome
        return {
            "players": list(self.names),  # (what makes the game, so that a save's check covers it)
            "options": self.options.to_dict(),
            "deck": self.deck.to_dict(),
            "hands": [self._hand_codes(p) for p in range(self._n)],
            "draw_pile": [codes[k] for k in self.draw_pile],
            "discard": [codes[k] for k in self.discard],
            "context": self.ctx,
            "color": self.color,
            "direction": self.direction,
            "current": self.current,
            "phase": PHASE_NAMES[self.phase],
            "drawn": None if self.drawn < 0 else codes[self.drawn],
            "box_penalty": self.box_penalty,
            "turn": self.turn,
            "idle": self.idle,
            "outcome": None
            if o is None
            else {"winners": list(o.winners), "reason": o.reason, "ranking": list(o.ranking)},
            "rng": hashlib.sha256(repr(self.rng.getstate()).encode()).hexdigest()[:16],
        }

    # ----- determinization (the copies are the game's, see ToolsGame.clone) ----------
    def determinize(
        self,
        player: Unchecked,
        seed: Unchecked,
        constraints: Unchecked = None,
    ) -> Self:
        """A clone in which everything ``player`` cannot see is resampled from ``seed``.

        Other hands and the draw pile are redealt from the same cards keeping every size; if
        another player is deciding about a drawn card, that card is resampled among the hidden
        cards that are playable (the only thing the decision reveals about it). The clone's own
        random generator is reseeded too, so future reshuffles are unknown as well. The clone is
        for search: its log no longer replays to its state.

        ``constraints`` maps seats to what is known about their hands (see
        :class:`~parlor.tools.HandConstraint`). After the uniform redeal, each constrained hand is
        redealt from itself plus the draw pile: first the constrained cards, the constraint with
        the smallest count first (the oldest: its cards are also under the newer ones), each
        from the kinds that no constraint covering it excludes; then the rest uniformly; the
        remainder, shuffled, is the draw pile. ``player``'s own constraints are ignored, and so
        are those of a player deciding about a drawn card (its hand is left as dealt). When the
        constraints cannot all be met (the unseen cards do not hold enough allowed ones), as many
        allowed cards as exist are taken and the rest is dealt uniformly. When no constraint
        applies (``None``, empty, or only ignored ones), the result is the unconstrained one for
        the same seed, draw for draw.

        >>> from parlor import tools
        >>> game = tools.new_game(2, seed=1)
        >>> no_hammer = tools.HandConstraint(frozenset(game.deck.codes[:4]), 7)  # the 4 hammers
        >>> sim = game.determinize(0, seed=5, constraints={1: [no_hammer]})
        >>> sim.hand_sizes == game.hand_sizes
        True
        >>> [c for c in sim.snapshot()["hands"][1] if c.startswith("hammer:")]
        []
        """
        check_seat(player, self._n)  # (short_repr: a huge number is not turned into text)
        wanted = self._constraint_rows(constraints) if constraints else None
        g = self.clone()
        rng = random.Random(check_sample_seed(seed))
        K = self._t.K
        # The unseen cards as a multiset, in card order: what the shuffle draws from must not
        # depend on where they truly lie, or whoever picks the seed could undo the shuffle.
        unseen = [0] * K
        for k in g.draw_pile:
            unseen[k] += 1
        others = [q for q in range(self._n) if q != player]
        for q in others:
            hand = g.hands[q]
            for k in range(K):
                unseen[k] += hand[k]
            g.hands[q] = [0] * K
        pool = [k for k in range(K) for _ in range(unseen[k])]
        rng.shuffle(pool)
        if g.phase == DRAWN and g.current != player:
            row = self._t.playable[g.ctx]
            if self.options.ask_after_every_draw:  # (the decision says nothing of the card)
                row = [True] * K
            candidates = [i for i, k in enumerate(pool) if row[k]]
            i = rng.choice(candidates)
            g.drawn = pool.pop(i)
            g.hands[g.current][g.drawn] += 1
            need = {q: g.sizes[q] - (1 if q == g.current else 0) for q in others}
        else:
            need = {q: g.sizes[q] for q in others}
        for q in others:
            hand = g.hands[q]
            for _ in range(need[q]):
                hand[pool.pop()] += 1
        g.draw_pile = pool
        g.rng = random.Random(rng.getrandbits(64))
        if wanted:  # (after the uniform redeal, so that it draws the same numbers as before)
            g._redeal_constrained(player, wanted, rng)
        g._count_held()
        return g

    def _constraint_rows(
        self, constraints: Unchecked
    ) -> list[tuple[int, list[tuple[int, frozenset[int]]]]]:
        """Validate ``constraints``; per seat, ``(count, excluded kinds)`` by increasing count,
        without those that constrain nothing."""
        if not isinstance(constraints, Mapping):
            raise MalformedAction(
                E_(
                    "constraints map seats to HandConstraints, not {value}",
                    value=repr(constraints),
                )
            )
        n = self._n
        kinds_of = self._t.kinds_of
        out: list[tuple[int, list[tuple[int, frozenset[int]]]]] = []
        for q, cons in constraints.items():
            if type(q) is not int or not 0 <= q < n:
                raise MalformedAction(
                    E_(
                        "constraints are keyed by seat numbers 0..{last}, not {value}",
                        last=n - 1,
                        value=repr(q),
                    )
                )
            rows: list[tuple[int, frozenset[int]]] = []
            for c in cons:
                if not isinstance(c, HandConstraint):
                    raise MalformedAction(
                        E_("expected a HandConstraint, not {value}", value=repr(c))
                    )
                kinds = kinds_of(c.excluded)
                if c.count and kinds:
                    rows.append((c.count, kinds))
            if rows:
                rows.sort(key=itemgetter(0))  # (stable: equal counts keep the caller's order)
                out.append((q, rows))
        return out

    def _redeal_constrained(
        self,
        player: int,
        wanted: list[tuple[int, list[tuple[int, frozenset[int]]]]],
        rng: random.Random,
    ) -> None:
        """Redeal each constrained hand of this determinized copy; see :meth:`determinize`."""
        K = self._t.K
        for q, rows in wanted:
            if q == player or (self.phase == DRAWN and self.current == q):
                continue
            hand = self.hands[q]
            size = self.sizes[q]
            pool = self.draw_pile
            for k in range(K):
                if hand[k]:
                    pool += [k] * hand[k]
            new = [0] * K
            taken = 0
            last = len(rows) - 1
            for i, (count, _) in enumerate(rows):
                want = min(count, size) - taken
                if want <= 0:
                    continue
                # These cards are under this constraint and every later (larger) one.
                banned = rows[i][1] if i == last else frozenset().union(*(r[1] for r in rows[i:]))
                picks = [j for j, k in enumerate(pool) if k not in banned]
                if len(picks) > want:
                    picks = rng.sample(picks, want)
                    picks.sort(reverse=True)
                else:  # too few allowed cards (inconsistent constraints): take them all
                    picks.reverse()
                for j in picks:  # (descending, so that each pop leaves the others in place)
                    new[pool.pop(j)] += 1
                taken += len(picks)
            rng.shuffle(pool)
            for _ in range(size - taken):  # (the pool holds the whole hand, so it never runs out)
                new[pool.pop()] += 1
            self.hands[q] = new

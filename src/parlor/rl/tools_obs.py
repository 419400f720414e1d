"""The TOOLS observation: what one seat may see, as a fixed float vector.

Everything is read from the engine's queries of what that seat may see: ``hand_counts(seat)``,
``hand_log(seat)`` and ``pending_numbers(seat)`` (its own hand and what entered and left it; the
drawn card only to the one who drew it), and the public
``hand_sizes``, ``discard_counts()`` (or the new cards of the public ``discard`` pile) and
``public_numbers()`` (what ``view(seat)`` shows anyone), so the encoding cannot leak another hand
or the draw order. Seats are relative: block position 0
is the observer, 1 the next seat clockwise (seat + 1), and so on.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import numpy.typing as npt

from parlor.rl.layout import Entry, Layout, Vector
from parlor.tools import ToolsGame

#: Decision kinds of TOOLS, in the order of the ``pending_kind`` one-hot.
TOOLS_DECISIONS = ("play", "drawn_card", "choose_color", "brush_second_card", "box_of_nails")
HAND_SCALE = 10.0  # hand sizes and counts are divided by this (hands rarely pass 20 cards)


class ToolsEncoder:
    """Builds the layout for a deck and player count, and encodes views into it."""

    def __init__(self, game: ToolsGame) -> None:
        deck = game.deck
        self.codes: tuple[str, ...] = deck.codes
        self.colors: tuple[str, ...] = deck.colors
        self.kind = {code: k for k, code in enumerate(self.codes)}
        self.copies = [max(1, c) for c in deck.counts]
        self.deck_size = deck.size
        self.n = game.num_players
        self.max_turns = game.options.max_turns
        K, C, n = len(self.codes), len(self.colors), self.n
        kinds = ", ".join(f"`{c}`" for c in self.codes)
        self.layout = Layout(
            [
                Entry(
                    "hand",
                    K,
                    f"copies of each card kind in the observer's hand ({kinds})",
                    "count / 10",
                ),
                Entry("top", K, "the face-up card's kind, in the same kind order", "one-hot"),
                Entry(
                    "color",
                    C,
                    f"the colour in force ({', '.join(self.colors)}); none after an unbound wild",
                    "one-hot",
                ),
                Entry(
                    "direction",
                    1,
                    "1 while play goes clockwise (seat + 1 is next), 0 counterclockwise",
                    "0/1",
                ),
                Entry(
                    "hand_sizes",
                    n,
                    "cards held by each seat, relative: the observer first, then seat + 1, + 2...",
                    "count / 10",
                ),
                Entry(
                    "decider",
                    n,
                    "who must decide now, as a relative seat; all 0 once the game is over",
                    "one-hot",
                ),
                Entry(
                    "pending_kind",
                    len(TOOLS_DECISIONS),
                    f"the pending decision ({', '.join(TOOLS_DECISIONS)})",
                    "one-hot",
                ),
                Entry(
                    "drawn",
                    K,
                    "the card just drawn, only when the observer drew it and must decide on it",
                    "one-hot",
                ),
                Entry(
                    "good_nail_penalty",
                    2,
                    "the observer, on a good nail with no play, pays with two hammers / draws two",
                    "0/1",
                ),
                Entry(
                    "box_penalty",
                    1,
                    "cards the box-of-nails stack makes the next loser draw",
                    "count / 10",
                ),
                Entry("draw_pile", 1, "cards left in the draw pile", "count / deck size"),
                Entry(
                    "discard",
                    K,
                    "copies of each kind in the discard pile (public: every card played)",
                    "count / copies in deck",
                ),
                Entry(
                    "turns_left",
                    1,
                    "turns left before the max_turns limit ends the game; 0 when there is no limit",
                    "turns / max_turns",
                ),
            ]
        )
        self._prepare()

    def _prepare(self) -> None:
        """Value tables and, per observing seat, the vector last encoded for it.

        A count's value is the float32 sum of that many ``1 / scale`` steps, as the vector once
        added them one card at a time: the tables keep every byte of that encoding. Each seat's
        vector is kept with the numbers it was written from (its hand, the discard counts, the
        one-hot positions); ``encode`` compares the game's numbers with those and rewrites only
        the entries that differ, so the result is always the game's, whatever happened since
        (another game, a clone, a restored snapshot): the comparison is the whole cache key.
        The discard block's key is the pile itself and its length: the engine only appends to
        that list or replaces it (another game, a clone and a restore have another list). The
        hand block's is the engine's log of that hand (``hand_log``) and its length, the same
        way: the entries past it say which kinds to rewrite, and another list is compared."""
        lay = self.layout
        K = len(self.codes)
        start = {e.name: lay.slice(e.name).start for e in lay.entries}
        self._start = start
        most = self.deck_size + 1
        # Python lists of the float32 values (exact), written one entry at a time through a
        # memoryview of the vector: cheaper than NumPy's per-call setup for such short rows.
        self._hand_value: list[float] = _sums(HAND_SCALE, most).tolist()
        self._discard_value: list[list[float]] = [
            _sums(float(c), most).tolist() for c in self.copies
        ]
        self._order = [[(seat + i) % self.n for i in range(self.n)] for seat in range(self.n)]
        # Each seat's vector is the start of a buffer one float longer: the last float is
        # scratch, where a one-hot entry that is absent (no colour, no drawn card) is written,
        # so that the one-hot positions are a tuple of fixed length, built in one go.
        buffers = [np.zeros(lay.size + 1, dtype=np.float32) for _ in range(self.n)]
        self._scratch = lay.size
        self._vectors = [b[: lay.size] for b in buffers]
        # (typed Any: typeshed knows memoryview item writes as ints only, not a float32 format)
        self._views: list[Any] = [memoryview(cast(Any, b)) for b in buffers]
        self._hands = [[0] * K for _ in range(self.n)]
        # The engine's log of each seat's hand that ``_hands`` follows, and how many of its
        # entries: the engine only appends to that list or starts another (see
        # ToolsGame.hand_log), so the entries past that length are the changes since.
        self._logs: list[list[int] | None] = [None] * self.n
        self._logged = [0] * self.n
        self._discards = [[0] * K for _ in range(self.n)]
        # The discard pile each seat's block was last brought up to, and how many of its cards:
        # the engine only appends to that list or replaces it (see ToolsGame.discard_counts), so
        # the cards past that length are the new ones, and another list is counted afresh.
        self._piles: list[list[int] | None] = [None] * self.n
        self._piled = [0] * self.n
        self._hots: list[tuple[int, ...]] = [() for _ in range(self.n)]
        # Per observing seat, each hand size's place in its vector and the seat it is of.
        self._size_places = [
            [(start["hand_sizes"] + i, p) for i, p in enumerate(order)] for order in self._order
        ]
        # The entries' offsets as attributes (no dict lookup per entry per call).
        self._hand_at, self._discard_at = start["hand"], start["discard"]
        self._top_at, self._color_at = start["top"], start["color"]
        self._decider_at, self._kind_at = start["decider"], start["pending_kind"]
        self._drawn_at, self._penalty_at = start["drawn"], start["good_nail_penalty"]
        self._direction_at, self._box_at = start["direction"], start["box_penalty"]
        self._pile_at, self._turns_at = start["draw_pile"], start["turns_left"]
        # (pending_numbers' kind indices are PHASE_NAMES', whose first five are TOOLS_DECISIONS)

    def encode(self, game: ToolsGame, seat: int) -> Vector:
        """What ``seat`` may see, from the engine's per-seat and public queries (never another
        hand: ``hand_counts`` and ``pending_numbers`` name the seat looking), as a new array."""
        return self.update(game, seat).copy()

    def encode_into(self, game: ToolsGame, seat: int, out: Vector) -> None:
        """``encode`` written into ``out`` (a row of a batch) instead of a new array."""
        out[:] = self.update(game, seat)

    def update(self, game: ToolsGame, seat: int) -> Vector:
        """The encoder's own vector for ``seat``, brought up to date (read it, don't keep it:
        the next call for that seat changes it)."""
        v = self._views[seat]
        decider, kind, drawn, penalty = game.pending_numbers(seat)
        # The hand: the engine's log of what entered and left it (kind k, or ~k), past the
        # length read last time, while it is the same list; else the hand itself, compared.
        log = game.hand_log(seat)
        logged = self._logged[seat]
        if log is self._logs[seat] and len(log) >= logged:
            if len(log) > logged:
                value, base, counts = self._hand_value, self._hand_at, self._hands[seat]
                for k in log[logged:]:
                    if k < 0:
                        k = ~k
                        c = counts[k] = counts[k] - 1
                    else:
                        c = counts[k] = counts[k] + 1
                    v[base + k] = value[c]
                self._logged[seat] = len(log)
        else:
            hand = game.hand_counts(seat)
            old = self._hands[seat]
            if hand != old:
                value, base = self._hand_value, self._hand_at
                for k, c in enumerate(hand):
                    if c != old[k]:
                        v[base + k] = value[c]
                self._hands[seat] = hand
            self._logs[seat] = log
            self._logged[seat] = len(log)
        # The discard pile is public (every card played, in ``view``): its new cards are read
        # from the pile itself, which the engine only appends to or replaces.
        discard = game.discard
        counted = self._piled[seat]
        if discard is self._piles[seat] and len(discard) >= counted:
            if len(discard) > counted:
                values, base, counts = self._discard_value, self._discard_at, self._discards[seat]
                for k in discard[counted:]:
                    c = counts[k] = counts[k] + 1
                    v[base + k] = values[k][c]
                self._piled[seat] = len(discard)
        else:
            counts = game.discard_counts()
            old = self._discards[seat]
            if counts != old:
                values, base = self._discard_value, self._discard_at
                for k, c in enumerate(counts):
                    if c != old[k]:
                        v[base + k] = values[k][c]
                self._discards[seat] = counts
            self._piles[seat] = discard
            self._piled[seat] = len(discard)
        top, color, direction, box, pile, turn = game.public_numbers()
        scratch = self._scratch
        if decider >= 0:
            hot: tuple[int, ...] = (
                self._top_at + top,
                scratch if color < 0 else self._color_at + color,
                self._decider_at + (decider - seat) % self.n,
                self._kind_at + kind,
                scratch if drawn < 0 else self._drawn_at + drawn,  # (only the drawer sees it)
                scratch if penalty < 0 else self._penalty_at + penalty,
            )
        else:
            hot = (self._top_at + top, scratch if color < 0 else self._color_at + color)
        was = self._hots[seat]
        if hot != was:
            for i in was:
                v[i] = 0.0
            for i in hot:
                v[i] = 1.0
            self._hots[seat] = hot
        v[self._direction_at] = 1.0 if direction == 1 else 0.0
        sizes = game.hand_sizes
        for i, p in self._size_places[seat]:
            v[i] = sizes[p] / HAND_SCALE
        v[self._box_at] = box / HAND_SCALE
        v[self._pile_at] = pile / self.deck_size
        if self.max_turns:
            v[self._turns_at] = max(0, self.max_turns - turn) / self.max_turns
        return self._vectors[seat]


def _sums(scale: float, most: int) -> npt.NDArray[np.float32]:
    """``[0, 1/scale, 1/scale + 1/scale, ...]`` summed in float32, ``most`` values."""
    out = np.zeros(most, dtype=np.float32)
    acc = np.zeros(1, dtype=np.float32)
    for c in range(1, most):
        acc[0] += 1.0 / scale
        out[c] = acc[0]
    return out

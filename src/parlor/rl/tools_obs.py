"""The TOOLS observation: what one seat may see, as a fixed float vector.

Everything is read from the engine's queries of what that seat may see: ``hand_counts(seat)`` and
``pending_for(seat)`` (its own hand; the drawn card only to the one who drew it), and the public
``hand_sizes``, ``discard_counts()`` and ``public_numbers()`` (what ``view(seat)`` shows anyone), so
the encoding cannot leak another hand or the draw order. Seats are relative: block position 0
is the observer, 1 the next seat clockwise (seat + 1), and so on.
"""

from __future__ import annotations

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
        """Slices and value tables, so that ``encode`` fills whole blocks with one NumPy call.

        A count's value is the float32 sum of that many ``1 / scale`` steps, as the vector once
        added them one card at a time: the tables keep every byte of that encoding."""
        lay = self.layout
        self._blank = lay.zeros()
        self._slices = {e.name: lay.slice(e.name) for e in lay.entries}
        self._start = {name: sl.start for name, sl in self._slices.items()}
        most = self.deck_size + 1
        # As Python lists of the float32 values (exact): a list comprehension over them fills a
        # block faster than NumPy's fancy indexing of such short rows.
        self._hand_value: list[float] = _sums(HAND_SCALE, most).tolist()
        self._discard_value: list[list[float]] = [
            _sums(float(c), most).tolist() for c in self.copies
        ]
        self._order = [[(seat + i) % self.n for i in range(self.n)] for seat in range(self.n)]
        self._decisions = {kind: i for i, kind in enumerate(TOOLS_DECISIONS)}

    def encode(self, game: ToolsGame, seat: int) -> Vector:
        """What ``seat`` may see, from the engine's per-seat and public queries (never another
        hand: ``hand_counts`` and ``pending_for`` name the seat looking)."""
        v = self._blank.copy()
        sl, at, n = self._slices, self._start, self.n
        pending = game.pending_for(seat)
        value = self._hand_value
        v[sl["hand"]] = [value[c] for c in game.hand_counts(seat)]
        top, color, direction, box, pile, turn = game.public_numbers()
        v[at["top"] + top] = 1.0
        if color >= 0:
            v[at["color"] + color] = 1.0
        v[at["direction"]] = 1.0 if direction == 1 else 0.0
        sizes = game.hand_sizes
        v[sl["hand_sizes"]] = [sizes[p] / HAND_SCALE for p in self._order[seat]]
        if pending is not None:
            v[at["decider"] + (pending.player - seat) % n] = 1.0
            v[at["pending_kind"] + self._decisions[pending.kind]] = 1.0
            info = pending.info
            if "drawn" in info:  # the engine shows it only to the one who drew
                v[at["drawn"] + self.kind[info["drawn"]]] = 1.0
            penalty = info.get("good_nail_penalty")
            if penalty is not None:
                v[at["good_nail_penalty"] + (0 if penalty == "two_hammers" else 1)] = 1.0
        v[at["box_penalty"]] = box / HAND_SCALE
        v[at["draw_pile"]] = pile / self.deck_size
        counts = game.discard_counts()
        v[sl["discard"]] = [row[c] for row, c in zip(self._discard_value, counts, strict=True)]
        if self.max_turns:
            v[at["turns_left"]] = max(0, self.max_turns - turn) / self.max_turns
        return v


def _sums(scale: float, most: int) -> npt.NDArray[np.float32]:
    """``[0, 1/scale, 1/scale + 1/scale, ...]`` summed in float32, ``most`` values."""
    out = np.zeros(most, dtype=np.float32)
    acc = np.zeros(1, dtype=np.float32)
    for c in range(1, most):
        acc[0] += 1.0 / scale
        out[c] = acc[0]
    return out

"""The TOOLS observation: what one seat may see, as a fixed float vector.

Everything is read from ``game.view(seat)``, the engine's own statement of what that seat may see
(its hand, the others' hand sizes, the face-up pile; the drawn card only to the one who drew it),
so the encoding cannot leak another hand or the draw order. Seats are relative: block position 0
is the observer, 1 the next seat clockwise (seat + 1), and so on.
"""

from __future__ import annotations

from typing import Any

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

    def encode(self, game: ToolsGame, seat: int) -> Vector:
        view: dict[str, Any] = game.view(seat)
        lay, v, n = self.layout, self.layout.zeros(), self.n
        kind = self.kind
        hand = v[lay.slice("hand")]
        for code in view["hand"]:
            hand[kind[code]] += 1.0 / HAND_SCALE
        lay.hot(v, "top", kind[view["top"]])
        if view["color"] is not None:
            lay.hot(v, "color", self.colors.index(view["color"]))
        lay.put(v, "direction", 1.0 if view["direction"] == "clockwise" else 0.0)
        sizes = view["hand_sizes"]
        lay.put(v, "hand_sizes", [sizes[(seat + i) % n] / HAND_SCALE for i in range(n)])
        pending = view["pending"]
        if pending is not None:
            lay.hot(v, "decider", (pending["player"] - seat) % n)
            lay.hot(v, "pending_kind", TOOLS_DECISIONS.index(pending["kind"]))
            info = pending["info"]
            if "drawn" in info:  # the engine shows it only to the one who drew
                lay.hot(v, "drawn", kind[info["drawn"]])
            penalty = info.get("good_nail_penalty")
            if penalty is not None:
                lay.hot(v, "good_nail_penalty", 0 if penalty == "two_hammers" else 1)
        lay.put(v, "box_penalty", view["box_penalty"] / HAND_SCALE)
        lay.put(v, "draw_pile", view["draw_pile"] / self.deck_size)
        discard = v[lay.slice("discard")]
        for code in view["discard"]:
            k = kind[code]
            discard[k] += 1.0 / self.copies[k]
        if self.max_turns:
            lay.put(v, "turns_left", max(0, self.max_turns - view["turn"]) / self.max_turns)
        return v

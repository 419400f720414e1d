"""A rule-based TOOLS player, built on the greedy bot of :mod:`parlor.bots.tools_greedy`.

The greedy bot plays whenever it can, attacking cards first and wilds last. This player keeps that
backbone (it defers to the greedy bot for the drawn card and anything not listed here) and adds
purpose:

* it keeps one box of nails back as a counter to the next box played at it, unless the next player
  is close to going out, and always answers a box of nails with a box;
* it attacks harder when the next player is low on cards (toolbox, box, good nail, smashed finger
  first);
* it lays a good nail of the color whose hammers are most accounted for (in its hand or on the
  discard pile), so the next player is least likely to hold the hammer that repairs it;
* it chains a smashed finger (or, with two players, a change of turn that skips) when it holds a
  card to follow it with;
* after a paint brush it names the color it holds most (nails and action cards count more than
  hammers, which fit on any hammer), and plays a second card of that color;
* the good-nail penalty gets rid of the hammers of the colors it holds most of.

It reads only ``legal_actions`` and its own ``view``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from parlor.bots.tools_greedy import GreedyBot
from parlor.core.game import Game
from parlor.tools.actions import ChooseColor, PenaltyHammers, PlayCard, ToolsAction

# Lower is played first.
_BASE = {
    "good_nail": 1.0,
    "box_of_nails": 1.0,
    "smashed_finger": 1.5,
    "bent_nail": 2.0,
    "reverse": 2.2,
    "hammer": 3.0,
    "toolbox": 4.0,
    "paint_brush": 5.0,
    "wild_hammer": 6.0,
}
_ATTACKS = frozenset({"toolbox", "box_of_nails", "good_nail", "smashed_finger"})


_SPLIT: dict[str, tuple[str, str]] = {}


def _split(code: str) -> tuple[str, str]:
    """``"hammer:red"`` -> ``("hammer", "red")``; ``"toolbox"`` -> ``("toolbox", "")`` (cached:
    rollouts ask this millions of times)."""
    parts = _SPLIT.get(code)
    if parts is None:
        kind, _, color = code.partition(":")
        parts = _SPLIT[code] = (kind, color)
    return parts


def _kind(code: str) -> str:
    return _split(code)[0]


def _color(code: str) -> str:
    return _split(code)[1]


class ToolsHeuristicBot(GreedyBot):
    """The purposeful TOOLS player described in the module docstring.

    ``danger`` is the hand size of the next player at or below which it attacks at once.
    """

    name = "heuristic"

    def __init__(self, seed: int | None = None, *, danger: int = 2) -> None:
        super().__init__(seed)
        self.danger = danger

    def choose(self, game: Game[Any], player: int) -> ToolsAction:
        actions: list[ToolsAction] = game.legal_actions(player)
        if not actions:
            raise ValueError(f"player {player} has no legal action")
        if len(actions) == 1:
            return actions[0]
        view = game.view(player)
        hand: list[str] = view["hand"]
        plays = [a for a in actions if isinstance(a, PlayCard)]
        if plays:
            return self._best_play(view, player, hand, plays)
        choices = [a for a in actions if isinstance(a, ChooseColor)]
        if choices:
            weights = self.color_weights(hand)
            return max(choices, key=lambda a: (weights.get(a.color, 0.0), self.rng.random()))
        penalties = [a for a in actions if isinstance(a, PenaltyHammers)]
        if penalties:
            weights = self.color_weights(hand)
            hammers = Counter(_color(c) for c in hand if _kind(c) == "hammer")

            # Shed hammers of colors held in number; keep the lone hammer of a color we need.
            def shed(a: PenaltyHammers) -> tuple[float, float]:
                return (
                    hammers[a.first] + hammers[a.second] - 0.1 * weights.get(a.second, 0.0),
                    self.rng.random(),
                )

            return max(penalties, key=shed)
        return super().choose(game, player)

    @staticmethod
    def color_weights(hand: list[str]) -> dict[str, float]:
        """How much each color is worth naming: nails and action cards 1, hammers 0.5."""
        weights: dict[str, float] = {}
        for code, count in Counter(hand).items():
            kind, color = _split(code)
            if color:
                weights[color] = weights.get(color, 0.0) + count * (
                    0.5 if kind == "hammer" else 1.0
                )
        return weights

    def _best_play(
        self, view: dict[str, Any], player: int, hand: list[str], plays: list[PlayCard]
    ) -> PlayCard:
        sizes: list[int] = view["hand_sizes"]
        n = len(sizes)
        step = 1 if view["direction"] == "clockwise" else -1
        nxt = (player + step) % n
        threatened = sizes[nxt] <= self.danger
        in_hand = Counter(hand)
        kinds: Counter[str] = Counter()
        for code, count in in_hand.items():
            kinds[_kind(code)] += count
        weights = self.color_weights(hand)
        seen_cards: Counter[str] | None = None

        def seen(color: str) -> int:
            """Hammers of ``color`` accounted for: in hand and on the discard pile."""
            nonlocal seen_cards
            if seen_cards is None:
                seen_cards = Counter(view["discard"])
                seen_cards.update(hand)
            return seen_cards["hammer:" + color]

        def follow_ups(code: str) -> int:
            """Cards left in hand that could be played on ``code`` by this same player."""
            color = _color(code)
            count = 0
            for other, k in in_hand.items():
                k -= 1 if other == code else 0
                if k <= 0:
                    continue
                ok = _kind(other) in ("toolbox", "wild_hammer", "paint_brush")
                ok = ok or _color(other) == color or _kind(other) == _kind(code)
                if ok:
                    count += k
            return count

        def score(a: PlayCard) -> tuple[float, float, float]:
            kind, color = _kind(a.card), _color(a.card)
            value = _BASE[kind]
            if kind == "box_of_nails" and kinds["box_of_nails"] == 1 and not threatened:
                value = 3.5  # keep the last box as a counter
            if threatened and kind in _ATTACKS:
                value = 0.0
            if kind == "good_nail":
                value -= 0.1 * seen(color)
            if kind == "smashed_finger" or (kind == "reverse" and n == 2):
                value -= 0.5 if follow_ups(a.card) else -0.5
            if len(hand) == 2 and follow_ups(a.card) == 0 and kind not in _ATTACKS:
                # Going out needs the last card to be playable: prefer keeping a wild for it.
                value += 0.5
            return (value, -weights.get(color, 0.0), self.rng.random())

        return min(plays, key=score)

"""Helpers for the TOOLS tests: rig a game into a chosen position without breaking card counts."""

from __future__ import annotations

from collections import Counter
from typing import Any

from parlor import tools
from parlor.tools.game import BOX, PLAY, ToolsGame


def rig(
    game: ToolsGame,
    hands: dict[int, list[str]],
    top: str,
    draw_top: list[str] | None = None,
    current: int = 0,
    direction: int = 1,
    box_penalty: int = 0,
    color: str | None = None,
    draw_size: int | None = None,
) -> ToolsGame:
    """Put ``game`` in a chosen position: the listed hands exactly, ``top`` alone on the discard
    pile, ``draw_top`` on top of the draw pile (last = drawn first). Every other card of the deck
    fills the unlisted hands (7 each) and the draw pile, then any surplus goes under ``top`` in the
    discard pile (so the total is conserved). ``draw_size`` limits the draw pile."""
    deck = game.deck
    rest = Counter({code: n for code, n in deck.copies.items()})
    wanted = [c for h in hands.values() for c in h] + [top] + list(draw_top or [])
    for code in wanted:
        assert rest[code] > 0, f"the deck has no spare {code}"
        rest[code] -= 1
    pool = sorted(rest.elements())
    t = game._t
    n = game.num_players
    game.hands = [[0] * t.K for _ in range(n)]
    for p in range(n):
        cards = hands.get(p)
        if cards is None:
            cards = [pool.pop() for _ in range(7)]
        for code in cards:
            game.hands[p][t.kind_by_code[code]] += 1
    game.sizes = [sum(h) for h in game.hands]
    game._count_held()  # (the engine keeps a bit per kind held beside the counts)
    keep = len(pool) if draw_size is None else max(0, draw_size - len(draw_top or []))
    under = pool[keep:]
    pool = pool[:keep]
    game.draw_pile = [t.kind_by_code[c] for c in pool + list(draw_top or [])]
    game.discard = [t.kind_by_code[c] for c in under] + [t.kind_by_code[top]]
    k = t.kind_by_code[top]
    if t.kcolor[k] >= 0:
        game.ctx = k
        game.color = t.kcolor[k]
    elif color is not None:
        c = t.color_by_name[color]
        game.ctx = t.bind_ctx[c]
        game.color = c
    else:
        game.ctx = t.free_ctx
        game.color = None
    game.current = current
    game.direction = direction
    game.box_penalty = box_penalty
    game.phase = BOX if box_penalty else PLAY
    game.drawn = -1
    game.idle = 0
    return game


def fresh(players: int = 3, seed: int = 0, **options: Any) -> ToolsGame:
    return tools.new_game(players, seed=seed, options=options or None)


def total_cards(game: ToolsGame) -> int:
    view = game.view(None)
    return sum(view["hand_sizes"]) + view["draw_pile"] + len(view["discard"])


def hand(game: ToolsGame, p: int) -> list[str]:
    cards: list[str] = game.view(p)["hand"]
    return cards

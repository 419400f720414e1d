"""Shuffling the TOOLS piles: ``random.Random.shuffle``'s permutation, cheaper.

A module of its own so that the optional compiled build (setup.py) compiles it: a game's setup is
mostly this.
"""

from __future__ import annotations

import random
from functools import lru_cache


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """Shuffle ``cards`` in place exactly as ``rng.shuffle(cards)`` does (the same permutation and
    generator state after: a Fisher-Yates walk down the list drawing ``bit_length(i + 1)`` bits
    for place ``i``, again while they exceed it), without a method call per card: setting up a
    game is mostly this. A generator of another kind shuffles its own way.

    >>> a, b = list(range(20)), list(range(20))
    >>> shuffle(random.Random(4), a); random.Random(4).shuffle(b); a == b
    True
    """
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    bits = rng.getrandbits
    for i, n, k in _walk(len(cards)):
        j: int = bits(k)
        while j >= n:
            j = bits(k)
        cards[i], cards[j] = cards[j], cards[i]


@lru_cache(maxsize=256)
def _walk(length: int) -> tuple[tuple[int, int, int], ...]:
    """The places of a Fisher-Yates walk down ``length`` cards: ``(place, places left, bits
    drawn)``, computed once per length (a deck, a discard pile: a few lengths recur)."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(length - 1, 0, -1))

"""The TOOLS engine's shuffle (``cards.shuffle``) is ``Random.shuffle``: the same order and the
same generator state after, so seeded deals and saved replays stay as they were."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from parlor.tools.shuffling import shuffle


@given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=0, max_value=300))
def test_shuffle_equals_random_shuffle(seed: int, size: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    a, b = list(range(size)), list(range(size))
    shuffle(ours, a)
    theirs.shuffle(b)
    assert a == b
    assert ours.getstate() == theirs.getstate()

"""The engine's die (``turn._die``) draws from the generator exactly as ``randint(1, 6)``: same
values, same generator state after, so seeded games and saved replays stay as they were (S4)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from parlor.monopoly.turn import _die


@given(st.integers(min_value=0, max_value=2**64))
def test_die_equals_randint(seed: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    for _ in range(50):
        assert _die(ours.getrandbits) == theirs.randint(1, 6)
    assert ours.getstate() == theirs.getstate()

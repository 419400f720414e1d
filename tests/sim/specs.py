"""Game specs the simulation tests share."""

from __future__ import annotations

from parlor.sim import GameSpec

#: A property edition whose games end (a quick Matador game of 12 rounds, time not called), with
#: a line-up that makes wins, seats and bots differ.
QUICK_MATADOR = GameSpec(
    game="monopoly",
    edition="matador",
    players=3,
    bots=("random", "heuristic", "random"),
    options={"variant": "quick", "time_limit_rounds": 12, "time_call_allowed": False},
    max_decisions=3000,
)

"""Shared helpers: environment configurations covering every game, and masked random play."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from parlor.rl import ParlorAECEnv, property_env, tools_env

THREE_COLOR_DECK = """
name = "three colours"
colors = ["red", "blue", "green"]

[copies]
hammer = 6
good_nail = 2
bent_nail = 2
smashed_finger = 1
reverse = 1
box_of_nails = 1

[wilds]
toolbox = 2
wild_hammer = 2
paint_brush = 2
"""

# Every game: TOOLS at both ends of its player range and with options; every property edition
# with its variants. Property games are capped so that the API checks stay fast.
CONFIGS: dict[str, Callable[..., ParlorAECEnv]] = {
    "tools-2": lambda **kw: tools_env(2, **kw),
    "tools-4-options": lambda **kw: tools_env(
        4, options={"hand_size": 5, "box_stacking": False, "max_turns": 60}, **kw
    ),
    "tools-10": lambda **kw: tools_env(10, **kw),
    "classic-4": lambda **kw: property_env("classic", 4, max_steps=1500, **kw),
    "classic-short-3": lambda **kw: property_env(
        "classic", 3, options={"variant": "short"}, max_steps=1500, **kw
    ),
    "matco-2-time-limit": lambda **kw: property_env(
        "matco", 2, options={"variant": "time_limit", "time_limit_rounds": 15}, max_steps=1500, **kw
    ),
    "latam-5-house-rules": lambda **kw: property_env(
        "latam",
        5,
        options={"free_parking_pot": True, "rent_claim": True, "auctions": False},
        max_steps=1500,
        **kw,
    ),
    "matador-4-quick": lambda **kw: property_env(
        "matador", 4, options={"variant": "quick", "time_limit_rounds": 12}, max_steps=1500, **kw
    ),
}


@pytest.fixture
def three_color_deck(tmp_path: Path) -> str:
    path = tmp_path / "three.toml"
    path.write_text(THREE_COLOR_DECK)
    return str(path)


def play_random(
    env: ParlorAECEnv,
    seed: int,
    on_turn: Callable[[str, dict[str, Any], float], None] | None = None,
) -> dict[str, float]:
    """Play one episode with uniformly random legal ids; return each agent's total reward."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            action = None
        else:
            assert (info["action_mask"] == obs["action_mask"]).all()
            if on_turn is not None:
                on_turn(agent, obs, reward)
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    return totals

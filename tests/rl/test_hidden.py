"""No hidden information in the observations: resampling everything a seat cannot see (other
hands, deck order, future dice: ``game.determinize(seat, seed)``) leaves its observation unchanged,
while the same resampling does change what the other seats see (so the check can fail)."""

from __future__ import annotations

import numpy as np
import pytest

from parlor.rl import ParlorAECEnv, property_env, tools_env
from parlor.rl.tools_obs import TOOLS_DECISIONS


def resample_checks(env: ParlorAECEnv, seeds: range, every: int) -> tuple[int, int]:
    """Play masked random games; every ``every`` steps compare each seat's observation with the
    one it gets in a determinized copy from its own point of view. Returns (checks, changed)."""
    encoder, n = env.table.encoder, env.table.n
    checks = changed = 0
    for seed in seeds:
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        step = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            if step % every == 0:
                game = env.game
                for seat in range(n):
                    copy = game.determinize(seat, seed=1000 + step)
                    mine = encoder.encode(game, seat)
                    assert np.array_equal(encoder.encode(copy, seat), mine), (seat, step)
                    checks += 1
                    other = (seat + 1) % n
                    changed += not np.array_equal(
                        encoder.encode(copy, other), encoder.encode(game, other)
                    )
            step += 1
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return checks, changed


@pytest.mark.parametrize("players", [2, 4])
def test_tools_observation_ignores_what_the_seat_cannot_see(players: int) -> None:
    checks, changed = resample_checks(tools_env(players), range(8), every=3)
    assert checks > 100
    assert changed > checks // 2  # another seat's hand was redealt: its view differs


def test_tools_drawn_card_is_seen_only_by_the_drawer() -> None:
    env = tools_env(3)
    layout = env.table.layout
    drawn = layout.slice("drawn")
    for seed in range(20):
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            pending = env.game.pending
            assert pending is not None
            pending = env.game.pending_for(pending.player)  # (the drawer's own kind)
            assert pending is not None
            if pending.kind == "drawn_card":
                assert obs["observation"][drawn].sum() == 1.0
                kind = layout.slice("pending_kind")
                assert obs["observation"][kind].argmax() == TOOLS_DECISIONS.index("drawn_card")
                for other in env.possible_agents:
                    if other != agent:
                        seen = env.observe(other)["observation"]
                        assert seen[drawn].sum() == 0.0
                        # nor that it is asked about a drawn (so playable) card: issue 20
                        assert seen[kind].argmax() == TOOLS_DECISIONS.index("play")
                return
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    pytest.fail("no drawn-card decision in 20 games")


@pytest.mark.parametrize("edition", ["classic", "matador"])
def test_property_observation_ignores_deck_order_and_dice(edition: str) -> None:
    env = property_env(edition, 3, max_steps=600)
    checks, _ = resample_checks(env, range(2), every=25)
    assert checks > 30

"""PettingZoo AEC environments for every Parlor game.

``agent_selection`` is always the seat that holds the engine's pending decision: in the property
games that is often not the dice holder (auction bids, trade answers, a debtor raising funds).
Rewards follow PettingZoo's conventions: every transition's rewards are added to each agent's
``_cumulative_rewards``, and an agent reads what happened since its last move (rent paid to it,
its hand growing, the game's end) at its next ``last()``. A bankrupt player is terminated at once
(its -1 waits for its final, ``None``, step); everyone is terminated when the game ends.

>>> from parlor.rl import tools_env
>>> env = tools_env(players=3)
>>> env.reset(seed=5)
>>> obs, reward, terminated, truncated, info = env.last()
>>> env.agent_selection, obs["observation"].dtype, obs["action_mask"].dtype
('player_0', dtype('float32'), dtype('int8'))
>>> bool((info["action_mask"] == obs["action_mask"]).all())
True
>>> env.game.seed  # reset(seed=...) starts the engine's game with exactly that seed
5
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from parlor.core.game import Game
from parlor.rl.aec_core import AECCore
from parlor.rl.table import GameSpec, Table

Observation = dict[str, npt.NDArray[Any]]
OBS_HIGH = 1000.0


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def observation_space(size: int, num_actions: int) -> spaces.Dict:
    return spaces.Dict(
        {
            # Every entry is >= 0; the upper bound is loose (cash in starting cashes, counts / 10).
            "observation": spaces.Box(low=0.0, high=OBS_HIGH, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(num_actions,), dtype=np.int8),
        }
    )


class ParlorAECEnv(AECEnv):  # type: ignore[misc]
    """One Parlor game as a PettingZoo AEC environment; make one with :func:`parlor.rl.tools_env`
    or :func:`parlor.rl.property_env`. Keyword options are those of :class:`parlor.rl.table.Table`.
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "parlor_v0", "is_parallelizable": False}

    def __init__(
        self, spec: GameSpec, render_mode: str | None = None, **table_options: Any
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.render_mode = render_mode
        self.table = Table(spec, **table_options)
        self.metadata = {**self.metadata, "name": f"parlor_{spec.name}_v0"}
        n = self.table.n
        self.possible_agents = [agent_name(p) for p in range(n)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        obs_space = observation_space(self.table.layout.size, self.table.num_actions)
        act_space = spaces.Discrete(self.table.num_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        # The generator of game seeds for a reset without one, made when first needed from the
        # last seed given (None: fresh entropy): a seeded reset, the common case, makes none.
        self._rng: np.random.Generator | None = None
        self._rng_seed: int | None = None
        self.agents: list[str] = []
        self._core = AECCore(self.table, self.possible_agents)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game(self) -> Game[Any]:
        """The engine's game being played (for replay, logging and checks)."""
        return self.table.game

    # ----- the AEC protocol ------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng, self._rng_seed = None, seed
            game_seed = int(seed)
        else:
            if self._rng is None:
                self._rng = np.random.default_rng(self._rng_seed)
            game_seed = int(self._rng.integers(2**31 - 1))
        self.table.reset(game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        # (the step's work, on these dicts in place: parlor.rl.aec_core)
        self._core.bind(
            self.agents,
            self.rewards,
            self._cumulative_rewards,
            self.terminations,
            self.truncations,
            self.infos,
        )
        decider = self.table.decider
        self.agent_selection = agent_name(0 if decider is None else decider)
        self._core.refresh_infos(self.agent_selection)

    def agent_iter(self, max_iter: int = 2**63) -> _AgentIter:
        # (AECEnv.agent_iter's loop as a generator: resuming one costs less a step than
        # AECIterator.__next__, a Python method called through its type's slot)
        return _AgentIter(self, max_iter)

    def observe(self, agent: str) -> Observation:
        return self.table.observe(self._seat[agent])

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        # (AECEnv.last, with the observation read from the table directly)
        return self._core.last(self.agent_selection, observe)

    def step(self, action: Any) -> None:
        core = self._core
        selected = core.step(self.agent_selection, action)
        if selected is None:  # (a dead agent's step: PettingZoo's own)
            self._was_dead_step(action)
        else:
            self.agent_selection = selected
            if not core.deads_first:  # (the core put the masks in the infos)
                return
            self._deads_step_first()
        core.refresh_infos(self.agent_selection)

    def render(self) -> str | None:
        """The state as text: returned ("ansi") or printed ("human")."""
        if self.render_mode is None:
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _text(self) -> str:
        game = self.table.game
        lines = [f"{self.metadata['name']} step {self.table.steps}: {game.pending or game.outcome}"]
        pending = game.pending
        if pending is not None:
            describe = getattr(game, "describe", None)
            for i in game.legal_action_ids(pending.player)[:8]:
                action = game.action_from_id(i, pending.player)
                lines.append(f"  {i}: {describe(action) if describe else action!r}")
        return "\n".join(lines)

    def close(self) -> None:
        pass


class _AgentIter:
    """What ``agent_iter`` returns: each ``iter()`` of it yields ``agent_selection`` while there
    are agents, at most ``max_iter`` times (PettingZoo's AECIterable, the same way)."""

    def __init__(self, env: ParlorAECEnv, max_iter: int) -> None:
        self.env, self.max_iter = env, max_iter

    def __iter__(self) -> Iterator[str]:
        env, left = self.env, self.max_iter
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


def tools_env(
    players: int = 2,
    deck: str | None = None,
    options: dict[str, Any] | None = None,
    render_mode: str | None = None,
    **table_options: Any,
) -> ParlorAECEnv:
    """TOOLS for 2 to 10 players: ``deck`` a deck TOML file (None: the default deck), ``options``
    :class:`parlor.tools.ToolsOptions` fields."""
    spec = GameSpec("tools", players=players, options=dict(options or {}), deck=deck)
    return ParlorAECEnv(spec, render_mode, **table_options)


def property_env(
    edition: str = "classic",
    players: int = 4,
    options: dict[str, Any] | None = None,
    render_mode: str | None = None,
    **table_options: Any,
) -> ParlorAECEnv:
    """A property edition (``classic``, ``matco``, ``latam``, ``matador`` or a TOML path) with
    :class:`parlor.monopoly.RuleOptions` fields as ``options`` (``{"variant": "short"}``...)."""
    spec = GameSpec("monopoly", edition=edition, players=players, options=dict(options or {}))
    return ParlorAECEnv(spec, render_mode, **table_options)

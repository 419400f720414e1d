"""A Gymnasium environment: one learning seat against Parlor bots.

The learner's actions are integer ids checked against its mask; between its decisions the other
seats are played by bots from :func:`parlor.bots.registry.make_bot` (``random``, ``heuristic``,
``search``...), each seeded from the episode's seed so that ``reset(seed=...)`` replays the same
game for the same actions. The reward of a step is the learner's reward for everything that
happened from its action to its next decision (the bots' moves included).

Registered ids (``import parlor.rl`` registers them; keyword arguments pass through
``gymnasium.make``): ``parlor/Tools-v0`` (TOOLS, 2 players), ``parlor/Classic-v0``,
``parlor/Matco-v0``, ``parlor/Latam-v0``, ``parlor/Matador-v0`` (4 players).

>>> import gymnasium as gym
>>> import parlor.rl
>>> env = gym.make("parlor/Tools-v0", opponents="random")
>>> obs, info = env.reset(seed=3)
>>> action = int(obs["action_mask"].nonzero()[0][0])
>>> obs, reward, terminated, truncated, info = env.step(action)
>>> bool((env.unwrapped.action_masks() == obs["action_mask"]).all())
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt

from parlor.bots.base import Bot
from parlor.bots.registry import make_bot
from parlor.monopoly import EDITION_IDS
from parlor.rl.aec import Observation, observation_space
from parlor.rl.table import GameSpec, Table

ENV_IDS = {
    "parlor/Tools-v0": {"game": "tools", "players": 2},
    "parlor/Classic-v0": {"game": "classic", "players": 4},
    "parlor/Matco-v0": {"game": "matco", "players": 4},
    "parlor/Latam-v0": {"game": "latam", "players": 4},
    "parlor/Matador-v0": {"game": "matador", "players": 4},
}


def make_spec(
    game: str, players: int, options: dict[str, Any] | None = None, deck: str | None = None
) -> GameSpec:
    """``game`` is ``"tools"`` or a property edition (an id or a TOML path)."""
    if game == "tools":
        return GameSpec("tools", players=players, options=dict(options or {}), deck=deck)
    if deck is not None:
        raise ValueError("a deck is a TOOLS setting; property editions take options")
    return GameSpec("monopoly", edition=game, players=players, options=dict(options or {}))


class ParlorGymEnv(gym.Env[dict[str, Any], np.int64]):
    """One learning seat (``seat``: a number, or ``"random"`` to draw it each episode) against
    bots: ``opponents`` one bot name for every other seat or a list, in seat order skipping the
    learner; ``opponent_options`` keyword options for the bots (``{"simulations": 32}``).
    The remaining keywords are the :class:`parlor.rl.table.Table` options (rewards, limits,
    illegal actions)."""

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(
        self,
        game: str = "tools",
        players: int = 2,
        seat: int | str = "random",
        opponents: str | Sequence[str] = "random",
        opponent_options: dict[str, Any] | None = None,
        options: dict[str, Any] | None = None,
        deck: str | None = None,
        skip_forced: bool = False,
        render_mode: str | None = None,
        **table_options: Any,
    ) -> None:
        if game != "tools" and game not in EDITION_IDS and not str(game).endswith(".toml"):
            raise ValueError(f"unknown game {game!r}: 'tools' or one of {', '.join(EDITION_IDS)}")
        self.table = Table(make_spec(game, players, options, deck), **table_options)
        n = self.table.n
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"seat must be 0..{n - 1} or 'random', not {seat!r}")
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise ValueError(f"{n - 1} opponents needed, got {len(names)}")
        self.family = self.table.spec.family
        for name in names:
            make_bot(
                self.family, name, seed=0, **(opponent_options or {})
            )  # fail early on a bad name
        self.seat_choice = seat
        # True: a learner decision with a single legal id is played by the environment (its
        # reward goes into the next step's), so every step is a real choice.
        self.skip_forced = bool(skip_forced)
        self.forced_moves = 0  # forced decisions played for the learner this episode
        self.opponent_names = names
        self.opponent_options = dict(opponent_options or {})
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.render_mode = render_mode
        self.observation_space = observation_space(self.table.layout.size, self.table.num_actions)
        self.action_space = gym.spaces.Discrete(self.table.num_actions)
        self.seat = 0
        self.bots: dict[int, Bot] = {}

    @property
    def game(self) -> Any:
        return self.table.game

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal ids as booleans (what sb3-contrib's MaskablePPO asks for)."""
        return self.table.mask(self.seat).astype(bool)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        self.restart(seed=seed, options=options)
        return self._obs(), self._info()

    def restart(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """``reset`` without building the observation and the info (the batched environments
        write those into their arrays): the same game for the same seed."""
        super().reset(seed=seed)
        rng = self.np_random
        game_seed = int(seed) if seed is not None else int(rng.integers(2**31 - 1))
        n = self.table.n
        self.seat = int(rng.integers(n)) if self.seat_choice == "random" else int(self.seat_choice)
        others = [p for p in range(n) if p != self.seat]
        self.bots = {
            p: make_bot(
                self.family, name, seed=int(rng.integers(2**31 - 1)), **self.opponent_options
            )
            for p, name in zip(others, self.opponent_names, strict=True)
        }
        self.table.reset(game_seed)
        self.forced_moves = 0
        self._play_bots()  # (the rewards before the learner's first decision are all zero)

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        reward, terminated, truncated = self.advance(action)
        table = self.table
        info = self._info()
        if table.illegal_by is not None:
            info["illegal_action"] = True
        return self._obs(), reward, terminated, truncated, info

    def advance(self, action: Any) -> tuple[float, bool, bool]:
        """``step`` without building the observation and the info (the batched environments
        write those into their arrays): the reward, terminated, truncated."""
        table = self.table
        if table.over or table.decider != self.seat:
            raise RuntimeError("the episode is over: call reset()")
        reward = table.act_id(self.seat, action)[self.seat]
        reward += self._play_bots()
        terminated = table.game.is_over or table.illegal_by is not None or table.out(self.seat)
        truncated = table.truncated and not terminated
        return reward, terminated, truncated

    def advance_legal(self, action_id: int) -> tuple[float, bool, bool]:
        """``advance`` for an id that the learner's current mask allows (the batched environments
        check a whole batch's ids against the games' legal ids first): the same game, without
        checking the id again, nor working out every seat's reward on the moves that pay nobody."""
        table, seat = self.table, self.seat
        game = table.game
        reward = table.act_for(seat, game.action_from_id(action_id, seat), seat)
        if self.skip_forced:
            reward += self._play_bots()
        else:
            # ``_play_bots`` without the forced moves (the learner's decision ends it); a bot's
            # action is applied by the engine, which refuses an illegal one (no illegal_by). The
            # bots' rewards are summed apart, then added: the same float sums as ``advance``.
            bots, leave, total = self.bots, table.seats_leave, 0.0
            decider: int | None = None
            while not table.truncated:
                # (out: act_for pays a seat that goes out at once, so it is settled; asking
                # ``table.out`` would work the position out at every bot move)
                if leave and table.settled[seat]:
                    break
                decider = game.decider  # (the engine's: None once the game is over)
                if decider is None or decider == seat:
                    break
                total += table.act_for(decider, bots[decider].choose(game, decider), seat)
            reward += total
            if decider == seat:  # (most steps: the learner's turn again, within the cap, in play)
                return reward, False, False
        terminated, truncated = self.ending()
        return reward, terminated, truncated

    def ending(self) -> tuple[bool, bool]:
        """Terminated and truncated, after a step at whose end the learner does not decide (the
        game over, cut at the cap, or the learner out)."""
        table = self.table
        if table.game.is_over:
            return True, False
        if not table.truncated:
            # Out: the seats out are the settled ones while the game goes on within the cap
            # (``act_for`` and ``act`` pay a seat the step it goes out), so ``table.out`` need
            # not work the position out.
            return table.seats_leave and table.settled[self.seat], False
        terminated = table.out(self.seat)
        return terminated, not terminated

    def _play_bots(self) -> float:
        """Let the bots decide until the learner must (or the episode ends); its reward meanwhile.
        With ``skip_forced``, the learner's decisions that have one legal id are played here."""
        table, total = self.table, 0.0
        while not table.over and not table.out(self.seat):
            decider = table.decider
            if decider is None:
                break
            if decider == self.seat:
                if not self.skip_forced:
                    break
                legal = np.flatnonzero(table.mask(self.seat))
                if len(legal) != 1:
                    break
                self.forced_moves += 1
                total += table.act_id(self.seat, int(legal[0]))[self.seat]
                continue
            action = self.bots[decider].choose(table.game, decider)
            total += table.act(decider, action)[self.seat]
        return total

    def _obs(self) -> Observation:
        return self.table.observe(self.seat)

    def outcome_info(self) -> dict[str, Any]:
        """What ``step``'s info says of how the episode ended (``winners`` and ``reason``,
        ``leaders`` when cut at the cap, ``illegal_action``), without the mask and the seat."""
        info = self._info()
        del info["action_mask"], info["seat"]
        if self.table.illegal_by is not None:
            info["illegal_action"] = True
        return info

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.table.mask(self.seat), "seat": self.seat}
        outcome = self.table.game.outcome
        if outcome is not None:
            info["winners"] = outcome.winners
            info["reason"] = outcome.reason
        elif self.table.truncated:
            # Cut at the step cap: who leads now by the book's time-limit rule (for evaluations).
            info["leaders"] = self.table.spec.book_ranking(self.table.game)
        return info

    def render(self) -> str | None:
        """The state as text: returned ("ansi") or printed ("human")."""
        if self.render_mode is None:
            return None
        game = self.table.game
        text = f"seat {self.seat}, step {self.table.steps}: {game.pending or game.outcome}"
        if self.render_mode == "human":
            print(text)
            return None
        return text


def register_envs() -> None:
    """Register the ``parlor/...`` ids with Gymnasium (idempotent)."""
    for env_id, kwargs in ENV_IDS.items():
        if env_id not in gym.registry:
            gym.register(
                id=env_id,
                entry_point="parlor.rl.gym_env:ParlorGymEnv",
                # gym.make_vec(id, num_envs=N, vectorization_mode="vector_entry_point")
                vector_entry_point="parlor.rl.vector:ParlorVectorEnv",
                kwargs=dict(kwargs),
            )

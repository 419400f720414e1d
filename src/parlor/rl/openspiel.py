"""Parlor's games as OpenSpiel Python games (needs the ``openspiel`` extra: ``open_spiel``).

``register()`` registers ``parlor_tools`` (parameters ``players`` 2-10, ``options`` JSON of
TOOLS options, ``deck`` a TOML path or empty, ``max_steps``, ``seed``) and ``parlor_property``
(``edition``, ``players``, ``options`` JSON of rule options, ``max_steps``, ``seed``), so that
``pyspiel.load_game("parlor_tools(players=3)")`` and OpenSpiel's algorithms run on them.

Chance is *sampled* (``ChanceMode.SAMPLED_STOCHASTIC``): shuffles and dice come from the engine's
own seeded generator inside ``apply_action``, so no chance node is ever exposed; the k-th initial
state a game object makes uses the engine seed ``seed + k``. Search must not see that future, so
``clone()`` (what MCTS copies before it plays ahead) resamples everything the player to move cannot
know: the deck order, the future dice and the other hands (the engines' ``determinize``), from a
generator of the game object's own, seeded by ``seed``. A game made with ``clone=exact`` copies
instead, and a cloned state then replays the same future for the same actions (for tests and for
tools that need an exact copy). ``resample_from_infostate(player, sampler)`` gives the same kind of
copy for any player. Actions are the engine's ids; observations are the same vectors as the
PettingZoo environments' (docs/rl.md), read only from what the observer may see. Returns are the
win/loss rewards (+1 a sole winner, 0 tied winners, -1 the rest); a game cut at ``max_steps``
returns 0 to everyone. For example::

    import pyspiel
    from parlor.rl.openspiel import register
    register()
    game = pyspiel.load_game("parlor_tools(players=3)")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])

pyspiel is imported only by ``register()``. pyspiel's registry of games is a C++ static that
holds the two factories and lets them go in the C++ exit handlers, after the interpreter has shut
down; had that freed them, every process that registered the games would abort at exit (SIGABRT,
"PyThreadState_Get: the function must be called with the GIL held"). ``register()`` therefore
gives each factory one reference the interpreter never releases (``_keep_past_exit``): nothing
else does so reliably. The interpreter's shutdown empties the dict of every module still alive,
so the cycle of a module-level function through its own module's globals kept a factory alive
only while nothing held this package to the end (a compiled module that imports ``parlor`` holds
it: mypyc keeps its imports in C statics), and a closure, in no module's globals, never.
"""

from __future__ import annotations

import ctypes
import json
from collections.abc import Callable
from typing import Any

import numpy as np

from parlor.core.game import Game
from parlor.rl.table import GameSpec, outcome_reward

_COMMON = {"options": "{}", "max_steps": 10_000, "seed": 0, "clone": "resample"}
TOOLS_PARAMS = {"players": 2, "deck": "", **_COMMON}
PROPERTY_PARAMS = {"edition": "classic", "players": 4, **_COMMON}


# What register() defines (its classes derive from pyspiel's, imported only then).
_made: dict[str, Any] = {}


def register() -> None:
    """Register ``parlor_tools`` and ``parlor_property`` with pyspiel (once per process)."""
    if _made:
        return
    import pyspiel

    _made.update(_define(pyspiel))
    pyspiel.register_game(_made["tools_type"], _keep_past_exit(_tools_game))
    pyspiel.register_game(_made["property_type"], _keep_past_exit(_property_game))


def _keep_past_exit(factory: Callable[..., Any]) -> Callable[..., Any]:
    """``factory`` with one more reference that is never given back, so that pyspiel's release of
    it after the interpreter's shutdown (a C++ exit handler, without the GIL) frees nothing."""
    ctypes.pythonapi.Py_IncRef(ctypes.py_object(factory))
    return factory


def _tools_game(params: dict[str, Any] | None = None) -> Any:
    p = {**TOOLS_PARAMS, **(params or {})}
    spec = GameSpec(
        "tools", players=int(p["players"]), options=json.loads(p["options"]), deck=p["deck"] or None
    )
    return _made["game"](_made["tools_type"], spec, p)


def _property_game(params: dict[str, Any] | None = None) -> Any:
    p = {**PROPERTY_PARAMS, **(params or {})}
    spec = GameSpec(
        "monopoly",
        edition=str(p["edition"]),
        players=int(p["players"]),
        options=json.loads(p["options"]),
    )
    return _made["game"](_made["property_type"], spec, p)


def _define(pyspiel: Any) -> dict[str, Any]:
    def _game_type(
        short_name: str, long_name: str, params: dict[str, Any], players: tuple[int, int]
    ) -> Any:
        return pyspiel.GameType(
            short_name=short_name,
            long_name=long_name,
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.GENERAL_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=players[1],
            min_num_players=players[0],
            provides_information_state_string=False,
            provides_information_state_tensor=False,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=params,
        )

    class ParlorSpielGame(pyspiel.Game):  # type: ignore[misc]
        """One Parlor configuration as an OpenSpiel game."""

        def __init__(self, game_type: Any, spec: GameSpec, params: dict[str, Any]) -> None:
            self.spec = spec
            self.max_steps = int(params["max_steps"])
            self.base_seed = int(params["seed"])
            if params["clone"] not in ("resample", "exact"):
                raise ValueError(f"clone must be 'resample' or 'exact', not {params['clone']!r}")
            self.exact_clones = params["clone"] == "exact"
            # The seeds of the samples clone() and resample_from_infostate() make.
            self.samples = np.random.default_rng(self.base_seed)
            self.made = 0
            probe = spec.new_game(self.base_seed)
            self.encoder = spec.encoder(probe)
            info = pyspiel.GameInfo(
                num_distinct_actions=probe.num_actions,
                max_chance_outcomes=0,
                num_players=probe.num_players,
                min_utility=-1.0,
                max_utility=1.0,
                max_game_length=self.max_steps,
            )
            super().__init__(game_type, info, params)

        def new_initial_state(self) -> ParlorSpielState:
            seed = self.base_seed + self.made
            self.made += 1
            return ParlorSpielState(self, self.spec.new_game(seed))

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ParlorObserver:
            if iig_obs_type is not None and iig_obs_type.perfect_recall:
                raise ValueError(
                    "Parlor games provide observations, not perfect-recall information states"
                )
            return ParlorObserver(self)

    class ParlorSpielState(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: ParlorSpielGame, engine: Game[Any]) -> None:
            super().__init__(game)
            self.engine = engine
            self.steps = 0
            self.max_steps = game.max_steps

        def current_player(self) -> int:
            if self.is_terminal():
                return int(pyspiel.PlayerId.TERMINAL)
            pending = self.engine.pending
            assert pending is not None
            return pending.player

        def _legal_actions(self, player: int) -> list[int]:
            pending = self.engine.pending
            if self.is_terminal() or pending is None or pending.player != player:
                return []
            return self.engine.legal_action_ids(player)

        def _apply_action(self, action: int) -> None:
            player = self.current_player()
            if action not in self.engine.legal_action_ids(player):
                raise ValueError(f"action {action} is not legal for player {player} now")
            self.engine.apply(self.engine.action_from_id(int(action), player))
            self.steps += 1

        def _action_to_string(self, player: int, action: int) -> str:
            try:
                act = self.engine.action_from_id(int(action), player)
            except ValueError:
                return f"id {action}"
            describe = getattr(self.engine, "describe", None)
            return str(describe(act)) if describe else repr(act)

        def is_terminal(self) -> bool:
            return self.engine.is_over or self.steps >= self.max_steps

        def returns(self) -> list[float]:
            n = self.engine.num_players
            outcome = self.engine.outcome
            if outcome is None:
                return [0.0] * n
            return [outcome_reward(outcome.winners, p) for p in range(n)]

        def clone(self) -> ParlorSpielState:
            # (pyspiel's own clone copies the attributes, engine generator and all)
            return self.__deepcopy__({})

        def __deepcopy__(self, memo: dict[int, Any]) -> ParlorSpielState:
            game = self.get_game()
            pending = self.engine.pending
            if game.exact_clones or pending is None:
                return self._copy(self.engine.clone())
            return self._sample(pending.player, int(game.samples.integers(2**63)))

        def resample_from_infostate(
            self, player_id: int, probability_sampler: Callable[[], float]
        ) -> ParlorSpielState:
            """A state ``player_id`` cannot tell from this one, what it cannot see resampled;
            ``probability_sampler`` is OpenSpiel's uniform sampler in [0, 1)."""
            return self._sample(player_id, int(probability_sampler() * 2**53))

        def _sample(self, player: int, seed: int) -> ParlorSpielState:
            return self._copy(self.engine.determinize(player, seed))  # type: ignore[attr-defined]

        def _copy(self, engine: Game[Any]) -> ParlorSpielState:
            copy = ParlorSpielState(self.get_game(), engine)
            copy.steps = self.steps
            return copy

        def __str__(self) -> str:
            return f"step {self.steps}: {self.engine.pending or self.engine.outcome}"

    class ParlorObserver:
        """OpenSpiel's observer protocol over the environments' encoder."""

        def __init__(self, game: ParlorSpielGame) -> None:
            self.encoder = game.encoder
            self.tensor = np.zeros(self.encoder.layout.size, np.float32)
            self.dict = {"observation": self.tensor}

        def set_from(self, state: ParlorSpielState, player: int) -> None:
            self.tensor[:] = self.encoder.encode(state.engine, player)

        def string_from(self, state: ParlorSpielState, player: int) -> str:
            return json.dumps(state.engine.view(player), sort_keys=True)

    return {
        "game": ParlorSpielGame,
        "tools_type": _game_type("parlor_tools", "Parlor TOOLS", TOOLS_PARAMS, (2, 10)),
        "property_type": _game_type(
            "parlor_property", "Parlor property trading", PROPERTY_PARAMS, (2, 8)
        ),
    }

"""The search bot's adapter for TOOLS: every distinct legal action is a candidate; a cut-off
rollout is scored, with two players, by the win probability :mod:`parlor.bots.tools_value`
fitted on heuristic self-play (rollouts of 16 actions), else by the hand sizes (40 actions);
copies are determinized under what the public log says of the hands
(:mod:`parlor.bots.tools_inference`).
"""

from __future__ import annotations

from typing import Any

from parlor.bots.base import Bot
from parlor.bots.search_adapter import Adapter, outcome_score
from parlor.core.game import Game

#: Two players: score cut-off rollouts by the fitted model of :mod:`parlor.bots.tools_value`.
TOOLS_VALUE_MODEL = True


def _tools_model_applies(game: Game[Any]) -> bool:
    return TOOLS_VALUE_MODEL and game.num_players == 2  # the model is fitted on two players


def _tools_candidates(game: Game[Any], player: int, default: Any) -> list[Any]:
    out: list[Any] = []
    for action in game.legal_actions(player):
        if action not in out:
            out.append(action)
    return out


def _tools_evaluate(game: Game[Any], player: int) -> float:
    if game.is_over:
        return outcome_score(game, player)
    if _tools_model_applies(game):
        from parlor.bots.tools_value import default_model

        return default_model().value(game, player)
    sizes: list[int] = game.view(None)["hand_sizes"]
    # Fewer cards than the others is good: the share of the others' cards, scaled to [0, 1].
    inverse = [1.0 / (1 + s) for s in sizes]
    return inverse[player] / sum(inverse)


def _tools_depth(game: Game[Any]) -> int:
    # Two players: short rollouts scored by the fitted model do as well as long ones scored by
    # hand sizes, per simulation, and cost less (docs/bots.md); more players have no model.
    return 16 if _tools_model_applies(game) else 40


def _tools_determinize(game: Game[Any], player: int, seed: int) -> Game[Any]:
    from parlor.bots.tools_inference import determinize

    return determinize(game, player, seed)  # type: ignore[arg-type]


def _tools_heuristic(seed: int) -> Bot:
    from parlor.bots.tools_heuristic import ToolsHeuristicBot

    return ToolsHeuristicBot(seed)


ADAPTER = Adapter(
    _tools_heuristic,
    _tools_candidates,
    _tools_evaluate,
    _tools_depth,
    determinize=_tools_determinize,
)

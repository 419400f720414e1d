"""The TOOLS search's cut-off evaluation: the shipped model predicts heuristic self-play."""

from __future__ import annotations

import math

from parlor import tools
from parlor.bots.tools_heuristic import ToolsHeuristicBot
from parlor.bots.tools_value import ValueModel, default_model, feature_names, features, fit


def _log_loss(pairs: list[tuple[float, int]]) -> float:
    return -sum(math.log(p if y else 1 - p) for p, y in pairs) / len(pairs)


def test_shipped_model_beats_the_hand_size_share_on_fresh_games() -> None:
    """On games it was not fitted on (seeds far from the fitting ones), the model's log loss is
    lower than that of the hand-size share the search used before, and lower than a coin's."""
    model = default_model()
    ours: list[tuple[float, int]] = []
    share: list[tuple[float, int]] = []
    for seed in range(10_000_000, 10_000_150):
        game = tools.new_game(2, seed=seed)
        bots = [ToolsHeuristicBot(seed), ToolsHeuristicBot(seed + 1)]
        seen: list[tuple[int, float, float]] = []
        while not game.is_over:
            sizes = game.view(None)["hand_sizes"]
            for p in (0, 1):
                inv = [1 / (1 + s) for s in sizes]
                seen.append((p, model.value(game, p), inv[p] / sum(inv)))
            p = game.pending.player
            game.apply(bots[p].choose(game, p))
        winners = game.outcome.winners
        for p, v, s in seen:
            won = int(winners == (p,))
            ours.append((v, won))
            share.append((s, won))
    assert _log_loss(ours) < _log_loss(share) - 0.03
    assert _log_loss(ours) < math.log(2) - 0.05


def test_value_of_a_finished_game_is_its_result() -> None:
    game = tools.new_game(2, seed=4)
    bots = [ToolsHeuristicBot(1), ToolsHeuristicBot(2)]
    while not game.is_over:
        p = game.pending.player
        game.apply(bots[p].choose(game, p))
    (winner,) = game.outcome.winners
    assert default_model().value(game, winner) == 1.0
    assert default_model().value(game, 1 - winner) == 0.0


def test_features_follow_the_names_and_fit_round_trips() -> None:
    game = tools.new_game(2, seed=9)
    assert len(features(game, 0)) == len(feature_names())
    model, report = fit(games=40, seed=123)
    assert report["held_out_log_loss"] < report["held_out_log_loss_constant"]
    again = ValueModel.from_dict(model.to_dict())
    assert again.value(game, 0) == model.value(game, 0)

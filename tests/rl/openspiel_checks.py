"""OpenSpiel's checks on Parlor's games, run in a child process by test_openspiel.py (which also
checks that the process exits cleanly after registering the games). Prints one line per check and
``ALL PASSED`` at the end; any failure raises and exits non-zero."""

from __future__ import annotations

import numpy as np
import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import evaluate_bots, random_agent

from parlor import tools
from parlor.rl.openspiel import register


def random_simulation_checks() -> None:
    game = pyspiel.load_game("parlor_tools(players=3)")
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    prop = pyspiel.load_game("parlor_property(edition=matador,players=3,max_steps=60)")
    pyspiel.random_sim_test(prop, num_sims=1, serialize=False, verbose=False)


def rl_environment_plays_whole_games() -> None:
    game = pyspiel.load_game("parlor_tools(players=2,seed=40)")
    env = rl_environment.Environment(game, use_observation=True)
    agents = [random_agent.RandomAgent(p, game.num_distinct_actions()) for p in range(2)]
    for _ in range(5):
        ts = env.reset()
        while not ts.last():
            p = ts.observations["current_player"]
            ts = env.step([agents[p].step(ts).action])
        assert sorted(ts.rewards) == [-1.0, 1.0], ts.rewards


def states_are_the_engine_game() -> None:
    game = pyspiel.load_game("parlor_tools(players=2,seed=7,clone=exact)")
    state = game.new_initial_state()
    engine = tools.new_game(2, seed=7)
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        action = int(rng.choice(state.legal_actions()))
        player = state.current_player()
        twin = state.clone()
        state.apply_action(action)
        twin.apply_action(action)  # an exact clone replays the same sampled chance
        engine.apply(engine.action_from_id(action, player))
        assert state.observation_tensor(player) == twin.observation_tensor(player)
    assert engine.outcome is not None
    assert state.returns()[engine.outcome.winners[0]] == 1.0


def clones_for_search_cannot_peek() -> None:
    """A default clone (what MCTS plays ahead on) keeps what the player to move sees and
    resamples the rest: the opponent's hand and the draw pile (TOOLS), the future dice."""
    game = pyspiel.load_game("parlor_tools(players=2,seed=11)")
    state = game.new_initial_state()
    mover = state.current_player()
    hidden = [state.clone().engine.snapshot()["hands"][1 - mover] for _ in range(8)]
    assert any(h != state.engine.snapshot()["hands"][1 - mover] for h in hidden), hidden
    assert all(
        state.clone().observation_tensor(mover) == state.observation_tensor(mover) for _ in range(4)
    )
    sampled = state.resample_from_infostate(mover, np.random.default_rng(1).random)
    assert sampled.observation_tensor(mover) == state.observation_tensor(mover)
    # Property games: the same first roll from every clone would be a peek at the dice.
    prop = pyspiel.load_game("parlor_property(edition=classic,players=2,seed=5)")
    start = prop.new_initial_state()
    landings = set()
    for _ in range(12):
        copy = start.clone()
        copy.apply_action(copy.legal_actions()[0])
        landings.add(copy.observation_string(0))
    assert len(landings) > 1, "every clone rolled the same dice"


def bot_evaluation() -> None:
    game = pyspiel.load_game("parlor_tools(players=4,seed=3)")
    bots = [pyspiel.make_uniform_random_bot(p, 100 + p) for p in range(4)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random)
    assert sorted(returns) == [-1.0, -1.0, -1.0, 1.0], returns


def main() -> None:
    register()
    register()  # idempotent
    for check in (
        random_simulation_checks,
        rl_environment_plays_whole_games,
        states_are_the_engine_game,
        clones_for_search_cannot_peek,
        bot_evaluation,
    ):
        check()
        print(f"passed {check.__name__}", flush=True)
    print("ALL PASSED", flush=True)


if __name__ == "__main__":
    main()

"""OpenSpiel's checks on Parlor's games, run in a child process by test_openspiel.py (a process
that registered Python games can abort at exit, see parlor.rl.openspiel). Prints one line per
check and ``ALL PASSED`` at the end; any failure raises and exits non-zero."""

from __future__ import annotations

import os
import sys

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
    game = pyspiel.load_game("parlor_tools(players=2,seed=7)")
    state = game.new_initial_state()
    engine = tools.new_game(2, seed=7)
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        action = int(rng.choice(state.legal_actions()))
        player = state.current_player()
        twin = state.clone()
        state.apply_action(action)
        twin.apply_action(action)  # a clone replays the same sampled chance
        engine.apply(engine.action_from_id(action, player))
        assert state.observation_tensor(player) == twin.observation_tensor(player)
    assert engine.outcome is not None
    assert state.returns()[engine.outcome.winners[0]] == 1.0


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
        bot_evaluation,
    ):
        check()
        print(f"passed {check.__name__}", flush=True)
    print("ALL PASSED", flush=True)
    sys.stderr.flush()
    os._exit(0)  # skip the interpreter shutdown that pyspiel's registry can abort


if __name__ == "__main__":
    main()

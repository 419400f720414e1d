"""Writes docs/rl.md from the code: the observation tables come from the encoders' layouts, the
option defaults from the signatures, the ids and sizes from the environments themselves, so the
page cannot drift from what the environments do (``tests/rl/test_docs.py`` fails if it does).

    python -m parlor.rl.docs            # rewrite docs/rl.md
    python -m parlor.rl.docs --check    # exit 1 if docs/rl.md differs
"""

from __future__ import annotations

import argparse
import inspect
import json
import shlex
import sys
from pathlib import Path
from typing import Any

from parlor.monopoly import EDITION_IDS, load_edition
from parlor.rl.distill import parse_args as distill_args
from parlor.rl.gym_env import ENV_IDS, ParlorGymEnv, make_spec
from parlor.rl.openspiel import PROPERTY_PARAMS, TOOLS_PARAMS
from parlor.rl.policy import MODELS
from parlor.rl.property_obs import PROPERTY_DECISIONS
from parlor.rl.table import GameSpec, Table, outcome_reward
from parlor.rl.tools_obs import TOOLS_DECISIONS
from parlor.rl.train import parse_args
from parlor.stats import wilson

DOC_PATH = Path(__file__).resolve().parents[3] / "docs" / "rl.md"


def _defaults(func: object, skip: tuple[str, ...] = ("self",)) -> list[tuple[str, str]]:
    sig = inspect.signature(func)  # type: ignore[arg-type]
    return [
        (name, repr(p.default))
        for name, p in sig.parameters.items()
        if name not in skip and p.default is not inspect.Parameter.empty
    ]


def _doc(obj: object) -> str:
    return " ".join(inspect.getdoc(obj).split()).replace("``", "`")  # type: ignore[union-attr]


def _sizes(spec: GameSpec) -> tuple[int, int]:
    table = Table(spec)
    return table.layout.size, table.num_actions


def _percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def _outcome_row(name: str, ev: dict[str, Any]) -> str:
    """Outright wins and cap leads apart, each with its own 95% interval."""
    games = ev["games"]
    w_low, w_high = wilson(ev["wins"], games)
    c_low, c_high = wilson(ev["first_at_cap"], games)
    return (
        f"| {name} | {ev['wins']} / {games} = **{_percent(ev['wins'] / games)}** "
        f"[{_percent(w_low)}, {_percent(w_high)}] | {ev['first_at_cap']} of {ev['truncated']} "
        f"= {_percent(ev['first_at_cap'] / games)} [{_percent(c_low)}, {_percent(c_high)}] | "
        f"{ev['first']} = {_percent(ev['win_rate'])} | {ev['learner_decisions_per_game']:.0f} |"
    )


def _command(module: str, args: dict[str, Any], defaults: dict[str, Any]) -> str:
    """The command line that repeats a run: every argument that differs from its default."""
    flags = []
    always = ("game", "players", "opponents", "teacher", "seed")
    for key, value in args.items():
        if key not in defaults or value is None or value is False:
            continue
        if value == defaults[key] and key not in always:
            continue
        flag = "--" + key.replace("_", "-")
        flags.append(flag if value is True else f"{flag} {shlex.quote(str(value))}")
    return f"nice -n 10 python -m {module} " + " ".join(flags)


def _stage(stage: dict[str, Any]) -> str:
    args = stage["args"]
    if stage["method"] == "distill":
        last = stage["iterations"][-1]
        what = (
            f"DAgger from the `{args['teacher']}` bot against `{args['opponents']}` opponents: "
            f"{len(stage['iterations'])} iterations of {args['games']} games (teacher share "
            f"`beta**k`, beta {args['beta']}), {last['pairs']:,} labelled decisions, a "
            f"{args['net']} ReLU MLP fitted {args['epochs']} epochs per iteration (Adam, "
            f"lr {args['lr']}, batch {args['batch']}), NumPy {stage['versions']['numpy']}"
        )
        if args.get("init"):
            what += "; its weights started from the policy of the stage above (`--init`)"
        command = _command("parlor.rl.distill", args, vars(distill_args([])))
    else:
        what = (
            f"MaskablePPO from that actor against `{args['opponents']}` opponents, "
            f"`reward={args['reward']!r}`, {stage['trained_timesteps']:,} learner decisions "
            f"({stage['train_episodes']:,} games); `n_steps` {args['n_steps']}, `batch_size` "
            f"{args['batch_size']}, `epochs` {args['epochs']}, `lr` {args['lr']}, `gamma` "
            f"{args['gamma']}, `ent_coef` {args['ent_coef']}, {args['envs']} environments, "
            f"torch {stage['versions']['torch']}"
        )
        command = _command("parlor.rl.train", args, vars(parse_args([])))
    cpu = stage["train_cpu_seconds"]
    cpu_text = f"{cpu:,.0f} CPU s" if cpu is not None else "CPU time not recorded"
    note = f" ({stage['note']})" if stage.get("note") else ""
    return (
        f"- {what}; seed {args['seed']}; {stage['train_seconds']:,.0f} s wall-clock "
        f"({cpu_text}){note}:\n\n  ```sh\n  {command}\n  ```\n"
    )


def _baseline(name: str) -> str:
    """A shipped agent, its figures read from ``parlor/rl/models/NAME.json``."""
    shipped = json.loads((MODELS / f"{name}.json").read_text(encoding="utf-8"))
    env = ", ".join(f"`{k}={v!r}`" for k, v in shipped["eval_env"].items())
    tables = []
    for opponents, report in shipped["evaluations"].items():
        ev = report["agent"]
        cap = (
            f"{ev['max_rounds']:,} rounds"
            if ev.get("max_rounds")
            else f"{ev['max_steps']:,} decisions"
        )
        rows = [_outcome_row("the shipped policy (greedy)", ev)]
        yardstick = report.get("random_policy")
        if yardstick:
            seeds = yardstick["seeds"]
            label = "uniformly random legal ids" + (
                f" (seeds {seeds[0]} to {seeds[1]})" if seeds != ev["seeds"] else ""
            )
            rows.append(_outcome_row(label, yardstick))
        tables.append(
            f"Against `{opponents}` bots, seeds {ev['seeds'][0]} to {ev['seeds'][1]}, cut at "
            f"{cap}:\n\n"
            "| learner's seat | won outright, 95% interval | cut at the cap and led | "
            "ranked first (both) | learner decisions per game |\n"
            "| --- | ---: | ---: | ---: | ---: |\n" + "\n".join(rows) + "\n"
        )
    stages = "".join(_stage(stage) for stage in shipped["stages"])
    return f"""### `{name}`

`load_baseline("{name}")` (`src/parlor/rl/models/{name}.npz`) plays in: {env}.

{chr(10).join(tables)}
Training (times on this project's 2-core machine shared with other jobs, under `nice`):

{stages}
"""


def _baselines(names: tuple[str, ...] = ("classic-4p", "tools-2p")) -> str:
    sections = "\n".join(_baseline(name) for name in names)
    return f"""## The shipped baselines

`parlor.rl.policy.load_baseline(NAME)` is a trained policy as NumPy layers (no torch needed):
`policy(obs["observation"], env.action_masks())` is its most likely legal id, and
`policy.meta["env"]` holds the environment it plays in. The figures below are read from
`src/parlor/rl/models/NAME.json`, written by the runs (`docs/rl-baseline.md` tells the story).
Evaluation over fresh games (seeds from 1000000 on, never used in training; the learner's seat
drawn at random), by the book's outcome; the uniformly random choice within the same mask plays
the same seeds. **Won outright**: the game ended and the learner is its sole winner (in the
property games every other seat went bankrupt). **Cut at the cap and led**: the game was still
running at the cap and the learner was the sole richest by the book's valuation among the players
left (the book's time-limit rule). 95% Wilson intervals.

{sections}"""


def _speed() -> str:
    # The measured figures are hand-written (docs/rl-speed.md): this page holds what the code gives.
    return """## Speed

The environments' measured speed is on a hand-written page, [docs/rl-speed.md](rl-speed.md): how
it is measured (`python bench/bench_rl_peers.py --rounds 5 --seconds 1 --vector 8`, interleaved
against RLCard's UNO, Gymnasium's `SyncVectorEnv` and a free-running control), the latest figures
of the AEC environments, the batches and the worker processes in the plain and compiled builds,
issue 21's targets and whether they are met, the bounds that explain the ones that are not, and
what made the steps fast.

## Batched environments

`parlor.rl.vector.ParlorVectorEnv(env_id, num_envs, **kwargs)` steps `num_envs` games of one id
in one call, in Gymnasium's vector API (`gymnasium.vector.VectorEnv`):

```python
import gymnasium as gym
import numpy as np
import parlor.rl

envs = gym.make_vec("parlor/Tools-v0", num_envs=8, vectorization_mode="vector_entry_point")
obs, info = envs.reset(seed=0)  # game i is seeded seed + i
rng = np.random.default_rng(0)
for _ in range(100):
    masks = obs["action_mask"]  # int8 (8, actions); an ended game's is all zero
    # A random legal id per game, for the whole batch at once (an ended game gets 0, ignored)
    actions = (rng.random(masks.shape) * masks).argmax(axis=1)
    obs, rewards, terminations, truncations, info = envs.step(actions)
envs.close()
```

Observations are `{"observation": float32 (N, size), "action_mask": int8 (N, actions)}`,
rewards float64 (N,), terminations and truncations bool (N,); `info` holds the learners' `seat`
(no per-game info dicts: they cost more than some games' steps). With `outcome_info=True` the step
that ends a game also reports what a single environment's info says then: `winners` and `reason`,
or `leaders` when cut at the cap, and `illegal_action`, each with its `_key` mask as Gymnasium's
vector infos have them.
Games restart by themselves as in Gymnasium's own vector environments (`AutoresetMode.NEXT_STEP`):
the step after the one that ended a game ignores its action and returns the new game's first
observation with reward 0. The batch plays exactly what `SyncVectorEnv` plays over the same
environments and seeds (tests/rl/test_vector.py). `ParlorProcessVectorEnv(env_id, num_envs,
workers=None)` splits the games over worker processes (by default one per core the process may
use: `taskset` and cgroups count), each stepping its slice, with the same batches, seeds and
trajectories; close it when done, or use it in a `with` block (a collected one stops its workers
too):

```python
from parlor.rl.vector_processes import ParlorProcessVectorEnv

with ParlorProcessVectorEnv("parlor/Tools-v0", num_envs=64, workers=2) as envs:
    obs, info = envs.reset(seed=0)
    ...
```

A step with an id that a game refuses by raising (`illegal_action="raise"`) changes nothing: the
refusal is found before any game of the batch moves (in the process form the parent checks the ids
against the shared masks first, and only the refusing game's worker is asked to raise its error);
under the other `illegal_action` modes an id outside the mask is refused or penalized as in a
single environment.

`ParlorProcessVectorEnv` keeps its batches in shared memory: the workers write their rows in
place, the actions go the other way in shared memory too, and a step is one byte written on each
worker's pipe and one byte back (the rare pickled messages, a reset, an exception, the ended
games' infos, follow a tag byte). While the parent reads the batch and picks the next actions,
each worker restarts the games that ended; a `reset` before the next step undoes those restarts,
so an unseeded reset draws the same games. A worker that dies (killed, out of memory) raises
`WorkerDiedError` naming the worker, its pid and exit code, at that call and every later one;
`close()` still stops the others. Each step costs every worker a fixed wake-up, shared by its
games: give each worker a hundred games or more (on the project's 2-core machine, 2 workers gave
about 1.9 times one worker's steps with 256 games, about 1.6 times with 64). The batches' and the
processes' speed: [docs/rl-speed.md](rl-speed.md#worker-processes).
"""


def render() -> str:
    tools2 = Table(make_spec("tools", 2))
    classic4 = Table(make_spec("classic", 4))
    table_options = "\n".join(
        f"| `{k}` | `{v}` |" for k, v in _defaults(Table.__init__, ("self", "spec"))
    )
    gym_options = "\n".join(
        f"| `{k}` | `{v}` |"
        for k, v in _defaults(ParlorGymEnv.__init__)
        if k not in ("render_mode",)
    )
    rows = []
    for env_id, kw in ENV_IDS.items():
        game, players = str(kw["game"]), int(str(kw["players"]))
        size, actions = _sizes(make_spec(game, players))
        rows.append(f"| `{env_id}` | `{game}` | {players} | {size} | {actions} |")
    ids = "\n".join(rows)
    tools_sizes = " · ".join(f"{n}p: {_sizes(make_spec('tools', n))[0]}" for n in range(2, 11))
    property_sizes = "\n".join(
        f"| `{ed}` | "
        + " | ".join(
            str(_sizes(make_spec(ed, n))[0])
            if load_edition(ed).min_players <= n <= load_edition(ed).max_players
            else "-"
            for n in range(2, 9)
        )
        + " |"
        for ed in EDITION_IDS
    )
    return f"""# Reinforcement learning on Parlor

<!-- Generated by `python -m parlor.rl.docs` from the code in src/parlor/rl/; do not edit by hand.
     tests/rl/test_docs.py fails when this file differs from what the code generates. -->

`parlor.rl` (install the `rl` extra: `pip install -e '.[rl]'`) turns every Parlor game into
standard environments:

- **PettingZoo AEC**: `parlor.rl.tools_env(players=2..10, deck=None, options=None, ...)` and
  `parlor.rl.property_env(edition="classic", players=4, options=None, ...)` (every edition, every
  variant and rule option of `docs/rules/README.md` as `options`, e.g. `{{"variant": "short"}}`).
- **Gymnasium**: `parlor.rl.ParlorGymEnv`, one learning seat against Parlor bots, registered
  when `parlor.rl` is imported (keyword arguments pass through `gymnasium.make` and
  `gymnasium.make_vec`).

| id | game | players | observation size | actions |
| --- | --- | ---: | ---: | ---: |
{ids}

The baseline agent trained on these environments (MaskablePPO), with its learning curves and
evaluation, is in `docs/rl-baseline.md`.

## The AEC protocol

- Agents are `player_0` ... `player_{{n-1}}`, by seat. `agent_selection` is always the seat that
  holds the engine's pending decision (`game.pending.player`): in the property games that is
  often not the dice holder (auction bids, trade answers, a debtor raising funds, a mortgaged
  deed received). Agents act only at their own decisions; "any time" actions (build, mortgage,
  trade) are in their mask then.
- Observations are `{{"observation": float32 vector, "action_mask": int8 vector}}`; the mask is
  also `infos[agent]["action_mask"]`. Only the agent to move has legal ids: every other agent's
  mask is all zeros. Spaces are fixed objects per agent (`observation_space(agent)`,
  `action_space(agent)`: `Discrete(num_actions)`).
- Actions are the engine's integer ids (`docs/interface.md`): an id means the same action in
  every state where it is legal. In the property games the trade proposals with ids are a fixed
  catalogue, masked to the legal ones: buying one deed from its holder for cash at every eighth
  of its printed price from 0.5x to 3.5x (25 prices; 1x, 1.5x and 2x in the older block, the
  other 22 in the last block of the layout, appended so the ids before keep their meaning),
  selling one deed to a given player at 1x, 1.5x or 2x, and a jail card either way at 1x, 1.5x or
  2x the fine. The finer purchase prices are there because what a seller accepts varies from game
  to game: the `offering` bot's offers snapped to 1x, 1.5x and 2x won 17.0% of its games against
  three heuristics, snapped up to the next eighth 31.5% (its own offers: 33.3%;
  `docs/rl-baseline.md`).
- `reset(seed=s)` starts the engine's game with seed `s` (`env.game.seed == s`), so the same seed
  and the same actions replay the same game exactly; `env.game.to_json()` saves it. Without a
  seed, a game seed is drawn from the last seed given.
- Rewards follow PettingZoo's conventions: each transition's rewards are added to every agent's
  cumulative reward, and an agent reads everything that happened since its last move (rent paid
  to it on another player's turn, cards it was made to draw, the end of the game) at its next
  `last()`. A bankrupt player is terminated at once (with its -1); everyone is terminated when
  the game ends, and truncated when the step cap is reached first.

## Options

Options of every environment (`parlor.rl.table.Table`):

| option | default |
| --- | --- |
{table_options}

- `reward="win_loss"`: {_doc(outcome_reward)} Ties are the engine's: a time-limit game (and a
  short game) ends with the richest by the book's valuation winning, TOOLS's `max_turns` with the
  fewest cards, as `game.outcome` says.
- `reward="shaped"` adds, at every transition, `shaping_scale` times the change of a measure:
  {_doc(GameSpec.potential)[0].lower() + _doc(GameSpec.potential)[1:]} The win/loss reward is still paid at the end.
- `reward="margin"` pays, the same way, the change of the seat's margin: its measure minus the
  mean of the measures of the other seats still in play. Rent received from a rival pays, and so
  does a rival's bankruptcy (the margins are then taken over the seats left; the bankrupt seat's
  margin goes to 0 with its last reward). The margins' changes paid at each transition sum to
  zero, bankruptcies included. The win/loss reward is still paid at the end.
  (`Table.measures` computes both measures.)
- `max_steps` caps the decisions of a game (all seats together); at the cap the episode is
  truncated with `truncation_reward="zero"` (nothing more is paid) or `"valuation"` (the
  winners now by the book's time-limit rule are paid as if the game had ended: {_doc(GameSpec.book_ranking)[0].lower() + _doc(GameSpec.book_ranking)[1:-1]}).
- `illegal_action="raise"`: an id the mask does not allow raises
  `parlor.rl.IllegalActionError` (an `IllegalAction`, a `ValueError`) naming the action, the
  pending decision and the legal ids, and nothing changes; it is never replaced by another
  action. `"penalize"` ends the episode instead: every agent is terminated, the offender gets
  `illegal_penalty`, the others 0, and `infos[agent]["illegal_action"]` is set.
- `trade_offers=False` (property games) leaves trade proposals out of every mask, so a learner
  chooses among the answers and the building, mortgaging and selling actions only; offers made
  to it still need its answer, the rules are unchanged, and a proposal id is then illegal.
- `liquidate="for_debts"` (property games) narrows the any-time money actions: mortgaging and
  selling buildings back are in a seat's mask only while it holds a `raise_funds` decision (a debt
  it cannot pay yet), building and lifting mortgages only outside one. A learner then cannot spin
  in mortgage-and-lift loops (each lift costs the interest, and a young policy samples those ids as
  often as the dice); the engine's own masks and rules are unchanged, and a narrowed-out id is
  illegal. `"any_time"` keeps the engine's mask.
- The agent cannot alter its own reward: rewards are computed from the engine's state only;
  observations and masks handed out are copies; the time-limit games' `CallTime` (a table signal,
  not a move) has no legal id, so a leading agent cannot end the game.

The Gymnasium environment's own options:

| option | default |
| --- | --- |
{gym_options}

`seat="random"` draws the learning seat at every reset; `opponents` is one bot name for every
other seat or a list in seat order (`random`, `heuristic`, `search`, and for the property games
`offering`); `opponent_options` go to every bot (`{{"simulations": 32}}`). The bots are seeded
from the reset seed. A step's reward is the learner's reward for everything from its action to
its next decision. `env.unwrapped.action_masks()` gives the mask as booleans, as sb3-contrib's
MaskablePPO asks; after an episode ends in a vector environment the next `step` resets that copy.
`skip_forced=True` plays the learner's decisions that have a single legal id (throwing the dice,
ending a turn with nothing to build) for it, adding their rewards to the next step's, so that every
step is a real choice; the game is the one the learner would have played, and
`env.unwrapped.forced_moves` counts them. At the end of an episode `info` holds `winners` (the
engine's outcome), or, for a game cut at `max_steps`, `leaders`: {_doc(GameSpec.book_ranking)[0].lower() + _doc(GameSpec.book_ranking)[1:]}

## Observations

Every entry is something `game.view(seat)`, the engine's statement of what that seat may see,
holds, or a public query's answer (the encoders read the engine's public state that the view
copies; tests/rl/test_fast_obs.py holds them to encoders that read the view); every value is
>= 0. Seats are relative: position 0 of a per-player block is the observer, 1 the next seat
(seat + 1), and so on. No hidden information: `tests/rl/test_hidden.py`
resamples everything the observer cannot see (`game.determinize(seat, seed)`: the other hands,
the draw order, future dice) and checks that the observation is unchanged, and that the other
seats' observations do change.

### TOOLS

Decision kinds: {", ".join(f"`{k}`" for k in TOOLS_DECISIONS)}. With the default deck and 2 players
({tools2.layout.size} floats, {tools2.num_actions} action ids):

{tools2.layout.markdown()}

The widths scale with the deck (K kinds, C colours) and the player count: observation size with
the default deck, {tools_sizes}.

### Property games

Decision kinds: {", ".join(f"`{k}`" for k in PROPERTY_DECISIONS)}. Classic with 4 players
({classic4.layout.size} floats, {classic4.num_actions} action ids):

{classic4.layout.markdown()}

Observation size by edition and player count:

| edition | 2 | 3 | 4 | 5 | 6 | 7 | 8 |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
{property_sizes}

{_baselines()}## OpenSpiel

With the `openspiel` extra (`open_spiel` from PyPI), `parlor.rl.openspiel.register()` registers
the games as OpenSpiel Python games: `pyspiel.load_game("parlor_tools(players=3)")` and
`pyspiel.load_game("parlor_property(edition=matador,players=3)")`, parameters
{", ".join(f"`{k}`" for k in TOOLS_PARAMS)} (TOOLS) and {", ".join(f"`{k}`" for k in PROPERTY_PARAMS)}
(property games; `options` is JSON).

Chance is sampled (`ChanceMode.SAMPLED_STOCHASTIC`): the shuffles and dice are drawn by the
engine's own seeded generator inside `apply_action`, so no chance node is exposed; the k-th
initial state of a game object uses the engine seed `seed + k`. Search cannot peek: `clone()`,
which MCTS copies before it plays ahead, resamples everything the player to move cannot know (the
deck order, future dice, other hands: the engines' `determinize`), and
`resample_from_infostate(player, sampler)` does the same for any player. A game made with
`clone=exact` copies exactly instead (a cloned state then replays the same future). Observations
(`observation_tensor`) are the vectors above; information states are not provided yet
(observations are not perfect-recall). OpenSpiel's `random_sim_test` runs with
`serialize=False`: its serialization check of a sampled-chance game needs `GetRNGState`, which
pyspiel does not let a Python game provide. Returns are the win/loss rewards; a game cut at
`max_steps` returns 0 to everyone. `tests/rl/test_openspiel.py` runs OpenSpiel's
`random_sim_test`, its `rl_environment` and `evaluate_bots` on them, and checks that a process
that registered the games exits cleanly.

## Checking the environments yourself

```python
import gymnasium as gym
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test
import parlor.rl

# Gymnasium's checker steps with unmasked samples: let an illegal id end the episode, not raise
check_env(gym.make("parlor/Tools-v0", illegal_action="penalize").unwrapped)
api_test(parlor.rl.tools_env(players=3), num_cycles=100)  # PettingZoo's
render_test(lambda render_mode=None: parlor.rl.tools_env(render_mode=render_mode))
```

Action ids must be integers (Python or NumPy): `step(1.5)`, `step(1.0)` and `step(True)` are
refused with `IllegalActionError`, never rounded to an id. `render_mode` is `"ansi"` (returns the
text) or `"human"` (prints it).

{_speed()}"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="write docs/rl.md from the code")
    parser.add_argument("--check", action="store_true", help="only check that it is up to date")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = DOC_PATH.read_text(encoding="utf-8") if DOC_PATH.exists() else ""
        if current != text:
            print(f"{DOC_PATH} is out of date: run python -m parlor.rl.docs", file=sys.stderr)
            return 1
        return 0
    DOC_PATH.write_text(text, encoding="utf-8")
    print(f"wrote {DOC_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

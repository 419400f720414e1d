"""docs/rl.md's speed figures of the batched environments (``parlor.rl.vector``) and the text
around them, for :mod:`parlor.rl.docs` (kept apart: that module holds the rest of the page).

The figures come from ``python bench/bench_rl_peers.py --rounds 5 --seconds 1 --vector 8`` (the
run and its load are named in the text); measure again after a change that moves them.
"""

from __future__ import annotations

from typing import Any

VECTOR_SPEED: dict[str, Any] = {
    # (the lead's run of the command above on the merged main of issue 21's fifth round, the
    # machine otherwise idle)
    "load": "0.6",
    "vector": [
        ("`parlor/Tools-v0` x8, `ParlorVectorEnv`", 56_025),
        ("`parlor/Tools-v0` x8, Gymnasium `SyncVectorEnv`", 29_286),
        ("`parlor/Classic-v0` x8, `ParlorVectorEnv`", 14_785),
        ("`parlor/Classic-v0` x8, Gymnasium `SyncVectorEnv`", 8_579),
    ],
    "vector_ratios": "`ParlorVectorEnv` against `SyncVectorEnv`: 1.91x for `parlor/Tools-v0` "
    "(1.91x to 1.93x per round), 1.72x for `parlor/Classic-v0` (1.64x to 1.82x). Compiled "
    "(setup.py's whole list, the same command, load 1.0): 2.22x (2.18x to 2.29x; 112,730 "
    "against 50,800 steps/s) and 1.82x (1.78x to 1.86x; 25,652 against 14,124). The fourth "
    "round's own runs, under other helpers' load (`--only batched`, load 5.4): 1.88x (1.86x "
    "to 1.94x) and 1.73x (1.67x to 1.79x); the next run "
    "(load 5.3): 1.95x (1.90x to 1.97x) and 1.72x (1.56x to 1.78x); one at load 8.0 (the "
    "first form of the change): 2.00x (1.90x to 2.06x) and 1.82x (1.68x to 1.82x); one at load "
    "14.6: 1.94x and 1.69x. Main before this round, between those runs (load 5.2): 1.92x "
    "(1.90x to 2.00x) and 1.49x (1.39x to 1.54x); at the round's start (load 1.8): 1.93x and "
    "1.44x. What "
    "moved the classic figure: the batch reads the property observations from the engine's "
    "lists (`PropertyEncoder.update_from_state`) instead of building `game.view(seat)` for "
    "every game at every step; the two batches interleaved in one process on the same games "
    "(load 5.7): 13,925 against 11,410 steps/s, 22% more; counted by `valgrind "
    "--tool=cachegrind --cache-sim=no` (`PYTHONHASHSEED=0`; the loop of "
    "`bench/vector_run.py parlor/Classic-v0 240`, 8 classic games, less the same run with 40, "
    "both trees on the same games): 578,800 instructions a game step "
    "on main, 442,000 with this round's batch (-24%). With no encoder at all (a constant "
    "vector, same run's kind, load 4.9 to 8.8) the batch made 13% to 15% more steps than "
    "with `update_from_state`: what is left of the encoder's cost. "
    "Earlier rounds' figures (the code before this round): 2.05x for TOOLS "
    "(1.89x to 2.22x per round), 1.37x for classic (1.34x to 1.99x). The next run "
    "(load 3.0): 2.38x (1.96x to 3.24x) and 1.57x (1.36x to 1.68x); a third (load 3.0): 2.15x "
    "(2.03x to 2.49x) and 1.47x (1.22x to 1.51x): the spread is the machine's. On the merged main "
    "with the machine otherwise idle (load 0.6, the lead, after this session's other rounds): "
    "1.97x (1.89x to 2.37x) and 1.45x (1.17x to 1.69x; no batch passes 1.81x there). "
    "Before the three passes and the other changes below, on a quiet machine (load 0.9): 1.87x "
    "(1.71x to 1.94x) and 1.36x (1.32x to 1.56x); the two versions interleaved in one process "
    "(load 6 to 7): the new one 8% to 10% faster a TOOLS game step, 5% a classic one. Before the "
    "batch kept its arrays and checked a batch's ids at once, with the bench then picking the "
    "ids game by game in Python: 1.42x and 1.17x (load 0.4).",
    "vector_bound": "in the idle run above, a TOOLS game step took `SyncVectorEnv` 34.1 us and "
    "`ParlorVectorEnv` 17.8 us, of which 12.2 us (68%) that work (no batch passes 2.80x), a "
    "classic one 116.6 us and 67.6 us, of which 51.6 us (76%; 2.26x); compiled, 19.7 us and "
    "8.9 us, of which 4.8 us (54%; 4.13x), and 70.8 us and 39.0 us, of which 27.7 us (71%; "
    "2.56x). In the fourth round's first run, a TOOLS game step took `SyncVectorEnv` 35.7 us "
    "and `ParlorVectorEnv` 19.0 us, a classic one 123.0 us and 71.2 us; at load 14.6, of the "
    "classic step's 83.6 us 62.4 us (75%) were that work, the encoder's batch path counted as "
    "the encoder (no batch that encodes so passes 2.26x there), and of the TOOLS step's 20.3 us "
    "13.6 us (67%; 2.90x). (The bench's runs at load 5.3 to 5.4 printed 48% and 63%: they "
    "timed a batch made before the bench wrapped the methods, and the batch now binds its "
    "encoders' methods when made, so the encoder went untimed; fixed, the bench makes its "
    "batch after wrapping.) The classic 2x is within that bound now, but not reached: the "
    "engine's legal ids (the list of trade offers, about a third of a classic batch step in a "
    "cProfile), its moves and the bots' choices are most of what is left, and they are the "
    "engine's. Earlier rounds: a TOOLS game step took `SyncVectorEnv` 63.6 us and "
    "`ParlorVectorEnv` 31.0 us, of which 20.8 us (67%) that shared work: no batch passes 3.05x; a "
    "classic one 214.7 us and 156.7 us, of which 121.3 us (77%): no batch of these games passes "
    "1.77x, so the classic 2x is out of reach of any batch until the games' own work shrinks. "
    "Counted by `valgrind --tool=cachegrind` with its cache model (3,040 game steps of the "
    "bench's TOOLS batch, less the same run with 160; the load changes none of these counts): "
    "413M instructions before, 394M after (-4.8%), 3.32M L1 data read misses before, 2.98M after "
    "(-10%); the classic batch 642,000 instructions a game step before, 612,000 after (-4.7%; "
    "5% faster in an interleaved run at load 4). A single pass over the games (each game stepped, encoded and "
    "its ids listed in turn) made fewer instructions still (381M) but 3.78M L1 data misses in "
    "the interpreter, and was slower than before in interleaved runs: the interpreter reads "
    "each part's bytecode and caches as data, and one part's code at a time keeps them in the "
    "cache. In a cProfile of the classic batch the property encoder's update is about 28% of the "
    "time, the engine's legal ids (mostly the list of trade proposals) 20% and its moves 16%: "
    "those are the places to cut (parlor.rl.property_obs and the engine); in the TOOLS batch "
    "the encoder's update runs 659 of the 2,420 bytecodes a game step.",
    "processes": [
        ("1 worker, 1 core", 55_860),
        ("2 workers, 1 core", 50_569),
        ("2 workers, 2 cores", 85_789),
        ("1 worker, 2 cores (the parent on the other)", 53_489),
        ("`ParlorVectorEnv` in one process, 1 core", 62_441),
        ("control: 2 free-running workers, 1 core", 58_605),
        ("control: 2 free-running workers, 2 cores", 108_047),
    ],
    "process_load": "1.2 (the lead, the full bench command on the merged main of issue 21's fifth "
    "round, the machine otherwise idle)",
    "process_ratios": "2 workers on 2 cores against the same on 1 core: 1.70x (1.48x to 1.78x per "
    "round); against 1 worker on 1 core 1.54x (1.34x to 1.61x); against 1 worker both free 1.60x "
    "(1.42x to 1.64x); against `ParlorVectorEnv` on 1 core 1.37x (1.19x to 1.50x); the control, "
    "independent workers with no round trip, 1.84x (1.73x to 1.94x): the machine's ceiling at that "
    "moment. CPU per game step: 16.9 us in the workers with 1 worker on 1 core, 18.6 us with 2 on 1 "
    "core, 19.0 us with 2 on 2 cores; the parent 1.0 us to 1.8 us. Compiled (load 1.4): 1.44x, "
    "1.26x, 1.31x and 1.08x, the control 1.78x: the cheaper a game step, the more of it the round "
    "trip is. Earlier, on the merged main of the fourth round's session, the machine otherwise "
    "idle (load 1.1, the lead; `--rounds 5 --seconds 1 --vector 8`): 2 workers on 2 cores "
    "against the same on 1 core 1.49x (1.25x to 2.49x per round), against 1 worker on 1 core "
    "1.29x (1.14x to 2.36x), against 1 worker both free 1.54x (1.44x to 1.64x); the control, "
    "independent workers with no round trip, 1.56x (1.27x to 1.67x): the machine's two cores gave "
    "this work about 1.6x at most that day (two independent `parlor/Tools-v0` loops run side by "
    "side: 1.70x), below the 1.8x asked. The run described above: "
    "2 workers on 2 cores against the same on 1 core: 1.80x, but 0.89x to 2.05x "
    "per round; against 1 worker on 1 core 1.56x (0.83x to 2.09x); the earlier figure, 2 workers "
    "against 1 both free on the machine, 1.46x (1.09x to 1.57x); against `ParlorVectorEnv` on 1 "
    "core only 1.12x (0.67x to 1.55x): on this machine the single-process batch on one core is "
    "nearly as fast, its steps cheaper with no round trip and no cold wake-ups (31,544 against "
    "22,644 steps/s for 1 worker on 1 core). The control got 1.53x (1.16x to 2.08x) from the second "
    "core, so even this run did not have it free. At load 7.4 (the full bench command): 1.07x for "
    "the same form, control 1.07x; at load 9.8: 0.98x, control 0.93x: there the ratios measure the "
    "load. The last quiet-machine figure (the previous code, load 0.5 to 0.7, 2 workers against 1 "
    "both free): 1.47x (1.32x to 2.02x).",
    "process_cpu": "CPU time per game step in the fourth round's run above (the load changes it much less than the wall "
    "time): 36.9 us in the workers with 1 worker on 1 core, 42.4 us with 2 workers on 1 core, "
    "42.3 us with 2 on 2 cores; the control's workers 36.1 us and 38.8 us; the parent 2.3 us to 4.1 "
    "us (3.0 us to 4.4 us in this session's runs before the one-byte pipes, 3.4 us to 3.9 us in the "
    "quiet run). Why a worker's CPU per step rises with 2 workers: not spinning (the workers "
    "block on their pipes), and mostly the round trip of every batch step: each worker wakes once "
    "a step, with its fixed cost spread over half the games, and most likely finds its caches used "
    "by what ran meanwhile (the other worker, the parent, other jobs); the control's 2 workers, "
    "which wake once in 20 batch steps, cost about what 1 worker does. The second core's part is "
    "unclear on this machine: in the runs at load 7 to 10, 2 workers cost the same on 1 core and "
    "on 2 (51.0 us and 50.3 us; 40.7 us and 42.1 us), in one at load 3.8 less on 1 core (35.4 us "
    "against 40.9 us; 1 worker 32.2 us; that run's wall-clock figures spread too widely to use). "
    "The fixed part alone, 2 games on 2 workers, interleaved A/B at "
    "load 10: 180 us of the workers' CPU a batch step before the one-byte pipes and 144 us after, "
    "the parent's 63 us and 42 us.",
    "vector_targets": "2x `SyncVectorEnv` for TOOLS: met compiled (2.22x idle), not plain (1.91x "
    "idle; 1.88x to 2.00x in the fourth round's runs at load 1.8 to 14.6); the classic game's 2x: "
    "not met, 1.72x plain and 1.82x compiled idle (1.37x to 1.57x before the fourth round). 1.8x "
    "on 2 cores for the processes: not met, 1.54x plain (1.70x the same form on 1 core against 2) "
    "on the idle machine, whose control reached 1.84x in the same run (1.6x to 1.7x the session "
    "before); a model from the CPU times of an earlier quiet "
    "run gave 1.65x at best: with 1 worker on 1 core a game step costs 3.4 + 39.8 us; with 2 "
    "workers on 2 cores the parent's 3.9 us plus half of 41.7 us, times 1.07 for the slower "
    "half.",
}


def vector_speed() -> str:
    """The section, from ``VECTOR_SPEED`` (``load``: the batched run's load average)."""
    load = VECTOR_SPEED["load"]
    vector = "\n".join(f"| {name} | {rate:,} |" for name, rate in VECTOR_SPEED["vector"])
    procs = "\n".join(f"| {name} | {rate:,} |" for name, rate in VECTOR_SPEED["processes"])
    return f"""### Speed of the batches

Measured by the batched part of the bench of [Speed](#speed) (the same command; load
{load}), interleaved with Gymnasium's `SyncVectorEnv` over the same environments
(`gym.make_vec(..., vectorization_mode="sync")`); the bench picks each batch's random legal ids in
three NumPy calls for both, as a batched agent would (a loop over the games in Python costs about
as much as a TOOLS game step, and would hide the environments' own difference).

| batched (8 games) | steps / CPU s |
| --- | ---: |
{vector}

{VECTOR_SPEED["vector_ratios"]} What `ParlorVectorEnv` does less per game than `SyncVectorEnv`'s single
environments: it checks the batch's ids against the games' legal ids at once and plays the
allowed ones without checking them again (an id outside the mask takes the single environment's
path, refused or penalized as there); it plays the bots' moves without the table working out
every seat's reward on the moves that pay nobody (`Table.act_for`), and ends a step without
working the position out (the seats out are the settled ones); it copies the encoders' own
vectors into the batch in one call (the single environments copy each into an observation
dict; both bring it up to date from the engine's own lists), takes the
legal ids straight from the engine
(`Table.decision_ids`) and sets the masks' ones item by item (the property games' long lists of
trade offers in one NumPy call for the batch); it restarts a game without building the
observation and the info it would throw away; it builds the step's rewards and ends from lists,
with no batch arrays to fill and copy; and it has no wrappers and no per-game observation and
info dicts. A step with an id that a game refuses by raising (`illegal_action="raise"`)
changes nothing: the refusal is found before any game of the batch moves (in the process form
the parent checks the ids against the shared masks first, and only the refusing game's worker
is asked to raise its error). A step is three passes over the batch: the games' moves, then the observations,
then the legal ids, so that the interpreter runs one part's code at a time.

What is left is the games' own work, which every form does for the same games: the engine's
moves and new games, the bots' choices, the encoder's update, the legal ids (and the bench's
picks). The bench times it in an instrumented run of its own and prints the bound it sets:
{VECTOR_SPEED["vector_bound"]}

`ParlorProcessVectorEnv` keeps its batches in shared memory: the workers write their rows in
place, the actions go the other way in shared memory too, and a step is one byte written on each
worker's pipe and one byte back (`os.write` and `os.read` on the descriptors: no framing, nothing
pickled; the rare pickled messages, a reset, an exception, the ended games' infos, follow a tag
byte). While the parent reads the batch and picks the next actions, each worker restarts the
games that ended (a restart costs several steps' time): the restarts leave the next step's
critical path, so one worker's restarts do not hold up the batch; a `reset` before that step
undoes them, so an unseeded reset draws the same games. A worker that dies (killed, out of
memory) raises `WorkerDiedError` naming the worker, its pid and exit code, at that call and every
later one; `close()` still stops the others.

How its speed is measured: 64 games of `parlor/Tools-v0`, steps per wall second (its work is in
the workers), each contender pinned with its workers to one core or to both
(`os.sched_setaffinity`), interleaved (`python bench/bench_rl_peers.py --vector 64 --only
processes` runs that part alone). With "1 worker" free on 2 cores the parent has the other core
to itself, so that figure uses more than one core; the issue's "grows with cores" is the same form
on 1 core against 2. The control is two processes stepping their own 32 games each with nothing
to wait for (20 batch steps a command): the most a second core gives this work on the machine at
that moment. Load {VECTOR_SPEED["process_load"]}:

| 64 games, `parlor/Tools-v0` | steps / wall s |
| --- | ---: |
{procs}

{VECTOR_SPEED["process_ratios"]}

{VECTOR_SPEED["process_cpu"]}

Of issue 21's targets for the batches: {VECTOR_SPEED["vector_targets"]}"""

"""The optional compiled build: ``PARLOR_COMPILE=1`` compiles the hot pure modules with mypyc.

By default (CI, ``pip install .``) nothing is compiled and the package is pure Python. With a C
compiler and mypy at hand::

    PARLOR_COMPILE=1 pip install --no-build-isolation .

(``--no-build-isolation``: mypyc comes with the mypy of the environment, the ``dev`` extra, and
type-checks the modules against the package's dependencies, which must be installed first:
the README's two lines do both in a fresh environment). The
compiled modules are the same source files; the ``.py`` files stay in the package as the fallback
and as the reference. Everything else is configured in ``pyproject.toml``.
"""

from __future__ import annotations

import os

from setuptools import setup

#: The modules compiled, relative to ``src``: the property bots' per-decision work, and the
#: property engine's rule areas and game, one chain of native classes from
#: ``parlor.monopoly.table.Table`` to ``parlor.monopoly.game.PropertyGame`` (on the game
#: protocol, ``parlor.core.game.Game``, which stays Python), its decision frames, and the records
#: they hand out. What the compiled build gains on a classic heuristic game: docs/simulate.md
#: (against gamescomputersplay/monopoly).
COMPILED = [
    # The records every engine builds at every step (Decision, Event): native, a compiled engine
    # builds them without a Python __init__.
    "parlor/core/records.py",
    "parlor/bots/monopoly_lots.py",
    "parlor/bots/monopoly_board.py",
    "parlor/bots/monopoly_table.py",
    "parlor/bots/monopoly_builds.py",
    "parlor/bots/monopoly_estate.py",
    "parlor/bots/monopoly_heuristic.py",
    "parlor/bots/monopoly_trading.py",
    "parlor/bots/monopoly_dealing.py",
    "parlor/bots/monopoly_valuation.py",
    "parlor/monopoly/interned.py",
    # The actions: native, so that the engine and the bots read their fields directly and the
    # game checks them with a native method (Action.bad_field) instead of generated Python.
    "parlor/monopoly/actions.py",
    # The decision frames: read and built at every step of the engine (native, their fields
    # are read directly; not the empty shared info, noinfo.py, a dict subclass).
    "parlor/monopoly/frames.py",
    # The edition's numbers the engine reads at every step, as native lists (facts.py): the
    # edition's own dataclasses stay plain Python, read through the generic attribute path.
    "parlor/monopoly/facts.py",
    "parlor/monopoly/table.py",
    "parlor/monopoly/mortgages.py",
    "parlor/monopoly/rent.py",
    "parlor/monopoly/building.py",
    "parlor/monopoly/shortage.py",
    "parlor/monopoly/buying.py",
    "parlor/monopoly/id_space.py",
    "parlor/monopoly/action_ids.py",
    "parlor/monopoly/trades.py",
    "parlor/monopoly/ending.py",
    "parlor/monopoly/turn.py",
    "parlor/monopoly/debts.py",
    "parlor/monopoly/game.py",
    # TOOLS: the shuffle, and the rule areas and game as one chain of native classes from
    # parlor.tools.table.ToolsTable to parlor.tools.game.ToolsGame. Random play, instructions a
    # game (docs/bots.md, TOOLS; `PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no
    # python bench/bench_tools.py --players 2 --games 200` minus `--games 0`, over 200): the
    # issue's start (2361b16) 3,232,010, plain Python 1,963,990, compiled 1,037,176 (four
    # players 2,846,992 / 1,747,810 / 936,121).
    "parlor/tools/shuffling.py",
    "parlor/tools/table.py",
    "parlor/tools/action_ids.py",
    "parlor/tools/hidden.py",
    "parlor/tools/turn.py",
    "parlor/tools/legality.py",
    "parlor/tools/game.py",
    # The RL environments' per-step work (issue 21): the encoders, the layout they write
    # through, the property game's view they read (parlor/monopoly/views.py), the table that
    # checks, applies and pays each step, the AEC step over it (aec_core), the random bot (the
    # opponents' every move) and the batch (vector: a native class over Gymnasium's VectorEnv,
    # its loops over the games compiled); the PettingZoo and single Gymnasium classes (aec,
    # gym_env) stay thin Python over them. (The compiled table holds the parlor package to the
    # interpreter's end; parlor/rl/openspiel.py says why that once made OpenSpiel users abort.)
    "parlor/monopoly/views.py",
    "parlor/rl/layout.py",
    "parlor/rl/tools_obs.py",
    "parlor/rl/property_obs.py",
    "parlor/rl/table.py",
    "parlor/rl/aec_core.py",
    "parlor/bots/base.py",
    "parlor/rl/vector.py",
]

ext_modules = []
if os.environ.get("PARLOR_COMPILE") == "1":
    from mypyc.build import mypycify

    ext_modules = mypycify(
        [os.path.join("src", path) for path in COMPILED], opt_level="3", verbose=False
    )

setup(ext_modules=ext_modules)

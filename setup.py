"""The optional compiled build: ``PARLOR_COMPILE=1`` compiles the hot pure modules with mypyc.

By default (CI, ``pip install .``) nothing is compiled and the package is pure Python. With a C
compiler and mypy at hand::

    PARLOR_COMPILE=1 pip install --no-build-isolation .

(``--no-build-isolation``: mypyc comes with the mypy of the environment, the ``dev`` extra). The
compiled modules are the same source files; the ``.py`` files stay in the package as the fallback
and as the reference. Everything else is configured in ``pyproject.toml``.
"""

from __future__ import annotations

import os

from setuptools import setup

#: The modules compiled, relative to ``src``: the property bots' per-decision work.
COMPILED = [
    "parlor/bots/monopoly_board.py",
    "parlor/bots/monopoly_table.py",
    "parlor/bots/monopoly_heuristic.py",
    # TOOLS: the shuffle of the deal and the reshuffles. (The rule areas' classes cannot be
    # compiled yet: mypyc checks a method's self by exact type, which ToolsGame, combining them
    # with the interpreted core Game, is not; and a compiled public method would raise TypeError
    # for an argument of the wrong type before it could refuse it.)
    "parlor/tools/shuffling.py",
]

ext_modules = []
if os.environ.get("PARLOR_COMPILE") == "1":
    from mypyc.build import mypycify

    ext_modules = mypycify(
        [os.path.join("src", path) for path in COMPILED], opt_level="3", verbose=False
    )

setup(ext_modules=ext_modules)

"""Which build of Parlor runs: plain Python, or the optional compiled build (``PARLOR_COMPILE=1``,
mypyc, see setup.py and the README), whose modules load from ``.so`` files instead of ``.py``."""

from __future__ import annotations

import importlib

#: One module of each compiled area: the property engine, the property bots, TOOLS.
PROBES = ("parlor.monopoly.game", "parlor.bots.monopoly_heuristic", "parlor.tools.game")


def compiled_modules() -> list[str]:
    """The probe modules that loaded compiled (from a native extension, not a ``.py`` file)."""
    found = []
    for name in PROBES:
        path = getattr(importlib.import_module(name), "__file__", None) or ""
        if not path.endswith(".py"):
            found.append(name)
    return found


def build_name() -> str:
    """``"compiled"`` (every probe module native), ``"plain Python"`` (none), or ``"partly
    compiled (...)"`` naming the native ones (a tree built with only some modules)."""
    found = compiled_modules()
    if len(found) == len(PROBES):
        return "compiled"
    if not found:
        return "plain Python"
    return f"partly compiled ({', '.join(found)})"

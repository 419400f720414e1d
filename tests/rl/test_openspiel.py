"""The games as OpenSpiel Python games: OpenSpiel's random-simulation API test, its RL
environment and its bot evaluation, run in a child process (see openspiel_checks.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CHECKS = Path(__file__).with_name("openspiel_checks.py")
ROOT = Path(__file__).resolve().parents[2]


def test_openspiel_checks_pass() -> None:
    result = subprocess.run(
        [sys.executable, str(CHECKS)], capture_output=True, text=True, timeout=600, cwd=ROOT
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1] == "ALL PASSED", result.stdout + result.stderr
    assert len([line for line in lines if line.startswith("passed ")]) == 5


def test_a_process_that_registered_the_games_exits_cleanly() -> None:
    """pyspiel's registry outlives the interpreter: registering once aborted every process at
    exit (SIGABRT, exit 134), so every research script ended with a failure code."""
    code = (
        "import pyspiel; from parlor.rl.openspiel import register; register(); "
        "s = pyspiel.load_game('parlor_tools').new_initial_state(); s.apply_action(s.legal_actions()[0])"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr.decode()[-2000:]


def test_it_exits_cleanly_while_the_package_lives_to_the_end() -> None:
    """The interpreter's shutdown empties the dicts of the modules still alive: a factory kept
    only by its module's globals was then freed by pyspiel's exit handler, without the GIL. A
    compiled module that imports ``parlor`` holds the package to the end (mypyc keeps its imports
    in C statics); here one reference that is never released stands in for it."""
    code = (
        "import ctypes, parlor, pyspiel; from parlor.rl.openspiel import register; register(); "
        "ctypes.pythonapi.Py_IncRef(ctypes.py_object(parlor)); "
        "s = pyspiel.load_game('parlor_property(players=2)').new_initial_state(); "
        "s.apply_action(s.legal_actions()[0])"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr.decode()[-2000:]


def test_the_module_imports_without_pyspiel() -> None:
    code = "import sys, parlor.rl.openspiel; assert 'pyspiel' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)

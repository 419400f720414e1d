"""The ``parlor`` command's help in the user's language: ``--lang`` where a command has it, else
the environment (LANGUAGE, LC_ALL, LANG), else English. Run as a real process, as a user would."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def parlor(*args: str, lang: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env["LANG"] = lang or "C.UTF-8"
    return subprocess.run(
        [sys.executable, "-m", "parlor.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


#: A line of each command's help in Danish and in Spanish.
HELP = {
    "simulate": ("antal spil (standard: 100)", "número de partidas (por defecto: 100)"),
    "analyze": ("regelvariant", "variante de reglas"),
    "render": ("genspil kun de første N træk", "reproduce solo las primeras N acciones"),
    "serve": (
        "port (standard: 8000; 0: en vilkårlig ledig port)",
        "puerto (por defecto: 8000; 0: cualquier puerto libre)",
    ),
    "bot": ("visningsnavn ved bordet", "nombre visible en la mesa"),
}


@pytest.mark.parametrize("command", sorted(HELP))
def test_help_follows_the_environment(command: str) -> None:
    danish, spanish = HELP[command]
    told = parlor(command, "--help", lang="da_DK.UTF-8")
    assert told.returncode == 0, told.stderr
    assert danish in " ".join(told.stdout.split())
    told = parlor(command, "--help", lang="es_ES.UTF-8")
    assert spanish in " ".join(told.stdout.split())
    told = parlor(command, "--help")
    assert danish not in told.stdout and spanish not in told.stdout


def test_lang_on_the_command_line_wins_over_the_environment() -> None:
    told = parlor("play", "--help", "--lang", "da", lang="es_ES.UTF-8")
    assert told.returncode == 0, told.stderr
    assert "Spil et ejendomsspil" in " ".join(told.stdout.split())
    told = parlor("--help", lang="da_DK.UTF-8")
    assert "kør spilserveren" in " ".join(told.stdout.split())


def test_an_engine_error_is_reported_in_the_environments_language() -> None:
    told = parlor("analyze", "--edition", "atlantis", lang="es_ES.UTF-8")
    assert told.returncode == 2
    assert told.stderr.startswith("parlor analyze: edición desconocida 'atlantis'")


#: The developer scripts (run as ``python -m``): a line of each one's help in Danish and Spanish.
SCRIPTS = {
    "parlor.rl.train": ("størrelser på de skjulte lag", "tamaños de las capas ocultas"),
    "parlor.analysis.deckstudy": (
        "spil pr. kortspil og antal spillere",
        "partidas por mazo y número de jugadores",
    ),
    "parlor.bots.tools_value": ("hvor modellen skrives", "dónde escribir el modelo"),
}


def script_help(module: str, lang: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env["LANG"] = lang
    told = subprocess.run(
        [sys.executable, "-m", module, "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert told.returncode == 0, told.stderr
    return " ".join(told.stdout.split())


@pytest.mark.parametrize("module", sorted(SCRIPTS))
def test_developer_scripts_help_follows_the_environment(module: str) -> None:
    danish, spanish = SCRIPTS[module]
    assert danish in script_help(module, "da_DK.UTF-8")
    assert spanish in script_help(module, "es_ES.UTF-8")
    english = script_help(module, "C.UTF-8")
    assert danish not in english and spanish not in english

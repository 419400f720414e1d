"""The terminal games under hostile input: no traceback, and the save keeps the last good state.

Each run is a real process (``python -m parlor.cli ...``) fed raw bytes, as a person or a script
at a terminal would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from parlor.cli.common import Seat
from parlor.cli.saves import read_save, write_save
from parlor.core.saves import write_atomic
from parlor.monopoly import PropertyGame, new_game
from parlor.tools import ToolsGame

HOSTILE = [
    "²\n",  # a Unicode digit: str.isdigit() says yes, int() says no
    "9" * 5000 + "\n",  # more digits than int() will parse
    "bid " + "9" * 5000 + "\n",
    "b\n" + "7" * 400 + "+\n\n",
    "t\n²\n\n",
    "\x00\x1b[2J\n",
]


def parlor(
    args: list[str], stdin: bytes, cwd: Path, timeout: float = 120
) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "LANG": "C.UTF-8"}
    return subprocess.run(
        [sys.executable, "-m", "parlor.cli", *args],
        input=stdin,
        capture_output=True,
        timeout=timeout,
        cwd=cwd,
        env=env,
    )


def assert_clean(done: subprocess.CompletedProcess[bytes]) -> None:
    for stream in (done.stdout, done.stderr):
        assert b"Traceback" not in stream, stream.decode("utf-8", "replace")[-2000:]


@pytest.mark.parametrize("junk", HOSTILE)
def test_property_game_survives_hostile_lines_and_keeps_the_save(junk: str, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    # Throw the dice once (a good state worth keeping), then the junk, then the input ends.
    typed = ("1\n" + junk).encode("utf-8") + b"\xff\xfe not utf-8 \xc3\n"
    done = parlor(["play", "--seed", "3", "--lang", "en", "--save", str(save)], typed, tmp_path)
    assert_clean(done)
    assert done.returncode == 1
    assert b"Input ended: game abandoned." in done.stdout
    game = PropertyGame.from_json(save.read_text(encoding="utf-8"))
    assert game.log and not game.is_over


def test_tools_game_survives_hostile_lines_and_keeps_the_save(tmp_path: Path) -> None:
    save = tmp_path / "tools.json"
    typed = "".join(HOSTILE).encode() + b"\xff\xfe\n" + b"d\n1\n" * 3
    done = parlor(["tools", "--seed", "2", "--lang", "en", "--save", str(save)], typed, tmp_path)
    assert_clean(done)
    assert done.returncode == 1 and b"input ended" in done.stdout
    assert ToolsGame.from_json(save.read_text(encoding="utf-8")).num_players == 4


def test_a_closed_stdout_saves_the_game_and_ends_quietly(tmp_path: Path) -> None:
    save = tmp_path / "watched.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "parlor.cli", "play", "--bots", "all", "--seed", "5", "--show",
         "full", "--save", str(save)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(2000)
    proc.stdout.close()  # like "| head": the reader goes away mid-game
    err = proc.stderr.read()
    proc.wait(timeout=120)
    assert b"Traceback" not in err
    assert b"the game is saved to" in err
    game = PropertyGame.from_json(save.read_text(encoding="utf-8"))
    assert game.log


def test_names_that_are_not_utf8_are_refused_before_the_game(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "parlor.cli", "play", "--names", "Ann,B\udcffo"],
        capture_output=True, cwd=tmp_path, timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "utf-8:surrogateescape"},
    )  # fmt: skip
    assert_clean(done)
    assert done.returncode == 2 and b"undecodable bytes" in done.stderr


def test_a_hot_seat_game_comes_back_with_its_humans_and_bots(tmp_path: Path) -> None:
    save = tmp_path / "hot.json"
    # Ann and Cy are human, Bo and Di offering bots; Ann throws, then input ends.
    args = ["play", "--names", "Ann,Bo,Cy,Di", "--bots", "2,4", "--bot", "offering", "--seed",
            "8", "--lang", "da", "--save", str(save)]  # fmt: skip
    done = parlor(args, b"1\n", tmp_path)
    assert_clean(done)
    loaded = read_save(save)
    assert loaded.seats == [Seat(), Seat("offering", 8001), Seat(), Seat("offering", 8003)]
    assert loaded.language == "da"
    # Resume: the saved seats decide (no --bots needed), and the game speaks Danish again.
    again = parlor(["play", "--load", str(save)], b"", tmp_path)
    assert_clean(again)
    text = " ".join(again.stdout.decode().split())  # (lines wrapped at 80 columns)
    bot = "robot, der tilbyder handler"
    assert f"Ann, Bo ({bot}), Cy, Di ({bot})" in text
    assert "Genoptager efter" in text


def test_a_tools_save_restores_the_seats(tmp_path: Path) -> None:
    save = tmp_path / "t.json"
    done = parlor(["tools", "--players", "3", "--bots", "3", "--bot", "random", "--seed", "4",
                   "--save", str(save)], b"\n", tmp_path)  # fmt: skip
    assert_clean(done)
    loaded = read_save(save)
    assert loaded.seats == [Seat(), Seat(), Seat("random", 4002)] and loaded.language == "es"
    again = parlor(["tools", "--load", str(save)], b"", tmp_path)
    assert_clean(again)
    assert b"Se reanuda" in again.stdout or b"TOOLS, 3 jugadores" in again.stdout


def test_an_atomic_write_that_fails_leaves_the_old_save(tmp_path: Path) -> None:
    target = tmp_path / "keep.json"
    game = new_game("classic", 2, seed=1)
    write_save(target, game, [Seat(), Seat("heuristic", 1)], "en")
    before = target.read_bytes()
    with pytest.raises(UnicodeEncodeError):
        write_atomic(target, "half a save \udcff".encode())
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["keep.json"]  # no temporary file left
    assert json.loads(before)["extra"]["seats"][1] == {"role": "bot", "bot": "heuristic", "seed": 1}


def _tampered(kind: str, good: dict[str, object], path: Path) -> None:
    """Write a save spoilt in the way ``kind`` names."""
    data = json.loads(json.dumps(good))
    extra = data["extra"]
    assert isinstance(extra, dict)
    if kind == "seat":
        extra["seats"][0] = {"role": "ghost"}
    elif kind == "bot seat":
        extra["seats"][1] = {"role": "bot", "bot": 7, "seed": "x"}
    elif kind == "seats":
        extra["seats"] = "all of them"
    elif kind == "actions":
        data["actions"] = [10**6] * 3
    elif kind == "nested":
        path.write_text("[" * 100_000 + "]" * 100_000)
        return
    elif kind == "binary":
        path.write_bytes(b"\xff\xfe\x00garbage")
        return
    path.write_text(json.dumps(data))


#: A tampered save of each kind, and the start of what the Spanish game says about it.
TAMPERED = {
    "seat": "no es un asiento: {'role': 'ghost'}",
    "bot seat": "no es un asiento de bot:",
    "seats": "los asientos no son una lista",
    "actions": "",
    "nested": "anidado demasiado hondo",
    "binary": "el texto no es UTF-8 (byte 0)",
}


@pytest.mark.parametrize("game", ["play", "tools"])
@pytest.mark.parametrize("kind", sorted(TAMPERED))
def test_a_tampered_save_is_refused_in_the_players_language_and_left_alone(
    game: str, kind: str, tmp_path: Path
) -> None:
    save = tmp_path / "game.json"
    start = ["--max-steps", "3"] if game == "play" else []  # (TOOLS: the human's input ends)
    made = parlor([game, "--bots", "all-but-1", "--seed", "1", *start, "--save", str(save)],
                  b"", tmp_path)  # fmt: skip
    assert_clean(made)
    _tampered(kind, json.loads(save.read_text(encoding="utf-8")), save)
    before = save.read_bytes()
    done = parlor([game, "--load", str(save), "--lang", "es"], b"", tmp_path)
    assert_clean(done)
    assert done.returncode == 2
    said = done.stderr.decode()
    assert "no es una partida guardada que se pueda reproducir" in said, said
    assert TAMPERED[kind] in said, said
    assert save.read_bytes() == before  # a refused save is never overwritten


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("nonsense", "'nonsense' no es un enlace de invitación"),
        ("http://127.0.0.1:1/", "no es un enlace de invitación"),
        ("http://[::1", "parlor bot: error:"),
        ("http://127.0.0.1:1/#table=t&invite=i", "parlor bot: error:"),  # nobody listens there
    ],
)
def test_parlor_bot_with_a_bad_link_says_so_without_a_traceback(
    url: str, said: str, tmp_path: Path
) -> None:
    done = parlor(["bot", "--url", url, "--lang", "es"], b"", tmp_path)
    assert_clean(done)
    assert done.returncode == 1 and said in done.stderr.decode(), done.stderr

"""The record commands, run as a user runs them: ``parlor simulate --records``, ``parlor records
convert`` and ``check``, and the ``parlor replay`` stepper fed its keys on standard input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from parlor import monopoly
from parlor.core.saves import write_save
from parlor.records import parse, read_file, read_game
from tests.records.games import play

SRC = str(Path(__file__).resolve().parents[2] / "src")


def parlor(
    *args: str, stdin: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC, "LANG": "C.UTF-8", "LANGUAGE": "en"}
    return subprocess.run(
        [sys.executable, "-m", "parlor.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=300,
    )


def test_simulate_writes_a_corpus_of_records(tmp_path: Path) -> None:
    done = parlor(
        "simulate", "--game", "tools", "--players", "3", "--bots", "heuristic,random,random",
        "--games", "5", "--seed", "40", "--workers", "2", "--records", str(tmp_path / "recs"),
        "--out", str(tmp_path / "out"), "--no-plots", "--no-progress",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    files = sorted((tmp_path / "recs").glob("*.plr"))
    assert [f.name for f in files] == [f"game-{i:06d}.plr" for i in range(5)]
    for i, f in enumerate(files):
        record = read_file(f)
        assert record.tag("Seed") == str(40 + i) and record.tag("Round") == str(i + 1)
        kinds = [t.values[2] for t in record.tags_named("Seat")]
        assert kinds == ["heuristic", "random", "random"]
        read_game(f.read_text(encoding="utf-8"))
    checked = parlor("records", "check", *map(str, files))
    assert checked.returncode == 0 and checked.stdout.count(": ok, ") == 5


def test_convert_both_ways_and_check_refuses_a_bad_record(tmp_path: Path) -> None:
    game = play(monopoly.new_game("matco", 2, 6), "monopoly", "heuristic", 300, 6)
    write_save(tmp_path / "g.json", game)
    assert parlor("records", "convert", "g.json", "g.plr", cwd=tmp_path).returncode == 0
    assert parlor("records", "convert", "g.plr", "back.json", cwd=tmp_path).returncode == 0
    back = json.loads((tmp_path / "back.json").read_text(encoding="utf-8"))
    assert back["actions"] == json.loads(game.to_json())["actions"]
    hidden = parlor("records", "convert", "g.plr", "h.plr", "--hide-seed", cwd=tmp_path)
    assert hidden.returncode == 0 and parse((tmp_path / "h.plr").read_text()).tag("Seed") is None
    text = (tmp_path / "g.plr").read_text(encoding="utf-8")
    (tmp_path / "bad.plr").write_text(text.replace(" roll ", " roll 9", 1), encoding="utf-8")
    checked = parlor("records", "check", "g.plr", "bad.plr", cwd=tmp_path)
    assert checked.returncode == 1
    assert "g.plr: ok, " in checked.stdout and "bad.plr: line " in checked.stdout
    failed = parlor("records", "convert", "bad.plr", "x.json", cwd=tmp_path)
    assert failed.returncode == 2 and "error: line " in failed.stderr
    assert not (tmp_path / "x.json").exists()


def test_replay_steps_with_enter_jumps_and_quits(tmp_path: Path) -> None:
    game = play(monopoly.new_game("classic", 2, 4), "monopoly", "heuristic", 60, 4)
    write_save(tmp_path / "g.json", game)
    assert parlor("records", "convert", "g.json", "g.plr", cwd=tmp_path).returncode == 0
    moves = parse((tmp_path / "g.plr").read_text()).moves
    done = parlor("replay", "g.plr", stdin="\n\n10\nq\n", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "[move 0 of 60]" in out and "[move 2 of 60]" in out and "[move 10 of 60]" in out
    assert moves[9].text() in out and moves[10].text() not in out.split("[move 10 of 60]")[1]
    assert all(len(line) <= 80 for line in out.splitlines() if not line.startswith("[move"))
    assert "Player 1" in out and "@" in out  # (the table after each move)
    everything = parlor("replay", "g.json", "--all", cwd=tmp_path)
    assert everything.returncode == 0 and moves[-1].text() in everything.stdout
    assert "The record ends before the game does." in everything.stdout

"""The record commands through the ``parlor`` entry point: ``parlor simulate --records``,
``parlor records convert`` and ``check``, and the ``parlor replay`` stepper fed its keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parlor import monopoly
from parlor.cli import main
from parlor.core.saves import write_save
from parlor.records import parse, read_file, read_game
from tests.records.games import play


def test_simulate_writes_a_corpus_of_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main([
        "simulate", "--game", "tools", "--players", "3", "--bots", "heuristic,random,random",
        "--games", "5", "--seed", "40", "--workers", "2", "--records", str(tmp_path / "recs"),
        "--out", str(tmp_path / "out"), "--no-plots", "--no-progress",
    ])  # fmt: skip
    assert code == 0, capsys.readouterr().err
    files = sorted((tmp_path / "recs").glob("*.plr"))
    assert [f.name for f in files] == [f"game-{i:06d}.plr" for i in range(5)]
    for i, f in enumerate(files):
        record = read_file(f)
        assert record.tag("Seed") == str(40 + i) and record.tag("Round") == str(i + 1)
        kinds = [t.values[2] for t in record.tags_named("Seat")]
        assert kinds == ["heuristic", "random", "random"]
        read_game(f.read_text(encoding="utf-8"))
    capsys.readouterr()
    assert main(["records", "check", *map(str, files)]) == 0
    assert capsys.readouterr().out.count(": ok, ") == 5


def run(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``parlor ARGS`` in this process (the command's own entry point), with its output."""
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_convert_both_ways_and_check_refuses_a_bad_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LANGUAGE", "en")
    game = play(monopoly.new_game("matco", 2, 6), "monopoly", "heuristic", 300, 6)
    write_save(tmp_path / "g.json", game)
    assert run("records", "convert", "g.json", "g.plr", capsys=capsys)[0] == 0
    assert run("records", "convert", "g.plr", "back.json", capsys=capsys)[0] == 0
    back = json.loads((tmp_path / "back.json").read_text(encoding="utf-8"))
    assert back["actions"] == json.loads(game.to_json())["actions"]
    assert run("records", "convert", "g.plr", "h.plr", "--hide-seed", capsys=capsys)[0] == 0
    assert parse((tmp_path / "h.plr").read_text()).tag("Seed") is None
    text = (tmp_path / "g.plr").read_text(encoding="utf-8")
    (tmp_path / "bad.plr").write_text(text.replace(" roll ", " roll 9", 1), encoding="utf-8")
    code, out, _ = run("records", "check", "g.plr", "bad.plr", capsys=capsys)
    assert code == 1
    assert "g.plr: ok, " in out and "bad.plr: line " in out
    code, _, err = run("records", "convert", "bad.plr", "x.json", capsys=capsys)
    assert code == 2 and "error: line " in err
    assert not (tmp_path / "x.json").exists()


def test_replay_steps_with_enter_jumps_and_quits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LANGUAGE", "en")
    game = play(monopoly.new_game("classic", 2, 4), "monopoly", "heuristic", 60, 4)
    write_save(tmp_path / "g.json", game)
    assert run("records", "convert", "g.json", "g.plr", capsys=capsys)[0] == 0
    moves = parse((tmp_path / "g.plr").read_text()).moves
    keys = iter(["", "", "10", "q"])
    asked: list[str] = []

    def answer(prompt: str) -> str:
        asked.append(prompt)
        print(prompt)
        return next(keys)

    monkeypatch.setattr("builtins.input", answer)
    code, out, err = run("replay", "g.plr", capsys=capsys)
    assert code == 0, err
    assert [p.split("]")[0] for p in asked] == [
        "[move 0 of 60",
        "[move 1 of 60",
        "[move 2 of 60",
        "[move 10 of 60",
    ]
    assert moves[9].text() in out and moves[10].text() not in out.split("[move 10 of 60]")[1]
    assert all(len(line) <= 80 for line in out.splitlines() if not line.startswith("[move"))
    assert "Player 1" in out and "@" in out  # (the table after each move)
    code, everything, _ = run("replay", "g.json", "--all", capsys=capsys)
    assert code == 0 and moves[-1].text() in everything
    assert "The record ends before the game does." in everything

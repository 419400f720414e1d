"""Reading records: each kind of wrong line is refused with its line number and what the game
gives instead; a record may withhold its seed behind a commitment; files are size-capped."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlor import monopoly
from parlor.records import (
    RecordError,
    parse,
    read_file,
    read_game,
    record_to_save,
    seed_commitment,
    write_record,
)
from tests.records.games import play


@pytest.fixture(scope="module")
def text() -> str:
    game = play(
        monopoly.new_game("classic", 3, 3, {"variant": "short"}), "monopoly", "heuristic", 5000, 3
    )
    return write_record(game)


def line_of(text: str, start: str) -> tuple[int, str]:
    lines = text.split("\n")
    k = next(i for i, line in enumerate(lines) if line.startswith(start) or f" {start}" in line)
    return k + 1, lines[k]


def refused(text: str) -> str:
    with pytest.raises(RecordError) as info:
        read_game(text)
    return str(info.value)


def test_wrong_dice_are_refused_with_what_the_seed_threw(text: str) -> None:
    no, line = line_of(text, "roll ")
    dice = line.split("roll ")[1][:3]
    other = "1+1" if dice != "1+1" else "2+2"
    message = refused(text.replace(line, line.replace(f"roll {dice}", f"roll {other}")))
    assert message.startswith(f"line {no}: the record says ")
    assert f"the game gives {line.split('. ', 1)[-1]}" in message


def test_an_illegal_move_is_refused_with_the_rules_reason(text: str) -> None:
    no, line = line_of(text, "1. ")
    bad = line.split(" ", 1)[0] + " P1 build Boardwalk"
    message = refused(text.replace(line, bad))
    assert message.startswith(f"line {no}: 1. P1 build Boardwalk is not legal here: ")


def test_turn_numbers_result_and_unknown_words(text: str) -> None:
    no, line = line_of(text, "5. ")
    assert refused(text.replace(line, line.replace("5. ", "6. "))) == (
        f"line {no}: this move is not the first of turn 6"
    )
    assert refused(text.replace(line, line.replace("5. P", "5. X"))).startswith(
        f"line {no}: 'X1' is not a player"
    )
    assert "is not a move of this game" in refused(text.replace(line, "5. P1 fly away"))
    lines = text.split("\n")
    assert "the moves do not finish the game" in refused("\n".join(lines[:-6]))
    assert refused(text.replace('[Result "', '[Result "1 ')).startswith(
        "line 10: the game gives [Result"
    )
    assert refused('[Game "monopoly"]\n') == "a record starts with its [Format] tag"
    assert "unknown format" in refused(text.replace("parlor-record 1", "parlor-record 9"))


def test_a_record_may_withhold_its_seed_behind_a_commitment() -> None:
    game = play(monopoly.new_game("matador", 2, 77), "monopoly", "heuristic", 200, 77)
    hidden = write_record(game, hide_seed=True)
    assert "[Seed " not in hidden and f'[SeedCommitment "{seed_commitment(77)}"]' in hidden
    record = parse(hidden)  # (readable: the moves and their dice are all there)
    assert record.moves and record.tag("SeedCommitment", "").startswith("sha256:")
    assert "withholds its seed" in refused(hidden)
    with pytest.raises(RecordError, match="does not match the record's commitment"):
        read_game(hidden, seed=78)
    assert read_game(hidden, seed=77).log == game.log
    assert record_to_save(hidden, seed=77)["seed"] == 77


def test_files_are_read_with_a_size_cap(tmp_path: Path) -> None:
    game = play(monopoly.new_game("latam", 2, 1), "monopoly", "random", 50, 1)
    path = tmp_path / "game.plr"
    path.write_text(write_record(game), encoding="utf-8")
    assert read_file(path).tag("Edition") == "latam"
    with pytest.raises(RecordError):
        read_file(tmp_path / "missing.plr")
    (tmp_path / "bad.plr").write_bytes(b"\xff\xfe[")
    with pytest.raises(RecordError):
        read_file(tmp_path / "bad.plr")

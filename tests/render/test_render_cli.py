"""``parlor render``: a saved game drawn at a step of its log, as SVG and as PNG."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from parlor import monopoly, tools
from parlor.cli import main
from parlor.cli.render_cmd import load_at_step
from parlor.monopoly.edition import EDITION_IDS
from parlor.render import board_svg, tools_svg
from tests.render.helpers import parse, play

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG_MAGIC and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


@pytest.mark.parametrize("edition", EDITION_IDS)
def test_a_saved_property_game_as_svg_and_png(tmp_path: Path, edition: str) -> None:
    game = play(monopoly.new_game(edition, players=3, seed=4), 120, seed=4)
    save = tmp_path / "game.json"
    save.write_text(game.to_json(), encoding="utf-8")
    svg, png = tmp_path / "board.svg", tmp_path / "board.png"
    assert main(["render", str(save), "--out", str(svg)]) == 0
    assert svg.read_text(encoding="utf-8") == str(board_svg(game))  # the end of the save
    assert (
        main(["render", str(save), "--out", str(png), "--step", "40", "--player", "2", "--heat"])
        == 0
    )
    assert png_size(png.read_bytes()) == (850, 850)


def test_step_replays_the_first_actions_of_the_log(tmp_path: Path) -> None:
    game = play(monopoly.new_game("classic", players=4, seed=8), 200, seed=8)
    save = tmp_path / "game.json"
    save.write_text(game.to_json(), encoding="utf-8")
    again = monopoly.new_game("classic", players=4, seed=8)
    for action in game.log[:77]:
        again.apply(action)
    assert load_at_step(save.read_text(encoding="utf-8"), 77).snapshot() == again.snapshot()
    out = tmp_path / "step.svg"
    assert main(["render", str(save), "--out", str(out), "--step", "77", "--player", "3"]) == 0
    assert out.read_text(encoding="utf-8") == str(board_svg(again, player=2))


def test_a_saved_tools_game_as_the_seat_sees_it(tmp_path: Path) -> None:
    game = play(tools.new_game(players=4, seed=2), 10, seed=2)
    save = tmp_path / "tools.json"
    save.write_text(game.to_json(indent=1), encoding="utf-8")
    out, png = tmp_path / "table.svg", tmp_path / "table.png"
    assert main(["render", str(save), "--out", str(out), "--player", "1"]) == 0
    assert out.read_text(encoding="utf-8") == str(tools_svg(game, player=0))
    assert main(["render", str(save), "--out", str(png), "--scale", "0.5"]) == 0
    width, height = png_size(png.read_bytes())
    svg_root = parse(tools_svg(game))
    assert (width, height) == (
        round(float(svg_root.get("width")) / 2),
        round(float(svg_root.get("height")) / 2),
    )


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--step", "-1"], "--step must be at least 0"),
        (["--player", "9"], "--player must be a seat from 1 to 2"),
        (["--heat"], "--heat and --language are for property games"),
    ],
)
def test_bad_arguments_give_a_message_and_exit_code_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    save = tmp_path / "tools.json"
    save.write_text(play(tools.new_game(players=2, seed=1), 6).to_json(), encoding="utf-8")
    assert main(["render", str(save), "--out", str(tmp_path / "x.svg"), *extra]) == 2
    assert message in capsys.readouterr().err


def test_a_step_past_the_end_draws_the_end_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 20: the README's ``--step 120`` on a short save failed ("--step must be from 0 to
    11"); it draws the save's last step and says so."""
    game = play(tools.new_game(players=2, seed=1), 6)
    save = tmp_path / "tools.json"
    save.write_text(game.to_json(), encoding="utf-8")
    out = tmp_path / "x.svg"
    assert main(["render", str(save), "--out", str(out), "--step", "120"]) == 0
    captured = capsys.readouterr()
    assert f"note: the save has {len(game.log)} actions, not 120: drawing its last step" in (
        captured.err
    )
    assert f"(step {len(game.log)} of the save)" in captured.out
    assert out.read_text(encoding="utf-8") == str(tools_svg(game))


def test_a_file_that_is_no_save_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "chess"}', encoding="utf-8")
    assert main(["render", str(bad), "--out", str(tmp_path / "x.svg")]) == 2
    assert "not a saved game of monopoly or tools" in capsys.readouterr().err

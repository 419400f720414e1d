"""The terminal game, driven by scripted input."""

from __future__ import annotations

import argparse
import io
import json
import random
from pathlib import Path

import pytest

from parlor import tools
from parlor.cli import tools_tui
from parlor.tools import (
    AcceptPenalty,
    ChooseColor,
    Draw,
    EndTurn,
    KeepDrawn,
    PenaltyHammers,
    PlayCard,
    PlayDrawn,
    ToolsAction,
    ToolsGame,
)


def run_cli(argv: list[str], typed: str, lang: str = "en") -> tuple[int, str]:
    out = io.StringIO()
    code = tools_tui.main([*argv, "--lang", lang], stdin=io.StringIO(typed), stdout=out)
    return code, out.getvalue()


def test_subcommand_registration() -> None:
    parser = argparse.ArgumentParser(prog="parlor")
    sub = parser.add_subparsers(dest="command", required=True)
    tools_tui.add_parser(sub)
    args = parser.parse_args(["tools", "--players", "3", "--bots", "2,3", "--seed", "4"])
    assert args.run is tools_tui.run and args.players == 3 and args.seed == 4
    out = io.StringIO()
    args.bots = "all"
    assert tools_tui.run(args, io.StringIO(""), out) == 0
    assert "¡Gana" in out.getvalue()  # TOOLS speaks Spanish unless asked otherwise


@pytest.mark.parametrize("players", [2, 5, 10])
def test_all_bot_game_runs_to_the_end(players: int, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    code, text = run_cli(
        ["--players", str(players), "--bots", "all", "--seed", "3", "--save", str(save)], ""
    )
    assert code == 0
    assert f"TOOLS, {players} players, seed 3" in text
    assert "wins (emptied their hand)" in text or "(blocked)" in text
    game = ToolsGame.from_json(save.read_text())
    assert game.is_over and len(game.names) == players


def test_bad_input_is_answered_and_prompt_repeats() -> None:
    code, text = run_cli(
        ["--players", "3", "--seed", "5", "--names", "Ana,Bob,Eva"], "xyz\n99\nblue\nh\n?\nq\n"
    )
    assert code == 1
    assert "Sorry: I did not understand 'xyz'" in text
    assert "Sorry: 99 is not a card number: your hand has cards 1-7" in text
    assert "Commands:" in text
    assert "Your legal moves: Ana plays" in text
    assert text.count("Your hand (* can be played now):") == 1  # not reprinted after bad input
    assert "game abandoned" in text


def test_illegal_move_gives_the_rule() -> None:
    # Seed 5: Ana's sorted hand starts with two red hammers on a yellow hammer; card 4 is a blue
    # bent nail, which cannot go on a yellow hammer.
    code, text = run_cli(["--players", "3", "--seed", "5", "--names", "Ana,Bob,Eva"], "4\nd\nq\n")
    hand = text.split("Your hand (* can be played now):")[1]
    assert "   1. * red hammer" in hand and "   4.   blue bent nail" in hand
    assert "Not allowed: the blue bent nail cannot be played on the yellow hammer now" in text
    assert "Not allowed: you can play a card, so you may not draw" in text
    assert code == 1


def test_input_ending_abandons_cleanly() -> None:
    code, text = run_cli(["--players", "2", "--seed", "1"], "")
    assert code == 1 and "input ended" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "11"], "2-10 players"),
        (["--players", "3", "--names", "A,B"], "2 names given for 3 players"),
        (["--players", "3", "--bots", "1,9"], "seat '9' is not a number from 1 to 3"),
        (["--deck", "/nonexistent.toml"], "cannot read"),
    ],
)
def test_bad_arguments(argv: list[str], message: str) -> None:
    code, text = run_cli(argv, "")
    assert code == 2 and message in text


def test_parse_seats() -> None:
    assert tools_tui.parse_seats("all", 3) == {0, 1, 2}
    assert tools_tui.parse_seats("none", 3) == set()
    assert tools_tui.parse_seats("all-but-2,3", 4) == {0, 3}
    with pytest.raises(ValueError):
        tools_tui.parse_seats("x", 3)


class ScriptedHuman(io.StringIO):
    """An input stream that types, for the human's current decision, the text of a random legal
    move (so every kind of command goes through the parser), with some junk in between."""

    def __init__(self, game: ToolsGame, seed: int, out: io.StringIO) -> None:
        super().__init__()
        self.game, self.out = game, out
        self.rng = random.Random(seed)
        self.typed: list[str] = []

    def readline(self, size: int | None = -1) -> str:
        game = self.game
        if self.out.getvalue().endswith("\n> "):  # hot seat: "press Enter when ready"
            return "\n"
        if self.rng.random() < 0.1:
            line = self.rng.choice(["", "zz", "0", "1 1", "?", "h"]) + "\n"
        else:
            p = game.current
            line = self.text(game, p, self.rng.choice(game.legal_actions(p))) + "\n"
        self.typed.append(line)
        return line

    @staticmethod
    def text(game: ToolsGame, p: int, action: ToolsAction) -> str:
        hand = tools_tui.sorted_hand(game, game.view(p)["hand"])
        if isinstance(action, PlayCard):
            return str(hand.index(action.card) + 1)
        if isinstance(action, PenaltyHammers):
            first = hand.index(f"hammer:{action.first}")
            second = hand.index(
                f"hammer:{action.second}", first + 1 if action.first == action.second else 0
            )
            return f"{first + 1} {second + 1}"
        if isinstance(action, ChooseColor):
            return action.color
        letters = {Draw: "d", PlayDrawn: "p", KeepDrawn: "k", AcceptPenalty: "a", EndTurn: "e"}
        return letters[type(action)]


@pytest.mark.parametrize("seed", range(8))
def test_scripted_humans_play_whole_games(seed: int) -> None:
    players = 2 + seed % 4
    game = tools.new_game(players, seed=seed)
    bots = set(range(1, players, 2))  # humans and bots alternate
    out = io.StringIO()
    inp = ScriptedHuman(game, seed, out)
    assert tools_tui.play(game, bots, inp, out, bot_seed=seed) == 0
    text = out.getvalue()
    assert "***" in text and game.is_over
    assert "Not allowed" not in text  # every typed legal move was understood as that move
    json.loads(game.to_json())


def test_hot_seat_hides_each_hand_until_its_player_is_ready() -> None:
    # Two humans at one keyboard: Ana's hand, then Bob's, each only after that player's Enter.
    code, text = run_cli(
        ["--players", "2", "--bots", "none", "--names", "Ana,Bob", "--seed", "5"], "\n1\n\nq\n"
    )
    assert code == 1
    ana_ready = text.index("Ana, it is your turn: press Enter when only you can see the screen.")
    bob_ready = text.index("Bob, it is your turn: press Enter when only you can see the screen.")
    hands = [i for i in range(len(text)) if text.startswith("Your hand (* can be played now):", i)]
    assert ana_ready < hands[0] < bob_ready < hands[1]
    # The hand is sorted by colour and marks what can be played now.
    block = text[hands[0] :].split("\n")[1:8]
    assert all(line.startswith(("   ", "  1")) for line in block) and any("* " in b for b in block)


def test_tools_speaks_spanish_by_default_and_danish_on_request() -> None:
    code, text = run_cli(["--players", "2", "--bots", "all", "--seed", "3"], "", lang="es")
    assert code == 0 and "TOOLS, 2 jugadores, semilla 3." in text and "juega" in text
    code, text = run_cli(["--players", "2", "--bots", "all", "--seed", "3"], "", lang="da")
    assert code == 0 and "TOOLS, 2 spillere, frø 3." in text and "spiller" in text

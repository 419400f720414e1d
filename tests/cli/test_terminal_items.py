"""The terminal games' prompts, messages and screens, one behaviour per test (issue 20).

Games run in-process on string streams (80 columns), driven through the same loop as
``parlor play`` and ``parlor tools``.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest

from parlor import monopoly, tools
from parlor.bots.registry import make_bot
from parlor.cli import monopoly_board, monopoly_tui, tools_tui
from parlor.cli.common import Seat
from parlor.cli.console import Terminal
from parlor.cli.monopoly_view import board
from parlor.cli.tools_table import Table
from parlor.cli.wrap import pack_items, wrap_line
from parlor.monopoly import Build, ProposeTrade
from parlor.tools import Draw


def play(argv: list[str], typed: str) -> tuple[int, str]:
    out = io.StringIO()
    code = monopoly_tui.main(argv, stdin=io.StringIO(typed), stdout=out)
    return code, out.getvalue()


def tools_play(argv: list[str], typed: str) -> tuple[int, str]:
    out = io.StringIO()
    code = tools_tui.main(argv, stdin=io.StringIO(typed), stdout=out)
    return code, out.getvalue()


def flat(text: str) -> str:
    return " ".join(text.split())


# ----- wrapping --------------------------------------------------------------------------------
def test_wrapping_breaks_between_words_under_a_hanging_indent() -> None:
    rng = random.Random(3)
    vocabulary = ["a", "Boardwalk", "Illinois", "Avenue", "$1,500", "«Sal", "cárcel»", "ø" * 9]
    for _ in range(200):
        indent = " " * rng.randint(0, 6)
        text = indent + " ".join(rng.choice(vocabulary) for _ in range(rng.randint(1, 40)))
        lines = wrap_line(text, 40)
        assert all(len(line) <= 40 for line in lines)
        assert " ".join(lines).split() == text.split()  # no word cut, none lost
        assert all(line.startswith(indent + "  ") for line in lines[1:])


def test_only_a_word_wider_than_the_line_is_cut() -> None:
    lines = wrap_line("see /a/very/long/path/" + "x" * 60 + " now", 40)
    assert all(len(line) <= 40 for line in lines) and lines[-1].endswith("now")


def test_an_amount_in_kroner_stays_on_one_line() -> None:
    text = "D.F.D.S. er til salg for 4.000 kr. (du har 30.000 kr.): leje 500 kr. / 1.000 kr."
    for width in range(20, 60):
        lines = wrap_line(text, width)
        assert " ".join(lines).split() == text.split()
        assert not any(line.lstrip().startswith("kr.") for line in lines)


def test_key_lines_break_between_keys_only() -> None:
    keys = [
        "b construir",
        "t negociar",
        "v tablero",
        "i mesa",
        "r regla",
        "? pista",
        "s guardar",
        "h ayuda",
    ]
    lines = pack_items([*keys, "q salir"], 80)
    assert len(lines) == 2 and lines[1].strip() == "h ayuda  q salir)"


# ----- headers and reports ---------------------------------------------------------------------
def test_one_header_per_human_turn_and_the_tax_said_once() -> None:
    # seed 5, short game: Player 1 throws 1 and 3 and lands on Income Tax (flat in the short game)
    _code, text = play(["--seed", "5", "--lang", "en", "--variant", "short"], "1\n")
    assert "--- Player 1's turn ---" not in text  # the table's header opens a human's turn
    assert text.count("=== Round 1, Player 1's turn ===") == 1
    assert text.count("$200") == 1 and "Player 1 pays the bank $200 (tax)" in text
    assert "pays tax:" not in text
    assert "--- Bot 4's turn ---" in text  # bots' turns keep theirs


@pytest.mark.parametrize(
    ("edition", "lang", "expected"),
    [
        ("matador", None, "Spiller 1, Robot 2 (heuristisk robot), Robot 3 (heuristisk robot)"),
        ("latam", None, "Jugador 1, Bot 2 (bot heurístico), Bot 3 (bot heurístico)"),
        ("matador", "en", "Player 1, Bot 2 (heuristic bot), Bot 3 (heuristic bot)"),
    ],
)
def test_the_opening_line_names_seats_in_the_games_language(
    edition: str, lang: str | None, expected: str
) -> None:
    argv = ["--seed", "1", "--edition", edition] + (["--lang", lang] if lang else [])
    _code, text = play(argv, "")
    first = flat(text.split("\n\n")[0])
    assert expected in first
    assert "(bot: heuristic)" not in first and "(robot: heuristic)" not in first


def test_tools_default_names_speak_the_games_language() -> None:
    _code, text = tools_play(["--seed", "1"], "")  # TOOLS speaks Spanish by default
    assert "Jugador 1" in text and "Player 1" not in text


# ----- prompts ---------------------------------------------------------------------------------
def trade_prompt_game(lang: str, answers: str) -> str:
    # Two players and nothing owned: the trade dialogue goes straight to the cash questions.
    _code, text = play(
        ["--seed", "2", "--players", "2", "--lang", lang], f"t\n0\n10\n{answers}q\n\n"
    )
    return text


def test_a_yes_no_prompt_says_what_it_expects_and_asks_again() -> None:
    text = trade_prompt_game("en", "maybe\nn\n")
    assert "Sorry: 'maybe' is not an answer here. Type y for yes or n for no (Enter: no)." in flat(
        text
    )
    assert text.count("Propose it? (y/n) >") == 2
    after = text.split("Trade cancelled.")[1]
    assert "1. throw the dice" in after  # the question and its menu come back


def test_a_yes_no_prompt_in_spanish_answers_too() -> None:
    text = flat(trade_prompt_game("es", "quizás\nsí\n"))
    assert "Perdón: 'quizás' no es una respuesta aquí. Escribe s para sí o n para no" in text
    # "sí" is a yes: the offer is made (and the rules refuse a gift of cash)
    assert "No se permite: los jugadores no pueden prestarse ni regalarse dinero" in text


def test_with_one_opponent_no_partner_is_asked_for() -> None:
    text = trade_prompt_game("en", "n\n")
    assert "With whom?" not in text
    assert "Propose a trade to Bot 2 (Enter at any question cancels it)." in text
    # the keys typed ahead answer the questions asked: give 0, take 10
    assert "Cash you give (0-1500) > Cash Bot 2 gives you (0-1500) >" in text


def test_accepting_a_trade_is_one_step() -> None:
    game = monopoly.new_game("classic", ["Ann", "Bo"], seed=1, options={"variant": "short"})
    deed = next(p["square"] for p in game.view()["properties"] if p["owner"] == 0)
    game.apply(ProposeTrade(0, 1, give_squares=(deed,), take_cash=10))  # a deed for $10
    assert game.pending is not None and game.pending.kind == "answer_trade"
    out = io.StringIO()
    bots = {0: make_bot("monopoly", "heuristic", seed=1)}
    monopoly_tui.play(game, {1}, bots, io.StringIO("1\n"), out, lang="en", max_steps=3)
    text = out.getvalue()
    assert "Bo accepts the trade" in text
    assert "(y/n)" not in text
    assert next(p["owner"] for p in game.view()["properties"] if p["square"] == deed) == 1


def test_building_without_the_group_gives_the_engines_reason() -> None:
    game = monopoly.new_game("classic", ["Ann", "Bo"], seed=4, options={"variant": "short"})
    mine = [p["square"] for p in game.view(0)["properties"] if p["owner"] == 0]
    first = min(mine)
    reason = game.why_illegal(Build(0, first), "en")
    assert reason is not None
    out = io.StringIO()
    bots = {1: make_bot("monopoly", "heuristic", seed=1)}
    monopoly_tui.play(game, {0}, bots, io.StringIO("b\n1+\n\nq\n\n"), out, lang="en")
    assert f"Sorry: {reason}" in flat(out.getvalue())
    assert "not possible on" not in out.getvalue()


# ----- saving ----------------------------------------------------------------------------------
def test_tools_load_keeps_saving_to_its_file(tmp_path: Path) -> None:
    save = tmp_path / "t.json"
    tools_play(["--seed", "4", "--lang", "en", "--save", str(save)], "1\nq\n")
    before = len(tools.ToolsGame.from_json(save.read_text()).log)
    _code, text = tools_play(["--load", str(save)], "1 6\nq\n")
    assert "Save to which file" not in text
    # (a path wider than the terminal is cut where it must be: compare without the line breaks)
    assert f"Gamesavedto{save}." in "".join(text.split())
    assert len(tools.ToolsGame.from_json(save.read_text()).log) > before


# ----- TOOLS messages --------------------------------------------------------------------------
def test_drawing_under_a_box_of_nails_is_refused_for_the_right_reason() -> None:
    rng = random.Random(0)
    game = tools.new_game(3, seed=8)
    while game.pending is not None and game.pending.kind != "box_of_nails":
        game.apply(rng.choice(game.legal_actions(game.pending.player)))
    assert game.pending is not None
    p = game.pending.player
    assert not game.is_legal(Draw(p))
    seats = [Seat() if q == p else Seat("random", q) for q in range(3)]
    bots = {q: make_bot("tools", "random", seed=q) for q in range(3) if q != p}
    out = io.StringIO()
    Table(game, seats, bots, Terminal(io.StringIO("d\nr\n"), out), "en", None).run()
    text = flat(out.getvalue())
    assert "you can play a card" not in text
    assert "a box of nails is not answered by drawing one card: answer with a box of nails" in text
    assert "(Rule: Action cards in docs/rules/tools.md.)" in text


def test_you_drew_names_every_card_after_the_two_hammer_penalty() -> None:
    _code, text = tools_play(["--seed", "4", "--lang", "en"], "1\n1 6\nr\nq\n\n")
    assert "Player 1 draws 3 cards." in text
    drew = re.search(r"\(You drew: (.*)\.\)", text)
    assert drew is not None and len(drew.group(1).split(", ")) == 3


def test_the_rule_key_explains_the_good_nail_penalty() -> None:
    _code, text = tools_play(["--seed", "4", "--lang", "en"], "1\nr\nq\n\n")
    assert "(Rule: The good-nail penalty in docs/rules/tools.md.)" in flat(text)
    assert "then draw 3; with fewer you draw 2 and lose your turn" in flat(text)
    assert "The rulebook: «Si no tienes el Martillo del color correcto para repararlo" in flat(text)


# ----- help, hints, the board ------------------------------------------------------------------
def test_the_rule_key_explains_the_decision_and_the_short_game() -> None:
    _code, text = play(["--seed", "5", "--lang", "en", "--variant", "short"], "r\n")
    text = flat(text)
    assert "a third doubles in one turn sends you to Jail. (Rule: S4 in docs/rules/README.md.)" in (
        text
    )
    assert "Short game: each player was dealt 3 properties at the start, 3 houses make a hotel" in (
        text
    )
    # the edition's own clauses, as its rules note numbers the Millennium rulebook
    assert "The rulebook: C5, C7, C8 in docs/rules/classic.md." in text
    assert "The rulebook: C45-C49 in docs/rules/classic.md." in text


def test_the_hint_key_gives_the_heuristic_bots_choice() -> None:
    _code, text = play(["--seed", "5", "--lang", "da", "--edition", "matador"], "?\n")
    assert "Tip: den heuristiske robot ville vælge 1, slå med terningerne." in flat(text)


def test_the_board_is_a_ring_of_the_40_squares_at_80_columns() -> None:
    game = monopoly.new_game("classic", ["Ann", "Bo", "Cy"], seed=4, options={"variant": "short"})
    lines = [line.plain for line in board(game, "en", 80)]
    assert len(lines) == 33 and max(len(line) for line in lines) <= 80
    names = [monopoly.text.square(game, i, "en") for i in range(40)]
    short = monopoly_board.abbreviations(names)
    assert len(set(short)) == len(set(names))  # two different squares never read the same
    top, bottom = lines[0], lines[30]
    assert top.split() == short[20:31]  # Free Parking ... Go To Jail, left to right
    assert bottom.split() == short[10::-1]  # Jail ... GO, left to right
    assert lines[32].split() == ["@123"]  # everyone on GO, under its square at the right
    owned = {p["square"]: p["owner"] for p in game.view()["properties"] if p["owner"] >= 0}
    assert len(owned) == 9  # three deeds each

    def cell(square: int, k: int) -> str:  # line k of a square's cell
        row, col = monopoly_board._position(square)
        return lines[row * 3 + k][col * 7 : col * 7 + 6].strip()

    for square in range(40):
        assert cell(square, 0) == short[square]
        if square in owned:
            assert cell(square, 1) == str(owned[square] + 1)  # the owner's number
    assert cell(0, 2) == "@123"
    assert any("Under a square: its owner's number" in line for line in lines)


def test_the_tools_hint_names_the_card_and_its_number() -> None:
    game = tools.new_game(["Ann", "Bo"], seed=4)
    assert game.pending is not None and game.pending.player == 0
    advice = make_bot("tools", "heuristic", seed=game.turn).choose(game, 0)
    assert isinstance(advice, tools.PlayCard)  # (seed 4: a card to play)
    out = io.StringIO()
    table = Table(
        game, [Seat(), Seat("random", 1)], {1: make_bot("tools", "random", seed=1)},
        Terminal(io.StringIO("?\n"), out), "en", None,
    )  # fmt: skip
    n = table.sorted_hand(0).index(advice.card) + 1
    table.run()
    card = tools.text.card_name(game, advice.card, "en")
    assert f"Hint: the heuristic bot would play the {card} ({n})." in flat(out.getvalue())


@pytest.mark.parametrize("lang", ["en", "es", "da"])
def test_docs_terminal_md_names_the_keys_in_each_language(lang: str) -> None:
    """docs/terminal.md's key table uses the words the game shows (its key line)."""
    from parlor.i18n import translator

    doc = (Path(__file__).resolve().parents[2] / "docs" / "terminal.md").read_text("utf-8")
    line = translator(lang)(
        "b build  t trade  v board  i table  r rule  ? hint  s save  h help  q quit"
    )
    for item in line.split("  "):
        key, word = item.split(" ", 1)
        assert f"`{key}`" in doc and word.split("/")[0] in doc.lower(), (lang, item)

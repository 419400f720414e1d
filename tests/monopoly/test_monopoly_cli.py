"""The property game in the terminal (``parlor play``), driven by scripted input."""

from __future__ import annotations

import io
import random
import subprocess
import sys
from pathlib import Path

import pytest

from parlor import monopoly
from parlor.bots.registry import make_bot
from parlor.cli import build_parser, monopoly_tui
from parlor.monopoly import PropertyGame


def run_cli(argv: list[str], typed: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = monopoly_tui.main(argv, stdin=io.StringIO(typed), stdout=out)
    return code, out.getvalue()


def saved_to(text: str, path: Path) -> int:
    """How many times the text says "Game saved to PATH", read without its whitespace: the
    terminal wraps long lines at 80 columns, inside a long path too (a temporary folder's length
    differs from run to run, and under pytest-xdist)."""
    return "".join(text.split()).count(f"Gamesavedto{path}")


class ScriptedHuman(io.StringIO):
    """Types for seat ``seat``: reads the last prompt written to ``out`` and answers it, mostly
    with a random menu number, sometimes with junk or a command; quits after ``limit`` actions."""

    def __init__(self, game: PropertyGame, out: io.StringIO, seat: int, seed: int, limit: int):
        super().__init__()
        self.game, self.out, self.seat, self.limit = game, out, seat, limit
        self.rng = random.Random(seed)
        self.typed: list[str] = []

    def mine(self) -> int:
        return sum(1 for a in self.game.log if a.player == self.seat)

    def readline(self, size: int | None = -1) -> str:
        prompt = self.out.getvalue().rsplit("\n", 1)[-1]
        line = self.answer(prompt)
        self.typed.append(line)
        return line + "\n" if line is not None else ""

    def answer(self, prompt: str) -> str | None:
        game, p, rng = self.game, self.seat, self.rng
        if "Save to which file" in prompt:
            return None  # input ends at the save question: quit without saving
        if prompt.endswith("(y/n) > "):
            return rng.choice(["y", "n"])
        if prompt.endswith("property and operation > "):
            owned = sum(1 for prop in game.view(p)["properties"] if prop["owner"] == p)
            if rng.random() < 0.4 or not owned:
                return ""
            return f"{rng.randint(1, owned)}{rng.choice('+-mu')}"
        if not prompt.endswith(f"{game.names[p]} > "):
            return ""  # cancel any other dialogue
        if self.mine() >= self.limit:
            return "q"
        items = monopoly_tui.menu_actions(game, p)
        roll = rng.random()
        if not items or roll < 0.05:
            return "b"
        if roll < 0.15:
            return rng.choice(["", "zz", "0", "999", "h", "v", "i", "bid x", "t"])
        return str(rng.randint(1, len(items)))


@pytest.mark.parametrize(("edition", "seed"), [("classic", 3), ("matador", 11), ("latam", 5)])
def test_scripted_human_plays_dozens_of_decisions(edition: str, seed: int) -> None:
    game = monopoly.new_game(edition, ["Ann", "Bo", "Cy"], seed=seed)
    bots = {s: make_bot("monopoly", "random", seed=seed * 1000 + s) for s in (1, 2)}
    out = io.StringIO()
    human = ScriptedHuman(game, out, seat=0, seed=seed, limit=40)
    code = monopoly_tui.play(game, {0}, bots, human, out, lang="en")
    text = out.getvalue()
    assert "Traceback" not in text
    assert "Not allowed" not in text  # menu numbers always name legal actions
    if game.is_over:
        assert code == 0 and "***" in text
    else:
        assert code == 1 and "Game abandoned." in text
        assert human.mine() == 40
    assert "Ann's properties:" in text or "Ann owns no property." in text
    assert "The bank has" in text and "Ann, it is your turn." in text
    assert "Sorry: I did not understand 'zz'" in text or "zz" not in human.typed


def test_bad_input_is_answered_and_the_prompt_repeats() -> None:
    # Seed 3, four players: Ann's first decision is a bid in the auction of Vermont Avenue.
    typed = "xyz\n99\nbid abc\nbid 0\nbid 20000\n0\nh\nq\n\n"
    code, text = run_cli(["--seed", "3", "--names", "Ann,Bo,Cy,Di", "--bot", "random"], typed)
    assert code == 1
    assert "Auction of Vermont Avenue: no bid yet" in text
    assert "Sorry: I did not understand 'xyz'. Type a menu number (1-9)" in text
    assert "Sorry: 99 is not in the menu: choose 1-9" in text
    assert "Sorry: write a bid as 'bid <amount>'" in text
    assert "Not allowed: the bid must be at least $1" in text
    assert "Not allowed: Ann cannot bid more than the $1,500 in hand" in text
    assert "Sorry: 0 is not in the menu" in text
    assert "Commands:" in text
    assert text.count("Auction of Vermont Avenue: no bid yet") == 1  # not reprinted
    assert "Save to which file?" in text and "Game abandoned." in text


def test_input_ending_anywhere_quits_cleanly() -> None:
    code, text = run_cli(["--seed", "3"], "")
    assert code == 1 and "Input ended: game abandoned." in text
    code, text = run_cli(["--seed", "3", "--variant", "short"], "t\n1\n")  # inside the dialogue
    assert code == 1 and "Input ended" in text


def test_a_human_plays_moves_builds_and_answers() -> None:
    # Short game: three deeds each, so there is something to mortgage and trade at once.
    code, text = run_cli(
        ["--seed", "4", "--variant", "short", "--names", "Ann,Bo", "--bots", "none"],
        # Ann (or Bo, whoever starts): mortgage the first property, leave the menu, then propose
        # a trade with nothing in it (illegal), then a real one, which the other player accepts.
        # Accepting asks once more ("y").
        "b\n1\n\nt\n0\n0\n0\n0\ny\nt\n1\n0\n0\n1\ny\n1\ny\nq\n\n",
    )
    assert "mortgages" in text
    assert "Not allowed: the trade exchanges nothing" in text
    assert "Do you accept?" in text and "accepts the trade" in text
    assert code == 1


def test_all_bot_game_reaches_the_step_cap_or_the_end(tmp_path: Path) -> None:
    code, text = run_cli(["--bots", "all", "--seed", "1", "--max-steps", "300"])
    assert code == 0 and "Stopped after 300 steps" in text and "Standings" in text
    save = tmp_path / "g.json"
    code, text = run_cli(
        ["--bots", "all", "--seed", "2", "--players", "3", "--variant", "time_limit",
         "--option", "time_limit_rounds=2", "--option", "time_call_allowed=false",
         "--save", str(save)]
    )  # fmt: skip
    assert code == 0
    assert "wins (richest after the agreed number of rounds) in round 3" in text or "win (" in text
    assert "Final ranking" in text and saved_to(text, save) >= 1
    game = PropertyGame.from_json(save.read_text())
    assert game.is_over and game.num_players == 3


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    # Play a few decisions of seed 3 (pass in both auctions, throw, pay the flat tax), then quit.
    code, text = run_cli(["--seed", "3", "--save", str(save)], "1\n1\n1\n1\nq\n")
    assert code == 1 and saved_to(text, save) >= 1
    saved = PropertyGame.from_json(save.read_text())
    assert saved.log and not saved.is_over
    # Resume: the same table; "s" and quitting save to the loaded file without asking for one.
    code, text = run_cli(["--load", str(save), "--players", "5"], "s\n1\nq\n")
    assert code == 1
    assert f"Resuming after {len(saved.log)} actions" in text
    assert "--players ignored" in text
    assert "Save to which file" not in text
    assert saved_to(text, save) == 2  # by "s", then on quitting
    resumed = PropertyGame.from_json(save.read_text())
    assert len(resumed.log) > len(saved.log)  # the action after "s" was saved too
    assert list(resumed.log[: len(saved.log)]) == list(saved.log)
    # --save names another file: the game goes on there, the loaded file stays as it was.
    again = tmp_path / "again.json"
    code, text = run_cli(["--load", str(save), "--save", str(again)], "q\n")
    assert code == 1 and saved_to(text, again) >= 1
    assert PropertyGame.from_json(again.read_text()).snapshot() == resumed.snapshot()


def test_language_and_edition_files(tmp_path: Path) -> None:
    code, text = run_cli(["--edition", "matco", "--language", "es", "--bots", "all",
                          "--seed", "1", "--max-steps", "200", "--show", "full"])  # fmt: skip
    assert code == 0 and "Sede" in text  # the Spanish name of Go (HQ)
    # An edition file with its own id: saved games carry its data, so they load without the file.
    source = Path(monopoly.__file__).parent / "data" / "classic.toml"
    custom = tmp_path / "custom.toml"
    custom.write_text(source.read_text().replace('id = "classic"', 'id = "custom"', 1))
    save = tmp_path / "custom.json"
    argv = ["--edition", str(custom), "--bots", "all", "--seed", "1", "--max-steps", "50"]
    code, text = run_cli([*argv, "--save", str(save)])
    assert code == 0 and save.exists()
    code, text = run_cli(["--edition", str(custom), "--load", str(save), "--bots", "all",
                          "--max-steps", "10"])  # fmt: skip
    assert code == 0 and "Resuming after 50 actions" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--edition", "nowhere"], "unknown edition 'nowhere'"),
        (["--players", "9"], "played by 2 to 8 players, not 9"),
        (["--edition", "matador", "--players", "7"], "played by 2 to 6 players, not 7"),
        (["--players", "3", "--names", "A,B"], "2 names given for 3 players"),
        (["--names", "A,,B"], "--names: empty name"),
        (["--bots", "1,9"], "--bots: seat '9' is not a number from 1 to 4"),
        (["--bot", "genius"], "--bot: unknown bot 'genius'"),
        (["--variant", "long"], "unknown variant 'long'"),
        (["--option", "auctions"], "--option: an option is written key=value"),
        (["--option", "colour=blue"], "unknown rule option 'colour'"),
        (["--option", "auctions=maybe"], "'auctions' must be true or false"),
        (["--language", "fr"], "--lang: unknown language 'fr': choose one of en, es, da"),
        (["--load", "/nonexistent.json"], "--load: /nonexistent.json is not a saved game"),
        (["--max-steps", "0"], "--max-steps must be at least 1"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(argv: list[str], message: str) -> None:
    code, text = run_cli(argv)
    assert code == 2
    assert message in text
    assert "Traceback" not in text


def test_bad_saved_game(tmp_path: Path) -> None:
    for content in ("not json", "[1, 2]", '{"game": "tools"}', '{"game": "monopoly"}'):
        path = tmp_path / "bad.json"
        path.write_text(content)
        code, text = run_cli(["--load", str(path)])
        assert code == 2 and "is not a saved game that replays" in text


def test_subcommand_is_registered() -> None:
    args = build_parser().parse_args(["play", "--bots", "all", "--seed", "1", "--max-steps", "20"])
    assert args.run is monopoly_tui.run
    out = io.StringIO()
    assert args.run(args, io.StringIO(""), out) == 0
    assert "Stopped after 20 steps" in out.getvalue()


def test_the_parlor_command_runs_a_bot_demo() -> None:
    code = "import sys; from parlor.cli import main; sys.exit(main())"
    argv = ["play", "--bots", "all", "--seed", "1", "--max-steps", "3000"]
    done = subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "Stopped after 3000 steps" in done.stdout or "***" in done.stdout
    bad = subprocess.run(
        [sys.executable, "-c", code, "play", "--players", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2
    assert "parlor play: error:" in bad.stderr and "Traceback" not in bad.stderr


def test_minutes_call_time_in_a_time_limit_game() -> None:
    # Time limit game: "agree upon a definite hour of termination, when the richest player will be
    # declared the winner." With --minutes 0 the time is up before the first throw.
    code, text = run_cli(
        ["--bots", "all", "--seed", "4", "--variant", "time_limit", "--minutes", "0"]
    )
    assert code == 0
    assert "Time is up." in text and "calls time" in text
    assert "(richest when time was called)" in text and "time_called" not in text


def test_minutes_need_a_timed_variant() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = monopoly_tui.main(["--minutes", "5"], stdin=io.StringIO(), stdout=out, stderr=err)
    assert code == 2 and "--minutes needs" in err.getvalue()


def _bo_can_build() -> PropertyGame:
    """Classic, seed 0, heuristic bots: after 163 actions Bo starts a turn holding a whole group."""
    game = monopoly.new_game("classic", ["Ann", "Bo"], seed=0)
    bots = [make_bot("monopoly", "heuristic", seed=i) for i in range(2)]
    for _ in range(163):
        decision = game.pending
        assert decision is not None
        game.apply(bots[decision.player].choose(game, decision.player))
    assert game.pending is not None and game.pending.player == 1
    return game


def test_build_menu_keeps_its_numbers_and_selling_asks_once() -> None:
    game = _bo_can_build()
    menu_out = io.StringIO()
    monopoly_tui.play(game.clone(), {1}, {0: make_bot("monopoly", "heuristic", seed=0)},
                      io.StringIO("b\n\nq\n\n"), menu_out, lang="en")  # fmt: skip
    first = menu_out.getvalue().split("Build, sell or mortgage")[1]
    number = next(line.split(".")[0].strip() for line in first.splitlines() if ": + build" in line)
    square_line = next(line for line in first.splitlines() if line.strip().startswith(f"{number}."))
    name = square_line.split(".", 1)[1].split(":")[0].split(" (")[0].strip()
    out = io.StringIO()
    typed = f"b\n{number}+\n{number}-\nn\n{number}-\ny\n\nq\n\n"
    code = monopoly_tui.play(game, {1}, {0: make_bot("monopoly", "heuristic", seed=0)},
                             io.StringIO(typed), out, lang="en")  # fmt: skip
    text = out.getvalue()
    assert code == 1 and "Traceback" not in text
    assert f"Bo builds a house on {name}" in text
    menus = text.split("Build, sell or mortgage")[1:]
    # The same number names the same property in every menu, now with a house to sell.
    assert all(f"{number}. {name}" in menu for menu in menus)
    assert "- sell one for" in menus[1]
    # Selling says what it brings and what it cost, and asks once: "n" keeps the house.
    assert text.count(f"Sell a house on {name} for") == 2 and "(it cost $" in text
    assert text.count(f"Bo sells a house on {name}") == 1


def test_an_incoming_offer_shows_prices_mortgages_fees_and_completed_groups() -> None:
    from parlor.cli.monopoly_view import trade_details

    game = _bo_can_build()  # Bo holds Vermont Avenue, mortgaged; Ann the other two light blues
    offer = {"to": 0, "give_squares": [8], "take_squares": [], "give_cash": 0, "take_cash": 50,
             "give_jail_cards": 0, "take_jail_cards": 0}  # fmt: skip
    lines = [line.plain for line in trade_details(game, offer, proposer=1, me=0, lang="en")]
    assert lines[0] == "Bo offers Ann: Vermont Avenue for $50."
    assert (
        "   Vermont Avenue (Light blue, price $100) - mortgaged: the receiver pays $5 interest "
        "at once, or $55 to lift it" in lines
    )
    assert "You pay $50 in cash." in lines and "At printed prices you gain $50." in lines
    assert "This completes the Light blue group for Ann." in lines
    danish = [line.plain for line in trade_details(game, offer, proposer=1, me=0, lang="da")]
    assert "Dette fuldender gruppen Lyseblå for Ann." in danish


def test_a_human_says_how_many_scarce_houses_he_wants_then_bids() -> None:
    # S14: three houses left; Ann (a bot) asked to build and wished for two; Bo answers from the
    # numbered menu, one line per count, and the houses go to auction.
    game = monopoly.new_game(
        "classic", ["Ann", "Bo"], seed=0, options={"roll_for_first_player": False}
    )
    for sq, p in ((1, 0), (3, 0), (37, 1), (39, 1)):
        game.owner[sq] = p  # set up directly, as the rule scenarios do
    game.houses_left = 3
    game.apply(monopoly.Build(0, 1))
    game.apply(monopoly.WishBuildings(0, 2))
    out = io.StringIO()
    code = monopoly_tui.play(game, {1}, {0: make_bot("monopoly", "heuristic", seed=0)},
                             io.StringIO("4\n1\nq\n\n"), out, lang="en")  # fmt: skip
    text = out.getvalue()
    assert code == 1 and "Traceback" not in text
    flat = " ".join(text.split())  # the prompt is wrapped to the terminal's width
    assert "How many do you want (0 to 3)?" in flat
    assert "   1. want none" in text and "   4. want 3 houses" in text
    assert "Bo wants 3 houses" in text
    assert "5 houses are wanted and the bank has 3 houses" in text
    assert "Ann wins a house for $50" in text  # Bo's turn to bid came, answered with 1 (pass)
    assert game.log[2] == monopoly.WishBuildings(1, 3)

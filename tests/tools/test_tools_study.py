"""The greedy bot plays legally, and the deck study's figures are what they claim to measure."""

from __future__ import annotations

from parlor import tools
from parlor.analysis.deckstudy import CANDIDATES, main, simulate
from parlor.bots.tools_greedy import GreedyBot


def test_greedy_bot_plays_legal_moves_to_the_end() -> None:
    for seed in range(20):
        game = tools.new_game(2 + seed % 5, seed=seed)
        bots = [GreedyBot(seed * 10 + p) for p in range(game.num_players)]
        while not game.is_over:
            p = game.current
            action = bots[p].choose(game, p)
            assert action in game.legal_actions(p)
            game.apply(action)


def test_greedy_bot_keeps_wilds_for_last() -> None:
    game = tools.new_game(3, seed=0)
    from tools_testkit import rig

    rig(game, {0: ["toolbox", "hammer:blue", "good_nail:red"]}, top="hammer:red")
    assert GreedyBot(0).choose(game, 0) == tools.PlayCard(0, "good_nail:red")


def test_simulate_counts_games_and_first_seat() -> None:
    fig = simulate(tools.default_deck(), 3, 30, "random")
    assert fig.games == 30
    assert 0 <= fig.first_wins <= 30 and 0 <= fig.struck <= 30 <= fig.turns
    assert fig.penalties >= fig.struck
    row = fig.row()
    assert 0 <= row["first_seat_wins"] <= 1


def test_candidates_are_valid_decks_for_ten_players() -> None:
    for deck in CANDIDATES:
        assert deck.size >= 7 * 10 + 1
        tools.new_game(10, seed=1, deck=deck)


def test_study_command_prints_a_table(capsys) -> None:  # type: ignore[no-untyped-def]
    main(["--games", "5", "--players", "2", "--bots", "greedy", "--only"])
    out = capsys.readouterr().out
    assert out.splitlines()[1].startswith("default")
    assert "5 games per row" in out

"""Records round trip: a bot game written as a record reads back as the same game (settings,
seed, every action, the final state), and the text reads back as the same text. Every game,
edition, variant and a spread of rule options; bench/bench_records.py runs thousands."""

from __future__ import annotations

import json
from typing import Any

import pytest

from parlor import monopoly, tools
from parlor.core.game import Game
from parlor.records import (
    format_record,
    parse,
    read_game,
    record_to_save,
    save_to_record,
    write_record,
)
from tests.records.games import play, property_games, tools_games


def assert_same_game(a: Game[Any], b: Game[Any]) -> None:
    assert type(a) is type(b)
    assert a.seed == b.seed and a.log == b.log
    assert a.snapshot() == b.snapshot()


def round_trip(game: Game[Any]) -> str:
    text = write_record(game, seats=["random"] * game.num_players)
    assert format_record(parse(text)) == text
    again = read_game(text)
    assert_same_game(again, game)
    assert write_record(again, seats=["random"] * game.num_players) == text
    return text


def test_property_games_of_every_edition_and_variant_round_trip() -> None:
    unfinished = 0
    for _, game in property_games(per_variant=3, cap=250):
        text = round_trip(game)
        if not game.is_over:  # (a capped game is the record of an unfinished game)
            unfinished += 1
            assert '[Result "*"]' in text and "[Termination" not in text
    assert unfinished


def test_finished_property_games_round_trip_with_their_result() -> None:
    for edition in ("classic", "matco", "latam", "matador"):
        variant = "quick" if edition == "matador" else "short"
        options = {"variant": variant, "time_limit_rounds": 12}
        game = play(monopoly.new_game(edition, 3, 5, options), "monopoly", "heuristic", 5000, 5)
        assert game.is_over
        text = round_trip(game)
        outcome = game.outcome
        assert outcome is not None
        record = parse(text)
        assert record.tag("Result") == " ".join(str(w + 1) for w in outcome.winners)
        assert record.tag("Termination") == outcome.reason


def test_tools_games_round_trip_under_every_option_set() -> None:
    over = 0
    for _, game in tools_games(per_options=25, bot="heuristic"):
        round_trip(game)
        over += game.is_over
    for _, game in tools_games(per_options=3, cap=300):  # (random play: long, odd turns)
        round_trip(game)
    assert over >= 90


def test_a_record_holds_what_chance_dealt() -> None:
    game = play(tools.new_game(3, 11), "tools", "heuristic", 3000, 11)
    text = write_record(game)
    record = parse(text)
    hands = [s for s in record.setup if s.verb == "hand"]
    assert [h.args.split()[0] for h in hands] == ["P1", "P2", "P3"]
    assert sum(len(h.args.split(", ")) for h in hands) == 3 * 7
    draws = [o for m in record.moves for o in m.outcomes if " draws " in o]
    assert draws and all(o.split()[0] in ("P1", "P2", "P3") for o in draws)
    prop = play(monopoly.new_game("classic", 4, 2), "monopoly", "heuristic", 600, 2)
    moves = parse(write_record(prop)).moves
    rolls = [m for m in moves if m.verb == "roll"]
    assert rolls and all(len(m.args) == 3 and m.args[1] == "+" for m in rolls)
    assert any(o.startswith('card "') for m in moves for o in m.outcomes)


@pytest.mark.parametrize("family", ["monopoly", "tools"])
def test_saves_convert_both_ways(family: str) -> None:
    game: Game[Any]
    if family == "monopoly":
        game = play(
            monopoly.new_game("latam", 3, 9, {"variant": "short"}), family, "heuristic", 900, 9
        )
    else:
        game = play(tools.new_game(4, 9), family, "heuristic", 900, 9)
    save = json.loads(game.to_json())
    save["extra"] = {"seats": [{"role": "human"}] + [{"role": "bot", "bot": "heuristic"}] * 2}
    if family == "tools":
        save["extra"]["seats"].append({"role": "bot", "bot": "random"})
    text = save_to_record(save)
    assert '[Seat "1" "Player 1" "human"]' in text and '"heuristic"]' in text
    back = record_to_save(text)
    assert back["extra"] == save["extra"]
    assert type(game).from_dict(back).snapshot() == game.snapshot()
    assert back["actions"] == save["actions"] and back["seed"] == save["seed"]
    assert save_to_record(json.dumps(back)) == text

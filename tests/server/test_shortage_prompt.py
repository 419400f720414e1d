"""The server forwards a building-shortage wish (S14) like any decision: the decider alone gets
the prompt, with every count as an answer that has an id and words, and the JSON answer decodes
back to the engine's action."""

from __future__ import annotations

from parlor import monopoly
from parlor.server import games


def test_a_shortage_wish_reaches_the_decider_with_every_count() -> None:
    game = monopoly.new_game(
        "classic", ["Ann", "Bo"], seed=0, options={"roll_for_first_player": False}
    )
    for sq, p in ((1, 0), (3, 0), (37, 1), (39, 1)):
        game.owner[sq] = p  # set up directly, as the rule scenarios do
    game.houses_left = 3
    game.apply(monopoly.Build(0, 1))
    game.apply(monopoly.WishBuildings(0, 2))
    assert games.prompt(game, 0, version=7, lang="es") is None  # not Ann's decision
    prompt = games.prompt(game, 1, version=7, lang="en")
    assert prompt is not None
    assert prompt["decision"]["kind"] == "building_wish"
    assert prompt["decision"]["info"]["wishes"] == {"0": 2}
    answers = prompt["answers"]
    assert [a["text"] for a in answers] == ["want none", "want 1 house", "want 2 houses",
                                            "want 3 houses"]  # fmt: skip
    assert [a["id"] for a in answers] == game.legal_action_ids(1)
    chosen = games.decode_action(game, answers[3]["action"])
    assert chosen == monopoly.WishBuildings(1, 3)
    events = game.apply(chosen)
    assert [e["kind"] for e in games.event_frames(game, events, "en")][:2] == [
        "wished",
        "shortage_auction",
    ]

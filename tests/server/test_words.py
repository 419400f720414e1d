"""Answers and events reach each seat in that person's language, whatever the edition's own
(issue 9: "the new events in words in that person's language")."""

from __future__ import annotations

from parlor import monopoly, tools
from parlor.server import games


def test_property_answers_and_events_in_the_seat_language() -> None:
    game = monopoly.new_game("classic", ["Ann", "Bo"], seed=3)
    seat = game.pending.player
    words = {
        lang: [a["text"] for a in games.prompt(game, seat, version=0, lang=lang)["answers"]]
        for lang in ("en", "es", "da")
    }
    assert words == {"en": ["throw the dice"], "es": ["tirar los dados"],
                     "da": ["slå med terningerne"]}  # fmt: skip
    events = game.apply(game.legal_actions(seat, anytime=False)[0])
    thrown = {lang: games.event_frames(game, events, lang)[0]["text"] for lang in ("es", "da")}
    assert thrown["es"].startswith("Bo saca ") and thrown["da"].startswith("Bo slår ")


def test_tools_actions_and_events_in_the_seat_language() -> None:
    game = tools.new_game(["Ana", "Bo"], seed=1)
    action = game.legal_actions(game.pending.player)[0]
    assert isinstance(action, tools.PlayCard)
    said = {lang: games.describe_action(game, action, lang) for lang in ("en", "es", "da")}
    assert said["en"].startswith(("Ana plays ", "Bo plays "))
    assert " juega " in said["es"] and " spiller " in said["da"]
    events = game.apply(action)
    assert games.event_frames(game, events, "es")[0]["text"] == said["es"]


def test_refused_actions_say_why_in_the_seat_language() -> None:
    game = monopoly.new_game("classic", ["Ann", "Bo"], seed=1)
    game.owner[1] = 0  # Ann holds one brown deed of two: no building yet (C24)
    reasons = {
        lang: {r["action"]["type"]: r["reason"] for r in games.refused(game, 0, lang)}
        for lang in ("en", "es", "da")
    }
    assert set(reasons["en"]) == {"Build"}
    assert reasons["en"]["Build"] != reasons["es"]["Build"] != reasons["da"]["Build"]
    assert game.why_illegal(monopoly.Build(0, 1), "es") == reasons["es"]["Build"]

"""Deck data and settings: loading, validation with clear errors, stable action ids."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlor import tools
from parlor.core.errors import MalformedAction, SettingsError, UnknownActionId
from parlor.tools import PlayCard, ToolsGame


def test_default_deck_from_toml() -> None:
    deck = tools.default_deck()
    assert deck.size == 92 and deck.colors == ("red", "blue", "green", "yellow")
    assert deck.copies["hammer:red"] == 8 and deck.copies["paint_brush"] == 4


def test_deck_from_a_path_and_saved_in_settings(tmp_path: Path) -> None:
    path = tmp_path / "tiny.toml"
    path.write_text(
        'name = "tiny"\ncolors = ["black", "white"]\n[copies]\nhammer = 10\ngood_nail = 4\n'
        '[wilds]\ntoolbox = 2\n[exact]\n"bent_nail:white" = 3\n'
    )
    game = tools.new_game(2, seed=1, deck=str(path))
    assert game.deck.size == 20 + 8 + 2 + 3
    assert game.settings["deck"]["name"] == "tiny"
    again = ToolsGame.from_json(game.to_json())  # the deck travels with the save
    assert again.snapshot() == game.snapshot()


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        ({"colors": ["red"], "copies": {"hamer": 2}}, "unknown card type 'hamer'"),
        ({"colors": ["red"], "copies": {"hammer": -1}}, "whole number of copies"),
        ({"colors": ["red"], "copies": {"hammer": 2.5}}, "whole number of copies"),
        ({"colors": ["red", "red"], "copies": {"hammer": 9}}, "duplicate color"),
        ({"colors": [], "copies": {"hammer": 9}}, "non-empty list"),
        ({"colors": ["red"], "wilds": {"toolbox": 40}}, "at least one base card"),
        ({"colors": ["red"], "exact": {"hammer:blue": 40}}, "unknown card 'hammer:blue'"),
        ({"colors": ["red"], "copies": {"hammer": 9}, "extra": 1}, "unknown key"),
        ({"colors": ["red"], "copies": {"hammer": 9}}, "too few to deal"),
        ("/no/such/deck.toml", "cannot read"),
    ],
)
def test_bad_decks_are_refused_clearly(deck: object, message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        tools.new_game(2, seed=0, deck=deck)  # type: ignore[arg-type]


def test_bad_toml_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("colors = [red")
    with pytest.raises(SettingsError, match="not valid TOML"):
        tools.load_deck(path)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 1}, "2-10 players"),
        ({"players": 11}, "2-10 players"),
        ({"players": ["solo"]}, "2-10 players"),
        ({"players": 3, "options": {"stacking": True}}, "unknown TOOLS option"),
        ({"players": 3, "options": {"box_stacking": "yes"}}, "must be true or false"),
        ({"players": 3, "options": {"hand_size": 0}}, "'hand_size' must be"),
        ({"players": 3, "seed": "x"}, "seed must be an integer"),
    ],
)
def test_bad_settings(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        tools.new_game(**kwargs)  # type: ignore[arg-type]


def test_action_ids_depend_on_kinds_not_on_card_numbering() -> None:
    """Two decks with the same colors but different copies give every action the same id."""
    a = tools.new_game(3, seed=0)
    b = tools.new_game(
        3,
        seed=0,
        deck={"colors": ["red", "blue", "green", "yellow"], "copies": {"hammer": 12, "reverse": 5}},
    )
    assert a.num_actions == b.num_actions == 52
    for i in range(a.num_actions):
        assert a.action_from_id(i, 1) == b.action_from_id(i, 1)
    assert a.action_id(PlayCard(0, "hammer:red")) == 0
    assert a.action_id(PlayCard(0, "paint_brush")) == 26
    with pytest.raises(UnknownActionId):
        a.action_from_id(52, 0)
    # a card the deck does not have is a malformed action, as apply says (issue 20)
    with pytest.raises(MalformedAction, match="unknown card 'hammer:pink'"):
        a.action_id(PlayCard(0, "hammer:pink"))


def test_named_players_and_options_in_settings() -> None:
    game = tools.new_game(["Ana", "Bob"], seed=2, options=tools.ToolsOptions(box_stacking=False))
    assert game.names == ["Ana", "Bob"]
    assert game.settings["options"]["box_stacking"] is False
    assert ToolsGame.from_settings(game.settings, 2).snapshot() == game.snapshot()

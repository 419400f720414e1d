"""The property board picture: it parses, and shows exactly what the public view says."""

from __future__ import annotations

import pytest

from parlor import monopoly
from parlor.monopoly.edition import EDITION_IDS, load_edition
from parlor.render import Picture, board_svg
from tests.monopoly import kit
from tests.render.helpers import NS, by_class, parse, play, texts, title_of


def square_groups(root):  # type: ignore[no-untyped-def]
    squares = by_class(root, "square")
    return {int(g.get("data-square")): g for g in squares}


@pytest.mark.parametrize("edition", EDITION_IDS)
def test_forty_squares_with_the_editions_names(edition: str) -> None:
    game = play(monopoly.new_game(edition, players=3, seed=5), 150)
    root = parse(board_svg(game))
    squares = square_groups(root)
    assert sorted(squares) == list(range(40))
    ed = load_edition(edition)
    for i, g in squares.items():
        name = ed.square_name(i)
        assert title_of(g).startswith(f"{i}. {name}")  # the accessible name: the full name
        assert g.get("data-kind") == ed.squares[i].kind
        sq = ed.squares[i]
        if sq.kind not in ("go", "jail", "free_parking", "go_to_jail"):
            # the drawn words are the name (wrapped, never cut), and the price
            assert " ".join(name.split()) in texts(g)
        if sq.price:
            assert ed.format_money(sq.price) in texts(g)


@pytest.mark.parametrize("edition", EDITION_IDS)
def test_tokens_stand_where_the_view_says(edition: str) -> None:
    game = play(monopoly.new_game(edition, players=4, seed=11), 300)
    view = game.view(None)
    root = parse(board_svg(view))
    tokens = {int(t.get("data-player")): t for t in by_class(root, "token")}
    for seat, p in enumerate(view["players"]):
        if p["bankrupt"]:
            assert seat not in tokens
            continue
        assert tokens[seat].get("data-square") == str(p["position"])
        assert tokens[seat].get("data-in-jail") == ("true" if p["in_jail"] else "false")
        assert texts(tokens[seat]) == str(seat + 1)  # the seat number, not colour alone
        # It stands on its square's spot for its seat (the page moves it by those spots).
        square = square_groups(root)[p["position"]]
        spots = square.get("data-jail-spots" if p["in_jail"] else "data-token-spots").split()
        assert tokens[seat].get("transform") == f"translate({spots[seat]})"


def test_buildings_owners_and_mortgages_as_the_view_says() -> None:
    game = kit.new("classic", players=("Ann", "Bo", "Cy"))
    kit.give(game, 0, 37, 39)
    kit.build(game, 37, 3)
    kit.build(game, 39, 5)
    kit.give(game, 1, 5, mortgaged=True)
    kit.give(game, 2, 1)
    kit.put(game, 1, 39)
    game.in_jail[2] = True
    kit.put(game, 2, 10)
    root = parse(board_svg(game, player=1))
    squares = square_groups(root)
    park, walk, reading, med = squares[37], squares[39], squares[5], squares[1]
    assert len(by_class(park, "house")) == 3 and not by_class(park, "hotel")
    assert len(by_class(walk, "hotel")) == 1 and not by_class(walk, "house")
    assert "3 houses" in title_of(park) and "1 hotel" in title_of(walk)
    assert by_class(reading, "mortgaged") and "MORTGAGED" in texts(reading)
    assert "mortgaged" in title_of(reading)
    for g in squares.values():
        if g is not reading:
            assert not by_class(g, "mortgaged")
    owner_of = {i: g.get("data-owner") for i, g in squares.items() if g.get("data-owner")}
    assert {i for i, o in owner_of.items() if o != "-1"} == {1, 5, 37, 39}
    assert "1 Ann" in texts(by_class(park, "owner")[0]) and "3 Cy" in texts(
        by_class(med, "owner")[0]
    )
    tokens = {t.get("data-player"): t for t in by_class(root, "token")}
    assert tokens["1"].get("data-square") == "39"
    assert tokens["2"].get("data-in-jail") == "true"
    in_cell = squares[10].get("data-jail-spots").split()[2]  # inside the cell, not visiting
    assert tokens["2"].get("transform") == f"translate({in_cell})"
    assert in_cell not in squares[10].get("data-token-spots").split()
    assert "as seen by Bo" in root.find("s:title", NS).text  # type: ignore[union-attr]


def test_the_last_dice_are_drawn() -> None:
    game = kit.new("matador", players=("Ann", "Bo"))
    kit.dice(game, (3, 5))
    game.apply(monopoly.RollDice(0))
    root = parse(board_svg(game))
    (dice,) = [el for el in root.iter() if el.get("id") == "dice"]
    assert dice.get("data-dice") == "3,5"
    assert [d.get("data-value") for d in by_class(dice, "die")] == ["3", "5"]
    assert "3 + 5 = 8" in texts(dice)


def test_group_letters_give_a_second_cue() -> None:
    root = parse(board_svg(monopoly.new_game("classic", players=2)))
    squares = square_groups(root)
    letters = {
        i: texts(by_class(g, "group-letter")[0])
        for i, g in squares.items()
        if by_class(g, "group-letter")
    }
    assert letters[1] == letters[3] == "A" and letters[37] == letters[39] == "H"
    assert len(set(letters.values())) == 8
    legend = by_class(root, "legend-item")
    assert [texts(item) for item in legend][:2] == ["A brown", "B light blue"]


def test_a_view_draws_the_same_as_its_game() -> None:
    game = play(monopoly.new_game("latam", players=3, seed=2), 120)
    assert str(board_svg(game, player=2)) == str(board_svg(game.view(2)))
    # what cannot be seen (the decks' order) does not change the picture
    other = game.determinize(2, seed=99)
    assert str(board_svg(other, player=2)) == str(board_svg(game, player=2))


def test_language_picks_the_editions_names() -> None:
    game = monopoly.new_game("matador", players=2)
    root = parse(board_svg(game, language="en"))
    ed = load_edition("matador")
    assert title_of(square_groups(root)[39]).startswith(f"39. {ed.square_name(39, 'en')}")
    assert isinstance(board_svg(game), Picture)


def test_names_in_a_language_the_edition_data_adds_are_used_as_given() -> None:
    import dataclasses

    ed = load_edition("classic")
    squares = list(ed.squares)
    squares[39] = dataclasses.replace(squares[39], name={**squares[39].name, "da": "Strandvejen"})
    words = {**ed.texts, "da": {"jail": "Fængsel"}}  # only some words: the rest fall back
    danish = dataclasses.replace(ed, squares=tuple(squares), texts=words)
    game = monopoly.new_game(danish, players=2)
    root = parse(board_svg(game, language="da"))
    assert title_of(square_groups(root)[39]).startswith("39. Strandvejen")
    assert title_of(square_groups(root)[37]).startswith("37. Park Place")  # no Danish name yet
    jail = texts(square_groups(root)[10])
    # the edition's own word first; a word it lacks comes from the catalog in that language
    assert "Fængsel" in jail and "På besøg" in jail and "Just Visiting" not in jail

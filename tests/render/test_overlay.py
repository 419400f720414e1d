"""The analysis overlay: its figures are the analysis module's, for the game's rules."""

from __future__ import annotations

import pytest

from parlor import monopoly
from parlor.analysis.exact import analyse
from parlor.analysis.rents import property_rents
from parlor.monopoly.edition import EDITION_IDS
from parlor.render import board_svg
from parlor.render.overlay import solved
from tests.monopoly import kit
from tests.render.helpers import by_class, parse, play, texts


def squares(pic):  # type: ignore[no-untyped-def]
    return {int(g.get("data-square")): g for g in by_class(parse(pic), "square")}


@pytest.mark.parametrize("edition", EDITION_IDS)
def test_landing_odds_are_the_chains(edition: str) -> None:
    game = play(monopoly.new_game(edition, players=3, seed=1), 60)
    result = analyse(edition, game.options, jail="leave")
    drawn = squares(board_svg(game, heat=True))
    for i, g in drawn.items():
        p = float(result.per_turn.squares[i])
        assert float(g.get("data-landing")) == p  # repr() of a float reads back exactly
        assert f"{100 * p:.2f}%" in texts(g)  # in words too, not colour alone


def test_deed_figures_follow_the_level_the_deed_stands_at() -> None:
    game = kit.new("classic", players=("Ann", "Bo", "Cy"))
    kit.give(game, 0, 37, 39)  # the dark blues, whole group
    kit.build(game, 37, 2)
    kit.give(game, 1, 6)  # one light blue, group not held
    kit.give(game, 1, 5, 15)  # two railroads
    kit.give(game, 2, 12, mortgaged=True)
    rents = {r.square: r for r in property_rents(analyse("classic", game.options, jail="stay"))}
    drawn = squares(board_svg(game, heat=True, jail="stay"))

    def levels(sq: int) -> dict[str, object]:
        return {lv.label: lv for lv in rents[sq].levels}

    park = drawn[37]
    assert park.get("data-rent-level") == "2 houses"
    assert float(park.get("data-expected-rent")) == levels(37)["2 houses"].expected  # type: ignore[attr-defined]
    assert park.get("data-next-building") == "3 houses"
    assert float(park.get("data-payback-turns")) == levels(37)["3 houses"].payback_turns  # type: ignore[attr-defined]
    walk = drawn[39]
    assert walk.get("data-rent-level") == "group"  # whole group, no building: double rent
    assert float(walk.get("data-expected-rent")) == levels(39)["group"].expected  # type: ignore[attr-defined]
    assert walk.get("data-next-building") == "1 house"
    oriental = drawn[6]
    assert oriental.get("data-rent-level") == "rent"
    assert float(oriental.get("data-payback-turns")) == levels(6)["1 house"].payback_turns  # type: ignore[attr-defined]
    assert drawn[5].get("data-rent-level") == "2 owned"
    assert float(drawn[15].get("data-expected-rent")) == levels(15)["2 owned"].expected  # type: ignore[attr-defined]
    assert drawn[12].get("data-expected-rent") == "0.0"  # mortgaged: collects nothing
    assert "pays in" in texts(park) and f"{levels(37)['2 houses'].expected:.2f}/turn" in texts(park)  # type: ignore[attr-defined]


def test_hotel_has_no_next_building_and_the_short_game_builds_hotels_sooner() -> None:
    game = kit.new("classic", players=2, options={"variant": "short"})
    kit.give(game, 0, 1, 3)
    kit.build(game, 1, 3)
    kit.build(game, 3, 5)
    rents = {r.square: r for r in property_rents(analyse("classic", game.options))}
    drawn = squares(board_svg(game, heat=True))
    assert drawn[1].get("data-next-building") == "hotel"
    assert float(drawn[1].get("data-payback-turns")) == rents[1].levels[-1].payback_turns
    assert drawn[3].get("data-rent-level") == "hotel" and drawn[3].get("data-payback-turns") is None


def test_the_chain_is_solved_once_per_edition_and_rules() -> None:
    game = monopoly.new_game("matco", players=2)
    first = solved(game.edition, game.options)
    assert solved(game.edition, game.options)[0] is first[0]
    other = monopoly.new_game("matco", players=2, options={"jail_max_turns": 2})
    assert solved(other.edition, other.options)[0] is not first[0]

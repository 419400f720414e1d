"""The engine's native copy of the edition's numbers (parlor.monopoly.facts) and of the rule
options (Table._derive) says what the edition and the options say, for every bundled edition and
variant, and survives a copy, a pickle and a save."""

from __future__ import annotations

import pickle

import pytest

from parlor.core import state
from parlor.monopoly import EDITION_IDS, load_edition, new_game
from parlor.monopoly.facts import facts_for
from parlor.monopoly.frames import BANK, POT


@pytest.mark.parametrize("edition_id", EDITION_IDS)
def test_square_facts_match_the_edition(edition_id: str) -> None:
    ed = load_edition(edition_id)
    facts = facts_for(ed)
    assert facts is facts_for(ed)  # one table per edition
    assert facts.props == ed.property_squares
    assert facts.groups == list(ed.groups.values())
    assert (facts.go_square, facts.jail_square, facts.salary, facts.jail_fine) == (
        ed.go_square,
        ed.jail_square,
        ed.salary,
        ed.jail_fine,
    )
    assert facts.money_unit == ed.money_unit
    for i, sq in enumerate(ed.squares):
        assert facts.kind[i] == sq.kind
        assert facts.is_property[i] == sq.is_property
        assert (facts.price[i], facts.rents[i], facts.house_cost[i]) == (
            sq.price,
            sq.rents,
            sq.house_cost,
        )
        assert facts.hotel_cost[i] == ed.hotel_cost(i)
        assert facts.mortgage[i] == sq.mortgage
        assert facts.interest[i] == (ed.mortgage_interest(i) if sq.is_property else 0)
        assert facts.members[i] == (ed.groups[sq.group] if sq.group else (i,))


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"variant": "short"},
        {"free_parking_pot": True, "double_salary_on_go": True, "unlimited_buildings": True},
        {"time_limit_rounds": 7, "rent_claim": True, "rent_while_jailed": False},
    ],
)
def test_derived_options_follow_the_options_through_copies(options: dict[str, object]) -> None:
    game = new_game("matador", 3, seed=5, options=options)
    for copy in (
        game,
        game.clone(),
        pickle.loads(pickle.dumps(game)),
        state.import_state(
            type(game), game.settings, game.seed, state.export_state(game), game.log
        ),
    ):
        o = copy.options
        assert copy._sq is facts_for(copy.edition)
        assert copy._hotel_level == o.hotel_after_houses
        assert copy._unlimited == o.unlimited_buildings
        assert copy._sink == (POT if o.free_parking_pot else BANK)
        assert (copy._rent_claim, copy._rent_jailed) == (o.rent_claim, o.rent_while_jailed)
        assert (copy._double_go, copy._jail_extra, copy._jail_max) == (
            o.double_salary_on_go,
            o.jail_doubles_extra_throw,
            o.jail_max_turns,
        )
        assert copy._time_limit == (o.time_limit_rounds or 0)

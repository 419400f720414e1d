"""The bundled edition files checked against the reference data they were built from.

The reference CSVs live outside the repository, in ``shared/reference-data`` next to it; the tests
are skipped when that folder is absent.
"""

from __future__ import annotations

import copy
import csv
import re
import tomllib
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from parlor.core.errors import SettingsError
from parlor.monopoly.edition import (
    EDITION_IDS,
    TEXT_KEYS,
    Edition,
    load_edition,
    parse_edition,
)

REF = Path(__file__).resolve().parents[3] / "shared" / "reference-data"

pytestmark = pytest.mark.skipif(
    not REF.is_dir(), reason=f"reference data folder {REF} is absent (it lives beside the repo)"
)

US_LIKE = ("classic", "latam", "matco")
US_KIND = {"go": "go", "jail": "jail", "free_parking": "free_parking", "go_to_jail": "go_to_jail"}
MATADOR_KIND = {"start": "go", "shipping": "railroad", "brewery": "utility"}
RENT_COLUMNS = ("rent_base", "rent_1h", "rent_2h", "rent_3h", "rent_4h", "rent_hotel")


def read_csv(name: str) -> list[dict[str, str]]:
    with (REF / name).open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def raw_data(edition_id: str) -> dict:
    text = resources.files("parlor.monopoly").joinpath(f"data/{edition_id}.toml").read_text("utf-8")
    return tomllib.loads(text)


def expected_rents(row: dict[str, str]) -> list[int]:
    """Street rents from the rent columns; railroad/utility rents from the notes column."""
    if row["type"] == "street":
        return [int(row[c]) for c in RENT_COLUMNS]
    notes = row["notes"]
    if row["type"] in ("railroad", "shipping"):
        match = re.search(r"rent (\d+)/(\d+)/(\d+)/(\d+)", notes)
    else:  # utility / brewery: dice multipliers for one and two owned
        match = re.search(r"(\d+)x dice.*?(\d+)x dice", notes)
    assert match, f"no rents in the notes of {row}"
    return [int(g) for g in match.groups()]


# --- every edition ------------------------------------------------------------------------------


@pytest.mark.parametrize("edition_id", EDITION_IDS)
def test_edition_loads_with_every_text(edition_id: str) -> None:
    e = load_edition(edition_id)
    assert isinstance(e, Edition)
    assert e.id == edition_id
    assert len(e.squares) == 40
    for lang in e.languages:
        assert all(e.texts[lang][k].strip() for k in TEXT_KEYS)
        for sq in e.squares:
            assert sq.name.get(lang, "").strip(), f"square {sq.index} has no {lang} name"
        for deck in e.decks.values():
            assert deck.get(lang, "").strip()
        for card in e.cards:
            assert card.text.get(lang, "").strip(), f"card {card.id} has no {lang} text"
    for sq in e.squares:
        if sq.kind in ("chance", "community_chest"):
            assert sq.deck in e.decks
    assert set(e.decks) == {c.deck for c in e.cards}
    # The property groups are what the engine builds on: 8 colour groups + railroads + utilities.
    assert len(e.groups) == 10
    assert sorted(len(v) for v in e.groups.values()) == [2, 2, 2, 3, 3, 3, 3, 3, 3, 4]


# --- the US board: classic, latam and matco -----------------------------------------------------


@pytest.mark.parametrize("edition_id", US_LIKE)
def test_us_board_figures(edition_id: str) -> None:
    e = load_edition(edition_id)
    for row in read_csv("us_board.csv"):
        sq = e.squares[int(row["index"])]
        assert sq.kind == US_KIND.get(row["type"], row["type"]), row["name"]
        if row["type"] in ("street", "railroad", "utility"):
            assert sq.price == int(row["price"]), row["name"]
            assert list(sq.rents) == expected_rents(row), row["name"]
            assert sq.mortgage == int(row["mortgage"]), row["name"]
            assert sq.house_cost == int(row["house_cost"] or 0), row["name"]
            assert sq.group == row["group"], row["name"]
        else:
            assert not sq.is_property and sq.price == 0


@pytest.mark.parametrize(
    ("edition_id", "percent"), [("classic", True), ("latam", False), ("matco", True)]
)
def test_us_taxes(edition_id: str, percent: bool) -> None:
    e = load_edition(edition_id)
    assert (e.squares[4].tax, e.squares[4].tax_percent_option) == (200, percent)
    assert (e.squares[38].tax, e.squares[38].tax_percent_option) == (75, False)


def test_classic_figures_and_names() -> None:
    e = load_edition("classic")
    assert e.square_name(39) == "Boardwalk"
    for row in read_csv("us_board.csv"):
        if row["type"] in ("street", "railroad", "utility"):
            assert e.square_name(int(row["index"])) == row["name"]
    assert (e.starting_cash, e.salary, e.jail_fine, e.houses, e.hotels) == (1500, 200, 50, 32, 12)
    assert (e.min_players, e.max_players, e.auction_min_bid) == (2, 8, 1)
    assert e.format_money(1500) == "$1,500"


def test_latam_names_and_figures() -> None:
    e = load_edition("latam")
    assert e.languages == ("es",)
    for row in read_csv("latam_spanish_board.csv"):
        plain = re.sub(r"\s*\(.*\)$", "", row["name_es"]).strip()
        assert e.square_name(int(row["index"])) == plain
    assert e.square_name(7) == "Fortuna"
    assert e.square_name(4) == "Impuesto sobre Ingresos"
    assert e.square_name(38) == "Impuesto sobre Posesiones de Lujo"
    # "Baraja las tarjetas de Fortuna y Arca Comunal" (the other languages are Parlor's)
    assert (e.deck_name("chance"), e.deck_name("community_chest")) == ("Fortuna", "Arca Comunal")
    assert e.auction_min_bid == 10  # "Las ofertas empiezan en 10 $"
    assert e.format_money(200) == "200 $"
    assert e.option_defaults == {
        "income_tax_choice": False,
        "jail_fine_turns": 3,
        "rent_claim_deadline": 1,
    }
    assert (e.starting_cash, e.salary, e.jail_fine, e.houses, e.hotels) == (1500, 200, 50, 32, 12)


def test_matco_names_from_the_rulebook() -> None:
    e = load_edition("matco")
    assert e.languages == ("en", "es")
    named = {
        37: "2s 4s 6s Street",
        39: "Jamestown Road",
        9: "Ratchet Road",
        8: "Screwdriver Lane",
        6: "Wrench Boulevard",
    }
    for index, name in named.items():
        assert e.square_name(index) == name
        assert e.square_name(index, "es") == name  # the Spanish half keeps the names
    # "Boardwalk and Park Place" / "Connecticut, Vermont and Oriental Avenues": same colour groups.
    assert e.groups[e.squares[39].group] == (37, 39)
    assert e.groups[e.squares[9].group] == (6, 8, 9)
    assert e.text("house") == "garage" and e.text("hotel") == "service center"
    assert e.text("jail", "es") == "Reparación de camiones"
    assert e.deck_name("chance") == "Don't Take a Chance"
    assert e.deck_name("community_chest") == "Community Tool Chest"
    # the Spanish half's heading: "“No se arriesgue” y “Cofre de herramientas de la comunidad”"
    assert e.deck_name("chance", "es") == "No se arriesgue"
    assert e.deck_name("community_chest", "es") == "Cofre de herramientas de la comunidad"
    assert e.text("get_out_of_jail_card") == "Get Out of Truck Repair Free"


# --- cards of the US decks ----------------------------------------------------------------------


def us_card_signature() -> Counter:
    sig: Counter = Counter()
    for row in read_csv("us_cards.csv"):
        deck = "chance" if row["deck"] == "Chance" else "community_chest"
        effect, value = row["effect"], row["value"]
        if effect == "move_to":
            key = ("move_to", int(value))
        elif effect == "move_relative":
            key = ("move_relative", int(value))
        elif effect == "move_nearest_utility":
            key = ("move_nearest", "utility", 1, 10)  # "ten times the amount thrown"
        elif effect == "move_nearest_railroad":
            key = ("move_nearest", "railroad", 2, None)  # "twice the rental"
        elif effect == "repairs":
            house, hotel = value.split("/")
            key = ("repairs", int(house), int(hotel))
        elif effect == "get_out_of_jail_free":
            key = ("get_out_of_jail",)
        elif effect == "go_to_jail":
            key = ("go_to_jail",)
        else:
            name = {"pay_each_player": "pay_each", "collect_from_each_player": "collect_from_each"}
            key = (name.get(effect, effect), int(value))
        sig[(deck, *key)] += 1
    return sig


def card_signature(e: Edition) -> Counter:
    sig: Counter = Counter()
    for c in e.cards:
        if c.effect == "move_to":
            key: tuple = ("move_to", c.target)
        elif c.effect == "move_relative":
            key = ("move_relative", c.steps)
        elif c.effect == "move_nearest":
            key = ("move_nearest", c.kind, c.rent_multiplier, c.dice_multiplier)
        elif c.effect == "repairs":
            key = ("repairs", c.per_house, c.per_hotel)
        elif c.effect in ("get_out_of_jail", "go_to_jail"):
            key = (c.effect,)
        elif c.effect == "collect_if_worth_at_most":
            key = (c.effect, c.amount, c.limit)
        else:
            key = (c.effect, c.amount)
        sig[(c.deck, *key)] += 1
    return sig


def money_totals(e: Edition) -> dict[str, int]:
    totals: Counter = Counter()
    for c in e.cards:
        totals[c.effect] += c.amount
        totals["per_house"] += c.per_house
        totals["per_hotel"] += c.per_hotel
    return {k: v for k, v in totals.items() if v}


@pytest.mark.parametrize("edition_id", US_LIKE)
def test_us_cards(edition_id: str) -> None:
    e = load_edition(edition_id)
    assert Counter(c.deck for c in e.cards) == {"chance": 16, "community_chest": 16}
    assert card_signature(e) == us_card_signature()
    assert money_totals(e) == {
        "collect": 50 + 150 + 200 + 45 + 100 + 20 + 100 + 25 + 10 + 100,  # 800
        "pay": 15 + 50 + 100 + 150,  # 315
        "pay_each": 50,
        "collect_from_each": 50,
        "per_house": 25 + 40,
        "per_hotel": 100 + 115,
    }


def test_us_card_totals_match_the_csv() -> None:
    """The hand-written totals above are the CSV's."""
    totals: Counter = Counter()
    for row in read_csv("us_cards.csv"):
        if row["effect"] in ("collect", "pay", "pay_each_player", "collect_from_each_player"):
            totals[row["effect"]] += int(row["value"])
    assert totals == {
        "collect": 800,
        "pay": 315,
        "pay_each_player": 50,
        "collect_from_each_player": 50,
    }


# --- Matador ------------------------------------------------------------------------------------


def test_matador_board_figures() -> None:
    e = load_edition("matador")
    for row in read_csv("matador_board.csv"):
        sq = e.squares[int(row["index"])]
        assert sq.kind == MATADOR_KIND.get(row["type"], row["type"]), row["name"]
        if sq.is_property:
            assert sq.price == int(row["price"]), row["name"]
            assert list(sq.rents) == expected_rents(row), row["name"]
            assert sq.mortgage == int(row["mortgage_half_price"]), row["name"]
            assert sq.house_cost == int(row["house_cost"] or 0), row["name"]
            assert e.square_name(sq.index) == re.sub(r"\s*\(.*\)$", "", row["name"])
    assert e.groups["rederi"] == (5, 15, 25, 35)
    assert e.groups["bryggeri"] == (12, 28)
    assert (e.squares[4].tax, e.squares[4].tax_percent_option) == (4000, True)
    assert (e.squares[38].tax, e.squares[38].tax_percent_option) == (2000, False)
    assert e.square_name(38) == "Ekstraordinær statsskat"


def test_matador_money_and_rules() -> None:
    e = load_edition("matador")
    assert e.languages == ("da", "en")
    assert (e.starting_cash, e.salary, e.jail_fine) == (30000, 4000, 1000)
    assert (e.min_players, e.max_players) == (2, 6)
    assert e.format_money(30000) == "30.000 kr."
    assert e.hotel_cost(39) == 5 * 4000  # "five times the price of a house"
    assert e.mortgage_interest(1) == 100  # 10% of 600 = 60, rounded up to 100
    assert e.mortgage_interest(39) == 400
    assert (e.auction_min_bid, e.money_unit) == (50, 50)
    assert e.option_defaults == {
        "rent_while_jailed": False,
        "jail_doubles_extra_throw": True,
        "jail_fine_turns": 3,
        "mortgage_transfer_fee": False,
        "roll_for_first_player": False,
    }
    assert e.text("go_to_jail") == "De fængsles"
    assert e.text("free_parking") == "Parkering"


def matador_csv_signature() -> Counter:
    sig: Counter = Counter()
    for row in read_csv("matador_cards.csv"):
        effect, value = row["effect"], row["value"]
        if effect == "repairs":
            house, hotel = value.split("/")
            key: tuple = ("repairs", int(house), int(hotel))
        elif effect in ("pay", "collect"):
            key = (effect, int(value))
        elif effect == "collect_from_each_player":
            key = ("collect_from_each", int(value))
        elif effect.startswith("collect_if_net_worth_le_"):
            key = ("collect_if_worth_at_most", int(value), int(effect.rsplit("_", 1)[1]))
        elif effect == "move_to":
            key = ("move_to", int(value.split(" or ")[0]))  # Mols-Linien card: "15 or 5" -> 15
        elif effect == "move_relative":
            key = ("move_relative", int(value))
        elif effect == "move_nearest_shipping_double_rent":
            key = ("move_nearest", "railroad", 2, None)
        elif effect == "move_nearest_shipping":
            key = ("move_nearest", "railroad", 1, None)
        elif effect == "get_out_of_jail_free":
            key = ("get_out_of_jail",)
        else:
            key = (effect,)
        sig[("proev_lykken", *key)] += int(row["copies"])
    return sig


def test_matador_cards() -> None:
    e = load_edition("matador")
    assert list(e.decks) == ["proev_lykken"]
    # "The "Try your luck" (Prøv lykken) spaces" (the Spanish name is Parlor's)
    assert e.decks["proev_lykken"] == {
        "da": "Prøv lykken",
        "en": "Try your luck",
        "es": "Pruebe suerte",
    }
    chance = [sq for sq in e.squares if sq.kind == "chance"]
    assert [sq.index for sq in chance] == [2, 7, 17, 22, 33, 36]
    assert {sq.deck for sq in chance} == {"proev_lykken"}
    assert not any(sq.kind == "community_chest" for sq in e.squares)
    assert len(e.cards) == 46 == sum(int(r["copies"]) for r in read_csv("matador_cards.csv"))
    assert card_signature(e) == matador_csv_signature()
    totals = money_totals(e)
    assert totals["pay"] == 1000 + 300 + 200 + 2 * 3000 + 1000 + 200 + 1000 + 200 + 2000  # 11900
    assert totals["collect"] == 2 * 500 + 3 * 1000 + 3000 + 1000 + 1000 + 2 * 1000 + 1000 + 200
    assert totals["collect_from_each"] == 200 + 500 + 500
    assert totals["collect_if_worth_at_most"] == 40000
    assert (totals["per_house"], totals["per_hotel"]) == (500 + 800, 2000 + 2300)
    legat = next(c for c in e.cards if c.effect == "collect_if_worth_at_most")
    assert (legat.amount, legat.limit) == (40000, 15000)


# --- broken editions ----------------------------------------------------------------------------


def broken(mutate) -> dict:
    data = copy.deepcopy(raw_data("classic"))
    mutate(data)
    return data


@pytest.mark.parametrize(
    ("what", "mutate"),
    [
        ("39 squares", lambda d: d["squares"].pop()),
        ("unknown effect", lambda d: d["cards"][0].update(effect="teleport")),
        ("missing text key", lambda d: d["texts"]["en"].pop("get_out_of_jail_card")),
        ("missing language", lambda d: d["edition"].update(languages=["en", "fr"])),
        ("unknown deck", lambda d: d["cards"][0].update(deck="surprise")),
        ("card field missing", lambda d: d["cards"][0].pop("target")),
        ("street without rents", lambda d: d["squares"][1].update(rents=[2, 10])),
        ("unknown square kind", lambda d: d["squares"][20].update(kind="lottery")),
        ("square out of order", lambda d: d["squares"][5].update(index=6)),
        ("no starting cash", lambda d: d["edition"].pop("starting_cash")),
    ],
)
def test_broken_edition_is_a_settings_error(what: str, mutate) -> None:
    with pytest.raises(SettingsError):
        parse_edition(broken(mutate), what)


def test_user_edition_file(tmp_path: Path) -> None:
    text = resources.files("parlor.monopoly").joinpath("data/classic.toml").read_text("utf-8")
    good = tmp_path / "house-rules.toml"
    good.write_text(text.replace('id = "classic"', 'id = "house-rules"'), encoding="utf-8")
    assert load_edition(str(good)).id == "house-rules"

    short = tmp_path / "short.toml"
    last_square = re.search(r"\[\[squares\]\]\nindex = 39\n.*?\n\n", text, re.S)
    assert last_square
    short.write_text(text.replace(last_square.group(0), ""), encoding="utf-8")
    with pytest.raises(SettingsError, match="40 squares, found 39"):
        load_edition(str(short))
    bad_toml = tmp_path / "bad.toml"
    bad_toml.write_text("[edition\n", encoding="utf-8")
    with pytest.raises(SettingsError):
        load_edition(str(bad_toml))
    with pytest.raises(SettingsError):
        load_edition(str(tmp_path / "missing.toml"))


def test_the_schema_knows_exactly_the_card_effects_the_engine_carries_out() -> None:
    """The schema's list of effects is what refuses an unknown one, so it must not drift from
    the engine's table of effects and their fields."""
    from typing import get_args

    from parlor.monopoly.edition import CARD_EFFECTS
    from parlor.monopoly.edition_schema import Effect

    assert set(get_args(Effect)) == set(CARD_EFFECTS)


def test_an_unknown_square_kind_or_card_effect_is_refused() -> None:
    data = tomllib.loads(
        resources.files("parlor.monopoly").joinpath("data/classic.toml").read_text("utf-8")
    )
    bad_square = copy.deepcopy(data)
    bad_square["squares"][3]["kind"] = "lake"
    bad_card = copy.deepcopy(data)
    bad_card["cards"][0]["effect"] = "teleport"
    for garbage in (bad_square, bad_card):
        with pytest.raises(SettingsError):
            parse_edition(garbage)

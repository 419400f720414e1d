"""The engines' errors in the player's language.

Each error class is provoked through the public API; ``str()`` stays the English text the other
tests match, and :func:`parlor.i18n.translate_error` says the same in Spanish and Danish, with its
parameters (names, amounts in the language's digit grouping, cards, nested errors) filled in.
"""

from __future__ import annotations

import json
import pickle
import tomllib
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from parlor import monopoly, tools
from parlor.core.errors import (
    E_,
    GameOverError,
    IllegalAction,
    MalformedAction,
    NotYourDecision,
    ParlorError,
    ReplayError,
    SaveError,
    SettingsError,
    UnknownActionId,
)
from parlor.core.saves import save_text
from parlor.i18n import LANGUAGES, translate_error
from parlor.monopoly.edition import load_edition, parse_edition


def raised(kind: type[ParlorError], call: Callable[[], object]) -> ParlorError:
    with pytest.raises(kind) as info:
        call()
    assert type(info.value) is kind
    return info.value


def matador() -> monopoly.PropertyGame:
    return monopoly.new_game("matador", ["Ann", "Bo"], seed=3, options={"starting_deeds": 2})


def deeds(game: monopoly.PropertyGame, player: int) -> list[int]:
    return [sq["square"] for sq in game.view(player)["properties"] if sq.get("owner") == player]


def finished_tools_game() -> tools.ToolsGame:
    game = tools.new_game(["Ana", "Bo"], seed=5)
    while not game.is_over:
        game.apply(game.legal_actions(game.pending.player)[0])
    return game


def settings_error() -> ParlorError:
    return raised(SettingsError, lambda: monopoly.new_game("classic", "abc"))


def malformed_action() -> ParlorError:
    game = monopoly.new_game("classic", ["Ann", "Bo"], seed=1)
    return raised(MalformedAction, lambda: game.apply(monopoly.RollDice(7)))


def illegal_action() -> ParlorError:
    game = matador()
    offer = monopoly.ProposeTrade(
        0, 1, give_squares=(deeds(game, 0)[0],), take_squares=(deeds(game, 1)[0],), give_cash=10**6
    )
    return raised(IllegalAction, lambda: game.apply(offer))


def not_your_decision() -> ParlorError:
    game = tools.new_game(["Ana", "Bo"], seed=1)
    return raised(NotYourDecision, lambda: game.apply(tools.Draw(1)))


def game_over() -> ParlorError:
    game = finished_tools_game()
    return raised(GameOverError, lambda: game.apply(tools.Draw(0)))


def unknown_action_id() -> ParlorError:
    game = monopoly.new_game("classic", ["Ann", "Bo"], seed=1)
    return raised(UnknownActionId, lambda: game.action_from_id(-1, 0))


def replay_error() -> ParlorError:
    game = monopoly.new_game("classic", ["Ann", "Bo"], seed=1)
    data = game.to_dict()
    data["actions"] = [{"type": "RollDice", "player": 0}]  # (Bo starts)
    del data["snapshot"]
    return raised(ReplayError, lambda: monopoly.PropertyGame.from_json(json.dumps(data)))


def save_error() -> ParlorError:
    game = monopoly.new_game("classic", ["Ann", "Bo"], seed=1)
    return raised(SaveError, lambda: save_text(game, [1]))  # type: ignore[arg-type]


#: Every error class: how to provoke it, and its message in English, Spanish and Danish.
CASES: dict[str, tuple[Callable[[], ParlorError], dict[str, str]]] = {
    "SettingsError": (
        settings_error,
        {
            "en": "'players' must be a count or a list of names, not 'abc'",
            "es": "'players' debe ser un número o una lista de nombres, no 'abc'",
            "da": "'players' skal være et antal eller en liste af navne, ikke 'abc'",
        },
    ),
    "MalformedAction": (
        malformed_action,
        {
            "en": "RollDice.player must be a seat number from 0 to 1, not 7",
            "es": "RollDice.player debe ser un número de asiento de 0 a 1, no 7",
            "da": "RollDice.player skal være et pladsnummer fra 0 til 1, ikke 7",
        },
    ),
    "IllegalAction": (
        illegal_action,
        {
            "en": "Ann has only 30,000 kr.",
            "es": "Ann solo tiene 30.000 kr.",
            "da": "Ann har kun 30.000 kr.",
            # str(): English words, the edition's own money (Matador's is Danish).
            "str": "Ann has only 30.000 kr.",
        },
    ),
    "NotYourDecision": (
        not_your_decision,
        {
            "en": "it is Ana's turn, not Bo's",
            "es": "es el turno de Ana, no el de Bo",
            "da": "det er Anas tur, ikke Bos",
        },
    ),
    "GameOverError": (
        game_over,
        {"en": "the game is over", "es": "la partida ha terminado", "da": "spillet er slut"},
    ),
    "UnknownActionId": (
        unknown_action_id,
        {
            "en": "action ids are integers from 0 to {last}, not -1",
            "es": "los ids de acción son enteros de 0 a {last}, no -1",
            "da": "træk-id er heltal fra 0 til {last}, ikke -1",
        },
    ),
    "ReplayError": (
        replay_error,
        {
            "en": "action 0 does not replay: it is Bo's decision, not Ann's",
            "es": "la acción 0 no se puede reproducir: decide Bo, no Ann",
            "da": "træk 0 kan ikke genspilles: det er Bo, der skal beslutte, ikke Ann",
        },
    ),
    "SaveError": (
        save_error,
        {
            "en": "extra is a table of JSON data, not a list",
            "es": "extra es una tabla de datos JSON, no un objeto list",
            "da": "extra er en tabel af JSON-data, ikke et list-objekt",
        },
    ),
}


def test_every_error_class_has_a_case() -> None:
    classes = {
        SettingsError,
        MalformedAction,
        IllegalAction,
        NotYourDecision,
        GameOverError,
        UnknownActionId,
        ReplayError,
        SaveError,
    }
    assert {c.__name__ for c in classes} == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_error_class_speaks_every_language(name: str) -> None:
    provoke, wanted = CASES[name]
    error = provoke()
    last = str(monopoly.new_game("classic", ["Ann", "Bo"], seed=1).num_actions - 1)
    said = {lang: translate_error(error, lang) for lang in LANGUAGES}
    assert said == {lang: wanted[lang].replace("{last}", last) for lang in LANGUAGES}
    assert str(error) == wanted.get("str", said["en"])


def test_names_and_cards_are_said_in_the_language() -> None:
    game = tools.new_game(["Ana", "Bo"], seed=1)
    hand = game.view(0)["hand"]
    code = next(c for c in ("hammer:red", "hammer:blue", "hammer:green") if c not in hand)
    error = raised(IllegalAction, lambda: game.apply(tools.PlayCard(0, code)))
    color = code.partition(":")[2]
    names = {
        "red": ("martillo rojo", "rød hammer"),
        "blue": ("martillo azul", "blå hammer"),
        "green": ("martillo verde", "grøn hammer"),
    }[color]
    assert str(error) == f"Ana has no {color} hammer in hand"
    assert translate_error(error, "es") == f"Ana no tiene {names[0]} en la mano"
    assert translate_error(error, "da") == f"Ana har ikke {names[1]} på hånden"


def test_the_rule_in_force_is_translated_inside_the_message() -> None:
    game = tools.new_game(["Ana", "Bo"], seed=1)
    playable = set(game.playable_cards())
    hand = [c for c in game.view(0)["hand"] if c not in playable]
    assert hand, "seed 1 deals Ana a card she cannot play on the first turn"
    error = raised(IllegalAction, lambda: game.apply(tools.PlayCard(0, hand[0])))
    spanish = translate_error(error, "es")
    assert spanish.startswith("ahora no puedes jugar ")
    assert " you " not in spanish and "hammer" not in spanish


def test_a_square_keeps_its_edition_name_and_money_its_language() -> None:
    game = matador()
    square = deeds(game, 1)[0]
    error = raised(IllegalAction, lambda: game.apply(monopoly.Mortgage(0, square)))
    name = game.edition.square_name(square, "da")
    assert translate_error(error, "da") == f"Ann ejer ikke {name}"
    assert translate_error(error, "es") == f"Ann no posee {name}"


def test_an_unmarked_message_stays_as_it_is() -> None:
    assert translate_error(IllegalAction("plain words"), "da") == "plain words"
    assert translate_error(ValueError("not ours"), "es") == "not ours"
    text = E_("the game is over")
    assert translate_error(text, "es") == "la partida ha terminado"


@pytest.mark.parametrize("name", sorted(CASES))
def test_errors_pickle_with_their_english_text(name: str) -> None:
    error = CASES[name][0]()
    copy: Any = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error) and str(copy) == str(error)
    assert copy.text.message == error.text.message


def test_a_broken_edition_file_is_explained_in_the_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The schema's and TOML's own words are English: the catalogs say what they mean.
    text = resources.files("parlor.monopoly").joinpath("data/classic.toml").read_text("utf-8")
    raw = tomllib.loads(text)
    raw["edition"]["money_unit"] = 0
    with pytest.raises(SettingsError) as caught:
        parse_edition(raw, "house.toml")
    assert (
        translate_error(caught.value, "da") == "house.toml: edition.money_unit: skal være mindst 1"
    )
    # (a relative path: the message shortens a long one, as a temporary folder's may be)
    monkeypatch.chdir(tmp_path)
    half = Path("half.toml")
    # (cut inside the first card's header, so that the file ends where a table was being opened)
    half.write_text(text[: text.index("[[cards]]") + len("[[cards")], encoding="utf-8")
    with pytest.raises(SettingsError) as caught:
        load_edition(str(half))
    assert translate_error(caught.value, "es").endswith(
        "half.toml': no es TOML válido: al final del archivo"
    )
    half.write_text("title = = 3\n", encoding="utf-8")
    with pytest.raises(SettingsError) as caught:
        load_edition(str(half))
    assert translate_error(caught.value, "da").endswith("ikke gyldig TOML: i linje 1, kolonne 9")

"""Scenario tests, one or more per rulebook clause (quoted from tools-card-game.es.txt)."""

from __future__ import annotations

import pytest
from tools_testkit import fresh, hand, rig, total_cards

from parlor import tools
from parlor.core.errors import (
    GameOverError,
    IllegalAction,
    MalformedAction,
    NotYourDecision,
)
from parlor.tools import (
    AcceptPenalty,
    ChooseColor,
    Draw,
    EndTurn,
    KeepDrawn,
    PenaltyHammers,
    PlayCard,
    PlayDrawn,
)


def unchanged_after(game: tools.ToolsGame, action: object, error: type[Exception]) -> str:
    """Apply an illegal action: it must raise ``error`` and leave the snapshot identical."""
    before = game.snapshot()
    log = len(game.log)
    with pytest.raises(error) as info:
        game.apply(action)  # type: ignore[arg-type]
    assert game.snapshot() == before
    assert len(game.log) == log
    return str(info.value)


# ----- PREPARACIÓN -----


@pytest.mark.parametrize("players", [2, 4, 10])
def test_setup_deals_seven_and_turns_up_a_base_card(players: int) -> None:
    """ "Reparte 7 cartas a cada jugador." / "Voltea la carta superior para crear la pila de
    descarte." / "Si la primera carta es una carta de acción o comodín, vuelve a barajar y revela
    una nueva carta base." """
    for seed in range(40):
        game = tools.new_game(players, seed=seed)
        view = game.view(0)
        assert view["hand_sizes"] == [7] * players
        assert len(view["discard"]) == 1
        assert view["top"].split(":")[0] in ("hammer", "good_nail", "bent_nail")
        assert view["draw_pile"] == game.deck.size - 7 * players - 1


def test_setup_reshuffles_until_a_base_card_even_in_an_action_heavy_deck() -> None:
    """ "Si la primera carta es una carta de acción o comodín, vuelve a barajar y revela una nueva
    carta base." A deck of one hammer among 40 wilds and actions always starts on that hammer."""
    deck = {
        "colors": ["red"],
        "exact": {"hammer:red": 1, "reverse:red": 20},
        "wilds": {"toolbox": 20},
    }
    for seed in range(30):
        game = tools.new_game(2, seed=seed, deck=deck)
        if "hammer:red" in hand(game, 0) + hand(game, 1):
            continue  # dealt: then the game was redealt until the hammer stayed in the pile
        assert game.view(0)["top"] == "hammer:red"
    tops = {tools.new_game(2, seed=s, deck=deck).view(0)["top"] for s in range(30)}
    assert tops == {"hammer:red"}


def test_player_left_of_dealer_starts_and_play_goes_clockwise() -> None:
    """ "El jugador a la izquierda del repartidor comienza la partida." / "El juego inicia en
    sentido horario." Seat 0 sits left of the dealer (the last seat)."""
    game = rig(fresh(4), {0: ["hammer:blue", "hammer:red"]}, top="hammer:red")
    assert game.pending is not None and game.pending.player == 0
    game.apply(PlayCard(0, "hammer:blue"))
    assert game.pending is not None and game.pending.player == 1
    assert game.view(1)["direction"] == "clockwise"


# ----- JUGAR SOBRE MARTILLOS -----


def test_on_a_hammer() -> None:
    """ "Si la carta superior ... es un Martillo, puedes jugar: Otro Martillo de cualquier color.
    Un Clavo en Buen Estado del mismo color. Un Clavo Doblado del mismo color." and "Las cartas
    de Clavo únicamente pueden jugarse sobre una carta de Martillo que coincida con el color" """
    cards = [
        "hammer:blue",
        "good_nail:red",
        "bent_nail:red",
        "good_nail:blue",
        "bent_nail:green",
        "reverse:red",
        "reverse:blue",
        "toolbox",
    ]
    game = rig(fresh(3), {0: cards}, top="hammer:red")
    legal = {a.card for a in game.legal_actions(0) if isinstance(a, PlayCard)}
    assert legal == {"hammer:blue", "good_nail:red", "bent_nail:red", "reverse:red", "toolbox"}
    msg = unchanged_after(game, PlayCard(0, "good_nail:blue"), IllegalAction)
    assert "red hammer" in msg and "red nail" in msg
    unchanged_after(game, PlayCard(0, "reverse:blue"), IllegalAction)
    assert Draw(0) not in game.legal_actions(0)


# ----- JUGAR SOBRE CLAVOS EN BUEN ESTADO -----


def test_good_nail_needs_a_hammer_of_its_color() -> None:
    """ "si la carta superior es un Clavo azul en Buen Estado, únicamente puedes jugar un Martillo
    azul." (wilds stay playable: "Los comodines pueden jugarse en cualquier momento")"""
    cards = ["hammer:blue", "hammer:red", "reverse:blue", "bent_nail:blue", "paint_brush"]
    game = rig(fresh(3), {0: cards}, top="good_nail:blue")
    legal = {a.card for a in game.legal_actions(0) if isinstance(a, PlayCard)}
    assert legal == {"hammer:blue", "paint_brush"}
    msg = unchanged_after(game, PlayCard(0, "hammer:red"), IllegalAction)
    assert "only a blue hammer" in msg
    unchanged_after(game, PlayCard(0, "reverse:blue"), IllegalAction)
    unchanged_after(game, Draw(0), IllegalAction)
    game.apply(PlayCard(0, "hammer:blue"))
    assert game.view(1)["top"] == "hammer:blue"


def test_good_nail_wilds_option() -> None:
    """Option any_wild_on_good_nail=False: only the wild hammer ("Puede jugarse sobre Clavos en
    Buen Estado") among the wilds repairs a good nail."""
    game = rig(
        fresh(3, any_wild_on_good_nail=False),
        {0: ["wild_hammer", "paint_brush", "toolbox", "hammer:red"]},
        top="good_nail:blue",
    )
    assert game.legal_actions(0) == [PlayCard(0, "wild_hammer")]


def test_good_nail_penalty_two_hammers_then_draw_three() -> None:
    """ "Si no tienes el Martillo del color correcto para repararlo, debes jugar 2 cartas de
    Martillo de cualquier color consecutivas desde tu mano y luego robar 3 cartas del mazo." """
    game = rig(
        fresh(3),
        {0: ["hammer:red", "hammer:green", "hammer:green", "reverse:blue"]},
        top="good_nail:blue",
    )
    legal = game.legal_actions(0)
    assert all(isinstance(a, PenaltyHammers) for a in legal)
    assert PenaltyHammers(0, "green", "green") in legal and len(legal) == 3
    mine = game.pending_for(0)
    assert mine is not None and mine.info["good_nail_penalty"] == "two_hammers"
    assert "good_nail_penalty" not in game.pending.info  # (it would tell the others what 0 lacks)
    unchanged_after(game, AcceptPenalty(0), IllegalAction)
    unchanged_after(game, PenaltyHammers(0, "red", "red"), IllegalAction)
    total = total_cards(game)
    game.apply(PenaltyHammers(0, "red", "green"))
    view = game.view(0)
    assert view["discard"][-3:] == ["good_nail:blue", "hammer:red", "hammer:green"]
    assert view["hand_sizes"][0] == 4 - 2 + 3
    assert view["current"] == 1  # the turn is over
    assert total_cards(game) == total


def test_good_nail_without_two_hammers_draw_two_and_lose_turn() -> None:
    """ "Si no tienes suficientes Martillos para realizar esta acción, debes robar 2 cartas y
    perder inmediatamente tu turno." The nail stays on top for the next player."""
    game = rig(
        fresh(3),
        {0: ["hammer:red", "reverse:blue"], 1: ["hammer:blue", "hammer:red"]},
        top="good_nail:blue",
    )
    assert game.legal_actions(0) == [AcceptPenalty(0)]
    unchanged_after(game, PenaltyHammers(0, "red", "red"), IllegalAction)
    game.apply(AcceptPenalty(0))
    assert game.view(0)["hand_sizes"][0] == 4
    assert game.view(1)["top"] == "good_nail:blue"
    assert game.legal_actions(1) == [PlayCard(1, "hammer:blue")]


def test_penalty_hammers_do_not_win_by_default_but_may_by_option() -> None:
    """ "debes jugar 2 cartas de Martillo ... y luego robar 3 cartas": by default the penalty is
    one move ending with the draw; option penalty_hammers_can_win lets "quedarse sin cartas" win."""
    hands = {0: ["hammer:red", "hammer:green"]}
    game = rig(fresh(3), hands, top="good_nail:blue")
    game.apply(PenaltyHammers(0, "red", "green"))
    assert not game.is_over and game.view(0)["hand_sizes"][0] == 3
    game = rig(fresh(3, penalty_hammers_can_win=True), hands, top="good_nail:blue")
    game.apply(PenaltyHammers(0, "red", "green"))
    assert game.outcome is not None and game.outcome.winners == (0,)


# ----- JUGAR SOBRE CLAVOS DOBLADOS -----


def test_bent_nail_takes_any_hammer() -> None:
    """ "Si la carta superior es un Clavo Doblado, puedes jugar cualquier carta de Martillo sin
    importar el color." Nails never go on nails: "no pueden jugarse sobre otros Clavos"."""
    cards = ["hammer:green", "bent_nail:red", "good_nail:red", "smashed_finger:red", "reverse:blue"]
    game = rig(fresh(3), {0: cards}, top="bent_nail:red")
    legal = {a.card for a in game.legal_actions(0) if isinstance(a, PlayCard)}
    assert legal == {"hammer:green", "smashed_finger:red"}
    unchanged_after(game, PlayCard(0, "bent_nail:red"), IllegalAction)


# ----- CARTAS DE ACCIÓN -----


def test_action_cards_match_color_or_symbol_and_anything_of_its_color_follows() -> None:
    """ "Las cartas de acción solamente pueden jugarse si coinciden en color con la carta superior
    ... o si coinciden con el mismo símbolo" / "puedes jugar cualquier carta siempre que coincida
    en color con esa carta de acción, sin importar si es un Martillo o un Clavo." """
    cards = [
        "good_nail:green",
        "hammer:red",
        "reverse:red",
        "smashed_finger:blue",
        "bent_nail:green",
    ]
    game = rig(fresh(3), {0: cards}, top="reverse:green")
    legal = {a.card for a in game.legal_actions(0) if isinstance(a, PlayCard)}
    assert legal == {"good_nail:green", "bent_nail:green", "reverse:red"}


def test_smashed_finger_skips_next_player() -> None:
    """ "DEDO GOLPEADO: Provoca que el siguiente jugador pierda inmediatamente su turno." """
    game = rig(fresh(4), {0: ["smashed_finger:red", "hammer:red"]}, top="hammer:red")
    events = game.apply(PlayCard(0, "smashed_finger:red"))
    assert any(e.kind == "skip" and e.data["player"] == 1 for e in events)
    assert game.pending is not None and game.pending.player == 2


def test_change_of_turn_reverses() -> None:
    """ "CAMBIO DE TURNO: ... Si el juego avanzaba en sentido horario, continuará en sentido
    antihorario, y viceversa." """
    game = rig(fresh(4), {0: ["reverse:red", "hammer:red"]}, top="hammer:red")
    game.apply(PlayCard(0, "reverse:red"))
    assert game.pending is not None and game.pending.player == 3
    assert game.view(3)["direction"] == "counterclockwise"


@pytest.mark.parametrize(("skips", "next_player"), [(False, 1), (True, 0)])
def test_change_of_turn_with_two_players(skips: bool, next_player: int) -> None:
    """Two players: by default the reverse only changes a direction that changes nothing;
    option two_player_reverse_skips makes it act like a skip (house rule)."""
    game = rig(
        fresh(2, two_player_reverse_skips=skips),
        {0: ["reverse:red", "hammer:red"]},
        top="hammer:red",
    )
    game.apply(PlayCard(0, "reverse:red"))
    assert game.pending is not None and game.pending.player == next_player


def test_box_of_nails_stacks_until_someone_cannot_answer() -> None:
    """ "CAJA DE CLAVOS: Obliga al siguiente jugador a robar 2 cartas y perder su turno ... puede
    responder con otra Caja de Clavos para pasar y aumentar la penalización ... Cada carta suma 2
    cartas más ... hasta que un jugador no pueda responder y deba robar todas las cartas" """
    game = rig(
        fresh(4),
        {
            0: ["box_of_nails:red", "hammer:red"],
            1: ["box_of_nails:blue", "hammer:red", "hammer:blue"],
            2: ["hammer:red", "reverse:red"],
        },
        top="hammer:red",
    )
    game.apply(PlayCard(0, "box_of_nails:red"))
    assert game.pending is not None and game.pending.kind == "box_of_nails"
    assert game.legal_actions(1) == [PlayCard(1, "box_of_nails:blue"), AcceptPenalty(1)]
    msg = unchanged_after(game, PlayCard(1, "hammer:red"), IllegalAction)
    assert "box of nails is pending" in msg
    game.apply(PlayCard(1, "box_of_nails:blue"))
    assert game.pending is not None and game.pending.info["penalty"] == 4
    assert game.legal_actions(2) == [AcceptPenalty(2)]
    unchanged_after(game, Draw(2), IllegalAction)
    game.apply(AcceptPenalty(2))
    assert game.view(2)["hand_sizes"][2] == 6
    assert game.pending is not None and game.pending.player == 3 and game.pending.kind == "play"
    assert game.view(3)["box_penalty"] == 0


def test_box_of_nails_without_stacking_option() -> None:
    """Option box_stacking=False: "Obliga al siguiente jugador a robar 2 cartas y perder su turno"
    at once, no answer possible."""
    game = rig(
        fresh(3, box_stacking=False),
        {0: ["box_of_nails:red", "hammer:red"], 1: ["box_of_nails:blue"]},
        top="hammer:red",
    )
    game.apply(PlayCard(0, "box_of_nails:red"))
    assert game.view(0)["hand_sizes"][1] == 3
    assert game.pending is not None and game.pending.player == 2


# ----- CARTAS COMODÍN -----


def test_toolbox_next_draws_four_and_anything_may_follow() -> None:
    """ "CAJA DE HERRAMIENTAS: Obliga al siguiente jugador a robar 4 cartas y perder su turno." /
    "Si un comodín es la carta superior ..., cualquier carta puede jugarse sobre él" """
    game = rig(
        fresh(3),
        {0: ["toolbox", "hammer:red"], 2: ["good_nail:green", "bent_nail:yellow"]},
        top="good_nail:blue",
    )
    game.apply(PlayCard(0, "toolbox"))
    assert game.view(0)["hand_sizes"] == [1, 11, 2]
    assert game.pending is not None and game.pending.player == 2
    assert {a.card for a in game.legal_actions(2) if isinstance(a, PlayCard)} == {
        "good_nail:green",
        "bent_nail:yellow",
    }


def test_wild_hammer_repairs_any_nail() -> None:
    """ "EL COMODÍN DE MARTILLO: funciona como un Martillo de cualquier color. Puede jugarse sobre
    Clavos en Buen Estado o Clavos en Mal Estado sin importar su color" """
    game = rig(fresh(3), {0: ["wild_hammer", "hammer:red"]}, top="good_nail:blue")
    assert game.legal_actions(0) == [PlayCard(0, "wild_hammer")]
    game.apply(PlayCard(0, "wild_hammer"))
    assert game.view(1)["color"] is None  # a wild on top: anything may follow


def test_paint_brush_choose_color_then_second_card() -> None:
    """ "BROCHA DE PINTURA: Permite cambiar el color actual del juego por cualquier color que el
    jugador elija. Después ..., el jugador que activo esta carta puede colocar inmediatamente una
    segunda carta del color seleccionado." The second card may be any card of that color."""
    game = rig(
        fresh(3),
        {0: ["paint_brush", "good_nail:green", "hammer:red", "toolbox"]},
        top="hammer:blue",
    )
    game.apply(PlayCard(0, "paint_brush"))
    assert game.pending is not None and game.pending.kind == "choose_color"
    unchanged_after(game, PlayCard(0, "hammer:red"), IllegalAction)
    unchanged_after(game, ChooseColor(0, "purple"), MalformedAction)
    game.apply(ChooseColor(0, "green"))
    assert game.pending is not None and game.pending.kind == "brush_second_card"
    assert game.legal_actions(0) == [PlayCard(0, "good_nail:green"), EndTurn(0)]
    unchanged_after(game, PlayCard(0, "toolbox"), IllegalAction)
    game.apply(PlayCard(0, "good_nail:green"))
    assert game.pending is not None and game.pending.player == 1
    assert game.view(1)["top"] == "good_nail:green"


@pytest.mark.parametrize("binds", [True, False])
def test_paint_brush_color_for_the_next_player(binds: bool) -> None:
    """What stands after a brush left on top: by default the chosen color ("cambiar el color
    actual del juego"); option brush_color_binds=False follows the general wild clause."""
    game = rig(
        fresh(3, brush_color_binds=binds),
        {0: ["paint_brush", "hammer:red", "hammer:blue"], 1: ["hammer:red", "hammer:green"]},
        top="hammer:blue",
    )
    game.apply(PlayCard(0, "paint_brush"))
    game.apply(ChooseColor(0, "red"))
    game.apply(EndTurn(0))
    legal = {a.card for a in game.legal_actions(1) if isinstance(a, PlayCard)}
    assert legal == ({"hammer:red"} if binds else {"hammer:red", "hammer:green"})
    assert game.view(1)["color"] == "red"


def test_paint_brush_without_a_card_of_that_color_ends_the_turn() -> None:
    game = rig(fresh(3), {0: ["paint_brush", "hammer:red"]}, top="hammer:blue")
    game.apply(PlayCard(0, "paint_brush"))
    game.apply(ChooseColor(0, "yellow"))
    assert game.pending is not None and game.pending.player == 1


# ----- ROBAR CARTAS -----


def test_draw_only_without_a_valid_play() -> None:
    """ "Si no puedes realizar una jugada válida durante tu turno, debes robar 1 carta del
    mazo." """
    game = rig(fresh(3), {0: ["hammer:green", "good_nail:blue"]}, top="hammer:red")
    msg = unchanged_after(game, Draw(0), IllegalAction)
    assert "only when you have no card to play" in msg and "green hammer" in msg
    game = rig(
        fresh(3, may_draw_when_able=True), {0: ["hammer:green", "good_nail:blue"]}, top="hammer:red"
    )
    assert Draw(0) in game.legal_actions(0)


def test_drawn_card_may_be_played_at_once_or_kept() -> None:
    """ "Si la carta robada puede jugarse, puedes bajarla inmediatamente o conservarla" """
    hands = {0: ["good_nail:blue", "bent_nail:green"]}
    game = rig(fresh(3), hands, top="hammer:red", draw_top=["hammer:yellow"])
    assert game.legal_actions(0) == [Draw(0)]
    game.apply(Draw(0))
    drawer = game.pending_for(0)
    assert drawer is not None and drawer.kind == "drawn_card"
    assert game.pending_for(0).info["drawn"] == "hammer:yellow"
    assert "drawn" not in game.pending.info and "drawn" not in game.pending_for(1).info
    assert game.legal_actions(0) == [PlayDrawn(0), KeepDrawn(0)]
    unchanged_after(game, PlayCard(0, "good_nail:blue"), IllegalAction)
    keep = game.clone()
    game.apply(PlayDrawn(0))
    assert game.view(1)["top"] == "hammer:yellow" and game.view(1)["hand_sizes"][0] == 2
    keep.apply(KeepDrawn(0))
    assert keep.view(1)["top"] == "hammer:red" and keep.view(1)["hand_sizes"][0] == 3
    assert keep.pending is not None and keep.pending.player == 1


def test_unplayable_drawn_card_is_kept_and_turn_passes() -> None:
    game = rig(fresh(3), {0: ["good_nail:blue"]}, top="hammer:red", draw_top=["bent_nail:green"])
    game.apply(Draw(0))
    assert game.pending is not None and game.pending.player == 1
    assert sorted(hand(game, 0)) == ["bent_nail:green", "good_nail:blue"]


def test_empty_draw_pile_reshuffles_discard_but_top() -> None:
    """ "Si la pila de robo se agota antes de que alguien gane, todas las cartas de la pila de
    descarte, excepto la carta superior, se mezclan nuevamente para crear una nueva pila de
    robo." """
    game = rig(fresh(3), {0: ["good_nail:blue", "bent_nail:green"]}, top="hammer:red", draw_size=0)
    under = len(game.view(0)["discard"]) - 1
    assert game.view(0)["draw_pile"] == 0 and under > 0
    events = game.apply(Draw(0))
    assert any(e.kind == "reshuffle" for e in events)
    view = game.view(0)
    assert view["discard"] == ["hammer:red"]
    assert view["draw_pile"] == under - 1


# ----- FINAL DEL JUEGO -----


def test_empty_hand_wins_immediately_even_with_an_action_card() -> None:
    """ "La partida termina inmediatamente cuando un jugador logra quedarse sin cartas en la
    mano." """
    game = rig(fresh(3), {0: ["toolbox"]}, top="hammer:red")
    sizes = game.view(0)["hand_sizes"]
    events = game.apply(PlayCard(0, "toolbox"))
    assert game.outcome is not None and game.outcome.winners == (0,)
    assert game.outcome.reason == "empty hand"
    assert game.view(0)["hand_sizes"][1] == sizes[1]  # no more effects once the game is won
    assert events[-1].kind == "game_over" and game.pending is None
    assert game.legal_actions(0) == game.legal_actions(1) == []
    unchanged_after(game, Draw(1), GameOverError)


def test_last_card_after_paint_brush_wins() -> None:
    game = rig(fresh(3), {0: ["paint_brush", "hammer:red"]}, top="hammer:blue")
    game.apply(PlayCard(0, "paint_brush"))
    game.apply(ChooseColor(0, "red"))
    game.apply(PlayCard(0, "hammer:red"))
    assert game.outcome is not None and game.outcome.winner == 0


def test_blocked_game_ends_with_fewest_cards() -> None:
    """Not in the rulebook: when nobody can play or draw for a whole round the game is blocked;
    the fewest cards win (see docs/rules/tools.md)."""
    deck = {"colors": ["red", "blue"], "exact": {"good_nail:red": 6, "bent_nail:blue": 10}}
    game = tools.new_game(2, seed=1, deck=deck, options={"hand_size": 3})
    rig(
        game,
        {0: ["bent_nail:blue"], 1: ["bent_nail:blue", "bent_nail:blue"]},
        top="good_nail:red",
        draw_size=0,
    )
    # All other cards sit under the top: the first penalty reshuffles them, so drain them first.
    game.discard = game.discard[-1:]
    game.draw_pile = []
    game.apply(AcceptPenalty(0))
    game.apply(AcceptPenalty(1))
    assert game.outcome is not None and game.outcome.reason == "blocked"
    assert game.outcome.winners == (0,)


# ----- errors -----


def test_errors_are_typed_and_change_nothing() -> None:
    game = rig(fresh(3), {0: ["hammer:red"], 1: ["hammer:blue"]}, top="hammer:red")
    assert "Player 1's turn" in unchanged_after(game, PlayCard(1, "hammer:blue"), NotYourDecision)
    assert "no blue hammer" in unchanged_after(game, PlayCard(0, "hammer:blue"), IllegalAction)
    unchanged_after(game, PlayCard(0, "hammer:pink"), MalformedAction)
    unchanged_after(game, PlayCard(7, "hammer:red"), MalformedAction)
    unchanged_after(game, PlayCard("0", "hammer:red"), MalformedAction)  # type: ignore[arg-type]
    unchanged_after(game, ChooseColor(0, "red"), IllegalAction)
    unchanged_after(game, EndTurn(0), IllegalAction)
    unchanged_after(game, PlayDrawn(0), IllegalAction)
    unchanged_after(game, AcceptPenalty(0), IllegalAction)
    unchanged_after(game, PenaltyHammers(0, "red", "blue"), IllegalAction)
    unchanged_after(game, "draw", MalformedAction)

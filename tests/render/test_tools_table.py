"""The TOOLS table picture: it shows the viewer's own hand and nothing else that is hidden."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from parlor import tools
from parlor.bots.registry import make_bot
from parlor.render import tools_svg
from parlor.render.cards import card_words
from parlor.tools.cards import TYPE_NAMES, default_deck
from tests.render.helpers import by_class, parse, play, texts, title_of


def hand_codes(pic: object) -> list[str]:
    return [str(c.get("data-card")) for c in by_class(parse(pic), "in-hand")]


def games() -> list[tools.ToolsGame]:
    """Games at assorted moments, with the deciding seat at every kind of decision."""
    out = []
    for seed in range(6):
        game = tools.new_game(players=2 + seed % 4, seed=seed)
        out.append(play(game, 5 + 13 * seed, seed=seed))
    return out


@pytest.mark.parametrize("game", games(), ids=lambda g: f"{g.num_players}p-turn{g.view()['turn']}")
def test_a_spectator_sees_no_hand_and_a_seat_only_its_own(game: tools.ToolsGame) -> None:
    spectator = tools_svg(game)
    root = parse(spectator)
    assert not by_class(root, "in-hand")
    assert not [el for el in root.iter() if el.get("id") == "hand"]
    sizes = {int(s.get("data-seat")): int(s.get("data-hand-size")) for s in by_class(root, "seat")}
    assert sizes == dict(enumerate(game.hand_sizes))
    for seat in range(game.num_players):
        assert Counter(hand_codes(tools_svg(game, player=seat))) == Counter(game.view(seat)["hand"])
    # The pictures depend on nothing hidden: resampling what a seat cannot see changes none.
    for seat in range(game.num_players):
        other = game.determinize(seat, seed=1234)
        assert str(tools_svg(other, player=seat)) == str(tools_svg(game, player=seat))
        assert str(tools_svg(other)) == str(spectator)


def test_the_deciders_playable_cards_are_raised_and_nobody_elses() -> None:
    rng = random.Random(3)
    game = tools.new_game(players=3, seed=3)
    bots = [make_bot("tools", "random", seed=p) for p in range(3)]
    checked = 0
    while not game.is_over and checked < 40:
        p = game.pending.player
        if game.pending.kind == "play":
            playable = game.playable_cards() & set(game.view(p)["hand"])
            root = parse(tools_svg(game, player=p))
            raised = {str(c.get("data-card")) for c in by_class(root, "playable")}
            assert raised == playable
            assert all("playable" in title_of(c) for c in by_class(root, "playable"))
            waiting = (p + 1) % 3
            assert not by_class(parse(tools_svg(game, player=waiting)), "playable")
            checked += 1
        game.apply(bots[p].choose(game, p) if rng.random() < 0.9 else game.legal_actions(p)[0])
    assert checked >= 20


def test_the_drawn_card_is_marked_for_its_drawer_only() -> None:
    game = tools.new_game(players=2, seed=0)
    rng = random.Random(0)
    while game.pending_for(game.current).kind != "drawn_card":  # (the drawer's kind)
        game.apply(rng.choice(game.legal_actions(game.pending.player)))
    p = game.pending.player
    drawn = game.pending_for(p).info["drawn"]  # type: ignore[union-attr]
    mine = parse(tools_svg(game, player=p))
    marked = by_class(mine, "drawn")
    assert [c.get("data-card") for c in marked] == [drawn]
    # Raised exactly when the rules let it be played now.
    raised = [c.get("data-card") for c in by_class(mine, "playable")]
    assert raised == ([drawn] if game.is_legal(tools.PlayDrawn(p)) else [])
    # A twin of the drawn card in the hand stays down: only the drawn one may be played now.
    view = game.view(p)
    view["hand"] = [*view["hand"], drawn]
    twins = parse(tools_svg(view, playable={drawn}))
    assert [c.get("data-card") for c in by_class(twins, "in-hand")].count(drawn) >= 2
    assert len(by_class(twins, "playable")) == 1 and len(by_class(twins, "drawn")) == 1
    assert not by_class(parse(tools_svg(game, player=1 - p)), "drawn")
    assert not by_class(parse(tools_svg(game)), "drawn")


def test_piles_colour_direction_and_turn_come_from_the_view() -> None:
    game = play(tools.new_game(players=4, seed=9), 12, seed=9)
    assert not game.is_over
    view = game.view(None)
    root = parse(tools_svg(view))
    ids = {el.get("id"): el for el in root.iter() if el.get("id")}
    (top,) = by_class(ids["discard"], "discard-top")
    assert top.get("data-card") == view["top"]
    assert ids["draw-pile"].get("data-count") == str(view["draw_pile"])
    assert ids["colour-in-force"].get("data-color") == (view["color"] or "")
    assert ids["direction"].get("data-direction") == view["direction"]
    assert f"play goes {view['direction']}" in texts(ids["direction"])
    (current,) = by_class(root, "current")
    assert current.get("data-seat") == str(view["current"])
    assert "to play" in texts(current)


def test_every_card_says_its_colour_and_kind_in_words() -> None:
    game = tools.new_game(players=2, seed=1)
    view = game.view(0)
    deck = default_deck()
    view["hand"] = [code for code in deck.codes if deck.copies.get(code)]
    cards = by_class(parse(tools_svg(view)), "in-hand")
    assert len(cards) == len(view["hand"])
    seen = [str(c.get("data-card")) for c in cards]
    assert seen[0].endswith(":red") and seen[-3:] == ["toolbox", "wild_hammer", "paint_brush"]
    for c in cards:
        code = str(c.get("data-card"))
        kind, _, colour = code.partition(":")
        words = texts(c)
        assert TYPE_NAMES[kind] in words  # the kind in words ...
        assert (colour.upper() if colour else "WILD") in words  # ... and the colour
        assert by_class(c, f"glyph-{kind}")  # ... and the kind in shape
        assert title_of(c).startswith(card_words(code))


def test_a_finished_game_names_its_winner() -> None:
    game = play(tools.new_game(players=4, seed=9), 400, seed=9)
    assert game.is_over
    root = parse(tools_svg(game, player=0))
    winner = game.outcome.winners[0]  # type: ignore[union-attr]
    seat = next(s for s in by_class(root, "seat") if s.get("data-seat") == str(winner))
    assert "won" in texts(seat) and "game over" in texts(root)
    assert not by_class(root, "current") and not by_class(root, "playable")

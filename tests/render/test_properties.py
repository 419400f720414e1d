"""Properties over many games: every picture parses and agrees with its view, seat by seat."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from parlor import monopoly, tools
from parlor.monopoly.edition import EDITION_IDS
from parlor.render import board_svg, tools_svg
from tests.render.helpers import by_class, parse


def random_game(game, seed: int, steps: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        p = game.pending.player
        game.apply(rng.choice(game.legal_actions(p)))
    return game


@settings(max_examples=12, deadline=None)
@given(
    edition=st.sampled_from(EDITION_IDS),
    players=st.integers(2, 6),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 250),
    viewer=st.integers(-1, 5),
)
def test_board_agrees_with_the_view(
    edition: str, players: int, seed: int, steps: int, viewer: int
) -> None:
    game = random_game(monopoly.new_game(edition, players=players, seed=seed), seed, steps)
    seat = viewer if 0 <= viewer < players else None
    view = game.view(seat)
    root = parse(board_svg(game, seat))
    squares = {int(g.get("data-square")): g for g in by_class(root, "square")}
    assert sorted(squares) == list(range(40))
    for prop in view["properties"]:
        g = squares[prop["square"]]
        assert g.get("data-owner") == str(prop["owner"])
        assert bool(by_class(g, "mortgaged")) == prop["mortgaged"]
        b = prop["buildings"]
        assert len(by_class(g, "house")) == (b if b < 5 else 0)
        assert len(by_class(g, "hotel")) == (1 if b == 5 else 0)
    tokens = {int(t.get("data-player")): t.get("data-square") for t in by_class(root, "token")}
    assert tokens == {
        i: str(p["position"]) for i, p in enumerate(view["players"]) if not p["bankrupt"]
    }


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 10), seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_tools_pictures_hold_exactly_the_viewers_hand(players: int, seed: int, steps: int) -> None:
    game = random_game(tools.new_game(players=players, seed=seed), seed, steps)
    assert not by_class(parse(tools_svg(game)), "in-hand")
    for seat in range(players):
        root = parse(tools_svg(game, player=seat))
        hand = [str(c.get("data-card")) for c in by_class(root, "in-hand")]
        assert Counter(hand) == Counter(game.view(seat)["hand"])


def test_ids_are_unique_references_resolve_and_a_prefix_keeps_pictures_apart() -> None:
    import re

    game = random_game(monopoly.new_game("classic", players=3, seed=4), 4, 150)
    table = random_game(tools.new_game(players=3, seed=4), 4, 10)
    pictures = [
        board_svg(game, heat=True, id_prefix="a-"),
        board_svg(game, 0, id_prefix="b-"),
        tools_svg(table, 1, id_prefix="c-"),
    ]
    seen: set[str] = set()
    for pic, prefix in zip(pictures, "abc", strict=True):
        root = parse(pic)
        ids = [str(el.get("id")) for el in root.iter() if el.get("id")]
        assert len(ids) == len(set(ids)) and all(i.startswith(prefix + "-") for i in ids)
        refs = set(re.findall(r"url\(#([^)]+)\)", str(pic)))
        refs |= set(str(root.get("aria-labelledby")).split())
        assert refs <= set(ids)
        assert not seen & set(ids)
        seen |= set(ids)

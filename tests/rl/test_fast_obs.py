"""The encoders and the masks after the speed work (issue 21) are byte for byte what they were:
the encoders of before (read from ``game.view(seat)`` one entry at a time) are kept as the
references (the TOOLS one here, the property one in property_obs_reference.py), and compared for
every seat at every step of random games of every TOOLS configuration and every edition."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from parlor import monopoly, tools
from parlor.rl.layout import Vector
from parlor.rl.property_obs import PropertyEncoder
from parlor.rl.table import GameSpec, Table
from parlor.rl.tools_obs import HAND_SCALE, TOOLS_DECISIONS, ToolsEncoder
from tests.rl.conftest import THREE_COLOR_DECK
from tests.rl.property_obs_reference import reference_encode as reference_property


def reference_encode(enc: ToolsEncoder, game: tools.ToolsGame, seat: int) -> Vector:
    """The encoder as it was: everything rebuilt from ``view(seat)`` at each call."""
    view: dict[str, Any] = game.view(seat)
    lay, v, n = enc.layout, enc.layout.zeros(), enc.n
    kind = enc.kind
    hand = v[lay.slice("hand")]
    for code in view["hand"]:
        hand[kind[code]] += 1.0 / HAND_SCALE
    lay.hot(v, "top", kind[view["top"]])
    if view["color"] is not None:
        lay.hot(v, "color", enc.colors.index(view["color"]))
    lay.put(v, "direction", 1.0 if view["direction"] == "clockwise" else 0.0)
    sizes = view["hand_sizes"]
    lay.put(v, "hand_sizes", [sizes[(seat + i) % n] / HAND_SCALE for i in range(n)])
    pending = view["pending"]
    if pending is not None:
        lay.hot(v, "decider", (pending["player"] - seat) % n)
        lay.hot(v, "pending_kind", TOOLS_DECISIONS.index(pending["kind"]))
        info = pending["info"]
        if "drawn" in info:
            lay.hot(v, "drawn", kind[info["drawn"]])
        penalty = info.get("good_nail_penalty")
        if penalty is not None:
            lay.hot(v, "good_nail_penalty", 0 if penalty == "two_hammers" else 1)
    lay.put(v, "box_penalty", view["box_penalty"] / HAND_SCALE)
    lay.put(v, "draw_pile", view["draw_pile"] / enc.deck_size)
    discard = v[lay.slice("discard")]
    for code in view["discard"]:
        k = kind[code]
        discard[k] += 1.0 / enc.copies[k]
    if enc.max_turns:
        lay.put(v, "turns_left", max(0, enc.max_turns - view["turn"]) / enc.max_turns)
    return v


def reference_ids(game: tools.ToolsGame, seat: int) -> list[int]:
    """Legal ids as the game protocol computes them: ``action_id`` of every legal action."""
    return sorted({game.action_id(a) for a in game.legal_actions(seat)})


@pytest.fixture(scope="module")
def three_color_deck(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("deck") / "three.toml"
    path.write_text(THREE_COLOR_DECK)
    return str(path)


@pytest.mark.parametrize(
    "players, options, deck",
    [
        (2, {}, False),
        (3, {"ask_after_every_draw": True, "may_draw_when_able": True}, False),
        (4, {"hand_size": 5, "box_stacking": False, "max_turns": 60}, False),
        (10, {}, False),
        (5, {"max_turns": 40}, True),
    ],
)
def test_the_encoder_and_the_mask_match_the_reference(
    players: int, options: dict[str, Any], deck: bool, three_color_deck: str
) -> None:
    spec = GameSpec(
        "tools", players=players, options=options, deck=three_color_deck if deck else None
    )
    table = Table(spec, max_steps=400)
    rng = random.Random(players)
    steps = 0
    for seed in range(40):
        table.reset(seed)
        enc = table.encoder
        assert isinstance(enc, ToolsEncoder)
        while True:
            game = table.game
            assert isinstance(game, tools.ToolsGame)
            for seat in range(players):
                obs = table.observe(seat)
                expected = reference_encode(enc, game, seat)
                assert obs["observation"].tobytes() == expected.tobytes(), (seed, steps, seat)
                want = np.zeros(table.num_actions, dtype=np.int8)
                if seat == table.decider:
                    want[reference_ids(game, seat)] = 1
                assert obs["action_mask"].tobytes() == want.tobytes(), (seed, steps, seat)
                assert game.legal_action_ids(seat) == reference_ids(game, seat)
            if table.over:
                break
            seat = table.decider
            assert seat is not None
            table.act_id(seat, rng.choice(np.flatnonzero(table.mask(seat)).tolist()))
            steps += 1
    assert steps > 1000  # (many decisions of every kind, over whole games)


@pytest.mark.parametrize(
    "edition, players, options",
    [
        ("classic", 4, {}),
        ("classic", 3, {"variant": "short"}),
        ("matco", 2, {"variant": "time_limit", "time_limit_rounds": 15}),
        ("latam", 5, {"free_parking_pot": True, "rent_claim": True, "auctions": False}),
        ("matador", 4, {"variant": "quick", "time_limit_rounds": 12}),
    ],
)
def test_the_property_encoder_matches_the_reference(
    edition: str, players: int, options: dict[str, Any]
) -> None:
    spec = GameSpec("monopoly", edition=edition, players=players, options=options)
    table = Table(spec, max_steps=700)
    rng = random.Random(players)
    steps = 0
    for seed in range(3):
        table.reset(seed)
        enc = table.encoder
        assert isinstance(enc, PropertyEncoder)
        while True:
            game = table.game
            assert isinstance(game, monopoly.PropertyGame)
            for seat in range(players):
                got = table.observe(seat)["observation"]
                want = reference_property(enc, game, seat).tobytes()
                assert got.tobytes() == want, (seed, seat)
            if table.over:
                break
            seat = table.decider
            assert seat is not None
            table.act_id(seat, rng.choice(np.flatnonzero(table.mask(seat)).tolist()))
            steps += 1
    assert steps > 1000


@pytest.mark.parametrize("family", ["tools", "monopoly"])
def test_the_kept_vectors_follow_any_order_of_seats_and_games(family: str) -> None:
    """The encoders keep each seat's vector and rewrite what changed since that seat's last
    call: seats looked at rarely and out of turn, and two games taking turns on one encoder (as
    a clone or a restored snapshot would), still get exactly the reference's bytes."""
    spec = (
        GameSpec("tools", players=3)
        if family == "tools"
        else GameSpec("monopoly", edition="classic", players=4)
    )
    tables = [Table(spec, max_steps=300), Table(spec, max_steps=300)]
    for seed, table in enumerate(tables):
        table.reset(seed + 7)
    enc = tables[0].encoder  # (both games encoded by this one)
    rng = random.Random(11)
    checked = 0
    for _ in range(800):
        table = rng.choice(tables)
        if table.over:
            table.reset(rng.randrange(1000))
        game = table.game
        seat = rng.randrange(spec.players)
        if rng.random() < 0.3:
            got = enc.encode(game, seat)
            if isinstance(enc, ToolsEncoder):
                assert isinstance(game, tools.ToolsGame)
                want = reference_encode(enc, game, seat)
            else:
                assert isinstance(enc, PropertyEncoder) and isinstance(game, monopoly.PropertyGame)
                want = reference_property(enc, game, seat)
            assert got.tobytes() == want.tobytes(), (checked, seat)
            checked += 1
        decider = table.decider
        assert decider is not None
        table.act_id(decider, rng.choice(table.legal_ids(decider)))
    assert checked > 100


def test_the_tools_encoder_follows_a_state_restored_into_the_same_game() -> None:
    """The hand block follows the engine's log of each hand (``hand_log``); a state given to
    the same game object replaces its hands, and the encoder must see the new ones."""
    from parlor.core.state import export_state, import_state

    spec = GameSpec("tools", players=3)
    table = Table(spec, max_steps=300)
    rng = random.Random(3)
    checked = 0
    for seed in range(6):
        table.reset(seed)
        game = table.game
        assert isinstance(game, tools.ToolsGame)
        enc = table.encoder
        assert isinstance(enc, ToolsEncoder)
        saved: list[Any] = []
        for step in range(60):
            if game.is_over:
                break
            if step % 15 == 0:
                saved.append((export_state(game), list(game.log)))
            elif step % 15 == 7:  # (back to a kept state, in this very object)
                state, log = rng.choice(saved)
                import_state(tools.ToolsGame, game.settings, game.seed, state, log, into=game)
            for seat in range(3):
                got = enc.encode(game, seat)
                assert got.tobytes() == reference_encode(enc, game, seat).tobytes(), (seed, step)
                checked += 1
            p = game.current
            game.apply(rng.choice(game.legal_actions(p)))
    assert checked > 500


def test_the_property_encoder_follows_the_estate_by_its_revision_and_a_restored_state() -> None:
    """The deeds are read again only where the engine says the estate changed
    (``estate_revision``, ``estate_changes``) while its lists are those last read; a seat
    looked at after more changes than the engine remembers, and a state restored into the
    same game object (new lists, the same revision count), still get the reference's bytes."""
    from parlor.core.state import export_state, import_state
    from parlor.monopoly.table import ESTATE_RECENT

    spec = GameSpec("monopoly", edition="classic", players=4)
    table = Table(spec, max_steps=2000)
    rng = random.Random(5)
    known = unknown = restored = 0
    for seed in range(4):
        table.reset(seed)
        game = table.game
        assert isinstance(game, monopoly.PropertyGame)
        enc = table.encoder
        assert isinstance(enc, PropertyEncoder)
        saved: list[Any] = []
        seen_at = [game.estate_revision] * 4  # (each seat's revision when last encoded)
        for step in range(600):
            if table.over:
                break
            if step % 50 == 0:
                saved.append((export_state(game), list(game.log)))
            elif step % 50 == 25 and len(saved) > 1:  # (back to a kept state, in this object)
                state, log = rng.choice(saved[:-1])
                import_state(type(game), game.settings, game.seed, state, log, into=game)
                restored += 1
            # (seat 3 seldom: many estate changes between two of its looks)
            for seat in (0, 1, 2) if step % 40 else (0, 1, 2, 3):
                if rng.random() < 0.5 or seat == 3:
                    since = game.estate_revision - seen_at[seat]
                    if 0 < since <= ESTATE_RECENT:
                        known += 1
                    elif since > ESTATE_RECENT:
                        unknown += 1
                    got = enc.encode(game, seat)
                    want = reference_property(enc, game, seat)
                    assert got.tobytes() == want.tobytes(), (seed, step, seat)
                    seen_at[seat] = game.estate_revision
            decider = table.decider
            assert decider is not None
            table.act_id(decider, rng.choice(table.legal_ids(decider)))
    assert known > 100 and unknown > 5 and restored > 5

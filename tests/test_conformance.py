"""One conformance suite for every game and edition, through the shared protocol only.

Random legal play to the end; random illegal actions rejected with a typed error and no change;
masks and ids consistent with the legal actions; views unchanged when what the viewer cannot see is
resampled; JSON replay identical; clones independent. Golden replays (tests/golden/) pin the rules:
a change that alters any recorded game shows up here.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import math
import os
import random
import re
import tomllib
import types
import typing
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlor import monopoly, tools
from parlor.bots import RandomBot
from parlor.core import saves
from parlor.core.errors import (
    MalformedAction,
    ParlorError,
    ReplayError,
    SaveError,
    SettingsError,
    UnknownActionId,
)
from parlor.core.game import Game, action_to_dict
from parlor.core.saves import read_save, write_save
from parlor.i18n import translate_error
from parlor.monopoly.edition import edition_data, load_edition, parse_edition
from tests import hostile

GOLDEN = Path(__file__).parent / "golden"

Factory = Callable[[int], Game[Any]]
GAMES: dict[str, Factory] = {
    **{
        f"{ed}-{n}p": (lambda seed, ed=ed, n=n: monopoly.new_game(ed, players=n, seed=seed))
        for ed in monopoly.EDITION_IDS
        for n in (2, 4)
    },
    "classic-short": lambda seed: monopoly.new_game(
        "classic", players=3, seed=seed, options={"variant": "short"}
    ),
    "matador-quick": lambda seed: monopoly.new_game(
        "matador", players=3, seed=seed, options={"variant": "quick", "time_limit_rounds": 40}
    ),
    **{f"tools-{n}p": (lambda seed, n=n: tools.new_game(players=n, seed=seed)) for n in (2, 4, 10)},
}
GAME_CLASSES = {"monopoly": monopoly.PropertyGame, "tools": tools.ToolsGame}


def with_player(action: Any, player: int) -> Any:
    return dataclasses.replace(action, player=player)


def assert_rejected(game: Game[Any], action: Any) -> None:
    before = game.snapshot()
    with pytest.raises(ParlorError):
        game.apply(action)
    assert game.snapshot() == before, f"rejected {action} changed the state"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_conformance(name: str) -> None:
    for seed in range(3):
        game = GAMES[name](seed)
        rng = random.Random(seed)
        bots = [RandomBot(seed * 31 + p) for p in range(game.num_players)]
        steps = 0
        while not game.is_over and steps < 2000:
            decision = game.pending
            assert decision is not None
            p = decision.player
            assert game.legal_actions(p), f"{decision} has no legal answer"
            if steps % 7 == 0:
                check_masks_and_ids(game, p)
                check_illegal_rejected(game, rng)
            if steps % 50 == 0:
                check_views(game, seed + steps)
            action = bots[p].choose(game, p)
            assert game.is_legal(action)
            game.apply(action)
            steps += 1
        if game.is_over:
            outcome = game.outcome
            assert outcome is not None and game.pending is None
            assert set(outcome.winners) <= set(range(game.num_players))
            assert sorted(outcome.ranking) == list(range(game.num_players))
        replayed = type(game).from_json(game.to_json())
        assert replayed.snapshot() == game.snapshot()
        twin = game.clone()
        assert twin.snapshot() == game.snapshot()


def check_masks_and_ids(game: Game[Any], player: int) -> None:
    mask = game.legal_action_mask(player)
    assert len(mask) == game.num_actions
    legal_ids = set()
    for action in game.legal_actions(player):
        assert game.is_legal(action)
        aid = game.action_id(action)
        assert mask[aid]
        legal_ids.add(aid)
        assert game.action_from_id(aid, player) == action
    assert {i for i, ok in enumerate(mask) if ok} == legal_ids


def check_illegal_rejected(game: Game[Any], rng: random.Random) -> None:
    n = game.num_players
    decider = game.pending.player  # type: ignore[union-attr]
    for action in game.legal_actions(decider, anytime=False)[:3]:
        other = rng.choice([q for q in range(n) if q != decider])
        wrong = with_player(action, other)
        if not game.is_legal(wrong):
            assert_rejected(game, wrong)
    for _ in range(3):
        player = rng.randrange(n)
        try:
            action = game.action_from_id(rng.randrange(game.num_actions), player)
        except ParlorError:
            continue
        if not game.is_legal(action):
            assert_rejected(game, action)
    assert_rejected(game, object())


def check_views(game: Game[Any], seed: int) -> None:
    for p in range(game.num_players):
        view = game.view(p)
        json.dumps(view)
        # What p sees must not depend on what p cannot see: resample the hidden part and compare.
        other_world = game.determinize(p, seed)  # type: ignore[attr-defined]
        assert other_world.view(p) == view
        # Nor what is pending: the public decision carries no secret (a drawn card, a penalty),
        # and p's own view of it is the same in every world p cannot tell apart.
        assert other_world.pending == game.pending
        assert other_world.pending_for(p) == game.pending_for(p)


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json")), ids=lambda p: p.stem)
def test_golden_replays(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    game = GAME_CLASSES[data["game"]].from_dict(data)  # checks the snapshot too
    assert game.to_dict()["snapshot"] == json.loads(json.dumps(data["snapshot"]))


# ----- hostile input: every bad argument is a typed error that changes nothing ----------------------
# (issue 8, section 1 and 2; the strategies are in tests/hostile.py)

HOSTILE = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


def advanced(name: str, seed: int, steps: int) -> Game[Any]:
    """A game of ``name`` after ``steps`` random legal moves (a state somewhere in a game)."""
    game = GAMES[name](seed)
    bots = [RandomBot(seed * 31 + p) for p in range(game.num_players)]
    for _ in range(steps):
        if game.is_over:
            break
        p = game.pending.player  # type: ignore[union-attr]
        game.apply(bots[p].choose(game, p))
    return game


def action_classes(game: Game[Any]) -> list[type]:
    return sorted(set(game.action_types.values()), key=lambda c: c.__name__)


@pytest.mark.parametrize("name", sorted(GAMES))
@HOSTILE
@given(data=st.data(), steps=st.integers(0, 120))
def test_malformed_actions_are_refused_everywhere(
    name: str, data: st.DataObject, steps: int
) -> None:
    """A wrong type or size in any field of any action: apply, is_legal, action_id and describe
    all refuse it with MalformedAction, and the state is unchanged."""
    game = advanced(name, steps % 3, steps)
    action = data.draw(hostile.malformed_action(action_classes(game), game.num_players))
    before = game.snapshot()
    for call in (game.apply, game.action_id, game.describe):  # type: ignore[attr-defined]
        with pytest.raises(MalformedAction):
            call(action)
    assert game.is_legal(action) is False
    assert game.snapshot() == before


@pytest.mark.parametrize("name", sorted(GAMES))
@HOSTILE
@given(
    data=st.data(),
    steps=st.integers(0, 120),
    bad_player=st.one_of(
        st.integers(max_value=-1),
        st.integers(min_value=10),
        st.booleans(),
        st.text(max_size=2),
        hostile.ODD.filter(lambda v: v is not None),
        hostile.HUGE,
    ),
    bad_id=st.one_of(
        st.integers(max_value=-1),
        st.booleans(),
        st.text(max_size=2),
        hostile.ODD,
        hostile.HUGE,
        st.integers(min_value=100_000),
    ),
)
def test_bad_query_arguments_are_typed_errors(
    name: str, data: st.DataObject, steps: int, bad_player: Any, bad_id: Any
) -> None:
    game = advanced(name, steps % 3, steps)
    if type(bad_player) is int and bad_player < game.num_players and bad_player >= 0:
        bad_player = game.num_players
    before = game.snapshot()
    with pytest.raises(MalformedAction):
        game.legal_actions(bad_player)
    with pytest.raises(MalformedAction):
        game.legal_action_mask(bad_player)
    with pytest.raises(MalformedAction):
        game.view(bad_player)
    with pytest.raises(MalformedAction):
        game.legal_actions(0, anytime=data.draw(st.one_of(st.integers(), st.none(), st.text())))
    with pytest.raises(UnknownActionId):
        game.action_from_id(bad_id, 0)
    with pytest.raises(MalformedAction):
        game.action_from_id(0, bad_player)
    with pytest.raises(MalformedAction):
        game.determinize(bad_player, 1)  # type: ignore[attr-defined]
    beyond_64_bits = st.sampled_from([2**64, -(2**63) - 1, 10**30, 10**5000])
    bad_seed = data.draw(st.one_of(hostile.ODD, st.booleans(), st.text(max_size=2), beyond_64_bits))
    with pytest.raises(MalformedAction):
        game.determinize(0, bad_seed)  # type: ignore[attr-defined]
    assert game.snapshot() == before


@pytest.mark.parametrize("name", sorted(GAMES))
@HOSTILE
@given(data=st.data(), steps=st.integers(0, 200))
def test_a_resample_tells_nothing_of_the_hidden_truth(
    name: str, data: st.DataObject, steps: int
) -> None:
    """determinize(p, seed) depends only on what p knows: a world p cannot tell from the true
    one (another resample) gives the very same resample for every seed, so whoever picks the
    seeds learns nothing of the hidden hands, deck order or dice (issue 8, section 3)."""
    game = advanced(name, steps % 3, steps)
    if game.is_over:
        return
    p = data.draw(st.integers(0, game.num_players - 1))
    twin = game.determinize(p, data.draw(st.integers(0, 2**63 - 1)))  # type: ignore[attr-defined]
    assert twin.view(p) == game.view(p)
    for seed in (0, 7, 2**40 + 3):
        truth = game.determinize(p, seed)  # type: ignore[attr-defined]
        assert twin.determinize(p, seed).snapshot() == truth.snapshot()  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", sorted(GAMES))
@HOSTILE
@given(data=st.data(), steps=st.integers(0, 200))
def test_action_ids_never_collide(name: str, data: st.DataObject, steps: int) -> None:
    """Any well-typed action either has no id (UnknownActionId), or is malformed (a card or colour
    the game does not have: MalformedAction, as ``apply`` says of it too), or has an id in range
    that stands for exactly that action: two different actions never share an id."""
    game = advanced(name, steps % 3, steps)
    codes = list(game.deck.codes + game.deck.colors) if isinstance(game, tools.ToolsGame) else []
    for _ in range(10):
        action = data.draw(hostile.well_typed_action(action_classes(game), game.num_players, codes))
        try:
            aid = game.action_id(action)
        except UnknownActionId:
            continue
        except MalformedAction as refused:
            pending = game.pending
            if pending is not None:  # apply refuses it the same way, at the seat to play
                with pytest.raises(MalformedAction, match=re.escape(str(refused))):
                    game.clone().apply(dataclasses.replace(action, player=pending.player))
            continue
        assert 0 <= aid < game.num_actions
        assert game.action_from_id(aid, action.player) == action


#: One of each kind of wrong value for a field of a plain type (the hypothesis tests draw more).
WRONG_FOR = {
    bool: [1, "yes", None, math.nan],
    int: [True, "1", None, 1.0, math.nan, -1, 10**5000],
    str: [7, True, None, "x" * 1_000_000],
    tuple: [[1], (True,), (-1,), (40,), "12", None, tuple(range(40)) * 2],
}


def field_kind(cls: type, name: str) -> type:
    hint = typing.get_type_hints(cls)[name]
    return tuple if typing.get_origin(hint) is tuple else hint  # type: ignore[no-any-return]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_field_of_every_action_refuses_each_kind_of_wrong_value(name: str) -> None:
    """Exhaustive where the property above samples: each field of each action class, with one
    value of each wrong kind, the others right; MalformedAction everywhere, nothing changed."""
    game = advanced(name, 1, 40)
    n = game.num_players
    before = game.snapshot()
    tried = 0
    for cls in action_classes(game):
        right = {
            f.name: (0 if field_kind(cls, f.name) is not tuple else ())
            if field_kind(cls, f.name) is not bool
            else False
            for f in dataclasses.fields(cls)
        }
        if isinstance(game, tools.ToolsGame):
            right = {k: (game.deck.codes[0] if field_kind(cls, k) is str else v)
                     for k, v in right.items()}  # fmt: skip
        for f in dataclasses.fields(cls):
            wrong = list(WRONG_FOR[field_kind(cls, f.name)])
            if f.name == "player":
                wrong.append(n)  # one past the last seat
            for value in wrong:
                action = cls(**{**right, f.name: value})
                for call in (game.apply, game.action_id, game.describe):  # type: ignore[attr-defined]
                    with pytest.raises(MalformedAction):
                        call(action)
                assert game.is_legal(action) is False
                tried += 1
    assert game.snapshot() == before
    assert tried > 40


def wrong_option_values(cls: type, name: str) -> st.SearchStrategy[Any]:
    hint = typing.get_type_hints(cls)[name]
    optional = typing.get_origin(hint) in (typing.Union, types.UnionType)
    base = next(a for a in typing.get_args(hint) if a is not type(None)) if optional else hint
    odd = hostile.ODD if not optional else hostile.ODD.filter(lambda v: v is not None)
    if base is bool:
        return st.one_of(st.integers(0, 1), st.text(max_size=3), odd)
    if base is int:
        return st.one_of(st.booleans(), st.text(max_size=3), odd, hostile.HUGE,
                         st.integers(max_value=-1))  # fmt: skip
    return st.one_of(st.integers(), st.booleans(), odd, hostile.LONG_TEXT, st.just("nonsense"))


SETTINGS_GAMES: dict[str, tuple[Callable[..., Game[Any]], type]] = {
    **{
        ed: (lambda ed=ed, **kw: monopoly.new_game(ed, **kw), monopoly.RuleOptions)
        for ed in monopoly.EDITION_IDS
    },
    "tools": (lambda **kw: tools.new_game(**kw), tools.ToolsOptions),
}
BAD_PLAYERS = st.one_of(
    st.text(max_size=6),
    st.floats(),
    st.none(),
    st.booleans(),
    hostile.HUGE,
    st.integers(min_value=11, max_value=10**9),
    st.integers(max_value=1),
    st.lists(
        st.one_of(
            st.integers(),
            st.none(),
            hostile.LONG_TEXT,
            st.just(""),
            st.just("a\x00"),
            st.just("\udcff"),
        ),
        min_size=2,
        max_size=4,
    ),
    st.just(["Ann", "Ann"]),
    st.just(["p"] * 1000),
)
BAD_SEEDS = st.one_of(st.floats(), st.none(), st.booleans(), st.text(max_size=3), st.just(10**30))


@pytest.mark.parametrize("name", sorted(SETTINGS_GAMES))
@HOSTILE
@given(data=st.data())
def test_bad_settings_are_settings_errors(name: str, data: st.DataObject) -> None:
    """Wrong players, seeds and option values (every option, every wrong type, floats, NaN, huge
    numbers): SettingsError, never TypeError, AttributeError or a silent truncation."""
    make, options_cls = SETTINGS_GAMES[name]
    field = data.draw(st.sampled_from([f.name for f in dataclasses.fields(options_cls)]))
    bad_option = {field: data.draw(wrong_option_values(options_cls, field))}
    which = data.draw(st.sampled_from(["players", "seed", "options", "options_table"]))
    kwargs: dict[str, Any] = {
        "players": data.draw(BAD_PLAYERS),
        "seed": data.draw(BAD_SEEDS),
        "options": bad_option,
        "options_table": data.draw(st.one_of(st.text(), st.lists(st.integers()), st.integers())),
    }
    with pytest.raises(SettingsError):
        if which == "options_table":
            make(players=3, options=kwargs["options_table"])
        else:
            make(**{"players": 3, which: kwargs[which]})


@pytest.mark.parametrize("name", sorted(SETTINGS_GAMES))
def test_every_option_refuses_each_kind_of_wrong_value(name: str) -> None:
    """Each rule option with one value of each wrong kind: SettingsError, and its message names
    the option quoted as typed."""
    make, options_cls = SETTINGS_GAMES[name]
    for f in dataclasses.fields(options_cls):
        hint = typing.get_type_hints(options_cls)[f.name]
        optional = typing.get_origin(hint) in (typing.Union, types.UnionType)
        base = next(a for a in typing.get_args(hint) if a is not type(None)) if optional else hint
        wrong = [v for v in WRONG_FOR.get(base, [7, True, 1.5]) if not (optional and v is None)]
        for value in wrong:
            if base is int and value == -1:
                continue  # (a negative number is in range for some options)
            with pytest.raises(SettingsError) as caught:
                make(players=3, options={f.name: value})
            said = str(caught.value)
            assert len(said) < 600 and (repr(f.name) in said or "variant" in said), said


@pytest.mark.parametrize("name", sorted(GAMES))
@HOSTILE
@given(data=st.data(), steps=st.integers(0, 150))
def test_tampered_saves_raise_only_replay_errors(
    name: str, data: st.DataObject, steps: int
) -> None:
    """Any value anywhere in a save replaced by a hostile one (or removed): ReplayError with a
    short message, or, when the change does not matter, the very same game."""
    game = advanced(name, steps % 3, steps)
    saved = game.to_dict()
    tampered = json.loads(json.dumps(saved))
    path = data.draw(st.sampled_from(hostile.paths(tampered)))
    if data.draw(st.booleans()):
        hostile.replace_at(tampered, path, data.draw(hostile.hostile_json()))
    else:
        hostile.delete_at(tampered, path)
    try:
        again = type(game).from_dict(tampered)
    except ReplayError as exc:
        assert len(str(exc)) < 600 and "does not load (" not in str(exc), str(exc)
        return
    assert again.snapshot() == game.snapshot()
    assert [action_to_dict(a) for a in again.log] == saved["actions"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_hostile_save_texts(name: str, tmp_path: Path) -> None:
    cls = type(GAMES[name](0))
    game = advanced(name, 1, 60)
    cases = {
        "not JSON": "{nope",
        "deep nesting": "[" * 100_000 + "]" * 100_000,
        "deep object": '{"a":' * 50_000 + "1" + "}" * 50_000,
        "huge number": '{"game": "' + cls.game_name + '", "seed": 1' + "0" * 5000 + "}",
        "a list": "[1, 2]",
        "format 2": json.dumps({**game.to_dict(), "format": 2}),
        "format true": json.dumps({**game.to_dict(), "format": True}),
        "float seed": json.dumps({**game.to_dict(), "seed": 1.5}),
        "string seed": json.dumps({**game.to_dict(), "seed": "1"}),
        "unknown key": json.dumps({**game.to_dict(), "cheat": 1}),
        "a path for settings": json.dumps({**game.to_dict(), "settings": "/dev/zero"}),
    }
    for what, text in cases.items():
        with pytest.raises(ReplayError) as caught:
            cls.from_json(text)
        assert len(str(caught.value)) < 600 and "does not load (" not in str(caught.value), what
    # A save may not make the loader open a file: an edition or a deck named by a path is refused.
    for key, value in (("edition", "/dev/zero"), ("deck", "/dev/zero"), ("edition", str(tmp_path))):
        data = game.to_dict()
        if key in data["settings"]:
            data["settings"][key] = value
            with pytest.raises(ReplayError, match=r"bundled edition|deck is a table"):
                cls.from_dict(data)
    # Names edited in the settings are caught by the snapshot check.
    data = game.to_dict()
    data["settings"]["players"][0] = "Mallory"
    with pytest.raises(ReplayError, match="snapshot differs"):
        cls.from_dict(data)


# ----- edition and deck files: each kind of garbage is a SettingsError, or the file plays ---------


def edition_source(edition_id: str) -> dict[str, Any]:
    text = resources.files("parlor.monopoly").joinpath(f"data/{edition_id}.toml").read_text("utf-8")
    return tomllib.loads(text)


def deck_source() -> dict[str, Any]:
    return tomllib.loads(resources.files("parlor.tools").joinpath("data/default.toml").read_text())


def plays(game: Game[Any], steps: int = 300) -> None:
    """Random legal play: every error is a typed one (and none arises for legal moves)."""
    bots = [RandomBot(p) for p in range(game.num_players)]
    for _ in range(steps):
        if game.is_over:
            break
        p = game.pending.player  # type: ignore[union-attr]
        game.apply(bots[p].choose(game, p))
    type(game).from_json(game.to_json())


FILES = [*monopoly.EDITION_IDS, "tools-deck"]


@pytest.mark.parametrize("source", FILES)
@HOSTILE
@given(data=st.data())
def test_garbage_in_edition_and_deck_files(source: str, data: st.DataObject) -> None:
    """Any value of the file replaced by a hostile one, or removed: a SettingsError when the file
    is loaded, or an edition/deck that plays (no raw error, no crash inside apply later)."""
    raw = deck_source() if source == "tools-deck" else edition_source(source)
    path = data.draw(st.sampled_from(hostile.paths(raw)))
    if data.draw(st.booleans()):
        hostile.replace_at(raw, path, data.draw(hostile.hostile_json()))
    else:
        hostile.delete_at(raw, path)
    try:
        if source == "tools-deck":
            game: Game[Any] = tools.new_game(3, seed=1, deck=tools.parse_deck(raw))
        else:
            game = monopoly.new_game(parse_edition(raw, source), players=3, seed=1)
    except SettingsError as exc:
        assert len(str(exc)) < 600, str(exc)
        # said in Danish without the schema library's English
        danish = translate_error(exc, "da")
        assert not re.search(r"Input should|should have|Field required|not permitted", danish)
        return
    plays(game)


EDITION_GARBAGE: dict[str, Callable[[dict[str, Any]], object]] = {
    "money unit 0": lambda d: d["edition"].update(money_unit=0),
    "interest rounding 0": lambda d: d["edition"].update(mortgage_interest_round=0),
    "9 seats (ids would collide)": lambda d: d["edition"].update(max_players=9),
    "10**9 seats": lambda d: d["edition"].update(max_players=10**9),
    "min above max": lambda d: d["edition"].update(min_players=6, max_players=4),
    "a float price": lambda d: d["squares"][1].update(price=60.5),
    "a bool price": lambda d: d["squares"][1].update(price=True),
    "a text rent": lambda d: d["squares"][1].update(rents=["2", 10, 30, 90, 160, 250]),
    "unknown field": lambda d: d["squares"][1].update(colour="brown"),
    "card target off the board": lambda d: d["cards"][0].update(target=40),
    "card target a text": lambda d: d["cards"][0].update(target="Go"),
    "nearest square of a kind not on the board": lambda d: next(
        c for c in d["cards"] if c["effect"] == "move_nearest"
    ).update(kind="go_to_jail_twice"),
    "10**9 copies": lambda d: d["cards"][0].update(copies=10**9),
    "a 100 MB title": lambda d: d["edition"].update(title="x" * 100_000_000),
    "a date for a name": lambda d: d["squares"][1].update(name={"en": datetime.date(2020, 1, 1)}),
    "five railroads in a group": lambda d: d["squares"][1].update(
        kind="railroad",
        group=next(s["group"] for s in d["squares"] if s["kind"] == "railroad"),
        rents=[25, 50, 100, 200],
        house_cost=0,
    ),
    "jail square not a jail": lambda d: d["edition"].update(jail_square=1),
}


@pytest.mark.parametrize("edition_id", monopoly.EDITION_IDS)
@pytest.mark.parametrize("what", sorted(EDITION_GARBAGE))
def test_edition_garbage_is_a_settings_error(edition_id: str, what: str) -> None:
    raw = edition_source(edition_id)
    EDITION_GARBAGE[what](raw)
    with pytest.raises(SettingsError) as caught:
        parse_edition(raw, edition_id)
    assert len(str(caught.value)) < 600


DECK_GARBAGE: dict[str, Callable[[dict[str, Any]], object]] = {
    "10**9 copies": lambda d: d.setdefault("copies", {}).update(hammer=10**9),
    "a float count": lambda d: d.setdefault("wilds", {}).update(toolbox=1.0),
    "a bool count": lambda d: d.setdefault("wilds", {}).update(toolbox=True),
    "a long color": lambda d: d.update(colors=["r" * 10_000]),
    "nine colors": lambda d: d.update(colors=[f"c{i}" for i in range(9)]),
    "unknown key": lambda d: d.update(cheat=1),
    "a deck of 4776 cards": lambda d: d.update(
        copies={
            t: 199
            for t in (
                "hammer",
                "good_nail",
                "bent_nail",
                "reverse",
                "box_of_nails",
                "smashed_finger",
            )
        }
    ),
}


@pytest.mark.parametrize("what", sorted(DECK_GARBAGE))
def test_deck_garbage_is_a_settings_error(what: str) -> None:
    raw = deck_source()
    DECK_GARBAGE[what](raw)
    with pytest.raises(SettingsError):
        tools.parse_deck(raw)


@pytest.mark.parametrize("kind", ["edition", "deck"])
def test_unreadable_files_are_settings_errors(kind: str, tmp_path: Path) -> None:
    load = (lambda p: load_edition(str(p))) if kind == "edition" else tools.load_deck
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)  # (opening it for reading would block forever)
    big = tmp_path / "big.toml"
    big.write_bytes(b"# " + b"x" * (2 << 20) + b"\n")
    latin1 = tmp_path / "latin1.toml"
    latin1.write_bytes('title = "K\xf8benhavn"\n'.encode("latin-1"))
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    for path in ("/dev/zero", tmp_path, fifo, big, latin1, deep, tmp_path / "missing.toml"):
        with pytest.raises(SettingsError):
            load(path)


def test_saved_edition_files_travel_with_the_save(tmp_path: Path) -> None:
    """A game on an edition file saves the edition's data: it loads after the file is gone."""
    raw = (resources.files("parlor.monopoly") / "data/classic.toml").read_text("utf-8")
    path = tmp_path / "house.toml"
    path.write_text(raw.replace('id = "classic"', 'id = "house"').replace("1500", "2000", 1))
    game = monopoly.new_game(str(path), players=3, seed=4)
    plays(game, 100)
    text = game.to_json()
    path.unlink()
    again = monopoly.PropertyGame.from_json(text)
    assert again.edition == game.edition and again.snapshot() == game.snapshot()
    for ed in monopoly.EDITION_IDS:  # bundled editions are saved by id, and round-trip as data
        assert monopoly.new_game(ed, 2).settings["edition"] == ed
        assert parse_edition(edition_data(load_edition(ed))) == load_edition(ed)


# ----- the save files of parlor.core.saves: atomic writes, bounded reads ---------------------------


@pytest.mark.parametrize("name", ["classic-4p", "matador-quick", "tools-4p"])
def test_write_save_is_atomic_and_read_save_bounded(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = advanced(name, 2, 80)
    cls = type(game)
    path = tmp_path / "game.json"
    write_save(path, game, extra={"seats": ["human", "bot"]})
    again, extra = read_save(path, cls)
    assert again.snapshot() == game.snapshot() and extra == {"seats": ["human", "bot"]}
    good = path.read_bytes()
    # Data that cannot be encoded changes no file.
    for bad_extra in ({"x": object()}, {"x": math.nan}, {"x": "\udcff"}, {"x": "y" * 100_000}):
        with pytest.raises(SaveError):
            write_save(path, game, extra=bad_extra)
        assert path.read_bytes() == good
    # A crash between writing and renaming leaves the old save and no temporary file.
    later = advanced(name, 2, 120)

    def crash(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        write_save(path, later)
    monkeypatch.undo()
    assert path.read_bytes() == good and sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    write_save(path, later)
    assert (
        read_save(path, [monopoly.PropertyGame, tools.ToolsGame])[0].snapshot() == later.snapshot()
    )
    # Reading: every problem is a ReplayError.
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    junk = tmp_path / "junk.json"
    junk.write_bytes(b"\xff\xfe not text")
    monkeypatch.setattr(saves, "MAX_SAVE_BYTES", 1000)
    for where in (tmp_path / "missing.json", tmp_path, "/dev/zero", fifo, junk, path):
        with pytest.raises(ReplayError):
            read_save(where, cls)

"""The engines' last loose edges (issue 20, "The engines' last loose edges (found by hostile
probes)"): each test names the item it holds to."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from parlor import monopoly, tools
from parlor.cli import main
from parlor.core.errors import MalformedAction, SettingsError
from parlor.monopoly.edition import load_edition
from parlor.server import games
from parlor.tools.cards import load_deck, parse_deck

HUGE = "9" * 5000  # int() refuses more than 4300 digits (sys.get_int_max_str_digits)


def test_an_integer_of_more_than_4300_digits_is_a_settings_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "An integer of more than 4,300 digits in an edition or deck file raises a plain
    ValueError (a traceback from parlor play --edition F and parlor tools --deck F)"."""
    edition = tmp_path / "edition.toml"
    edition.write_text(f'name = "x"\nsalary = {HUGE}\n')
    deck = tmp_path / "deck.toml"
    deck.write_text(f'colors = ["red"]\n[copies]\nhammer = {HUGE}\n')
    with pytest.raises(SettingsError, match="a number too long to read"):
        load_edition(str(edition))
    with pytest.raises(SettingsError, match="a number too long to read"):
        load_deck(deck)
    assert main(["play", "--edition", str(edition), "--lang", "en"]) == 2
    assert main(["tools", "--deck", str(deck), "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "parlor play: error:" in err and "parlor tools: error:" in err
    assert err.count("a number too long to read") == 2 and "Traceback" not in err


@pytest.mark.parametrize("edition", [["classic"], {"classic": 1}, {"classic"}])
def test_an_edition_that_is_not_a_text_is_a_settings_error(edition: object) -> None:
    """ "monopoly.new_game(["classic"]) raises TypeError: unhashable type (the cache hashes
    first)"."""
    with pytest.raises(SettingsError, match="an edition is named by its id or a path"):
        monopoly.new_game(edition)


def test_copies_do_not_share_the_opening_events_with_their_source() -> None:
    """ "A property game's clone() and determinize() share setup_events with their source"."""
    game = monopoly.new_game("classic", seed=2, options={"variant": "short"})
    before = list(game.setup_events)
    assert before  # (the short game deals deeds: there is something to share)
    for copy in (game.clone(), game.determinize(0, seed=5)):
        assert copy.setup_events == before
        assert copy.setup_events is not game.setup_events
        copy.setup_events.append(copy.setup_events[0])
        copy.setup_events.clear()
        assert game.setup_events == before


@pytest.mark.parametrize("bad", ["\x1b[31mred", "red\n", "r\x00d", "\x07", "\ud800"])
def test_deck_color_names_refuse_control_characters(bad: str) -> None:
    """ "TOOLS deck colour names accept control characters and terminal escapes (player names do
    not)"; the deck's name is shown as raw, so it follows the same rule."""
    with pytest.raises(SettingsError, match="'colors' may not hold control characters"):
        parse_deck({"colors": ["blue", bad], "copies": {"hammer": 2}})
    with pytest.raises(SettingsError, match="'name' may not hold control characters"):
        parse_deck({"name": bad, "colors": ["blue"], "copies": {"hammer": 2}})
    with pytest.raises(SettingsError):
        tools.new_game(2, seed=0, deck={"colors": [bad, "blue"], "copies": {"hammer": 12}})
    # letters of any script and inner spaces stay allowed
    assert parse_deck({"colors": ["rød", "azul claro"], "copies": {"hammer": 2}}).colors == (
        "rød",
        "azul claro",
    )


@pytest.mark.parametrize(
    "make",
    [
        lambda p: tools.PlayCard(p, "nope"),
        lambda p: tools.PlayCard(p, "hammer:pink"),
        lambda p: tools.ChooseColor(p, "pink"),
        lambda p: tools.PenaltyHammers(p, "red", "pink"),
    ],
)
def test_action_id_refuses_an_unknown_card_as_apply_does(make: object) -> None:
    """ "TOOLS action_id(PlayCard(p, "nope")) raises UnknownActionId where apply raises
    MalformedAction"."""
    game = tools.new_game(2, seed=1)
    p = game.current
    action = make(p)  # type: ignore[operator]
    with pytest.raises(MalformedAction) as by_apply:
        game.apply(action)
    with pytest.raises(MalformedAction) as by_id:
        game.action_id(action)
    assert str(by_id.value) == str(by_apply.value)


@pytest.mark.parametrize("out", ["/proc/parlor-x", "/dev/null/x"])
def test_simulate_to_a_folder_it_cannot_write_says_so_in_one_line(
    out: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "parlor simulate --out /proc/x ends in a traceback"."""
    code = main(["simulate", "--game", "tools", "--games", "2", "--out", out, "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"parlor simulate: error: cannot write the results to {out}:" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("minutes", ["nan", "-1", "inf"])
def test_play_refuses_minutes_that_are_no_time(
    minutes: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "--minutes nan and --minutes -1 are accepted" (parlor play, time-limit games)."""
    code = main(
        ["play", "--variant", "time_limit", "--minutes", minutes, "--bots", "all", "--lang", "en"]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert "--minutes must be a number of minutes, 0 or more, not " + minutes in err


def _at_a_drawn_card(options: dict[str, object]) -> tools.ToolsGame:
    """A 3-player game played by random choices until its decider is asked about a drawn card."""
    for seed in range(50):
        game = tools.new_game(3, seed=seed, options=options)
        rng = random.Random(seed)
        while not game.is_over:
            own = game.pending_for(game.current)
            assert own is not None
            if own.kind == "drawn_card":
                return game
            game.apply(rng.choice(game.legal_actions(game.current)))
    raise AssertionError("no drawn-card decision in 50 games")


@pytest.mark.parametrize("options", [{}, {"ask_after_every_draw": True}])
def test_only_the_drawer_sees_the_drawn_card_decision(options: dict[str, object]) -> None:
    """ "Other seats see the drawn_card decision kind, so they learn that a kept drawn card was
    playable: the public decision must not tell what only the drawer knows." The public
    decision, every other seat's, their views (what the RL observations and the server's frames
    are made of) and the server's prompt all say the drawer is at play."""
    game = _at_a_drawn_card(options)
    drawer = game.current
    others = [q for q in range(3) if q != drawer]
    own = game.pending_for(drawer)
    assert own is not None and own.kind == "drawn_card" and "drawn" in own.info
    assert game.view(drawer)["pending"]["kind"] == "drawn_card"
    public = game.pending
    assert public is not None and public.player == drawer and public.kind == "play"
    for q in [*others, None]:
        assert game.pending_for(q) == public
        assert game.view(q)["pending"] == {
            "player": drawer,
            "kind": "play",
            "info": dict(public.info),
        }
        served = games.pending_for(game, q)
        assert served is not None and served["kind"] == "play", served
    served = games.pending_for(game, drawer)
    assert served is not None and served["kind"] == "drawn_card"


@pytest.mark.parametrize("lang", ["en", "es", "da"])
def test_the_income_tax_question_gives_no_sum(lang: str) -> None:
    """Issue 20: "the Income Tax prompt shows the 10% figure although docs/rules/README.md S11
    says it is not given (decide, and make both agree)". Decided for the rulebook (C21: "You
    must decide which option you will take before you add up your total worth"): neither the
    decision's info nor its words hold the computed sum."""
    from parlor.monopoly import text as mtext
    from parlor.monopoly.edition import load_edition

    for seed in range(40):
        game = monopoly.new_game("classic", seed=seed)
        rng = random.Random(seed)
        while not game.is_over and len(game.log) < 400:
            pending = game.pending
            assert pending is not None
            if pending.kind == "tax_choice":
                p = pending.player
                assert set(pending.info) <= {"square", "flat", "percent"}
                words = mtext.describe_decision(game, pending, lang)
                tenth = game.total_worth(p) * 10 // 100
                assert mtext.money(game, tenth, lang) not in words or tenth == 200
                assert mtext.money(game, 200, lang) in words and "10" in words
                assert load_edition("classic").squares[4].tax_percent_option
                return
            game.apply(rng.choice(game.legal_actions(pending.player)))
    raise AssertionError("nobody landed on Income Tax")

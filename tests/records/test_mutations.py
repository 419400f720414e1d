"""A changed record is never silently the same game: a changed move or fact tag is either refused
with a clear error (naming its line) or replays to a different game. Tags that only describe
(Event, Date, who played a seat...) and comments change no fact and are read back as written."""

from __future__ import annotations

import functools
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from parlor import monopoly, tools
from parlor.core.game import Game
from parlor.records import RecordError, parse, read_game, write_record
from tests.records.games import play

SETTINGS = settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


@functools.cache
def property_record() -> tuple[Game[Any], str]:
    game = play(
        monopoly.new_game("classic", 3, 3, {"variant": "short"}), "monopoly", "heuristic", 5000, 3
    )
    assert game.is_over
    return game, write_record(game, seats=["heuristic"] * 3, tags={"Event": "test"})


@functools.cache
def tools_record() -> tuple[Game[Any], str]:
    game = play(tools.new_game(3, 8, None, {"hand_size": 5}), "tools", "heuristic", 3000, 8)
    assert game.is_over
    return game, write_record(game, seats=["heuristic"] * 3, tags={"Event": "test"})


RECORDS = {"monopoly": property_record, "tools": tools_record}
VERBS = {
    "monopoly": ["roll", "end", "buy", "decline", "bid", "pass", "build", "sell", "mortgage",
                 "unmortgage", "accept", "reject", "pay-debt", "bankrupt", "offer", "tax"],
    "tools": ["play", "draw", "keep", "play-drawn", "color", "hammers", "take-penalty", "end"],
}  # fmt: skip
WORDS = st.sampled_from(
    ["3+4", "6+6", "Boardwalk", "Park Place", "#39", "jail", "hammer:red", "toolbox", "blue",
     "P2 draws toolbox", 'card "Pay poor tax of $15"', "0", "120", "[] for []", "P9", ""]
)  # fmt: skip


def same_game(a: Game[Any], b: Game[Any]) -> bool:
    return (a.settings, a.seed, a.log) == (b.settings, b.seed, b.log)


def refused_or_different(original: Game[Any], text: str, at_line: bool) -> str:
    """What the mutated ``text`` is: "refused" (with a clear error) or "different"."""
    try:
        game = read_game(text)
    except RecordError as exc:
        message = str(exc)
        assert message and len(message) < 2000
        if at_line:
            assert re.match(r"line \d+: ", message), message
        return "refused"
    assert not same_game(game, original), "a changed record replayed to the same game"
    return "different"


def mutate_move(text: str, family: str, data: st.DataObject) -> str:
    lines = text.split("\n")
    first = next(i for i, line in enumerate(lines) if line and line[0].isdigit())
    moves = [i for i in range(first, len(lines)) if lines[i]]
    i = data.draw(st.sampled_from(moves))
    line = lines[i]
    kind = data.draw(
        st.sampled_from(["seat", "verb", "args", "outcome", "drop", "swap", "copy", "digit", "add"])
    )
    number, _, body = line.partition(". ") if re.match(r"\d+\. ", line) else ("", "", line)
    head, *outs = body.split(" -> ")
    seat, _, rest = head.partition(" ")
    verb, _, args = rest.partition(" ")
    prefix = f"{number}. " if number else ""
    if kind == "seat":
        seat = data.draw(st.sampled_from(["P1", "P2", "P3", "P4"]))
    elif kind == "verb":
        verb = data.draw(st.sampled_from(VERBS[family]))
    elif kind == "args":
        args = data.draw(WORDS)
    elif kind == "outcome":
        if outs and data.draw(st.booleans()):
            outs.pop(data.draw(st.integers(0, len(outs) - 1)))
        else:
            outs.append(data.draw(WORDS.filter(bool)))
    elif kind == "drop":
        del lines[i]
        return "\n".join(lines)
    elif kind in ("swap", "copy"):
        j = min(i + 1, len(lines) - 2)
        if kind == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        else:
            lines.insert(j, lines[i])
        return "\n".join(lines)
    elif kind == "digit":
        spots = [k for k, c in enumerate(line) if c.isdigit()]
        assume(spots)
        k = data.draw(st.sampled_from(spots))
        new = data.draw(st.sampled_from("0123456789").filter(lambda c: c != line[k]))
        lines[i] = line[:k] + new + line[k + 1 :]
        return "\n".join(lines)
    elif kind == "add":
        lines.insert(i, data.draw(st.sampled_from(moves_of(lines, moves))))
        return "\n".join(lines)
    head = f"{seat} {verb}" + (f" {args}" if args else "")
    lines[i] = prefix + " -> ".join([head, *outs])
    return "\n".join(lines)


def moves_of(lines: list[str], moves: list[int]) -> list[str]:
    return [re.sub(r"^\d+\. ", "", lines[i]) for i in moves]


FACT_TAG_CHANGES = {
    "Game": ["tools", "monopoly", "chess"],
    "Edition": ["matco", "latam", "matador", "custom", "nowhere"],
    "Title": ["Matador", "x"],
    "Variant": ["standard", "short", "quick", "time_limit", "odd"],
    "Seed": ["4", "0", "-1", "x", "99999999999"],
    "Result": ["1", "2", "3", "*", "1 2", "9"],
    "Termination": ["bankruptcy", "empty hand", "time_called"],
    "Ranking": ["1 2 3", "3 2 1", "2 1 3"],
    "Valuation": ["0 0 0", "1 2 3", "2025 0 3885"],
    "Deck": ["default", "other", "../x"],
    "Format": ["parlor-record 2", "pgn"],
}


def mutate_tag(text: str, data: st.DataObject) -> str:
    lines = text.split("\n")
    tags = [
        i
        for i, line in enumerate(lines)
        if line.startswith("[") and not line.startswith(("[Event", "[Seat"))
    ]
    tags += [i for i, line in enumerate(lines) if line.startswith("[Seat")]
    i = data.draw(st.sampled_from(tags))
    name = re.match(r"\[(\w+)", lines[i]).group(1)  # type: ignore[union-attr]
    if name == "Seat":  # the player's name is a fact (it is in the game's settings)
        lines[i] = re.sub(r'(\[Seat "\d+" )"[^"]*"', r'\1"Somebody Else"', lines[i])
    elif name == "Option":
        lines[i] = lines[i].replace('"5"]', '"6"]')
    elif data.draw(st.booleans()):
        value = data.draw(st.sampled_from(FACT_TAG_CHANGES[name]))
        lines[i] = f'[{name} "{value}"]'
    else:  # a rule option more
        option = data.draw(st.sampled_from(OPTIONS))
        lines.insert(i + 1, f'[Option "{option[0]}" "{option[1]}"]')
    return "\n".join(lines)


OPTIONS = [
    ("auctions", "false"),
    ("hand_size", "6"),
    ("box_stacking", "false"),
    ("free_parking_pot", "true"),
    ("unknown_option", "1"),
    ("auctions", "[]"),
]


@pytest.mark.parametrize("family", ["monopoly", "tools"])
@SETTINGS
@given(data=st.data())
def test_a_changed_move_is_refused_or_another_game(family: str, data: st.DataObject) -> None:
    original, text = RECORDS[family]()
    mutated = mutate_move(text, family, data)
    assume(mutated != text and parse_or_none(mutated) != parse_or_none(text))
    refused_or_different(original, mutated, at_line=True)


@pytest.mark.parametrize("family", ["monopoly", "tools"])
@settings(max_examples=50, deadline=None, derandomize=True)
@given(data=st.data())
def test_a_changed_fact_tag_is_refused_or_another_game(family: str, data: st.DataObject) -> None:
    original, text = RECORDS[family]()
    mutated = mutate_tag(text, data)
    assume(mutated != text)
    refused_or_different(original, mutated, at_line=False)


def parse_or_none(text: str) -> Any:
    """The record's facts without its comments (None when it does not parse)."""
    try:
        record = parse(text)
    except RecordError:
        return None
    return record.without_comments()


@pytest.mark.parametrize("family", ["monopoly", "tools"])
def test_descriptive_tags_and_comments_change_no_fact(family: str) -> None:
    original, text = RECORDS[family]()
    changed = text.replace('[Event "test"]', '[Event "another"]\n[Date "2026.12.03"]')
    changed = changed.replace('"heuristic"]', '"human"]', 1)
    lines = changed.split("\n")
    k = next(i for i, line in enumerate(lines) if line.startswith("2. "))
    lines[k] += ' ; a comment; with "quotes"'
    lines.insert(k, "; a line of comment")
    game = read_game("\n".join(lines))
    assert same_game(game, original)
    record = parse("\n".join(lines))
    assert record.tag("Event") == "another" and record.tag("Date") == "2026.12.03"
    assert [t.values[2] for t in record.tags_named("Seat")][:2] == ["human", "heuristic"]
    assert (
        record.moves[[m.number for m in record.moves].index(2)].comment
        == 'a comment; with "quotes"'
    )


@pytest.mark.parametrize("family", ["monopoly", "tools"])
@settings(max_examples=60, deadline=None, derandomize=True)
@given(data=st.data())
def test_any_text_is_read_or_refused_with_a_record_error(family: str, data: st.DataObject) -> None:
    """Hostile bytes: a record cut, spliced or sprinkled with any characters is read or refused
    with a RecordError, never another exception."""
    _, text = RECORDS[family]()
    at = data.draw(st.integers(0, len(text)))
    cut = data.draw(st.integers(0, 40))
    junk = data.draw(st.text(alphabet=st.characters(codec="utf-8"), max_size=12))
    mutated = text[:at] + junk + text[at + cut :]
    try:
        read_game(mutated)
    except RecordError as exc:
        assert str(exc)

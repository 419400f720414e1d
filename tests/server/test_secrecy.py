"""Secrecy: every frame sent to every seat and spectator over many games, checked against the
hidden state at that moment (other hands, the draw pile, deck order, the seed) replayed here."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest

from parlor import client, monopoly, tools
from parlor.server import viewdiff
from tests.server.support import ServerProcess, export, host, run, seat, start

FORBIDDEN_KEYS = {
    "seed",
    "snapshot",
    "decks_order",
    "jail_card_ids",
    "rng",
    "frames",
    "hands",
    "draw_order",
}


def walk(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk(v, f"{path}[{i}]")


def contains_run(haystack: list[Any], needle: list[Any]) -> bool:
    n = len(needle)
    return any(haystack[i : i + n] == needle for i in range(len(haystack) - n + 1))


def check_frames(
    frames: list[dict[str, Any]], seat_no: int | None, states: list[Any], seed: int, family: str
) -> int:
    checked = 0
    held: Any = None  # the view this connection holds (protocol 3 sends changes to it)
    for frame in frames:
        text = json.dumps(frame)
        assert str(seed) not in text, "the seed was sent"
        view: Any = None
        if frame["type"] in ("update", "welcome"):
            if "changes" in frame:  # computed from this seat's own two views: its own view
                assert held is not None and frame["base"] == held[0], "changes to a view not held"
                view = viewdiff.apply(held[1], frame["changes"])
            else:
                view = frame["view"]
        for path, value in walk(frame):
            key = path.rsplit(".", 1)[-1]
            assert key not in FORBIDDEN_KEYS, f"{key} sent to seat {seat_no}: {path}"
            if key in ("drawn", "good_nail_penalty"):
                assert view is not None and view["pending"]["player"] == seat_no, path
            if key == "answers" or (frame["type"] == "legal" and key == "actions"):
                assert seat_no is not None and all(a["action"]["player"] == seat_no for a in value)
        if view is None:
            continue
        held = (frame["version"], view)
        snap, view_self = states[frame["version"]]
        assert view == view_self[seat_no], "a view other than the seat's own"
        lists = [v for _, v in walk(frame) if isinstance(v, list) and len(v) >= 3]
        if family == "tools":
            if seat_no is None:
                assert "hand" not in view
            own = sorted(snap["hands"][seat_no]) if seat_no is not None else None
            for q, hand in enumerate(snap["hands"]):
                if q == seat_no or len(hand) < 3 or sorted(hand) in (own, sorted(snap["discard"])):
                    continue
                assert all(sorted(x, key=str) != sorted(hand) for x in lists), f"seat {q}'s hand"
            pile = snap["draw_pile"]
            for x in lists:
                if len(x) >= 8 and x != snap["discard"]:
                    assert not contains_run(pile, x) and not contains_run(pile[::-1], x), (
                        "draw order"
                    )
        else:
            for order in snap["decks_order"].values():
                for x in lists:
                    if len(x) >= 5 and all(isinstance(i, int) for i in x):
                        assert not contains_run(order, x), "deck order"
        checked += 1
    return checked


def replay_states(save: dict[str, Any]) -> list[Any]:
    """(snapshot, views by seat) at every version of a finished game, replayed here."""
    cls = tools.ToolsGame if save["game"] == "tools" else monopoly.PropertyGame
    base = dict(save, actions=[])
    base.pop("snapshot")
    game = cls.from_dict(base)
    out = []
    seats: list[int | None] = [*range(game.num_players), None]

    def state() -> Any:
        return json.loads(json.dumps(game.snapshot())), {
            s: json.loads(json.dumps(game.view(s))) for s in seats
        }

    out.append(state())
    for raw in save["actions"]:
        game.apply(cls.decode_action(raw))
        out.append(state())
    return out


async def recorded_game(
    server: ServerProcess, request: dict[str, Any], humans: int, seed: int
) -> int:
    made = client.create_table(server.base, **request)
    # every other connection speaks protocol 3 (views as changes), the rest protocol 1
    people = [await host(server.base, made, protocol=3 if seed % 20 == 0 else 1)]
    for i in range(1, humans):
        people.append(await seat(server.base, made, f"P{i}", protocol=3 if i % 2 else 1))
    spectator = await client.Table.connect(
        server.base, made["table"], invite=made["invite"], protocol=3
    )
    await start(people[0])
    await asyncio.gather(
        *(
            client.play_table(t, client.random_policy(seed + i), timeout=400)
            for i, t in enumerate(people)
        )
    )
    await spectator.wait(lambda t: t.final is not None, timeout=120)
    recorded = [(t.you["seat"], list(t.frames)) for t in [*people, spectator]]
    save = await export(people[0])  # after the end only
    for t in [*people, spectator]:
        await t.close()
    states = replay_states(save)
    family = request.get("game", "monopoly")
    return sum(check_frames(frames, s, states, save["seed"], family) for s, frames in recorded)


def test_no_frame_to_anyone_carries_a_hidden_value(
    server: ServerProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(client.Table, "keep_frames", True)
    games = [
        ({"game": "tools", "seats": ["human", "human", "human", "heuristic"]}, 3) for _ in range(5)
    ]
    games += [
        ({"game": "tools", "seats": ["human", "human"], "options": {"hand_size": 5}}, 2)
        for _ in range(3)
    ]
    # a round limit: seats that answer at random may never go bankrupt (one short Matador game
    # in thirty was still going at round 4500), and such a game ran into play_table's 400 s
    games += [
        (
            {
                "edition": e,
                "variant": "short",
                "seats": ["human", "human", "heuristic"],
                "options": {"time_limit_rounds": 60},
            },
            2,
        )
        for e in ("classic", "matador")
    ]

    async def go() -> int:
        counts = await asyncio.gather(
            *(recorded_game(server, req, n, 10 * i) for i, (req, n) in enumerate(games))
        )
        return sum(counts)

    checked = run(go())
    assert checked > 1000  # frames with a view, each checked against the state it was sent in

"""The property heuristic decides the same as before issue 22's speed work: seeded games of four
heuristic bots give the same action logs.

The digests were recorded from main before the bot was made to keep its picture of the table up
to date from one decision to the next (commit "Test: seeded heuristic games keep their action
logs"); the property heuristic's cases again after issue 20's trade valuation (branch bidding2),
with the same digests from bidding2's own code as from it merged with the speed work). A change that makes the bot decide differently (a new valuation, a bid rule) changes them
on purpose: record them again with ``python tests/bots/test_heuristic_replay.py`` and say why in
the commit. A change meant only to make it faster must leave them as they are.
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from parlor import monopoly
from parlor.bots.registry import make_bot

#: (edition, players, seed, rule options, bot kind) -> (decisions, digest of the action log).
CASES: dict[tuple[str, int, int, str, str], tuple[int, str]] = {
    ("classic", 4, 0, "", "heuristic"): (343, "aa76908f4f673b74"),
    ("classic", 4, 1, "", "heuristic"): (620, "0f677bc3dd164ae0"),
    ("classic", 4, 2, "", "heuristic"): (554, "77cc177688e153b9"),
    ("classic", 4, 3, "", "heuristic"): (552, "faf6ae7c62a8631e"),
    ("matco", 4, 0, "", "heuristic"): (343, "aa76908f4f673b74"),
    ("matco", 4, 1, "", "heuristic"): (620, "0f677bc3dd164ae0"),
    ("matco", 4, 2, "", "heuristic"): (554, "77cc177688e153b9"),
    ("matco", 4, 3, "", "heuristic"): (552, "faf6ae7c62a8631e"),
    ("latam", 4, 0, "", "heuristic"): (346, "77e8de014436daed"),
    ("latam", 4, 1, "", "heuristic"): (619, "43bd8f18beed027b"),
    ("latam", 4, 2, "", "heuristic"): (550, "8ac2d9b600d114a1"),
    ("latam", 4, 3, "", "heuristic"): (506, "d0c88e26a9d5240d"),
    ("matador", 4, 0, "", "heuristic"): (512, "7088c30ae618cd8f"),
    ("matador", 4, 1, "", "heuristic"): (528, "410d09e1a68b74a1"),
    ("matador", 4, 2, "", "heuristic"): (581, "761d2409393d87fd"),
    ("matador", 4, 3, "", "heuristic"): (477, "c3715a46bd491844"),
    ("classic", 4, 5, "variant=short", "heuristic"): (412, "5e21c512e782f97d"),
    ("classic", 4, 6, "variant=time_limit;time_limit_rounds=40", "heuristic"): (
        436,
        "7803452c484de5e2",
    ),
    ("classic", 4, 7, "rent_claim=true", "heuristic"): (588, "858bc26cf04e206f"),
    ("classic", 4, 8, "auctions=false", "heuristic"): (897, "bd85b9043376f72d"),
    ("classic", 4, 9, "unlimited_buildings=true", "heuristic"): (466, "a5b5f141e1d656cd"),
    ("classic", 4, 10, "free_parking_pot=true;double_salary_on_go=true", "heuristic"): (
        428,
        "8ffd2dfde401fb9f",
    ),
    ("classic", 4, 11, "building_shortage_auction=false", "heuristic"): (551, "615e63b10973181c"),
    ("matador", 4, 5, "rent_claim=true", "heuristic"): (849, "706aca238796a899"),
    ("latam", 4, 15, "variant=short", "heuristic"): (199, "477bc2dee772f111"),
    ("classic", 2, 12, "", "heuristic"): (476, "e1f928a1406f29ae"),
    ("classic", 3, 13, "", "heuristic"): (488, "9527a969a73985b4"),
    ("classic", 4, 14, "", "heuristic-v1"): (325, "e70e2b9115f7f573"),
}

CAP = 20000


def _options(text: str) -> dict[str, Any] | None:
    """``"a=1;b=true"`` as rule options (``""``: none)."""
    if not text:
        return None
    out: dict[str, Any] = {}
    for item in text.split(";"):
        key, value = item.split("=")
        out[key] = {"true": True, "false": False}.get(
            value, int(value) if value.isdigit() else value
        )
    return out


def _digest(game: Any) -> str:
    h = hashlib.sha256()
    for action in game.log:
        h.update(repr(action).encode())
        h.update(b"\n")
    return h.hexdigest()[:16]


def _setup(key: tuple[str, int, int, str, str]) -> tuple[Any, list[Any]]:
    edition, players, seed, options, kind = key
    game = monopoly.new_game(edition, players, seed=seed, options=_options(options))
    bots = [make_bot("monopoly", kind, seed * 16 + p) for p in range(players)]
    return game, bots


def _step(game: Any, bots: list[Any]) -> None:
    p = game.pending.player
    game.apply(bots[p].choose(game, p))


def play(key: tuple[str, int, int, str, str]) -> tuple[int, str]:
    """One seeded game to its end (or the cap): its decisions and action-log digest."""
    game, bots = _setup(key)
    n = 0
    while not game.is_over and n < CAP:
        _step(game, bots)
        n += 1
    return n, _digest(game)


def play_interleaved(keys: list[tuple[str, int, int, str, str]]) -> list[tuple[int, str]]:
    """The games of ``keys`` played one decision each in turn (the bots' caches switch games at
    every decision): each game's decisions and digest, which must be those of playing it alone."""
    tables = [_setup(key) for key in keys]
    counts = [0] * len(keys)
    going = True
    while going:
        going = False
        for i, (game, bots) in enumerate(tables):
            if not game.is_over and counts[i] < CAP:
                _step(game, bots)
                counts[i] += 1
                going = True
    return [(counts[i], _digest(game)) for i, (game, _) in enumerate(tables)]


@pytest.mark.parametrize("key", list(CASES), ids=lambda k: "-".join(map(str, k)))
def test_seeded_game_keeps_its_action_log(key: tuple[str, int, int, str, str]) -> None:
    assert play(key) == CASES[key]


def test_interleaved_games_keep_their_action_logs() -> None:
    keys = [k for k in CASES if k[0] == "classic" and not k[3] and k[1] == 4][:3]
    keys += [k for k in CASES if k[0] == "matador" and not k[3]][:1]
    assert len(keys) == 4
    assert play_interleaved(keys) == [CASES[k] for k in keys]


def _all_keys() -> list[tuple[str, int, int, str, str]]:
    keys = [(ed, 4, seed, "", "heuristic") for ed in monopoly.EDITION_IDS for seed in range(4)]
    keys += [
        ("classic", 4, 5, "variant=short", "heuristic"),
        ("classic", 4, 6, "variant=time_limit;time_limit_rounds=40", "heuristic"),
        ("classic", 4, 7, "rent_claim=true", "heuristic"),
        ("classic", 4, 8, "auctions=false", "heuristic"),
        ("classic", 4, 9, "unlimited_buildings=true", "heuristic"),
        ("classic", 4, 10, "free_parking_pot=true;double_salary_on_go=true", "heuristic"),
        ("classic", 4, 11, "building_shortage_auction=false", "heuristic"),
        ("matador", 4, 5, "rent_claim=true", "heuristic"),
        ("latam", 4, 15, "variant=short", "heuristic"),
        ("classic", 2, 12, "", "heuristic"),
        ("classic", 3, 13, "", "heuristic"),
        ("classic", 4, 14, "", "heuristic-v1"),
    ]
    return keys


if __name__ == "__main__":  # record the digests again (see the module docstring)
    print("CASES: dict[tuple[str, int, int, str, str], tuple[int, str]] = {")
    for key in _all_keys():
        print(f"    {key!r}: {play(key)!r},")
    print("}")

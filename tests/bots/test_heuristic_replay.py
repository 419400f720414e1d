"""The property heuristic decides the same as before issue 22's speed work: seeded games of four
heuristic bots give the same action logs.

The digests were recorded from main before the bot was made to keep its picture of the table up
to date from one decision to the next (commit "Test: seeded heuristic games keep their action
logs"). A change that makes the bot decide differently (a new valuation, a bid rule) changes them
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
    ("classic", 4, 0, "", "heuristic"): (464, "bba13203a8f076be"),
    ("classic", 4, 1, "", "heuristic"): (309, "96b225bd7ed7c4fb"),
    ("classic", 4, 2, "", "heuristic"): (510, "37caf857b4496bd1"),
    ("classic", 4, 3, "", "heuristic"): (538, "50aec6332831e9ba"),
    ("matco", 4, 0, "", "heuristic"): (464, "bba13203a8f076be"),
    ("matco", 4, 1, "", "heuristic"): (309, "96b225bd7ed7c4fb"),
    ("matco", 4, 2, "", "heuristic"): (510, "37caf857b4496bd1"),
    ("matco", 4, 3, "", "heuristic"): (538, "50aec6332831e9ba"),
    ("latam", 4, 0, "", "heuristic"): (383, "a945cc4f31293d53"),
    ("latam", 4, 1, "", "heuristic"): (308, "16f5828f0d36ced0"),
    ("latam", 4, 2, "", "heuristic"): (509, "15ac5def37005dde"),
    ("latam", 4, 3, "", "heuristic"): (534, "2acd41b164a1853d"),
    ("matador", 4, 0, "", "heuristic"): (607, "2d0d216f27edf5e6"),
    ("matador", 4, 1, "", "heuristic"): (454, "f7c87792958c1c3a"),
    ("matador", 4, 2, "", "heuristic"): (655, "a5c11294c3060814"),
    ("matador", 4, 3, "", "heuristic"): (824, "9cbb2a902dc23692"),
    ("classic", 4, 5, "variant=short", "heuristic"): (454, "c7aad8274cafb45c"),
    ("classic", 4, 6, "variant=time_limit;time_limit_rounds=40", "heuristic"): (
        621,
        "40a1daee9e885414",
    ),
    ("classic", 4, 7, "rent_claim=true", "heuristic"): (1058, "694327bd11da2156"),
    ("classic", 4, 8, "auctions=false", "heuristic"): (1209, "33ee6f196a6d34a9"),
    ("classic", 4, 9, "unlimited_buildings=true", "heuristic"): (385, "b4860b462d6bd6e4"),
    ("classic", 4, 10, "free_parking_pot=true;double_salary_on_go=true", "heuristic"): (
        701,
        "204f39adad2c2616",
    ),
    ("classic", 4, 11, "building_shortage_auction=false", "heuristic"): (585, "bdb2ab791c3ab968"),
    ("matador", 4, 5, "rent_claim=true", "heuristic"): (750, "c866641eea364fe7"),
    ("latam", 4, 15, "variant=short", "heuristic"): (187, "0c0268e92d336581"),
    ("classic", 2, 12, "", "heuristic"): (454, "d9a9c44247053020"),
    ("classic", 3, 13, "", "heuristic"): (449, "0ad436e0c99fbde1"),
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

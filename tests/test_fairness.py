"""parlor.core.fairness without a server: the commitment and the derivation as docs/server.md
defines them byte by byte, the chance outcomes a game records (every card that left the TOOLS draw
pile, every die a property game threw), and verify_save on a save made here."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from parlor import monopoly, tools
from parlor.bots.registry import make_bot
from parlor.core import fairness
from parlor.core.errors import ReplayError
from parlor.core.game import Game, action_to_dict

SALT = bytes(range(32))


def test_the_byte_layout_is_the_documented_one() -> None:
    seed = 0x0123456789ABCDEF
    want = hashlib.sha256(b"parlor-fair/1 commitment\x00" + seed.to_bytes(8, "big") + SALT)
    assert fairness.commitment(seed, SALT) == want.hexdigest()
    nonces = ["aa" * 8, "", "0f" * 32]
    data = b"parlor-fair/1 seed\x00" + seed.to_bytes(8, "big") + SALT + bytes([3])
    data += bytes([8]) + b"\xaa" * 8 + bytes([0]) + bytes([32]) + b"\x0f" * 32
    derived = int.from_bytes(hashlib.sha256(data).digest()[:8], "big") >> 2
    assert fairness.derive_seed(seed, SALT, nonces) == derived < 2**62
    # every nonce, and its seat, counts
    assert fairness.derive_seed(seed, SALT, ["", "aa" * 8, "0f" * 32]) != derived
    assert fairness.derive_seed(seed, SALT, ["ab" * 8, "", "0f" * 32]) != derived
    for bad in ("AA" * 8, "a" * 17, "aa" * 7, "aa" * 33):
        assert not fairness.valid_nonce(bad)
        with pytest.raises(ReplayError):
            fairness.derive_seed(seed, SALT, [bad])
    with pytest.raises(ReplayError):
        fairness.commitment(True, SALT)  # (a bool is not a seed)
    with pytest.raises(ReplayError):
        fairness.commitment(1, SALT[:31])


def played(game: Game[Any], limit: int = 400) -> list[dict[str, Any]]:
    """Snapshots at every step of ``game`` played by random bots (the game is played on)."""
    family = "tools" if isinstance(game, tools.ToolsGame) else "monopoly"
    bots = [make_bot(family, "random", p) for p in range(game.num_players)]
    snaps = [game.snapshot()]
    while not game.is_over and len(game.log) < limit:
        p = game.pending.player  # type: ignore[union-attr]
        game.apply(bots[p].choose(game, p))
        snaps.append(game.snapshot())
    return snaps


@pytest.mark.parametrize("seed", range(8))
def test_every_card_drawn_is_recorded_with_its_step(seed: int) -> None:
    game = tools.new_game(3, seed=seed, options={"ask_after_every_draw": seed % 2 == 0})
    snaps = played(game)
    record = fairness.chance_outcomes(
        tools.ToolsGame, game.settings, game.seed, [action_to_dict(a) for a in game.log]
    )
    dealt = {c["player"]: c["cards"] for c in record if c["kind"] == "dealt"}
    assert {p: sorted(h) for p, h in enumerate(snaps[0]["hands"])} == dealt
    assert [c["card"] for c in record if c["kind"] == "turned_up"] == snaps[0]["discard"][-1:]
    drew: dict[int, list[str]] = {}
    for c in record:
        if c["kind"] == "drew":
            drew.setdefault(c["action"], []).extend(c["cards"])
    checked = 0
    for i in range(len(game.log)):
        pile, then = snaps[i]["draw_pile"], snaps[i + 1]["draw_pile"]
        if len(then) <= len(pile) and pile[: len(then)] == then:  # (no reshuffle in between)
            assert sorted(pile[len(then) :]) == sorted(drew.get(i, [])), i  # the top is the end
            checked += 1
    assert checked > len(game.log) // 2


def test_every_die_is_recorded() -> None:
    game = monopoly.new_game("classic", ["A", "B", "C"], 11, {"variant": "short"})
    played(game, 600)
    record = fairness.chance_outcomes(
        monopoly.PropertyGame, game.settings, game.seed, [action_to_dict(a) for a in game.log]
    )
    again = monopoly.new_game("classic", ["A", "B", "C"], 11, {"variant": "short"})
    thrown = [e.data["dice"] for e in again.setup_events if e.kind == "dice"]
    for a in game.log:
        thrown += [list(e.data["dice"]) for e in again.apply(a) if e.kind == "dice"]
    assert [c["dice"] for c in record if c["kind"] == "dice"] == thrown and len(thrown) > 50


def test_verify_save_names_what_was_changed() -> None:
    committed, nonces = 12345, ["cd" * 16, ""]
    game = tools.new_game(2, fairness.derive_seed(committed, SALT, nonces))
    played(game)
    save = json.loads(game.to_json())
    save["fairness"] = fairness.fairness_record(game, committed, SALT, nonces)
    save = json.loads(json.dumps(save))
    summary = fairness.verify_save(save, [tools.ToolsGame])
    assert summary["nonces"] == 1 and summary["actions"] == len(game.log) and summary["cards"] > 14

    def fails(change: Any, match: str) -> None:
        data = json.loads(json.dumps(save))
        change(data)
        with pytest.raises(ReplayError, match=match):
            fairness.verify_save(data, [tools.ToolsGame])

    fails(lambda d: d["fairness"].update(seed=committed + 1), "do not give the commitment")
    fails(lambda d: d["fairness"].update(salt="00" * 32), "do not give the commitment")
    fails(lambda d: d["fairness"]["nonces"].__setitem__(1, "ef" * 8), "nonces give")
    fails(lambda d: d.update(seed=d["seed"] + 1), "nonces give")
    fails(lambda d: d["fairness"]["chance"].pop(), "chance outcomes")
    fails(lambda d: d["fairness"].update(scheme="parlor-fair/0"), "unknown scheme")
    fails(lambda d: d["fairness"]["chance"][0]["cards"].reverse(), "the setup")
    fails(lambda d: d.pop("fairness"), "no commitment")

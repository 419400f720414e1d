"""Snapshots: a table loads from its engine state without replaying its log when the snapshot is
consistent, replays when it is not, survives SIGKILL, and never reaches a client."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from parlor import client, monopoly, tools
from parlor.bots.registry import make_bot
from parlor.core.game import Game, action_to_dict
from parlor.core.state import export_state
from parlor.server import games, snapshots
from tests.server.support import ServerProcess, export, host, played, run, start, table_row


def stored(game: Game[Any], at: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The JSON log of ``game`` and the snapshot row a server would have written at ``at``."""
    log = [json.loads(json.dumps(action_to_dict(a))) for a in game.log]
    prefix = games.rebuild(games.family(game), game.settings, game.seed, log[:at])
    _, version, engine, digest, state = snapshots.make("t", at, prefix)
    return log, {"version": version, "engine": engine, "digest": digest, "state": state}


@pytest.mark.parametrize(
    "game",
    [
        monopoly.new_game("classic", 4, 7),
        monopoly.new_game("matco", 2, 6, {"free_parking_pot": True}),
        monopoly.new_game("latam", 5, 4, {"variant": "short"}),
        monopoly.new_game("matador", 3, 8, {"variant": "quick"}),
        tools.new_game(5, 9),
        tools.new_game(2, 10),
    ],
    ids=["classic", "matco-pot", "latam-short", "matador-quick", "tools-5", "tools-2"],
)
def test_a_snapshot_restores_the_replayed_game_and_plays_on_identically(game: Game[Any]) -> None:
    game = played(game, 900)
    at = len(game.log) * 2 // 3
    log, snap = stored(game, at)
    restored, used = snapshots.restore(games.family(game), game.settings, game.seed, log, snap)
    assert used
    assert restored.snapshot() == game.snapshot() and restored.log == game.log
    # the same future: the random generator's state came back whole
    a = played(game.clone(), len(game.log) + 200, seed=50)
    b = played(restored, len(game.log) + 200, seed=50)
    assert a.snapshot() == b.snapshot()


def test_an_inconsistent_snapshot_is_not_used_and_the_log_is_replayed() -> None:
    game = played(monopoly.new_game("classic", 4, 3), 600)
    log, snap = stored(game, 400)
    family, settings, seed = "monopoly", game.settings, game.seed
    state = json.loads(snap["state"])
    state["fields"]["cash"][0] += 1  # a state that is not the one its digest describes
    cases = {
        "other rules": {**snap, "engine": "0" * 32},
        "longer than the log": {**snap, "version": len(log) + 1},
        "another state": {**snap, "state": json.dumps(state)},
        "not JSON": {**snap, "state": "{"},
        "a field missing": {**snap, "state": json.dumps({**state, "fields": {"rng": 0}})},
    }
    for why, bad in cases.items():
        restored, used = snapshots.restore(family, settings, seed, log, bad)
        assert not used, why
        assert restored.snapshot() == game.snapshot(), why


def test_an_exported_state_names_only_the_engines_own_classes() -> None:
    game = played(monopoly.new_game("classic", 4, 1), 300)
    _, snap = stored(game, 300)
    state = json.loads(snap["state"])
    log, _ = stored(game, 0)
    for name in ("os:system", "parlor.server.store:Store", "builtins:eval"):
        state["fields"]["frames"] = [{"$dc": name, "fields": {}}]
        restored, used = snapshots.restore(
            "monopoly", game.settings, game.seed, log, {**snap, "state": json.dumps(state)}
        )
        assert not used and restored.snapshot() == game.snapshot()


def test_kill_9_after_a_snapshot_then_restart_loads_it_and_loses_nothing(tmp_path: Path) -> None:
    """A long table (a saved game of 700 actions) gets its snapshot; after SIGKILL the server
    loads it, the table goes on exactly where it was, and the whole game, exported at its end,
    replays from its log to the state that was played (``from_json`` checks the snapshot)."""
    names = ["Ann", "Bo", "Cy", "Di"]
    game = played(monopoly.new_game("classic", names, 5, {"time_limit_rounds": 80}), 700)
    while game.pending.player != 0:  # (the saved game waits for Ann)
        game = played(game, len(game.log) + 1)
    db = tmp_path / "snap.db"
    seats = ["human", "random", "random", "random"]
    flags = ("--bot-delay", "0", "--max-messages-per-connection", "1000")
    srv = ServerProcess(f"sqlite:///{db}", *flags).start()
    try:
        made = client.create_table(srv.base, save=game.to_json(), seats=seats)

        async def before() -> tuple[int, Any, Any]:
            ann = await host(srv.base, made)
            await start(ann)
            await ann.wait(lambda t: t.prompt is not None, timeout=60)
            for _ in range(5):  # a few actions of Ann's and the bots' after the import
                if ann.prompt is None:  # (the game ended: it is as long as it gets)
                    break
                await ann.act(ann.prompt["answers"][0])
                await ann.wait(lambda t: t.prompt is not None or t.final is not None, timeout=60)
            seen = (ann.version, ann.view, ann.prompt)
            await ann.close()
            return seen

        version, view, prompt = run(before())
        con = sqlite3.connect(db)
        # the snapshot is written within a second or so of the table moving 256 actions on
        deadline = time.monotonic() + 60
        row = None
        while row is None:
            row = con.execute(
                "SELECT version, engine, digest, state FROM parlor_snapshots WHERE table_id = ?",
                (made["table"],),
            ).fetchone()
            if row is None:
                assert time.monotonic() < deadline, "no snapshot was written"
                time.sleep(0.2)
        srv.kill()
        snap = dict(zip(("version", "engine", "digest", "state"), row, strict=True))
        assert len(game.log) <= snap["version"] <= version
        log = [
            json.loads(a)
            for (a,) in con.execute(
                "SELECT action FROM parlor_actions WHERE table_id = ? ORDER BY seq",
                (made["table"],),
            )
        ]
        assert len(log) == version
        # what the restarted server does with them: the snapshot is consistent and used
        restored, used = snapshots.restore("monopoly", game.settings, game.seed, log, snap)
        assert used and len(restored.log) == version
        srv = ServerProcess(f"sqlite:///{db}", *flags, port=srv.port).start()

        async def after() -> None:
            ann = await host(srv.base, made)
            ann_frames = json.dumps([ann.view, ann.prompt, ann.table])
            assert (ann.version, ann.view, ann.prompt) == (version, view, prompt)
            # nothing of the stored state goes out: no generator state, no deck order
            assert "$random" not in ann_frames and "decks_order" not in ann_frames
            ann.keep_frames = True
            await client.play_table(ann, client.random_policy(4), timeout=300)
            # every frame of the rest of the game: nothing of the stored state in any
            sent = json.dumps(ann.frames)
            stored_rng = json.loads(snap["state"])["fields"]["rng"]["$random"][1]
            assert "$random" not in sent and json.dumps(stored_rng[100:104])[1:-1] not in sent
            save = await export(ann)
            done = monopoly.PropertyGame.from_json(json.dumps(save))  # checks the snapshot
            assert done.is_over and len(done.log) >= version
            await ann.close()

        run(after())
    finally:
        srv.stop()


def test_the_full_state_differs_from_what_a_seat_may_hold() -> None:
    """``export_state`` is the storage form (hidden parts included): the true draw pile is in it;
    the seat's form (``seat_state``) is a resampled copy."""
    from parlor.core.state import seat_state

    game = played(tools.new_game(4, 21), 30)
    full = export_state(game)["fields"]
    truth = [game.deck.kind_index(c) for c in game.snapshot()["draw_pile"]]
    assert full["draw_pile"] == truth
    samples = [seat_state(game, 0, s)["fields"] for s in range(5)]
    assert all(s["hands"][0] == full["hands"][0] for s in samples)  # its own hand: kept
    assert any(s["draw_pile"] != truth for s in samples)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_store_keeps_the_newest_snapshot_of_each_table(
    tmp_path: Path, backend: str, request: pytest.FixtureRequest
) -> None:
    from parlor.server.store import Store

    if backend == "sqlite":
        store = Store(f"sqlite:///{tmp_path / 'snap.db'}")
    else:
        store = Store(request.getfixturevalue("postgres_url"))
    store.migrate()
    prefix = f"{backend}-{tmp_path.name}-"[-20:]
    for t in ("t0", "t1"):
        store.create_table(table_row(prefix + t), [])
    game = played(tools.new_game(2, 1), 40)
    t0, t1 = prefix + "t0", prefix + "t1"
    newer, older = snapshots.make(t0, 30, game), snapshots.make(t0, 20, game)
    store.save_snapshots([newer, snapshots.make(t1, 5, game)])
    store.save_snapshots([older])  # (a slower process, later): the newer one stays
    versions = store.snapshot_versions()
    assert (versions[t0], versions[t1]) == (30, 5)
    store.save_snapshots([snapshots.make(t0, 40, game)])
    assert store.snapshot_versions()[t0] == 40
    loaded = store.load(t0)
    assert loaded is not None and loaded[0]["snapshot"]["version"] == 40
    # the table as the rest of the service reads it has no snapshot in it
    assert "snapshot" not in (store.table(t0) or {})
    store.engine.dispose()


def _fields_of(game: Game[Any]) -> dict[str, Any]:
    """The fields ``game`` holds: in its dictionary, and in slots (the property game's)."""
    names = set(getattr(game, "__dict__", {}))
    for klass in type(game).__mro__:
        slots = vars(klass).get("__slots__", ())
        names.update((slots,) if isinstance(slots, str) else slots)
    return {name: getattr(game, name) for name in names if hasattr(game, name)}


@pytest.mark.parametrize(
    "make",
    [
        lambda: monopoly.new_game("classic", 4, 3, {"auctions": False}),
        lambda: monopoly.new_game("matador", 4, 2),
        lambda: tools.new_game(6, 5),
    ],
    ids=["classic", "matador", "tools"],
)
def test_every_field_play_changes_is_in_the_saved_state(make: Callable[[], Game[Any]]) -> None:
    """An engine field missing from ``STATE_FIELDS`` would be lost by a snapshot (the loader's
    digest check would then replay instead): whatever is not listed must be what the settings
    make, the same as in a fresh game, however far the game went (into building shortages)."""
    # (made here, not at collection: the action-space cache the game shares with a fresh one
    # may be emptied by the tests run in between, in another order under pytest-xdist)
    game = make()
    cls = type(game)
    listed = set(cls.STATE_FIELDS)  # type: ignore[attr-defined]
    # (history kept beside the state, on purpose not in a snapshot: a game loaded from one
    # starts it afresh, and its only readers, the bots' tables, then read the lists again)
    listed |= set(getattr(cls, "HISTORY_FIELDS", ()))
    fresh = _fields_of(cls.from_settings(game.settings, game.seed))
    unlisted = [n for n in _fields_of(game) if n not in listed and n != "log"]
    family = games.family(game)
    bots = [make_bot(family, "random", 60 + p) for p in range(game.num_players)]
    while not game.is_over and len(game.log) < 20000:  # (checked after every action)
        p = game.pending.player  # type: ignore[union-attr]
        game.apply(bots[p].choose(game, p))
        state = _fields_of(game)
        for name in unlisted:
            value = state[name]
            assert value is fresh[name] or value == fresh[name], (
                f"{name} changes in play: list it in STATE_FIELDS"
            )
        assert set(state) == set(fresh)  # (no field appears later in play)

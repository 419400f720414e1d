"""Persistence: a real server process killed with SIGKILL and restarted loses nothing it
acknowledged, and its bots and timers run again; saved games in and out; the replay."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import time
from pathlib import Path

from parlor import client, tools
from parlor.bots.registry import make_bot
from tests.server.support import ServerProcess, export, host, patient, run, start


def test_kill_9_mid_game_then_restart(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    srv = ServerProcess(f"sqlite:///{db}", "--bot-delay", "0.02").start()
    try:
        bots = client.create_table(srv.base, seats=["heuristic"] * 4, host_seat=None)
        # (a Monopoly game: a TOOLS game with a random deal ends within Ann's first five answers
        # about once in fifteen, and the game must still be running after the restart; the timer
        # is long enough that its stand-in does not play the whole game meanwhile on a busy machine)
        mixed = client.create_table(srv.base, seats=["human", "heuristic"], timer=3)

        async def before() -> tuple[int, int, object, object]:
            h = await client.Table.connect(srv.base, bots["table"], host_key=bots["host_key"])
            await start(h)
            ann = await host(srv.base, mixed)
            await start(ann)
            acked = 0
            for _ in range(4):
                await ann.wait(lambda t: t.prompt is not None, timeout=30)
                reply = await ann.act(ann.prompt["answers"][0])
                assert reply["type"] == "ack"
                acked = reply["version"]
            await ann.wait(lambda t: t.prompt is not None and t.version >= acked, timeout=30)
            await h.wait(lambda t: t.version >= 20, timeout=30)  # the bot table is well under way
            return acked, h.version, ann.view, ann.prompt

        acked, bots_seen, view, prompt = run(before())
        srv.kill()  # SIGKILL: no shutdown, no flush, nothing
        rows = sqlite3.connect(db).execute(
            "SELECT count(*) FROM parlor_actions WHERE table_id = ?", (mixed["table"],)
        )
        assert rows.fetchone()[0] >= acked
        srv = ServerProcess(f"sqlite:///{db}", "--bot-delay", "0.02", port=srv.port).start()

        async def after() -> None:
            ann = await client.Table.connect(srv.base, mixed["table"], token=mixed["token"])
            # exactly where Ann was: the same version, view and prompt
            assert ann.version >= acked and ann.final is None, "the game ended before the kill"
            # (unless the timer ran out before the kill and a stand-in moved on: then the
            # versions differ, even where the decision looks the same)
            if ann.prompt is not None and ann.version == prompt["version"]:
                assert (ann.view, ann.prompt) == (view, prompt)
            # the turn timer runs again: Ann does nothing and a stand-in answers for her
            v = ann.version
            await ann.wait(lambda t: t.version > v, timeout=20)
            watcher = await client.Table.connect(srv.base, bots["table"], invite=bots["invite"])
            assert watcher.version >= bots_seen
            # the bots run again, to the end of their game
            await watcher.wait(lambda t: t.final is not None, timeout=120)
            for t in (ann, watcher):
                await t.close()

        run(after())
    finally:
        srv.stop()


def test_open_a_saved_game_and_export_it(server: ServerProcess) -> None:
    game = tools.new_game(["Ann", "Bo"], seed=11)
    bots = [make_bot("tools", "heuristic", seed=i) for i in range(2)]
    for _ in range(6):
        p = game.pending.player
        game.apply(bots[p].choose(game, p))
    made = client.create_table(server.base, save=game.to_json(), seats=["human", "heuristic"])

    async def go() -> None:
        ann = await host(server.base, made)
        assert ann.table["seats"][0]["name"] == "Ann"
        await start(ann)
        assert ann.version == len(game.log) and ann.view == game.view(0)
        # a running table is exported to its host only when every other seat is a bot
        save = (await ann.request({"type": "export"}))["save"]
        mine = json.loads(game.to_json())
        assert save["seed"] == mine["seed"] and save["actions"][: len(game.log)] == mine["actions"]
        final = await client.play_table(ann, client.random_policy(2), timeout=120)
        save = await export(ann)
        done = tools.ToolsGame.from_json(json.dumps(save))
        assert done.is_over and list(done.outcome.winners) == final["winners"]
        # the replay, step by step, with every hand shown
        step = await patient(ann, {"type": "replay", "step": 3})
        assert step["total"] == len(done.log) and len(step["views"]) == 2
        assert all("hand" in v for v in step["views"])
        assert step["action"] == save["actions"][2]
        # its events are in the language of whoever asks
        es = await host(server.base, made, lang="es")
        step_es = await es.request({"type": "replay", "step": 3})
        assert [e["kind"] for e in step_es["events"]] == [e["kind"] for e in step["events"]]
        assert [e["text"] for e in step_es["events"]] != [e["text"] for e in step["events"]]
        await es.close()
        bad = await ann.request({"type": "replay", "step": 10**6})
        assert bad["code"] == "bad_request"
        await ann.close()

    run(go())


def test_a_running_table_with_other_people_is_not_exported(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "human"])
    joined = client.join_table(made["link"], "Bo")

    async def go() -> None:
        ann = await host(server.base, made)
        bo = await client.Table.connect(server.base, made["table"], token=joined["token"])
        await start(ann)
        for t in (ann, bo):
            assert (await t.request({"type": "export"}))["code"] == "forbidden"
            assert (await t.request({"type": "replay", "step": 0}))["code"] == "forbidden"
            await t.close()

    run(go())


def test_a_bad_save_is_refused(server: ServerProcess) -> None:
    for save in (
        "{not json",
        json.dumps({"game": "chess"}),
        json.dumps({"game": "tools", "settings": {}, "seed": 1}),
    ):
        try:
            client.create_table(server.base, save=save)
        except client.ServerError as exc:
            assert exc.code == "bad_save"
        else:
            raise AssertionError(f"{save} was accepted")


def test_a_turn_timer_goes_on_after_a_restart_from_where_it_was(tmp_path: Path) -> None:
    """The timer counts from when the decision began (its commit), not from the restart."""
    timer, waited = 10.0, 6.0
    db = tmp_path / "timer.db"
    srv = ServerProcess(f"sqlite:///{db}", "--bot-delay", "0").start()
    try:
        made = client.create_table(
            srv.base, game="tools", seats=["human", "heuristic"], timer=timer
        )

        async def before() -> int:
            ann = await host(srv.base, made)
            await start(ann)
            await ann.wait(lambda t: t.prompt is not None, timeout=30)
            shown = time.monotonic()
            version = ann.version
            while time.monotonic() - shown < waited:  # Ann thinks: most of her time goes by
                await asyncio.sleep(0.1)
            await ann.close()
            return version

        version = run(before())
        srv.kill()
        committed = sqlite3.connect(db).execute(
            "SELECT count(*) FROM parlor_actions WHERE table_id = ?", (made["table"],)
        )
        assert committed.fetchone()[0] == version  # her timer had not run out before the kill
        srv = ServerProcess(f"sqlite:///{db}", "--bot-delay", "0", port=srv.port).start()
        back = time.monotonic()

        async def after() -> float:
            watcher = await client.Table.connect(srv.base, made["table"], invite=made["invite"])
            await watcher.wait(lambda t: t.version > version, timeout=60)
            took = time.monotonic() - back
            await watcher.close()
            return took

        # a stand-in answered once the rest of her 10 s ran out (about 4 s less the restart);
        # a timer started again from zero would wait 10 s after the restart
        assert run(after()) < timer - 3
    finally:
        srv.stop()


def test_search_workers_end_with_a_killed_server(tmp_path: Path) -> None:
    srv = ServerProcess(f"sqlite:///{tmp_path / 'w.db'}").start()
    try:
        made = client.create_table(srv.base, game="tools", seats=["human", "search:50"])

        assert srv.proc is not None
        pid = srv.proc.pid

        def children() -> list[int]:
            return [
                int(c)
                for task in Path(f"/proc/{pid}/task").iterdir()
                for c in (task / "children").read_text().split()
            ]

        async def until_the_bot_thought() -> list[int]:  # its worker pool starts on its first turn
            ann = await host(srv.base, made)
            await start(ann)
            deadline = time.monotonic() + 60
            while not (found := children()) and ann.final is None:
                assert time.monotonic() < deadline, "the search bot never started thinking"
                if ann.prompt is not None:
                    await ann.act(ann.prompt["answers"][0])  # (a stale one is refused, no harm)
                version = ann.version
                with contextlib.suppress(TimeoutError):  # (websockets' recv is safe to cancel)
                    await ann.wait(lambda t, v=version: t.version > v, timeout=0.5)
            await ann.close()
            return found

        workers = run(until_the_bot_thought())
        assert workers, "no worker process"
        srv.kill()

        def running(pid: int) -> bool:  # (a zombie nobody reaps has ended all the same)
            try:
                return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
            except OSError:
                return False

        deadline = time.time() + 30
        while any(map(running, workers)) and time.time() < deadline:
            time.sleep(0.2)
        assert not [w for w in workers if running(w)], "worker processes outlived their server"
    finally:
        srv.stop()


def test_bots_go_on_after_the_database_failed_for_a_while(tmp_path: Path) -> None:
    """Another program holds the SQLite write lock longer than the server's busy timeout (10 s):
    the bots' commits fail meanwhile, and the table goes on once the lock is released."""
    db = tmp_path / "locked.db"
    srv = ServerProcess(f"sqlite:///{db}", "--bot-delay", "0.05").start()
    try:
        bots = client.create_table(srv.base, seats=["heuristic"] * 4, host_seat=None)

        async def go() -> None:
            h = await client.Table.connect(srv.base, bots["table"], host_key=bots["host_key"])
            await start(h)
            await h.wait(lambda t: t.version >= 5, timeout=60)
            blocker = sqlite3.connect(db, timeout=30, isolation_level=None)
            blocker.execute("BEGIN EXCLUSIVE")
            try:
                await asyncio.sleep(13)
                held = h.version
            finally:
                blocker.execute("ROLLBACK")
                blocker.close()
            await h.wait(lambda t: t.version >= held + 10 or t.final is not None, timeout=60)
            await h.close()

        run(go())
        assert any("trying again" in line for line in srv.output)
    finally:
        srv.stop()

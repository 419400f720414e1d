"""Dice and decks anyone can verify (docs/server.md): the commitment published at creation, the
nonces the seats add, no frame holding the seed, the salt or the derived seed before the end, and
``parlor verify`` accepting an untouched export and naming what was changed in a tampered one."""

from __future__ import annotations

import asyncio
import copy
import json
import subprocess
import sys
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from parlor import client, tools
from parlor.cli import main as parlor_main
from parlor.core import fairness
from parlor.core.errors import ReplayError
from tests.server.support import ServerProcess, export, host, run, seat, start


def lobby(base: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(base + "/api/lobby", timeout=10) as resp:
        return list(json.loads(resp.read())["tables"])


def draws_first(seed: int) -> client.Policy:
    """Random answers, except that the seat draws a card the first time it may (so that every
    game has a draw to tamper with, whatever the dealt hands)."""
    pick = client.random_policy(seed)
    drawn = False

    def choose(table: client.Table) -> Any:
        nonlocal drawn
        assert table.prompt is not None
        draw = [a for a in table.prompt["answers"] if a["action"]["type"] == "Draw"]
        if draw and not drawn:
            drawn = True
            return draw[0]
        return pick(table)

    return choose


async def finished_game(
    server: ServerProcess,
    request: dict[str, Any],
    humans: int,
    policy: Callable[[int], client.Policy] = client.random_policy,
) -> tuple[dict[str, Any], list[client.Table], dict[str, Any]]:
    """A game to its end by ``humans`` people (answers by ``policy(seed)``, random by default)
    and a spectator, every frame kept; (creation answer, the connections, the export after the
    end)."""
    made = client.create_table(server.base, listed=True, **request)
    commitment = made["fairness"]["commitment"]
    entry = next(t for t in lobby(server.base) if t["table"] == made["table"])
    assert entry["fairness"] == {"scheme": fairness.SCHEME, "commitment": commitment}
    people = [await host(server.base, made)]
    for i in range(1, humans):
        people.append(await seat(server.base, made, f"P{i}"))
    watcher = await client.Table.connect(server.base, made["table"], invite=made["invite"])
    for t in [*people, watcher]:  # every first frame carries the commitment
        assert t.frames[0]["type"] == "welcome"
        assert t.frames[0]["table"]["fairness"]["commitment"] == commitment
    for t in people:
        assert t.nonce is not None and t.you["nonce"] == t.nonce
    await start(people[0])
    await asyncio.gather(
        *(client.play_table(t, policy(7 + i), timeout=300) for i, t in enumerate(people))
    )
    await watcher.wait(lambda t: t.final is not None, timeout=60)
    save = await export(people[0])
    return made, [*people, watcher], save


def assert_secret_until_the_end(tables: list[client.Table], save: dict[str, Any]) -> int:
    """No frame received before the export holds the committed seed, the salt or the game's
    seed (as a number, as text, or the salt's hex), nor a key naming them."""
    fair = save["fairness"]
    needles = [str(fair["seed"]), fair["salt"], str(save["seed"])]
    scanned = 0
    for t in tables:
        for frame in t.frames:
            if frame.get("type") == "export":
                continue
            text = json.dumps(frame)
            for needle in needles:
                assert needle not in text, f"{needle} in a {frame['type']} frame"
            for key in ("seed", "salt", "nonces", "committed_seed"):
                assert f'"{key}"' not in text, f"{key} in a {frame['type']} frame"
            scanned += 1
    return scanned


def verify(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    code = parlor_main(["verify", str(path), *extra])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_a_tools_game_verifies_and_every_change_is_named(
    server: ServerProcess,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(client.Table, "keep_frames", True)

    async def go() -> tuple[dict[str, Any], list[client.Table], dict[str, Any]]:
        made, tables, save = await finished_game(
            server,
            {
                "game": "tools",
                "seats": ["human", "human"],
                # a seat may draw with a valid play in hand: both draw at their first turn
                "options": {"hand_size": 5, "may_draw_when_able": True},
            },
            2,
            draws_first,
        )
        for t in tables:
            await t.close()
        return made, tables, save

    made, tables, save = run(go())
    fair = save["fairness"]
    assert fair["commitment"] == made["fairness"]["commitment"]
    assert fair["nonces"] == [tables[0].nonce, tables[1].nonce]
    assert save["seed"] == fairness.derive_seed(
        fair["seed"], bytes.fromhex(fair["salt"]), fair["nonces"]
    )
    assert assert_secret_until_the_end(tables, save) > 20
    # what each seat's client checks without the engine (the browser does the same)
    for p in (0, 1):
        fairness.check_reveal(save, made["fairness"]["commitment"], p, tables[p].nonce)
    with pytest.raises(ReplayError, match="nonce"):
        fairness.check_reveal(save, made["fairness"]["commitment"], 0, "ab" * 16)

    good = tmp_path / "good.json"
    good.write_text(json.dumps(save))
    # the real command, in a process of its own: exit 0 and a summary
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "parlor.cli",
            "verify",
            str(good),
            "--commitment",
            fair["commitment"],
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Verified" in done.stdout and fair["commitment"] in done.stdout
    assert "cards came from the committed" in done.stdout

    def tampered(name: str, change: Any) -> tuple[int, str]:
        data = copy.deepcopy(save)
        change(data)
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(data))
        return verify(path, capsys)

    drew = next(i for i, c in enumerate(fair["chance"]) if c["kind"] == "drew")

    def one_card(d: dict[str, Any]) -> None:
        cards = d["fairness"]["chance"][drew]["cards"]
        cards[0] = "toolbox" if cards[0] != "toolbox" else "paint_brush"

    code, said = tampered("card", one_card)
    assert code == 1 and f"action {fair['chance'][drew]['action']}" in said and "cards seat" in said

    def dealt(d: dict[str, Any]) -> None:
        d["fairness"]["chance"][0]["cards"][0] = "wild_hammer"

    code, said = tampered("deal", dealt)
    assert code == 1 and "the setup" in said

    code, said = tampered("seed", lambda d: d["fairness"].update(seed=d["fairness"]["seed"] ^ 1))
    assert code == 1 and "do not give the commitment" in said

    def salt(d: dict[str, Any]) -> None:
        s = d["fairness"]["salt"]
        d["fairness"]["salt"] = ("1" if s[0] != "1" else "2") + s[1:]

    code, said = tampered("salt", salt)
    assert code == 1 and "do not give the commitment" in said

    def nonce(d: dict[str, Any]) -> None:
        d["fairness"]["nonces"][1] = "00" * 16

    code, said = tampered("nonce", nonce)
    assert code == 1 and "nonces give" in said

    code, said = verify(good, capsys, "--commitment", "0" * 64)
    assert code == 1 and "not the one shown when you joined" in said
    code, said = verify(good, capsys)
    assert code == 0, said


def test_a_property_game_verifies_and_a_changed_die_is_named(
    server: ServerProcess,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(client.Table, "keep_frames", True)

    async def go() -> tuple[dict[str, Any], list[client.Table], dict[str, Any]]:
        request = {"edition": "classic", "seats": ["human", "heuristic"]}
        request["options"] = {"time_limit_rounds": 3}
        made, tables, save = await finished_game(server, request, 1)
        for t in tables:
            await t.close()
        return made, tables, save

    _, tables, save = run(go())
    fair = save["fairness"]
    assert fair["nonces"] == [tables[0].nonce, ""]  # (the bot's seat adds none)
    assert assert_secret_until_the_end(tables, save) > 5
    good = tmp_path / "good.json"
    good.write_text(json.dumps(save))
    code, said = verify(good, capsys)
    assert code == 0, said
    dice = [i for i, c in enumerate(fair["chance"]) if c["kind"] == "dice"]
    assert len(dice) >= 4
    data = copy.deepcopy(save)
    entry = data["fairness"]["chance"][dice[2]]
    entry["dice"][1] = entry["dice"][1] % 6 + 1
    bad = tmp_path / "die.json"
    bad.write_text(json.dumps(data))
    code, said = verify(bad, capsys)
    assert code == 1
    assert f"action {entry['action']}" in said and "dice" in said, said


def test_nonces_are_strict_and_the_first_one_counts(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "human"])

    async def hello(nonce: Any) -> dict[str, Any]:
        from websockets.asyncio.client import connect

        async with connect(client.ws_url(server.base)) as ws:
            msg = {"type": "hello", "table": made["table"], "token": made["token"], "nonce": nonce}
            await ws.send(json.dumps(msg))
            return dict(json.loads(await ws.recv()))

    async def go() -> None:
        # a nonce is 16 to 64 lowercase hex digits, an even count: nothing else is taken
        for bad in (
            5,
            1.5,
            True,
            None,
            "ABCDEF0123456789",
            "abc",
            "ab" * 33,
            "0123456789abcde",
            ["ab" * 8],
        ):
            frame = await hello(bad)
            if bad is None:  # (no nonce at all: an ordinary hello)
                assert frame["type"] == "welcome" and frame["you"]["nonce"] is None
            else:
                assert (frame["type"], frame["code"]) == ("error", "bad_request"), bad
        first = await host(server.base, made, nonce="12" * 8)
        assert first.you["nonce"] == "12" * 8
        await first.close()
        again = await host(server.base, made, nonce="34" * 8)  # a reconnection changes nothing
        assert again.you["nonce"] == "12" * 8
        other = await seat(server.base, made, "B", nonce=False)
        assert other.you["nonce"] is None
        await start(again)
        for t in (again, other):
            await t.close()

    run(go())


def test_two_processes_derive_the_seed_from_a_nonce_given_to_the_other(postgres_url: str) -> None:
    """Bo gives his nonce through process B; Ann starts the table on process A at once: the seed
    is derived from both nonces, and the export from either process verifies."""
    a = ServerProcess(postgres_url, "--bot-delay", "0").start()
    b = ServerProcess(postgres_url, "--bot-delay", "0").start()
    try:
        made = client.create_table(a.base, game="tools", seats=["human", "human"])
        bo_seat = client.join_table(made["link"].replace(a.base, b.base), "Bo")
        assert bo_seat["fairness"] == made["fairness"]

        async def go() -> list[dict[str, Any]]:
            ann = await host(a.base, made)
            bo = await client.Table.connect(b.base, made["table"], token=bo_seat["token"])
            await start(ann)  # (no wait: A has not heard of Bo's nonce from B yet)
            await bo.wait(lambda t: t.view is not None, timeout=30)
            await asyncio.gather(
                client.play_table(ann, client.random_policy(1), timeout=180),
                client.play_table(bo, client.random_policy(2), timeout=180),
            )
            saves = [await export(t) for t in (ann, bo)]
            assert saves[0]["fairness"]["nonces"] == [ann.nonce, bo.nonce]
            for t in (ann, bo):
                await t.close()
            return saves

        saves = run(go())
        assert saves[0] == saves[1]
        summary = fairness.verify_save(saves[1], [tools.ToolsGame])
        assert summary["nonces"] == 2 and summary["commitment"] == made["fairness"]["commitment"]
    finally:
        a.stop()
        b.stop()


def test_the_commitment_and_the_nonces_outlive_a_kill_9(tmp_path: Path) -> None:
    """Killed after the start and restarted, the server reveals the same commitment, seed, salt
    and nonces: the export still verifies."""
    db = tmp_path / "crash.db"
    srv = ServerProcess(f"sqlite:///{db}", "--bot-delay", "0").start()
    try:
        made = client.create_table(srv.base, game="tools", seats=["human", "heuristic"])

        async def before() -> str | None:
            ann = await host(srv.base, made)
            await start(ann)
            await ann.close()
            return ann.nonce

        nonce = run(before())
        srv.kill()
        srv = ServerProcess(f"sqlite:///{db}", "--bot-delay", "0", port=srv.port).start()

        async def after() -> dict[str, Any]:
            ann = await host(srv.base, made, nonce="ab" * 16)  # (too late to count)
            assert ann.table["fairness"] == made["fairness"] and ann.you["nonce"] == nonce
            await client.play_table(ann, client.random_policy(3), timeout=120)
            save = await export(ann)
            await ann.close()
            return dict(save)

        save = run(after())
        assert save["fairness"]["nonces"] == [nonce, ""]
        assert fairness.verify_save(save, [tools.ToolsGame])["nonces"] == 1
    finally:
        srv.stop()

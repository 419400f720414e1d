"""The play loop over real WebSockets: whole games, errors to the sender alone, any-time actions
and trades, events in words, spectators."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from parlor import client
from parlor.monopoly.edition import load_edition
from tests.server.support import ServerProcess, host, run, seat, start


async def play_all(tables: list[client.Table], seed: int = 0) -> list[dict[str, Any]]:
    return list(
        await asyncio.gather(
            *(
                client.play_table(t, client.random_policy(seed + i), timeout=120)
                for i, t in enumerate(tables)
            )
        )
    )


@pytest.mark.parametrize("edition", ["classic", "matco", "latam", "matador"])
def test_a_whole_property_game_with_people_and_bots(server: ServerProcess, edition: str) -> None:
    made = client.create_table(
        server.base,
        edition=edition,
        variant="short",
        seats=["human", "human", "heuristic", "random"],
        # short games among random players run from 200 to over 20,000 actions: bounded here
        options={"time_limit_rounds": 40},
    )

    async def go() -> None:
        ann = await host(server.base, made)
        bo = await seat(server.base, made, "Bo")
        watcher = await client.Table.connect(server.base, made["table"], invite=made["invite"])
        await start(ann)
        finals = await play_all([ann, bo])
        await watcher.wait(lambda t: t.final is not None, timeout=60)
        assert finals[0] == finals[1] == watcher.final
        final = finals[0]
        assert sorted(final["ranking"]) == [0, 1, 2, 3] and final["score_kind"] == "valuation"
        assert watcher.table["status"] == "over" or watcher.view["outcome"] is not None
        # events come in words, in every frame, for people and spectators alike
        assert watcher.events and all(e["text"] for e in watcher.events)
        assert any(e["kind"] == "dice" for e in watcher.events)
        reply = await bo.request(
            {"type": "action", "version": bo.version, "action": {"type": "RollDice", "player": 1}}
        )
        assert reply["code"] == "not_running"
        for t in (ann, bo, watcher):
            await t.close()

    run(go())


def test_a_whole_tools_game_with_people_and_a_bot(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "human", "heuristic"])

    async def go() -> None:
        ann = await host(server.base, made)
        bo = await seat(server.base, made, "Bo")
        await start(ann)
        assert len(ann.view["hand"]) == 7 and ann.view["hand_sizes"] == [7, 7, 7]
        finals = await play_all([ann, bo], seed=5)
        assert finals[0]["score_kind"] == "cards_left" and finals[0] == finals[1]
        for t in (ann, bo):
            await t.close()

    run(go())


def test_errors_go_to_the_sender_alone_and_change_nothing(server: ServerProcess) -> None:
    made = client.create_table(
        server.base, seats=["human", "human"], options={"roll_for_first_player": False}
    )

    async def go() -> None:
        ann = await host(server.base, made)
        bo = await seat(server.base, made, "Bo")
        await start(ann)
        await bo.wait(lambda t: t.view is not None)
        assert ann.prompt is not None and ann.prompt["decision"]["kind"] == "start_turn"
        assert bo.prompt is None
        v = ann.version
        cases = [
            (
                {"type": "action", "version": v + 3, "action": {"type": "RollDice", "player": 0}},
                "stale",
            ),
            (
                {"type": "action", "version": v, "action": {"type": "EndTurn", "player": 0}},
                "illegal",
            ),
            (
                {"type": "action", "version": v, "action": {"type": "Teleport", "player": 0}},
                "malformed_action",
            ),
            (
                {"type": "action", "version": v, "action": {"type": "RollDice", "player": 1}},
                "not_your_seat",
            ),
            (
                {"type": "action", "version": v, "action": {"type": "RollDice", "player": True}},
                "not_your_seat",
            ),
            ({"type": "action", "version": v, "action": "RollDice"}, "malformed_action"),
            ({"type": "action", "version": v, "id": 10**9}, "illegal"),
            ({"type": "action", "version": "7", "id": 0}, "bad_request"),
            ({"type": "action", "id": 0}, "bad_request"),
        ]
        for frame, code in cases:
            reply = await ann.request(frame)
            assert reply["type"] == "error" and reply["code"] == code, (frame, reply)
        assert ann.version == v and ann.prompt["decision"]["kind"] == "start_turn"
        # Bo was told nothing of Ann's mistakes
        reply = await bo.request({"type": "ping"})
        assert reply["type"] == "pong" and not bo.errors
        # the integer id of a legal answer works as well as its JSON
        roll = ann.prompt["answers"][0]
        assert roll["action"]["type"] == "RollDice" and roll["id"] is not None
        reply = await ann.request({"type": "action", "version": v, "id": roll["id"]})
        assert reply == {"type": "ack", "ref": reply["ref"], "version": v + 1}
        # replaying the same (now stale) message is refused
        again = await ann.request({"type": "action", "version": v, "id": roll["id"]})
        assert again["code"] == "stale"
        await bo.wait(lambda t: t.version == v + 1)
        for t in (ann, bo):
            await t.close()

    run(go())


def test_any_time_actions_and_a_trade_with_its_terms_revision(server: ServerProcess) -> None:
    made = client.create_table(
        server.base,
        seats=["human", "human"],
        options={"roll_for_first_player": False, "starting_deeds": 2},
    )

    async def go() -> None:
        ann = await host(server.base, made)
        bo = await seat(server.base, made, "Bo")
        await start(ann)
        await bo.wait(lambda t: t.view is not None)
        assert ann.prompt is not None and bo.prompt is None  # Ann's turn
        legal = await bo.request({"type": "legal"})
        mortgages = [a for a in legal["actions"] if a["action"]["type"] == "Mortgage"]
        assert mortgages and all(a["action"]["player"] == 1 for a in legal["actions"])
        # what the rules refuse on Bo's own deeds comes with the engine's reason, and only that
        refused = legal["refused"]
        assert all(r["action"]["player"] == 1 and r["reason"] for r in refused)
        allowed = [a["action"] for a in legal["actions"]]
        assert not [r for r in refused if r["action"] in allowed]
        # the page's smaller ask: the same, without the trade proposals (docs/server.md)
        slim = await bo.request({"type": "legal", "trades": False})
        assert any(a["action"]["type"] == "ProposeTrade" for a in legal["actions"])
        assert slim["actions"] == [
            a for a in legal["actions"] if a["action"]["type"] != "ProposeTrade"
        ]
        assert slim["refused"] == refused
        mine = [p["square"] for p in bo.view["properties"] if p["owner"] == 1]
        builds = {
            r["action"]["square"]: r["reason"] for r in refused if r["action"]["type"] == "Build"
        }
        streets = {q for q in mine if load_edition("classic").squares[q].kind == "street"}
        buildable = {a["square"] for a in allowed if a["type"] == "Build"}
        assert set(builds) == streets - buildable  # every street: built on, or told why not
        assert all("colour group" in why or "mortgage" in why for why in builds.values()), builds
        reply = await bo.act(mortgages[0])
        assert reply["type"] == "ack", reply
        square = mortgages[0]["action"]["square"]
        await ann.wait(lambda t: t.version == reply["version"])
        assert any(p["square"] == square and p["mortgaged"] for p in ann.view["properties"])
        assert "mortgage" in ann.events[-1]["text"].lower()
        # Bo offers Ann cash for one of her deeds: Ann is asked, with the terms' revision
        ann_square = next(p["square"] for p in ann.view["properties"] if p["owner"] == 0)
        offer = {
            "type": "ProposeTrade",
            "player": 1,
            "to": 0,
            "give_squares": [],
            "take_squares": [ann_square],
            "give_cash": 50,
            "take_cash": 0,
            "give_jail_cards": 0,
            "take_jail_cards": 0,
        }
        reply = await bo.request({"type": "action", "version": bo.version, "action": offer})
        assert reply["type"] == "ack", reply
        await ann.wait(
            lambda t: t.prompt is not None and t.prompt["decision"]["kind"] == "answer_trade"
        )
        terms = ann.prompt["terms_revision"]
        accept = next(a for a in ann.prompt["answers"] if a["action"]["type"] == "AcceptTrade")
        wrong = await ann.request(
            {
                "type": "action",
                "version": ann.version,
                "action": accept["action"],
                "terms_revision": terms - 1,
            }
        )
        assert wrong["code"] == "stale"
        missing = await ann.request(
            {"type": "action", "version": ann.version, "action": accept["action"]}
        )
        assert missing["code"] == "stale"
        ok = await ann.act(accept)
        assert ok["type"] == "ack", ok
        await bo.wait(lambda t: t.version == ok["version"])
        assert any(p["square"] == ann_square and p["owner"] == 1 for p in bo.view["properties"])
        for t in (ann, bo):
            await t.close()

    run(go())


def test_a_search_bot_plays_off_the_event_loop(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "search:200"])

    async def go() -> None:
        ann = await host(server.base, made)
        watcher = await client.Table.connect(server.base, made["table"], invite=made["invite"])
        await start(ann)
        waits: list[float] = []

        async def ping_while_playing() -> None:
            loop = asyncio.get_running_loop()
            while ann.final is None:
                t0 = loop.time()
                reply = await watcher.request({"type": "ping"}, timeout=10)
                assert reply["type"] == "pong"
                waits.append(loop.time() - t0)
                await asyncio.sleep(0.02)

        # the watcher pings all along while the search bot thinks: the server keeps answering
        pinger = asyncio.ensure_future(ping_while_playing())
        final = await client.play_table(ann, client.random_policy(7), timeout=120)
        await pinger
        assert final["winners"] and ann.table["seats"][1]["bot"] == "search"
        assert len(waits) > 5
        # it thought in a worker process of the server's own, not on the server's interpreter
        assert server.proc is not None
        children = [
            c
            for task in Path(f"/proc/{server.proc.pid}/task").iterdir()
            for c in (task / "children").read_text().split()
        ]
        assert children, "no worker process"
        for t in (ann, watcher):
            await t.close()

    run(go())

"""Host controls, the turn timer, disconnects with a stand-in, chat and reconnection."""

from __future__ import annotations

import asyncio

import pytest
from websockets.exceptions import ConnectionClosed

from parlor import client
from tests.server.support import ServerProcess, host, run, start


def test_pause_resume_kick_and_change_a_bot(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "human", "random"])
    joined = client.join_table(made["link"], "Bo")

    async def go() -> None:
        ann = await host(server.base, made)
        bo = await client.Table.connect(server.base, made["table"], token=joined["token"])
        bo.keep_frames = True
        assert (await bo.request({"type": "pause"}))["code"] == "not_host"
        await start(ann)
        assert (await ann.request({"type": "pause"}))["type"] == "ack"
        await ann.wait(lambda t: t.table["status"] == "paused")
        v = ann.version
        reply = await ann.act(ann.prompt["answers"][0])
        assert reply["code"] == "paused" and ann.version == v
        assert (await ann.request({"type": "set_bot", "seat": 2, "bot": "heuristic"}))[
            "type"
        ] == "ack"
        await ann.wait(lambda t: t.table["seats"][2]["bot"] == "heuristic")
        bad = await ann.request({"type": "set_bot", "seat": 1, "bot": "heuristic"})
        assert bad["code"] == "bad_request"  # a person's seat is not a bot's to change
        assert (await ann.request({"type": "resume"}))["type"] == "ack"
        # Bo is kicked: he is told, his connection closes, a bot takes his seat to the end
        assert (await ann.request({"type": "kick", "seat": 1}))["type"] == "ack"
        with pytest.raises(ConnectionClosed):
            await bo.wait(lambda t: False, timeout=10)
        assert any(f["type"] == "notice" and f["kind"] == "kicked" for f in bo.frames)
        final = await client.play_table(ann, client.random_policy(3), timeout=120)
        assert final["winners"]
        assert ann.table["seats"][1]["kind"] == "bot"
        await ann.close()
        with pytest.raises(client.ServerError) as gone:
            await client.Table.connect(server.base, made["table"], token=joined["token"])
        assert gone.value.code == "bad_token"

    run(go())


def test_the_turn_timer_lets_a_stand_in_answer(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "heuristic"], timer=0.3)

    async def go() -> None:
        ann = await host(server.base, made)
        ann.keep_frames = True
        await start(ann)
        v = ann.version
        # Ann does not answer: the stand-in does, the table is told, and the game goes on
        await ann.wait(lambda t: t.version > v + 1, timeout=10)
        notices = [f for f in ann.frames if f["type"] == "notice" and f["kind"] == "timeout"]
        assert notices and notices[0]["seat"] == 0
        await ann.close()

    run(go())


def test_frames_count_down_the_timer_of_the_person_deciding(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "heuristic"], timer=60)
    untimed = client.create_table(server.base, game="tools", seats=["human", "heuristic"])

    async def go() -> None:
        ann = await host(server.base, made)
        ann.keep_frames = True
        await start(ann)
        await ann.wait(lambda t: t.prompt is not None)
        mine = [f for f in ann.frames if f["type"] == "update" and f.get("prompt")]
        first = mine[-1]["timer_left"]
        assert 0 < first <= 60
        # coming back gets what is left of the same timer, not a fresh one
        await asyncio.sleep(0.3)
        again = await host(server.base, made)
        assert again.prompt is not None and again.version == ann.version
        welcome_left = again.timer_left
        assert welcome_left is not None and welcome_left < first
        other = await host(server.base, untimed)
        await start(other)
        assert other.timer_left is None
        for t in (ann, again, other):
            await t.close()

    run(go())


def test_a_disconnected_seat_is_played_after_the_grace_period_until_it_returns(
    server: ServerProcess,
) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "human"], grace=0.3)
    joined = client.join_table(made["link"], "Bo")

    async def go() -> None:
        ann = await host(server.base, made)
        bo = await client.Table.connect(server.base, made["table"], token=joined["token"])
        await start(ann)
        await bo.wait(lambda t: t.view is not None)
        # Ann leaves in the middle of her decision; within the grace period nothing moves
        v = ann.version
        await ann.close()
        await asyncio.sleep(0.1)
        reply = await bo.request({"type": "ping"})
        assert reply["type"] == "pong" and bo.version == v
        await bo.wait(lambda t: t.table["seats"][0]["away"], timeout=10)
        # a stand-in now plays Ann's seat whenever it is hers to decide
        await bo.wait(lambda t: t.version > v, timeout=10)
        back = await client.Table.connect(server.base, made["table"], token=made["token"])
        assert back.you["seat"] == 0
        await bo.wait(lambda t: not t.table["seats"][0]["away"], timeout=10)
        # back home, nobody answers for her any more
        final = await asyncio.gather(
            client.play_table(back, client.random_policy(1), timeout=120),
            client.play_table(bo, client.random_policy(2), timeout=120),
        )
        assert final[0] == final[1]
        for t in (back, bo):
            await t.close()

    run(go())


def test_reconnecting_restores_the_exact_prompt(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "heuristic", "heuristic"])

    async def go() -> None:
        ann = await host(server.base, made)
        await start(ann)
        for _ in range(3):  # a few turns in, mid-decision
            await ann.act(ann.prompt["answers"][0])
            await ann.wait(lambda t: t.prompt is not None or t.final is not None, timeout=30)
            if ann.final is not None:
                break
        before = (ann.version, ann.view, ann.prompt)
        await ann.close()
        again = await client.Table.connect(server.base, made["table"], token=made["token"])
        assert (again.version, again.view, again.prompt) == before
        await again.close()

    run(go())


def test_chat_is_plain_text_limited_stored_and_rate_limited(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "human"])
    joined = client.join_table(made["link"], "Bo")

    async def go() -> None:
        ann = await host(server.base, made)
        bo = await client.Table.connect(server.base, made["table"], token=joined["token"])
        watcher = await client.Table.connect(server.base, made["table"], invite=made["invite"])
        markup = "<script>alert('x')</script> & <b>hi</b>"
        assert (await ann.request({"type": "chat", "text": markup}))["type"] == "ack"
        await bo.wait(lambda t: bool(t.chat))
        assert (
            bo.chat[-1]["text"] == markup and bo.chat[-1]["name"] == ann.table["seats"][0]["name"]
        )
        await watcher.wait(lambda t: bool(t.chat))
        assert (await watcher.request({"type": "chat", "text": "hello"}))["code"] == "not_your_seat"
        assert (await bo.request({"type": "chat", "text": "x" * 501}))["code"] == "chat_too_long"
        assert (await bo.request({"type": "chat", "text": "\x00\x07  "}))["code"] == "bad_request"
        codes = [
            (await bo.request({"type": "chat", "text": f"spam {i}"})).get("code") for i in range(8)
        ]
        assert codes[:5] == [None] * 5 and "rate_limited" in codes
        # stored: a newcomer sees the history
        late = await client.Table.connect(server.base, made["table"], invite=made["invite"])
        assert [m["text"] for m in late.chat][:2] == [markup, "spam 0"]
        for t in (ann, bo, watcher, late):
            await t.close()

    run(go())

"""Bad and hostile input: each gets a clear error frame, changes nothing, and other tables go on."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from parlor import client
from parlor.server.protocol import RefusalCount
from tests.server.support import ServerProcess, host, run, start


async def frames_after(ws: Any, text: str | bytes, count: int = 1) -> list[dict[str, Any]]:
    await ws.send(text)
    return [json.loads(await asyncio.wait_for(ws.recv(), 10)) for _ in range(count)]


def test_garbage_before_and_after_hello(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "human"])
    url = client.ws_url(server.base)

    async def go() -> None:
        async with connect(url) as ws:
            cases = [
                ("{nope", "bad_json"),
                ("[1, 2]", "bad_request"),
                ('"hello"', "bad_request"),
                ('{"type": 7}', "bad_request"),
                ('{"type": "launch_missiles"}', "unknown_type"),
                ('{"type": "action", "version": 0, "id": 1}', "bad_request"),  # before hello
                ("x" * 20_000, "too_large"),
                ('{"type": "hello", "protocol": 99}', "protocol"),
            ]
            for text, code in cases:
                (reply,) = await frames_after(ws, text)
                assert reply["type"] == "error" and reply["code"] == code, (text, reply)
            with pytest.raises(ConnectionClosed):  # a protocol mismatch closes the connection
                await asyncio.wait_for(ws.recv(), 10)
        async with connect(url) as ws:
            (welcome,) = await frames_after(
                ws, json.dumps({"type": "hello", "table": made["table"], "token": made["token"]})
            )
            assert welcome["type"] == "welcome"
            (reply,) = await frames_after(
                ws, json.dumps({"type": "hello", "table": made["table"], "token": made["token"]})
            )
            assert reply["code"] == "unknown_type"  # hello twice
            for bad in (
                {"type": "kick", "seat": "all"},
                {"type": "kick", "seat": 99},
                {"type": "set_bot", "seat": 1, "bot": "oracle"},
            ):
                (reply,) = await frames_after(ws, json.dumps(bad))
                assert reply["type"] == "error", bad
            (reply,) = await frames_after(ws, b'{"type": "ping"}')  # binary, not text
            assert reply["code"] == "bad_request"
        # a frame past the transport limit: the WebSocket layer closes the connection (1009)
        async with connect(url, max_size=None) as ws:
            with pytest.raises(ConnectionClosed) as closed:  # during the send or just after
                await ws.send("x" * (2 * 1024 * 1024))
                await asyncio.wait_for(ws.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009

    run(go())


def test_bad_tokens_are_refused_and_close(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "human"])
    url = client.ws_url(server.base)

    async def go() -> None:
        for hello in (
            {"type": "hello"},
            {"type": "hello", "table": made["table"], "token": 12},
            {"type": "hello", "table": made["table"], "token": "x" * 5000},
            {"type": "hello", "table": ["x"], "token": made["token"]},
            {"type": "hello", "table": made["table"], "invite": "guess"},
            {"type": "hello", "table": made["table"], "host_key": made["invite"]},
        ):
            async with connect(url) as ws:
                (reply,) = await frames_after(ws, json.dumps(hello))
                # a field of the wrong type or size is refused by its type (bad_request)
                codes = ("bad_token", "bad_invite", "bad_request")
                assert reply["type"] == "error" and reply["code"] in codes, hello
                if reply["code"] != "bad_invite":
                    with pytest.raises(ConnectionClosed):
                        await asyncio.wait_for(ws.recv(), 10)

    run(go())


def test_cross_origin_websockets_are_refused(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "human"])
    url = client.ws_url(server.base)
    hello = json.dumps({"type": "hello", "table": made["table"], "token": made["token"]})

    async def go() -> None:
        async with connect(url, origin="http://evil.example") as ws:  # type: ignore[arg-type]
            reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert reply["code"] == "origin"
            with pytest.raises(ConnectionClosed):
                await ws.send(hello)
                await asyncio.wait_for(ws.recv(), 10)
        async with connect(url, origin=server.base) as ws:  # type: ignore[arg-type]
            (welcome,) = await frames_after(ws, hello)
            assert welcome["type"] == "welcome"

    run(go())


def paced(policy: client.Policy, gap: float) -> Callable[[client.Table], Awaitable[Any]]:
    """``policy``, answering at most once every ``gap`` seconds. At bot delay 0 a seat answering
    at once sends more than 20 messages a second in the busy stretches of a game: refused for
    it, and its connection closed at the 50th refusal (a long game got there)."""
    last = 0.0

    async def choose(table: client.Table) -> Any:
        nonlocal last
        loop = asyncio.get_running_loop()
        if (wait := last + gap - loop.time()) > 0:
            await asyncio.sleep(wait)  # (nothing moves meanwhile: the table waits for this seat)
        last = loop.time()
        return policy(table)

    return choose


def test_floods_are_limited_per_connection_and_other_tables_go_on(fresh_server) -> None:  # type: ignore[no-untyped-def]
    server = fresh_server()  # the default limits: 20 messages a second per connection
    made = client.create_table(server.base, game="tools", seats=["human", "human"])
    busy = client.create_table(server.base, seats=["human", "heuristic", "heuristic", "heuristic"])
    url = client.ws_url(server.base)

    async def flood() -> list[str]:
        codes = []
        async with connect(url) as ws:
            await ws.send(
                json.dumps({"type": "hello", "table": made["table"], "token": made["token"]})
            )
            await ws.recv()
            try:
                for _ in range(300):
                    await ws.send('{"type": "ping"}')
                async for text in ws:
                    frame = json.loads(text)
                    codes.append(frame.get("code") or frame["type"])
            except ConnectionClosed:
                pass
        return codes

    async def go() -> None:
        ann = await host(server.base, busy)
        await start(ann)
        # (the other table's seat keeps within the same limit: only the flood is refused)
        policy = paced(client.random_policy(4), 1 / 15)
        codes, final = await asyncio.gather(flood(), client.play_table(ann, policy, timeout=120))
        assert codes.count("pong") <= 45 and "rate_limited" in codes
        assert final["winners"]  # the other table played to its end meanwhile
        await ann.close()

    run(go())


def test_too_many_connections_from_one_address(fresh_server) -> None:  # type: ignore[no-untyped-def]
    srv = fresh_server("--max-connections-per-address", "3")
    made = client.create_table(srv.base, game="tools", seats=["human", "human"])

    async def go() -> None:
        open_ = [
            await client.Table.connect(srv.base, made["table"], invite=made["invite"])
            for _ in range(3)
        ]
        with pytest.raises(client.ServerError) as refused:
            await client.Table.connect(srv.base, made["table"], invite=made["invite"])
        assert refused.value.code == "rate_limited"
        await open_[0].close()
        await asyncio.sleep(0.2)
        again = await client.Table.connect(srv.base, made["table"], invite=made["invite"])
        for t in [*open_[1:], again]:
            await t.close()

    run(go())


def test_refusals_close_a_flood_but_not_a_client_that_backs_off() -> None:
    """docs/server.md, Limits: 50 refusals within a minute close the connection; a long game's
    odd refusals, a few in each busy minute, never add up to it."""
    flood = RefusalCount(60.0)
    assert [flood.add(now=100.0 + i / 1000) for i in range(50)][-1] == 50
    patient = RefusalCount(60.0)
    counts = [patient.add(now=61.0 * minute + 0.5 * k) for minute in range(120) for k in range(5)]
    assert max(counts) == 5  # 600 refusals over two hours, at most 5 in a window
    # a window opens at a refusal and lasts its 60 s: the 50th refusal at 59 s still closes
    slow = RefusalCount(60.0)
    assert [slow.add(now=59.0 * i / 49) for i in range(50)][-1] == 50

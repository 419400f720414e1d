"""Protocol versions over a real WebSocket: 1 and 2 are both spoken; in 2 an action without a
``ref`` gets no ``ack`` (its own ``update`` says it was committed), with a ``ref`` it still does."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from parlor import client
from tests.server.support import ServerProcess, run


async def next_of(ws: ClientConnection, *kinds: str) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = json.loads(await ws.recv(decode=True))
        if frame["type"] in kinds:
            return frame


async def hello(
    base: str, made: dict[str, Any], protocol: int | None
) -> tuple[ClientConnection, dict[str, Any]]:
    """Connect as the host's seat with ``protocol`` and start: the socket and the newest update."""
    ws = await connect(client.ws_url(base))
    msg: dict[str, Any] = {"type": "hello", "table": made["table"], "token": made["token"]}
    if protocol is not None:
        msg["protocol"] = protocol
    msg["host_key"] = made["host_key"]
    await ws.send(json.dumps(msg))
    welcome = await next_of(ws, "welcome")
    assert welcome["protocol"] == (protocol or 1)
    await ws.send(json.dumps({"type": "start", "ref": "go"}))
    update = await next_of(ws, "update")  # (the start's, before its ack)
    assert (await next_of(ws, "ack"))["ref"] == "go"  # (commands other than actions: always)
    return ws, update


async def act(ws: ClientConnection, update: dict[str, Any], **extra: Any) -> None:
    answer = update["prompt"]["answers"][0]
    msg = {"type": "action", "version": update["version"], "id": answer["id"], **extra}
    await ws.send(json.dumps(msg))


def test_protocol_2_acknowledges_an_action_only_when_asked(server: ServerProcess) -> None:
    async def go() -> None:
        async with asyncio.timeout(120):
            await each()

    async def each() -> None:
        for protocol in (None, 1, 2, 3):
            made = client.create_table(server.base, game="tools", seats=["human", "random"])
            ws, update = await hello(server.base, made, protocol)
            while update["prompt"] is None:  # the bot may begin
                update = await next_of(ws, "update")
            await act(ws, update)  # no ref
            acted = update["version"]
            frames = []
            while True:
                frame = json.loads(await ws.recv(decode=True))
                frames.append(frame["type"])
                if frame["type"] == "update":
                    update = frame
                    if frame["version"] == acted + 1:
                        break
            # the ack comes after the update: ask for the next one and see what came between
            await ws.send(json.dumps({"type": "ping", "ref": "p"}))
            while frames[-1] != "pong":
                frame = json.loads(await ws.recv(decode=True))
                frames.append(frame["type"])
                if frame["type"] == "update":
                    update = frame
            assert "error" not in frames
            assert ("ack" in frames) == (protocol not in (2, 3)), (protocol, frames)
            if protocol in (2, 3):  # with a ref, protocols 2 and 3 acknowledge as well
                while update["prompt"] is None:  # (the bot's turn)
                    update = await next_of(ws, "update")
                await act(ws, update, ref=7)
                ack = await next_of(ws, "ack")
                assert ack == {"type": "ack", "ref": 7, "version": update["version"] + 1}
            await ws.close()

    run(go())


def test_an_unknown_protocol_is_refused(server: ServerProcess) -> None:
    made = client.create_table(server.base, game="tools", seats=["human", "random"])

    async def go() -> None:
        for protocol in (4, 0, True, "3"):
            async with connect(client.ws_url(server.base)) as ws:
                msg = {"type": "hello", "protocol": protocol, "table": made["table"]}
                await ws.send(json.dumps(msg))
                error = await next_of(ws, "error")
                assert error["code"] == "protocol", protocol

    run(go())

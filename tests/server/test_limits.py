"""What the hostile run of issue 19 found, each case against a real ``parlor serve`` under a
memory limit: sizes bounded before anything is allocated, no file opened by name, depth-limited
JSON, bodies refused while they arrive, slow and silent clients cut off in the documented time,
one strict type per field, and one log line (never a traceback) for what a client did."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from parlor import client
from parlor.monopoly.edition import edition_data, load_edition
from tests.server.support import ServerProcess, host, post, run, start

GIB = 1 << 30
TIMEOUT = 1.0  # the short request, hello and keep-alive timeouts these servers are given


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server with short timeouts, 1 GiB of address space and JSON log lines, run from a
    folder holding a ``parlor.db`` (what item 2 read through ``edition``)."""
    folder = tmp_path_factory.mktemp("cwd")
    proc = ServerProcess(
        f"sqlite:///{folder / 'parlor.db'}",
        "--bot-delay",
        "0",
        "--request-timeout",
        str(TIMEOUT),
        "--hello-timeout",
        str(TIMEOUT),
        "--keep-alive-timeout",
        str(TIMEOUT),
        "--max-requests-per-address",
        "1000",
        "--max-requests-in-flight-per-address",
        "400",
        "--max-connections-per-address",
        "400",
        "--log-format",
        "json",
        "--log-level",
        "info",
        memory_limit=GIB,
    )
    proc.cwd = folder
    proc.start()
    yield proc
    proc.stop()


def raw_http(base: str, data: bytes, *, read: bool = True, timeout: float = 10) -> bytes:
    """Send ``data`` on a new connection and read until the server closes it (or ``timeout``)."""
    port = int(base.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        out = b""
        while read:
            try:
                chunk = s.recv(65536)
            except TimeoutError:
                break
            if not chunk:
                break
            out += chunk
        return out


def status_of(reply: bytes) -> int:
    return int(reply.split(b" ", 2)[1]) if reply.startswith(b"HTTP/1.1 ") else 0


def no_tracebacks(server: ServerProcess) -> None:
    said = server.log()
    assert "Traceback" not in said and "Error in ASGI" not in said, said[-3000:]


def test_item1_a_billion_seats_are_refused_before_any_list_is_made(guarded: ServerProcess) -> None:
    began = time.perf_counter()
    for seats in (10**9, 10**18, -1, 11):
        status, body = post(guarded.base, "/api/tables", {"game": "tools", "seats": seats})
        assert status == 400 and body["code"] == "bad_request", body
    status, body = post(guarded.base, "/api/tables", {"seats": ["human"] * 100_000})
    assert status == 400 and body["code"] == "bad_request", body
    assert time.perf_counter() - began < 5  # no allocation of a billion, no stall
    status, body = post(guarded.base, "/api/tables", {"game": "tools", "seats": 10})
    assert status == 200, body
    no_tracebacks(guarded)


def test_item2_editions_are_bundled_ids_or_inline_data_never_files(guarded: ServerProcess) -> None:
    assert (Path(guarded.cwd) / "parlor.db").exists()
    for name in ("parlor.db", "..", ".", "/etc/passwd", "parlor.db\x00", "classic.toml"):
        status, body = post(guarded.base, "/api/tables", {"edition": name})
        assert status == 400 and body["code"] in ("settings", "bad_request"), (name, body)
        said = body["message"]
        assert "UTF-8" not in said and "regular file" not in said and "byte" not in said, said
    for name in ("parlor.db", "..", "classic.toml"):
        status, body = raw_get(guarded.base, f"/api/editions/{name}")
        assert status == 404, (name, body)
    # an edition's data inline, checked by the schema: a table of it starts and is played
    data = edition_data(load_edition("matador"))
    data["edition"]["id"] = "house"
    data["edition"]["title"] = "House board"
    made = client.create_table(guarded.base, edition=data, seats=["human", "heuristic"])

    async def play() -> None:
        ann = await host(guarded.base, made)
        assert ann.table["edition"] == "house"
        await start(ann)
        assert ann.view is not None and ann.view["edition"] == "house"
        await ann.close()

    run(play())
    data["squares"] = data["squares"][:3]  # refused by the schema's checks
    status, body = post(guarded.base, "/api/tables", {"edition": data})
    assert status == 400 and body["code"] == "settings", body
    big = edition_data(load_edition("classic"))
    big["edition"]["title"] = "x" * 100_000
    status, body = post(guarded.base, "/api/tables", {"edition": big})
    assert status == 413 and body["code"] == "too_large", body
    # TOOLS: its deck inline (a path is refused by its type: a deck is an object)
    status, body = post(guarded.base, "/api/tables", {"game": "tools", "deck": "parlor.db"})
    assert status == 400 and body["code"] == "bad_request", body
    no_tracebacks(guarded)


def raw_get(base: str, path: str) -> tuple[int, bytes]:
    reply = raw_http(base, f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    return status_of(reply), reply


def test_item3_deep_json_is_a_typed_error_on_http_and_websockets(guarded: ServerProcess) -> None:
    for depth in (40, 2000, 100_000):
        raw = "[" * depth + "]" * depth
        status, body = post_raw(guarded.base, "/api/tables", raw.encode())
        assert status == 400 and body["code"] in ("too_deep", "bad_json"), (depth, body)
    made = client.create_table(guarded.base, game="tools", seats=["human", "human"])

    async def go() -> None:
        async with connect(client.ws_url(guarded.base)) as ws:
            hello = {"type": "hello", "table": made["table"], "token": made["token"]}
            await ws.send(json.dumps(hello))
            assert json.loads(await ws.recv())["type"] == "welcome"
            for depth in (40, 5000):  # (a frame is at most 16 KiB)
                await ws.send('{"type": "chat", "text": ' + "[" * depth + "]" * depth + "}")
                reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert reply["code"] in ("too_deep", "bad_json", "too_large"), reply

    run(go())
    no_tracebacks(guarded)


def post_raw(base: str, path: str, body: bytes) -> tuple[int, dict[str, Any]]:
    head = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    head += f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    reply = raw_http(base, head.encode() + body)
    return status_of(reply), json.loads(reply.split(b"\r\n\r\n", 1)[1] or b"{}")


def test_item4_large_bodies_are_refused_before_they_are_read(guarded: ServerProcess) -> None:
    # by Content-Length: the answer comes though not one byte of the 100 MB is sent
    head = b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n"
    reply = raw_http(guarded.base, head, timeout=5)
    assert status_of(reply) == 413 and b"too_large" in reply, reply
    # chunked, with no length said: refused once 4 MiB have arrived, while the client still sends
    port = int(guarded.base.rsplit(":", 1)[1])
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        chunk = b"x" * 65536
        try:
            while sent < 100_000_000:
                s.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        s.settimeout(5)
        try:
            reply = s.recv(65536)
        except (ConnectionResetError, TimeoutError):
            reply = b""
    assert sent < 20_000_000, sent  # it stopped reading long before the end
    assert reply == b"" or status_of(reply) == 413, reply
    no_tracebacks(guarded)


def test_item5_half_open_requests_and_silent_websockets_are_closed(guarded: ServerProcess) -> None:
    port = int(guarded.base.rsplit(":", 1)[1])
    halves = [
        b"GET /api/lobby HTTP/1.1\r\nHost:",  # headers that never end
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{",  # a body
        b"",  # a connection that says nothing at all
    ]
    socks = []
    began = time.perf_counter()
    for data in halves * 20:
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        if data:
            s.sendall(data)
        socks.append(s)
    closed_after = []
    for s in socks:
        reply = b""
        while chunk := s.recv(65536):
            reply += chunk
        closed_after.append(time.perf_counter() - began)
        assert reply == b"" or status_of(reply) == 408, reply
        s.close()
    assert max(closed_after) < TIMEOUT + 3, closed_after  # the documented time, and a margin

    async def silent() -> float:
        async with connect(client.ws_url(guarded.base)) as ws:
            t0 = time.perf_counter()
            reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert reply["code"] == "timeout", reply
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 10)
            return time.perf_counter() - t0

    async def many() -> list[float]:
        return await asyncio.gather(*(silent() for _ in range(50)))

    assert max(run(many())) < TIMEOUT + 3
    no_tracebacks(guarded)


def test_item5_http_requests_are_limited_per_address(fresh_server) -> None:  # type: ignore[no-untyped-def]
    server = fresh_server("--max-requests-per-address", "5")  # a burst of 15
    codes = [raw_get(server.base, "/api/health")[0] for _ in range(40)]
    assert codes[:10] == [200] * 10 and 429 in codes, codes  # (start-up asked for health too)
    assert "rate_limited" in raw_get(server.base, "/api/lobby")[1].decode()
    time.sleep(1.0)
    assert raw_get(server.base, "/api/health")[0] == 200  # the bucket fills again


def test_item6_every_field_has_one_strict_type(guarded: ServerProcess) -> None:
    for request in (
        {"game": "tools", "listed": "yes"},
        {"game": "tools", "listed": 1},
        {"game": "tools", "seats": True},
        {"game": "tools", "seats": 4.0},
        {"game": "tools", "timer": "60"},
        {"game": "tools", "lang": "fr"},
        {"game": "tools", "host_seat": True},
        {"presets": ["free_parking_pot"] * 50_000},
        {"options": {"auctions": [1, 2]}},
    ):
        status, body = post(guarded.base, "/api/tables", request)
        assert status == 400 and body["code"] == "bad_request", (request, body)
    for raw in (b"null", b"", b"[]", b'"x"', b"3"):
        status, body = post_raw(guarded.base, "/api/tables", raw)
        assert status == 400 and body["code"] in ("bad_request", "bad_json"), (raw, body)
    # repeated presets count once
    made = client.create_table(guarded.base, presets=["double_go", "double_go"], seats=2)
    assert made["table"]
    made = client.create_table(guarded.base, seats=["human", "human"])

    async def go() -> None:
        url = client.ws_url(guarded.base)
        async with connect(url) as ws:
            hello = {"type": "hello", "table": made["table"], "token": made["token"], "lang": "fr"}
            await ws.send(json.dumps(hello))
            reply = json.loads(await ws.recv())
            assert reply["code"] == "bad_request" and "lang" in reply["message"], reply
        ann = await host(guarded.base, made)
        await start(ann)
        for frame in (
            {"type": "action", "version": ann.version, "id": 0, "terms_revision": True},
            {"type": "action", "version": ann.version, "id": 0, "terms_revision": 3.0},
            {"type": "action", "version": float(ann.version), "id": 0},
            {"type": "action", "version": True, "id": 0},
            {"type": "legal", "anytime": "no"},
            {"type": "legal", "anytime": 0},
            {"type": "sample", "since": -1},
            {"type": "kick", "seat": False},
            {"type": "replay", "step": "1"},
            {"type": "chat", "text": None},
        ):
            reply = await ann.request(frame)
            assert reply["type"] == "error" and reply["code"] == "bad_request", (frame, reply)
        assert (await ann.request({"type": "legal", "anytime": False}))["type"] == "legal"
        await ann.close()

    run(go())
    no_tracebacks(guarded)


def test_item7_one_line_per_refusal_and_no_traceback(guarded: ServerProcess) -> None:
    before = len(guarded.output)
    port = int(guarded.base.rsplit(":", 1)[1])
    for _ in range(30):  # clients that leave mid-body (a ClientDisconnect traceback each, before)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n{")
    status, _ = post(guarded.base, "/api/tables", {"game": "chess"})
    assert status == 400
    deadline = time.time() + 5
    while time.time() < deadline:
        lines = guarded.output[before:]
        if sum('"client_gone"' in line for line in lines) >= 30 and any(
            '"bad_request"' in line for line in lines
        ):
            break
        time.sleep(0.1)
    lines = guarded.output[before:]
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    gone = [r for r in records if r.get("code") == "client_gone"]
    assert len(gone) == 30 and all(r["event"] == "refused" for r in gone), lines
    assert len(lines) < 40, lines  # one line each, and the create's refusal
    no_tracebacks(guarded)


def test_item7_the_search_pool_stops_without_leaking_semaphores(
    tmp_path: Path,
) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'p.db'}", "--bot-delay", "0").start()
    try:
        made = client.create_table(server.base, game="tools", seats=["human", "search:20"])

        async def go() -> None:
            ann = await host(server.base, made)
            await start(ann)
            policy = client.random_policy(1)
            async with asyncio.timeout(60):  # until the search bot has thought a few times
                while ann.version < 8 and not ann.final:
                    if ann.my_turn():
                        await ann.act(policy(ann))
                    else:
                        await ann.recv()
            await ann.close()

        run(go())
    finally:
        server.stop()
    said = server.log()
    assert "leaked semaphore" not in said and "Traceback" not in said, said[-3000:]


def ws_frame(text: str) -> bytes:
    """A client's text frame (masked, with a zero mask: the payload as it is)."""
    data = text.encode()
    assert len(data) < 126
    return bytes([0x81, 0x80 | len(data)]) + b"\0\0\0\0" + data


def test_item5_silent_and_dead_websockets_are_closed_in_the_documented_time(fresh_server) -> None:  # type: ignore[no-untyped-def]
    server = fresh_server(
        "--hello-timeout", "30", "--idle-timeout", "1.5",
        "--ws-ping-interval", "0.5", "--ws-ping-timeout", "0.5",
    )  # fmt: skip
    made = client.create_table(server.base, game="tools", seats=["human", "human"])
    hello = {"type": "hello", "table": made["table"], "token": made["token"]}

    async def idle() -> float:  # says hello, then nothing (its pings are answered)
        async with connect(client.ws_url(server.base)) as ws:
            await ws.send(json.dumps(hello))
            assert json.loads(await ws.recv())["type"] == "welcome"
            t0 = time.perf_counter()
            while True:
                try:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
                except ConnectionClosed:
                    return time.perf_counter() - t0
                if frame["type"] == "error":
                    assert frame["code"] == "timeout", frame

    assert 1.0 < run(idle()) < 1.5 + 3
    # a peer that is gone: it upgraded and said hello, then answers no ping (nor reads)
    port = int(server.base.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(
            b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        assert s.recv(4096).startswith(b"HTTP/1.1 101")
        s.sendall(ws_frame(json.dumps({"type": "ping", "ref": 1})))  # (before hello: refused)
        t0 = time.perf_counter()
        while s.recv(65536):  # the server's frames, its pings among them, until it closes
            pass
        assert time.perf_counter() - t0 < 0.5 + 0.5 + 3


def test_item5_http_requests_under_way_are_limited_per_address(fresh_server) -> None:  # type: ignore[no-untyped-def]
    server = fresh_server("--max-requests-in-flight-per-address", "3", "--request-timeout", "3")
    port = int(server.base.rsplit(":", 1)[1])
    slow = []
    for _ in range(3):  # bodies that are coming slowly: three requests under way
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
        slow.append(s)
    time.sleep(0.3)
    status, reply = raw_get(server.base, "/api/health")
    assert status == 429 and b"rate_limited" in reply, reply
    for s in slow:
        s.close()
    time.sleep(0.3)
    assert raw_get(server.base, "/api/health")[0] == 200  # their places are free again

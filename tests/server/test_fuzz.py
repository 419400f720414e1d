"""The protocol fuzz suite: hypothesis over every HTTP route and every WebSocket message type
(wrong types in every field, sizes, depths, unknown kinds, raw bytes) against a real server
process with 1 GiB of address space. The server survives every case, answers each with a typed
error (or its ordinary answer) or closes that connection, writes no traceback, and another
table's pings are answered within 100 ms (p99) all the while.

The number of examples is fixed (and the run derandomised) so the suite takes seconds in CI."""

from __future__ import annotations

import http.client
import json
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed, InvalidMessage
from websockets.sync.client import connect

from parlor import client
from parlor.server.protocol import CLIENT_TYPES
from tests.server.support import ServerProcess

# (scripts/test.sh on xdist workers runs this module after the rest, not beside another worker:
# the p99 below is issue 19's claim for the server, not for a machine shared with other tests)
pytestmark = pytest.mark.alone

GIB = 1 << 30
FUZZ = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# ----- hostile JSON, as text (deep nesting is made as text: json.dumps would recurse) -----------
FRAGMENTS = st.one_of(
    st.sampled_from(
        [
            "null",
            "true",
            "false",
            "0",
            "-1",
            "3.0",
            "1e308",
            "1e400",
            "NaN",
            "-Infinity",
            "18446744073709551616",
            "1" + "0" * 5000,
            '""',
            '"x"',
            '"' + "y" * 100_000 + '"',
            "[]",
            "{}",
            "[1, 2, 3]",
            '{"a": 1}',
            '"\\u0000"',
            '"\\ud800"',
            '"en"',
            '"human"',
        ]
    ),
    st.integers(-(10**20), 10**20).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(json.dumps),
    st.text(max_size=30).map(json.dumps),
    st.integers(1, 5000).map(lambda n: "[" * n + "]" * n),
    st.integers(1, 3000).map(lambda n: '{"a": ' * n + "1" + "}" * n),
    st.integers(0, 100_000).map(lambda n: "[" + ",".join(["1"] * n) + "]"),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
        max_leaves=8,
    ).map(json.dumps),
)


def obj(fields: dict[str, str]) -> str:
    """A JSON object from field names and their values' JSON text."""
    return "{" + ", ".join(f"{json.dumps(k)}: {v}" for k, v in fields.items()) + "}"


def mutated(template: dict[str, Any], names: list[str]) -> st.SearchStrategy[str]:
    """``template`` (a valid message) with one field (one it has, or another it may have, or an
    unknown one) set to a hostile value, or with fields dropped."""
    valid = {k: json.dumps(v) for k, v in template.items()}

    def put(name: str, value: str) -> str:
        return obj({**valid, name: value})

    return st.one_of(
        st.builds(put, st.sampled_from([*names, "ref", "zzz"]), FRAGMENTS),
        st.just(obj({k: v for k, v in valid.items() if k == "type"})),
        st.just(obj(valid)),
    )


CREATE_FIELDS = [
    "game", "edition", "deck", "variant", "presets", "options", "seats", "timer", "grace",
    "bot_delay", "lang", "host_name", "host_seat", "listed", "save",
]  # fmt: skip
WS_FIELDS: dict[str, list[str]] = {
    "hello": ["protocol", "table", "token", "invite", "host_key", "lang", "type"],
    "action": ["version", "id", "action", "terms_revision", "type"],
    "legal": ["anytime"],
    "sample": ["since"],
    "chat": ["text"],
    "start": [],
    "pause": [],
    "resume": [],
    "export": [],
    "ping": [],
    "resync": [],
    "kick": ["seat"],
    "set_bot": ["seat", "bot", "budget"],
    "replay": ["step"],
}
assert set(WS_FIELDS) == CLIENT_TYPES  # every message type is fuzzed


# ----- the server, and a table whose pings are timed meanwhile ---------------------------------
PINGER = """
import asyncio, json, sys, time
from parlor import client

async def main(base):
    made = client.create_table(base, game="tools", seats=["human", "human"])
    t = await client.Table.connect(base, made["table"], token=made["token"])
    rtts = []
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    done = loop.run_in_executor(None, sys.stdin.read)  # until the test closes our stdin
    while not done.done():
        began = time.perf_counter()
        reply = await t.request({"type": "ping"}, timeout=10)
        assert reply["type"] == "pong", reply
        rtts.append(time.perf_counter() - began)
        await asyncio.sleep(0.02)
    await t.close()
    print(json.dumps(rtts), flush=True)

asyncio.run(main(sys.argv[1]))
"""


class Pinger:
    """A seat on a table of its own pinging every 20 ms, in a process of its own (so that what
    this process does to make the cases is not counted); ``rtts`` in seconds once stopped."""

    def __init__(self, base: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", PINGER, base],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None and self.proc.stdout.readline().strip() == "ready"
        self.rtts: list[float] = []

    def stop(self) -> None:
        out, _ = self.proc.communicate("", timeout=30)
        assert self.proc.returncode == 0, out
        self.rtts = json.loads(out.strip().splitlines()[-1])

    def p99(self) -> float:
        return statistics.quantiles(self.rtts, n=100)[98]


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, Pinger]]:
    db = tmp_path_factory.mktemp("fuzz") / "parlor.db"
    proc = ServerProcess(
        f"sqlite:///{db}",
        "--bot-delay", "0",
        "--request-timeout", "1",
        "--hello-timeout", "5",
        "--max-connections-per-address", "400",
        "--max-messages-per-connection", "1000",
        "--max-messages-per-address", "100000",
        "--max-requests-per-address", "100000",
        "--max-requests-in-flight-per-address", "400",
        "--log-format", "json",
        "--log-level", "info",
        memory_limit=GIB,
    ).start()  # fmt: skip
    pinger = Pinger(proc.base)
    yield proc, pinger
    if pinger.proc.poll() is None:
        pinger.proc.kill()
    proc.stop()


class Tables:
    """A table to fuzz at (made again when a fuzzed message kicked its host or ended it)."""

    made: dict[str, Any] | None = None

    @classmethod
    def get(cls, base: str, fresh: bool = False) -> dict[str, Any]:
        if cls.made is None or fresh:
            cls.made = client.create_table(
                base, game="tools", seats=["human", "human", "heuristic"], bot_delay=0
            )
        return cls.made


def answer_ok(status: int, headers: dict[str, str], body: bytes) -> None:
    """Never a server error; an error is typed (JSON with a code) unless it is not the app's."""
    assert status < 500, (status, body[:300])
    if status >= 400 and headers.get("content-type", "").startswith("application/json"):
        assert isinstance(json.loads(body)["code"], str), body[:300]


def http_call(base: str, method: str, path: str, body: bytes | None) -> None:
    port = int(base.rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Content-Type": "application/json", "Connection": "close"}
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        answer_ok(resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read())
    except (ConnectionResetError, BrokenPipeError):
        pass  # closed by the server (a body over the limit, refused while it was sent)
    finally:
        conn.close()


# ----- HTTP ------------------------------------------------------------------------------------
@FUZZ
@given(body=st.one_of(mutated({"game": "tools", "seats": 2}, CREATE_FIELDS), FRAGMENTS))
def test_fuzz_create(fuzzed: tuple[ServerProcess, Pinger], body: str) -> None:
    http_call(fuzzed[0].base, "POST", "/api/tables", body.encode())


@FUZZ
@given(data=st.data())
def test_fuzz_join_and_the_other_routes(fuzzed: tuple[ServerProcess, Pinger], data: Any) -> None:
    base = fuzzed[0].base
    made = Tables.get(base)
    word = data.draw(st.one_of(st.sampled_from(["classic", "..", "parlor.db", "%2e%2e"]),
                               st.text("abc.%/_-", max_size=20)))  # fmt: skip
    route = data.draw(
        st.sampled_from(
            [
                ("POST", f"/api/tables/{made['table']}/join"),
                ("POST", "/api/tables/nosuchtable/join"),
                ("POST", "/api/picture"),
                ("GET", "/api/lobby"),
                ("GET", "/api/health"),
                ("GET", f"/api/editions/{word}"),
                ("GET", f"/api/editions/{word}/board.svg"),
                ("GET", f"/i18n/{word}.json"),
                ("GET", f"/web/{word}"),
                ("GET", "/"),
                ("DELETE", "/api/tables"),
            ]
        )
    )
    template = {"invite": made["invite"], "name": "Fuzz", "seat": 1}
    body = data.draw(mutated(template, ["invite", "name", "seat"]) | FRAGMENTS)
    path = route[1].replace(" ", "%20").replace("\n", "%0A")
    http_call(base, route[0], path, body.encode() if route[0] == "POST" else None)


UPGRADE = b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"


@settings(FUZZ, max_examples=25)
@given(raw=st.one_of(
    st.binary(max_size=300),
    st.binary(max_size=300).map(lambda b: b + b"\r\n\r\n"),
    st.binary(max_size=100).map(lambda b: b"POST /api/tables HTTP/1.1\r\n" + b),
    st.binary(max_size=100).map(lambda b: UPGRADE + b + b"\r\n\r\n"),  # a broken handshake
))  # fmt: skip
def test_fuzz_raw_bytes_over_http(fuzzed: tuple[ServerProcess, Pinger], raw: bytes) -> None:
    port = int(fuzzed[0].base.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(raw)
        reply = b""
        began = time.perf_counter()
        try:
            while chunk := s.recv(65536):  # until the server answers and closes, or closes
                reply += chunk
        except ConnectionResetError:
            pass
        assert time.perf_counter() - began < 8  # the request timeout (1 s here) and a margin
    if reply.startswith(b"HTTP/1.1 "):
        assert int(reply.split(b" ", 2)[1]) < 500, reply[:300]


# ----- WebSocket -------------------------------------------------------------------------------
def ws_templates(made: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        "hello": {
            "type": "hello",
            "protocol": 3,
            "table": made["table"],
            "token": made["token"],
            "host_key": made["host_key"],
            "lang": "en",
        },
        "action": {"type": "action", "version": 0, "id": 0, "ref": 1},
        "legal": {"type": "legal", "anytime": True},
        "sample": {"type": "sample", "since": 0},
        "chat": {"type": "chat", "text": "hi"},
        "start": {"type": "start"},
        "pause": {"type": "pause"},
        "resume": {"type": "resume"},
        "export": {"type": "export"},
        "ping": {"type": "ping"},
        "resync": {"type": "resync", "ref": 2},
        "kick": {"type": "kick", "seat": 1},
        "set_bot": {"type": "set_bot", "seat": 2, "bot": "random"},
        "replay": {"type": "replay", "step": 0},
    }


def frame_ok(text: str | bytes) -> dict[str, Any]:
    frame = json.loads(text)
    assert isinstance(frame, dict) and isinstance(frame["type"], str), frame
    if frame["type"] == "error":
        assert isinstance(frame["code"], str) and frame["code"] != "internal", frame
    return frame


def ws_case(base: str, frame: str | bytes, kind: str) -> None:
    """Send ``frame`` (after a hello, unless it is one), then a ping: every frame that comes back
    is a typed frame, and the ping is answered, unless the server closed the connection."""
    made = Tables.get(base)
    with connect(client.ws_url(base), max_size=None, open_timeout=20) as ws:
        if kind != "hello":
            hello = ws_templates(made)["hello"]
            ws.send(json.dumps(hello))
            welcome = frame_ok(ws.recv(20))
            if welcome["type"] == "error":  # a fuzzed kick took the host's seat: a new table
                made = Tables.get(base, fresh=True)
                return
        try:
            ws.send(frame)
            ws.send('{"type": "ping", "ref": "probe"}')
            while True:
                reply = frame_ok(ws.recv(20))
                if reply.get("ref") == "probe":
                    return
        except ConnectionClosed:
            return  # the server closed this connection (a refused hello, a frame over 1 MiB)


@FUZZ
@given(data=st.data())
def test_fuzz_every_websocket_message_type(fuzzed: tuple[ServerProcess, Pinger], data: Any) -> None:
    base = fuzzed[0].base
    kind = data.draw(st.sampled_from(sorted(WS_FIELDS)))
    template = ws_templates(Tables.get(base))[kind]
    frame = data.draw(mutated(template, WS_FIELDS[kind] or ["type"]))
    ws_case(base, frame, kind)


@settings(FUZZ, max_examples=30)
@given(frame=st.one_of(
    st.binary(max_size=200),
    st.text(max_size=200),
    FRAGMENTS,
    st.text(max_size=20).map(lambda t: json.dumps({"type": t})),
    st.integers(1, 2_000_000).map(lambda n: '{"type": "chat", "text": "' + "x" * n + '"}'),
))  # fmt: skip
def test_fuzz_unknown_kinds_raw_frames_and_sizes(
    fuzzed: tuple[ServerProcess, Pinger], frame: str | bytes
) -> None:
    try:
        ws_case(fuzzed[0].base, frame, "raw")
    except InvalidMessage:  # (not expected: the handshake itself is not fuzzed)
        raise


def test_fuzz_left_the_server_well_and_other_tables_fast(
    fuzzed: tuple[ServerProcess, Pinger],
) -> None:
    """After every case above: still serving, no traceback written, and the other table's
    pings answered within 100 ms (p99) all along."""
    server, pinger = fuzzed
    port = int(server.base.rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/api/health")
    assert conn.getresponse().status == 200
    assert server.proc is not None and server.proc.poll() is None
    said = server.log()
    assert "Traceback" not in said and "MemoryError" not in said, said[-3000:]
    assert all(json.loads(line) for line in server.output)  # every line one JSON object
    pinger.stop()
    assert len(pinger.rtts) > 50, len(pinger.rtts)
    p99 = pinger.p99()
    print(f"other table's ping: p99 {p99 * 1000:.1f} ms, max {max(pinger.rtts) * 1000:.1f} ms, "
          f"{len(pinger.rtts)} pings")  # fmt: skip
    assert p99 < 0.100, (p99, max(pinger.rtts))

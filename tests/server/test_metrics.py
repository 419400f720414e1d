"""``/metrics``: off without a token (404), refused without it (401), and with it the Prometheus
text a real server process counted while a table was played and bad requests were refused."""

from __future__ import annotations

import asyncio
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from parlor import client
from parlor.server.app import create_app
from tests.server.support import ServerProcess, host, post, run, start

TOKEN = "s3cret-metrics-token"


def scrape(base: str, token: str | None = TOKEN) -> tuple[int, str]:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    req = urllib.request.Request(base + "/metrics", headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of the exposition, by name and labels (parsed by prometheus_client)."""
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def test_metrics_are_off_without_a_token(server: ServerProcess) -> None:
    status, _ = scrape(server.base)
    assert status == 404


def test_metrics_need_the_token_and_count_play_and_refusals(
    fresh_server: Callable[..., ServerProcess],
) -> None:
    srv = fresh_server("--metrics-token", TOKEN)
    assert scrape(srv.base, None)[0] == 401
    assert scrape(srv.base, "wrong")[0] == 401
    assert scrape(srv.base, TOKEN.upper())[0] == 401
    status, text = scrape(srv.base)
    assert status == 200
    before = samples(text)
    assert before[("parlor_connections", ())] == 0

    # refused requests: two bad HTTP bodies and one bad WebSocket message
    for _ in range(2):
        code, reply = post(srv.base, "/api/tables", {"game": "chess"})
        assert code == 400, reply
    made = client.create_table(srv.base, game="tools", seats=["human", "heuristic"])

    async def play() -> None:
        ann = await host(srv.base, made)
        await start(ann)
        reply = await ann.request({"type": "action", "version": "x", "id": 0})
        assert reply["type"] == "error" and reply["code"] == "bad_request"
        acked = 0
        while acked < 6 and ann.final is None:
            await ann.wait(lambda t: t.prompt is not None or t.final is not None, timeout=30)
            if ann.final is not None:
                break
            reply = await ann.act(ann.prompt["answers"][0])  # type: ignore[index]
            assert reply["type"] == "ack", reply
            acked += 1
        # Ann's turn (or the end): nobody else acts now, the counts hold still
        await ann.wait(lambda t: t.prompt is not None or t.final is not None, timeout=30)
        got = samples(scrape(srv.base)[1])
        assert got[("parlor_connections", ())] == 1
        assert got[("parlor_connections_by_role", (("role", "seat"),))] == 1
        tables = [v for (name, _), v in got.items() if name == "parlor_tables"]
        assert sum(tables) == 1
        http_refused = [
            v
            for (name, labels), v in got.items()
            if name == "parlor_refused_total" and ("transport", "http") in labels
        ]
        assert sum(http_refused) == 2, got
        assert got[("parlor_refused_total", (("code", "bad_request"), ("transport", "ws")))] == 1
        seat_actions = got[("parlor_actions_total", (("actor", "seat"),))]
        bot_actions = got.get(("parlor_actions_total", (("actor", "bot"),)), 0)
        assert seat_actions == acked
        # every action of the table went through this process's play loop: all counted
        version = ann.version
        assert seat_actions + bot_actions == version
        # each was observed once in the latency histogram, and the commits were timed
        assert got[("parlor_action_update_seconds_count", ())] == version
        assert got[("parlor_action_update_seconds_bucket", (("le", "+Inf"),))] == version
        assert 0 < got[("parlor_action_update_seconds_sum", ())] < version * 5
        assert 1 <= got[("parlor_db_commit_seconds_count", ())] <= version
        assert got[("process_resident_memory_bytes", ())] > 0
        await ann.close()

    run(play())
    deadline = time.monotonic() + 10  # (the server hears of the close a moment later)
    while samples(scrape(srv.base)[1])[("parlor_connections", ())] != 0:
        assert time.monotonic() < deadline
        time.sleep(0.05)


async def asgi(
    app: Any, method: str, path: str, body: bytes = b"", **headers: str
) -> tuple[int, str]:
    """One HTTP request straight through the ASGI app (no socket): status and body."""
    sent = False
    status, chunks = 0, []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            await asyncio.sleep(3600)
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }
    await app(scope, receive, send)
    return status, b"".join(chunks).decode()


def test_two_apps_in_one_process_keep_their_own_registries(tmp_path: Path) -> None:
    """A registry per app: two servers in one process neither clash nor share their counts."""
    apps = [create_app(f"sqlite:///{tmp_path / f'{i}.db'}", metrics_token=TOKEN) for i in range(2)]

    async def go() -> list[str]:
        for _ in range(3):
            status, _ = await asgi(apps[0], "POST", "/api/tables", b"{not json")
            assert status == 400
        texts = []
        for app in apps:
            status, text = await asgi(app, "GET", "/metrics", Authorization=f"Bearer {TOKEN}")
            assert status == 200
            texts.append(text)
        return texts

    texts = run(go())
    refused = [
        samples(t).get(("parlor_refused_total", (("code", "bad_json"), ("transport", "http"))), 0)
        for t in texts
    ]
    assert refused == [3, 0]
    for app in apps:
        app.state.hub.committer.close()


def test_the_token_may_come_from_the_environment(
    fresh_server: Callable[..., ServerProcess], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PARLOR_METRICS_TOKEN", "from-the-env")
    srv = fresh_server()  # (the server process inherits the environment)
    assert scrape(srv.base, "from-the-env")[0] == 200
    assert scrape(srv.base, None)[0] == 401

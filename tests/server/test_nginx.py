"""docs/deploy.md's nginx configuration, run for real: Debian's nginx on loopback ports with a
self-signed certificate, in front of a real ``parlor serve``, and a table played through it
over HTTPS and a secure WebSocket. The server block is read from the doc itself (only the
addresses and the certificate paths are changed), so the doc cannot drift from what is tested.

``scripts/test.sh`` installs nginx and openssl when missing; without them this test fails (it
never skips)."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import re
import socket
import ssl
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from parlor import client
from parlor.cli import build_parser
from tests.server.support import ServerProcess, host_plays_a_remote_bot, run

DOC = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
NGINX = "/usr/sbin/nginx"
TOKEN = "nginx-test-metrics-token"


def doc_server_block() -> str:
    """The ```nginx block of docs/deploy.md that is /etc/nginx/conf.d/parlor.conf."""
    blocks = re.findall(r"```nginx\n(.*?)```", DOC.read_text(), re.S)
    found = [b for b in blocks if b.startswith("# /etc/nginx/conf.d/parlor.conf")]
    assert len(found) == 1, "docs/deploy.md must hold exactly one parlor.conf block"
    return found[0]


def localize(block: str, upstream: int, plain: int, tls: int, cert: Path, key: Path) -> str:
    """The doc's block with loopback addresses and the test's certificate; every change must
    apply exactly as often as expected, so a changed doc fails here rather than silently."""

    def sub(pattern: str, repl: str, text: str, count: int) -> str:
        out, n = re.subn(pattern, repl, text, flags=re.M)
        assert n == count, f"{pattern!r} matched {n} times in docs/deploy.md, not {count}"
        return out

    block = sub(r"^\s*listen \[::\]:\d+.*\n", "", block, 2)  # (no IPv6 loopback needed)
    block = sub(r"listen 80;", f"listen 127.0.0.1:{plain};", block, 1)
    block = sub(r"listen 443 ssl;", f"listen 127.0.0.1:{tls} ssl;", block, 1)
    block = sub(r"server 127\.0\.0\.1:8000;", f"server 127.0.0.1:{upstream};", block, 1)
    block = sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};", block, 1)
    block = sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", block, 1)
    return block


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Nginx:
    """nginx in the foreground with a prefix of its own: pid, logs and temp files in a temp dir."""

    def __init__(self, upstream: int) -> None:
        assert os.access(NGINX, os.X_OK), "nginx is not installed: run scripts/test.sh"
        # (its own folder under /tmp: when run as root, nginx's workers are "nobody" and need it)
        self.dir = Path(tempfile.mkdtemp(prefix="parlor-nginx-"))
        self.dir.chmod(0o755)
        self.cert, self.key = self.dir / "cert.pem", self.dir / "key.pem"
        subprocess.run(
            [
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:prime256v1",
                "-nodes",
                "-days",
                "2",
                "-subj",
                "/CN=127.0.0.1",
                "-addext",
                "subjectAltName=IP:127.0.0.1",
                "-keyout",
                str(self.key),
                "-out",
                str(self.cert),
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
        self.plain, self.tls = free_port(), free_port()
        block = localize(doc_server_block(), upstream, self.plain, self.tls, self.cert, self.key)
        temp = "\n".join(
            f"    {kind}_temp_path {self.dir / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        conf = self.dir / "nginx.conf"
        conf.write_text(
            f"daemon off;\nworker_processes 1;\npid {self.dir / 'nginx.pid'};\n"
            f"error_log {self.dir / 'error.log'} info;\n"
            "events { worker_connections 512; }\n"
            f"http {{\n    access_log {self.dir / 'access.log'};\n{temp}\n{block}\n}}\n"
        )
        self.conf = conf
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> Nginx:
        check = subprocess.run(
            [NGINX, "-t", "-p", str(self.dir), "-c", str(self.conf), "-e", str(self.dir / "e.log")],
            capture_output=True,
            text=True,
        )
        assert check.returncode == 0, check.stderr
        self.proc = subprocess.Popen(
            [NGINX, "-p", str(self.dir), "-c", str(self.conf), "-e", str(self.dir / "e.log")],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.tls), timeout=1).close()
                return self
            except OSError:
                assert self.proc.poll() is None, self.proc.communicate()[0]
                assert time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()  # (SIGTERM: nginx's fast shutdown)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        log = self.dir / "error.log"
        if log.exists():
            print("--- nginx error log:\n" + log.read_text()[-4000:])
        subprocess.run(["rm", "-rf", str(self.dir)], check=False)


@pytest.fixture
def proxied(
    fresh_server: Callable[..., ServerProcess], monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[ServerProcess, Nginx]]:
    srv = fresh_server("--metrics-token", TOKEN, "--max-connections-per-address", "2")
    proxy = Nginx(srv.port).start()
    # this process and the bot it starts trust the test's certificate (OpenSSL reads it)
    monkeypatch.setenv("SSL_CERT_FILE", str(proxy.cert))
    try:
        yield srv, proxy
    finally:
        proxy.stop()


def https(proxy: Nginx, path: str, source: str = "127.0.0.1", **headers: str) -> tuple[int, str]:
    ctx = ssl.create_default_context(cafile=str(proxy.cert))
    conn = http.client.HTTPSConnection(
        "127.0.0.1", proxy.tls, context=ctx, timeout=30, source_address=(source, 0)
    )
    try:
        conn.request("GET", path, headers=headers)
        resp = conn.getresponse()
        return resp.status, resp.read().decode()
    finally:
        conn.close()


async def first_reply(url: str, ctx: ssl.SSLContext, source: str, **kw: Any) -> tuple[Any, str]:
    """Open a WebSocket from ``source`` and say something before hello: the reply's code
    (``bad_request``: accepted; ``rate_limited`` or ``origin``: refused at the door)."""
    ws = await connect(url, ssl=ctx, local_addr=(source, 0), **kw)
    with contextlib.suppress(ConnectionClosed):  # (refused: the reason waits to be read)
        await ws.send('{"type": "ping"}')
    return ws, json.loads(await asyncio.wait_for(ws.recv(), 30))["code"]


def test_a_table_is_played_through_nginx_with_tls_as_docs_deploy_says(
    proxied: tuple[ServerProcess, Nginx],
) -> None:
    srv, proxy = proxied
    base = f"https://127.0.0.1:{proxy.tls}"
    assert https(proxy, "/api/health")[0] == 200
    plain = http.client.HTTPConnection("127.0.0.1", proxy.plain, timeout=30)
    plain.request("GET", "/api/lobby")
    resp = plain.getresponse()
    assert resp.status == 301 and resp.getheader("Location", "").startswith("https://")
    plain.close()

    # HTTP through the proxy: the server saw https and the port (X-Forwarded-Proto, Host)
    made = client.create_table(base, game="tools", seats=["human", "human"])
    assert made["link"].startswith(base + "/#table=")
    host_plays_a_remote_bot(base, made, bot_seed=5, host_seed=2)  # WebSocket through nginx

    ctx = ssl.create_default_context(cafile=str(proxy.cert))
    ws_url = f"wss://127.0.0.1:{proxy.tls}/ws"

    async def doors() -> None:
        opened = []
        # a browser page of this site may open a WebSocket (the Host nginx passes on has the
        # port the browser used); a page of another site may not
        ws, code = await first_reply(ws_url, ctx, "127.0.0.1", origin=base)  # type: ignore[arg-type]
        assert code == "bad_request"
        await ws.close()
        ws, code = await first_reply(ws_url, ctx, "127.0.0.1", origin="https://evil.example")  # type: ignore[arg-type]
        assert code == "origin"
        await ws.close()
        # X-Forwarded-For: the server counts connections per client address, not per proxy
        # (the limit is 2 here): two from 127.0.0.5, a third refused, and 127.0.0.6 apart
        for _ in range(2):
            ws, code = await first_reply(ws_url, ctx, "127.0.0.5")
            assert code == "bad_request"
            opened.append(ws)
        ws, code = await first_reply(ws_url, ctx, "127.0.0.5")
        assert code == "rate_limited"
        ws, code = await first_reply(ws_url, ctx, "127.0.0.6")
        assert code == "bad_request"
        opened.append(ws)
        # what a client claims itself is replaced by nginx: no fresh address from a forged header
        forged = {"X-Forwarded-For": "10.9.8.7"}
        ws, code = await first_reply(ws_url, ctx, "127.0.0.6", additional_headers=forged)
        assert code == "bad_request"  # (the second from 127.0.0.6)
        opened.append(ws)
        ws, code = await first_reply(ws_url, ctx, "127.0.0.6", additional_headers=forged)
        assert code == "rate_limited"
        for ws in opened:
            await ws.close()

    run(doors())

    # /metrics through the proxy: the token, and only from the address the doc allows
    status, text = https(proxy, "/metrics", Authorization=f"Bearer {TOKEN}")
    assert status == 200 and "parlor_actions_total" in text
    assert https(proxy, "/metrics")[0] == 401
    assert https(proxy, "/metrics", "127.0.0.5", Authorization=f"Bearer {TOKEN}")[0] == 403
    assert srv.proc is not None and srv.proc.poll() is None


def test_docs_deploy_lists_every_setting_of_parlor_serve() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    serve = sub.choices["serve"]  # type: ignore[index]
    options = [o for a in serve._actions for o in a.option_strings if o.startswith("--")]
    table = DOC.read_text().split("## Every setting of `parlor serve`", 1)[1]
    missing = [o for o in options if o != "--help" and f"| `{o}` |" not in table]
    assert not missing, f"docs/deploy.md does not list {missing}"

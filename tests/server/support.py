"""Helpers for the server tests: a real ``parlor serve`` process and short ways to talk to it."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from parlor import client
from parlor.bots.registry import make_bot
from parlor.core.game import Game
from parlor.server import games


class ServerProcess:
    """``python -m parlor.cli serve`` in a subprocess; ``kill()`` is a real SIGKILL."""

    def __init__(
        self, database_url: str, *extra: str, port: int = 0, memory_limit: int | None = None
    ) -> None:
        self.database_url = database_url
        self.extra = extra
        self.port = port
        #: bytes of address space the server may use (RLIMIT_AS): a request that made it allocate
        #: without bound fails inside it instead of taking the machine's memory
        self.memory_limit = memory_limit
        self.cwd: Path | None = None  # the server's working folder (default: the test's)
        self.proc: subprocess.Popen[str] | None = None
        self._drainer: threading.Thread | None = None
        self.base = ""

    def start(self) -> ServerProcess:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys; from parlor.cli import main; sys.exit(main())",
                "serve",
                "--port",
                str(self.port),
                "--database-url",
                self.database_url,
                *self.extra,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            preexec_fn=self._limit if self.memory_limit else None,
            cwd=self.cwd,
        )
        assert self.proc.stdout is not None
        said = []  # (log lines may come first, at --log-level info)
        while "serving at" not in (line := self.proc.stdout.readline()):
            said.append(line)
            assert line, "".join(said)
        self.base = line.split()[-1].rstrip("/")
        self.output: list[str] = []
        # keep reading what the server prints, so that a full pipe never blocks it
        self._drainer = threading.Thread(target=self._drain, args=(self.proc.stdout,), daemon=True)
        self._drainer.start()
        self.port = int(self.base.rsplit(":", 1)[1])
        deadline = time.time() + 30
        while True:  # the address is printed before uvicorn accepts: wait for it
            try:
                with urllib.request.urlopen(self.base + "/api/health", timeout=2):
                    break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.05)
        return self

    def _limit(self) -> None:
        import resource

        assert self.memory_limit is not None
        resource.setrlimit(resource.RLIMIT_AS, (self.memory_limit, self.memory_limit))

    def log(self) -> str:
        """Everything the server has written so far (both streams)."""
        return "".join(getattr(self, "output", []))

    def _drain(self, stream: Any) -> None:
        for line in stream:
            self.output.append(line)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.show_output()

    def show_output(self) -> None:
        """Print what the server said: pytest shows it when the test fails, and hides it if not."""
        print(
            f"--- server on port {self.port} said:\n" + "".join(getattr(self, "output", [])[-200:])
        )

    def stop(self) -> None:
        if self.proc is not None:
            self.show_output()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        if self._drainer is not None:
            self._drainer.join(5)  # (what it said while stopping is read to the end)


def played(game: Game[Any], actions: int, seed: int = 0) -> Game[Any]:
    """``game`` played on by seeded random bots until it has ``actions`` actions (or is over)."""
    family = games.family(game)
    bots = [make_bot(family, "random", seed + p) for p in range(game.num_players)]
    while not game.is_over and len(game.log) < actions:
        p = game.pending.player  # type: ignore[union-attr]
        game.apply(bots[p].choose(game, p))
    return game


def table_row(table_id: str) -> dict[str, Any]:
    """A running TOOLS table's row as the store writes it (for tests of the store alone)."""
    return {
        "id": table_id,
        "game": "tools",
        "config": "{}",
        "settings": None,
        "seed": 1,
        "status": "running",
        "version": 0,
        "meta_rev": 0,
        "invite_hash": f"i-{table_id}",
        "host_hash": f"h-{table_id}",
        "listed": False,
    }


def parlor_bot(link: str, *args: str) -> subprocess.Popen[str]:
    """``parlor bot --url LINK ARGS...`` in a subprocess, its output (both streams) to read."""
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from parlor.cli import main; sys.exit(main())",
            "bot",
            "--url",
            link,
            *args,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def run(coro: Coroutine[Any, Any, Any]) -> Any:
    return asyncio.run(coro)


def host_plays_a_remote_bot(
    base: str, made: dict[str, Any], bot_seed: int, host_seed: int
) -> dict[str, Any]:
    """The host of ``made`` (seat 0) plays random legal moves against a ``parlor bot`` process
    that joins seat 1 by the invite link, to the end; the bot must finish cleanly. Returns the
    host's final frame."""
    bot = parlor_bot(made["link"], "--name", "Robo", "--seed", str(bot_seed))
    try:

        async def play() -> dict[str, Any]:
            ann = await host(base, made)
            await ann.wait(lambda t: t.table["seats"][1]["connected"], timeout=60)
            assert ann.table["seats"][1]["name"] == "Robo"
            await start(ann)
            final = await client.play_table(ann, client.random_policy(host_seed), timeout=120)
            await ann.close()
            return final

        final: dict[str, Any] = run(play())
        out, _ = bot.communicate(timeout=60)
        assert bot.returncode == 0, out
        assert "Game over:" in out and final["winners"]
        return final
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()


async def seat(base: str, made: dict[str, Any], name: str, **kw: Any) -> client.Table:
    """Join a free seat of ``made`` (a create response) and connect."""
    joined = client.join_table(made["link"], name, kw.pop("seat", None))
    return await client.Table.connect(base, made["table"], token=joined["token"], **kw)


async def host(base: str, made: dict[str, Any], **kw: Any) -> client.Table:
    return await client.Table.connect(
        base, made["table"], token=made.get("token"), host_key=made["host_key"], **kw
    )


async def start(t: client.Table) -> None:
    reply = await t.request({"type": "start"})
    assert reply["type"] == "ack", reply
    await t.wait(lambda t: t.view is not None)


async def patient(t: client.Table, frame: dict[str, Any]) -> dict[str, Any]:
    """``t.request(frame)`` once the token bucket allows it: a seat that has just played a fast
    game may have spent its messages (20 a second, twice that in a burst), and that refusal
    (``rate_limited``) is the server's rule, not the answer the test is after."""
    for _ in range(20):
        reply = await t.request(dict(frame))
        if reply.get("code") != "rate_limited":
            return reply
        await asyncio.sleep(0.25)
    raise AssertionError(f"still rate limited: {reply}")


async def export(t: client.Table, fmt: str = "save") -> Any:
    """The table's export after the end (the save, or the record), asked :func:`patient`-ly."""
    reply = await patient(t, {"type": "export", "format": fmt})
    assert reply["type"] == "export", reply
    return reply["save"] if fmt == "save" else reply["record"]


def post(base: str, path: str, data: Any, **headers: str) -> tuple[int, dict[str, Any]]:
    req = urllib.request.Request(
        base + path,
        json.dumps(data).encode(),
        {
            "Content-Type": "application/json",
            **{k.replace("_", "-"): v for k, v in headers.items()},
        },
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


class PostgresCluster:
    """initdb + pg_ctl from /usr/lib/postgresql/*/bin, run as the ``postgres`` user when we are root.

    ``scripts/test.sh`` installs Debian's ``postgresql`` package when it is missing; a test that
    needs PostgreSQL fails (never skips) when it is not there.
    """

    def __init__(self) -> None:
        import glob
        import socket
        import tempfile

        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            raise RuntimeError("PostgreSQL is not installed: run scripts/test.sh (it installs it)")
        self.bin = Path(found[-1]).parent
        # its own directory under /tmp: pytest's are private to root, and postgres must enter it
        self.root = Path(tempfile.mkdtemp(prefix="parlor-pg-"))
        self.dir = self.root / "data"
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *cmd: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*prefix, *cmd], check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres")
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.dir),
            "-A",
            "trust",
            "-U",
            "postgres",
            "--no-sync",
        )
        opts = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir} -c fsync=off -c max_connections=200"
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.dir),
            "-o",
            opts,
            "-l",
            str(self.dir / "log"),
            "-w",
            "start",
        )

    def stop(self) -> None:
        try:
            self._run(
                str(self.bin / "pg_ctl"), "-D", str(self.dir), "-m", "immediate", "-w", "stop"
            )
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

"""Load on one ``parlor serve`` process: N tables, 4 WebSocket clients each, playing flat out.

Every table is 4 people (no bots): whoever must decide answers at once with a random legal answer;
the latency of an action is the time from sending it to the moment the last of the table's 4
seats has received the update it caused. Finished games are replaced by new tables. Prints
actions/s, how many tables had an action in flight on average (short games spend part of the
window being remade), and latency percentiles over the measured window (it opens a warm-up after
every table is playing), the CPU the server and this client took, and the load average.

    python bench/bench_server.py --tables 300 --seconds 20 --warmup 10

The client shares the machine with the server, so it is kept lean: one event loop per process
(uvloop when installed; ``--clients K`` shares the tables among K processes), and each
connection is the ``websockets`` library's sans-I/O protocol on a plain asyncio transport, so a
frame is handled in the callback that read it (no task switch per frame). Every frame of every seat is received and its version read; only a frame that carries
this seat's prompt is parsed in full (orjson). The clients speak protocol 2 (``--protocol 1`` for
an older server): an action sent without a ``ref`` is not acknowledged by a frame of its own.

``--pace N`` plays at human pace instead: each table gets an action every N seconds (the first at
a random moment of its first N seconds, so that the tables do not act together), and each table
has a spectator besides its 4 seats (``--spectators``); latency is then to the last of the 5
connections. The question it answers is not how many actions a second one process can take but
whether many quiet tables stay quick:

    python bench/bench_server.py --pace 2 --tables 1000 --seconds 60 --warmup 10
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from functools import partial
from typing import Any, cast
from urllib.parse import urlsplit

import orjson
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from parlor import client

UPDATE = b'{"type":"update","version":'
METRICS_TOKEN = "bench"  # (the server this bench starts serves /metrics with it)


def server_latency(base: str) -> dict[str, float] | None:
    """The server's own action-to-update histogram (``/metrics``): cumulative count by bucket
    bound; None when the server does not serve it (an older one, or started without a token)."""
    req = urllib.request.Request(
        base + "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            text = resp.read().decode()
    except OSError:
        return None
    out = {}
    for line in text.splitlines():
        if line.startswith("parlor_action_update_seconds_bucket{"):
            le = line.split('le="', 1)[1].split('"', 1)[0]
            out[le] = float(line.rsplit(" ", 1)[1])
        elif line.startswith("parlor_db_commit_seconds_count "):  # (the group commits so far)
            out["commits"] = float(line.rsplit(" ", 1)[1])
    return out or None


def bucket_quantile(before: dict[str, float], after: dict[str, float], q: float) -> str:
    """The bucket bound below which a fraction ``q`` of the window's observations fell."""
    bounds = sorted(
        (le for le in after if le != "commits"), key=lambda le: float(le.replace("+Inf", "inf"))
    )
    total = after["+Inf"] - before.get("+Inf", 0.0)
    for le in bounds:
        if after[le] - before.get(le, 0.0) >= q * total:
            return "over 10 s" if le == "+Inf" else f"<= {float(le) * 1000:g} ms"
    return "?"


class Seat(asyncio.Protocol):
    """One WebSocket connection, driven by hand: bytes in, frames out, no task of its own."""

    def __init__(self, url: str, on_frame: Callable[[bytes], None]) -> None:
        self.ws = ClientProtocol(parse_uri(url), max_size=2**24)
        self.on_frame = on_frame
        self.transport: asyncio.Transport | None = None
        self.open: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # (uvloop's is not a subclass)
        self.ws.send_request(self.ws.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Response):
                if event.status_code == 101:
                    self.open.set_result(None)
                else:
                    self.open.set_exception(ConnectionError(f"handshake: {event.status_code}"))
            elif isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                self.on_frame(cast(bytes, event.data))  # (text frames: bytes)
        self._flush()  # pongs and close replies

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.open.done():
            self.open.set_exception(exc or ConnectionError("closed"))

    def send(self, frame: dict[str, Any]) -> None:
        self.ws.send_text(orjson.dumps(frame))
        self._flush()

    def _flush(self) -> None:
        data = self.ws.data_to_send()
        if data and self.transport is not None and not self.transport.is_closing():
            self.transport.write(b"".join(data))

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


class Stats:
    def __init__(self, started: Any) -> None:
        # the window is not known yet: it opens once every table is playing (see ``measure``)
        self.measure_from, self.stop_at = float("inf"), float("inf")
        self.started = started  # tables of every client process that have started a game
        self.lat: list[float] = []
        self.errors: dict[str, int] = {}
        self.games = 0


class TablePlay:
    """The four seats of one table: who has seen which version, and the actions in flight."""

    def __init__(self, stats: Stats, rng: random.Random) -> None:
        self.stats, self.rng = stats, rng
        self.seats: list[Seat] = []
        self.got: dict[int, int] = {}  # version -> seats that have received its update
        self.sent: dict[int, float] = {}  # version acted on -> when the action went
        self.prompt: tuple[int, dict[str, Any]] | None = None  # (seat, frame) of the newest
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.protocol = 2
        self.pace = 0.0  # seconds between two actions of this table (0: at once)
        self.next_at = 0.0  # (with a pace) when this table's next action may go
        self.held: int | None = None  # the version whose answer waits for its moment

    def frame(self, i: int, data: bytes) -> None:
        if data.startswith(UPDATE):  # compact JSON, as this server writes it: read the version
            end = data.index(b",", len(UPDATE))
            self.arrived(int(data[len(UPDATE) : end]))
            if b'"prompt":null' in data and b'"final":null' in data:
                return
            msg = orjson.loads(data)
        else:  # any other frame, or a server that writes JSON with spaces: parsed in full
            msg = orjson.loads(data)
            kind = msg.get("type")
            if kind == "update":
                self.arrived(msg["version"])
            elif kind not in ("welcome", "error"):
                return  # acks, table news, notices
        if msg["type"] == "error":  # counted; the newest prompt is answered again
            code = msg["code"]
            self.stats.errors[code] = self.stats.errors.get(code, 0) + 1
            if self.prompt is not None:
                self.sent.pop(self.prompt[1]["version"], None)
                self.act(*self.prompt)
            return
        if msg.get("final"):
            if not self.done.done():
                self.done.set_result(None)
            return
        if msg.get("prompt"):
            self.prompt = (i, msg)
            self.act(i, msg)

    def arrived(self, version: int) -> None:
        n = self.got[version] = self.got.get(version, 0) + 1
        if n == len(self.seats):  # the last seat has it: the action's latency
            del self.got[version]
            t0 = self.sent.pop(version - 1, None)
            now = time.monotonic()
            if t0 is not None and t0 >= self.stats.measure_from and now < self.stats.stop_at:
                self.stats.lat.append(now - t0)

    def act(self, i: int, msg: dict[str, Any]) -> None:
        version = msg["version"]
        now = time.monotonic()
        if version in self.sent or now >= self.stats.stop_at:
            return
        if self.pace > 0:
            if now < self.next_at:  # not yet: answered when this table's moment comes
                if self.held != version:
                    self.held = version
                    asyncio.get_running_loop().call_later(self.next_at - now, self.due, version)
                return
            # the next moment a pace after this one (or after now, if this one was missed)
            self.next_at = max(self.next_at + self.pace, now)
        prompt = msg["prompt"]
        answer = self.rng.choice(prompt["answers"])
        out: dict[str, Any] = {"type": "action", "version": version}
        if "terms_revision" in prompt:  # accepting a trade names the terms it was shown
            out["terms_revision"] = prompt["terms_revision"]
        if answer["id"] is not None:
            out["id"] = answer["id"]
        else:
            out["action"] = answer["action"]
        self.sent[version] = time.monotonic()
        self.seats[i].send(out)

    def due(self, version: int) -> None:
        """The held answer's moment: sent if its prompt is still the newest."""
        self.held = None
        if self.prompt is not None and self.prompt[1]["version"] == version:
            self.act(*self.prompt)


async def connect(url: str, on_frame: Callable[[bytes], None]) -> Seat:
    parts = urlsplit(url)
    loop = asyncio.get_running_loop()
    _, seat = await loop.create_connection(
        lambda: Seat(url, on_frame), parts.hostname or "127.0.0.1", parts.port or 80
    )
    await seat.open
    return seat


async def run_table(
    base: str,
    game: str,
    stats: Stats,
    rng: random.Random,
    protocol: int,
    pace: float = 0.0,
    spectators: int = 0,
) -> None:
    first = True
    while time.monotonic() < stats.stop_at:
        made = await asyncio.to_thread(client.create_table, base, game=game, seats=4)
        tokens = [made["token"]]
        for i in range(1, 4):
            joined = await asyncio.to_thread(client.join_table, made["link"], f"P{i}")
            tokens.append(joined["token"])
        play = TablePlay(stats, rng)
        play.protocol = protocol
        play.pace = pace
        play.next_at = time.monotonic() + rng.uniform(0, pace)
        for i in range(4 + spectators):
            # each says hello as soon as it is open (the server gives a silent connection only
            # --hello-timeout seconds, and opening the next ones can take that long under load)
            seat = await connect(client.ws_url(base), partial(play.frame, i))
            play.seats.append(seat)
            # protocol 2: an action sent without a ref is not acknowledged (its update says so)
            hello: dict[str, Any] = {
                "type": "hello",
                "protocol": play.protocol,
                "table": made["table"],
            }
            if i < 4:
                hello["token"] = tokens[i]
            else:  # a spectator: the invite, no seat
                hello["invite"] = made["invite"]
            if i == 0:
                hello["host_key"] = made["host_key"]
            seat.send(hello)
        play.seats[0].send({"type": "start"})
        if first:
            first = False
            with stats.started.get_lock():
                stats.started.value += 1
        while not play.done.done() and time.monotonic() < stats.stop_at:
            await asyncio.wait([play.done], timeout=1.0)
        stats.games += play.done.done()
        for seat in play.seats:
            seat.close()


def cpu_seconds(pid: int, kernel: bool = False) -> float:
    """User + system CPU time of a process so far (Linux /proc); ``kernel``: system time only."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = int(fields[12]) if kernel else int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def loop_thread_times(pid: int) -> tuple[float, float] | None:
    """Seconds the server's main thread (its event loop) has run on a CPU and has waited, ready,
    for one (Linux schedstat); None where the kernel does not keep them. What is left of the
    wall clock is time it slept: idle, or blocked in a system call."""
    try:
        with open(f"/proc/{pid}/schedstat") as f:
            ran, waited = f.read().split()[:2]
    except (OSError, ValueError):
        return None
    return int(ran) / 1e9, int(waited) / 1e9


def start_server(tables: int, python: str, per_table: int = 4) -> tuple[subprocess.Popen[str], str]:
    db = os.path.join(tempfile.mkdtemp(), "bench.db")
    server = subprocess.Popen(
        [
            python,
            "-c",
            "import sys; from parlor.cli import main; sys.exit(main())",
            "serve",
            "--port",
            "0",
            "--database-url",
            f"sqlite:///{db}",
            "--metrics-token",
            METRICS_TOKEN,
            "--bot-delay",
            "0",
            "--max-connections-per-address",
            str(tables * per_table + 100),
            "--max-messages-per-address",
            "1000000",
            "--max-messages-per-connection",
            "100000",
            "--max-requests-per-address",  # (every table is created and joined from here)
            "1000000",
            "--max-requests-in-flight-per-address",
            str(tables * 4 + 100),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None
    base = server.stdout.readline().split()[-1].rstrip("/")
    for _ in range(400):
        try:
            urllib.request.urlopen(base + "/api/health", timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    return server, base


async def drive(args: argparse.Namespace, base: str, tables: int, seed: int, shared: Any) -> Any:
    """Play ``tables`` tables from this process; what it measured in the common window."""
    stats = Stats(shared.started)
    rng = random.Random(seed)
    running = [
        asyncio.ensure_future(
            run_table(
                base,
                args.game,
                stats,
                random.Random(rng.random()),
                args.protocol,
                args.pace,
                args.spectators,
            )
        )
        for _ in range(tables)
    ]
    while shared.window.value == 0.0:  # set by ``measure`` when every table plays
        await asyncio.sleep(0.02)
    stats.measure_from = shared.window.value
    stats.stop_at = stats.measure_from + args.seconds
    await asyncio.sleep(max(0.0, stats.measure_from - time.monotonic()))
    cpu0 = time.process_time()
    await asyncio.sleep(max(0.0, stats.stop_at - time.monotonic()))
    cpu1 = time.process_time()
    # (a table whose making failed, say an HTTP call that timed out on an overloaded server,
    # is counted and reported, not allowed to take the whole client process down)
    failed = [r for r in await asyncio.gather(*running, return_exceptions=True) if r is not None]
    return {
        "lat": stats.lat,
        "errors": stats.errors,
        "cpu": cpu1 - cpu0,
        "failed": [f"{type(r).__name__}: {r}" for r in failed],
    }


def client_process(
    args: argparse.Namespace,
    base: str,
    tables: int,
    seed: int,
    shared: Any,
    out: Any,
) -> None:
    run: Any = asyncio.run
    try:
        import uvloop

        run = uvloop.run
    except ImportError:
        pass
    out.put(run(drive(args, base, tables, seed, shared)))


def measure(args: argparse.Namespace, base: str, server_pid: int | None) -> None:
    """Start the client processes, read the server's CPU over the window, then report."""
    ctx = multiprocessing.get_context("fork")  # (before any event loop exists in this one)
    out = ctx.Queue()
    shared = argparse.Namespace(started=ctx.Value("i", 0), window=ctx.Value("d", 0.0))
    start = time.monotonic()  # (one clock for every process: CLOCK_MONOTONIC)
    share = [
        args.tables // args.clients + (i < args.tables % args.clients) for i in range(args.clients)
    ]
    procs = [
        ctx.Process(target=client_process, args=(args, base, n, args.seed * 1000 + i, shared, out))
        for i, n in enumerate(share)
        if n > 0
    ]
    for proc in procs:
        proc.start()
    # The window opens --warmup seconds after the last table began to play (at most
    # --make-timeout seconds from the start): N tables means N tables playing, not being made.
    all_playing = None
    while time.monotonic() < start + args.make_timeout:
        if shared.started.value >= args.tables:
            all_playing = time.monotonic() - start
            break
        time.sleep(0.05)
    playing = shared.started.value
    opens = time.monotonic() + args.warmup
    shared.window.value = opens
    time.sleep(max(0.0, opens - time.monotonic()))
    server0 = None if server_pid is None else cpu_seconds(server_pid)
    kernel0 = None if server_pid is None else cpu_seconds(server_pid, kernel=True)
    sched0 = None if server_pid is None else loop_thread_times(server_pid)
    hist0 = server_latency(base)
    time.sleep(max(0.0, opens + args.seconds - time.monotonic()))
    server1 = None if server_pid is None else cpu_seconds(server_pid)
    kernel1 = None if server_pid is None else cpu_seconds(server_pid, kernel=True)
    sched1 = None if server_pid is None else loop_thread_times(server_pid)
    hist1 = server_latency(base)
    load = os.getloadavg()
    results = [out.get() for _ in procs]
    for proc in procs:
        proc.join()
    lat = sorted(x for r in results for x in r["lat"])
    errors: dict[str, int] = {}
    for r in results:
        for code, n in r["errors"].items():
            errors[code] = errors.get(code, 0) + n
    if args.pace > 0:
        print(
            f"human pace: an action every {args.pace:g} s per table "
            f"({args.tables / args.pace:.0f} actions/s expected), "
            f"{args.spectators} spectator(s) per table"
        )
    print(
        f"{args.tables} tables x {4 + args.spectators} WebSocket clients, {args.game}, one server process, "
        f"{len(procs)} client process(es), {args.seconds:.0f} s measured, "
        f"{args.warmup:.0f} s after every table was playing"
    )
    if all_playing is None:  # the window then also measured tables being made and joined
        print(f"only {playing} of {args.tables} tables were playing when the window opened")
    else:
        print(f"all {args.tables} tables were playing {all_playing:.1f} s after the start")
    if len(lat) < 2:
        print("no action was measured", errors)
        return
    q = statistics.quantiles(lat, n=100)
    print(f"actions/s: {len(lat) / args.seconds:.0f}   ({len(lat)} actions)")
    # Little's law: the actions in flight on average (one at most per table: the tables playing,
    # not those being made or joined between games)
    print(f"tables with an action in flight, on average: {sum(lat) / args.seconds:.0f}")
    print(
        f"latency to the last connection's update: p50 {q[49] * 1000:.1f} ms, "
        f"p90 {q[89] * 1000:.1f} ms, p99 {q[98] * 1000:.1f} ms, max {lat[-1] * 1000:.1f} ms"
    )
    if hist0 is not None and hist1 is not None and hist1["+Inf"] > hist0.get("+Inf", 0.0):
        # measured inside the server (from the play loop to the frames written): what is above
        # it in the figures before is the client, the network stack and the scheduler
        print(
            "the server's own latency (/metrics buckets): p50 "
            + ", p99 ".join(bucket_quantile(hist0, hist1, q) for q in (0.5, 0.99))
        )
        commits = hist1.get("commits", 0.0) - hist0.get("commits", 0.0)
        if commits > 0:  # (every action of the window went through a group commit)
            print(
                f"group commits: {commits / args.seconds:.0f} a second, {len(lat) / commits:.1f} actions each"
            )
    if server0 is not None and server1 is not None:
        used = server1 - server0
        print(
            f"server CPU: {used / args.seconds * 100:.0f}% of one core, "
            f"{used / len(lat) * 1000:.2f} ms per action"
            + (
                ""
                if kernel0 is None or kernel1 is None
                else f" ({(kernel1 - kernel0) / len(lat) * 1000:.2f} ms of it in the kernel)"
            )
        )
    if sched0 is not None and sched1 is not None:
        # (on a shared machine the loop also waits for a core: that is not idleness)
        ran, waited = (b - a for a, b in zip(sched0, sched1, strict=True))
        slept = max(0.0, args.seconds - ran - waited)
        print(
            f"server event loop: ran {ran / args.seconds * 100:.0f}%, waited for a core "
            f"{waited / args.seconds * 100:.0f}%, slept (idle or blocked) "
            f"{slept / args.seconds * 100:.0f}% of the window"
        )
    used = sum(r["cpu"] for r in results)
    print(
        f"bench client CPU: {used / args.seconds * 100:.0f}% of one core, "
        f"{used / len(lat) * 1000:.2f} ms per action"
    )
    failed = [f for r in results for f in r["failed"]]
    if failed:
        print(f"{len(failed)} tables failed (not measured after that), the first: {failed[0]}")
    if errors:
        print("error frames:", errors)
    print(f"load average during the window: {load[0]:.1f} (1 min) on {os.cpu_count()} cores")


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--tables", type=int, default=300)
    ap.add_argument("--seconds", type=float, default=30.0, help="measured window")
    ap.add_argument(
        "--warmup",
        type=float,
        default=10.0,
        help="seconds of play between the moment every table is playing and the window",
    )
    ap.add_argument(
        "--make-timeout",
        type=float,
        default=300.0,
        help="seconds to wait for every table to be made and started before measuring anyway",
    )
    ap.add_argument("--game", default="monopoly", choices=["tools", "monopoly"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--protocol",
        type=int,
        default=2,
        choices=[1, 2],
        help="protocol version the clients speak (1: every action is acknowledged by a frame)",
    )
    ap.add_argument(
        "--clients",
        type=int,
        default=1,
        help="client processes the tables are shared among (the client's CPU on several cores)",
    )
    ap.add_argument(
        "--pace",
        type=float,
        default=0.0,
        help="seconds between two actions of a table (human pace; default 0: flat out)",
    )
    ap.add_argument(
        "--spectators",
        type=int,
        default=None,
        help="spectators per table besides its 4 seats (default 1 with --pace, else 0)",
    )
    ap.add_argument("--url", default=None, help="an already running server (default: start one)")
    ap.add_argument(
        "--server-python",
        default=sys.executable,
        help="the interpreter that runs the server (default this one)",
    )
    args = ap.parse_args()
    if args.spectators is None:
        args.spectators = 1 if args.pace > 0 else 0
    server, base = (
        (None, args.url)
        if args.url
        else start_server(args.tables, args.server_python, 4 + args.spectators)
    )
    try:
        measure(args, base, None if server is None else server.pid)
    finally:
        if server is not None:
            server.terminate()
            try:  # (a clean stop writes every moved table's snapshot: long at 1,000 tables)
                server.wait(60)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(10)


if __name__ == "__main__":
    main()

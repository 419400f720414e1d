"""Load on one ``parlor serve`` process: N tables, 4 WebSocket clients each, playing flat out.

Every table is 4 people (no bots): whoever must decide answers at once with a random legal answer;
the latency of an action is the time from sending it to the moment the last of the table's 4
seats has received the update it caused. Finished games are replaced by new tables. Prints
actions/s and latency percentiles over the measured window (after a warm-up).

    python bench/bench_server.py --tables 300 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any

from websockets.asyncio.client import connect

from parlor import client


class Seats:
    """The four connections of one table and what they have seen."""

    def __init__(
        self,
        socks: list[Any],
        measure_from: float,
        stop_at: float,
        lat: list[float],
        counts: list[int],
    ) -> None:
        self.socks = socks
        self.state: list[dict[str, Any]] = [{} for _ in socks]
        self.seen = [0] * len(socks)
        self.got: dict[int, set[int]] = {}
        self.sent_at: dict[int, float] = {}
        self.errors: dict[str, int] = {}
        self.done = asyncio.Event()
        self.turn = asyncio.Event()
        self.measure_from, self.stop_at, self.lat, self.counts = measure_from, stop_at, lat, counts

    async def reader(self, i: int) -> None:
        async for text in self.socks[i]:
            frame = json.loads(text)
            if frame["type"] == "error":  # counted; the action is sent again on the next turn
                self.errors[frame["code"]] = self.errors.get(frame["code"], 0) + 1
                self.sent_at.clear()
                self.turn.set()
                continue
            if frame["type"] not in ("welcome", "update"):
                continue
            v = self.seen[i] = frame["version"]
            self.state[i] = frame
            if frame["type"] == "update":
                self.got.setdefault(v, set()).add(i)
                if len(self.got[v]) == len(
                    self.socks
                ):  # the last seat has it: the action's latency
                    del self.got[v]
                    t0 = self.sent_at.pop(v - 1, None)
                    now = time.monotonic()
                    if t0 is not None and t0 >= self.measure_from and now < self.stop_at:
                        self.lat.append(now - t0)
                        self.counts[0] += 1
            if frame.get("final"):
                self.done.set()
            self.turn.set()


async def run_table(
    base: str,
    game: str,
    rng: random.Random,
    stop_at: float,
    measure_from: float,
    lat: list[float],
    counts: list[int],
) -> None:
    while time.monotonic() < stop_at:
        made = await asyncio.to_thread(client.create_table, base, game=game, seats=4)
        tokens = [made["token"]] + [
            (await asyncio.to_thread(client.join_table, made["link"], f"P{i}"))["token"]
            for i in range(1, 4)
        ]
        socks = [
            await connect(client.ws_url(base), max_size=2**24, compression=None) for _ in range(4)
        ]
        for i, ws in enumerate(socks):
            hello = {"type": "hello", "table": made["table"], "token": tokens[i]}
            if i == 0:
                hello["host_key"] = made["host_key"]
            await ws.send(json.dumps(hello))
        t = Seats(socks, measure_from, stop_at, lat, counts)
        readers = [asyncio.ensure_future(t.reader(i)) for i in range(4)]
        await socks[0].send(json.dumps({"type": "start"}))
        while not t.done.is_set() and time.monotonic() < stop_at:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(t.turn.wait(), 1.0)
            t.turn.clear()
            for i in range(4):
                frame = t.state[i]
                prompt = frame.get("prompt")
                if prompt and frame["version"] == max(t.seen) and frame["version"] not in t.sent_at:
                    answer = rng.choice(prompt["answers"])
                    t.sent_at[frame["version"]] = time.monotonic()
                    msg = {"type": "action", "version": frame["version"]}
                    if answer["id"] is not None:
                        msg["id"] = answer["id"]
                    else:
                        msg["action"] = answer["action"]
                    await socks[i].send(json.dumps(msg))
        for ws in socks:
            await ws.close()
        for r in readers:
            r.cancel()


def worker(
    base: str, game: str, tables: int, seconds: float, warmup: float, seed: int, out: Any
) -> None:
    async def main() -> tuple[list[float], int]:
        lat: list[float] = []
        counts = [0]
        now = time.monotonic()
        stop_at, measure_from = now + warmup + seconds, now + warmup
        rng = random.Random(seed)
        await asyncio.gather(
            *(
                run_table(
                    base, game, random.Random(rng.random()), stop_at, measure_from, lat, counts
                )
                for _ in range(tables)
            )
        )
        return lat, counts[0]

    lat, n = asyncio.run(main())
    out.put((lat, n, time.process_time()))


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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
        help="seconds before measuring (tables are created then)",
    )
    ap.add_argument("--game", default="monopoly", choices=["tools", "monopoly"])
    ap.add_argument("--client-procs", type=int, default=2, help="processes driving the clients")
    ap.add_argument("--url", default=None, help="an already running server (default: start one)")
    args = ap.parse_args()

    server = None
    base = args.url
    if base is None:
        db = os.path.join(tempfile.mkdtemp(), "bench.db")
        server = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys; from parlor.cli import main; sys.exit(main())",
                "serve",
                "--port",
                "0",
                "--database-url",
                f"sqlite:///{db}",
                "--bot-delay",
                "0",
                "--max-connections-per-address",
                str(args.tables * 4 + 100),
                "--max-messages-per-address",
                "1000000",
                "--max-messages-per-connection",
                "100000",
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert server.stdout is not None
        base = server.stdout.readline().split()[-1].rstrip("/")
        for _ in range(200):
            try:
                urllib.request.urlopen(base + "/api/health", timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
    try:
        out: Any = mp.Queue()
        share = [
            args.tables // args.client_procs + (i < args.tables % args.client_procs)
            for i in range(args.client_procs)
        ]
        procs = [
            mp.Process(target=worker, args=(base, args.game, n, args.seconds, args.warmup, i, out))
            for i, n in enumerate(share)
            if n
        ]
        for p in procs:
            p.start()
        cpu_window: list[float] = []
        if server is not None:  # the server's own CPU time over the measured window
            time.sleep(args.warmup)
            cpu_window.append(cpu_seconds(server.pid))
            time.sleep(args.seconds)
            cpu_window.append(cpu_seconds(server.pid))
        lat: list[float] = []
        actions = 0
        client_cpu = 0.0
        for _ in procs:
            part, n, cpu = out.get()
            lat += part
            actions += n
            client_cpu += cpu
        for p in procs:
            p.join()
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)
    lat.sort()
    if not lat:
        print("no action was measured")
        return
    q = statistics.quantiles(lat, n=100)
    print(
        f"{args.tables} tables x 4 WebSocket clients, {args.game}, one server process, {args.seconds:.0f} s measured"
    )
    print(f"actions/s: {actions / args.seconds:.0f}   ({actions} actions)")
    print(
        f"latency to the last seat's update: p50 {q[49] * 1000:.1f} ms, p90 {q[89] * 1000:.1f} ms, p99 {q[98] * 1000:.1f} ms, max {lat[-1] * 1000:.1f} ms"
    )
    if len(cpu_window) == 2 and actions:
        used = cpu_window[1] - cpu_window[0]
        print(
            f"server CPU: {used / args.seconds * 100:.0f}% of one core, "
            f"{used / actions * 1000:.2f} ms per action"
        )
    print(f"client processes' CPU over the whole run: {client_cpu:.1f} s")
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()

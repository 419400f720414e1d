"""Start a two-node Ray cluster on the loopback address, simulate on it, compare with a local run.

Run by ``test_ray_cluster.py`` inside a network namespace of its own (``unshare --net``), where
the loopback interface is the only one: Ray, which replaces a loopback node address by the
machine's outward one, then has nothing but 127.0.0.1 to listen on and to reach. It prints one
JSON line with what it found. The nodes are ``ray start --block`` commands in process groups of
their own, ended by group (never by a machine-wide ``ray stop``).

    unshare --net python tests/sim/ray_cluster_run.py OUT_DIR
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HOST = "127.0.0.1"
START_TIMEOUT = 100.0
GAMES = 12
SEED = 40
CLI_ARGS = ["--game", "tools", "--players", "3", "--bots", "random,heuristic,random"]
CLI_ARGS += ["--rotate-seats", "--games", str(GAMES), "--seed", str(SEED)]
CLI_ARGS += ["--no-plots", "--no-progress"]


def loopback_up() -> None:
    """Bring up ``lo`` in a fresh network namespace (SIOCGIFFLAGS / SIOCSIFFLAGS)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        request = struct.pack("16sH", b"lo", 0)
        flags = struct.unpack("16sH", fcntl.ioctl(s, 0x8913, request)[:18])[1]
        fcntl.ioctl(s, 0x8914, struct.pack("16sH", b"lo", flags | 0x1))


def free_ports(n: int) -> list[int]:
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.bind((HOST, 0))
        socks.append(s)
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def node_args() -> list[str]:
    ports = free_ports(7)
    # the workers take the 21 ports from ports[6] on: none of the single ports may fall there
    # (Ray refuses to start a node whose ports overlap; free ports are drawn at random)
    while any(ports[6] <= p <= ports[6] + 20 for p in ports[:6]):
        ports = free_ports(7)
    return [
        "--num-cpus=1",
        f"--node-manager-port={ports[0]}",
        f"--object-manager-port={ports[1]}",
        f"--dashboard-agent-listen-port={ports[2]}",
        f"--dashboard-agent-grpc-port={ports[3]}",
        f"--metrics-export-port={ports[4]}",
        f"--runtime-env-agent-port={ports[5]}",
        f"--min-worker-port={ports[6]}",
        f"--max-worker-port={ports[6] + 20}",
        "--object-store-memory=80000000",
        "--disable-usage-stats",
        "--block",
    ]


def start(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    ray = Path(sys.executable).with_name("ray")
    with log.open("wb") as out:
        return subprocess.Popen(
            [str(ray) if ray.exists() else "ray", "start", *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # the node's processes share this process group
        )


def stop(proc: subprocess.Popen[bytes]) -> None:
    for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            continue
        # The command is gone; its node's processes may still be ending.
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                os.killpg(proc.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.3)


def wait_started(proc: subprocess.Popen[bytes], log: Path, deadline: float) -> None:
    while b"Ray runtime started" not in log.read_bytes():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"a Ray node did not start:\n{log.read_text(errors='replace')}")
        time.sleep(0.5)


def main() -> None:
    out_dir = Path(sys.argv[1])
    loopback_up()
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    os.environ.pop("RAY_ADDRESS", None)
    # Ray authenticates with a token: this cluster's own, passed by the environment (never
    # written to the shared ~/.ray).
    os.environ["RAY_AUTH_MODE"] = "token"
    os.environ["RAY_AUTH_TOKEN"] = secrets.token_hex(32)
    temp = Path(tempfile.mkdtemp(prefix="pray", dir="/tmp"))  # short: Ray's socket paths
    (gcs_port,) = free_ports(1)
    address = f"{HOST}:{gcs_port}"
    procs: list[subprocess.Popen[bytes]] = []
    report: dict[str, object] = {"address": address}
    try:
        deadline = time.monotonic() + START_TIMEOUT
        head = ["--head", f"--port={gcs_port}", f"--node-ip-address={HOST}"]
        head += ["--include-dashboard=false", f"--temp-dir={temp}"]
        procs.append(start([*head, *node_args()], temp / "head.log"))
        wait_started(procs[0], temp / "head.log", deadline)
        procs.append(start([f"--address={address}", *node_args()], temp / "node.log"))
        wait_started(procs[1], temp / "node.log", deadline)

        import ray

        from parlor.cli import simulate_cmd
        from parlor.sim import GameSpec, run_many

        ray.init(address=address, log_to_driver=False)
        while sum(1 for n in ray.nodes() if n["Alive"]) < 2:
            if time.monotonic() > deadline:
                raise SystemExit("the second node did not join")
            time.sleep(0.5)
        report["nodes"] = sorted(n["NodeManagerAddress"] for n in ray.nodes() if n["Alive"])

        @ray.remote(num_cpus=1)
        def where() -> str:
            time.sleep(0.3)
            return str(ray.get_runtime_context().get_node_id())

        # one task pinned to each node (left to the scheduler, a busy machine can let the head
        # run them all before the other node's worker process is up)
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        pinned = [
            where.options(
                scheduling_strategy=NodeAffinitySchedulingStrategy(node_id=n["NodeID"], soft=False)
            ).remote()
            for n in ray.nodes()
            if n["Alive"]
        ]
        report["task_nodes"] = len(set(ray.get(pinned)))
        ray.shutdown()

        spec = GameSpec(
            game="tools", players=3, bots=("random", "heuristic", "random"), rotate=True
        )
        local = run_many(spec, GAMES, base_seed=SEED, workers=1, progress=False)
        remote = run_many(
            spec, GAMES, SEED, backend="ray", ray_address=address, progress=False, chunk_size=2
        )
        report["rows_equal"] = remote == local
        report["games"] = len(remote)

        # The command, pointed at the cluster by RAY_ADDRESS as a user would.
        os.environ["RAY_ADDRESS"] = address
        code = simulate_cmd.main([*CLI_ARGS, "--backend", "ray", "--out", str(out_dir / "ray")])
        del os.environ["RAY_ADDRESS"]
        code |= simulate_cmd.main([*CLI_ARGS, "--workers", "1", "--out", str(out_dir / "local")])
        import pyarrow.parquet as pq

        rows = [pq.read_table(out_dir / k / "games.parquet").to_pylist() for k in ("ray", "local")]
        summary = json.loads((out_dir / "ray" / "summary.json").read_text())
        report["cli_exit"] = code
        report["cli_rows_equal"] = rows[0] == rows[1] and len(rows[0]) == GAMES
        report["cli_backend"] = summary["run"]["backend"]
        report["cli_ray_address"] = summary["run"]["ray_address"]
    finally:
        for proc in reversed(procs):
            stop(proc)
        shutil.rmtree(temp, ignore_errors=True)
    print("RESULT " + json.dumps(report), flush=True)


if __name__ == "__main__":
    main()

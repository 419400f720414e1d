"""Peak memory and speed of ``parlor simulate``, run in a subprocess.

Usage:
    python bench/bench_sim_memory.py --game tools --games 20000 50000
    python bench/bench_sim_memory.py --game monopoly --bots heuristic --games 1000 4000

For each run size it prints the peak resident memory of the largest process of the run
(``getrusage(RUSAGE_CHILDREN).ru_maxrss``: the command or one of its workers), the peak of the
whole process tree summed (sampled every 0.1 s from /proc), and games per second. Memory that stays
flat while the run grows is what lets a long run be extrapolated: the script says by how much it
grew between the smallest and the largest size.

With ``--remake`` each run's report is then made again from its rows file alone
(``parlor simulate --from``, in a fresh subprocess): the script prints that command's peak RSS and
time, and whether it wrote the very ``summary.json`` of the run. ``--report-from PATH`` measures
only that, for the rows of an earlier run (a ``games.parquet`` or its directory; the report goes
to a temporary directory)::

    python bench/bench_sim_memory.py --game tools --games 1000000 --remake --out runs/tools
    python bench/bench_sim_memory.py --report-from runs/tools/1000000
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

RATE = re.compile(r"(\d+) games in ([\d.]+) s \(([\d.]+) games/s")


def _tree_rss_kib(root: int) -> int:
    """Resident memory of ``root`` and all its descendants, in KiB (Linux /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        pid = int(entry)
        ppid = int(fields.get("PPid", "0").strip())
        children.setdefault(ppid, []).append(pid)
        rss[pid] = int(fields.get("VmRSS", "0 kB").split()[0])
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack.extend(children.get(pid, []))
    return total


def measure(
    command: list[str], trace: TextIO | None = None, every: float = 30.0
) -> tuple[int, str]:
    """Run ``command``; return the peak RSS of its whole process tree (KiB) and its output.
    With ``trace``, a line ``elapsed_s tree_MiB peak_MiB`` is written there every ``every``
    seconds, so that a long run shows whether its memory grows while it runs."""
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    peak_tree = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak_tree
        start = last = time.monotonic()
        while not done.is_set():
            now_kib = _tree_rss_kib(proc.pid)
            peak_tree = max(peak_tree, now_kib)
            now = time.monotonic()
            if trace is not None and now - last >= every:
                last = now
                trace.write(
                    f"{now - start:8.0f} s  tree {now_kib / 1024:6.1f} MiB  "
                    f"peak {peak_tree / 1024:6.1f} MiB\n"
                )
                trace.flush()
            time.sleep(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, _ = proc.communicate()
    done.set()
    sampler.join()
    if proc.returncode:
        raise SystemExit(f"the simulation failed ({proc.returncode}): {' '.join(command)}")
    return peak_tree, out


PARLOR = [sys.executable, "-c", "import sys; from parlor.cli import main; sys.exit(main())"]


def run_measured(
    command: list[str], trace_path: Path | None = None, label: str = ""
) -> tuple[int, int, str, float]:
    """Run ``command`` in a fresh interpreter (so that ``ru_maxrss`` is its own: it only grows);
    return the peak RSS of its largest process and of its whole tree (KiB), its output and its
    wall-clock seconds."""
    wrapper = [
        sys.executable,
        "-c",
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
        "stdout=sys.stdout); print('MAXRSS', resource.getrusage("
        "resource.RUSAGE_CHILDREN).ru_maxrss)",
        *command,
    ]
    trace = trace_path.open("a") if trace_path else None
    started = time.monotonic()
    try:
        if trace is not None:
            trace.write(f"# {label}: {' '.join(command[3:])}\n")
        tree, out_text = measure(wrapper, trace)
    finally:
        if trace is not None:
            trace.close()
    largest = int(re.findall(r"MAXRSS (\d+)", out_text)[-1])
    return largest, tree, out_text, time.monotonic() - started


def remake(rows: Path, out: Path, trace: Path | None, original: Path | None) -> None:
    """Measure ``parlor simulate --from rows --out out``; compare with ``original`` (a
    summary.json) if given."""
    command = [*PARLOR, "simulate", "--from", str(rows), "--out", str(out), "--no-progress"]
    largest, tree, out_text, seconds = run_measured(command, trace, f"report from {rows}")
    made = re.search(r"made from the (\d+) rows", " ".join(out_text.split()))
    games = made.group(1) if made else "?"
    same = ""
    if original is not None:
        equal = (out / "summary.json").read_bytes() == original.read_bytes()
        same = f"; summary.json {'identical to' if equal else 'DIFFERENT from'} the run's"
    print(
        f"  report from the {games} rows of {rows}: peak RSS {largest / 1024:6.1f} MiB "
        f"(largest process), {tree / 1024:6.1f} MiB (whole tree, sampled); "
        f"{seconds:.0f} s{same}"
    )


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=("tools", "monopoly"), default="tools")
    ap.add_argument("--edition", default=None)
    ap.add_argument("--players", type=int, default=None, help="default: 2 (TOOLS), 4 (property)")
    ap.add_argument("--bots", default="random")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--games", type=int, nargs="+", default=[20000, 50000])
    ap.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a rule option, repeatable (e.g. time_limit_rounds=20: random bots end)",
    )
    ap.add_argument("--csv", action="store_true", help="also write the CSV")
    ap.add_argument(
        "--trace", type=Path, help="append the tree's RSS every 30 s to this file (long runs)"
    )
    ap.add_argument(
        "--out", type=Path, help="keep the output here (default: a temporary directory)"
    )
    ap.add_argument(
        "--remake",
        action="store_true",
        help="then make each run's report again from its rows (parlor simulate --from)",
    )
    ap.add_argument(
        "--report-from",
        type=Path,
        metavar="PATH",
        help="only measure the report made from these rows (no run)",
    )
    args = ap.parse_args(argv)
    if args.report_from is not None:
        with tempfile.TemporaryDirectory() as scratch:
            print("parlor simulate --from PATH, in a subprocess")
            remake(args.report_from, Path(scratch), args.trace, None)
        return
    players = args.players or (2 if args.game == "tools" else 4)
    options = [a for text in args.option for a in ("--option", text)]
    print(
        f"parlor simulate --game {args.game} --players {players} --bots {args.bots} "
        f"{' '.join([*options, ''])}--workers {args.workers}{' --csv' if args.csv else ''} "
        "(plots on), in a subprocess"
    )
    peaks = []
    for n in sorted(args.games):
        with tempfile.TemporaryDirectory() as scratch:
            out = str(args.out / str(n)) if args.out else scratch
            command = [
                *PARLOR,
                "simulate",
                "--game",
                args.game,
                "--players",
                str(players),
                "--bots",
                args.bots,
                "--games",
                str(n),
                "--workers",
                str(args.workers),
                "--no-progress",
                "--out",
                out,
            ]
            if args.edition:
                command += ["--edition", args.edition]
            command += options
            if args.csv:
                command.append("--csv")
            largest, tree, out_text, _ = run_measured(command, args.trace, f"{n} games")
            rate = RATE.search(out_text)
            speed = f"{float(rate.group(3)):.0f} games/s" if rate else "games/s not printed"
            size = sum(f.stat().st_size for f in Path(out).iterdir() if f.is_file())
            peaks.append((n, largest, tree))
            print(
                f"{n:>9} games: peak RSS {largest / 1024:6.1f} MiB (largest process), "
                f"{tree / 1024:6.1f} MiB (whole tree, sampled); {speed}; "
                f"output {size / 1e6:.1f} MB"
            )
            if args.remake:
                remake(Path(out), Path(out) / "remade", args.trace, Path(out) / "summary.json")
    if len(peaks) > 1:
        (n0, a0, t0), (n1, a1, t1) = peaks[0], peaks[-1]
        print(
            f"from {n0} to {n1} games the largest process grew by {(a1 - a0) / 1024:+.1f} MiB, "
            f"the tree by {(t1 - t0) / 1024:+.1f} MiB"
        )


if __name__ == "__main__":
    main()

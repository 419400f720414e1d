"""Memory of live tables as the game server holds them: 10,000 mid-game tables of each kind.

Usage: python bench/bench_live_memory.py [--tables 10000] [--kinds classic matador tools4 ...]
                                         [--sources 40]

A table here is what ``parlor serve`` keeps in memory for a live table
(:class:`parlor.server.runtime.TableRuntime`): its config and seat plan from
:func:`parlor.server.plans.normalise` (one person and heuristic bots, the common case), its
seats, the game rebuilt by :func:`parlor.server.games.rebuild` from settings, seed and the action
log (what the server does when it loads a table), the bot objects of its bot seats, and the load
lock the hub keeps per table. The games are at mid-game: ``--sources`` games per kind are played
by heuristic bots to about half of a typical game's length (the table below), and table *i*
replays the log of source *i mod sources* (its own copy: nothing is shared between tables but
what the engine itself shares between games).

Each kind is measured in a fresh interpreter: the resident memory (VmRSS, /proc/self/status)
after the tables are built minus before (after one warm-up table), per table, and the total for
10,000; it says whether 10,000 tables of that kind fit in 2 GiB.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import hashlib
import json
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

BUDGET = 2 * 1024**3
#: kind: (game, edition, seats, decisions played: about half a heuristic game's median length)
KINDS: dict[str, tuple[str, str | None, int, int]] = {
    "classic": ("monopoly", "classic", 4, 250),
    "matco": ("monopoly", "matco", 4, 250),
    "latam": ("monopoly", "latam", 4, 250),
    "matador": ("monopoly", "matador", 4, 250),
    "tools2": ("tools", None, 2, 15),
    "tools4": ("tools", None, 4, 20),
}


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")  # pragma: no cover - Linux only


def source_games(kind: str, sources: int) -> tuple[list[dict[str, Any]], float]:
    """``sources`` saved games of ``kind`` played to mid-game by heuristic bots, and the mean
    number of actions in their logs."""
    from parlor.bots.registry import make_bot
    from parlor.server import games

    game_name, edition, seats, depth = KINDS[kind]
    names = [f"Player {i + 1}" for i in range(seats)]
    options = games.options_for(game_name, None, [], {})
    saves = []
    for seed in range(sources):
        game = games.new_game(game_name, edition, names, 1000 + seed, options)
        bots = [make_bot(game_name, "heuristic", seed=seed * 10 + s) for s in range(seats)]
        for _ in range(depth):
            decision = game.pending
            if decision is None:  # over
                break
            game.apply(bots[decision.player].choose(game, decision.player))
        # JSON round trip: the server's store hands the log over as decoded JSON
        saves.append(json.loads(json.dumps(game.to_dict())))
    return saves, sum(len(s["actions"]) for s in saves) / len(saves)


def build_table(kind: str, index: int, save: dict[str, Any]) -> Any:
    """One live table as the hub builds it from its stored rows (``Hub._build``)."""
    from parlor.server import games
    from parlor.server.plans import normalise
    from parlor.server.runtime import TableRuntime

    game_name, edition, seats, _ = KINDS[kind]
    request = {
        "game": game_name,
        "seats": ["human"] + ["heuristic"] * (seats - 1),
        **({"edition": edition} if edition else {}),
    }
    config, plan, _ = normalise(request, None)
    seat_rows = [
        {
            "seat": i,
            "name": p["name"],
            "kind": p["kind"],
            "bot": p.get("bot"),
            "bot_options": dict(p.get("bot_options", {})),
            "token_hash": hashlib.sha256(f"token-{index}-{i}".encode()).hexdigest()
            if p["kind"] == "human"
            else None,
        }
        for i, p in enumerate(plan)
    ]
    rt = TableRuntime(
        id=f"table{index:06d}",
        game_name=game_name,
        config=json.loads(json.dumps(config)),
        status="running",
        listed=False,
        seed=int(save["seed"]),
        seats=seat_rows,
        host_hash=hashlib.sha256(f"host-{index}".encode()).hexdigest(),
    )
    actions = json.loads(json.dumps(save["actions"]))  # this table's own copy of its log
    rt.game = games.rebuild(game_name, save["settings"], rt.seed, actions)
    rt.version = len(actions)
    for seat in range(len(seat_rows)):
        if rt.controller(seat) is not None:  # the bots the hub makes when their turn comes
            rt.bot_for(seat)
    return rt


def measure_one(kind: str, tables: int, sources: int) -> dict[str, Any]:
    saves, mean_actions = source_games(kind, sources)
    build_table(kind, -1, saves[0])  # warm-up: imports, editions, caches shared by every table
    gc.collect()
    before = rss_kib()
    start = time.perf_counter()
    live: dict[str, Any] = {}
    locks: dict[str, asyncio.Lock] = {}
    for i in range(tables):
        rt = build_table(kind, i, saves[i % sources])
        live[rt.id] = rt
        locks[rt.id] = asyncio.Lock()  # Hub._loading keeps one per table it loaded
    elapsed = time.perf_counter() - start
    gc.collect()
    after = rss_kib()
    going = sum(not rt.game.is_over for rt in live.values())
    return {
        "kind": kind,
        "tables": tables,
        "going": going,
        "mean_actions": mean_actions,
        "rss_before_kib": before,
        "rss_after_kib": after,
        "per_table_kib": (after - before) / tables,
        "build_s": elapsed,
    }


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=10_000)
    ap.add_argument("--sources", type=int, default=40)
    ap.add_argument("--kinds", nargs="+", choices=sorted(KINDS), default=list(KINDS))
    ap.add_argument("--one", choices=sorted(KINDS), help=argparse.SUPPRESS)  # the child's job
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(measure_one(args.one, args.tables, args.sources)))
        return
    print(
        f"{args.tables} live tables per kind (TableRuntime + rebuilt game + bots), "
        f"{args.sources} distinct mid-game logs; one fresh interpreter per kind"
    )
    worst = 0.0
    for kind in args.kinds:
        child = ["--one", kind, "--tables", str(args.tables), "--sources", str(args.sources)]
        out = subprocess.run(
            [sys.executable, __file__, *child],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        r = json.loads(out.splitlines()[-1])
        per = r["per_table_kib"] * 1024
        worst = max(worst, per)
        total = 10_000 * per
        print(
            f"{kind:8s} ({r['mean_actions']:5.0f} actions, {r['going']}/{r['tables']} going): "
            f"RSS {r['rss_before_kib'] / 1024:6.1f} -> {r['rss_after_kib'] / 1024:7.1f} MiB, "
            f"{per / 1024:6.1f} KiB per table; 10,000 tables {total / 1024**3:5.2f} GiB "
            f"({'fit' if total <= BUDGET else 'do NOT fit'} in 2 GiB); built in {r['build_s']:.0f} s"
        )
    print(
        f"largest kind: 10,000 tables take {10_000 * worst / 1024**3:.2f} GiB "
        f"({'within' if 10_000 * worst <= BUDGET else 'OVER'} 2 GiB)"
    )


if __name__ == "__main__":
    main()

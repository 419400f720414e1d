"""How long a server takes to load a long table, from its snapshot and by replaying its log.

Plays one long property game with random bots (and one TOOLS game), stores it in a real SQLite
database through the server's ``Store`` with its action log and, for the second measure, a snapshot
a few actions before its end, then loads it the way the server does (``Store.load`` then
``snapshots.restore``) several times, the two ways interleaved. Prints the median load time of
each way, the log length and the snapshot's size, and what a remote bot's ``sample`` of that table
costs per decision (server and client).

    python bench/bench_snapshot.py --actions 20000 --repeat 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from typing import Any

from parlor import monopoly, tools
from parlor.bots.registry import make_bot
from parlor.core.game import Game, action_to_dict
from parlor.server import games, snapshots
from parlor.server.store import Store


def long_game(family: str, actions: int, seed: int) -> Game[Any]:
    game: Game[Any] = (
        monopoly.new_game("classic", 4, seed, {"auctions": False})
        if family == "monopoly"
        else tools.new_game(4, seed)
    )
    bots = [make_bot(family, "random", seed * 10 + p) for p in range(game.num_players)]
    while not game.is_over and len(game.log) < actions:
        p = game.pending.player  # type: ignore[union-attr]
        game.apply(bots[p].choose(game, p))
    return game


def store_table(store: Store, table_id: str, family: str, game: Game[Any]) -> None:
    store.create_table(
        {
            "id": table_id,
            "game": family,
            "config": "{}",
            "settings": json.dumps(game.settings),
            "seed": game.seed,
            "status": "running",
            "version": 0,
            "meta_rev": 0,
            "invite_hash": table_id,
            "host_hash": table_id,
            "listed": False,
        },
        [],
    )
    rows = [(table_id, i, a.player, action_to_dict(a), "bot") for i, a in enumerate(game.log)]
    for start in range(0, len(rows), 2000):
        store.append_actions(rows[start : start + 2000])


def load(store: Store, table_id: str, use_snapshot: bool) -> tuple[float, bool, Game[Any]]:
    t0 = time.perf_counter()
    loaded = store.load(table_id)
    assert loaded is not None
    row, _seats, actions, _ = loaded
    snap = row["snapshot"] if use_snapshot else None
    game, used = snapshots.restore(
        row["game"], json.loads(row["settings"]), row["seed"], actions, snap
    )
    return time.perf_counter() - t0, used, game


def remote_bot_costs(game: Game[Any], repeat: int) -> tuple[float, float]:
    """Milliseconds per decision of a remote bot (median): the server's ``sample`` (determinize,
    encode, JSON) and the client's rebuilding of the game from it, after the first."""
    from parlor.client.bots import SeatSamples

    samples = SeatSamples()
    samples.take(json.loads(json.dumps(games.seat_sample(game, 0, 0))))
    serve, rebuild = [], []
    for _ in range(max(repeat, 5) * 4):
        t0 = time.perf_counter()
        text = json.dumps(games.seat_sample(game, 0, len(samples.log)))
        t1 = time.perf_counter()
        samples.take(json.loads(text))
        t2 = time.perf_counter()
        serve.append(t1 - t0)
        rebuild.append(t2 - t1)
    return statistics.median(serve) * 1000, statistics.median(rebuild) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--actions", type=int, default=20000, help="length of the long game's log")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{os.path.join(tmp, 'bench.db')}")
        store.migrate()
        for family in ("monopoly", "tools"):
            game = long_game(family, args.actions, args.seed)
            table_id = f"bench-{family}"
            store_table(store, table_id, family, game)
            # the snapshot a server would have written at its last multiple of EVERY actions
            at = len(game.log) - len(game.log) % snapshots.EVERY
            if at == 0:
                print(f"{family}: {len(game.log)} actions, shorter than one snapshot interval")
                continue
            prefix = long_game(family, at, args.seed)
            assert prefix.log == game.log[:at]
            store.save_snapshots([snapshots.make(table_id, at, prefix)])
            times: dict[bool, list[float]] = {True: [], False: []}
            for _ in range(args.repeat):
                for use in (False, True):
                    took, used, loaded = load(store, table_id, use)
                    assert used == use and loaded.snapshot() == game.snapshot()
                    times[use].append(took)
            sample_ms, rebuild_ms = remote_bot_costs(game, args.repeat)
            print(
                f"{family}: a remote bot's sample of that table: the server draws and encodes it "
                f"in {sample_ms:.2f} ms, the client rebuilds its game in {rebuild_ms:.2f} ms"
            )
            size = len(store.load(table_id)[0]["snapshot"]["state"])  # type: ignore[index]
            replay, snap = statistics.median(times[False]), statistics.median(times[True])
            print(
                f"{family}: {len(game.log)} actions (snapshot at {at}, {size / 1024:.1f} KiB): "
                f"load by replay {replay * 1000:.1f} ms, from the snapshot {snap * 1000:.1f} ms "
                f"({replay / snap:.1f}x), median of {args.repeat}"
            )


if __name__ == "__main__":
    main()

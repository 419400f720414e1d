"""Group commit: many tables' actions share one transaction, a lost race refuses only its own row,
and nobody is told before the row is in the database."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from parlor.server.commits import GroupCommitter
from parlor.server.store import Store
from tests.server.support import table_row


def make_store(tmp_path: Path, tables: int) -> tuple[Store, Path]:
    db = tmp_path / "commits.db"
    store = Store(f"sqlite:///{db}")
    store.migrate()
    for i in range(tables):
        store.create_table(table_row(f"t{i}"), [])
    return store, db


def action(n: int) -> dict[str, Any]:
    return {"type": "Draw", "player": n % 2}


@pytest.mark.parametrize("inline", [True, False], ids=["on the loop", "in a thread"])
def test_concurrent_actions_go_in_few_transactions_and_all_are_committed(
    tmp_path: Path, inline: bool
) -> None:
    store, db = make_store(tmp_path, 40)
    committer = GroupCommitter(store, inline=inline)
    seen: list[int] = []

    async def table(i: int) -> None:
        for seq in range(5):
            assert await committer.commit((f"t{i}", seq, 0, action(seq), "seat"))
            # told only once the row is there, read back through another connection
            rows = sqlite3.connect(db).execute(
                "SELECT count(*) FROM parlor_actions WHERE table_id = ?", (f"t{i}",)
            )
            seen.append(rows.fetchone()[0] - seq)

    async def main() -> None:
        await asyncio.gather(*(table(i) for i in range(40)))

    asyncio.run(main())
    committer.close()
    assert seen == [1] * 200
    assert committer.rows == 200 and committer.batches < 100  # 40 tables at once: shared commits
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM parlor_actions").fetchone()[0] == 200
    versions = con.execute("SELECT DISTINCT version FROM parlor_tables").fetchall()
    assert versions == [(5,)]
    assert json.loads(con.execute("SELECT action FROM parlor_actions").fetchone()[0])["type"]


def test_a_step_someone_else_committed_fails_alone(tmp_path: Path) -> None:
    store, db = make_store(tmp_path, 3)
    assert store.append_action("t1", 0, 0, action(0), "seat")  # another process got there first
    results = store.append_actions(
        [
            ("t0", 0, 0, action(0), "seat"),
            ("t1", 0, 1, action(1), "seat"),
            ("t2", 0, 0, action(2), "bot"),
        ]
    )
    assert results == [True, False, True]
    con = sqlite3.connect(db)
    rows = con.execute("SELECT table_id, seat FROM parlor_actions ORDER BY table_id").fetchall()
    assert rows == [("t0", 0), ("t1", 0), ("t2", 0)]  # t1 keeps the first writer's step


@pytest.mark.parametrize("inline", [True, False], ids=["on the loop", "in a thread"])
def test_a_step_cancelled_while_committing_is_still_applied(tmp_path: Path, inline: bool) -> None:
    """A bot's turn is cancelled (its seat's person came back) while its action waits in a batch
    or is being committed: the action is in the database, so the table here must apply it too."""
    import time

    from parlor.server import session
    from parlor.server.hub import Hub
    from parlor.server.protocol import Limits
    from parlor.server.runtime import Conn

    store = Store(f"sqlite:///{tmp_path / 'cancel.db'}")
    store.migrate()
    write = store.append_actions

    def slow_write(rows: list[Any]) -> list[bool]:
        if not inline:
            time.sleep(0.5)  # a busy disk: the commit takes a while
        return write(rows)

    store.append_actions = slow_write  # type: ignore[method-assign]

    async def main() -> None:
        hub = Hub(store, bot_delay=0)
        hub.committer = GroupCommitter(store, inline=inline)
        await hub.start()
        made = await hub.create({"game": "tools", "seats": ["human", "human"]})
        await hub.join(made["table"], made["invite"], "Bo", 1)  # (no bot plays meanwhile)
        rt = await hub.runtime(made["table"])
        assert rt is not None
        host = Conn(None, "test", Limits())  # type: ignore[arg-type]
        host.is_host, host.table = True, rt
        await session.handle(hub, host, {"type": "start"})
        assert rt.game is not None and rt.game.pending is not None
        seat = rt.game.pending.player
        action = rt.game.legal_actions(seat, anytime=False)[0]
        step = asyncio.ensure_future(hub.submit(rt, seat, action, 0, "standin"))
        # on the loop: the row waits for this iteration's batch; in a thread: it is committing
        await asyncio.sleep(0 if inline else 0.1)
        step.cancel()
        await asyncio.wait([step])
        assert step.cancelled()
        assert rt.version == 1 and len(rt.game.log) == 1  # applied here as in the database
        assert hub.tables[rt.id] is rt
        assert len(store.actions_since(rt.id, 0)) == 1
        await hub.stop()

    asyncio.run(main())


def test_inline_commits_leave_the_wal_checkpoints_to_a_thread(tmp_path: Path) -> None:
    """On the event loop a commit never copies the WAL into the database file (an fsync while
    every table waits); the committer's thread does, soon after."""
    store, db = make_store(tmp_path, 40)
    committer = GroupCommitter(store, inline=True, checkpoint_rows=50)
    with store.engine.connect() as conn:  # what the commits run on: no checkpoint of their own
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0

    async def main() -> None:
        await asyncio.gather(
            *(
                committer.commit((f"t{i}", seq, 0, action(seq), "seat"))
                for i in range(40)
                for seq in range(5)
            )
        )

    def in_database_file() -> int:  # the file alone, as if the WAL were gone
        copy = tmp_path / "copy.db"
        copy.write_bytes(db.read_bytes())
        try:
            with contextlib.closing(sqlite3.connect(copy)) as con:
                return int(con.execute("SELECT count(*) FROM parlor_actions").fetchone()[0])
        except sqlite3.DatabaseError:  # (copied while a checkpoint was writing it: look again)
            return -1

    asyncio.run(main())
    deadline = time.monotonic() + 10
    while in_database_file() < 200 and time.monotonic() < deadline:
        time.sleep(0.05)
    committer.close()
    assert in_database_file() == 200

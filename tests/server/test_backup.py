"""``parlor db backup``: a copy of a live SQLite database taken while a real server process plays,
holding every action acknowledged before it began, and a server started on the copy goes on."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from pathlib import Path

import pytest

from parlor import client
from parlor.cli import main
from tests.server.support import ServerProcess, host, run, start

CLI = [sys.executable, "-c", "import sys; from parlor.cli import main; sys.exit(main())"]


def actions(db: Path, table: str) -> list[tuple[int, str]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT seq, action FROM parlor_actions WHERE table_id = ? ORDER BY seq", (table,)
        )
        return [(int(s), str(a)) for s, a in rows]


def test_backup_during_play_holds_every_acknowledged_action_and_serves(tmp_path: Path) -> None:
    db, copy = tmp_path / "live.db", tmp_path / "copy.db"
    srv = ServerProcess(f"sqlite:///{db}", "--bot-delay", "0.005").start()
    restored: ServerProcess | None = None
    try:
        bots = [
            client.create_table(srv.base, seats=["heuristic"] * 4, host_seat=None) for _ in range(2)
        ]
        mixed = client.create_table(srv.base, game="tools", seats=["human", "heuristic"])

        async def during() -> tuple[dict[str, int], str]:
            watchers = []
            for made in bots:
                w = await client.Table.connect(srv.base, made["table"], host_key=made["host_key"])
                await start(w)
                watchers.append(w)
            ann = await host(srv.base, mixed)
            await start(ann)
            for _ in range(3):
                await ann.wait(lambda t: t.prompt is not None or t.final is not None, timeout=30)
                if ann.final is not None:
                    break
                reply = await ann.act(ann.prompt["answers"][0])  # type: ignore[index]
                assert reply["type"] == "ack", reply
            for w in watchers:  # the bots' tables are well under way
                await w.wait(lambda t: t.version >= 20, timeout=60)
            # an update received is an action committed: what was acknowledged before the copy
            acked = {t.table["id"]: t.version for t in (*watchers, ann)}
            proc = await asyncio.create_subprocess_exec(
                *CLI,
                "db",
                "backup",
                str(copy),
                "--database-url",
                f"sqlite:///{db}",
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
            )
            said = (await proc.communicate())[0].decode()
            assert proc.returncode == 0, said
            await asyncio.sleep(0.5)  # (the bots play on meanwhile)
            for t in (*watchers, ann):
                await t.close()
            return acked, said

        acked, said = run(during())
        assert "to restore" in said and f"sqlite:///{copy}" in said
        assert not Path(str(copy) + "-wal").exists()  # one self-contained file
        live_db_rows = {t: actions(db, t) for t in acked}
        copied = {t: actions(copy, t) for t in acked}
        for table, version in acked.items():
            assert len(copied[table]) >= version, (table, len(copied[table]), version)
            # the copy is the log as it was at one moment: a prefix of the live one
            assert copied[table] == live_db_rows[table][: len(copied[table])]
            assert [s for s, _ in copied[table]] == list(range(len(copied[table])))
        # the copy is of one moment while the bots played on: the live tables are further
        assert any(len(live_db_rows[m["table"]]) > len(copied[m["table"]]) for m in bots)

        # restore: a server on the copy loads every table where the copy left it, and plays on
        restored = ServerProcess(f"sqlite:///{copy}", "--bot-delay", "0.005").start()

        async def on_copy() -> None:
            for made in bots:
                w = await client.Table.connect(
                    restored.base, made["table"], host_key=made["host_key"]
                )
                # (its bots start again as it starts: it may be further already)
                assert w.version >= len(copied[made["table"]])
                if w.final is None:  # the bots go on from there
                    v = w.version
                    await w.wait(lambda t: t.version > v, timeout=30)  # noqa: B023
                await w.close()
            ann = await client.Table.connect(restored.base, mixed["table"], token=mixed["token"])
            assert ann.version >= len(copied[mixed["table"]])
            assert ann.you["seat"] == 0 and (ann.view is not None)
            await ann.close()

        run(on_copy())
        for table, rows in copied.items():  # it went on from the copied log, not another one
            assert actions(copy, table)[: len(rows)] == rows
    finally:
        srv.stop()
        if restored is not None:
            restored.stop()


def test_backup_refuses_what_it_cannot_copy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def backup(*args: str) -> tuple[int, str]:
        code = main(["db", "backup", *args])
        out = capsys.readouterr()
        return code, out.out + out.err

    code, said = backup(str(tmp_path / "c.db"), "--database-url", "postgresql://u@localhost/p")
    assert code == 1 and "pg_dump" in said
    code, said = backup(str(tmp_path / "c.db"), "--database-url", f"sqlite:///{tmp_path / 'no.db'}")
    assert code == 1 and "no database" in said
    assert not (tmp_path / "no.db").exists()  # (nothing made where nothing was)
    src = tmp_path / "a.db"
    sqlite3.connect(src).close()
    (tmp_path / "c.db").write_text("keep me")
    code, said = backup(str(tmp_path / "c.db"), "--database-url", f"sqlite:///{src}")
    assert code == 1 and "--force" in said
    assert (tmp_path / "c.db").read_text() == "keep me"
    code, said = backup(str(tmp_path / "c.db"), "--database-url", f"sqlite:///{src}", "--force")
    assert code == 0, said
    assert sqlite3.connect(tmp_path / "c.db").execute("PRAGMA quick_check").fetchone() == ("ok",)
    code, said = backup(str(src), "--database-url", f"sqlite:///{src}", "--force")
    assert code == 1 and "itself" in said

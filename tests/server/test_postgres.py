"""Two server processes on one real PostgreSQL serve one table: clients on each play it to the end."""

from __future__ import annotations

import asyncio
import contextlib

from parlor import client
from tests.server.support import ServerProcess, run, start


def test_two_processes_one_table(postgres_url: str) -> None:
    a = ServerProcess(postgres_url, "--bot-delay", "0").start()
    b = ServerProcess(postgres_url, "--bot-delay", "0").start()
    try:
        made = client.create_table(
            a.base,
            seats=["human", "human", "heuristic", "random"],
            variant="short",
            options={"roll_for_first_player": False, "time_limit_rounds": 40},
        )
        bo_seat = client.join_table(made["link"].replace(a.base, b.base), "Bo")  # joins through B

        async def go() -> None:
            ann = await client.Table.connect(
                a.base, made["table"], token=made["token"], host_key=made["host_key"]
            )
            bo = await client.Table.connect(b.base, made["table"], token=bo_seat["token"])
            watcher = await client.Table.connect(b.base, made["table"], invite=made["invite"])
            assert bo.table["seats"][1]["name"] == "Bo" and ann.table["seats"][1]["taken"]
            await start(ann)  # started on A, seen on B
            await bo.wait(lambda t: t.view is not None, timeout=30)
            chat = await bo.request({"type": "chat", "text": "hi from B"})
            assert chat["type"] == "ack"
            await ann.wait(lambda t: any(m["text"] == "hi from B" for m in t.chat), timeout=30)
            # Ann on both processes sends her answer to both at once: the database lets one in
            await ann.wait(lambda t: t.prompt is not None or t.final is not None, timeout=30)
            if ann.final is None:
                twin = await client.Table.connect(b.base, made["table"], token=made["token"])
                await twin.wait(lambda t: t.version == ann.version, timeout=30)
                answer = ann.prompt["answers"][0]
                replies = await asyncio.gather(ann.act(answer), twin.act(answer))
                kinds = sorted(r["type"] if r["type"] == "ack" else r["code"] for r in replies)
                assert kinds == ["ack", "stale"], replies
                await twin.close()
            finals = await asyncio.gather(
                client.play_table(ann, client.random_policy(1), timeout=180),
                client.play_table(bo, client.random_policy(2), timeout=180),
            )
            await watcher.wait(lambda t: t.final is not None, timeout=60)
            assert finals[0] == finals[1] == watcher.final
            assert ann.version == bo.version == watcher.version
            assert ann.view["players"] == watcher.view["players"] == bo.view["players"]
            for t in (ann, bo, watcher):
                await t.close()

        run(go())
    finally:
        a.stop()
        b.stop()


def test_a_seat_connected_to_one_process_is_not_away_in_the_other(postgres_url: str) -> None:
    """Ann moves from process B to process A: B's grace period ends, but she is on A."""
    a = ServerProcess(postgres_url, "--bot-delay", "0").start()
    b = ServerProcess(postgres_url, "--bot-delay", "0").start()
    try:
        made = client.create_table(
            a.base, game="tools", seats=["human", "heuristic"], grace=1, timer=None
        )

        async def go() -> None:
            on_b = await client.Table.connect(
                b.base, made["table"], token=made["token"], host_key=made["host_key"]
            )
            await start(on_b)
            await on_b.wait(lambda t: t.prompt is not None, timeout=30)
            on_a = await client.Table.connect(a.base, made["table"], token=made["token"])
            watcher = await client.Table.connect(a.base, made["table"], invite=made["invite"])
            version = on_a.version
            await on_b.close()  # B has no connection for her seat now: its grace period runs
            loop = asyncio.get_running_loop()
            until = loop.time() + 5  # five grace periods: long enough for B to get it wrong
            while loop.time() < until:
                with contextlib.suppress(TimeoutError):
                    await on_a.wait(lambda t: t.version > version, timeout=until - loop.time())
            assert on_a.version == version and on_a.prompt is not None  # nobody played for her
            assert not on_a.table["seats"][0]["away"]
            # she leaves A as well: now she is away everywhere, and the stand-in plays for her
            await on_a.close()
            await watcher.wait(lambda t: t.version > version, timeout=60)
            await watcher.wait(lambda t: t.table["seats"][0]["away"], timeout=60)
            # back on B: every process sees her back, and nobody plays for her any more
            again = await client.Table.connect(b.base, made["table"], token=made["token"])
            await watcher.wait(lambda t: not t.table["seats"][0]["away"], timeout=60)
            assert not again.table["seats"][0]["away"]
            for t in (again, watcher):
                await t.close()

        run(go())
    finally:
        a.stop()
        b.stop()

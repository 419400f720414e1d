"""Two server processes on one real PostgreSQL serve one table: clients on each play it to the end."""

from __future__ import annotations

import asyncio

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
            options={"roll_for_first_player": False},
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

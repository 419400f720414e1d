"""A connection's outgoing frames: written in the next loop step while the socket takes them (an
update at once), queued in order behind a write that has to wait (a slow reader), dropped with
the connection past the queue's limit. The socket here is a stand-in whose writes wait when told to; every other server test
runs real sockets through the same code."""

from __future__ import annotations

import asyncio

from parlor.server.protocol import Limits
from parlor.server.runtime import SEND_QUEUE, Conn


class Socket:
    """Records what was written; while ``gate`` is clear a write waits for it."""

    def __init__(self) -> None:
        self.written: list[str] = []
        self.closed_with: int | None = None
        self.gate = asyncio.Event()
        self.gate.set()
        self.close_gate = asyncio.Event()  # (a close waits for this one)
        self.close_gate.set()
        self.fail = False

    async def send_text(self, text: str) -> None:
        await self.gate.wait()
        if self.fail:
            raise RuntimeError("the peer went away")
        self.written.append(text)

    async def close(self, code: int = 1000) -> None:
        await self.gate.wait()
        await self.close_gate.wait()
        self.closed_with = code


def conn_on(ws: Socket) -> Conn:
    return Conn(ws, "test", Limits())  # type: ignore[arg-type]


def test_frames_go_out_at_once_and_in_order_behind_a_write_that_waits() -> None:
    async def main() -> None:
        ws = Socket()
        conn = conn_on(ws)
        conn.send("a")
        await asyncio.sleep(0)
        assert ws.written == ["a"]  # no task, no wait: written in the next loop step
        ws.gate.clear()  # the peer stops reading
        conn.send("b")
        conn.send({"type": "c"})
        conn.close()
        conn.send("after close")  # (nothing is sent once closed)
        assert ws.written == ["a"] and ws.closed_with is None
        ws.gate.set()
        await asyncio.wait_for(conn.finished(), 10)
        assert ws.written == ["a", "b", '{"type":"c"}']
        assert ws.closed_with == 1000

    asyncio.run(main())


def test_a_reader_that_never_reads_is_dropped_not_waited_for() -> None:
    async def main() -> None:
        ws = Socket()
        conn = conn_on(ws)
        ws.gate.clear()
        conn.send("0")
        await asyncio.sleep(0)  # (being written)
        for i in range(1, SEND_QUEUE + 2):
            conn.send(str(i))
        assert conn.closed
        ws.gate.set()
        await asyncio.wait_for(conn.finished(), 10)
        assert ws.written == ["0"]  # the one being written; the queue was thrown away
        assert ws.closed_with == 1000

    asyncio.run(main())


def test_a_failed_write_closes_the_connection() -> None:
    async def main() -> None:
        ws = Socket()
        conn = conn_on(ws)
        ws.fail = True
        conn.send("x")
        await asyncio.sleep(0)
        assert conn.closed and ws.closed_with == 1000
        # and one that fails after waiting, with more queued behind it: closed all the same
        ws.fail, ws.gate, ws.closed_with = False, asyncio.Event(), None
        conn2 = conn_on(ws)
        conn2.send("y")
        conn2.send("z")
        await asyncio.sleep(0)
        ws.fail = True
        ws.gate.set()
        await asyncio.wait_for(conn2.finished(), 10)
        assert conn2.closed and ws.written == [] and ws.closed_with == 1000

    asyncio.run(main())


def test_finished_waits_for_a_close_that_waits_after_a_failed_write() -> None:
    async def main() -> None:
        ws = Socket()
        conn = conn_on(ws)
        ws.gate.clear()
        conn.send("x")
        await asyncio.sleep(0)
        ws.fail = True
        ws.close_gate.clear()
        ws.gate.set()  # the write fails; the close it calls for has to wait
        waiting = asyncio.ensure_future(conn.finished())
        for _ in range(20):
            await asyncio.sleep(0)
        assert conn.closed and not waiting.done()
        ws.close_gate.set()
        await asyncio.wait_for(waiting, 10)
        assert ws.closed_with == 1000

    asyncio.run(main())


def test_an_update_sent_now_is_written_before_send_returns_and_keeps_its_place() -> None:
    """``publish`` writes a table's updates at once (a batch of tables committed together is not
    held back until the last of them is told), but never ahead of a frame queued before it."""

    async def main() -> None:
        ws = Socket()
        conn = conn_on(ws)
        conn.send("update 1", now=True)
        assert ws.written == ["update 1"]  # no loop step in between
        conn.send("notice")  # queued for the next loop step...
        conn.send("update 2", now=True)  # ...so this one goes behind it
        assert ws.written == ["update 1"]
        await asyncio.sleep(0)
        assert ws.written == ["update 1", "notice", "update 2"]
        ws.gate.clear()  # a write that has to wait: what is sent now queues behind it
        conn.send("update 3", now=True)
        conn.send("update 4", now=True)
        assert ws.written == ["update 1", "notice", "update 2"]
        ws.gate.set()
        conn.close()
        await asyncio.wait_for(conn.finished(), 10)
        assert ws.written == ["update 1", "notice", "update 2", "update 3", "update 4"]

    asyncio.run(main())

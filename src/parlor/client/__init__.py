"""A Python client for a Parlor server: create or join a table and play it from a script.

>>> link = parse_link("http://127.0.0.1:8000/#table=abc&invite=xyz")
>>> link.base, link.table, link.invite
('http://127.0.0.1:8000', 'abc', 'xyz')

Typical use (against a running ``parlor serve``): create a table and play your own seat (the
table starts once every human seat is taken; here the other seat is a bot, so at once)::

    from parlor import client
    made = client.create_table(
        "http://127.0.0.1:8000", game="tools", seats=["human", "heuristic"], host_name="Ann"
    )
    final = client.play(made, policy=client.random_policy(1))

A friend (or another script) takes a free seat with the invite link,
``client.play(made["link"], name="Bo", policy=...)``.

A policy is any function ``policy(table) -> action`` called when it is the seat's decision; it
returns one of ``table.prompt["answers"]`` (or its ``action`` dict, or its integer ``id``).
:func:`bot_policy` plays any Parlor bot that way, from what the seat may know
(:mod:`parlor.client.bots`)::

    final = client.play(link, name="Robo", policy=client.bot_policy("search", simulations=50))
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

from parlor.client.bots import bot_policy
from parlor.client.errors import ServerError
from parlor.core.errors import E_
from parlor.server import viewdiff

PROTOCOL_VERSION = 1


@dataclass(frozen=True)
class Link:
    base: str
    table: str | None
    invite: str | None


def parse_link(url: str) -> Link:
    """An invite link ``http://host:port/#table=T&invite=I`` (the secret stays in the fragment)."""
    parts = urlsplit(url)
    query = parse_qs(parts.fragment or parts.query)
    base = f"{parts.scheme}://{parts.netloc}"
    table, invite = query.get("table"), query.get("invite")
    return Link(base, table[0] if table else None, invite[0] if invite else None)


def _post(url: str, data: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        url, json.dumps(data).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return dict(json.loads(resp.read()))
    except urllib.error.HTTPError as exc:
        err = json.loads(exc.read() or b"{}")
        raise ServerError(err.get("code", str(exc.code)), err.get("message", "")) from exc


def create_table(base_url: str, **request: Any) -> dict[str, Any]:
    """Create a table; returns its id, invite, invite ``link``, host key and the host's seat token."""
    return _post(base_url.rstrip("/") + "/api/tables", request)


def join_table(link: str, name: str, seat: int | None = None) -> dict[str, Any]:
    """Take a free seat with an invite link; returns the seat number and its secret token."""
    ln = parse_link(link)
    out = _post(
        f"{ln.base}/api/tables/{ln.table}/join", {"invite": ln.invite, "name": name, "seat": seat}
    )
    out["base"] = ln.base
    return out


def ws_url(base: str) -> str:
    return base.replace("https://", "wss://").replace("http://", "ws://").rstrip("/") + "/ws"


class Table:
    """One connection to a table: the newest view, prompt, table info, chat and outcome."""

    #: keep every frame received in ``frames`` (set on the class to include the welcome)
    keep_frames = False

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.version = 0
        self.view: Any = None
        self.prompt: dict[str, Any] | None = None
        self.final: dict[str, Any] | None = None
        self.timer_left: float | None = None  # seconds the person deciding had, at the last frame
        self.table: dict[str, Any] = {}
        self.you: dict[str, Any] = {}
        self.chat: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.frames: list[dict[str, Any]] = []
        self.replies: dict[Any, dict[str, Any]] = {}
        self._ref = 0
        #: the nonce this connection's hello gave (None: none given)
        self.nonce: str | None = None
        #: how many times this connection lost track of the view and asked for it whole
        self.resyncs = 0
        self._awaiting_whole = False  # (asked once: the whole view is on its way)

    @classmethod
    async def connect(
        cls,
        base: str,
        table: str,
        *,
        token: str | None = None,
        invite: str | None = None,
        host_key: str | None = None,
        lang: str | None = None,
        nonce: str | bool = True,
        protocol: int = PROTOCOL_VERSION,
    ) -> Table:
        """Connect and say hello. A seat (``token``) adds ``nonce`` to the table's randomness:
        a fresh random one by default (``True``), the hex text given, or none (``False``); the
        first one a seat gives before the start counts (see docs/server.md)."""
        from websockets.asyncio.client import connect

        # max_queue=None: frames are read off the socket even while the script is busy elsewhere,
        # so the server never takes this connection for a client that stopped reading
        ws = await connect(ws_url(base), max_size=2**24, compression=None, max_queue=None)
        t = cls(ws)
        # (protocol 3: updates carry the changes to the view held, taken in by ``recv``)
        hello: dict[str, Any] = {"type": "hello", "protocol": protocol, "table": table}
        if token is not None and nonce is not False:
            hello["nonce"] = t.nonce = secrets.token_hex(16) if nonce is True else nonce
        for key, value in (
            ("token", token),
            ("invite", invite),
            ("host_key", host_key),
            ("lang", lang),
        ):
            if value is not None:
                hello[key] = value
        from websockets.exceptions import ConnectionClosed

        with contextlib.suppress(ConnectionClosed):  # refused at once: the reason waits to be read
            await t.send(hello)
        try:
            frame = await t.recv()
            while frame["type"] not in ("welcome", "error"):
                frame = await t.recv()
        except ConnectionClosed as exc:
            reason = E_("the server closed the connection ({reason})", reason=exc)
            raise ServerError("closed", reason) from exc
        if frame["type"] == "error":
            await ws.close()
            raise ServerError(frame["code"], frame["message"])
        return t

    async def send(self, frame: dict[str, Any]) -> Any:
        self._ref += 1
        frame.setdefault("ref", self._ref)
        await self.ws.send(json.dumps(frame))
        return frame["ref"]

    async def recv(self) -> dict[str, Any]:
        """The next frame, with the state it carries taken in."""
        frame: dict[str, Any] = json.loads(await self.ws.recv())
        if self.keep_frames:
            self.frames.append(frame)
        kind = frame.get("type")
        if kind in ("welcome", "update"):
            if "changes" in frame:  # (protocol 3: the changes to the view held at ``base``)
                if frame.get("base") != self.version or self.view is None:
                    if not self._awaiting_whole:  # (lost track: ask once for the view whole)
                        self._awaiting_whole = True
                        self.resyncs += 1
                        await self.send({"type": "resync"})
                    return frame
                self.view = viewdiff.apply(self.view, frame["changes"])
            else:
                self.view = frame["view"]
                self._awaiting_whole = False
            self.version = frame.get("version", self.version)
            self.prompt, self.final = frame["prompt"], frame["final"]
            self.timer_left = frame.get("timer_left")
            self.events.extend(frame.get("events", []))
            if kind == "welcome":
                self.table, self.you = frame["table"], frame["you"]
                self.chat = list(frame["chat"])
        elif kind == "table":
            self.table = frame["table"]
        elif kind == "chat":
            self.chat.append(frame["message"])
        elif kind == "error":
            self.errors.append(frame)
        if "ref" in frame and kind != "welcome":  # (an update carries one only for a resync)
            self.replies[frame["ref"]] = frame
        return frame

    async def request(self, frame: dict[str, Any], timeout: float = 30) -> dict[str, Any]:
        """Send a frame and wait for the reply that names it (``ack``, ``error``, ``legal``...)."""
        ref = await self.send(frame)
        async with asyncio.timeout(timeout):
            while ref not in self.replies:
                await self.recv()
        return self.replies.pop(ref)

    async def act(self, answer: Any, **extra: Any) -> dict[str, Any]:
        """Send an action (an answer from the prompt, an action dict or an id) at our version."""
        frame: dict[str, Any] = {"type": "action", "version": self.version, **extra}
        if isinstance(answer, dict) and "action" in answer and "text" in answer:
            answer = answer["id"] if answer["id"] is not None else answer["action"]
        if isinstance(answer, int):
            frame["id"] = answer
        else:
            frame["action"] = answer
        if self.prompt and "terms_revision" in self.prompt:
            frame.setdefault("terms_revision", self.prompt["terms_revision"])
        return await self.request(frame)

    async def close(self) -> None:
        await self.ws.close()

    def my_turn(self) -> bool:
        return self.prompt is not None and self.final is None

    async def wait(self, predicate: Callable[[Table], bool], timeout: float | None = 60) -> None:
        async with asyncio.timeout(timeout):
            while not predicate(self):
                await self.recv()


Policy = Callable[[Table], Any]


def random_policy(seed: int | None = None) -> Policy:
    """Picks uniformly among the prompt's legal answers (needs no engine at all)."""
    rng = random.Random(seed)

    def choose(table: Table) -> Any:
        assert table.prompt is not None
        return rng.choice(table.prompt["answers"])

    return choose


async def play_table(
    table: Table, policy: Policy | Callable[[Table], Awaitable[Any]], timeout: float | None = 600
) -> dict[str, Any]:
    """Answer every prompt with ``policy`` until the game ends; returns the final result."""
    async with asyncio.timeout(timeout):
        while table.final is None:
            if table.my_turn():
                acted_at = table.version
                answer = policy(table)
                if asyncio.iscoroutine(answer):
                    answer = await answer
                reply = await table.act(answer)
                code = reply.get("code")
                if code == "rate_limited":
                    await asyncio.sleep(0.5)
                elif code in ("stale", "illegal", "not_running"):
                    # the table moved on (maybe to its end): see how, unless the frames that
                    # said so came in before the reply (then it may be this seat's turn again)
                    if table.version == acted_at and table.final is None:
                        await table.recv()
                elif reply["type"] == "error":
                    raise ServerError(reply["code"], reply["message"])
            else:
                await table.recv()
    assert table.final is not None
    return table.final


def play(
    table: str | Mapping[str, Any],
    name: str | None = None,
    policy: Policy | None = None,
    seat: int | None = None,
    lang: str | None = None,
    *,
    start: bool = True,
    timeout: float | None = None,
) -> dict[str, Any]:
    """Play one seat of a table to the end (blocking); returns the final result.

    ``table`` is either what :func:`create_table` returned, to play the creator's own seat (its
    token) as the host: the table is started as soon as every human seat is taken (at once when
    the others are bots; seats nobody takes are played by heuristic bots), unless ``start`` is
    False; or an invite link, to take a free seat as ``name`` and wait for the host to start.
    The creator's name is given to :func:`create_table` (``host_name``), so ``name`` is for links.
    """
    if policy is None:
        raise TypeError(E_("play() needs a policy, e.g. policy=client.random_policy()"))

    async def main() -> dict[str, Any]:
        if isinstance(table, Mapping):
            made = dict(table)
            if "token" not in made:  # (made with host_seat=None: take a free seat, as host)
                made.update(join_table(made["link"], name or "Player", seat))
            elif name is not None or seat is not None:
                raise ValueError(
                    E_(
                        "the creator's seat and name were set by create_table (host_seat, "
                        "host_name): play(made, policy=...) takes neither; to take another seat, "
                        "pass made['link']"
                    )
                )
            conn = await Table.connect(
                parse_link(made["link"]).base,
                made["table"],
                token=made["token"],
                host_key=made.get("host_key"),
                lang=lang,
            )
        else:
            try:
                joined = join_table(table, name or "Player", seat)
            except ServerError as exc:
                if exc.code != "no_seat":
                    raise
                hint = E_(
                    "{reason} (to play the seat create_table gave you, pass what it returned: "
                    "client.play(made, policy=...))",
                    reason=exc.message,
                )
                raise ServerError(exc.code, hint) from exc
            conn = await Table.connect(
                joined["base"], joined["table"], token=joined["token"], lang=lang
            )
        try:
            async with asyncio.timeout(timeout):
                if start and conn.you.get("host") and conn.table.get("status") == "waiting":
                    await start_when_seated(conn)
                return await play_table(conn, policy, timeout=None)
        finally:
            await conn.close()

    return asyncio.run(main())


async def start_when_seated(table: Table) -> None:
    """As host: wait until every human seat is taken, then start the game (a table someone else
    started meanwhile is fine)."""

    def seated(t: Table) -> bool:
        seats = t.table.get("seats", [])
        return t.table.get("status") != "waiting" or all(
            s["kind"] != "human" or s["taken"] for s in seats
        )

    await table.wait(seated, timeout=None)
    if table.table.get("status") == "waiting":
        reply = await table.request({"type": "start"})
        if reply.get("type") == "error" and reply.get("code") != "not_running":
            raise ServerError(reply["code"], reply.get("message", ""))


__all__ = [
    "PROTOCOL_VERSION",
    "Link",
    "Policy",
    "ServerError",
    "Table",
    "bot_policy",
    "create_table",
    "join_table",
    "parse_link",
    "play",
    "play_table",
    "random_policy",
    "start_when_seated",
    "ws_url",
]

"""The HTTP and WebSocket front: FastAPI routes, the origin check, frame limits and rate limits."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

import orjson
from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from parlor import web
from parlor.core.errors import E_
from parlor.i18n import pick_language
from parlor.server import session
from parlor.server.hub import Hub
from parlor.server.protocol import CLIENT_TYPES, MAX_FRAME, Bucket, Limits, ProtocolError
from parlor.server.runtime import Conn
from parlor.server.snapshots import Snapshotter
from parlor.server.store import Store

log = logging.getLogger("parlor.server")


def asked_language(request: Request) -> str:
    """The language an HTTP request asks for in ``Accept-Language`` (by quality), else English.

    >>> from starlette.requests import Request
    >>> asked_language(Request({"type": "http", "headers": [(b"accept-language", b"de, es-MX;q=0.8, da;q=0.9")]}))
    'da'
    """
    wanted: list[tuple[float, str]] = []
    for part in request.headers.get("accept-language", "")[:500].split(","):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                continue
        wanted.append((-quality, tag.split("-")[0].strip().lower()))
    return pick_language([tag for _, tag in sorted(wanted, key=lambda w: w[0])])


def _save_of_record(text: Any) -> str:
    """The engine's save of a game record (docs/records.md), every line checked."""
    from parlor.records import RecordError, record_to_save

    if not isinstance(text, str):
        raise ProtocolError("bad_save", E_("a game record is text"))
    try:
        return json.dumps(record_to_save(text))
    except RecordError as exc:
        raise ProtocolError("bad_save", exc.text) from exc


def create_app(
    database_url: str,
    *,
    limits: Limits | None = None,
    bot_delay: float | None = None,
    grace: float = 30.0,
    allowed_origins: tuple[str, ...] = (),
) -> FastAPI:
    store = Store(database_url)
    store.migrate()
    hub = Hub(store, limits=limits, bot_delay=bot_delay, grace=grace)
    snapshotter = Snapshotter(hub)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        await snapshotter.start()
        yield
        await snapshotter.stop()
        await hub.stop()

    app = FastAPI(title="Parlor", lifespan=lifespan)
    app.state.hub = hub
    app.state.snapshotter = snapshotter

    def error(exc: ProtocolError, request: Request, status: int = 400) -> JSONResponse:
        return JSONResponse(exc.frame(lang=asked_language(request)), status_code=status)

    async def body(request: Request) -> Any:
        raw = await request.body()
        if len(raw) > 4 * 1024 * 1024:
            raise ProtocolError("too_large", E_("request too large"))
        try:
            return json.loads(raw or b"{}")
        except json.JSONDecodeError as exc:
            raise ProtocolError("bad_json", E_("not JSON: {reason}", reason=exc.msg)) from exc

    web.install(app)  # the browser client at /

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "tables": len(hub.tables)}

    @app.post("/api/tables")
    async def create(request: Request) -> JSONResponse:
        try:
            req = await body(request)
            save = None
            if isinstance(req, dict) and "save" in req:
                save = req["save"] if isinstance(req["save"], str) else json.dumps(req["save"])
            elif isinstance(req, dict) and "record" in req:  # a game record: its save
                save = await asyncio.to_thread(_save_of_record, req["record"])
            made = await hub.create(req, save)
            base = str(request.base_url).rstrip("/")
            # the invite rides in the fragment: browsers never send it, so no log can hold it
            made["link"] = f"{base}/#table={made['table']}&invite={made['invite']}"
            return JSONResponse(made)
        except ProtocolError as exc:
            return error(exc, request)

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request) -> JSONResponse:
        try:
            req = await body(request)
            if not isinstance(req, dict):
                raise ProtocolError("bad_request", E_("a join request is a JSON object"))
            return JSONResponse(
                await hub.join(table_id, req.get("invite"), req.get("name"), req.get("seat"))
            )
        except ProtocolError as exc:
            return error(exc, request, 403 if exc.code == "bad_invite" else 400)

    @app.get("/api/lobby")
    async def lobby() -> JSONResponse:
        return JSONResponse({"tables": await hub.lobby()})

    def origin_ok(ws: WebSocket) -> bool:
        origin = ws.headers.get("origin")
        if origin is None:  # not a browser: scripts and bots
            return True
        if origin in allowed_origins:
            return True
        return urlsplit(origin).netloc == ws.headers.get("host")

    async def websocket(ws: WebSocket) -> None:
        address = ws.client.host if ws.client else "?"
        lim = hub.limits
        await ws.accept()
        conn = Conn(ws, address, lim)
        if not origin_ok(ws):
            conn.send(ProtocolError("origin", E_("cross-origin connections are refused")).frame())
            conn.close()
            await conn.finished()
            return
        if hub.addr_conns.get(address, 0) >= lim.addr_connections:
            conn.send(
                ProtocolError("rate_limited", E_("too many connections from your address")).frame()
            )
            conn.close()
            await conn.finished()
            return
        hub.addr_conns[address] = hub.addr_conns.get(address, 0) + 1
        addr_bucket = hub.addr_buckets.setdefault(
            address, Bucket(lim.addr_msgs_per_s, lim.addr_msgs_burst)
        )
        try:
            while not conn.closed:
                try:
                    message = await ws.receive()
                except (WebSocketDisconnect, RuntimeError):
                    break
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                ref = None
                try:
                    if text is None:
                        raise ProtocolError("bad_request", E_("messages are JSON in text frames"))
                    # every frame spends a token, garbage included; the refusal names the
                    # message it refuses when that message can be read
                    limited = not conn.bucket.take() or not addr_bucket.take()
                    if limited and conn.refusals + 1 >= lim.refusals_before_close:
                        conn.refusals += 1
                        raise ProtocolError("rate_limited", E_("too many messages"), close=True)
                    if len(text) > MAX_FRAME:
                        raise ProtocolError(
                            "too_large", E_("frames are at most {most} bytes", most=MAX_FRAME)
                        )
                    try:  # (orjson: a few times faster; its error is a json.JSONDecodeError)
                        msg = orjson.loads(text)
                    except json.JSONDecodeError as exc:
                        raise ProtocolError(
                            "bad_json", E_("not JSON: {reason}", reason=exc.msg)
                        ) from exc
                    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                        raise ProtocolError(
                            "bad_request", E_("a message is an object with a 'type'")
                        )
                    ref = msg.get("ref") if isinstance(msg.get("ref"), str | int) else None
                    if limited:
                        conn.refusals += 1
                        raise ProtocolError("rate_limited", E_("too many messages: slow down"))
                    if msg["type"] not in CLIENT_TYPES:
                        raise ProtocolError(
                            "unknown_type",
                            E_("unknown message type {kind}", kind=repr(msg["type"][:40])),
                        )
                    if conn.table is None:
                        if msg["type"] != "hello":
                            raise ProtocolError("bad_request", E_("say hello first"))
                        await hub.hello(conn, msg)
                    else:
                        await session.handle(hub, conn, msg)
                except ProtocolError as exc:
                    conn.send(exc.frame(ref, conn.lang))
                    if exc.close:
                        conn.close()
                except Exception:  # a bug must not take the other tables down
                    log.exception("message failed")
                    conn.send(
                        ProtocolError("internal", E_("the server failed on that message")).frame(
                            ref
                        )
                    )
        finally:
            hub.addr_conns[address] -= 1
            if hub.addr_conns[address] <= 0:
                hub.addr_conns.pop(address, None)
                hub.addr_buckets.pop(address, None)
            hub.leave(conn)
            conn.close()
            await conn.finished()

    app.add_middleware(WebSocketLane, path="/ws", endpoint=websocket)
    return app


class WebSocketLane:
    """The play WebSocket (``/ws``) served at the top of the middleware stack; everything else
    goes on to the app. Through FastAPI's router a connection's task sat under a dozen more
    coroutines, all resumed at every message and every commit, and each frame sent went through
    two exception wrappers. (A WebSocket has no HTTP response for them to handle.)"""

    def __init__(
        self, app: ASGIApp, path: str, endpoint: Callable[[WebSocket], Awaitable[None]]
    ) -> None:
        self.app, self.path, self.endpoint = app, path, endpoint

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] == self.path:
            await self.endpoint(WebSocket(scope, receive, send))
        else:
            await self.app(scope, receive, send)

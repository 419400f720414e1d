"""The HTTP and WebSocket front: FastAPI routes, the origin check, frame limits and rate limits."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from parlor import web
from parlor.core.errors import E_
from parlor.server import session
from parlor.server.guard import HttpGuard, HttpLimits, asked_language, refused
from parlor.server.hub import Hub
from parlor.server.messages import (
    CreateRequest,
    InviteRequest,
    JoinRequest,
    check_body,
    check_message,
    parse_json,
)
from parlor.server.metrics import Metrics
from parlor.server.protocol import CLIENT_TYPES, MAX_FRAME, Bucket, Limits, ProtocolError
from parlor.server.runtime import Conn
from parlor.server.snapshots import Snapshotter
from parlor.server.store import Store

log = logging.getLogger("parlor.server")


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
    metrics_token: str | None = None,
    http_limits: HttpLimits | None = None,
    hello_timeout: float = 10.0,
    idle_timeout: float | None = None,
) -> FastAPI:
    """The app. ``hello_timeout``: seconds a WebSocket has to say ``hello``; ``idle_timeout``:
    seconds a WebSocket may then stay without sending a message (None: for ever; the transport's
    ping, uvicorn's, still closes one whose peer is gone)."""
    store = Store(database_url)
    store.migrate()
    metrics = Metrics(metrics_token)
    hub = Hub(store, limits=limits, bot_delay=bot_delay, grace=grace, metrics=metrics)
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

    statuses = {"bad_invite": 403, "too_large": 413, "rate_limited": 429}

    def error(exc: ProtocolError, request: Request) -> JSONResponse:
        request.state.parlor_code = exc.code  # (for the guard's log line)
        status = statuses.get(exc.code, 400)
        metrics.refused("http", exc.code)
        return JSONResponse(exc.frame(lang=asked_language(request)), status_code=status)

    async def body(request: Request) -> Any:
        # (HttpGuard has read it already, within its size and time limits)
        raw = await request.body()
        if not raw:
            raise ProtocolError("bad_request", E_("a request is a JSON object"))
        return parse_json(raw)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        """The framework's own refusals (no such route, wrong method) typed as ours are."""
        code = {404: "not_found", 405: "bad_method"}.get(exc.status_code, "bad_request")
        request.state.parlor_code = code
        frame = {"type": "error", "code": code, "message": str(exc.detail)}
        return JSONResponse(frame, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def query_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        request.state.parlor_code = "bad_request"
        frame = {"type": "error", "code": "bad_request", "message": "bad query parameters"}
        return JSONResponse(frame, status_code=400)

    web.install(app)  # the browser client at /

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "tables": len(hub.tables)}

    @app.post("/api/tables")
    async def create(request: Request) -> JSONResponse:
        try:
            req = await body(request)
            checked = check_body(CreateRequest, req)
            save = None
            if checked.save is not None:
                save = checked.save if isinstance(checked.save, str) else json.dumps(checked.save)
            elif checked.record is not None:  # a game record: its save
                save = await asyncio.to_thread(_save_of_record, checked.record)
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
            req = check_body(JoinRequest, await body(request))
            return JSONResponse(await hub.join(table_id, req.invite, req.name, req.seat))
        except ProtocolError as exc:
            return error(exc, request)

    @app.post("/api/tables/{table_id}/invite")
    async def invite(table_id: str, request: Request) -> JSONResponse:
        """What an invite is for (the join page shows it before asking a name)."""
        try:
            req = check_body(InviteRequest, await body(request))
            return JSONResponse(await hub.invite_info(table_id, req.invite))
        except ProtocolError as exc:
            return error(exc, request)

    if metrics.enabled:  # (no route at all when off: 404, as for any unknown path)

        @app.get("/metrics", include_in_schema=False)
        async def scrape(request: Request) -> Response:
            if not metrics.allowed(request.headers.get("authorization")):
                return Response(
                    "a metrics token is needed (Authorization: Bearer TOKEN)\n",
                    status_code=401,
                    headers={"WWW-Authenticate": 'Bearer realm="parlor metrics"'},
                    media_type="text/plain",
                )
            text, content_type = metrics.exposition()
            return Response(text, media_type=content_type)

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
            metrics.refused("ws", "origin")
            refused("ws", address, "origin", "closed", "connect")
            conn.send(ProtocolError("origin", E_("cross-origin connections are refused")).frame())
            conn.close()
            await conn.finished()
            return
        if hub.addr_conns.get(address, 0) >= lim.addr_connections:
            metrics.refused("ws", "rate_limited")
            refused("ws", address, "rate_limited", "closed", "connect")
            conn.send(
                ProtocolError("rate_limited", E_("too many connections from your address")).frame()
            )
            conn.close()
            await conn.finished()
            return
        hello_by = asyncio.get_running_loop().time() + hello_timeout
        hub.addr_conns[address] = hub.addr_conns.get(address, 0) + 1
        addr_bucket = hub.addr_buckets.setdefault(
            address, Bucket(lim.addr_msgs_per_s, lim.addr_msgs_burst)
        )
        try:
            while not conn.closed:
                try:
                    if conn.table is None:  # a connection that says nothing holds nothing long
                        async with asyncio.timeout_at(hello_by):
                            message = await ws.receive()
                    elif idle_timeout is not None:
                        async with asyncio.timeout(idle_timeout):
                            message = await ws.receive()
                    else:
                        message = await ws.receive()
                except (WebSocketDisconnect, RuntimeError):
                    break
                except TimeoutError:
                    what = "hello" if conn.table is None else "idle"
                    refused("ws", address, "timeout", "closed", what)
                    conn.send(ProtocolError("timeout", E_("too long without a message")).frame())
                    conn.close()
                    break
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                ref = msg = None
                try:
                    if text is None:
                        raise ProtocolError("bad_request", E_("messages are JSON in text frames"))
                    # every frame spends a token, garbage included; the refusal names the
                    # message it refuses when that message can be read
                    limited = not conn.bucket.take() or not addr_bucket.take()
                    if limited and conn.refusals.add() >= lim.refusals_before_close:
                        raise ProtocolError("rate_limited", E_("too many messages"), close=True)
                    if len(text) > MAX_FRAME:
                        raise ProtocolError(
                            "too_large", E_("frames are at most {most} bytes", most=MAX_FRAME)
                        )
                    msg = parse_json(text)
                    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                        raise ProtocolError(
                            "bad_request", E_("a message is an object with a 'type'")
                        )
                    ref = msg.get("ref")
                    if not (type(ref) is int or (type(ref) is str and len(ref) <= 64)):
                        ref = None  # (an error names only a ref that could be valid)
                    if limited:  # (counted above)
                        raise ProtocolError("rate_limited", E_("too many messages: slow down"))
                    if msg["type"] not in CLIENT_TYPES:
                        raise ProtocolError(
                            "unknown_type",
                            E_("unknown message type {kind}", kind=repr(msg["type"][:40])),
                        )
                    check_message(msg)
                    if conn.table is None:
                        if msg["type"] != "hello":
                            raise ProtocolError("bad_request", E_("say hello first"))
                        await hub.hello(conn, msg)
                    else:
                        await session.handle(hub, conn, msg)
                except ProtocolError as exc:
                    metrics.refused("ws", exc.code)
                    kind = msg.get("type") if isinstance(msg, dict) else None
                    what = kind[:40] if isinstance(kind, str) else "frame"
                    refused("ws", address, exc.code, "closed" if exc.close else "error", what)
                    conn.send(exc.frame(ref, conn.lang))
                    if exc.close:
                        conn.close()
                except Exception:  # a bug must not take the other tables down
                    log.exception("message failed")
                    metrics.refused("ws", "internal")
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
    app.add_middleware(HttpGuard, limits=http_limits)  # (outermost: before anything reads)
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

"""What stands between a stranger and the app: HTTP limits per address, bodies bounded by size and
time before the app sees them, a deadline for request headers, and one log line per refusal.

``HttpGuard`` (outermost ASGI middleware) reads every HTTP request's body itself, refusing it at
once when ``Content-Length`` says it is too large and as soon as the bytes read pass the limit
(never reading it whole first), and only within ``request_timeout`` seconds of the request's
start; the app then reads the body from memory. ``HeaderDeadline`` (uvicorn's HTTP protocol) closes
a connection whose request headers are not complete in that time: uvicorn itself has no such
deadline, so a client sending a byte a minute held its connection for ever.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from parlor.core.errors import E_
from parlor.i18n import pick_language
from parlor.server.protocol import Bucket, ProtocolError, dumps

log = logging.getLogger("parlor.server")
refusals = logging.getLogger("parlor.refused")


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


@dataclass(slots=True)
class HttpLimits:
    """What one address may ask of the HTTP routes, and how long a request may take to arrive."""

    max_body: int = 4 * 1024 * 1024
    request_timeout: float = 10.0
    requests_per_s: float = 20.0
    requests_burst: float = 60.0  # (a page load fetches its scripts, words and board together)
    in_flight: int = 16


def refused(kind: str, address: str, code: str, status: int | str, what: str = "") -> None:
    """One line for one refused request or frame (``--log-format json``: one JSON object)."""
    refusals.info(
        "refused %s %s from %s: %s",
        kind,
        what,
        address,
        code,
        extra={"event": "refused", "kind": kind, "what": what, "address": address, "code": code,
               "status": status},
    )  # fmt: skip


class JsonLines(logging.Formatter):
    """A log record as one JSON object on one line (a traceback, if any, as one string field)."""

    FIELDS = ("event", "kind", "what", "address", "code", "status")

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in self.FIELDS:
            if hasattr(record, name):
                out[name] = getattr(record, name)
        if record.exc_info:
            out["traceback"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


class _Refuse(ProtocolError):
    """A refusal with its HTTP status (0: nobody to answer)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(code, message)
        self.status = status


class HttpGuard:
    """Per-address rate and concurrency limits, bounded and timed bodies, refusals logged."""

    def __init__(self, app: ASGIApp, limits: HttpLimits | None = None) -> None:
        self.app = app
        self.limits = limits or HttpLimits()
        self.buckets: dict[str, Bucket] = {}
        self.in_flight: dict[str, int] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        lim = self.limits
        address = scope["client"][0] if scope.get("client") else "?"
        what = f"{scope['method']} {scope['path'][:80]}"
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) > 10_000:  # forget full buckets (they hold nothing back)
                self.buckets = {a: b for a, b in self.buckets.items() if a in self.in_flight}
            bucket = self.buckets[address] = Bucket(lim.requests_per_s, lim.requests_burst)
        if not bucket.take():
            await self._answer(scope, send, _Refuse(429, "rate_limited", E_("too many requests")))
            refused("http", address, "rate_limited", 429, what)
            return
        if self.in_flight.get(address, 0) >= lim.in_flight:
            refusal = _Refuse(429, "rate_limited", E_("too many requests at once"))
            await self._answer(scope, send, refusal)
            refused("http", address, "rate_limited", 429, what)
            return
        self.in_flight[address] = self.in_flight.get(address, 0) + 1
        try:
            try:
                body = await self._read_body(scope, receive)
            except _Refuse as exc:
                if exc.status:
                    await self._answer(scope, send, exc)
                refused("http", address, exc.code, exc.status or "-", what)
                return
            await self.app(scope, _replay(body, receive), self._watch(scope, send, address, what))
        finally:
            self.in_flight[address] -= 1
            if self.in_flight[address] <= 0:
                del self.in_flight[address]

    async def _read_body(self, scope: Scope, receive: Receive) -> bytes:
        """The whole body within the size and time limits (``_Refuse`` otherwise)."""
        most = self.limits.max_body
        for name, value in scope["headers"]:
            if name == b"content-length" and (
                not value.isdigit() or len(value) > 15 or int(value) > most
            ):
                raise _Refuse(413, "too_large", E_("bodies are at most {most} bytes", most=most))
        parts: list[bytes] = []
        size = 0
        deadline = time.monotonic() + self.limits.request_timeout
        while True:
            try:
                async with asyncio.timeout_at(_loop_time(deadline)):
                    message = await receive()
            except TimeoutError:
                raise _Refuse(408, "timeout", E_("the request did not arrive in time")) from None
            if message["type"] == "http.disconnect":
                raise _Refuse(0, "client_gone", E_("the client left mid-request"))
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > most:
                raise _Refuse(413, "too_large", E_("bodies are at most {most} bytes", most=most))
            parts.append(chunk)
            if not message.get("more_body", False):
                return b"".join(parts)

    def _watch(self, scope: Scope, send: Send, address: str, what: str) -> Send:
        """``send`` that logs a refusal when the app answers with an error status."""

        async def watched(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] >= 400:
                code = scope.get("state", {}).get("parlor_code", "-")
                refused("http", address, code, message["status"], what)
            await send(message)

        return watched

    @staticmethod
    async def _answer(scope: Scope, send: Send, exc: _Refuse) -> None:
        body = dumps(exc.frame(lang=asked_language(Request(scope)))).encode()
        await send(
            {
                "type": "http.response.start",
                "status": exc.status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _loop_time(deadline: float) -> float:
    """A ``time.monotonic`` deadline on the running loop's clock."""
    loop = asyncio.get_running_loop()
    return loop.time() + (deadline - time.monotonic())


def _replay(body: bytes, receive: Receive) -> Receive:
    """``receive`` for the app: the body read already, then whatever comes next (a disconnect)."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


class HeaderDeadline(HttpToolsProtocol):
    """uvicorn's HTTP protocol with a deadline for each request's headers (``request_timeout``,
    set on the class by ``parlor serve``). The body's own deadline is ``HttpGuard``'s."""

    request_timeout = 10.0
    _head_timer: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.request_timeout, self._head_expired)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        self._arm()  # (a new request on a kept-alive connection: its headers have a deadline)
        super().on_message_begin()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _head_expired(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            address = self.client[0] if self.client else "?"
            refused("http", address, "timeout", "closed", "headers")
            self.transport.close()

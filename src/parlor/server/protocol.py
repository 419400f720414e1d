"""Protocol constants, typed errors and the rate limiter (see docs/server.md for every message)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import orjson

from parlor.core.errors import E_
from parlor.i18n import LANGUAGES, translate_error

PROTOCOL_VERSION = 3
#: every version this server speaks; a hello that names none is version 1. Version 2 differs in
#: one thing: an action without a ``ref`` gets no ``ack`` (its own ``update`` says it committed).
#: Version 3 adds to 2: an ``update`` may carry the changes to the view the connection holds
#: (``base`` and ``changes``) instead of the whole ``view``, and ``resync`` asks for it whole.
PROTOCOLS = (1, 2, 3)

MAX_FRAME = 16 * 1024  # a client frame larger than this is refused with ``too_large``
MAX_TRANSPORT_FRAME = 1024 * 1024  # larger still: the WebSocket layer closes with 1009
MAX_NAME = 40
MAX_CHAT = 500
LANGS = ("en", "es", "da")

CLIENT_TYPES = frozenset(
    {
        "hello",
        "action",
        "legal",
        "sample",
        "chat",
        "start",
        "pause",
        "resume",
        "kick",
        "set_bot",
        "export",
        "replay",
        "ping",
        "resync",
    }
)


def dumps(frame: Any) -> str:
    """A frame as JSON text (UTF-8 kept as is): orjson, several times faster than ``json`` on
    the large views every update carries.

    >>> dumps({"type": "chat", "text": "¡hola!", "n": [1, 2.5, None]})
    '{"type":"chat","text":"¡hola!","n":[1,2.5,null]}'
    >>> dumps({"scores": {0: 12, 1: 7}})
    '{"scores":{"0":12,"1":7}}'
    """
    try:  # (OPT_NON_STR_KEYS makes orjson take a path over twice as slow: only when needed)
        return orjson.dumps(frame).decode()
    except TypeError:
        return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


class ProtocolError(Exception):
    """An error frame for the sender alone: ``code`` is stable, ``message`` is for people (an
    engine's message, a :class:`~parlor.core.errors.Text`, is said in the connection's language)."""

    def __init__(self, code: str, message: str, *, close: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.close = close

    def frame(self, ref: object = None, lang: str = "en") -> dict[str, object]:
        message = translate_error(self.message, lang if lang in LANGUAGES else "en")
        out: dict[str, object] = {"type": "error", "code": self.code, "message": message}
        if ref is not None:
            out["ref"] = ref
        return out


@dataclass(slots=True)
class Bucket:
    """A token bucket: ``rate`` tokens a second up to ``burst``; ``take`` says whether one was left."""

    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = field(default_factory=time.monotonic)

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if self.tokens < 0:
            self.tokens = self.burst
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


@dataclass(slots=True)
class RefusalCount:
    """The refusals of one connection within a window of ``window`` seconds from the first of
    them: a flood reaches the limit in its first second, a client that backs off when refused
    and goes on for hours does not add up the odd refusal of every busy minute."""

    window: float
    count: int = 0
    since: float = 0.0

    def add(self, now: float | None = None) -> int:
        """Count one refusal; returns the count in the window it falls in."""
        now = time.monotonic() if now is None else now
        if self.count == 0 or now - self.since > self.window:
            self.count, self.since = 0, now
        self.count += 1
        return self.count


@dataclass(slots=True)
class Limits:
    """What one connection and one address may do (the defaults suit people and bots alike)."""

    msgs_per_s: float = 20.0
    msgs_burst: float = 40.0
    addr_msgs_per_s: float = 200.0
    addr_msgs_burst: float = 400.0
    addr_connections: int = 32
    chat_per_10s: int = 5
    refusals_before_close: int = 50  # ... within refusal_window_s seconds
    refusal_window_s: float = 60.0


def clean_text(value: object, limit: int, what: str) -> str:
    """Plain text for a name or a chat line: control characters removed, length checked."""
    if not isinstance(value, str):
        raise ProtocolError("bad_request", E_("{what} must be a string", what=what))
    text = "".join(ch for ch in value if ch == " " or ch.isprintable()).strip()
    if not text:
        raise ProtocolError("bad_request", E_("{what} is empty", what=what))
    if len(text) > limit:
        raise ProtocolError(
            f"{what}_too_long",
            E_("{what} is longer than {limit} characters", what=what, limit=limit),
        )
    return text

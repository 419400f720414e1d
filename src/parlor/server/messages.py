"""One strict type for every field of every message a client sends (HTTP bodies and WebSocket
frames), checked before anything acts on it.

Pydantic's strict mode: a bool is not an int, a float is not an int, ``"yes"`` is not a bool, a
string is not a number. (An int is accepted where a number of seconds is asked for: 3 is 3.0.)
Every string and list has a length bound, every integer a range, and JSON is refused past
``MAX_DEPTH`` levels of nesting, so no check below has to walk or copy anything large. Fields a
message does not name are ignored. What a value means (a seat that exists, a legal action, an
option the engine knows) is checked further on, by the hub and the engines.
"""

from __future__ import annotations

import json
import typing
from typing import Annotated, Any, Literal, TypeVar

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from parlor.core.errors import E_
from parlor.server.protocol import LANGS, MAX_CHAT, MAX_NAME, ProtocolError

#: nesting levels a client's JSON may have (an inline edition needs 4; orjson itself stops at 1024)
MAX_DEPTH = 32
MAX_INT = 2**31 - 1
#: an inline edition (property games) or deck (TOOLS) is at most this many bytes of JSON
MAX_INLINE_DATA = 64 * 1024  # (a bundled edition is 11-18 KB of JSON)

Count = Annotated[int, Field(ge=0, le=MAX_INT)]
Seconds = Annotated[float, Field(ge=0, le=86_400, allow_inf_nan=False)]
Secret = Annotated[str, Field(max_length=100)]
TableId = Annotated[str, Field(max_length=32)]
Word = Annotated[str, Field(max_length=40)]
Lang = Literal["en", "es", "da"]
Ref = Annotated[str, Field(max_length=64)] | Annotated[int, Field(ge=-(2**53), le=2**53)]
#: a name before control characters are removed (``clean_text`` then allows MAX_NAME)
RawName = Annotated[str, Field(max_length=4 * MAX_NAME)]
OptionValue = bool | Annotated[int, Field(ge=-(10**9), le=10**9)] | Word | None
Options = Annotated[dict[Word, OptionValue], Field(max_length=64)]

assert LANGS == ("en", "es", "da")  # (Lang spells them for the type checker)


class Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


M = TypeVar("M", bound=Strict)


# ----- HTTP bodies -----------------------------------------------------------------------------
class SeatSpec(Strict):
    kind: Literal["human", "bot"]
    bot: Word | None = None
    budget: Count | None = None
    name: RawName | None = None


class CreateRequest(Strict):
    game: Literal["monopoly", "tools"] = "monopoly"
    #: a bundled edition's id, or an edition's data inline (checked against the edition schema)
    edition: Word | dict[str, Any] | None = None
    #: TOOLS: a deck's data inline (checked by the deck parser); absent: the standard deck
    deck: dict[str, Any] | None = None
    variant: Word | None = None
    presets: Annotated[list[Word], Field(max_length=16)] = []
    options: Options = {}
    #: a count, or one entry per seat (the engines allow at most 10)
    seats: Count | Annotated[list[Word | SeatSpec], Field(max_length=10)] | None = None
    timer: Seconds | None = None
    grace: Seconds | None = None
    bot_delay: Seconds | None = None
    lang: Lang | None = None
    host_name: RawName | None = None
    host_seat: Annotated[int, Field(ge=0, le=10)] | None = None
    listed: bool = False
    save: str | dict[str, Any] | None = None
    #: a game record (docs/records.md) instead of a save; the body's own bound caps its size
    record: str | None = None


class JoinRequest(Strict):
    invite: Secret | None = None
    name: RawName | None = None
    seat: Annotated[int, Field(ge=0, le=10)] | None = None


class InviteRequest(Strict):
    invite: Secret | None = None


# ----- WebSocket frames ------------------------------------------------------------------------
class Message(Strict):
    ref: Ref | None = None


class Hello(Message):
    type: Literal["hello"]
    #: the integer 1, 2 or 3: anything else (a bool, "2", 4) is refused by the hub with its own
    #: code, ``protocol``, which tells a client from another version what went wrong
    protocol: Any = None
    table: TableId | None = None
    token: Secret | None = None
    invite: Secret | None = None
    host_key: Secret | None = None
    lang: Lang | None = None
    #: the seat's randomness for the game's seed (docs/server.md, "Dice and decks anyone can
    #: verify"): a string here, its form (even-length lowercase hex) checked by the hub
    nonce: Annotated[str, Field(max_length=64)] | None = None


class Action(Message):
    type: Literal["action"]
    version: Count
    id: Count | None = None
    action: Any = None  # the engine checks it, and each field's type (decode_action)
    terms_revision: Count | None = None


class Legal(Message):
    type: Literal["legal"]
    anytime: bool = True
    trades: bool = True  # false: the trade proposals are left out (the browser page asks so)


class Sample(Message):
    type: Literal["sample"]
    since: Count = 0


class Chat(Message):
    type: Literal["chat"]
    text: Annotated[str, Field(max_length=4 * MAX_CHAT)]  # (clean_text: MAX_CHAT once cleaned)


class Bare(Message):
    type: Literal["start", "pause", "resume", "ping", "resync"]


class Export(Message):
    type: Literal["export"]
    format: Literal["save", "record"] = "save"


class Kick(Message):
    type: Literal["kick"]
    seat: Count


class SetBot(Message):
    type: Literal["set_bot"]
    seat: Count
    bot: Word
    budget: Count | None = None


class Replay(Message):
    type: Literal["replay"]
    step: Count


MESSAGES: dict[str, type[Message]] = {
    kind: model
    for model in (Hello, Action, Legal, Sample, Chat, Bare, Export, Kick, SetBot, Replay)
    for kind in typing.get_args(model.model_fields["type"].annotation)
}


# ----- checking --------------------------------------------------------------------------------
def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``value`` (parsed JSON) nests lists and objects more than ``limit`` levels deep.

    >>> too_deep([[[1]]], 3), too_deep([[[1]]], 2), too_deep({"a": {"b": []}}, 3)
    (False, True, False)
    """
    level: list[Any] = [value]
    for _ in range(limit):
        level = [
            child
            for node in level
            if isinstance(node, dict | list)
            for child in (node.values() if isinstance(node, dict) else node)
            if isinstance(child, dict | list)
        ]
        if not level:
            return False
    return any(isinstance(node, dict | list) for node in level)


def parse_json(raw: str | bytes) -> Any:
    """Parsed JSON, or ``bad_json`` / ``too_deep`` (never a RecursionError: orjson parses without
    Python recursion and stops at 1024 levels, and the rest is walked level by level)."""
    try:  # (orjson: a few times faster; its error is a json.JSONDecodeError)
        value = orjson.loads(raw)
    except json.JSONDecodeError as exc:
        raise ProtocolError("bad_json", E_("not JSON: {reason}", reason=exc.msg)) from exc
    # (fewer brackets than the limit cannot nest past it: most frames skip the walk)
    brackets = raw.count("[") + raw.count("{") if isinstance(raw, str) else MAX_DEPTH + 1
    if brackets > MAX_DEPTH and isinstance(value, dict | list) and too_deep(value):
        raise ProtocolError("too_deep", E_("JSON nested more than {most} deep", most=MAX_DEPTH))
    return value


#: a text past its length has the code it had before the types were checked here
_TOO_LONG = {"name": "name_too_long", "host_name": "name_too_long", "text": "chat_too_long"}


def _refusal(exc: ValidationError, close: bool = False) -> ProtocolError:
    """The first problem, as ``field.path: what is wrong`` (pydantic's words, in English)."""
    first = exc.errors(include_url=False, include_input=False)[0]
    loc = [str(p) for p in first["loc"] if not str(p).startswith(("function-", "tagged"))]
    code = "bad_request"
    if first["type"] == "string_too_long" and loc and loc[-1] in _TOO_LONG:
        code = _TOO_LONG[loc[-1]]
    problem = f"{'.'.join(loc) or 'message'}: {first['msg']}"
    return ProtocolError(code, E_("wrong field: {problem}", problem=problem), close=close)


def check_message(msg: Any) -> BaseModel:
    """A WebSocket frame's object checked against its type's model (``bad_request`` if not; a
    ``hello`` that cannot be read closes the connection, as a refused ``hello`` does)."""
    kind = msg.get("type") if isinstance(msg, dict) else None
    model = MESSAGES.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise ProtocolError("unknown_type", E_("unknown message type {kind}", kind="?"))
    try:
        return model.model_validate(msg)
    except ValidationError as exc:
        hello = isinstance(msg, dict) and msg.get("type") == "hello"
        raise _refusal(exc, close=hello) from exc


def check_body(model: type[M], body: Any) -> M:
    """An HTTP body checked against ``model``: a JSON object with the model's field types."""
    if not isinstance(body, dict):
        raise ProtocolError("bad_request", E_("a request is a JSON object"))
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        raise _refusal(exc) from exc


def inline_size(data: Any) -> int:
    """Bytes of ``data`` as JSON (an inline edition or deck is refused past MAX_INLINE_DATA)."""
    return len(orjson.dumps(data))

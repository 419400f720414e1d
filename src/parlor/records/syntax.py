"""The text layer of a game record: tag lines, setup lines, move lines and comments, read into a
:class:`Record` and written back, with no knowledge of any game (docs/records.md has the grammar).

>>> text = '[Format "parlor-record 1"]\\n[Game "tools"]\\n\\n* up hammer:red\\n1. P1 play hammer:red ; ok\\n'
>>> record = parse(text)
>>> record.tag("Game"), record.moves[0].seat, record.moves[0].verb, record.moves[0].comment
('tools', 0, 'play', 'ok')
>>> format_record(record) == text
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from parlor.core.errors import E_, ReplayError, Text

#: The format's name and version, the value of the first tag (``[Format "parlor-record 1"]``).
FORMAT_NAME = "parlor-record"
FORMAT_VERSION = 1
#: The largest record read (a long property game is a few hundred kB of moves).
MAX_RECORD_BYTES = 32 << 20
#: The separator of a move's outcomes (what chance and the rules made of it).
ARROW = " -> "

_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,39}")
_SEAT = re.compile(r"P([1-9][0-9]?)")
_NUMBER = re.compile(r"([1-9][0-9]{0,6})\.")
_VERB = re.compile(r"[a-z][a-z-]{0,23}")


class RecordError(ReplayError):
    """A record that cannot be read or does not replay; the message starts with its line."""


def problem(line: int, message: Text) -> RecordError:
    """The error of ``line`` (1-based; 0 for the record as a whole)."""
    if line <= 0:
        return RecordError(message)
    return RecordError(E_("line {line}: {problem}", line=line, problem=message))


@dataclass(frozen=True)
class Tag:
    """A header line ``[Name "value" ...]``."""

    name: str
    values: tuple[str, ...]
    line: int = 0


@dataclass(frozen=True)
class Line:
    """A setup line (``* verb args``: what chance dealt before the first move, ``seat`` None) or
    a move line (``[N.] Pk verb args -> outcome -> ...``). ``args`` is the text after the verb,
    ``outcomes`` the items after each arrow, ``number`` the turn a move line opens."""

    seat: int | None
    verb: str
    args: str = ""
    outcomes: tuple[str, ...] = ()
    number: int | None = None
    comment: str = ""
    line: int = 0

    def text(self) -> str:
        """The line as written (without its comment)."""
        head = "*" if self.seat is None else f"P{self.seat + 1}"
        if self.number is not None:
            head = f"{self.number}. {head}"
        body = f"{head} {self.verb}" + (f" {self.args}" if self.args else "")
        return body + "".join(ARROW + o for o in self.outcomes)


@dataclass
class Record:
    """A game record as read: its tags, setup lines and moves (see docs/records.md)."""

    tags: list[Tag] = field(default_factory=list)
    setup: list[Line] = field(default_factory=list)
    moves: list[Line] = field(default_factory=list)
    #: Comment lines before the first tag, kept as written.
    preamble: list[str] = field(default_factory=list)

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The first value of the first tag ``name`` (``default`` when there is none)."""
        for t in self.tags:
            if t.name == name:
                return t.values[0] if t.values else ""
        return default

    def tags_named(self, name: str) -> list[Tag]:
        return [t for t in self.tags if t.name == name]

    def without_comments(self) -> Record:
        """The same record with no comment: what it says of the game alone."""
        return Record(
            list(self.tags),
            [replace(s, comment="") for s in self.setup],
            [replace(m, comment="") for m in self.moves],
        )


def quote(value: str) -> str:
    """``value`` as a quoted string (backslash escapes ``\\\\``, ``\\"`` and ``\\n``)."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def read_quoted(text: str, start: int, line: int) -> tuple[str, int]:
    """The string quoted at ``text[start]`` and the index after its closing quote."""
    out: list[str] = []
    i = start + 1
    while i < len(text):
        c = text[i]
        if c == "\\":
            nxt = text[i + 1 : i + 2]
            if nxt not in ('"', "\\", "n"):
                raise problem(line, E_("unknown escape in a quoted string"))
            out.append("\n" if nxt == "n" else nxt)
            i += 2
        elif c == '"':
            return "".join(out), i + 1
        else:
            out.append(c)
            i += 1
    raise problem(line, E_("a quoted string is not closed"))


def _split_comment(text: str, line: int) -> tuple[str, str]:
    """The line's text and its comment (after a ``;`` outside quotes)."""
    i = 0
    while i < len(text):
        if text[i] == '"':
            _, i = read_quoted(text, i, line)
            continue
        if text[i] == ";":
            return text[:i].rstrip(), text[i + 1 :].strip()
        i += 1
    return text.rstrip(), ""


def _split_arrows(text: str, line: int) -> list[str]:
    """``text`` cut at every ``->`` outside quotes."""
    parts: list[str] = []
    i = last = 0
    while i < len(text):
        if text[i] == '"':
            _, i = read_quoted(text, i, line)
            continue
        if text.startswith("->", i):
            parts.append(text[last:i].strip())
            i = last = i + 2
            continue
        i += 1
    parts.append(text[last:].strip())
    return parts


def _parse_tag(text: str, line: int) -> Tag:
    body = text.rstrip()
    if not body.endswith("]"):
        raise problem(line, E_("a tag line ends with ]"))
    inner = body[1:-1].strip()
    m = _TAG_NAME.match(inner)
    if not m:
        raise problem(line, E_("a tag starts with its name (letters, digits and _)"))
    values: list[str] = []
    i = m.end()
    while i < len(inner):
        if inner[i] == " ":
            i += 1
        elif inner[i] == '"':
            value, i = read_quoted(inner, i, line)
            values.append(value)
        else:
            raise problem(line, E_("a tag's values are quoted strings"))
    return Tag(m.group(), tuple(values), line)


def _parse_line(text: str, line: int) -> Line:
    body, comment = _split_comment(text, line)
    parts = _split_arrows(body, line)
    head, outcomes = parts[0], tuple(parts[1:])
    if any(not o for o in outcomes):
        raise problem(line, E_("an outcome after -> is empty"))
    words = head.split(None, 1)
    number = None
    m = _NUMBER.fullmatch(words[0]) if words else None
    if m:
        number = int(m.group(1))
        words = words[1].split(None, 1) if len(words) > 1 else []
    if not words:
        raise problem(line, E_("a move names its player (P1, P2...) and what they did"))
    who, rest = words[0], (words[1] if len(words) > 1 else "")
    seat: int | None
    if who == "*":
        if number is not None:
            raise problem(line, E_("a setup line (*) has no turn number"))
        seat = None
    else:
        ms = _SEAT.fullmatch(who)
        if not ms:
            raise problem(line, E_("{word} is not a player: write P1, P2...", word=repr(who[:20])))
        seat = int(ms.group(1)) - 1
    verb, _, args = rest.partition(" ")
    if not _VERB.fullmatch(verb):
        raise problem(
            line, E_("{word} is not a move: a word in small letters", word=repr(verb[:24]))
        )
    return Line(seat, verb, args.strip(), outcomes, number, comment, line)


def parse(text: str) -> Record:
    """Read a record's text into a :class:`Record` (its lines checked against the grammar only;
    :func:`parlor.records.replay` checks them against the rules). Raises :class:`RecordError`."""
    if not isinstance(text, str):
        raise RecordError(E_("a record is text"))
    if text.startswith("\ufeff"):
        text = text[1:]
    record = Record()
    in_moves = False
    for no, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if not stripped:
            continue
        if stripped.startswith(";"):
            if not record.tags:
                record.preamble.append(stripped[1:].strip())
            continue
        if stripped.startswith("["):
            if in_moves:
                raise problem(no, E_("tags come before the moves"))
            record.tags.append(_parse_tag(stripped, no))
            continue
        if not record.tags:
            raise problem(no, E_("a record starts with its tags"))
        in_moves = True
        parsed = _parse_line(stripped, no)
        if parsed.seat is None:
            if record.moves:
                raise problem(no, E_("setup lines (*) come before the first move"))
            record.setup.append(parsed)
        else:
            record.moves.append(parsed)
    first = record.tags[0] if record.tags else None
    if first is None or first.name != "Format":
        raise RecordError(E_("a record starts with its [Format] tag"))
    want = f"{FORMAT_NAME} {FORMAT_VERSION}"
    if first.values != (want,):
        raise problem(
            first.line,
            E_("unknown format {found} (this reads {want})", found=repr(first.values), want=want),
        )
    return record


def _line_text(item: Line) -> str:
    return item.text() + (f" ; {item.comment}" if item.comment else "")


def format_record(record: Record) -> str:
    """The text of ``record`` (what :func:`parse` reads back as the same record)."""
    out = [f"; {c}" if c else ";" for c in record.preamble]
    out += [f"[{t.name}" + "".join(" " + quote(v) for v in t.values) + "]" for t in record.tags]
    out.append("")
    out += [_line_text(s) for s in record.setup]
    out += [_line_text(m) for m in record.moves]
    return "\n".join(out) + "\n"


def tag(name: str, *values: object) -> Tag:
    return Tag(name, tuple(str(v) for v in values))


def seat_list(text: str, players: int, line: int) -> list[int]:
    """Seats written ``"2 1 3"`` (1-based), 0-based out."""
    seats: list[int] = []
    for word in text.split():
        if not word.isdigit() or not 1 <= int(word) <= players:
            raise problem(
                line, E_("{word} is not a seat from 1 to {n}", word=repr(word[:12]), n=players)
            )
        seats.append(int(word) - 1)
    return seats


def seats_text(seats: Iterable[int]) -> str:
    return " ".join(str(s + 1) for s in seats)


def number_list(text: str, line: int) -> list[float]:
    out: list[float] = []
    for word in text.split():
        try:
            out.append(float(word))
        except ValueError:
            raise problem(line, E_("{word} is not a number", word=repr(word[:12]))) from None
    return out


def numbers_text(values: Sequence[float]) -> str:
    return " ".join(str(int(v)) if float(v).is_integer() else repr(float(v)) for v in values)

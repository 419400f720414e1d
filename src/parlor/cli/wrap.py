"""Lines that fit the terminal: wrapped between words, continued under a hanging indent.

A terminal cuts a long line at its last column, mid-word. Everything the games print goes
through :func:`wrap_line` (plain text) or :func:`wrap_text` (rich text, styles kept), which break
it between words; a continuation line is indented two places past the line's own indent (or past
a menu number such as ``  3. ``), so it reads as part of the same item. Only a single word longer
than the whole width is cut, since nothing else can be done with it.
"""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.text import Text

# a word; an amount in kroner ("4.000 kr.") is kept whole, like "$4,000"
_WORD = re.compile(r"\S+(?: kr\.\S*)?")
# the leading spaces, then a marker (a menu number "12. ", a bullet "> " or "- ") if any
_LEAD = re.compile(r" *(?:\d{1,3}\. +|[>*\-] +)?")
# a term and the gap of two or more spaces that makes a column of what follows
_COLUMN = re.compile(r" *\S+(?: \S+)*? {2,}(?=\S)")


def hanging_indent(line: str, width: int) -> int:
    """Where the continuation lines of ``line`` start: under the text after a term and its
    gap of spaces (a help line ``  d            draw a card``), or after a menu number, or two
    places deeper than the line.

    >>> hanging_indent("  d            draw a card", 80), hanging_indent("  12. buy it", 80)
    (15, 6)
    """
    column = _COLUMN.match(line)
    if column and len(column.group(0)) <= width // 3:
        return len(column.group(0))
    lead = _LEAD.match(line)
    size = len(lead.group(0)) if lead else 0
    if lead and size == len(line) - len(line.lstrip(" ")):
        size += 2  # plain text: two places deeper than the line itself
    return min(size, width // 3)


def _spans(line: str, width: int) -> tuple[list[tuple[int, int]], int]:
    """The (start, end) offsets of each output line of one input line, and the hanging indent."""
    if cell_len(line) <= width:
        return [(0, len(line))], 0
    hang = hanging_indent(line, width)
    spans: list[tuple[int, int]] = []
    start = 0  # where the current output line's text begins in ``line``
    end = 0  # where its last word ends
    indent = 0  # 0 on the first output line, ``hang`` after
    for match in _WORD.finditer(line):
        w_start, w_end = match.span()
        if end > start and indent + cell_len(line[start:w_end]) > width:
            spans.append((start, end))
            start, indent = w_start, hang
        # a single word wider than what is left: cut it where it must be cut
        while indent + cell_len(line[start:w_end]) > width:
            room = max(1, width - indent)
            cut = start
            while cut < w_end and cell_len(line[start : cut + 1]) <= room:
                cut += 1
            cut = max(cut, start + 1)
            spans.append((start, cut))
            start, indent = cut, hang
        end = w_end
    if end > start or not spans:
        spans.append((start, max(end, start)))
    return spans, hang


def wrap_line(text: str, width: int) -> list[str]:
    """``text`` (possibly several lines) as lines of at most ``width`` cells, broken at words."""
    out: list[str] = []
    for line in text.split("\n"):
        spans, hang = _spans(line.rstrip(), width)
        for i, (start, end) in enumerate(spans):
            out.append((" " * hang if i else "") + line[start:end])
    return out


def wrap_text(text: Text, width: int) -> list[Text]:
    """A rich text as lines of at most ``width`` cells, broken at words, styles kept."""
    out: list[Text] = []
    for line in text.split("\n", allow_blank=True):
        line.rstrip()
        spans, hang = _spans(line.plain, width)
        for i, (start, end) in enumerate(spans):
            piece = line[start:end]
            out.append(Text.assemble(" " * hang, piece) if i else piece)
    return out


def pack_items(items: list[str], width: int, first: str = "  (", last: str = ")") -> list[str]:
    """Short items (``b build``, ``q quit``) packed on lines two spaces apart, a line breaking
    only between two items, so that a key is never parted from its word.

    >>> pack_items(["b build", "t trade", "q quit"], 20)
    ['  (b build  t trade', '   q quit)']
    """
    lines: list[str] = []
    line = first
    for i, item in enumerate(items):
        piece = item + (last if i == len(items) - 1 else "")
        if line.strip(" (") and cell_len(line) + 2 + cell_len(piece) > width:
            lines.append(line)
            line = " " * len(first) + piece
        else:
            line += ("  " if line.strip(" (") else "") + piece
    lines.append(line)
    return lines

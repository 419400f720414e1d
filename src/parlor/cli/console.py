"""Terminal input and output for the games: safe against odd input and vanished output.

Lines typed are read with undecodable bytes replaced, never raising; output that can no longer be
written (a closed pipe, an encoding the terminal lacks) raises :class:`OutputGone`, which the
games answer by saving and stopping. Coloured lines go through rich, which prints plain text when
the output is not a terminal (or ``NO_COLOR`` is set).
"""

from __future__ import annotations

import contextlib
import io
import sys
from typing import TextIO

from rich.console import Console
from rich.text import Text

from parlor.cli.common import clean_text
from parlor.cli.wrap import wrap_line, wrap_text

#: Room kept after a prompt on its line, for the answer.
ANSWER_ROOM = 8


class InputEnded(Exception):
    """The input stream ended (or became unreadable)."""


class OutputGone(Exception):
    """The output stream cannot be written any more."""


def harden_std_streams() -> None:
    """Make the process's own streams replace what they cannot decode or encode."""
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            with contextlib.suppress(ValueError, OSError):
                stream.reconfigure(errors="replace")


class Terminal:
    """The streams of one game: :meth:`say` lines, :meth:`show` rich text, :meth:`ask` a line.

    Everything is wrapped between words at ``width`` (the terminal's), never cut mid-word.
    """

    def __init__(self, inp: TextIO, out: TextIO, width: int = 80, color: bool | None = None):
        self.inp = inp
        self.out = out
        self.width = max(40, width)
        interactive = out.isatty() if color is None else color
        self.console = Console(
            file=out,
            width=self.width,
            force_terminal=interactive,
            no_color=not interactive,
            highlight=False,
            soft_wrap=True,
        )
        self.interactive = interactive

    def say(self, text: str = "") -> None:
        try:
            self.out.write("".join(line + "\n" for line in wrap_line(text, self.width)))
        except (OSError, ValueError, UnicodeError) as exc:
            raise OutputGone(str(exc)) from exc

    def show(self, text: Text) -> None:
        try:
            for line in wrap_text(text, self.width):
                self.console.print(line)  # (already fitted: soft_wrap keeps rich from rewrapping)
        except (OSError, ValueError, UnicodeError) as exc:
            raise OutputGone(str(exc)) from exc

    def ask(self, prompt: str) -> str:
        lines = wrap_line(prompt.rstrip(), self.width - ANSWER_ROOM)
        try:
            self.out.write("".join(line + "\n" for line in lines[:-1]) + lines[-1] + " ")
            self.out.flush()
        except (OSError, ValueError, UnicodeError) as exc:
            raise OutputGone(str(exc)) from exc
        try:
            line = self.inp.readline()
        except (OSError, ValueError, UnicodeError) as exc:
            raise InputEnded() from exc
        if not line:
            raise InputEnded()
        return clean_text(line.strip())[:200]

    def flush(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.out.flush()

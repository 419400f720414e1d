"""Run ``parlor`` in a real pseudo-terminal of a given size, as a person at a terminal would.

The child gets a pty as stdin, stdout and stderr, sized with ``TIOCSWINSZ`` (so
``shutil.get_terminal_size`` and rich see a real terminal of that width). The keys are typed
ahead with echo off, so the screen holds only what the game printed; ``^D`` ends the input.
Colour escapes are stripped from what is returned.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]")
EOF = "\x04"


def run_in_pty(
    args: list[str],
    keys: list[str],
    width: int = 80,
    cwd: Path | None = None,
    timeout: float = 60,
    typeahead: bool = False,
) -> tuple[int, str]:
    """Run ``python -m parlor.cli ARGS`` in a ``width``-column pty; returns (exit code, screen).

    Each of ``keys`` is typed (with Enter) when the game shows a prompt (output ending in
    ``"> "``), as a person answers; then ^D ends the input. With ``typeahead`` every line is typed
    at once before the game asks, as an impatient player does (echo is off then, so that the
    screen holds only what the game printed).
    """
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, width, 0, 0))
    if typeahead:
        attrs = termios.tcgetattr(slave)
        attrs[3] &= ~(termios.ECHO | termios.ECHONL)  # lflag
        termios.tcsetattr(slave, termios.TCSANOW, attrs)
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env.update({"PYTHONIOENCODING": "utf-8", "LANG": "C.UTF-8", "TERM": "xterm-256color"})
    proc = subprocess.Popen(
        [sys.executable, "-m", "parlor.cli", *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        cwd=cwd,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    chunks: list[bytes] = []
    to_type = [line.encode("utf-8") + b"\n" for line in keys] + [EOF.encode()]
    if typeahead:
        to_type = [b"".join(to_type)]
    since = 0  # the output length when the last line was typed
    deadline = time.monotonic() + timeout
    try:
        while True:
            if time.monotonic() > deadline:
                proc.kill()
                raise TimeoutError(b"".join(chunks).decode("utf-8", "replace")[-3000:])
            ready, _w, _x = select.select([master], [], [], 0.05)
            if ready:
                try:
                    data = os.read(master, 65536)
                except OSError:  # EIO: the child closed the terminal
                    break
                if not data:
                    break
                chunks.append(data)
            elif proc.poll() is not None:
                break
            if to_type and (typeahead or not ready):  # (a prompt, then 50 ms of quiet)
                screen = ANSI.sub("", b"".join(chunks)[since:].decode("utf-8", "replace"))
                last = screen.rsplit("\n", 1)[-1]
                if typeahead or (last.endswith("> ") and last != " > "):  # (not a standings line)
                    since = sum(len(c) for c in chunks)
                    os.write(master, to_type.pop(0))
    finally:
        os.close(master)
    code = proc.wait(timeout=10)
    text = b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")
    return code, ANSI.sub("", text).replace("\r", "").replace(EOF, "")

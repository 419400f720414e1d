"""Reading a user's file safely: a regular file only, at most so many bytes, UTF-8 text.

An edition, a deck or a saved game named on a command line or sent to a server may be a device
(``/dev/zero`` never ends), a pipe (an open blocks forever), a directory, a huge file, or bytes that
are not UTF-8. :func:`read_text_limited` refuses each with the caller's error class and a short
message, without blocking and without reading more than the cap.

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as folder:
...     read_text_limited(folder, 100, what="edition")
Traceback (most recent call last):
...
parlor.core.errors.SettingsError: cannot read edition ...: it is not a regular file
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from parlor.core.errors import E_, ParlorError, SettingsError
from parlor.core.validate import short_repr


def read_text_limited(
    path: str | Path,
    max_bytes: int,
    error: type[ParlorError] = SettingsError,
    what: str = E_("file"),
) -> str:
    """The text of the regular file ``path``, if it is UTF-8 and at most ``max_bytes`` long."""
    if not isinstance(path, str | Path):
        raise error(
            E_("the {what} must be named by a path, not {value}", what=what, value=short_repr(path))
        )
    shown = short_repr(str(path), 80)
    # O_NONBLOCK: opening a pipe with no writer returns at once (and fstat then refuses it).
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError) as exc:  # (ValueError: a NUL byte in the path)
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise error(
            E_("cannot read {what} {shown}: {reason}", what=what, shown=shown, reason=reason)
        ) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error(
                E_("cannot read {what} {shown}: it is not a regular file", what=what, shown=shown)
            )
        if info.st_size > max_bytes:
            raise error(
                E_(
                    "cannot read {what} {shown}: larger than {most} bytes",
                    what=what,
                    shown=shown,
                    most=max_bytes,
                )
            )
        chunks = []
        size = 0
        while size <= max_bytes:  # (the file may grow after fstat)
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > max_bytes:
            raise error(
                E_(
                    "cannot read {what} {shown}: larger than {most} bytes",
                    what=what,
                    shown=shown,
                    most=max_bytes,
                )
            )
    except OSError as exc:
        raise error(
            E_(
                "cannot read {what} {shown}: {reason}",
                what=what,
                shown=shown,
                reason=exc.strerror or exc,
            )
        ) from None
    finally:
        os.close(fd)
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(
            E_(
                "{what} {shown} is not UTF-8 text (byte {start})",
                what=what,
                shown=shown,
                start=exc.start,
            )
        ) from None

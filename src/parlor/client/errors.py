"""The client's one error type (its own module, so that every part of the client can raise it)."""

from __future__ import annotations


class ServerError(Exception):
    """An error frame or HTTP error from the server: ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

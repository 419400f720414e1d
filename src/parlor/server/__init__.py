"""The Parlor game service: tables, seats, bots and persistence behind a WebSocket protocol.

``parlor serve`` runs :func:`parlor.server.app.create_app` under uvicorn; the protocol is in
``docs/server.md``. The engines are used only through their public interface.
"""

from __future__ import annotations

import os

DEFAULT_DATABASE = "sqlite:///parlor.db"


def database_url(cli_value: str | None = None) -> str:
    """``--database-url``, else ``PARLOR_DATABASE_URL``, else a SQLite file here."""
    return cli_value or os.environ.get("PARLOR_DATABASE_URL") or DEFAULT_DATABASE

"""Alembic environment: the connection comes from the service (``config.attributes``) or the URL."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from parlor.server.models import Base


def run_migrations() -> None:
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=Base.metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "sqlite://")
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=Base.metadata)
        with context.begin_transaction():
            context.run_migrations()


# Alembic sets ``context.config`` when it runs this file; a plain import (pytest's doctest
# collection) must do nothing.
if getattr(context, "config", None) is not None:
    run_migrations()

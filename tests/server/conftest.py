"""Fixtures: a shared ``parlor serve`` process on a loopback port, and fresh ones on demand."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.support import ServerProcess


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("db") / "parlor.db"
    proc = ServerProcess(
        f"sqlite:///{db}",
        "--bot-delay",
        "0",
        "--max-connections-per-address",
        "400",
        "--max-messages-per-connection",
        "1000",
        "--max-messages-per-address",
        "100000",
        "--max-requests-per-address",  # (every test's tables come from one address)
        "100000",
    ).start()
    yield proc
    proc.stop()


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[Any]:
    """A factory of servers on their own database, stopped after the test."""
    made: list[ServerProcess] = []

    def make(*extra: str, db: Path | None = None) -> ServerProcess:
        url = f"sqlite:///{db or tmp_path / 'parlor.db'}"
        proc = ServerProcess(url, "--bot-delay", "0", *extra).start()
        made.append(proc)
        return proc

    yield make
    for proc in made:
        proc.stop()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A real PostgreSQL server (Debian's package) on a loopback port, in a temporary directory."""
    from tests.server.support import PostgresCluster

    cluster = PostgresCluster()
    cluster.start()
    yield cluster.url
    cluster.stop()

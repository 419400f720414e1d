"""A ``parlor serve`` process and Debian's Chromium driven by Playwright (headless, loopback)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.server.support import ServerProcess

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("webdb") / "parlor.db"
    # (every page load and table of the session comes from one address: no HTTP rate limit)
    proc = ServerProcess(
        f"sqlite:///{db}", "--bot-delay", "0", "--max-requests-per-address", "100000"
    ).start()
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    # per module, not per session: Playwright's sync API keeps an event loop running in this
    # thread while it is open, and tests run after it that call asyncio.run would fail
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def images(tmp_path: Path) -> Path:
    """Where the tests' screenshots go: a temporary folder, or the docs' pictures when
    PARLOR_SCREENSHOTS=1 (games are random, so an ordinary run must not rewrite tracked files)."""
    if os.environ.get("PARLOR_SCREENSHOTS") == "1":
        IMAGES.mkdir(parents=True, exist_ok=True)
        return IMAGES
    return tmp_path


@pytest.fixture
def contexts(browser: Browser) -> Iterator[Any]:
    made: list[Any] = []

    def make(**kw: Any) -> Any:
        ctx = browser.new_context(**kw)
        made.append(ctx)
        return ctx

    yield make
    for ctx in made:
        ctx.close()

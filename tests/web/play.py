"""Playing a table by clicks, as a person would: read the page's decision, click one control."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

Policy = Callable[[Any, str], bool]


def decision(page: Any) -> str:
    return str(page.evaluate("document.getElementById('main').dataset.decision || ''"))


def version(page: Any) -> int:
    v = page.evaluate("document.getElementById('main').dataset.version")
    return int(v) if v is not None else -1


def status(page: Any) -> str:
    return str(page.evaluate("document.getElementById('main').dataset.status || ''"))


def click(page: Any, selector: str) -> bool:
    """Click the first control matching ``selector`` if there is one (the page may be redrawn
    between the look and the click: then nothing is clicked and the caller looks again)."""
    loc = page.locator(selector)
    if loc.count() == 0:
        return False
    try:
        loc.first.click(timeout=1500)
    except Exception:  # redrawn under the pointer: look again
        return False
    return True


def answer_types(page: Any) -> list[str]:
    return list(
        page.eval_on_selector_all("#prompt button.answer", "els => els.map(e => e.dataset.type)")
    )


def play_until_over(pages: list[Any], policies: list[Policy], limit_s: float) -> None:
    """Each page answers its own prompts by its policy until every page shows the game over."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if all(status(p) == "over" for p in pages):
            return
        acted = False
        for page, policy in zip(pages, policies, strict=True):
            kind = decision(page)
            before = version(page)
            if kind and policy(page, kind):
                acted = True
                # until the move shows (or an error does: then the policy looks again)
                with contextlib.suppress(Exception):
                    page.wait_for_function(
                        f"Number(document.getElementById('main').dataset.version) !== {before}"
                        " || !!document.getElementById('error').textContent",
                        timeout=3000,
                    )
        if not acted:
            time.sleep(0.02)
    for i, page in enumerate(pages):
        page.screenshot(path=f"/tmp/parlor-web-stuck-{i}.png", full_page=True)
    raise AssertionError(
        f"the game did not end in time: {[(decision(p), version(p)) for p in pages]}"
    )

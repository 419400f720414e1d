"""Playing a table by clicks, as a person would: read the page's decision, click one control."""

from __future__ import annotations

import contextlib
import json
import time
import urllib.request
from collections.abc import Callable
from typing import Any

Policy = Callable[[Any, str], bool]

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def create_table(base: str, body: dict[str, Any]) -> dict[str, Any]:
    """Create a table through the API, as the home page's form does; the creator's seat token,
    host key and invite link come back."""
    req = urllib.request.Request(
        base + "/api/tables", json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=20) as r:
        made: dict[str, Any] = json.loads(r.read())
    return made


def open_as_host(page: Any, base: str, made: dict[str, Any]) -> None:
    """The browser keeps seat tokens in localStorage: put the creator's there, as the create
    form would have, and open the table."""
    page.goto(base + "/")
    mine = {k: made[k] for k in ("token", "host_key", "seat", "link")}
    page.evaluate(
        "([id, data]) => localStorage.setItem('parlor.tables', JSON.stringify({[id]: data}))",
        [made["table"], {**mine, "game": "monopoly", "at": 0}],
    )
    page.goto(f"{base}/#table={made['table']}")


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


def prompt_text(page: Any) -> str:
    """What the page asks (for a failure's message): the prompt's words and its buttons."""
    with contextlib.suppress(Exception):
        return str(
            page.evaluate(
                "(() => { const p = document.getElementById('prompt');"
                " return p ? p.innerText.replace(/\\s+/g, ' ').slice(0, 400) : ''; })()"
            )
        )
    return "?"


#: A page showing the same decision at the same version, its policy finding nothing to click,
#: this long: the test fails now (with a screenshot and the prompt), not at its time limit.
STALL_S = 20.0


def play_until_over(pages: list[Any], policies: list[Policy], limit_s: float) -> None:
    """Each page answers its own prompts by its policy until every page shows the game over.
    A page whose policy finds nothing to click on one decision for :data:`STALL_S` seconds
    fails the test at once, with a screenshot and the prompt it could not answer."""
    deadline = time.monotonic() + limit_s
    stuck: dict[int, tuple[str, int, float]] = {}  # page -> (decision, version, since)
    while time.monotonic() < deadline:
        if all(status(p) == "over" for p in pages):
            return
        acted = False
        for i, (page, policy) in enumerate(zip(pages, policies, strict=True)):
            kind = decision(page)
            before = version(page)
            if not kind:
                stuck.pop(i, None)
                continue
            if policy(page, kind):
                acted = True
                stuck.pop(i, None)
                # until the move shows (or an error does: then the policy looks again)
                with contextlib.suppress(Exception):
                    page.wait_for_function(
                        f"Number(document.getElementById('main').dataset.version) !== {before}"
                        " || !!document.getElementById('error').textContent",
                        timeout=3000,
                    )
                continue
            was = stuck.get(i)
            if was is None or was[:2] != (kind, before):
                stuck[i] = (kind, before, time.monotonic())
            elif time.monotonic() - was[2] > STALL_S:
                shot = f"/tmp/parlor-web-stalled-{i}.png"
                page.screenshot(path=shot, full_page=True)
                raise AssertionError(
                    f"page {i} found nothing to click for {STALL_S:.0f} s on {kind!r} at version"
                    f" {before}: prompt {prompt_text(page)!r} (screenshot {shot})"
                )
        if not acted:
            time.sleep(0.02)
    for i, page in enumerate(pages):
        page.screenshot(path=f"/tmp/parlor-web-stuck-{i}.png", full_page=True)
    raise AssertionError(
        "the game did not end in time: "
        f"{[(decision(p), version(p), prompt_text(p)) for p in pages]}"
    )


def at_rest(page: Any) -> Any:
    """``page`` once every motion on it has ended (a picture of the table, not of a card in
    flight)."""
    page.evaluate("Promise.all(document.getAnimations().map(a => a.finished))")
    return page

"""On a phone (390x844, touch): every control is at least 44x44 px, nothing scrolls sideways,
the decision is pinned at the bottom of the screen and the board zooms; in Spanish."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.play import PHONE, at_rest
from tests.web.test_tools import create_tools_table

# Every control a finger can hit, with the box it is hit by: a checkbox's is its label. The
# board's squares are left out: the board is zoomed (button or pinch) to tap them.
SMALL_TARGETS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('button, select, input, summary, a[href], textarea')) {
    if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
    const box = (['checkbox', 'radio'].includes(el.type) && el.closest('label')) || el;
    const r = box.getBoundingClientRect();
    if (r.width < 44 || r.height < 44) out.push(`${el.tagName}#${el.id}.${el.className} ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  return out;
}"""
SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def phone(contexts: Any) -> Any:
    page = contexts(viewport=PHONE, is_mobile=True, has_touch=True, locale="es-ES").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    page.add_init_script("localStorage.setItem('parlor.lang', 'es')")
    return page


def check(page: Any, where: str) -> None:
    small = page.evaluate(SMALL_TARGETS)
    assert small == [], (where, small)
    assert page.evaluate(SIDEWAYS) <= 0, where
    assert not page.errors, page.errors


def test_a_phone_gets_big_targets_no_sideways_scroll_and_the_decision_at_the_bottom(
    web_server: Any, contexts: Any, images: Path
) -> None:
    page = phone(contexts)
    page.goto(web_server.base + "/")
    page.wait_for_selector("#create-button")
    assert page.inner_text("#create-button") == "Crear la mesa"
    check(page, "home")
    # a property table: one person, three bots; the host starts it
    page.fill("#host-name", "Ana")
    page.select_option("#seat-count", "4")
    for seat, kind in enumerate(["human", "heuristic", "heuristic", "heuristic"]):
        page.select_option(f"#seat-{seat}", kind)
    page.fill("#bot-delay", "0")
    page.click("#create-button")
    page.wait_for_selector("#start")
    check(page, "waiting room")
    page.tap("#start")
    page.wait_for_selector("#board svg")
    page.wait_for_selector("#prompt")
    page.wait_for_function(
        "document.getElementById('board').dataset.version"
        " === document.getElementById('main').dataset.version"
    )
    page.screenshot(path=str(images / "web-property-phone-es.png"))
    page.tap("#trade-open")
    page.wait_for_selector("#trade[open] #trade-form")
    check(page, "property table, trade dialog")
    page.tap("#trade-close")
    page.wait_for_function("!document.getElementById('trade').open")
    check(page, "property table")
    # the decision sits at the bottom of the screen, whatever the scroll
    for y in (0, 600):
        page.evaluate(f"window.scrollTo(0, {y})")
        box = page.locator("#prompt").bounding_box()
        assert box is not None and abs(box["y"] + box["height"] - PHONE["height"]) <= 2, box
    # the board zooms: twice as wide, scrolled inside its own frame, the page still not sideways
    width = page.locator("#board svg").bounding_box()["width"]
    page.tap("#zoom")
    page.wait_for_function(
        f"document.querySelector('#board svg').getBoundingClientRect().width > {width * 1.8}"
    )
    assert page.evaluate(SIDEWAYS) <= 0
    page.tap("#zoom")
    # TOOLS at the same size
    tools = phone(contexts)
    create_tools_table(tools, web_server.base)
    tools.tap("#start")
    tools.wait_for_selector("#hand .tcard")
    at_rest(tools).screenshot(path=str(images / "web-tools-phone-table-es.png"))
    tools.tap("#rules-help summary")
    check(tools, "TOOLS table")

"""axe-core finds no serious or critical violation on the home page, a TOOLS table, a property
table and the game-over page; "play now" starts a game in one click; the running log survives a
reload; after a server restart the page is back within 2 s, with no page error."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from parlor.i18n import web_messages
from tests.server.support import ServerProcess
from tests.web.play import DESKTOP, answer_types, click, play_until_over

AXE = Path(__file__).parent / "assets" / "axe-4.14.1.min.js"
SERIOUS = """async () => {
  const r = await axe.run(document, { resultTypes: ['violations'] });
  return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '));
}"""


# What a person reads: the page's text and the board picture's visible words
SEEN_TEXT = """() => [document.body.innerText, [...document.querySelectorAll('#board svg text')]
  .filter(el => { for (let x = el; x; x = x.parentElement) if (getComputedStyle(x).display === 'none') return false; return true; })
  .map(el => el.textContent).join('\\n')]"""
# The board's own English (the renderer's generic words and the middle's status line)
BOARD_ENGLISH = (
    "Just Visiting",
    "Free Parking",
    "Go to Jail",
    "turn:",
    " deeds",
    "Bank:",
    "MORTGAGED",
)


def english_on(page: Any, lang: str) -> list[str]:
    """English phrases of the page's catalog (two words or more, placeholders cut out, not the
    same in ``lang``) and of the board picture that show on a page in ``lang``. The edition's
    own names (the classic board's squares are English) are not the page's words; its cards
    are (every edition's cards have texts in the three languages)."""
    text, board = page.evaluate(SEEN_TEXT)
    seen = text + "\n" + board
    theirs = web_messages(lang)
    # on the board itself (the log may name the classic square "In Jail / Just Visiting")
    found = [w for w in BOARD_ENGLISH if w in board]
    for english in web_messages("en"):
        if not isinstance(english, str) or theirs.get(english) == english:
            continue
        for part in english.replace("{", "}").split("}")[::2]:
            # (whole words: the Danish "Zoom ind" holds the English "Zoom in")
            phrase = part.strip()
            if (
                len(part.split()) >= 2
                and phrase in seen
                and re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", seen)
            ):
                found.append(phrase)
    return found


def serious_violations(page: Any) -> list[str]:
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return list(page.evaluate(SERIOUS))


def page_with_errors(contexts: Any, **kw: Any) -> Any:
    # (motion reduced, as a person may ask, which the page honours: axe measures a badge that
    # is still fading in as faint text, so a cash change shown by a bot's move while it ran
    # failed the scan as "color-contrast: .up" once in CI, whose colours pass when shown)
    kw.setdefault("reduced_motion", "reduce")
    page = contexts(viewport=DESKTOP, **kw).new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return page


def first_answer(page: Any, kind: str) -> bool:
    for wanted in ("RollDice", "DeclineProperty", "PassBid", "EndTurn", "PayJailFine"):
        if wanted in answer_types(page):
            return click(page, f"#prompt button[data-type={wanted}]")
    return click(page, "#prompt button.answer")


def test_axe_finds_nothing_serious_and_play_now_is_one_click(
    web_server: Any, contexts: Any, images: Path
) -> None:
    page = page_with_errors(contexts, locale="da-DK")
    page.add_init_script("localStorage.setItem('parlor.lang', 'da')")
    page.goto(web_server.base + "/")
    page.wait_for_selector("#quick-tools")
    assert serious_violations(page) == [], "home"
    # one click: a TOOLS game against three bots, started
    page.click("#quick-tools")
    page.wait_for_selector("#hand .tcard")
    assert page.locator("#tools-seats li").count() == 4
    assert serious_violations(page) == [], "TOOLS table"
    english = english_on(page, "da")
    assert english == [], english
    page.screenshot(path=str(images / "web-tools-desktop-da.png"))
    # one click: a property game, started; its decision in the middle of the board
    page.goto(web_server.base + "/")
    page.click("#quick-monopoly")
    page.wait_for_selector("#board svg")
    page.wait_for_selector("#stage #prompt, #stage #no-prompt")
    found = serious_violations(page)
    assert found == [], found
    page.wait_for_function(
        "document.getElementById('board').dataset.version"
        " === document.getElementById('main').dataset.version"
    )
    page.screenshot(path=str(images / "web-property-desktop-da.png"))
    english = english_on(page, "da")
    assert english == [], english
    # a frame updates the page, it does not rebuild it: the board and the log stay the elements
    # they were (a tap cannot land on one being replaced)
    page.evaluate(
        "window.kept = [document.getElementById('board'), document.getElementById('log')]"
    )
    seen = int(page.evaluate("document.getElementById('main').dataset.version"))
    for _ in range(40):
        if int(page.evaluate("document.getElementById('main').dataset.version")) >= seen + 3:
            break
        kind = page.evaluate("document.getElementById('main').dataset.decision")
        if kind:
            first_answer(page, kind)
        page.wait_for_timeout(250)
    assert int(page.evaluate("document.getElementById('main').dataset.version")) >= seen + 3
    assert page.evaluate(
        "kept[0] === document.getElementById('board') && kept[1] === document.getElementById('log')"
    )
    # the running log is kept across a reload, newest on top
    page.wait_for_function("document.querySelectorAll('#log li').length >= 3")
    before = page.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)")
    page.reload()
    page.wait_for_selector("#board svg")
    after = page.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)")
    assert before[-1] in after and after.index(before[-1]) >= len(after) - len(before)
    assert page.errors == []


def test_the_game_over_page_has_nothing_serious(web_server: Any, contexts: Any) -> None:
    page = page_with_errors(contexts)
    page.goto(web_server.base + "/")
    page.fill("#host-name", "Ann")
    page.select_option("#seat-count", "2")
    page.select_option("#seat-1", "heuristic")
    page.fill("#rounds", "1")
    page.fill("#bot-delay", "0")
    page.click("#create-button")
    page.click("#start")
    play_until_over([page], [first_answer], limit_s=60)
    page.wait_for_selector("#final")
    assert "Ann" in page.inner_text("#ranking")
    assert page.inner_text("#announce").startswith("Game over")  # told to screen readers
    assert serious_violations(page) == [], "game over"
    assert page.errors == []


@pytest.mark.parametrize("game", ["tools", "monopoly"])
def test_the_page_is_back_within_2_s_of_a_server_restart(
    contexts: Any, tmp_path: Path, game: str
) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'parlor.db'}", "--bot-delay", "0").start()
    try:
        page = page_with_errors(contexts)
        page.goto(server.base + "/")
        page.click(f"#quick-{game}")
        page.wait_for_selector("#hand .tcard" if game == "tools" else "#board svg")
        page.wait_for_function("document.getElementById('main').dataset.decision !== ''")
        seen = page.evaluate("document.getElementById('main').dataset.version")
        server.kill()
        page.wait_for_function("document.getElementById('status').textContent !== 'connected'")
        time.sleep(1.5)  # down for a while: the page keeps trying
        server.start()  # same port, same database; returns once it answers
        back = time.monotonic()
        page.wait_for_function(
            "document.getElementById('status').textContent === 'connected'", timeout=5000
        )
        assert time.monotonic() - back < 2.0
        assert page.evaluate("document.getElementById('main').dataset.version") == seen
        assert page.errors == [], page.errors  # no "Failed to fetch" left unhandled
    finally:
        server.stop()

"""The keyboard alone: a whole TOOLS game, and property turns (throw, buy, end; the trade dialog
opened, a deed ticked, shut), played with Tab, Enter, Space, the arrows and Escape only; every
control reached shows its focus ring, and the live region tells the turn and the result."""

from __future__ import annotations

import time
from typing import Any

from tests.web.play import DESKTOP, create_table, decision, open_as_host, status, version

# the focused element, whether it shows its focus (the ring of :focus-visible, not just a colour)
FOCUS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  return { id: el.id, type: el.dataset.type || '', card: el.dataset.card || '',
    visible: el.matches(':focus-visible') && style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 };
}"""


def tab_to(page: Any, wanted: str, presses: int = 120) -> bool:
    """Press Tab until the focused element matches the CSS selector ``wanted`` (the page may be
    redrawn meanwhile: the caller looks again when this gives up)."""
    for _ in range(presses):
        if page.evaluate(f"!!document.activeElement?.matches({wanted!r})"):
            focus = page.evaluate(FOCUS)
            assert focus and focus["visible"], (wanted, focus)  # the ring is seen
            return True
        page.keyboard.press("Tab")
    return False


def press_on(page: Any, wanted: str) -> bool:
    """Tab to a control and press Enter on it; True once the table moved on."""
    before = version(page)
    if not tab_to(page, wanted):
        return False
    page.keyboard.press("Enter")
    try:
        page.wait_for_function(
            f"Number(document.getElementById('main').dataset.version) !== {before}"
            " || !!document.getElementById('error').textContent",
            timeout=3000,
        )
    except Exception:  # redrawn and gone before Enter: the caller looks again
        return False
    return True


def told(page: Any) -> str:
    return str(page.inner_text("#announce"))


def tools_game_by_keyboard(web_server: Any, contexts: Any) -> tuple[int, int, set[str]]:
    """One TOOLS game against a bot by the keyboard: the moves made, the times the arrows went
    along the hand, and what the live region told."""
    made = create_table(
        web_server.base,
        {
            "game": "tools",
            "seats": ["human", "heuristic"],
            "bot_delay": 0,
            "host_name": "Ann",
            "options": {"hand_size": 4},  # (a short game: the suite's time is shared)
        },
    )
    page = contexts(viewport=DESKTOP).new_page()
    open_as_host(page, web_server.base, made)
    page.evaluate(
        "id => { const all = JSON.parse(localStorage.getItem('parlor.tables'));"
        " all[id].game = 'tools'; localStorage.setItem('parlor.tables', JSON.stringify(all)); }",
        made["table"],
    )
    assert press_on(page, "#start") or page.locator("#pile").count()
    page.wait_for_selector("#pile")
    heard: set[str] = set()
    moves = arrows = 0
    deadline = time.monotonic() + 120
    while status(page) != "over":
        assert time.monotonic() < deadline, (decision(page), page.inner_text("#prompt"))
        heard.add(told(page))
        kind = decision(page)
        if not kind:
            time.sleep(0.05)
            continue
        # a playable card of the hand first, else what the prompt offers (draw, keep, colour)
        wanted = {
            "play": "#hand button.playable, #draw-pile:not([disabled]), #prompt button.answer",
            "choose_color": "#prompt button[data-type=ChooseColor]",
        }.get(kind, "#prompt button.answer")
        if kind == "play" and page.locator("#hand button.playable").count() > 1:
            # the arrows go along the hand's playable cards: the last one, reached from the first
            if not tab_to(page, "#hand button.playable"):
                continue
            cards = page.eval_on_selector_all(
                "#hand button.playable", "els => els.map(e => e.dataset.key)"
            )
            page.keyboard.press("ArrowLeft")  # (wraps round to the last)
            if page.evaluate("document.activeElement.dataset.key") != cards[-1]:
                continue  # redrawn meanwhile: look again
            page.keyboard.press("ArrowRight")
            assert page.evaluate("document.activeElement.dataset.key") == cards[0]
            page.keyboard.press("End")
            arrows += 1
            wanted = f"#hand button.playable[data-key='{cards[-1]}']"
        if press_on(page, wanted):
            moves += 1
    heard.add(told(page))
    page.wait_for_selector("#ranking")
    return moves, arrows, heard


def test_a_whole_tools_game_by_keyboard(web_server: Any, contexts: Any) -> None:
    # the bot may go out before Ann ever holds two playable cards (hands of four): a game
    # without a walk along the hand is played again, at most three
    for _ in range(3):
        moves, arrows, heard = tools_game_by_keyboard(web_server, contexts)
        if moves >= 3 and arrows >= 1:
            break
    assert moves >= 3 and arrows >= 1, (moves, arrows)
    assert "Play a card or draw" in heard  # the turn, told to screen readers
    assert any(h.startswith("Game over: ") for h in heard), heard  # and the result


def test_property_turns_by_keyboard_throw_buy_end_and_the_dialogs(
    web_server: Any, contexts: Any
) -> None:
    made = create_table(
        web_server.base,
        {
            "game": "monopoly",
            "edition": "classic",
            "variant": "short",
            "seats": ["human", "heuristic"],
            "bot_delay": 0,
            "host_name": "Ann",
            "options": {"time_limit_rounds": 12},
        },
    )
    page = contexts(viewport=DESKTOP).new_page()
    open_as_host(page, web_server.base, made)
    press_on(page, "#start")
    page.wait_for_selector("#board svg")
    done: dict[str, int] = {}
    heard: set[str] = set()
    deadline = time.monotonic() + 60
    while not done.get("BuyProperty") or not done.get("EndTurn"):
        assert time.monotonic() < deadline and status(page) != "over", done
        heard.add(told(page))
        kind = decision(page)
        if not kind:
            time.sleep(0.05)
            continue
        # (read again with the decision seen: the page writes both in one redraw, and the read
        # above may come before it, as when Ann's only turn began between the two reads)
        heard.add(told(page))
        types = page.eval_on_selector_all(
            "#prompt button.answer", "els => els.map(e => e.dataset.type)"
        )
        for wanted in ("BuyProperty", "RollDice", "PayJailFine", "EndTurn", "PassBid"):
            if wanted in types:
                break
        else:
            wanted = types[0] if types else ""
        if wanted and press_on(page, f"#prompt button.answer[data-type={wanted}]"):
            done[wanted] = done.get(wanted, 0) + 1
    assert done.get("RollDice") and "Your turn" in heard, (done, heard)

    # the trade dialog: opened with Enter, its deeds ticked with Space, shut with Escape
    assert tab_to(page, "#trade-open")
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('trade').open")
    assert tab_to(page, "#trade .mini-deed input", presses=20)  # (focus stays in the dialog)
    page.keyboard.press("Space")
    page.wait_for_selector("#trade .mini-deed input:checked")
    page.wait_for_function(
        "document.getElementById('trade-value').textContent.includes('Worth to you')"
    )
    page.keyboard.press("Escape")
    page.wait_for_function("!document.getElementById('trade').open")

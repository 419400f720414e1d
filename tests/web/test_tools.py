"""TOOLS in the browser: a game to the end with a colour choice, watched by a spectator whose page
and WebSocket frames hold no hand and no deck order; a reload and a dropped socket come back at the
same prompt; the language switch; phone and desktop screenshots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from parlor import tools
from tests.web.play import (
    DESKTOP,
    PHONE,
    at_rest,
    click,
    create_table,
    decision,
    open_as_host,
    play_until_over,
    version,
)

WILDS = ("paint_brush", "wild_hammer")


def create_tools_table(page: Any, base: str) -> str:
    page.goto(base + "/")
    page.fill("#host-name", "Ann")
    page.select_option("#game", "tools")
    page.select_option("#seat-count", "4")
    for seat, kind in enumerate(["human", "heuristic", "heuristic", "heuristic"]):
        page.select_option(f"#seat-{seat}", kind)
    page.fill("#bot-delay", "0")
    page.click("#create-button")
    page.wait_for_selector("#invite-link")
    return str(page.input_value("#invite-link"))


def secrets_in(frame: dict[str, Any]) -> list[str]:
    """What a spectator's frame must never hold: a hand, the draw pile's order, a drawn card."""
    found = []
    view = frame.get("view") or {}
    if "hand" in view or "hands" in view:
        found.append("hand")
    if not isinstance(view.get("draw_pile", 0), int):
        found.append("draw pile order")
    pending = view.get("pending") or {}
    if "drawn" in (pending.get("info") or {}) or "good_nail_penalty" in (pending.get("info") or {}):
        found.append("drawn card")
    if frame.get("prompt"):
        found.append("prompt")
    for key in ("seed", "snapshot", "save"):
        if key in frame:
            found.append(key)
    return found


def ann_starts_with_a_brush() -> tools.ToolsGame:
    """Four seats, Ann's the first decision, a paint brush in her hand: her first play is the
    brush (the policy below plays a wild first), and a colour is chosen in every game."""
    for seed in range(500):
        game = tools.new_game(["Ann", "Bot 1", "Bot 2", "Bot 3"], seed)
        first = game.pending
        if (
            first
            and (first.player, first.kind) == (0, "play")
            and "paint_brush" in game.view(0)["hand"]
        ):
            return game
    raise AssertionError("no seed of 500 deals Ann a paint brush for the first turn")


def play_one_tools_game(web_server: Any, contexts: Any, images: Path) -> bool:
    """One TOOLS game to the end by clicks, watched by a spectator; True if a colour was chosen."""
    colour_chosen = False
    ann = contexts(viewport=DESKTOP).new_page()
    # (a table from a save: the server's own seed left Ann without a colour to choose in more
    # than half the games, 1,705 of 3,000 engine games played by these answers; playing up to
    # eight of them failed about one run in ninety and took minutes)
    seats = ["human", "heuristic", "heuristic", "heuristic"]
    body = {"save": ann_starts_with_a_brush().to_json(), "seats": seats, "bot_delay": 0}
    made = create_table(web_server.base, body)
    open_as_host(ann, web_server.base, made)
    ann.evaluate(  # (the page's record of the table says which game it is)
        "id => { const all = JSON.parse(localStorage.getItem('parlor.tables'));"
        " all[id].game = 'tools'; localStorage.setItem('parlor.tables', JSON.stringify(all)); }",
        made["table"],
    )
    ann.reload()
    link = str(made["link"])
    spectator = contexts(viewport=PHONE, is_mobile=True).new_page()
    frames: list[dict[str, Any]] = []
    spectator.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda data: frames.append(json.loads(data))),
    )
    spectator.goto(link)
    spectator.click("#watch-button")
    spectator.wait_for_selector("#you")
    ann.click("#start")
    ann.wait_for_selector("#pile")
    shots = {"reload": False, "drop": False, "desktop": False}

    def policy(page: Any, kind: str) -> bool:
        nonlocal colour_chosen
        if kind == "play" and not shots["reload"]:
            # a reload in mid-decision comes back at the same prompt and version
            before = (version(page), page.inner_text("#prompt"))
            page.reload()
            page.wait_for_selector("#prompt")
            assert (version(page), page.inner_text("#prompt")) == before
            shots["reload"] = True
        if kind == "play" and shots["reload"] and not shots["drop"]:
            before_v = version(page)
            page.evaluate("window.parlorDrop()")
            page.wait_for_function(
                "document.getElementById('status').textContent.includes('reconnect')"
            )
            page.wait_for_function(
                "document.getElementById('status').textContent.includes('connected')"
                " && !document.getElementById('status').textContent.includes('reconnect')"
            )
            page.wait_for_selector("#prompt")
            assert version(page) == before_v
            shots["drop"] = True
        if kind == "play" and not shots["desktop"]:
            at_rest(page).screenshot(path=str(images / "web-tools-desktop.png"), full_page=True)
            at_rest(spectator).screenshot(path=str(images / "web-tools-spectator-phone.png"))
            shots["desktop"] = True
        if kind == "choose_color":
            colour_chosen = True
            return click(page, "#prompt button[data-type=ChooseColor]")
        if kind == "play":
            for wild in WILDS:
                if click(page, f"#hand button.playable[data-card={wild}]"):
                    return True
            if click(page, "#hand button.playable"):
                return True
        return click(page, "#prompt button.answer")

    play_until_over([ann], [policy], limit_s=60)
    spectator.wait_for_selector("#final")
    assert ann.inner_text("#ranking").count("\n") == 3
    # the spectator's page and every frame it received hold nothing hidden
    assert spectator.locator("#hand").count() == 0
    assert spectator.locator("#prompt").count() == 0
    # (after the end the page asks for the save, whose reveal it checks: nothing is hidden then)
    before_end = frames[: next((i for i, f in enumerate(frames) if f.get("final")), len(frames))]
    assert before_end and all(not secrets_in(f) for f in before_end), [
        secrets_in(f) for f in before_end if secrets_in(f)
    ]
    assert all(f.get("type") != "export" for f in before_end)
    assert any(f.get("type") == "update" for f in frames)
    # the replay after the end shows every hand at each step
    ann.click("#replay-open")
    ann.wait_for_function("document.getElementById('replay-at')?.dataset.step === '0'")
    assert ann.inner_text("#replay-hands").count("\n") == 3
    ann.click("#replay-next")
    ann.wait_for_function("document.getElementById('replay-at')?.dataset.step === '1'")
    assert ann.inner_text("#replay-events").strip()
    ann.screenshot(path=str(images / "web-tools-over.png"))
    return colour_chosen


def test_a_tools_game_to_the_end_watched_by_a_spectator(
    web_server: Any, contexts: Any, images: Path
) -> None:
    assert play_one_tools_game(web_server, contexts, images)  # (a colour was chosen)


# (it once hung in a whole run and could not be made to again: 12 runs alone and in sequence
# with test_phone, test_a11y and test_keyboard, under a load average of 14; a hang now fails
# in two minutes with every thread's stack, not at the suite's limit)
@pytest.mark.timeout(120)
def test_the_language_switch_and_a_phone_size_table(
    web_server: Any, contexts: Any, images: Path
) -> None:
    page = contexts(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    create_tools_table(page, web_server.base)
    page.click("#start")
    page.wait_for_selector("#pile")
    page.wait_for_function("document.getElementById('main').dataset.decision !== ''")
    assert "Top of the pile" in page.inner_text("#pile")
    # the rules in short, shut until asked for
    page.click("#rules-help summary")
    assert "hammer" in page.inner_text("#rules-help")
    rules = {"es": ("Reglas en breve", "martillo"), "da": ("Reglerne kort", "hammer")}
    for lang, word, heading in (("es", "Idioma", "Carta de arriba"), ("da", "Sprog", "Øverst")):
        page.select_option("#lang", lang)
        page.wait_for_function(
            f"document.getElementById('pile') && document.getElementById('pile')"
            f".innerText.includes({heading!r})"
        )
        assert page.inner_text("header").count(word) == 1
        assert page.evaluate("document.documentElement.lang") == lang
        # the help stays open across redraws and speaks the new language
        summary, card_word = rules[lang]
        page.wait_for_function(
            f"document.querySelector('#rules-help[open]')?.innerText.includes({summary!r})"
        )
        assert card_word in page.inner_text("#rules-help")
        # and the bots' default names are in it too
        bot = {"es": "Bot heurístico 2", "da": "Heuristisk bot 2"}[lang]
        assert bot in page.inner_text("#tools-seats")
        assert decision(page)
        if lang == "es":
            page.screenshot(path=str(images / "web-tools-phone-es.png"), full_page=True)
    # nothing wider than the phone's screen
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.tagName") in (
        "UL",  # the log: a scrolling region, focusable so it can be scrolled by keyboard
        "A",
        "SELECT",
        "BUTTON",
        "INPUT",
        "SUMMARY",
    )

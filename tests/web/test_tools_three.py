"""Three people play TOOLS to the end by clicks and taps, each in their own language and size:
Ann in English on a desktop, Bo in Spanish and Cy in Danish on phones (390x844, touch; Cy's asks
for reduced motion). Bo and Cy join through the invite, whose page says what it is for. Each
state a page shows is checked: no English on the Spanish and Danish pages, on the phones no
control under 44x44 px and nothing wider than the screen, every motion under 0.4 s (none at all
on Cy's), a key press finishing a motion at once, no serious or critical axe-core violation on
each page's table and game-over page; the live region told each page its turn and the result in
its language. No bots; hands of seven (see the test)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from parlor.i18n import web_messages
from tests.web.play import (
    DESKTOP,
    PHONE,
    at_rest,
    click,
    create_table,
    open_as_host,
    play_until_over,
    version,
)
from tests.web.test_a11y import english_on, serious_violations
from tests.web.test_phone import SIDEWAYS, SMALL_TARGETS

WILDS = ("paint_brush", "wild_hammer")
# the pictures docs/web.md shows (written when the game comes to them)
SHOTS = {
    "web-tools-3-da-play",
    "web-tools-3-da-drawn_card",
    "web-tools-3-en-choose_color",
    "web-tools-3-es-box_of_nails",
}
# every text the live region said, in order (it is outside the redrawn page)
TOLD = """() => { window.told = [];
  new MutationObserver(() => window.told.push(document.getElementById('announce').textContent))
    .observe(document.getElementById('announce'), { childList: true, characterData: true, subtree: true }); }"""
# the motions on the page: how long each lasts, how many are running
MOTIONS = """() => { const all = document.getAnimations();
  return [all.map(a => a.effect.getTiming().duration), all.filter(a => a.playState === 'running').length]; }"""
# a motion running, then a key pressed: is any still running? (the page finishes them)
SKIP = """() => { const running = () => document.getAnimations().filter(a => a.playState === 'running').length;
  const before = running();
  document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Shift', bubbles: true }));
  return [before, running()]; }"""

# every card face and colour swatch in its own colour (a yellow hammer was once drawn pale blue,
# the swatches all in the buttons' blue), with its colour's shape
FACES = """() => {
  const want = { red: ['rgb(246, 195, 195)', '●'], blue: ['rgb(196, 218, 243)', '■'],
    green: ['rgb(198, 235, 203)', '▲'], yellow: ['rgb(251, 239, 157)', '◆'], wild: ['rgb(43, 43, 43)', '★'] };
  const wrong = [];
  for (const el of document.querySelectorAll('.tcard, .swatch')) {
    const colour = [...el.classList].find(c => c.startsWith('colour-')).slice(7);
    const [bg, mark] = want[colour];
    const seen = [getComputedStyle(el).backgroundColor, el.querySelector('.mark').textContent];
    if (seen[0] !== bg || seen[1] !== mark) wrong.push([el.dataset.card || el.dataset.color, ...seen]);
  }
  return wrong;
}"""


class Seat:
    """One person's page and what was seen on it."""

    def __init__(self, page: Any, lang: str, phone: bool, still: bool = False) -> None:
        self.page, self.lang, self.phone, self.still = page, lang, phone, still
        self.seen: set[int] = set()
        self.problems: list[tuple[int, str, Any]] = []
        self.kinds: set[str] = set()
        self.skipped = 0
        self.scanned: set[str] = set()
        self.errors: list[str] = []
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def press(self, selector: str) -> bool:
        """A tap on a phone, a click on the desktop (the page may be redrawn meanwhile)."""
        if not self.phone:
            return click(self.page, selector)
        loc = self.page.locator(selector)
        if loc.count() == 0:
            return False
        try:
            loc.first.tap(timeout=1500)
        except Exception:  # redrawn under the finger: look again
            return False
        return True

    def look(self, kind: str) -> None:
        self.kinds.add(kind)
        at, page = version(self.page), self.page
        if kind in ("play", "over") and kind not in self.scanned:  # axe-core, once each
            self.scanned.add(kind)
            if found := serious_violations(page):
                self.problems.append((at, "axe", found))
        if at in self.seen:
            return
        self.seen.add(at)
        page = self.page
        before, after = page.evaluate(SKIP)
        if before:
            self.skipped += 1
            if after:
                self.problems.append((at, "motion not skipped", (before, after)))
        if wrong := page.evaluate(FACES):
            self.problems.append((at, "card face colours", wrong))
        durations, _ = page.evaluate(MOTIONS)
        if self.still and durations:
            self.problems.append((at, "motion under reduced motion", durations))
        if any(d >= 400 for d in durations):
            self.problems.append((at, "motion of 0.4 s or more", durations))
        if self.lang != "en" and (found := english_on(page, self.lang)):
            self.problems.append((at, "English", found))
        if self.phone:
            if small := page.evaluate(SMALL_TARGETS):
                self.problems.append((at, "small targets", small))
            if page.evaluate(SIDEWAYS) > 0:
                self.problems.append((at, "sideways scroll", page.evaluate(SIDEWAYS)))

    def policy(self, page: Any, kind: str) -> bool:
        self.look(kind)
        if kind == "drawn_card":  # the card drawn shown large, then "play it" (if it may be
            # played) or "keep it"
            words = web_messages(self.lang)
            labels = page.eval_on_selector_all(
                "#prompt button.answer", "els => els.map(e => e.textContent)"
            )
            if (
                page.locator("#prompt .drawn .tcard").count() != 1
                or words["Keep it"] not in labels
                or not set(labels) <= {words["Play it"], words["Keep it"]}
                # (a card that cannot be played is said to be so, not asked about)
                or (words["Play it"] not in labels)
                != (page.inner_text("#prompt h2") == words["The card you drew cannot be played"])
            ):
                self.problems.append((version(page), "drawn card", labels))
        if kind == "choose_color":
            return self.press("#prompt button.swatch")
        if kind in ("play", "brush_second_card"):
            for wild in WILDS:
                if self.press(f"#hand button.playable[data-card={wild}]"):
                    return True
            if self.press("#hand button.playable"):
                return True
            if self.press("#draw-pile:not([disabled])"):
                return True
        return self.press("#prompt button.answer")


def test_three_people_play_tools_in_three_languages_on_desktop_and_phones(
    web_server: Any, contexts: Any, images: Path
) -> None:
    made = create_table(
        web_server.base,
        {
            "game": "tools",
            "seats": ["human", "human", "human"],
            "bot_delay": 0,
            "host_name": "Ann",
            "lang": "en",
            # hands of seven, the rules' own: with four, a seat went out before another had
            # a second decision in about one game in forty (the checks below need each page's
            # turn, and states to look at); with seven, 4 games in 20,000 of the engine played
            # by this test's choices
            "options": {"hand_size": 7},
        },
    )
    ann = contexts(viewport=DESKTOP).new_page()
    open_as_host(ann, web_server.base, made)
    ann.wait_for_selector("#seat-list")
    seats = [Seat(ann, "en", phone=False)]
    for name, lang, still in (("Bo", "es", False), ("Cy", "da", True)):
        ctx = contexts(
            viewport=PHONE,
            is_mobile=True,
            has_touch=True,
            reduced_motion="reduce" if still else "no-preference",
        )
        page = ctx.new_page()
        page.add_init_script(f"localStorage.setItem('parlor.lang', '{lang}')")
        seat = Seat(page, lang, phone=True, still=still)
        page.goto(made["link"])
        # the join page says what the invite is for, in the page's language
        page.wait_for_selector("#invite-seats li")
        words = web_messages(lang)
        assert page.inner_text("#invite-game") == words["TOOLS"]
        assert str(words["Host: {name}"]).replace("{name}", "Ann") in page.inner_text(
            "#invite-host"
        )
        assert page.locator("#invite-seats li").count() == 3
        assert page.evaluate(SMALL_TARGETS) == []
        if lang == "da":
            page.screenshot(path=str(images / "web-join-phone-da.png"))
        page.fill("#join-name", name)
        seat.press("#join-button")
        page.wait_for_selector("#you")
        page.evaluate(TOLD)
        seats.append(seat)
    ann.evaluate(TOLD)
    ann.wait_for_function("document.querySelectorAll('#seat-list li').length === 3")
    assert "Cy" in ann.inner_text("#seat-list")
    ann.click("#start")
    for seat in seats:
        seat.page.wait_for_selector("#pile")
        assert seat.page.locator("#tools-seats li").count() == 3
    shots: set[str] = set()

    def shoot(seat: Seat, kind: str) -> None:
        name = f"web-tools-3-{seat.lang}-{kind}"
        if name in shots or name not in SHOTS:
            return
        shots.add(name)
        at_rest(seat.page).screenshot(path=str(images / f"{name}.png"))

    def policy_of(seat: Seat) -> Any:
        def policy(page: Any, kind: str) -> bool:
            shoot(seat, kind)
            return seat.policy(page, kind)

        return policy

    play_until_over([s.page for s in seats], [policy_of(s) for s in seats], limit_s=120)
    for seat in seats:
        page = seat.page
        page.wait_for_selector("#final")
        seat.look("over")
        assert page.locator("#ranking li").count() == 3
        assert page.locator("#no-prompt").count() == 0  # nobody is waited for any more
        words = web_messages(seat.lang)
        told = page.evaluate("window.told")
        # the turn, then the result, told in the page's language
        assert words["Play a card or draw"] in told, (seat.lang, told)
        assert told[-1].startswith(str(words["Game over"]) + ": "), (seat.lang, told)
        assert seat.problems == [], (seat.lang, seat.problems[:3])
        assert seat.errors == [], (seat.lang, seat.errors)
        assert "play" in seat.kinds and len(seat.seen) >= 3
        assert seat.scanned == {"play", "over"}
        if seat.lang == "es":
            page.evaluate("window.scrollTo(0, 0)")  # (the ranking, not the log)
            page.screenshot(path=str(images / "web-tools-3-es-over.png"))
    # a motion was caught running (and finished by the key) on the pages that move
    assert seats[0].skipped + seats[1].skipped > 0
    assert seats[2].skipped == 0
    # back home: the table just played is in My tables, at the top, above "play now"
    for seat, shot in ((seats[0], "web-home-desktop.png"), (seats[1], "web-home-phone-es.png")):
        page = seat.page
        page.goto(web_server.base + "/")
        page.wait_for_selector("#my-tables a")
        assert page.eval_on_selector_all("#main > section", "els => els.map(e => e.id)")[:2] == [
            "my-tables",
            "quick",
        ]
        # named by its game and players (a joined seat's page once called TOOLS a property game)
        link = page.locator(f"#my-tables a[data-table='{made['table']}']")
        words = web_messages(seat.lang)
        assert link.inner_text() == f"{words['TOOLS']} · " + str(words["with {names}"]).replace(
            "{names}", "Ann, Bo, Cy"
        )
        if seat.phone:
            assert page.evaluate(SMALL_TARGETS) == []
        page.screenshot(path=str(images / shot), full_page=not seat.phone)

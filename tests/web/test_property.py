"""A property game played in two browsers by clicks only, with two bots, to the end."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError

from tests.web.play import DESKTOP, PHONE, answer_types, click, play_until_over


def create_property_table(page: Any, base: str, name: str, rounds: int) -> str:
    page.goto(base + "/")
    page.fill("#host-name", name)
    page.select_option("#game", "monopoly")
    page.select_option("#edition", "matador")
    page.select_option("#edition", "classic")
    # the create form shows the chosen edition's board
    page.wait_for_function(
        "(img => img.complete && img.naturalWidth > 0 && img.src.includes('/classic/'))"
        "(document.getElementById('edition-board'))"
    )
    page.select_option("#variant", "short")
    page.select_option("#seat-count", "4")
    for seat, kind in enumerate(["human", "human", "heuristic", "heuristic"]):
        page.select_option(f"#seat-{seat}", kind)
    page.fill("#rounds", str(rounds))
    page.fill("#bot-delay", "0")
    page.click("#create-button")
    page.wait_for_selector("#invite-link")
    return str(page.input_value("#invite-link"))


def propose_every_deed_for_1(page: Any) -> bool:
    """Ann asks Bo for every deed he has, for $1 (Bo agrees, so groups get completed and Ann
    builds). The page is redrawn after every move, so each step is checked and a step that a
    redraw undid makes this try again at the next turn."""
    if not page.locator("#trade-open").count():
        return False
    try:
        if not page.locator("#trade[open]").count():
            page.click("#trade-open", timeout=1500)
        page.select_option("#trade-partner", "1", timeout=1500)
        takes = page.locator("#trade-form .take input[type=checkbox]")
        if not takes.count():
            return shut_trade(page)
        for i in range(takes.count()):
            takes.nth(i).check(timeout=1500)
        page.fill("#give-cash", "1", timeout=1500)
        if page.input_value("#give-cash") != "1" or not all(
            takes.nth(i).is_checked() for i in range(takes.count())
        ):
            return shut_trade(page)
        page.click("#propose", timeout=1500)
    except PlaywrightError:
        return shut_trade(page)
    return True


def shut_trade(page: Any) -> bool:
    """The trade dialog is modal: one left open would hide the decision from the policy."""
    with contextlib.suppress(PlaywrightError):
        if page.locator("#trade[open]").count():
            page.click("#trade-close", timeout=1500)
    return False


# Which colour group Ann could complete by buying one or two deeds that a single bot holds (the
# heuristic bots sell when the price is right): read from the page's own view and edition.
GROUP_TO_BUY = """offered => {
  const owner = {};
  for (const d of S.view.properties) owner[d.square] = d;
  const groups = {};
  S.edition.squares.forEach((q, i) => { if (q.kind === 'street') (groups[q.group] ||= []).push(i); });
  for (const squares of Object.values(groups)) {
    const missing = squares.filter(q => owner[q].owner !== 0);
    const holders = new Set(missing.map(q => owner[q].owner));
    if (!missing.length || missing.length > 2 || holders.size !== 1) continue;
    const holder = [...holders][0];
    if (holder < 0 || S.table.seats[holder].kind !== 'bot' || offered.includes(missing.join())) continue;
    if (squares.some(q => owner[q].buildings)) continue;
    const price = missing.reduce((n, q) => n + S.edition.squares[q].price, 0);
    const cash = Math.min(S.view.players[0].cash - 150, 3 * price);
    if (cash > 0) return { holder, missing, cash };
  }
  return null;
}"""


def offer_for_a_group(page: Any, offered: list[str]) -> bool:
    """Ann offers a bot cash for the deeds that complete one of her groups (each group once)."""
    if not page.locator("#trade-open").count():
        return False
    want = page.evaluate(GROUP_TO_BUY, offered)
    if not want:
        return False
    try:
        if not page.locator("#trade[open]").count():
            page.click("#trade-open", timeout=1500)
        page.select_option("#trade-partner", str(want["holder"]), timeout=1500)
        boxes = [
            page.locator(f"#trade-form .take input[data-square='{q}']") for q in want["missing"]
        ]
        for box in boxes:
            box.check(timeout=1500)
        page.fill("#give-cash", str(want["cash"]), timeout=1500)
        if page.input_value("#give-cash") != str(want["cash"]) or not all(
            b.is_checked() for b in boxes
        ):
            return shut_trade(page)
        page.click("#propose", timeout=1500)
    except PlaywrightError:
        return shut_trade(page)
    offered.append(",".join(str(q) for q in want["missing"]))
    return True


def play_a_property_game(web_server: Any, contexts: Any, images: Path) -> dict[str, int]:
    """Two people (Ann on a desktop, Bo on a phone that asks for reduced motion) and two bots
    play a short game to the end by clicks; returns what was seen done."""
    ann = contexts(viewport=DESKTOP).new_page()
    link = create_property_table(ann, web_server.base, "Ann", rounds=8)
    assert link.startswith(web_server.base + "/#table=") and "&invite=" in link

    bo = contexts(
        viewport=PHONE, is_mobile=True, has_touch=True, reduced_motion="reduce"
    ).new_page()
    bo.goto(link)
    # the join page says what the invite is for before asking a name
    bo.wait_for_selector("#invite-seats li")
    assert bo.inner_text("#invite-game") == "Property game · Classic · short game"
    assert bo.inner_text("#invite-host") == "Host: Ann"
    assert "1 seat free" in bo.inner_text("#invite-status")
    seats = bo.inner_text("#invite-seats")
    assert "Seat 1: Ann" in seats and "Seat 2: free" in seats and "bot (heuristic)" in seats
    bo.fill("#join-name", "Bo")
    bo.click("#join-button")
    bo.wait_for_selector("#you")
    assert "Bo" in bo.inner_text("#you")
    ann.wait_for_function("document.getElementById('seat-list').innerText.includes('Bo')")
    ann.click("#start")
    ann.wait_for_selector("#board svg")
    # the analysis overlay, by keyboard: focus the toggle and press space
    ann.focus("#heat")
    ann.keyboard.press("Space")
    ann.wait_for_selector("#board [data-landing]")
    ann.click("#heat")
    ann.wait_for_function("!document.querySelector('#board [data-landing]')")

    seen: dict[str, int] = {}
    offered: list[str] = []

    def note(what: str) -> None:
        seen[what] = seen.get(what, 0) + 1

    def houses(page: Any) -> int:
        return int(
            page.evaluate(
                "S.view.properties.reduce((n, d) => n + (d.owner === 0 ? d.buildings : 0), 0)"
            )
        )

    def ann_policy(page: Any, kind: str) -> bool:
        if kind == "start_turn":
            # any-time actions from the deeds panel, at the start of a turn
            if seen.get("build", 0) < 3 and click(
                page, "#my-deeds button[data-type=Build]:not([disabled])"
            ):
                before = seen.get("houses", 0)
                with contextlib.suppress(PlaywrightError):
                    page.wait_for_function(
                        f"S.view.properties.reduce((n, d) => n + (d.owner === 0 ? d.buildings : 0), 0) > {before}",
                        timeout=5000,
                    )
                seen["houses"] = houses(page)
                if seen["houses"] > before:  # the house stands on the board's view
                    note("build")
                return True
            # a mortgage: a railway or utility first (a street's would stall building its group)
            mortgage = "button[data-type=Mortgage]:not([disabled])"
            if not seen.get("mortgage") and (
                click(page, f"#my-deeds li:not([data-kind=street]) {mortgage}")
                or (seen.get("build") and click(page, f"#my-deeds {mortgage}"))
            ):
                note("mortgage")
                return True
            if seen.get("trade_proposed", 0) < 3 and propose_every_deed_for_1(page):
                note("trade_proposed")
                return True
            if not seen.get("build") and offer_for_a_group(page, offered):
                note("bot_offer")
                return True
        if kind == "buy_or_auction" and not seen.get("ann_declined"):
            note("ann_declined")
            return click(page, "#prompt button[data-type=DeclineProperty]")
        return answer(page, kind, buy=True)

    def bo_policy(page: Any, kind: str) -> bool:
        if kind == "buy_or_auction" and not seen.get("declined"):
            note("declined")
            return click(page, "#prompt button[data-type=DeclineProperty]")
        if kind == "answer_trade":
            offer = page.inner_text("#trade-offer")
            if "Ann" in offer:
                note("trade_accepted")
                assert "$1" in offer
                return click(page, "#prompt button[data-type=AcceptTrade]")
        return answer(page, kind, buy=True)

    def answer(page: Any, kind: str, buy: bool) -> bool:
        shut_trade(page)  # (a dialog left open hides the decision)
        types = answer_types(page)
        if kind == "bid":
            note("auction")
            if "Bid" in types and not seen.get("bid_" + str(id(page))):
                note("bid_" + str(id(page)))
                return click(page, "#prompt button[data-type=Bid]")
            return click(page, "#prompt button[data-type=PassBid]")
        if kind == "answer_trade":
            return click(page, "#prompt button[data-type=RejectTrade]")
        if kind == "raise_funds":  # (its first answer may lift a mortgage: raise cash instead)
            for wanted in ("PayDebt", "SellBuilding", "Mortgage", "DeclareBankruptcy"):
                if wanted in types:
                    return click(page, f"#prompt button[data-type={wanted}]")
                # selling and mortgaging are on the deeds panel, beside each deed
                deed = f"button.deed-action[data-type={wanted}]:not([disabled])"
                if page.locator(deed).count():
                    return click(page, deed)
        for wanted in ("BuyProperty", "RollDice", "PayJailFine", "EndTurn"):
            if wanted in types:
                return click(page, f"#prompt button[data-type={wanted}]")
        # always something: any answer, else any control the decision offers (a dialog left
        # open would hide them all: shut first)
        shut_trade(page)
        return click(page, "#prompt button.answer:not([disabled])") or click(
            page, "#prompt button:not([disabled])"
        )

    shot = False

    def ann_with_shots(page: Any, kind: str) -> bool:
        nonlocal shot
        if not shot and kind == "start_turn" and page.locator("#board svg").count():
            for p in (page, bo):  # the picture of this very move, not the one before
                p.wait_for_function(
                    "document.getElementById('board').dataset.version"
                    " === document.getElementById('main').dataset.version"
                )
            page.evaluate("window.scrollTo(0, 0)")  # the board, not where the last click was
            page.screenshot(path=str(images / "web-property-desktop.png"))
            bo.screenshot(path=str(images / "web-property-phone.png"), full_page=True)
            shot = True
        return ann_policy(page, kind)

    play_until_over([ann, bo], [ann_with_shots, bo_policy], limit_s=120)
    for page in (ann, bo):
        page.wait_for_selector("#final")
        ranking = page.inner_text("#ranking")
        for name in ("Ann", "Bo"):
            assert name in ranking
    # tokens walked square by square on Ann's page; Bo's asks for reduced motion: they jump
    seen["ann_walks"] = int(ann.evaluate("Number(document.documentElement.dataset.walks || 0)"))
    seen["bo_walks"] = int(bo.evaluate("Number(document.documentElement.dataset.walks || 0)"))
    if seen.get("build"):
        step_through_the_replay(ann, images)
        ann.screenshot(path=str(images / "web-property-over.png"))
    return seen


def step_through_the_replay(page: Any, images: Path) -> None:
    """After the end: the replay opens at the first step, moves by buttons and by the slider,
    and shows the board as it was at each step."""

    def at(step: int) -> None:
        page.wait_for_function(
            f"document.getElementById('replay-at')?.dataset.step === '{step}'"
            f" && document.getElementById('replay-board')?.dataset.step === '{step}'"
        )

    def tokens() -> list[str]:
        return list(
            page.eval_on_selector_all(
                "#replay-board g.token", "els => els.map(e => e.dataset.square)"
            )
        )

    page.click("#replay-open")
    at(0)
    start = tokens()
    assert len(start) == 4 and page.locator("#replay-prev[disabled]").count() == 1
    page.click("#replay-next")
    at(1)
    total = int(page.get_attribute("#replay-step", "max") or 0)
    assert total > 20
    # the slider, as a pointer drag leaves it; then one step on by keyboard
    page.eval_on_selector(
        "#replay-step",
        "el => { el.value = 20; el.dispatchEvent(new Event('change', {bubbles: true})); }",
    )
    at(20)
    assert tokens() != start  # the players have moved by then
    assert page.inner_text("#replay-events").strip()
    page.focus("#replay-step")
    page.keyboard.press("ArrowRight")
    at(21)
    page.click("#replay-prev")
    at(20)
    page.click("#replay-last")
    at(total)
    assert page.locator("#replay-next[disabled]").count() == 1
    page.screenshot(path=str(images / "web-property-replay.png"))


def test_two_people_and_two_bots_play_a_property_game_to_the_end(
    web_server: Any, contexts: Any, images: Path
) -> None:
    # building needs a whole group: Bo hands Ann his deeds and the bots sell her the missing
    # ones, which gives her one in nearly every game; a rare game without one is played again
    for _ in range(3):
        seen = play_a_property_game(web_server, contexts, images)
        if seen.get("build"):
            break
    print(seen)
    assert seen.get("build"), seen
    assert seen.get("auction"), seen
    assert seen.get("mortgage"), seen
    assert seen.get("trade_accepted"), seen
    assert seen["ann_walks"] > 0 and seen["bo_walks"] == 0, seen

"""The deeds panel and the trade builder in the browser, on a table continued from a save in which
Ann was dealt a whole colour group: she builds (and the engine's reason shows on what it refuses),
the turn timer counts down, Bo answers her offer with a counter-offer, the words switch language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError

from parlor import monopoly
from tests.web.play import DESKTOP, PHONE, create_table, open_as_host
from tests.web.test_a11y import serious_violations

BROWN = (1, 3)  # Mediterranean and Baltic Avenue: a group of two


def dealt_a_group() -> monopoly.PropertyGame:
    """A short classic game whose opening deal gives Ann (seat 0) both brown streets."""
    for seed in range(5000):
        game = monopoly.new_game(
            "classic", ["Ann", "Bo"], seed, {"variant": "short", "roll_for_first_player": False}
        )
        owners = {p["square"]: p["owner"] for p in game.view(None)["properties"]}
        if all(owners[q] == 0 for q in BROWN):
            return game
    raise AssertionError("no seed deals Ann the brown group")


def create_from_save(base: str, game: monopoly.PropertyGame) -> dict[str, Any]:
    body = {"save": game.to_json(), "seats": ["human", "human"], "timer": 300, "bot_delay": 0}
    return create_table(base, body)


def deed_button(page: Any, kind: str, square: int, enabled: bool) -> Any:
    state = ":not([disabled])" if enabled else "[disabled]"
    return page.locator(f"#my-deeds li[data-square='{square}'] button[data-type={kind}]{state}")


def test_building_a_refusal_with_its_reason_the_timer_and_a_counter_offer(
    web_server: Any, contexts: Any, images: Path
) -> None:
    made = create_from_save(web_server.base, dealt_a_group())
    ann = contexts(viewport=DESKTOP).new_page()
    open_as_host(ann, web_server.base, made)
    bo = contexts(viewport=PHONE, is_mobile=True).new_page()
    bo.goto(made["link"])
    bo.fill("#join-name", "Bo")
    bo.click("#join-button")
    bo.wait_for_selector("#you")
    ann.wait_for_selector("#start")
    ann.click("#start")

    # the timer: Ann decides first and sees her seconds go down; Bo sees hers
    ann.wait_for_function(
        "/\\d+ s left to decide/.test(document.getElementById('timer-left')?.textContent)"
    )
    first = int(ann.inner_text("#timer-left").split()[0])
    assert 200 < first <= 300
    bo.wait_for_function(
        "/Ann has \\d+ s left/.test(document.getElementById('timer-left')?.textContent)"
    )
    ann.wait_for_function(f"parseInt(document.getElementById('timer-left').textContent) < {first}")

    # a street of another group is refused with the engine's reason, shown and linked
    bo_streets = [
        p["square"]
        for p in ann.evaluate("S.view.properties")
        if p["owner"] == 1
        and monopoly.load_edition("classic").squares[p["square"]].kind == "street"
    ]
    assert BROWN[0] not in bo_streets
    ann.wait_for_selector(f"#my-deeds li[data-square='{BROWN[0]}'] button[data-type=Build]")

    # building, in the build dialog: the brown group, its cost and the rent a house brings
    ann.click("#build-open")
    ann.wait_for_selector("#build[open] .build-group")
    edition = monopoly.load_edition("classic")
    med = edition.squares[BROWN[0]]
    build = ann.locator(f"#build .build-action[data-type=Build][data-square='{BROWN[0]}']")
    build.wait_for(timeout=10000)
    assert f"${med.house_cost}" in build.inner_text()
    assert f"rent then ${med.rents[1]}" in build.inner_text()
    assert "The bank has 32 houses left" in ann.inner_text("#bank-left")
    ann.screenshot(path=str(images / "web-build-dialog.png"))
    assert serious_violations(ann) == [], "build dialog"  # axe-core, as on every page
    ann.set_viewport_size(PHONE)  # the same dialog on a phone: the whole screen
    ann.screenshot(path=str(images / "web-build-dialog-phone.png"))
    ann.set_viewport_size(DESKTOP)
    for _ in range(20):
        try:
            ann.locator(
                f"#build .build-action[data-type=Build][data-square='{BROWN[0]}']:not([disabled])"
            ).click(timeout=3000)
            ann.wait_for_function(
                f"S.view.properties.find(p => p.square === {BROWN[0]}).buildings === 1",
                timeout=5000,
            )
            break
        except PlaywrightError:  # redrawn under the click: look again
            continue
    # the dialog follows: one house fewer in the bank, and the second house on the same lot
    # refused (build evenly: the engine's reason, visible), Baltic's allowed
    ann.wait_for_function("document.getElementById('bank-left').textContent.includes('31 houses')")
    again = ann.locator(
        f"#build .build-action[data-type=Build][data-square='{BROWN[0]}'][disabled]"
    )
    again.wait_for(timeout=10000)
    # (the refusals come with the answer to the page's own "legal" request, after the move)
    ann.wait_for_function(
        f"document.querySelector(\"#build .build-action[data-type=Build][data-square='{BROWN[0]}']\")"
        "?.title.includes('evenly')"
    )
    assert "evenly" in (again.get_attribute("title") or "")
    assert "evenly" in ann.inner_text(f"#{again.get_attribute('aria-describedby')}")
    sell = ann.locator(f"#build .build-action[data-type=SellBuilding][data-square='{BROWN[0]}']")
    assert f"+${med.house_cost // 2}" in sell.inner_text()
    ann.keyboard.press("Escape")  # shut by the keyboard
    ann.wait_for_function("!document.getElementById('build').open")

    # the deeds panel says the same
    for _ in range(20):
        try:
            if ann.evaluate(f"S.view.properties.find(p => p.square === {BROWN[0]}).buildings") == 1:
                break
            deed_button(ann, "Build", BROWN[0], True).click(timeout=3000)
            ann.wait_for_function(
                f"S.view.properties.find(p => p.square === {BROWN[0]}).buildings === 1",
                timeout=5000,
            )
            break
        except PlaywrightError:  # redrawn under the click: look again
            continue
    assert ann.evaluate(f"S.view.properties.find(p => p.square === {BROWN[0]}).buildings") == 1
    assert "1 house" in ann.inner_text(f"#my-deeds li[data-square='{BROWN[0]}']")
    # a second house there is refused until Baltic has one: building evenly
    refused = deed_button(ann, "Build", BROWN[0], False)
    refused.wait_for(timeout=10000)
    reason = refused.get_attribute("title")
    assert reason and "evenly" in reason
    why_id = refused.get_attribute("aria-describedby")
    assert ann.inner_text(f"#{why_id}").endswith(reason)  # visible, small, next to it
    assert deed_button(ann, "Build", BROWN[1], True).count() == 1
    # and mortgaging a lot of a group with a house is refused too, with its reason
    mortgage = deed_button(ann, "Mortgage", BROWN[1], False)
    assert "sell the buildings" in (mortgage.get_attribute("title") or "")
    ann.locator("#my-deeds").screenshot(path=str(images / "web-property-deeds.png"))

    # Ann mortgages a street of another group: lifting it costs the value and the 10% fee, and
    # Bo's trade builder marks the deed with the fee its new owner would pay
    other = next(
        p["square"]
        for p in ann.evaluate("S.view.properties")
        if p["owner"] == 0 and p["square"] not in BROWN
    )
    square = monopoly.load_edition("classic").squares[other]
    fee = -(-square.mortgage // 10)
    for _ in range(20):
        try:
            deed_button(ann, "Mortgage", other, True).click(timeout=3000)
            ann.wait_for_function(
                f"S.view.properties.find(p => p.square === {other}).mortgaged", timeout=5000
            )
            break
        except PlaywrightError:
            continue
    lift = deed_button(ann, "Unmortgage", other, True)
    lift.wait_for(timeout=10000)
    assert f"${square.mortgage + fee}" in lift.inner_text()
    bo.click("#trade-open")
    offered = bo.locator(f"#trade-form .take label:has(input[data-square='{other}'])")
    offered.wait_for(timeout=10000)
    assert "mortgaged" in offered.inner_text() and f"fee ${fee}" in offered.inner_text()
    bo.click("#trade-close")  # shut again
    bo.wait_for_function("!document.getElementById('trade').open")

    # Ann asks Bo for one of his deeds for 1; Bo counters with the terms swapped
    wanted = next(p["square"] for p in ann.evaluate("S.view.properties") if p["owner"] == 1)
    for _ in range(20):
        try:
            if not ann.locator("#trade[open]").count():
                ann.click("#trade-open", timeout=2000)
            box = ann.locator(f"#trade-form .take input[data-square='{wanted}']")
            box.check(timeout=2000)
            ann.fill("#give-cash", "1", timeout=2000)
            if box.is_checked() and ann.input_value("#give-cash") == "1":
                # what it is worth to each side, by the bots' measure, before it is sent
                ann.wait_for_function(
                    "document.getElementById('trade-value')?.textContent.includes('Worth to you')",
                    timeout=5000,
                )
                ann.screenshot(path=str(images / "web-trade-dialog.png"))
                assert serious_violations(ann) == [], "trade dialog"
                ann.click("#propose", timeout=2000)
                bo.wait_for_function(
                    "document.getElementById('main').dataset.decision === 'answer_trade'",
                    timeout=5000,
                )
                break
        except PlaywrightError:
            continue
    assert "Ann" in bo.inner_text("#trade-offer") and "$1" in bo.inner_text("#trade-offer")
    bo.wait_for_function(
        "/Worth to you: [+\\u2212±]\\$\\d+ · to Ann: [+\\u2212±]\\$\\d+/"
        ".test(document.getElementById('offer-value')?.textContent)",
        timeout=5000,
    )
    revision = bo.evaluate("S.prompt.terms_revision")
    assert f"Offer of move {revision}" in bo.inner_text("#offer-revision")
    bo.click("#counter-offer")
    bo.wait_for_selector("#trade[open] #trade-form")
    bo.wait_for_function("document.getElementById('main').dataset.decision !== 'answer_trade'")
    # the builder holds the swapped terms: Bo gives the deed Ann asked for and takes her 1
    assert bo.locator(f"#trade-form .give input[data-square='{wanted}']").is_checked()
    assert bo.input_value("#take-cash") == "1" and bo.input_value("#give-cash") == "0"
    assert bo.input_value("#trade-partner") == "0"
    assert f"offer of move {revision}" in bo.inner_text("#counter-of")
    bo.screenshot(path=str(images / "web-trade-dialog-phone.png"))
    for _ in range(20):
        try:
            bo.fill("#take-cash", "120", timeout=2000)
            if (
                bo.input_value("#take-cash") == "120"
                and bo.locator(f"#trade-form .give input[data-square='{wanted}']").is_checked()
            ):
                bo.click("#propose", timeout=2000)
                ann.wait_for_function(
                    "document.getElementById('main').dataset.decision === 'answer_trade'",
                    timeout=5000,
                )
                break
        except PlaywrightError:
            continue
    offer = ann.inner_text("#trade-offer")
    assert "Bo" in offer and "$120" in offer
    name = monopoly.load_edition("classic").squares[wanted].name
    assert (name.get("en") if isinstance(name, dict) else str(name)) in offer

    # the new words switch language with the rest
    ann.select_option("#lang", "es")
    ann.wait_for_function("document.getElementById('prompt')?.innerText.includes('Contraoferta')")
    ann.wait_for_function(
        "/te quedan \\d+ s/.test(document.getElementById('timer-left')?.textContent)"
    )
    # (the deeds' controls come with the answer to the page's own "legal" request)
    ann.wait_for_function("document.getElementById('my-deeds')?.innerText.includes('Construir')")
    # while she must answer, the deeds' controls say so (in the engine's words, in her language:
    # the reasons of the new connection's "legal" reply, which may come after the page's words)
    ann.wait_for_function(
        f"document.querySelector(\"#my-deeds li[data-square='{BROWN[1]}'] "
        'button[data-type=Build][disabled]")'
        "?.title.includes('debe responder primero')",
        timeout=10000,
    )

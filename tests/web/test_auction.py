"""The auction on the stage: Ann declines a deed, and in the board's middle she sees the lot, the
high bid and its bidder, three quick raises from the server's ladder (+$1, +$10, +$50 on the
classic board) and the timer's bar; Bo, at phone size, sees the same auction without buttons and
Ann's bid as the high one, then outbids her. His join page first said what the invite was for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.play import DESKTOP, PHONE, answer_types, click, create_table, decision, open_as_host
from tests.web.test_a11y import serious_violations


def test_the_auction_is_on_the_stage_with_quick_raises_and_a_timer(
    web_server: Any, contexts: Any, images: Path
) -> None:
    made = create_table(
        web_server.base,
        {
            "game": "monopoly",
            "edition": "classic",
            "variant": "short",
            "seats": ["human", "human"],
            "bot_delay": 0,
            "host_name": "Ann",
            "timer": 120,
            "options": {"time_limit_rounds": 4},
        },
    )
    ann = contexts(viewport=DESKTOP).new_page()
    open_as_host(ann, web_server.base, made)
    bo = contexts(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    bo.goto(made["link"])
    bo.wait_for_selector("#invite-seats li")
    assert bo.inner_text("#invite-game") == "Property game · Classic · short game"
    assert "Host: Ann" in bo.inner_text("#invite-host")
    assert "120 s per decision" in bo.inner_text("#invite-status")
    bo.screenshot(path=str(images / "web-join-phone.png"))
    bo.fill("#join-name", "Bo")
    bo.click("#join-button")
    bo.wait_for_selector("#you")
    ann.wait_for_selector("#start")
    ann.click("#start")
    ann.wait_for_selector("#board svg")

    # both throw and end until someone may buy: they decline, and the auction starts
    pages = {0: ann, 1: bo}
    for _ in range(200):
        kinds = {p: decision(page) for p, page in pages.items()}
        if "bid" in kinds.values():
            break
        for page in pages.values():
            types = answer_types(page)
            for wanted in ("DeclineProperty", "RollDice", "PayJailFine", "EndTurn", "PayDebt"):
                if wanted in types:
                    click(page, f"#prompt button[data-type={wanted}]")
                    break
        ann.wait_for_timeout(50)
    bidder = next(p for p, page in pages.items() if decision(page) == "bid")
    me, other = pages[bidder], pages[1 - bidder]
    me.wait_for_selector("#stage .auction .raise")
    raises = me.eval_on_selector_all(
        "#stage .auction .raise b", "els => els.map(e => e.textContent)"
    )
    assert raises == ["+$1", "+$10", "+$50"], raises
    assert me.inner_text("#high-bid") == "no bid yet"
    assert me.locator("#stage .auction-clock .fill").count() == 1  # the table has a timer
    assert me.locator("#stage .auction-lot").inner_text().startswith("Auction of ")
    assert serious_violations(me) == [], "auction"  # axe-core
    # the other seat sees the auction on its own stage, without buttons
    other.wait_for_selector("#stage .auction .auction-lot")
    assert other.locator("#stage .auction .raise").count() == 0
    # +$10: the high bid is $10, by the bidder, on both pages
    me.click("#stage .auction .raise:nth-child(2)")
    name = "Ann" if bidder == 0 else "Bo"
    for page in (me, other):
        page.wait_for_function("document.querySelector('#high-bid .amount')?.textContent === '$10'")
        assert f"by {name}" in page.inner_text("#high-bid")
    other.wait_for_selector("#stage .auction .raise")
    ann.screenshot(path=str(images / "web-auction-desktop.png"))
    bo.screenshot(path=str(images / "web-auction-phone.png"))
    # the raises now start from the high bid: +$1 makes $11
    assert other.locator("#stage .auction .raise").first.get_attribute("data-amount") == "11"

"""The build dialog's plan: the houses wanted on each lot of a group, chosen with minus and plus, the cost
and the new rents previewed, building evenly kept (rule S13), then carried out by the page as the
engine's Build and SellBuilding actions, one at a time, in an order the engine accepts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from parlor import monopoly
from tests.web.play import PHONE, create_table, open_as_host
from tests.web.test_deeds import BROWN, dealt_a_group


def create_against_a_bot(
    base: str, game: monopoly.PropertyGame, lang: str = "en"
) -> dict[str, Any]:
    body = {"save": game.to_json(), "seats": ["human", "heuristic"], "bot_delay": 0, "lang": lang}
    return create_table(base, body)


def buildings(page: Any, square: int) -> int:
    return int(page.evaluate(f"S.view.properties.find(p => p.square === {square}).buildings"))


def test_a_plan_of_houses_is_previewed_kept_even_and_carried_out(
    web_server: Any, contexts: Any, images: Path
) -> None:
    made = create_against_a_bot(web_server.base, dealt_a_group())
    ann = contexts(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    open_as_host(ann, web_server.base, made)
    ann.wait_for_selector("#start")
    ann.click("#start")
    ann.wait_for_selector("#build-open")
    ann.click("#build-open")
    ann.wait_for_selector("#build[open] .build-group .plan-up")
    med, baltic = (monopoly.load_edition("classic").squares[q] for q in BROWN)
    cash = ann.evaluate("S.view.players[0].cash")
    assert cash >= 4 * med.house_cost

    def up(q: int) -> Any:
        return ann.locator(f"#build .plan-up[data-square='{q}']")

    def down(q: int) -> Any:
        return ann.locator(f"#build .plan-down[data-square='{q}']")

    def want(q: int) -> int:
        return int(ann.get_attribute(f"#build .plan-want[data-square='{q}']", "data-want") or -1)

    # every stepper button is a finger's size on the phone
    for button in (up(BROWN[0]), down(BROWN[0]), up(BROWN[1])):
        box = button.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, box
    assert ann.evaluate("document.documentElement.scrollWidth <= innerWidth")

    # even building (S13): a second house on Mediterranean waits for one on Baltic
    up(BROWN[0]).tap()
    assert want(BROWN[0]) == 1 and want(BROWN[1]) == 0
    assert up(BROWN[0]).is_disabled() and not up(BROWN[1]).is_disabled()
    up(BROWN[1]).tap()
    up(BROWN[1]).tap()
    assert up(BROWN[1]).is_disabled()  # (2 against 1: a third waits for Mediterranean)
    up(BROWN[0]).tap()
    assert (want(BROWN[0]), want(BROWN[1])) == (2, 2)
    group = ann.locator("#build .build-group").first
    assert f"Cost of the plan: ${4 * med.house_cost}" in group.inner_text()
    assert (
        f"rent then ${med.rents[2]}"
        in group.locator(f".plan-rent[data-square='{BROWN[0]}']").inner_text()
    )
    assert (
        f"rent then ${baltic.rents[2]}"
        in group.locator(f".plan-rent[data-square='{BROWN[1]}']").inner_text()
    )
    go = group.locator(".plan-go")
    assert go.inner_text() == "Carry out (4 steps)"
    # a plan the bank's stock cannot serve says so before anything is sent: the view as a
    # shortage leaves it (three houses in the bank), set in the page
    assert ann.evaluate("S.table.unlimited_buildings") is False  # (the table frame says so)
    ann.evaluate("S.view.bank.houses = 3; renderDialogs()")
    assert "The bank has only 3 houses: the plan needs 4" in group.inner_text()
    assert go.is_disabled()
    ann.evaluate("S.view.bank.houses = 32; renderDialogs()")
    assert "The bank has only" not in group.inner_text() and not go.is_disabled()
    ann.screenshot(path=str(images / "web-build-plan-phone.png"))

    # carried out: four Build actions, one per version, each even (the engine refuses an uneven one)
    before = ann.evaluate("S.version")
    go.tap()
    ann.wait_for_function(
        f"S.view.properties.filter(p => [{BROWN[0]}, {BROWN[1]}].includes(p.square))"
        ".every(p => p.buildings === 2) && !S.planRun",
        timeout=15000,
    )
    assert ann.evaluate("S.version") == before + 4
    assert ann.evaluate("S.view.bank.houses") == 32 - 4
    assert ann.evaluate("S.view.players[0].cash") == cash - 4 * med.house_cost
    assert ann.inner_text("#error") == ""
    assert want(BROWN[0]) == 2 and "2 houses" in ann.inner_text(
        f"#build li[data-square='{BROWN[0]}']"
    )

    # selling back evenly: one house off Mediterranean returns half its price; a second waits
    down(BROWN[0]).tap()
    assert down(BROWN[0]).is_disabled()
    assert f"The sales return ${med.house_cost // 2}" in group.inner_text()
    group.locator(".plan-go").tap()
    ann.wait_for_function(
        f"S.view.properties.find(p => p.square === {BROWN[0]}).buildings === 1 && !S.planRun",
        timeout=15000,
    )
    assert buildings(ann, BROWN[1]) == 2 and ann.evaluate("S.view.bank.houses") == 32 - 3

    # zoomed in, the board's frame follows the action: the square of whoever decides is in view
    ann.locator("#build-close").tap()
    ann.wait_for_function("!document.getElementById('build').open")
    ann.tap("#zoom")
    ann.wait_for_function("document.getElementById('board').dataset.followed")
    seen = ann.evaluate(
        """() => { const v = S.view, p = v.pending.player, pos = v.players[p].position;
        const sq = document.querySelector('#square-' + pos).getBoundingClientRect();
        const frame = document.querySelector('.board-scroll');
        const f = frame.getBoundingClientRect(), x = sq.left + sq.width / 2, y = sq.top + sq.height / 2;
        return [frame.scrollLeft + frame.scrollTop > 0, x > f.left && x < f.right && y > f.top && y < f.bottom,
          document.documentElement.scrollWidth <= innerWidth]; }"""
    )
    assert seen == [True, True, True], seen

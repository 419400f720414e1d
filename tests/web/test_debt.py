"""A debt on the stage: when a seat owes more than it holds and no answer pays it at once, the
prompt's answers are every any-time action (dozens of trade proposals among them). The page shows
what raises money first, leaves the proposals to the trade dialog, and keeps the whole decision
within reach in the board's middle (a centred column taller than the stage once hid its top)."""

from __future__ import annotations

from typing import Any

from parlor import monopoly
from parlor.bots.registry import make_bot
from tests.web.play import create_table, open_as_host

NAMES = ["Ann", "Bo", "Cy", "Di"]


def ann_in_debt() -> monopoly.PropertyGame:
    """A classic short game played by heuristic bots up to a debt of Ann's (seat 0) that no
    direct answer pays, while she holds five deeds or more."""
    for seed in range(200):
        options = {"variant": "short", "roll_for_first_player": False}
        game = monopoly.new_game("classic", NAMES, seed, options)
        bots = [make_bot("monopoly", "heuristic", seed + i) for i in range(4)]
        for _ in range(3000):
            p = game.pending
            if game.is_over or p is None:
                break
            if (
                p.player == 0
                and p.kind == "raise_funds"
                and not game.legal_actions(0, anytime=False)
            ) and sum(d["owner"] == 0 for d in game.view(0)["properties"]) >= 5:
                return game
            game.apply(bots[p.player].choose(game, p.player))
    raise AssertionError("no seed puts Ann in debt with five deeds")


def test_a_debt_shows_what_raises_money_first_and_all_of_it_in_reach(
    web_server: Any, contexts: Any
) -> None:
    game = ann_in_debt()
    assert any(type(a).__name__ == "ProposeTrade" for a in game.legal_actions(0))
    body = {"save": game.to_json(), "seats": ["human", "heuristic", "heuristic", "heuristic"]}
    made = create_table(web_server.base, body)
    # a narrow desktop: the board, and the stage in its middle, are small; the debt's answers
    # are more than the stage holds
    page = contexts(viewport={"width": 820, "height": 800}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    open_as_host(page, web_server.base, made)
    page.click("#start")
    page.wait_for_function("document.getElementById('main').dataset.decision === 'raise_funds'")
    page.wait_for_selector("#prompt button.answer")
    types = page.eval_on_selector_all(
        "#prompt button.answer", "els => els.map(e => e.dataset.type)"
    )
    assert types and "ProposeTrade" not in types, types
    assert types[0] in ("SellBuilding", "Mortgage"), types
    assert "DeclareBankruptcy" not in types[:-1], types  # (giving up comes last)
    # the decision's title and the first answers are inside the stage, not above its top,
    # though the stage scrolls
    stage = page.evaluate(
        """() => { const el = document.querySelector('.stage'), st = el.getBoundingClientRect();
        const title = document.querySelector('#prompt h2').getBoundingClientRect();
        return [el.scrollHeight > el.clientHeight + 4, title.top >= st.top - 1, el.scrollTop]; }"""
    )
    assert stage == [True, True, 0], stage
    owed = page.inner_text("#owed")
    # paid by clicks on the first answer (what raises money), as a person would
    for _ in range(20):
        if page.evaluate("document.getElementById('main').dataset.decision") != "raise_funds":
            break
        before = page.evaluate("S.version")
        page.locator("#prompt button.answer").first.click()
        page.wait_for_function(f"S.version > {before}")
    assert page.evaluate("S.view.pending.kind") != "raise_funds" or (
        page.evaluate("S.view.pending.player") != 0
    ), owed
    assert errors == []

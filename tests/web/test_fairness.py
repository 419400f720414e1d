"""The game-over page checks the randomness (docs/server.md, "Dice and decks anyone can verify"):
two people at a TOOLS table, each page adding its own nonce (crypto.getRandomValues) and keeping
the commitment it was shown before sending it; at the end each page asks for the reveal, checks it
with crypto.subtle and says so in its player's language. A changed reveal is refused by the same
code in the same browser."""

from __future__ import annotations

import json
from typing import Any

from tests.web.play import DESKTOP, click, play_until_over


def policy(page: Any, kind: str) -> bool:
    if kind == "choose_color":
        return click(page, "#prompt button[data-type=ChooseColor]")
    if kind == "play" and click(page, "#hand button.playable"):
        return True
    return click(page, "#prompt button.answer")


def stored(page: Any, table: str) -> dict[str, Any]:
    return dict(page.evaluate(f"JSON.parse(localStorage.getItem('parlor.tables'))[{table!r}]"))


def test_each_page_checks_the_reveal_at_the_end_in_its_language(
    web_server: Any, contexts: Any
) -> None:
    ann = contexts(viewport=DESKTOP).new_page()
    ann.goto(web_server.base + "/")
    ann.fill("#host-name", "Ann")
    ann.select_option("#game", "tools")
    ann.select_option("#seat-count", "2")
    ann.select_option("#seat-0", "human")
    ann.select_option("#seat-1", "human")
    ann.fill("#bot-delay", "0")
    ann.click("#create-button")
    ann.wait_for_selector("#invite-link")
    link = str(ann.input_value("#invite-link"))
    table = link.split("table=")[1].split("&")[0]

    bo = contexts(viewport=DESKTOP).new_page()
    exports: list[str] = []
    bo.on(
        "websocket",
        lambda ws: ws.on(
            "framereceived",
            lambda data: exports.append(data) if data.startswith('{"type":"export"') else None,
        ),
    )
    bo.goto(link)
    bo.select_option("#lang", "da")
    bo.wait_for_selector("#join-name")
    bo.fill("#join-name", "Bo")
    bo.click("#join-button")
    bo.wait_for_selector("#you")
    ann.wait_for_function("document.getElementById('seat-list')?.innerText.includes('Bo')")
    # the commitment is on the waiting page, and it is the one each page recorded
    shown = ann.inner_text("#commitment").split()[-1]
    assert shown == stored(ann, table)["commitment"] == stored(bo, table)["commitment"]
    ann.click("#start")
    ann.wait_for_selector("#pile")
    play_until_over([ann, bo], [policy, policy], limit_s=120)

    # each page: the commitment it recorded before its nonce went out, and the check's result
    for page, lang, word in ((ann, "en", "Verified"), (bo, "da", "Kontrolleret")):
        page.wait_for_selector("#fairness[data-result=ok]", timeout=20000)
        assert word in page.inner_text("#fairness-result"), page.inner_text("#fairness")
        assert page.evaluate("document.documentElement.lang") == lang
    mine = [stored(ann, table), stored(bo, table)]
    assert mine[0]["commitment"] == mine[1]["commitment"] and len(mine[0]["commitment"]) == 64
    assert mine[0]["nonce"] != mine[1]["nonce"] and len(mine[1]["nonce"]) == 32
    assert mine[0]["commitment"] in ann.inner_text("#fairness")

    # the reveal Bo's page received names both pages' nonces, in seat order
    save = json.loads(exports[-1])["save"]
    assert save["fairness"]["nonces"] == [mine[0]["nonce"], mine[1]["nonce"]]
    # the same check, in the same browser, refuses a reveal changed in any part
    text = exports[-1]
    fair = save["fairness"]
    salt = fair["salt"]
    changed = {
        "salt": text.replace(salt, ("1" if salt[0] != "1" else "2") + salt[1:]),
        "seed": text.replace(f'"seed":{fair["seed"]}', f'"seed":{fair["seed"] ^ 1}'),
        "nonce": text.replace(mine[0]["nonce"], "ab" * 16),
        "game seed": text.replace(f'"seed":{save["seed"]},', f'"seed":{save["seed"] ^ 1},'),
    }
    check = (
        "async ([text, seat, nonce, commitment]) => "
        "(await checkReveal(parseFrame(text).save, commitment, seat, nonce))[0]"
    )
    commitment = mine[1]["commitment"]
    assert bo.evaluate(check, [text, 1, mine[1]["nonce"], commitment]) is True
    for what, bad in changed.items():
        assert bad != text, what
        assert bo.evaluate(check, [bad, 1, mine[1]["nonce"], commitment]) is False, what
    assert bo.evaluate(check, [text, 1, mine[1]["nonce"], "0" * 64]) is False
    # and a page whose own nonce is not the one revealed for its seat
    assert bo.evaluate(check, [text, 1, "cd" * 16, commitment]) is False

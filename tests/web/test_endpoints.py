"""The two read-only helpers the page uses: a board picture of a view, an edition's squares."""

from __future__ import annotations

import gzip
import json
import urllib.error
import urllib.request
from typing import Any

import pytest

from parlor import monopoly


def post(url: str, body: Any) -> tuple[int, bytes, str]:
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return int(r.status), r.read(), str(r.headers["content-type"])
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), str(exc.headers["content-type"])


def test_the_picture_is_the_board_of_the_view_sent(web_server: Any) -> None:
    game = monopoly.new_game("matador", ["Ann", "Bo"], 3, {})
    code, svg, kind = post(web_server.base + "/api/picture", {"view": game.view(0), "lang": "da"})
    assert code == 200 and kind.startswith("image/svg+xml")
    text = svg.decode()
    assert text.count('class="square ') == 40 and 'id="token-1"' in text
    assert "Rådhuspladsen" in text


@pytest.mark.parametrize("body", [{}, {"view": {"edition": "nope"}}, {"view": [1, 2]}, "x"])
def test_the_picture_refuses_what_is_not_a_view(web_server: Any, body: Any) -> None:
    code, raw, _ = post(web_server.base + "/api/picture", body)
    assert code == 400 and json.loads(raw)["type"] == "error"


def test_an_edition_lists_its_squares_in_the_language_asked(web_server: Any) -> None:
    with urllib.request.urlopen(web_server.base + "/api/editions/latam?lang=es") as r:
        data = json.loads(r.read())
    assert len(data["squares"]) == 40 and data["squares"][0]["kind"] == "go"
    # the mortgage stamp the page writes on the board, as the board picture says it
    for edition, lang, said in (("latam", "es", "hipotecada"), ("matador", "da", "pantsat")):
        with urllib.request.urlopen(f"{web_server.base}/api/editions/{edition}?lang={lang}") as r:
            assert json.loads(r.read())["words"] == {"mortgaged": said}
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(web_server.base + "/api/editions/nope")
    assert err.value.code == 404


def test_the_page_and_its_files_are_served_from_the_package(web_server: Any) -> None:
    with urllib.request.urlopen(web_server.base + "/") as r:
        page = r.read().decode()
    for script in (
        "app",
        "join",
        "property",
        "auction",
        "dialogs",
        "tools",
        "replay",
        "keys",
        "start",
    ):
        assert f'<script src="/web/{script}.js">' in page
        with urllib.request.urlopen(f"{web_server.base}/web/{script}.js") as r:
            assert r.read().startswith(b"// Parlor in the browser")
    for lang, word in (("en", "Language"), ("es", "Idioma"), ("da", "Sprog")):
        # the page's words come from the compiled "web" catalog, placeholders kept
        with urllib.request.urlopen(f"{web_server.base}/i18n/{lang}.json") as r:
            words = json.loads(r.read())
        assert len(words) > 150 and words["Language"] == word and "{n}" in words["Seat {n}"]
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(web_server.base + "/i18n/fr.json")
    assert err.value.code == 404


def test_the_picture_lays_the_analysis_over_the_board_for_the_tables_rules(web_server: Any) -> None:
    game = monopoly.new_game("classic", ["Ann", "Bo"], 3, {"variant": "short"})
    body = {"view": game.view(None), "heat": True, "options": {"variant": "short"}}
    code, svg, _ = post(web_server.base + "/api/picture", body)
    assert code == 200 and svg.decode().count("data-landing=") == 40
    code, plain, _ = post(web_server.base + "/api/picture", {"view": game.view(None)})
    assert code == 200 and b"data-landing=" not in plain


def test_an_editions_board_before_the_first_throw(web_server: Any) -> None:
    with urllib.request.urlopen(web_server.base + "/api/editions/matador/board.svg?lang=da") as r:
        assert r.headers["content-type"].startswith("image/svg+xml")
        svg = r.read().decode()
    assert svg.count('class="square ') == 40 and "Rådhuspladsen" in svg
    assert svg.count('class="token"') == 4 and 'data-square="0"' in svg
    # one token per seat, for the table page to move (2 to 8; outside that, the nearest)
    for asked, tokens in ((6, 6), (2, 2), (1, 2), (30, 8)):
        url = f"{web_server.base}/api/editions/classic/board.svg?lang=es&seats={asked}"
        with urllib.request.urlopen(url) as r:
            svg = r.read().decode()
        assert svg.count('class="token"') == tokens and 'id="pat-mortgaged"' in svg, asked
        assert svg.count('data-token-spots="') == 40 and "Cárcel" in svg
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(web_server.base + "/api/editions/nope/board.svg")
    assert err.value.code == 404


def test_the_picture_comes_gzipped_to_a_browser_that_takes_it(web_server: Any) -> None:
    game = monopoly.new_game("classic", ["Ann", "Bo", "Cy", "Di"], 3, {})
    body = json.dumps({"view": game.view(0), "lang": "es"}).encode()
    req = urllib.request.Request(
        web_server.base + "/api/picture",
        body,
        {"content-type": "application/json", "accept-encoding": "gzip"},
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        assert r.headers["content-encoding"] == "gzip"
        packed = r.read()
    text = gzip.decompress(packed).decode()
    assert text.count('class="square ') == 40
    assert len(packed) * 4 < len(text)  # the traffic bench counts on it (bench_web_traffic.py)


def test_a_trades_value_to_each_side_is_the_bots_worth_change(web_server: Any) -> None:
    from parlor.bots.monopoly_table import Table, board_for

    game = monopoly.new_game("classic", ["Ann", "Bo", "Cy"], 5, {})
    # Ann holds one brown lot, Bo the other and a mortgaged railway (a position set by hand)
    game.owner[1], game.owner[3], game.owner[5] = 0, 1, 1
    game.mortgaged[5] = True
    view = game.view(2)  # (any seat's view: the page posts its own)
    offer = {"player": 0, "to": 1, "take_squares": [3, 5], "give_cash": 150, "give_jail_cards": 0}
    code, raw, _ = post(web_server.base + "/api/trade-value", {"view": view, "offer": offer})
    assert code == 200, raw
    got = json.loads(raw)
    d_ann, d_bo = Table.from_game(board_for(game), game).trade_deltas(0, 1, [], [3, 5])
    assert got == {"proposer": round(d_ann - 150), "to": round(d_bo + 150)}
    # completing the brown group is worth more to Ann than the lots' prices (its group bonus)
    assert d_ann > 60 + 200 - 0.55 * 100
    # a square Bo does not hold, or a seat that is not there, is no trade of this view
    for bad in ({**offer, "take_squares": [1]}, {**offer, "to": 7}, {**offer, "give_cash": -5}):
        code, raw, _ = post(web_server.base + "/api/trade-value", {"view": view, "offer": bad})
        assert code == 400 and json.loads(raw)["code"] == "bad_request"

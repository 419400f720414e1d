"""The browser client: static pages served by ``parlor serve``, and two small read-only helpers.

``install(app)`` adds the page at ``/``, its files under ``/web/``, its words at
``/i18n/{lang}.json`` (the compiled "web" gettext catalog as JSON), ``POST /api/picture`` (the
board SVG of a view the page already holds, so nothing beyond that view is drawn) and
``GET /api/editions/{id}`` (square names, groups and prices, which views leave out) and
``GET /api/editions/{id}/board.svg?lang=&seats=`` (the edition's board before the first throw,
with a token per seat: the table page draws owners, buildings and tokens over it itself) and
``POST /api/trade-value`` (a proposed trade's worth to each side, :mod:`parlor.web.values`).
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).parent / "static"
LANGS = ("en", "es", "da")
MAX_VIEW = 256 * 1024


def edition_data(edition_id: str, lang: str) -> dict[str, Any]:
    """The public facts of an edition's squares in ``lang`` (the edition's first language when
    it has no name in ``lang``)."""
    from parlor.monopoly.edition import EDITION_IDS, load_edition

    if edition_id not in EDITION_IDS:  # (any other name the loader would open as a file)
        raise KeyError(edition_id)
    ed = load_edition(edition_id)
    first = ed.languages[0]

    def name(words: Any) -> str:
        return str(words.get(lang) or words.get(first) or next(iter(words.values()), ""))

    return {
        "id": ed.id,
        "title": ed.title,
        # the words the page writes on the board itself, as the board picture says them
        "words": {"mortgaged": board_word(ed, "mortgaged", lang)},
        "currency": ed.currency,
        "currency_after": ed.currency_after,
        "squares": [
            {
                "index": sq.index,
                "kind": sq.kind,
                "name": name(sq.name),
                "group": sq.group,
                "price": sq.price,
                "rents": list(sq.rents),  # the deed's rents by buildings (street) or count owned
                "house_cost": sq.house_cost,
                "hotel_cost": ed.hotel_cost(sq.index) if sq.house_cost else 0,
                "mortgage": sq.mortgage,
                # the bank's interest on lifting, or on taking over a mortgaged deed
                "interest": ed.mortgage_interest(sq.index) if sq.mortgage else 0,
            }
            for sq in ed.squares
        ],
    }


def board_word(ed: Any, key: str, lang: str) -> str:
    """A word of the board picture in ``lang``: the edition's own, else the catalog's generic one
    (as ``parlor.render.board_middle.Centre.text`` picks it)."""
    from parlor.monopoly.text import generic_word

    texts = ed.texts.get(lang) or {}
    if key in texts:
        return str(texts[key])
    generic = generic_word(key, lang) if lang in LANGS else None
    return str(generic) if generic is not None else str(ed.text(key))


@cache
def catalog_json(lang: str) -> bytes:
    """The page's words in ``lang``, built once per process from the compiled catalog."""
    from parlor.i18n import web_messages

    return json.dumps(web_messages(lang), ensure_ascii=False, sort_keys=True).encode()


@cache
def starting_board(edition_id: str, lang: str, seats: int = 4) -> str:
    """The picture of an edition's board before the first throw (``seats`` players at Go), as a
    spectator sees it: for the create form, and the table page's board, which draws owners,
    buildings, mortgages and tokens over it itself (board.js)."""
    from parlor.monopoly import EDITION_IDS, new_game

    if edition_id not in EDITION_IDS:
        raise KeyError(edition_id)
    game = new_game(edition_id, [str(n + 1) for n in range(seats)], 0, {})
    return picture(game.view(None), lang)


def picture(view: Any, lang: str, heat: bool = False, options: Any = None) -> str:
    """The board SVG of a property game's view (the page's own: it holds nothing hidden), with
    the analysis overlay for the table's public rule options when ``heat``."""
    from parlor.monopoly.edition import EDITION_IDS, load_edition
    from parlor.monopoly.rules import RuleOptions
    from parlor.render import board_svg

    rules = None
    heat = heat and view.get("edition") in EDITION_IDS  # (a view names no file to open)
    if heat:
        rules = RuleOptions.for_edition(load_edition(str(view["edition"])), dict(options or {}))
    return str(board_svg(view, language=lang, heat=heat, options=rules))


def svg_response(svg: str, request: Request, headers: dict[str, str] | None = None) -> Response:
    """An SVG, gzipped when the browser takes it: a board picture is about 45 KB, 5 KB gzipped."""
    raw = svg.encode()
    if "gzip" not in request.headers.get("accept-encoding", ""):
        return Response(raw, media_type="image/svg+xml", headers=headers)
    extra = {**(headers or {}), "Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
    return Response(gzip.compress(raw, 6), media_type="image/svg+xml", headers=extra)


def install(app: FastAPI) -> None:
    app.mount("/web", StaticFiles(directory=STATIC), name="web")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/i18n/{lang}.json", include_in_schema=False)
    async def words(lang: str) -> Response:
        if lang not in LANGS:
            return JSONResponse(
                {"type": "error", "code": "settings", "message": "unknown language"},
                status_code=404,
            )
        return Response(
            catalog_json(lang),
            media_type="application/json",
            headers={"Cache-Control": "no-cache"},
        )

    @app.get("/api/editions/{edition_id}")
    async def edition(edition_id: str, lang: str = "en") -> JSONResponse:
        try:
            return JSONResponse(edition_data(edition_id, lang if lang in LANGS else "en"))
        except Exception:  # an unknown edition: the loader's error names the file
            return JSONResponse(
                {"type": "error", "code": "settings", "message": "unknown edition"},
                status_code=404,
            )

    @app.get("/api/editions/{edition_id}/board.svg", include_in_schema=False)
    async def edition_board(
        request: Request, edition_id: str, lang: str = "en", seats: int = 4
    ) -> Response:
        try:
            svg = starting_board(edition_id, lang if lang in LANGS else "en", min(max(seats, 2), 8))
        except Exception:  # an unknown edition
            return JSONResponse(
                {"type": "error", "code": "settings", "message": "unknown edition"},
                status_code=404,
            )
        return svg_response(svg, request, {"Cache-Control": "max-age=3600"})

    @app.post("/api/picture")
    async def board(request: Request) -> Response:
        raw = await request.body()
        if len(raw) > MAX_VIEW:
            return JSONResponse({"type": "error", "code": "too_large"}, status_code=400)
        try:
            req = json.loads(raw)
            lang = req.get("lang") if req.get("lang") in LANGS else None
            svg = picture(req["view"], lang or "en", req.get("heat") is True, req.get("options"))
        except Exception:  # not a property view: nothing to draw
            return JSONResponse(
                {"type": "error", "code": "bad_request", "message": "not a property view"},
                status_code=400,
            )
        return svg_response(svg, request)

    @app.post("/api/trade-value")
    async def trade_value(request: Request) -> JSONResponse:
        """Each side's change of worth by the bots' measure (parlor.web.values), for the trade
        dialog: from the view and terms the page posts, nothing else."""
        from parlor.web.values import trade_values

        raw = await request.body()
        if len(raw) > MAX_VIEW:
            return JSONResponse({"type": "error", "code": "too_large"}, status_code=400)
        try:
            req = json.loads(raw)
            out = trade_values(req["view"], req["offer"], req.get("options"))
        except Exception:  # not a property view, or terms that do not fit it
            return JSONResponse(
                {"type": "error", "code": "bad_request", "message": "not a trade of this view"},
                status_code=400,
            )
        return JSONResponse(out)

"""Create requests: what a host asks for, checked and normalised before anything is stored."""

from __future__ import annotations

from typing import Any

from parlor.bots.registry import bot_names
from parlor.core.errors import E_, ParlorError
from parlor.monopoly.edition import EDITION_IDS
from parlor.server import games
from parlor.server.messages import MAX_INLINE_DATA, CreateRequest, check_body, inline_size
from parlor.server.protocol import LANGS, MAX_NAME, ProtocolError, clean_text

MAX_BUDGET = 5000


def _number(value: Any, what: str, lo: float, hi: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
        raise ProtocolError(
            "bad_request",
            E_("{what} must be a number from {least} to {most}", what=what, least=lo, most=hi),
        )
    return float(value)


def seat_plan(game: str, raw: Any) -> list[dict[str, Any]]:
    """Seats from ``4``, ``["human", "heuristic", "search:400"]`` or ``[{"kind": "bot", ...}]``."""
    lo, hi = games.SEATS[game]
    if isinstance(raw, int) and not isinstance(raw, bool):
        count = raw  # (checked before a list of that length is made)
    elif isinstance(raw, list):
        count = len(raw)
    else:
        raise ProtocolError("bad_request", E_("seats is a count or a list"))
    if not lo <= count <= hi:
        raise ProtocolError(
            "bad_request",
            E_(
                "{game} takes {least} to {most} seats, not {count}",
                game=game,
                least=lo,
                most=hi,
                count=count,
            ),
        )
    if not isinstance(raw, list):
        raw = ["human"] * count
    plan = []
    for i, spec in enumerate(raw):
        if isinstance(spec, str):
            name, _, budget = spec.partition(":")
            spec = {"kind": "human"} if name == "human" else {"kind": "bot", "bot": name}
            if budget:
                spec["budget"] = int(budget) if budget.isdigit() and len(budget) < 9 else budget
        if not isinstance(spec, dict) or spec.get("kind") not in ("human", "bot"):
            raise ProtocolError("bad_request", E_("seat {index}: kind is human or bot", index=i))
        entry: dict[str, Any] = {"kind": spec["kind"], "name": f"Player {i + 1}"}
        if spec["kind"] == "bot":
            bot, options = bot_spec(game, spec.get("bot", "heuristic"), spec.get("budget"))
            entry.update(bot=bot, bot_options=options, name=f"{bot.capitalize()} bot {i + 1}")
        if spec.get("name") is not None:
            entry["name"] = clean_text(spec["name"], MAX_NAME, "name")
        plan.append(entry)
    return plan


def bot_spec(game: str, bot: Any, budget: Any) -> tuple[str, dict[str, Any]]:
    if bot not in bot_names(game):
        raise ProtocolError(
            "bad_request", E_("bot is one of {choices}", choices=", ".join(bot_names(game)))
        )
    options: dict[str, Any] = {}
    if budget is not None:
        if bot != "search":
            raise ProtocolError("bad_request", E_("only the search bot takes a budget"))
        options["simulations"] = int(_number(budget, "budget", 1, MAX_BUDGET))
    return str(bot), options


def normalise(
    req: dict[str, Any], save: str | None
) -> tuple[dict[str, Any], list[dict[str, Any]], Any]:
    """(config to store, seat plan, the imported game or None) for a create request."""
    check_body(CreateRequest, req)  # every field's type and size (what it means: below)
    imported = None
    inline: dict[str, Any] | None = None  # an edition's (or a deck's) data, given in the request
    if save is not None:
        try:
            imported = games.load_save(save)
        except ParlorError as exc:
            raise ProtocolError("bad_save", exc.text) from exc
        game = games.family(imported)
        settings = imported.settings
        edition = settings.get("edition") if game == "monopoly" else None
        options = dict(settings.get("options") or {})
        names = list(imported.names)  # type: ignore[attr-defined]
        plan = seat_plan(game, req.get("seats", ["human"] * len(names)))
        if len(plan) != len(names):
            raise ProtocolError(
                "bad_request", E_("the saved game has {count} seats", count=len(names))
            )
        for entry, name in zip(plan, names, strict=True):
            entry["name"] = name
        variant, presets = options.get("variant"), []
    else:
        game = req.get("game", "monopoly")
        if game not in games.GAME_CLASSES:
            raise ProtocolError("bad_request", E_("game is monopoly or tools"))
        edition, inline = _edition(game, req)
        variant = req.get("variant")
        presets = list(dict.fromkeys(req.get("presets", [])))  # (each once)
        raw_options = req.get("options", {})
        plan = seat_plan(game, req.get("seats", 4))
        try:
            options = games.options_for(game, variant, presets, raw_options)
            names = [p["name"] for p in plan]
            made = games.new_game(game, edition, names, 0, options, inline)  # validates
            if inline is not None and game == "monopoly":  # (shown by its id)
                saved = made.settings["edition"]
                edition = saved if isinstance(saved, str) else str(saved["edition"]["id"])
        except ParlorError as exc:
            raise ProtocolError("settings", exc.text) from exc
        except TypeError as exc:
            raise ProtocolError("settings", E_("bad option: {reason}", reason=str(exc))) from exc
    lang = req.get("lang", "en")
    if lang not in LANGS:
        raise ProtocolError("bad_request", E_("lang is one of {choices}", choices=", ".join(LANGS)))
    timer = req.get("timer")
    host_seat = req.get(
        "host_seat", next((i for i, p in enumerate(plan) if p["kind"] == "human"), None)
    )
    if host_seat is not None and (
        not isinstance(host_seat, int)
        or not 0 <= host_seat < len(plan)
        or plan[host_seat]["kind"] != "human"
    ):
        raise ProtocolError("bad_request", E_("host_seat must be a human seat"))
    config = {
        "game": game,
        "edition": edition,
        "inline": inline,
        "variant": variant,
        "presets": presets,
        "options": options,
        "seats": len(plan),
        "timer": None if timer is None else _number(timer, "timer", 0.05, 3600),
        "grace": _number(req.get("grace", 30), "grace", 0, 3600),
        "bot_delay": _number(req.get("bot_delay", 0.6), "bot_delay", 0, 10),
        "lang": lang,
        "host_seat": host_seat,
        "imported": imported is not None,
    }
    return config, plan, imported


def _edition(game: str, req: dict[str, Any]) -> tuple[str | None, dict[str, Any] | None]:
    """(edition id, inline data): a bundled edition by its id, or an edition's (TOOLS: a deck's)
    data in the request, checked by the engine's schema. Never a file: a name that is no bundled
    id is refused, so nobody learns which files the server's folder holds."""
    edition = req.get("edition", "classic" if game == "monopoly" else None)
    inline = req.get("deck") if game == "tools" else None
    if isinstance(edition, dict):
        if game != "monopoly":
            raise ProtocolError("bad_request", E_("TOOLS takes a deck, not an edition"))
        edition, inline = None, edition
    elif game == "monopoly" and edition not in EDITION_IDS:
        raise ProtocolError(
            "settings",
            E_(
                "edition is one of {choices} or an edition's data",
                choices=", ".join(EDITION_IDS),
            ),
        )
    if req.get("deck") is not None and game != "tools":
        raise ProtocolError("bad_request", E_("only TOOLS takes a deck"))
    if inline is not None and inline_size(inline) > MAX_INLINE_DATA:
        raise ProtocolError(
            "too_large", E_("inline data is at most {most} bytes", most=MAX_INLINE_DATA)
        )
    return edition, inline

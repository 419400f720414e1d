"""Everything the service asks of the engines, in one place, through their public interface only.

Tables are created from a request (game, edition, variant, options, presets), rebuilt from settings
+ seed + action log, and described per seat: the decision as that seat may see it, its legal
answers, the events in words. ``pending_for`` and ``describe_event`` are the two seams where the
engines' secret-safe ``pending_for`` and the translated texts plug in.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from parlor import monopoly, tools
from parlor.core.errors import E_, ParlorError, SettingsError
from parlor.core.game import Event, Game, action_to_dict

GAME_CLASSES: dict[str, type[Game[Any]]] = {
    "monopoly": monopoly.PropertyGame,
    "tools": tools.ToolsGame,
}
SEATS = {"monopoly": (2, 8), "tools": (2, 10)}

#: The common house-rule presets a host can tick instead of naming options one by one.
PRESETS: dict[str, dict[str, dict[str, Any]]] = {
    "monopoly": {
        "free_parking_pot": {"free_parking_pot": True},
        "no_auctions": {"auctions": False},
        "double_go": {"double_salary_on_go": True},
        "unlimited_buildings": {"unlimited_buildings": True},
        "no_rent_in_jail": {"rent_while_jailed": False},
    },
    "tools": {
        "no_box_stacking": {"box_stacking": False},
        "draw_when_able": {"may_draw_when_able": True},
    },
}


def options_for(
    game: str, variant: str | None, presets: Sequence[str], options: Mapping[str, Any]
) -> dict[str, Any]:
    """The engine options a request stands for: presets first, then explicit options win."""
    table = PRESETS.get(game, {})
    merged: dict[str, Any] = {}
    for name in presets:
        if name not in table:
            raise SettingsError(
                E_(
                    "unknown preset {name}: choose among {choices}",
                    name=repr(name),
                    choices=", ".join(sorted(table)),
                )
            )
        merged.update(table[name])
    merged.update(options)
    if variant is not None:
        if game != "monopoly":
            raise SettingsError(E_("only the property games have variants"))
        merged["variant"] = variant
    return merged


def new_game(
    game: str,
    edition: str | None,
    names: Sequence[str],
    seed: int,
    options: Mapping[str, Any],
    inline: Mapping[str, Any] | None = None,
) -> Game[Any]:
    """A new game of a bundled edition (by id), or of ``inline`` data: an edition's (property
    games) or a deck's (TOOLS), checked by the engine's schema. Never a file path."""
    if game == "monopoly":
        if inline is not None:
            from parlor.monopoly.edition import parse_edition

            chosen: Any = parse_edition(inline, "edition")
        else:
            chosen = edition or "classic"
            if chosen not in monopoly.EDITION_IDS:  # (the engine would open it as a file)
                raise SettingsError(E_("unknown edition {name}", name=repr(chosen)[:40]))
        return monopoly.new_game(chosen, list(names), seed, dict(options))
    if game == "tools":
        if edition not in (None, "default"):
            raise SettingsError(E_("TOOLS has one deck here: edition must be 'default' or absent"))
        # People at different screens must not learn from the flow of the game whether a card
        # someone drew and kept was playable: ask after every draw unless the table says not.
        options = {"ask_after_every_draw": True, **options}
        return tools.new_game(list(names), seed, dict(inline) if inline else None, options)
    raise SettingsError(E_("unknown game {game}: choose monopoly or tools", game=repr(game)))


def rebuild(game: str, settings: Mapping[str, Any], seed: int, actions: Sequence[Any]) -> Game[Any]:
    """The game a table's settings, seed and action log make (replayed by the engine)."""
    cls = GAME_CLASSES[game]
    data = {
        "game": cls.game_name,
        "format": 1,
        "settings": settings,
        "seed": seed,
        "actions": actions,
    }
    return cls.from_dict(data, check_snapshot=False)


def load_save(text: str) -> Game[Any]:
    """A game from the engine's JSON save (any Parlor game)."""
    import json

    from parlor.core.errors import E_, ReplayError

    try:
        data = json.loads(text)
    except (json.JSONDecodeError, TypeError) as exc:
        raise ReplayError(E_("not a saved game: {reason}", reason=str(exc))) from exc
    name = data.get("game") if isinstance(data, dict) else None
    for cls in GAME_CLASSES.values():
        if cls.game_name == name:
            return cls.from_dict(data)
    raise ReplayError(E_("not a saved Parlor game (game={name})", name=repr(name)))


def family(game: Game[Any]) -> str:
    return "tools" if isinstance(game, tools.ToolsGame) else "monopoly"


_FIELDS: dict[type, tuple[str, ...]] = {}


def encode_action(action: Any) -> dict[str, Any]:
    """The engine's JSON form of an action (``action_to_dict``), with each action class's field
    names looked up once: a prompt encodes every answer, and ``dataclasses.fields`` on each
    was a third of the cost of building it.

    >>> from parlor.monopoly.actions import Build
    >>> encode_action(Build(1, 39)) == action_to_dict(Build(1, 39))
    True
    """
    cls = type(action)
    names = _FIELDS.get(cls)
    if names is None:
        out = action_to_dict(action)  # (refuses what is not an action)
        _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(action))
        return out
    out = {"type": cls.__name__}
    for name in names:
        value = getattr(action, name)
        out[name] = list(value) if isinstance(value, tuple) else value
    return out


def decode_action(game: Game[Any], data: Any) -> Any:
    """An action from its JSON form; raises a ParlorError (ReplayError) if it is not one."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        from parlor.core.errors import MalformedAction

        raise MalformedAction(E_("an action is an object with a 'type'"))
    return type(game).decode_action(data)


# ----- what a seat may see ----------------------------------------------------------------------
def pending_for(game: Game[Any], seat: int | None) -> dict[str, Any] | None:
    """The pending decision as ``seat`` may see it (``None``: a spectator): the engine's
    secret-safe ``pending_for``, never the decider's private details for anyone else."""
    d = game.pending_for(seat)
    return None if d is None else {"player": d.player, "kind": d.kind, "info": dict(d.info)}


def describe_event(game: Game[Any], event: Event, lang: str) -> str:
    """An event in words in ``lang`` (its kind, should the engine's words fail on odd data)."""
    try:
        return game.describe_event(event, lang)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return event.kind


def describe_action(game: Game[Any], action: Any, lang: str) -> str:
    try:
        return game.describe(action, lang)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return str(action)


def event_frames(game: Game[Any], events: Sequence[Event], lang: str) -> list[dict[str, Any]]:
    return [
        {"kind": e.kind, "data": dict(e.data), "text": describe_event(game, e, lang)}
        for e in events
    ]


def answers(
    game: Game[Any], seat: int, lang: str, anytime: bool, trades: bool = True
) -> list[dict[str, Any]]:
    """Legal actions of ``seat``: its own business, sent to it alone. ``trades=False`` leaves
    out the trade proposals (dozens late in a game, and the browser writes its own)."""
    out = []
    for action in game.legal_actions(seat, anytime=anytime):
        if not trades and type(action).__name__ == "ProposeTrade":
            continue
        try:
            action_id: int | None = game.action_id(action)
        except ParlorError:
            action_id = None
        out.append(
            {
                "id": action_id,
                "action": encode_action(action),
                "text": describe_action(game, action, lang),
            }
        )
    return out


def refused(game: Game[Any], seat: int, lang: str) -> list[dict[str, Any]]:
    """The any-time actions on ``seat``'s own deeds that the rules refuse now, each with the
    engine's reason (``why_illegal``) in ``lang``: build and sell on a street, mortgage or lift. Property
    games only; the reasons speak of what the seat's view already shows."""
    if not isinstance(game, monopoly.PropertyGame) or game.is_over:
        return []
    from parlor.monopoly.actions import Action, Build, Mortgage, SellBuilding, Unmortgage

    out = []
    for deed in game.view(seat)["properties"]:
        square = deed["square"]
        if deed["owner"] != seat:
            continue
        tried: list[Action] = [
            Unmortgage(seat, square) if deed["mortgaged"] else Mortgage(seat, square)
        ]
        if game.edition.squares[square].kind == "street":
            tried.append(Build(seat, square))
            if deed["buildings"]:
                tried.append(SellBuilding(seat, square))
        for action in tried:
            why = game.why_illegal(action, lang)
            if why is not None:
                out.append({"action": encode_action(action), "reason": why})
    return out


def prompt(game: Game[Any], seat: int, version: int, lang: str) -> dict[str, Any] | None:
    """The decision ``seat`` must make now, with its legal answers; None if it is not its turn.

    A trade to answer carries ``terms_revision``: the acceptance must repeat it, so nobody can
    accept terms other than the ones they were shown.
    """
    decision = pending_for(game, seat)
    if decision is None or decision["player"] != seat:
        return None
    out: dict[str, Any] = {
        "decision": decision,
        # raising funds may have no direct answer yet: then selling and mortgaging are the answers
        "answers": answers(game, seat, lang, anytime=False)
        or answers(game, seat, lang, anytime=True),
        "version": version,
    }
    if decision["kind"] == "answer_trade":
        out["terms_revision"] = version
    return out


def final(game: Game[Any]) -> dict[str, Any] | None:
    """Outcome, ranking and final valuation (the engine's scores: net worth, or cards left)."""
    o = game.outcome
    if o is None:
        return None
    names = list(getattr(game, "names", []))
    return {
        "winners": list(o.winners),
        "reason": o.reason,
        "ranking": list(o.ranking),
        "scores": list(o.scores),
        "score_kind": "cards_left" if family(game) == "tools" else "valuation",
        "names": names,
    }


def seat_sample(game: Game[Any], seat: int, since: int = 0) -> dict[str, Any]:
    """What a seat's own bot, running elsewhere, needs to rebuild a game it may know: the state of
    ``determinize(seat, fresh seed)`` (whatever the seat cannot see resampled: other hands, deck
    order, future dice), the public log from action ``since`` on, and for TOOLS what the public
    log says of the other hands. Never the seed or the hidden truth (see ``parlor.core.state``)."""
    import secrets

    from parlor.core.state import seat_state

    seed = secrets.randbits(62)  # (unrelated to the table's seed)
    since = max(0, min(since, len(game.log)))
    out: dict[str, Any] = {
        "version": len(game.log),
        "seat": seat,
        "game": family(game),
        "settings": game.settings,
        "seed": seed,
        "state": seat_state(game, seat, seed),
        "log_from": since,
        "log": [encode_action(a) for a in game.log[since:]],
    }
    if isinstance(game, tools.ToolsGame):
        from parlor.bots.tools_inference import inference_for

        known = inference_for(game).constraints  # (read from the public log alone)
        out["constraints"] = {
            str(q): [{"excluded": sorted(c.excluded), "count": c.count} for c in cons]
            for q, cons in known.items()
            if q != seat and cons
        }
    return out

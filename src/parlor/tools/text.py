"""TOOLS in words: card names, actions, events and decisions in Spanish, English or Danish.

The game's own language is Spanish (its rulebook's); English and Danish on request. Card and
colour names of the default deck come from the catalogs; a deck file's own colours keep the names
the file gives them. Only public information is read, except :func:`describe_decision`, which
addresses the deciding player and may name the card they just drew.

>>> from parlor import tools
>>> game = tools.new_game(["Ana", "Bo"], seed=1)
>>> card_name(game, "hammer:red"), card_name(game, "box_of_nails:yellow", "es")
('martillo rojo', 'caja de clavos amarilla')
>>> card_name(game, "good_nail:green", "da")
'grønt godt søm'
>>> describe_action(game, tools.Draw(0), "en")
'Ana draws a card'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlor.core.game import Decision, Event
from parlor.i18n import N_, Translator, check_language, translator
from parlor.tools.actions import (
    AcceptPenalty,
    ChooseColor,
    Draw,
    EndTurn,
    KeepDrawn,
    PenaltyHammers,
    PlayCard,
    PlayDrawn,
    ToolsAction,
)

if TYPE_CHECKING:
    from parlor.tools.game import ToolsGame

#: TOOLS is played in Spanish unless another language is asked for.
DEFAULT_LANGUAGE = "es"

COLOR_NAMES = {"red": N_("red"), "blue": N_("blue"), "green": N_("green"), "yellow": N_("yellow")}
#: Every card of the default deck by name (adjectives agree with the noun in Spanish and Danish).
CARD_NAMES = {
    "hammer:red": N_("red hammer"),
    "hammer:blue": N_("blue hammer"),
    "hammer:green": N_("green hammer"),
    "hammer:yellow": N_("yellow hammer"),
    "good_nail:red": N_("red good nail"),
    "good_nail:blue": N_("blue good nail"),
    "good_nail:green": N_("green good nail"),
    "good_nail:yellow": N_("yellow good nail"),
    "bent_nail:red": N_("red bent nail"),
    "bent_nail:blue": N_("blue bent nail"),
    "bent_nail:green": N_("green bent nail"),
    "bent_nail:yellow": N_("yellow bent nail"),
    "smashed_finger:red": N_("red smashed finger"),
    "smashed_finger:blue": N_("blue smashed finger"),
    "smashed_finger:green": N_("green smashed finger"),
    "smashed_finger:yellow": N_("yellow smashed finger"),
    "reverse:red": N_("red change of turn"),
    "reverse:blue": N_("blue change of turn"),
    "reverse:green": N_("green change of turn"),
    "reverse:yellow": N_("yellow change of turn"),
    "box_of_nails:red": N_("red box of nails"),
    "box_of_nails:blue": N_("blue box of nails"),
    "box_of_nails:green": N_("green box of nails"),
    "box_of_nails:yellow": N_("yellow box of nails"),
    "toolbox": N_("toolbox"),
    "wild_hammer": N_("wild hammer"),
    "paint_brush": N_("paint brush"),
}
#: A card of a colour the catalogs do not know (a deck file's own colours).
TYPE_PATTERNS = {
    "hammer": N_("{color} hammer"),
    "good_nail": N_("{color} good nail"),
    "bent_nail": N_("{color} bent nail"),
    "smashed_finger": N_("{color} smashed finger"),
    "reverse": N_("{color} change of turn"),
    "box_of_nails": N_("{color} box of nails"),
}
OUTCOME_REASONS = {
    "empty hand": N_("emptied their hand"),
    "blocked": N_("nobody could play: fewest cards"),
    "turn limit": N_("the turn limit: fewest cards"),
}


def language(lang: str | None = None) -> str:
    return DEFAULT_LANGUAGE if lang is None else check_language(lang)


def tr(lang: str | None = None) -> Translator:
    return translator(language(lang))


def color_name(game: ToolsGame, color: str, lang: str | None = None) -> str:
    return tr(lang)(COLOR_NAMES[color]) if color in COLOR_NAMES else color


def card_name(game: ToolsGame, code: str, lang: str | None = None) -> str:
    """A card by its code: ``"hammer:red"`` -> ``red hammer`` / ``martillo rojo``."""
    _ = tr(lang)
    if code in CARD_NAMES:
        return _(CARD_NAMES[code])
    kind, _sep, color = code.partition(":")
    if kind in TYPE_PATTERNS:
        return _(TYPE_PATTERNS[kind], color=color_name(game, color, lang))
    return code.replace("_", " ")


def card_list(game: ToolsGame, codes: list[str], lang: str | None = None) -> str:
    """Cards by their codes, comma-separated: ``red hammer, toolbox``."""
    return ", ".join([card_name(game, code, lang) for code in codes])


def direction(clockwise: bool, lang: str | None = None) -> str:
    _ = tr(lang)
    return _("clockwise") if clockwise else _("counterclockwise")


def describe_action(game: ToolsGame, action: ToolsAction, lang: str | None = None) -> str:
    """An action with the player's name: ``Ana plays red hammer``."""
    _ = tr(lang)
    who = game.names[action.player] if 0 <= action.player < game.num_players else "?"
    if isinstance(action, PlayCard):
        return _("{who} plays {card}", who=who, card=card_name(game, action.card, lang))
    if isinstance(action, PenaltyHammers):
        return _(
            "{who} has no hammer to repair the good nail: plays {first} and {second}, then draws 3",
            who=who,
            first=card_name(game, f"hammer:{action.first}", lang),
            second=card_name(game, f"hammer:{action.second}", lang),
        )
    if isinstance(action, Draw):
        return _("{who} draws a card", who=who)
    if isinstance(action, PlayDrawn):
        return _("{who} plays the card just drawn", who=who)
    if isinstance(action, KeepDrawn):
        return _("{who} keeps the card just drawn", who=who)
    if isinstance(action, ChooseColor):
        return _(
            "{who} names the color {color}", who=who, color=color_name(game, action.color, lang)
        )
    if isinstance(action, AcceptPenalty):
        return _("{who} takes the penalty", who=who)
    if isinstance(action, EndTurn):
        return _("{who} ends the turn", who=who)
    return who


def describe_event(game: ToolsGame, event: Event, lang: str | None = None) -> str:
    """A public event in one line (a draw says how many cards, never which)."""
    _ = tr(lang)
    d = event.data
    who = game.names[d["player"]] if isinstance(d.get("player"), int) else ""
    k = event.kind
    if k == "play":
        return _("{who} plays {card}", who=who, card=card_name(game, d["card"], lang))
    if k == "color":
        return _("{who} names the color {color}", who=who, color=color_name(game, d["color"], lang))
    if k == "draw":
        return _.ngettext(
            "{who} draws {n} card", "{who} draws {n} cards", d["count"], who=who, n=d["count"]
        )
    if k == "skip":
        return _("{who} loses the turn", who=who)
    if k == "reverse":
        return _("Play now goes {direction}", direction=direction(d["direction"] == 1, lang))
    if k == "reshuffle":
        return _("The discard pile is shuffled into a new draw pile ({n} cards)", n=d["draw_pile"])
    if k == "game_over":
        return _.ngettext(
            "{names} wins ({reason})",
            "{names} win ({reason})",
            len(d["winners"]),
            names=_.join([game.names[w] for w in d["winners"]]),
            reason=outcome_reason(d["reason"], lang),
        )
    return k.replace("_", " ")


def outcome_reason(key: str, lang: str | None = None) -> str:
    _ = tr(lang)
    return _(OUTCOME_REASONS[key]) if key in OUTCOME_REASONS else key


def describe_decision(game: ToolsGame, decision: Decision, lang: str | None = None) -> str:
    """What the decision asks of its player (addressed to them, so it may name their drawn card)."""
    _ = tr(lang)
    info = decision.info
    kind = decision.kind
    if kind == "drawn_card" and "drawn" in info:
        return _("You drew {card}: play it or keep it.", card=card_name(game, info["drawn"], lang))
    if kind == "choose_color":
        return _("Paint brush: choose a color.")
    if kind == "brush_second_card":
        return _(
            "You may play a second {color} card, or end the turn.",
            color=color_name(game, info["color"], lang),
        )
    if kind == "box_of_nails":
        return _(
            "A box of nails hits you ({n} cards): answer with a box of nails, or draw {n} and "
            "lose your turn.",
            n=info["penalty"],
        )
    penalty = info.get("good_nail_penalty")
    top = card_name(game, info["top"], lang)
    if penalty == "two_hammers":
        return _("You cannot repair the {top}: play two hammers, then draw 3.", top=top)
    if penalty == "draw_two":
        return _(
            "You cannot repair the {top} and hold fewer than two hammers: draw 2 and lose your "
            "turn.",
            top=top,
        )
    return _("Play a card on the {top}, or draw.", top=top)

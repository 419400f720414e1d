"""The ``r`` key of both terminal games: what the current decision is about and the rule behind it.

Each explanation ends with the clause it rests on: a section of the rules notes
(``docs/rules/README.md`` for the property game, ``docs/rules/tools.md`` for TOOLS), which quote
the rulebook. Figures (the jail fine, how many houses make a hotel) come from the game's own rule
options, so a variant or a house rule is explained as it is played. The property game's short
and time-limit games add a line on what they change.
"""

from __future__ import annotations

from collections.abc import Callable

from parlor.i18n import Translator
from parlor.monopoly import PropertyGame
from parlor.monopoly import text as mwords
from parlor.tools import ToolsGame
from parlor.tools import text as twords

PROPERTY_NOTES = "docs/rules/README.md"
TOOLS_NOTES = "docs/rules/tools.md"

# The TOOLS rulebook's own words (shared/rulebooks/tools-card-game.es.txt), quoted as printed:
# a quotation is not translated.
BOOK_GOOD_NAIL = (
    "Si no tienes el Martillo del color correcto para repararlo, debes jugar 2 cartas de "
    "Martillo de cualquier color consecutivas desde tu mano y luego robar 3 cartas del mazo de "
    "robo. Si no tienes suficientes Martillos para realizar esta acción, debes robar 2 cartas y "
    "perder inmediatamente tu turno."
)
BOOK_BOX = (
    "Obliga al siguiente jugador a robar 2 cartas y perder su turno. Esta es la única carta "
    "apilable de TOOLS."
)
BOOK_BRUSH = (
    "Después de cambiar el color, el jugador que activo esta carta puede colocar "
    "inmediatamente una segunda carta del color seleccionado."
)
BOOK_DRAWN = "Si la carta robada puede jugarse, puedes bajarla inmediatamente o conservarla"
BOOK_DRAW = (
    "Si no puedes realizar una jugada válida durante tu turno, debes robar 1 carta del mazo."
)


# Each edition's own clauses for a decision, as its rules note (docs/rules/<edition>.md) numbers
# the rulebook: C classic (Millennium), M matco, L latam, D matador.
EDITION_CLAUSES: dict[str, dict[str, str]] = {
    "classic": {
        "turn": "C5, C7, C8", "jail": "C24", "end_turn": "C28, C31", "buy": "C12, C13",
        "bid": "C13", "tax": "C21", "debt": "C39-C43", "trade": "C31, C44",
        "mortgaged": "C38", "shortage": "C30", "short": "C45-C49",
    },
    "matco": {
        "turn": "M7, M9, M10", "jail": "M25", "end_turn": "M28, M31", "buy": "M13, M14",
        "bid": "M14", "tax": "M22", "debt": "M39-M43", "trade": "M31, M44",
        "mortgaged": "M33-M38", "shortage": "M30", "short": "M45-M49",
    },
    "latam": {
        "turn": "L8", "jail": "L24", "end_turn": "L25, L31", "buy": "L11", "bid": "L29",
        "tax": "L20", "debt": "L34, L39-L41", "trade": "L31, L32", "mortgaged": "L33",
        "shortage": "L27, L28",
    },
    "matador": {
        "turn": "D8, D14", "jail": "D16, D17", "end_turn": "D19, D20, D25", "buy": "D11",
        "bid": "D11", "tax": "D13", "debt": "D32, D33", "trade": "D25", "mortgaged": "D28",
        "shortage": "D24", "quick": "D34, D35",
    },
}  # fmt: skip


def _edition_cite(game: PropertyGame, _: Translator, topic: str) -> str:
    """The edition's own clause for ``topic``, when its rules note numbers one."""
    clause = EDITION_CLAUSES.get(game.edition.id, {}).get(topic)
    if clause is None:
        return ""
    return " " + _(
        "The rulebook: {clause} in {notes}.",
        clause=clause,
        notes=f"docs/rules/{game.edition.id}.md",
    )


def _cite(_: Translator, where: str, clause: str, book: str | None = None) -> str:
    # (the clause is named as the notes, which are in English, head it)
    cited = _("(Rule: {clause} in {notes}.)", clause=clause, notes=where)
    if book:
        cited += "\n" + _("The rulebook: «{quote}»", quote=book)
    return cited


def _turn_text(game: PropertyGame, _: Translator, lang: str) -> str:
    return _(
        "Throw the dice and move that many squares clockwise. Doubles give another "
        "throw; a third doubles in one turn sends you to {jail}.",
        jail=mwords.word(game, "jail", lang),
    )


def _jail_text(game: PropertyGame, _: Translator, lang: str) -> str:
    return _(
        "In {jail} you may pay {fine} on your first {n} turns there, use a Get Out of "
        "Jail Free card, or throw: doubles free you and you move by them. After "
        "{last} failed throws you pay {fine} and move.",
        jail=mwords.word(game, "jail", lang),
        fine=mwords.money(game, game.edition.jail_fine, lang),
        n=game.options.jail_fine_turns,
        last=game.options.jail_max_turns,
    )


def _end_turn_text(game: PropertyGame, _: Translator, lang: str) -> str:
    return _(
        "Your throw is done. Before you end the turn you may still build (b), sell or "
        "mortgage, and propose trades (t)."
    )


def _buy_text(game: PropertyGame, _: Translator, lang: str) -> str:
    auction = (
        _("If you decline, the bank auctions it at once to every player, you too.")
        if game.options.auctions
        else _("If you decline, it stays with the bank (auctions are off).")
    )
    return _("You may buy the property you landed on at its printed price.") + " " + auction


def _bid_text(game: PropertyGame, _: Translator, lang: str) -> str:
    return _(
        "An auction: bid at least the next bid (type 'bid <amount>' for any amount) or "
        "pass; who passes is out of this auction. The highest bid buys, and you must "
        "have the cash for your bid."
    )


def _tax_text(game: PropertyGame, _: Translator, lang: str) -> str:
    return _(
        "Income tax: pay the flat amount, or {percent} percent of your total worth "
        "(cash, printed prices of your properties, mortgaged or not, and what your "
        "buildings cost). The rulebook says to choose before adding it up.",
        percent=game.edition.income_tax_percent,
    )


def _debt_text(game: PropertyGame, _: Translator, lang: str) -> str:
    return _(
        "You owe more cash than you have. Raise it by selling buildings back to the bank "
        "at half their cost, mortgaging properties or trading (b, t), then pay. If you "
        "cannot, you are bankrupt and what you own goes to your creditor."
    )


def _trade_text(game: PropertyGame, _: Translator, lang: str) -> str:
    return _(
        "A trade offer: accepting makes the exchange at once; rejecting ends it. "
        "Properties with buildings in their group cannot be traded, and a mortgaged "
        "one costs its receiver the interest."
    )


def _mortgaged_text(game: PropertyGame, _: Translator, lang: str) -> str:
    return _(
        "You received a mortgaged property: lift the mortgage now (its value plus "
        "interest), or keep it mortgaged and pay only the interest now; lifting it "
        "later costs the interest again."
    )


def _shortage_text(game: PropertyGame, _: Translator, lang: str) -> str:
    return _(
        "The bank is short of buildings: those who want them say how many, and when "
        "more are wanted than the bank has, they are auctioned one by one."
    )


Explainer = Callable[[PropertyGame, Translator, str], str]

# decision kind -> (its explanation, the section of the rules notes, the topic of EDITION_CLAUSES)
PROPERTY_DECISIONS: dict[str, tuple[Explainer, str, str]] = {
    "start_turn": (_turn_text, "S4", "turn"),
    "roll_again": (_turn_text, "S4", "turn"),
    "jail": (_jail_text, "S12", "jail"),
    "end_turn": (_end_turn_text, "S0, S13", "end_turn"),
    "buy_or_auction": (_buy_text, "S6, S7", "buy"),
    "bid": (_bid_text, "S7", "bid"),
    "tax_choice": (_tax_text, "S11", "tax"),
    "raise_funds": (_debt_text, "S18, S19", "debt"),
    "answer_trade": (_trade_text, "S17", "trade"),
    "mortgaged_property": (_mortgaged_text, "S16", "mortgaged"),
    "place_building": (_shortage_text, "S14", "shortage"),
    "building_wish": (_shortage_text, "S14", "shortage"),
}


def property_rule(game: PropertyGame, lang: str, player: int) -> list[str]:
    """The current decision of the property game explained, with its clause; then the variant."""
    _ = mwords.tr(game, lang)
    decision = game.pending
    if decision is None:
        return [_("The game is over.")]
    known = PROPERTY_DECISIONS.get(decision.kind)
    if known is None:
        lines = [mwords.describe_decision(game, decision, lang)]
    else:
        explain, clause, topic = known
        lines = [
            explain(game, _, lang),
            _cite(_, PROPERTY_NOTES, clause) + _edition_cite(game, _, topic),
        ]
    lines.extend(_variant_rules(game, _))
    return lines


def _variant_rules(game: PropertyGame, _: Translator) -> list[str]:
    opt = game.options
    if opt.variant == "short":
        return [
            _(
                "Short game: each player was dealt {deeds} properties at the start, {houses} "
                "houses make a hotel, you stay in jail at most {jail} turn, and the game ends "
                "at the first bankruptcy: the richest player wins.",
                deeds=opt.starting_deeds,
                houses=opt.hotel_after_houses,
                jail=opt.jail_max_turns,
            )
            + " "
            + _cite(_, PROPERTY_NOTES, "Variant presets")
            + _edition_cite(game, _, "short")
        ]
    if opt.variant in ("time_limit", "quick"):
        return [
            _(
                "Time-limit game: each player was dealt {deeds} properties at the start; when "
                "time is called the richest player wins.",
                deeds=opt.starting_deeds,
            )
            + " "
            + _cite(_, PROPERTY_NOTES, "Variant presets" + ", S20")
            + _edition_cite(game, _, "quick")
        ]
    return []


def tools_rule(game: ToolsGame, lang: str, player: int) -> list[str]:
    """The current TOOLS decision explained, with the clause of the rules notes."""
    from parlor.i18n import translator

    _ = translator(lang)
    decision = game.pending_for(player)
    if decision is None:
        return [_("The game is over.")]
    kind = decision.kind
    penalty = decision.info.get("good_nail_penalty")
    if kind == "drawn_card":
        return [
            _(
                "The card you drew can be played: play it at once (p) or keep it (k). No "
                "other card may be played now."
            ),
            _cite(_, TOOLS_NOTES, "Drawing and the draw pile", BOOK_DRAWN),
        ]
    if kind == "box_of_nails":
        return [
            _(
                "A box of nails makes you draw its cards and lose your turn. You may pass it "
                "on with a box of nails of any color: the next player then owes 2 cards more. "
                "Nothing else answers it, not even a wild."
            ),
            _cite(_, TOOLS_NOTES, "Action cards", BOOK_BOX),
        ]
    if kind in ("choose_color", "brush_second_card"):
        return [
            _(
                "Paint brush: name the color of play, then you may play one card of that "
                "color at once, or end your turn (e). The color stands for the next player."
            ),
            _cite(_, TOOLS_NOTES, "Wild cards", BOOK_BRUSH),
        ]
    if penalty is not None:
        return [
            _(
                "You cannot repair the good nail: with two hammers you must play two of them "
                "(any colors, in the order you choose) and then draw 3; with fewer you draw 2 "
                "and lose your turn. Drawing one card is not allowed instead."
            ),
            _cite(_, TOOLS_NOTES, "The good-nail penalty", BOOK_GOOD_NAIL),
        ]
    top = twords.card_name(game, str(decision.info["top"]), lang)
    return [
        _(
            "Play a card that fits the {top}: on a hammer any hammer, or a nail or action card "
            "of its color; on a good nail only a hammer of its color (or a wild); on a bent "
            "nail any hammer or an action card of its color; on an action card its color or "
            "the same action. Wilds fit anything. Only without a card to play do you draw "
            "one.",
            top=top,
        ),
        _cite(_, TOOLS_NOTES, "What may be played" + ", " + "Drawing and the draw pile", BOOK_DRAW),
    ]

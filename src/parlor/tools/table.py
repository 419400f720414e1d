"""The TOOLS table: the state every rule area shares, and what may be played on what.

The state is kept small and flat for speed: hands are counts per card kind, the piles are lists of
kind indices (top = last), and what may be played is looked up in a table indexed by a *context*
(the top card's kind, a color named by a paint brush, or "anything goes" after a wild).

Clauses (docs/rules/tools.md): "What may be played" (JUGAR SOBRE MARTILLOS, JUGAR SOBRE CLAVOS EN
BUEN ESTADO, JUGAR SOBRE CLAVOS DOBLADOS, CARTAS DE ACCIÓN, CARTAS COMODÍN: the playability table
of :class:`_Tables`), the players' count (2-10) and the base cards that may start the discard pile
(PREPARACIÓN, "Setup"). :class:`ToolsTable` declares the state and the helpers the rule modules
share: whether a good nail is on top, whether a hand can play, its hammers, and the words of cards
and colors in rule messages.

The rule areas are one chain of single inheritance on :class:`ToolsTable` (itself on the game
protocol), in the order of the game's method resolution: action ids, views (``hidden``), the turn,
legality, and :class:`~parlor.tools.game.ToolsGame` on top. One chain, not mixins, so that the
optional build (setup.py) compiles every class of it as a native class of mypyc (which takes
single inheritance only); an area calls another's methods through ``self`` either way.
"""

from __future__ import annotations

import random
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from parlor.core.errors import E_, MalformedAction, Phrase
from parlor.core.game import Event, Game, Outcome
from parlor.tools.actions import (
    ACTION_TYPES,
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
from parlor.tools.cards import COLORED_TYPES, WILD_TYPES, Deck
from parlor.tools.options import ToolsOptions

if TYPE_CHECKING:
    from parlor.tools.game import ToolsGame


MIN_PLAYERS, MAX_PLAYERS = 2, 10
_ACTION_CLASSES = frozenset(ACTION_TYPES.values())

# Phases: what the current player must decide.
PLAY, DRAWN, COLOR, FOLLOW, BOX, OVER = range(6)
PHASE_NAMES = ("play", "drawn_card", "choose_color", "brush_second_card", "box_of_nails", "over")

# Type numbers (index into COLORED_TYPES + WILD_TYPES).
T_HAMMER, T_GOOD, T_BENT, T_FINGER, T_REVERSE, T_BOX, T_TOOLBOX, T_WHAMMER, T_BRUSH = range(9)
ALL_TYPES = (*COLORED_TYPES, *WILD_TYPES)
_NO_CODES: frozenset[str] = frozenset()
#: Draw events of up to this many cards less one are shared (see _Tables); larger ones are rare.
_SHARED_DRAWS = 9


class _Tables:
    """Everything derived from the deck, the options and the player count; shared, never mutated
    (but for a memo of the kind indices of constraint code sets, a pure function of the deck).

    Contexts: ``0..K-1`` a colored top card of that kind; ``K + c`` a paint brush that named color
    ``c`` (when the color binds); ``K + C`` anything goes (a wild on top); ``K + C + 1 + c`` the
    brush player's second card, which must be of color ``c``.
    """

    def __init__(self, deck: Deck, options: ToolsOptions, n: int) -> None:
        C = len(deck.colors)
        K = deck.num_kinds
        self.C, self.K = C, K
        self.num_actions = K + 5 + C + C * C  # (see action_ids)
        self.ktype = [ALL_TYPES.index(deck.kind_type(k)) for k in range(K)]
        self.kcolor = [-1 if (c := deck.kind_color(k)) is None else c for k in range(K)]
        self.hammer_kind = [deck.kind_of("hammer", c) for c in range(C)]
        self.box_kinds = [deck.kind_of("box_of_nails", c) for c in range(C)]
        self.free_ctx = K + C
        self.bind_ctx = [K + c for c in range(C)]
        self.follow_ctx = [K + C + 1 + c for c in range(C)]
        self.color_bits = [_bits([k for k in range(K) if self.kcolor[k] == c]) for c in range(C)]
        self.wild_hammer = deck.kind_of("wild_hammer")
        table: list[list[bool]] = []
        for ctx in range(K + 2 * C + 1):
            table.append([self._playable(ctx, k, options) for k in range(K)])
        self.playable = table
        self.good_nail = [ctx < K and self.ktype[ctx] == T_GOOD for ctx in range(len(table))]
        # Kinds that are playable in each context, as a list and as a bit per kind: a hand's
        # playable kinds are its held bits (ToolsTable.held) and these, without a scan.
        self.playable_kinds = [[k for k in range(K) if row[k]] for row in table]
        self.playable_bits = [_bits(kinds) for kinds in self.playable_kinds]
        codes = deck.codes
        # The same as code sets, for playable_cards() (frozensets: callers may keep them).
        self.playable_codes = [frozenset(codes[k] for k in kinds) for kinds in self.playable_kinds]
        self.box_codes = frozenset(codes[k] for k in self.box_kinds)
        self.box_bits = _bits(self.box_kinds)
        self._excluded_kinds: dict[frozenset[str], frozenset[int]] = {}
        # Cached action objects (actions are immutable, so sharing them is safe and fast).
        colors = deck.colors
        self.play = [[PlayCard(p, codes[k]) for k in range(K)] for p in range(n)]
        self.draw = [Draw(p) for p in range(n)]
        self.play_drawn = [PlayDrawn(p) for p in range(n)]
        self.keep = [KeepDrawn(p) for p in range(n)]
        self.accept = [AcceptPenalty(p) for p in range(n)]
        self.end = [EndTurn(p) for p in range(n)]
        self.choose = [[ChooseColor(p, c) for c in colors] for p in range(n)]
        self.penalty = [
            [[PenaltyHammers(p, a, b) for b in colors] for a in colors] for p in range(n)
        ]
        # Every cached action by identity: these are valid by construction (a seat of this
        # game, a code or color of its deck), so apply need not check their fields again.
        every: list[ToolsAction] = [a for row in self.play for a in row]
        every += [*self.draw, *self.play_drawn, *self.keep, *self.accept, *self.end]
        every += [a for row in self.choose for a in row]
        every += [a for seat in self.penalty for row in seat for a in row]
        self.interned: dict[int, ToolsAction] = {id(a): a for a in every}
        # Per seat, the action of every id in id order (action_ids.py's numbering): one index
        # for action_from_id, which the RL environments call at every step.
        self.by_id: list[list[ToolsAction]] = [
            [
                *self.play[p],
                self.draw[p],
                self.play_drawn[p],
                self.keep[p],
                self.accept[p],
                self.end[p],
                *self.choose[p],
                *[a for row in self.penalty[p] for a in row],
            ]
            for p in range(n)
        ]
        # The common events, built once and shared like the actions (every apply returns some;
        # building each anew was a good part of an apply): read them, don't change them.
        self.play_events = [
            [Event("play", {"player": p, "card": codes[k]}) for k in range(K)] for p in range(n)
        ]
        self.draw_events = [
            [Event("draw", {"player": p, "count": c}) for c in range(_SHARED_DRAWS)]
            for p in range(n)
        ]
        self.skip_events = [Event("skip", {"player": p}) for p in range(n)]
        self.color_events = [
            [Event("color", {"player": p, "color": color}) for color in colors] for p in range(n)
        ]
        self.reverse_events = {d: Event("reverse", {"direction": d}) for d in (1, -1)}
        self.kind_by_code = {code: k for k, code in enumerate(codes)}
        self.codes = codes
        self.color_by_name = {c: i for i, c in enumerate(colors)}

    def plays(self, p: int, bits: int) -> list[ToolsAction]:
        """``p``'s PlayCard actions of the kinds whose bits are set, by kind order."""
        plays = self.play[p]
        out: list[ToolsAction] = []
        while bits:
            low = bits & -bits
            out.append(plays[low.bit_length() - 1])
            bits ^= low
        return out

    def kinds_of(self, codes: frozenset[str]) -> frozenset[int]:
        """The kind indices of a set of card codes (memoized: determinize asks for the same few
        sets on every call)."""
        kinds = self._excluded_kinds.get(codes)
        if kinds is None:
            unknown = sorted(c for c in codes if c not in self.kind_by_code)
            if unknown:
                raise MalformedAction(
                    E_(
                        "unknown card {code} in a hand constraint: cards are named like {example} or "
                        "'toolbox'",
                        code=repr(unknown[0]),
                        example=repr(self.codes[self.hammer_kind[0]]),
                    )
                )
            if len(self._excluded_kinds) > 4096:  # (arbitrary sets from callers must not pile up)
                self._excluded_kinds.clear()
            kinds = self._excluded_kinds[codes] = frozenset(self.kind_by_code[c] for c in codes)
        return kinds

    def _playable(self, ctx: int, k: int, o: ToolsOptions) -> bool:
        K, C = self.K, self.C
        t, c = self.ktype[k], self.kcolor[k]
        if ctx >= K + C + 1:  # the brush's second card: any card of the named color
            return c == ctx - (K + C + 1)
        if ctx == K + C:  # a wild on top: anything may follow
            return True
        if t >= T_TOOLBOX:  # wilds: "pueden jugarse en cualquier momento"
            if ctx < K and self.ktype[ctx] == T_GOOD:
                return t == T_WHAMMER or o.any_wild_on_good_nail
            return True
        if ctx >= K:  # a paint brush named a binding color
            return c == ctx - K
        top_t, top_c = self.ktype[ctx], self.kcolor[ctx]
        if top_t == T_HAMMER:
            return t == T_HAMMER or c == top_c  # any hammer; nails and actions of its color
        if top_t == T_GOOD:
            return t == T_HAMMER and c == top_c  # "únicamente puedes jugar un Martillo azul"
        if top_t == T_BENT:
            return t == T_HAMMER or (t in (T_FINGER, T_REVERSE, T_BOX) and c == top_c)
        # An action card on top: anything of its color, or the same action symbol.
        return c == top_c or t == top_t


def _bits(kinds: list[int]) -> int:
    """A set of kinds as an integer: bit ``k`` for kind ``k``."""
    out = 0
    for k in kinds:
        out |= 1 << k
    return out


class _DeckFacts:
    """What setting up a game needs of a deck, computed once per deck (decks are immutable)."""

    def __init__(self, deck: Deck) -> None:
        self.deck = deck  # (keeps the deck alive, so its id is not reused while cached)
        self.data = deck.to_dict()
        self.size = deck.size
        self.cards = tuple(deck.cards())
        self.base = sum(
            cnt
            for code, cnt in deck.copies.items()
            if code.split(":")[0] in ("hammer", "good_nail", "bent_nail")
        )


_DECK_FACTS: dict[int, _DeckFacts] = {}
_DEFAULT_OPTIONS = ToolsOptions()
_OPTIONS_DATA: dict[ToolsOptions, dict[str, Any]] = {}


def _deck_facts(deck: Deck) -> _DeckFacts:
    facts = _DECK_FACTS.get(id(deck))
    if facts is None or facts.deck is not deck:
        if len(_DECK_FACTS) > 256:
            _DECK_FACTS.clear()
        facts = _DECK_FACTS[id(deck)] = _DeckFacts(deck)
    return facts


def _options_data(options: ToolsOptions) -> dict[str, Any]:
    data = _OPTIONS_DATA.get(options)
    if data is None:
        if len(_OPTIONS_DATA) > 256:
            _OPTIONS_DATA.clear()
        data = _OPTIONS_DATA[options] = options.to_dict()
    return data


_TABLE_CACHE: dict[tuple[Any, ...], _Tables] = {}


def _tables(deck: Deck, options: ToolsOptions, n: int) -> _Tables:
    key = (deck.colors, options, n)
    tables = _TABLE_CACHE.get(key)
    if tables is None:
        if len(_TABLE_CACHE) > 256:
            _TABLE_CACHE.clear()
        tables = _TABLE_CACHE[key] = _Tables(deck, options, n)
    return tables


#: A public method's argument that the method checks itself and refuses with a typed
#: ParlorError: compiled (setup.py), an annotated type would be enforced first, by a TypeError.
Unchecked = Any


class ToolsTable(Game[ToolsAction]):
    """The state of a game of TOOLS, and the helpers every rule area uses (the bottom of the
    chain of rule areas; :class:`parlor.tools.game.ToolsGame` is its top)."""

    deck: Deck
    options: ToolsOptions
    names: list[str]
    settings: dict[str, Any]
    seed: int
    log: list[ToolsAction]
    rng: random.Random
    _t: _Tables
    _n: int
    hands: list[list[int]]  # per seat: a count per card kind
    held: list[int]  # per seat: bit k set when the hand holds kind k (kept with hands)
    sizes: list[int]
    draw_pile: list[int]
    discard: list[int]
    ctx: int  # the context of the next card (see _Tables)
    color: int | None
    direction: int
    current: int
    phase: int
    drawn: int  # the kind just drawn, in the DRAWN phase; else -1
    box_penalty: int
    turn: int
    idle: int
    _moved: bool
    _outcome: Outcome | None
    # A memo of discard_counts (not state: worked out again from ``discard`` when that list is
    # replaced, which the engine does at every reshuffle and a restore or clone does too).
    _counted: list[int] | None = None  # the discard list counted
    _counted_len: int = 0  # how many of its cards
    _counts: list[int] | None = None  # their copies per kind
    # History, not state (see ToolsViews.hand_log): per seat, the kinds that entered (k) or left
    # (~k) its hand since the logs were started (None until a reader asks: a game nobody reads
    # so, a search's clone, logs nothing), and the hands list they follow.
    _hand_logs: list[list[int]] | None = None
    _logged_hands: list[list[int]] | None = None

    def _on_good_nail(self) -> bool:
        return self._t.good_nail[self.ctx]

    def _has_play(self, p: int) -> bool:
        return self.held[p] & self._t.playable_bits[self.ctx] != 0

    def _count_held(self) -> None:
        """Set every seat's held bits from its hand (after hands were dealt or redealt)."""
        self.held = [_bits([k for k, count in enumerate(hand) if count]) for hand in self.hands]

    def _hammer_count(self, p: int) -> int:
        hand = self.hands[p]
        return sum(hand[k] for k in self._t.hammer_kind)

    # ----- card and colour names in actions (apply and action_id refuse them alike) ----------
    def _kind_of_code(self, code: str) -> int:
        k = self._t.kind_by_code.get(code)  # (a str: the fields are checked before)
        if k is None:
            raise MalformedAction(
                E_(
                    "unknown card {code}: cards are named like 'hammer:red', 'good_nail:{color}' "
                    "or 'toolbox'",
                    code=repr(code),
                    color=self.deck.colors[0],
                )
            )
        return k

    def _color_index(self, color: object) -> int:
        index = self._t.color_by_name.get(color) if isinstance(color, str) else None
        if index is None:
            raise MalformedAction(
                E_(
                    "unknown color {color}; the colors are {choices}",
                    color=repr(color),
                    choices=", ".join(self.deck.colors),
                )
            )
        return index

    # ----- words ----------
    def _name(self, p: int) -> str:
        return self.names[p]

    # Cards and colours in rule messages: English, and any language's words on request.
    def _card(self, k: int) -> str:
        from parlor.tools.text import card_name  # (the function: see ToolsGame.describe_event)

        code = self.deck.code(k)
        return Phrase(self.deck.card_name(k), partial(card_name, cast("ToolsGame", self), code))

    def _color(self, color: str) -> str:
        from parlor.tools.text import color_name

        return Phrase(color, partial(color_name, cast("ToolsGame", self), color))

    def _cards(self, kinds: list[int]) -> str:
        from parlor.tools.text import card_list

        game = cast("ToolsGame", self)  # (the words need the whole game; this is one)
        codes = [self.deck.code(k) for k in kinds]
        english = ", ".join([self.deck.card_name(k) for k in kinds])
        return Phrase(english, partial(card_list, game, codes))

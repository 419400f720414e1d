"""The TOOLS engine: state, rules, legal actions, action ids, views and determinization.

The state is kept small and flat for speed: hands are counts per card kind, the piles are lists of
kind indices (top = last), and what may be played is looked up in a table indexed by a *context*
(the top card's kind, a color named by a paint brush, or "anything goes" after a wild).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any, ClassVar, Self

from parlor.core.errors import (
    E_,
    IllegalAction,
    MalformedAction,
    NotYourDecision,
    Phrase,
    SettingsError,
    UnknownActionId,
)
from parlor.core.game import Decision, Event, Game, Outcome
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
from parlor.tools.cards import (
    COLORED_TYPES,
    TYPE_NAMES,
    WILD_TYPES,
    Deck,
    resolve_deck,
    shuffle,
)
from parlor.tools.constraints import HandConstraint
from parlor.tools.options import ToolsOptions

MIN_PLAYERS, MAX_PLAYERS = 2, 10
_ACTION_CLASSES = frozenset(ACTION_TYPES.values())

# Phases: what the current player must decide.
PLAY, DRAWN, COLOR, FOLLOW, BOX, OVER = range(6)
PHASE_NAMES = ("play", "drawn_card", "choose_color", "brush_second_card", "box_of_nails", "over")

# Type numbers (index into COLORED_TYPES + WILD_TYPES).
T_HAMMER, T_GOOD, T_BENT, T_FINGER, T_REVERSE, T_BOX, T_TOOLBOX, T_WHAMMER, T_BRUSH = range(9)
ALL_TYPES = (*COLORED_TYPES, *WILD_TYPES)
_NO_CODES: frozenset[str] = frozenset()


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
        self.ktype = [ALL_TYPES.index(deck.kind_type(k)) for k in range(K)]
        self.kcolor = [-1 if (c := deck.kind_color(k)) is None else c for k in range(K)]
        self.hammer_kind = [deck.kind_of("hammer", c) for c in range(C)]
        self.box_kinds = [deck.kind_of("box_of_nails", c) for c in range(C)]
        self.free_ctx = K + C
        self.bind_ctx = [K + c for c in range(C)]
        self.follow_ctx = [K + C + 1 + c for c in range(C)]
        self.color_kinds = [[k for k in range(K) if self.kcolor[k] == c] for c in range(C)]
        self.wild_hammer = deck.kind_of("wild_hammer")
        table: list[list[bool]] = []
        for ctx in range(K + 2 * C + 1):
            table.append([self._playable(ctx, k, options) for k in range(K)])
        self.playable = table
        # Kinds that are playable in each context, for fast legal-action generation.
        self.playable_kinds = [[k for k in range(K) if row[k]] for row in table]
        codes = deck.codes
        # The same as code sets, for playable_cards() (frozensets: callers may keep them).
        self.playable_codes = [frozenset(codes[k] for k in kinds) for kinds in self.playable_kinds]
        self.box_codes = frozenset(codes[k] for k in self.box_kinds)
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
        self.kind_by_code = {code: k for k, code in enumerate(codes)}
        self.codes = codes
        self.color_by_name = {c: i for i, c in enumerate(colors)}

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


class ToolsGame(Game[ToolsAction]):
    """A game of TOOLS. Create one with :func:`parlor.tools.new_game`.

    Seats are numbered clockwise from 0; the dealer is the last seat, so seat 0 (on the dealer's
    left) starts.
    """

    game_name: ClassVar[str] = "tools"
    action_types: ClassVar[Mapping[str, type]] = ACTION_TYPES

    def __init__(
        self,
        players: int | Sequence[str] = 4,
        seed: int = 0,
        deck: Deck | Mapping[str, Any] | str | Any = None,
        options: ToolsOptions | Mapping[str, Any] | None = None,
    ) -> None:
        if isinstance(players, bool) or not isinstance(players, int | list | tuple):
            raise SettingsError(E_("players must be a count (2-10) or a list of names"))
        names = self._players_from(players)
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise SettingsError(
                E_(
                    "TOOLS needs {least}-{most} players, not {count}",
                    least=MIN_PLAYERS,
                    most=MAX_PLAYERS,
                    count=len(names),
                )
            )
        seed = self._seed_from(seed)
        self.deck = resolve_deck(deck)
        if options is None:
            self.options = _DEFAULT_OPTIONS
        elif isinstance(options, ToolsOptions):
            self.options = options
        else:
            self.options = ToolsOptions.from_dict(options)
        n = len(names)
        facts = _deck_facts(self.deck)
        if facts.size < self.options.hand_size * n + 1:
            raise SettingsError(
                E_(
                    "deck {name} has {size} cards: too few to deal {hand_size} to {count} players "
                    "and turn one up",
                    name=repr(self.deck.name),
                    size=facts.size,
                    hand_size=self.options.hand_size,
                    count=n,
                )
            )
        if facts.base == 0:  # parse_deck already refuses this; a Deck built by hand might not
            raise SettingsError(
                E_("the deck needs at least one base card to start the discard pile")
            )
        self.names = names
        deck_data = facts.data
        self.settings = {
            "players": list(names),
            # Fresh copies of what is computed once per deck and options: callers may edit them.
            "deck": {
                "name": deck_data["name"],
                "colors": list(deck_data["colors"]),
                "exact": dict(deck_data["exact"]),
            },
            "options": dict(_options_data(self.options)),
        }
        self.seed = seed
        self.log = []
        self._t = _tables(self.deck, self.options, n)
        self._n = n
        self.rng = random.Random(seed)
        self._setup()

    # ----- setup ----------
    def _setup(self) -> None:
        t = self._t
        K = t.K
        n = self._n
        hand_size = self.options.hand_size
        while True:
            cards = list(_deck_facts(self.deck).cards)
            shuffle(self.rng, cards)
            hands = [[0] * K for _ in range(n)]
            for _ in range(hand_size):
                for p in range(n):
                    hands[p][cards.pop()] += 1
            if any(t.ktype[k] <= T_BENT for k in cards):
                break
            # No base card is left to start the discard pile: deal again.
        # "Si la primera carta es una carta de acción o comodín, vuelve a barajar y revela una
        # nueva carta base."
        while t.ktype[cards[-1]] > T_BENT:
            shuffle(self.rng, cards)
        top = cards.pop()
        self.hands = hands
        self.sizes = [hand_size] * n
        self.draw_pile: list[int] = cards
        self.discard: list[int] = [top]
        self.ctx = top
        self.color: int | None = t.kcolor[top]
        self.direction = 1
        self.current = 0  # "El jugador a la izquierda del repartidor comienza la partida."
        self.phase = PLAY
        self.drawn = -1
        self.box_penalty = 0
        self.turn = 0
        self.idle = 0
        self._moved = False
        self._outcome: Outcome | None = None

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any], seed: int) -> Self:
        try:
            players = settings["players"]
        except (KeyError, TypeError) as exc:
            raise SettingsError(E_("TOOLS settings need 'players'")) from exc
        deck = settings.get("deck")
        if deck is not None and not isinstance(deck, Mapping):  # (a path would open a file)
            raise SettingsError(E_("the saved deck is a table of the deck's cards"))
        return cls(players, seed, deck, settings.get("options"))

    # ----- the protocol: who decides what ----------
    @property
    def num_players(self) -> int:
        return self._n

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def pending(self) -> Decision | None:
        """The pending decision as everybody may see it: no private detail of the decider's.

        The decider's own view, with the card just drawn and the good-nail penalty it faces,
        comes from :meth:`pending_for`.
        """
        return self.pending_for(None)

    def pending_for(self, player: int | None) -> Decision | None:
        """The pending decision as ``player`` may see it (``None``: a spectator).

        Only the decider learns the card it just drew (``info["drawn"]``) and, on a good nail it
        cannot repair, which penalty it faces (``info["good_nail_penalty"]``: that would tell what
        its hand lacks).

        >>> import random
        >>> from parlor import tools
        >>> game, rng = tools.new_game(2, seed=0), random.Random(0)
        >>> while game.pending.kind != "drawn_card":
        ...     _ = game.apply(rng.choice(game.legal_actions(game.pending.player)))
        >>> p = game.pending.player
        >>> game.pending_for(p).info["drawn"], "drawn" in game.pending_for(1 - p).info
        ('good_nail:blue', False)
        >>> game.pending == game.pending_for(1 - p) == game.pending_for(None)
        True
        """
        self.check_query(player)
        phase = self.phase
        if phase == OVER:
            return None
        info: dict[str, Any] = {"top": self.deck.code(self.discard[-1])}
        if self.color is not None:
            info["color"] = self.deck.colors[self.color]
        mine = player == self.current
        if phase == DRAWN:
            if mine:
                info["drawn"] = self.deck.code(self.drawn)
        elif phase == BOX:
            info["penalty"] = self.box_penalty
        elif mine and phase == PLAY and self._on_good_nail() and not self._has_play(self.current):
            hammers = self._hammer_count(self.current)
            info["good_nail_penalty"] = "two_hammers" if hammers >= 2 else "draw_two"
        return Decision(self.current, PHASE_NAMES[phase], info)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """Every hand's size by seat: public, and much cheaper than ``view(p)["hand_sizes"]``."""
        return tuple(self.sizes)

    def playable_cards(self) -> frozenset[str]:
        """The card codes the deciding player could play now, whatever its hand holds.

        Public information only (the top card, a named color): in a normal turn and for the
        paint brush's second card, the codes playable in the current context; while a box of
        nails is pending, the box-of-nails codes; otherwise (a drawn card, a color to choose, the
        game over) none. The legal ``PlayCard`` actions are exactly these codes that are in hand.

        >>> from parlor import tools
        >>> game = tools.new_game(2, seed=1)
        >>> game.pending.info["top"]  # on a bent nail: any hammer, a blue action card, a wild
        'bent_nail:blue'
        >>> sorted(c for c in game.playable_cards() if not c.startswith("hammer:"))
        ['box_of_nails:blue', 'paint_brush', 'reverse:blue', 'smashed_finger:blue', 'toolbox', 'wild_hammer']
        >>> "bent_nail:blue" in game.playable_cards(), "hammer:red" in game.playable_cards()
        (False, True)
        """
        phase = self.phase
        if phase in (PLAY, FOLLOW):
            return self._t.playable_codes[self.ctx]
        if phase == BOX:
            return self._t.box_codes
        return _NO_CODES

    def _on_good_nail(self) -> bool:
        return self.ctx < self._t.K and self._t.ktype[self.ctx] == T_GOOD

    def _has_play(self, p: int) -> bool:
        hand = self.hands[p]
        for k in self._t.playable_kinds[self.ctx]:  # noqa: SIM110 (cheaper than any() on a generator)
            if hand[k]:
                return True
        return False

    def _hammer_count(self, p: int) -> int:
        hand = self.hands[p]
        return sum(hand[k] for k in self._t.hammer_kind)

    # ----- legal actions ----------
    def legal_actions(
        self, player: int | None = None, *, anytime: bool = True
    ) -> list[ToolsAction]:
        """``player``'s legal actions: the decider's, for everybody else none (TOOLS has no "any
        time" actions, so ``anytime`` changes nothing).

        The decider's list shows its hand, so the player must be named: ``legal_actions()``
        without one raises :class:`MalformedAction` rather than answer for whoever decides.
        """
        if not (type(player) is int and 0 <= player < self._n and type(anytime) is bool):
            self.check_query(player, anytime)  # (raises unless player is None)
        p = self.current
        if type(player) is not int or player != p:  # (the decider is a valid seat already)
            if player is None:
                raise MalformedAction(
                    E_(
                        "TOOLS actions show the decider's hand: name the player, "
                        "e.g. legal_actions(game.pending.player)"
                    )
                )
            self.check_query(player)
            return []
        phase = self.phase
        if phase == OVER:
            return []
        t = self._t
        hand = self.hands[p]
        if phase == PLAY:
            plays = t.play[p]
            out: list[ToolsAction] = [plays[k] for k in t.playable_kinds[self.ctx] if hand[k]]
            ctx = self.ctx
            if ctx < t.K and t.ktype[ctx] == T_GOOD:
                if not out:
                    out = self._penalty_actions(p)
            elif not out or self.options.may_draw_when_able:
                out.append(t.draw[p])
            return out
        if phase == BOX:
            out = [t.play[p][k] for k in t.box_kinds if hand[k]]
            out.append(t.accept[p])
            return out
        if phase == DRAWN:
            if t.playable[self.ctx][self.drawn]:
                return [t.play_drawn[p], t.keep[p]]
            return [t.keep[p]]  # (asked only under ask_after_every_draw)
        if phase == COLOR:
            return list(t.choose[p])
        # FOLLOW
        out = [t.play[p][k] for k in t.playable_kinds[self.ctx] if hand[k]]
        out.append(t.end[p])
        return out

    def _penalty_actions(self, p: int) -> list[ToolsAction]:
        t = self._t
        hand = self.hands[p]
        held = [c for c in range(t.C) if hand[t.hammer_kind[c]]]
        pairs: list[ToolsAction] = [
            t.penalty[p][a][b] for a in held for b in held if a != b or hand[t.hammer_kind[a]] >= 2
        ]
        return pairs or [t.accept[p]]

    # ----- validation ----------
    def _name(self, p: int) -> str:
        return self.names[p]

    # Cards and colours in rule messages: English, and any language's words on request.
    def _card(self, k: int) -> str:
        from parlor.tools import text

        code = self.deck.code(k)
        return Phrase(self.deck.card_name(k), partial(text.card_name, self, code))

    def _color(self, color: str) -> str:
        from parlor.tools import text

        return Phrase(color, partial(text.color_name, self, color))

    def _cards(self, kinds: list[int]) -> str:
        from parlor.tools import text

        codes = [self.deck.code(k) for k in kinds]
        english = ", ".join(self.deck.card_name(k) for k in kinds)
        return Phrase(english, lambda lang: ", ".join(text.card_name(self, c, lang) for c in codes))

    def _check(self, action: ToolsAction) -> None:
        p = action.player  # (a seat: apply and is_legal have validated the fields)
        if p != self.current:
            raise NotYourDecision(
                E_(
                    "it is {current}'s turn ({phase}), not {who}'s",
                    current=self._name(self.current),
                    phase=PHASE_NAMES[self.phase],
                    who=self._name(p),
                )
            )
        t = self._t
        phase = self.phase
        hand = self.hands[p]
        kind = type(action)
        if kind is PlayCard:
            code = action.card  # type: ignore[union-attr]
            k = t.kind_by_code.get(code) if type(code) is str else None
            if k is None:
                raise MalformedAction(
                    E_(
                        "unknown card {code}: cards are named like 'hammer:red', 'good_nail:{color}' "
                        "or 'toolbox'",
                        code=repr(code),
                        color=self.deck.colors[0],
                    )
                )
            if not hand[k]:
                raise IllegalAction(
                    E_("{who} has no {card} in hand", who=self._name(p), card=self._card(k))
                )
            if phase == PLAY:
                if not t.playable[self.ctx][k]:
                    raise IllegalAction(
                        E_(
                            "you cannot play a {card} now: {rule}",
                            card=self._card(k),
                            rule=self._why(),
                        )
                    )
            elif phase == BOX:
                if t.ktype[k] != T_BOX:
                    raise IllegalAction(
                        E_(
                            "a box of nails is pending: answer with another box of nails or take the "
                            "{count} cards (AcceptPenalty)",
                            count=self.box_penalty,
                        )
                    )
            elif phase == FOLLOW:
                if not t.playable[self.ctx][k]:
                    color = self.deck.colors[self.color or 0]
                    raise IllegalAction(
                        E_(
                            "after the paint brush only a {color} card may follow now, or end the turn "
                            "(EndTurn)",
                            color=self._color(color),
                        )
                    )
            else:
                raise IllegalAction(self._phase_hint())
            return
        if kind is Draw:
            if phase != PLAY:
                raise IllegalAction(self._phase_hint())
            if self._on_good_nail():
                raise IllegalAction(
                    E_(
                        "{rule}; without one you take the good-nail penalty instead of drawing",
                        rule=self._why(),
                    )
                )
            if not self.options.may_draw_when_able and self._has_play(p):
                playable = self._cards([k for k in t.playable_kinds[self.ctx] if hand[k]])
                raise IllegalAction(
                    E_(
                        "you may draw only when you have no card to play; you can play: {playable}",
                        playable=playable,
                    )
                )
            return
        if kind is PlayDrawn or kind is KeepDrawn:
            if phase != DRAWN:
                raise IllegalAction(
                    E_("you have not just drawn a playable card; {hint}", hint=self._phase_hint())
                )
            if kind is PlayDrawn and not t.playable[self.ctx][self.drawn]:
                raise IllegalAction(
                    E_(
                        "the {card} you drew cannot be played here; keep it",
                        card=self._card(self.drawn),
                    )
                )
            return
        if kind is ChooseColor:
            color = action.color  # type: ignore[union-attr]
            if not isinstance(color, str) or color not in t.color_by_name:
                raise MalformedAction(
                    E_(
                        "unknown color {color}; the colors are {choices}",
                        color=repr(color),
                        choices=", ".join(self.deck.colors),
                    )
                )
            if phase != COLOR:
                raise IllegalAction(
                    E_("there is no color to choose now; {hint}", hint=self._phase_hint())
                )
            return
        if kind is PenaltyHammers:
            a, b = action.first, action.second  # type: ignore[union-attr]
            for color in (a, b):
                if not isinstance(color, str) or color not in t.color_by_name:
                    raise MalformedAction(
                        E_(
                            "unknown color {color}; the colors are {choices}",
                            color=repr(color),
                            choices=", ".join(self.deck.colors),
                        )
                    )
            if phase != PLAY or not self._on_good_nail():
                raise IllegalAction(E_("the two-hammer penalty applies only to a good nail on top"))
            if self._has_play(p):
                raise IllegalAction(
                    E_(
                        "you can repair the good nail, so there is no penalty: {rule}",
                        rule=self._why(),
                    )
                )
            ka, kb = t.hammer_kind[t.color_by_name[a]], t.hammer_kind[t.color_by_name[b]]
            need = 2 if ka == kb else 1
            if hand[ka] < need or hand[kb] < 1:
                which = (
                    E_("two {color} hammers", color=self._color(a))
                    if ka == kb
                    else E_(
                        "a {first} hammer and a {second} hammer",
                        first=self._color(a),
                        second=self._color(b),
                    )
                )
                raise IllegalAction(
                    E_("{who} does not hold {which}", who=self._name(p), which=which)
                )
            return
        if kind is AcceptPenalty:
            if phase == BOX:
                return
            if phase == PLAY and self._on_good_nail() and not self._has_play(p):
                if self._hammer_count(p) >= 2:
                    raise IllegalAction(
                        E_(
                            "you hold two hammers, so the good-nail penalty is to play two hammers and draw 3 "
                            "(PenaltyHammers), not to draw 2"
                        )
                    )
                return
            raise IllegalAction(E_("there is no penalty to take; {hint}", hint=self._phase_hint()))
        if kind is EndTurn:
            if phase != FOLLOW:
                raise IllegalAction(
                    E_(
                        "you can end the turn this way only after a paint brush; {hint}",
                        hint=self._phase_hint(),
                    )
                )
            return
        raise MalformedAction(E_("{action} is not a TOOLS action", action=repr(action)))

    def _why(self) -> str:
        """The rule in force for the next card, in words."""
        t = self._t
        ctx = self.ctx
        colors = self.deck.colors
        if ctx == t.free_ctx:
            return E_("a wild is on top, so any card may be played")
        if ctx >= t.K + t.C + 1:
            return E_(
                "the paint brush's second card must be {color}",
                color=self._color(colors[ctx - t.K - t.C - 1]),
            )
        if ctx >= t.K:
            c = self._color(colors[ctx - t.K])
            return E_("the paint brush named {color}: play a {color} card or a wild", color=c)
        tt, c = t.ktype[ctx], self._color(colors[t.kcolor[ctx]])
        if tt == T_HAMMER:
            return E_(
                "on a {color} hammer you may play any hammer, a {color} nail, a {color} action card, "
                "or a wild",
                color=c,
            )
        if tt == T_GOOD:
            wilds = E_("a wild") if self.options.any_wild_on_good_nail else E_("the wild hammer")
            return E_(
                "a {color} good nail is on top: only a {color} hammer (or {wilds}) may be played",
                color=c,
                wilds=wilds,
            )
        if tt == T_BENT:
            return E_(
                "on a {color} bent nail you may play any hammer, a {color} action card, or a wild",
                color=c,
            )
        return E_(
            "on a {card} you may play any {color} card, another {kind}, or a wild",
            card=self._card(ctx),
            color=c,
            kind=TYPE_NAMES[ALL_TYPES[tt]],
        )

    def _phase_hint(self) -> str:
        phase = self.phase
        if phase == DRAWN:
            if not self._t.playable[self.ctx][self.drawn]:
                return E_(
                    "you drew a {card}, which cannot be played: keep it",
                    card=self._card(self.drawn),
                )
            return E_(
                "you drew a {card}: play it (PlayDrawn) or keep it (KeepDrawn)",
                card=self._card(self.drawn),
            )
        if phase == COLOR:
            return E_("choose a color for the paint brush first (ChooseColor)")
        if phase == BOX:
            return E_(
                "a box of nails is pending: play a box of nails or take the {count} cards "
                "(AcceptPenalty)",
                count=self.box_penalty,
            )
        if phase == FOLLOW:
            return E_("play a second card of the color you named, or end the turn (EndTurn)")
        return E_("it is a normal turn: play a card (PlayCard) or, with no card to play, draw")

    # ----- execution ----------
    def _execute(self, action: ToolsAction) -> list[Event]:
        events: list[Event] = []
        p = action.player
        t = self._t
        kind = type(action)
        if kind is PlayCard:
            k = t.kind_by_code[action.card]  # type: ignore[union-attr]
            self._play(p, k, events)
        elif kind is Draw:
            got = self._draw(p, 1, events)
            opts = self.options
            if (
                got
                and opts.may_play_drawn
                and (opts.ask_after_every_draw or t.playable[self.ctx][got[0]])
            ):
                self.phase = DRAWN
                self.drawn = got[0]
            else:
                self._next(0, events)
        elif kind is PlayDrawn:
            k = self.drawn
            self.drawn = -1
            self._play(p, k, events)
        elif kind is KeepDrawn:
            self.drawn = -1
            self._next(0, events)
        elif kind is ChooseColor:
            c = t.color_by_name[action.color]  # type: ignore[union-attr]
            self.color = c
            events.append(Event("color", {"player": p, "color": action.color}))  # type: ignore[union-attr]
            hand = self.hands[p]
            if any(hand[k] for k in t.color_kinds[c]):
                self.phase = FOLLOW
                self.ctx = t.follow_ctx[c]
            else:
                self.ctx = t.bind_ctx[c] if self.options.brush_color_binds else t.free_ctx
                self._next(0, events)
        elif kind is EndTurn:
            c = self.color if self.color is not None else 0
            self.ctx = t.bind_ctx[c] if self.options.brush_color_binds else t.free_ctx
            self._next(0, events)
        elif kind is PenaltyHammers:
            hand = self.hands[p]
            for color in (action.first, action.second):  # type: ignore[union-attr]
                k = t.hammer_kind[t.color_by_name[color]]
                hand[k] -= 1
                self.sizes[p] -= 1
                self.discard.append(k)
                events.append(Event("play", {"player": p, "card": self.deck.code(k)}))
            self.ctx = k
            self.color = t.kcolor[k]
            self._moved = True
            if self.sizes[p] == 0 and self.options.penalty_hammers_can_win:
                self._finish(p, "empty hand", events)
                return events
            self._draw(p, 3, events)
            if self.sizes[p] == 0:
                self._finish(p, "empty hand", events)
                return events
            self._next(0, events)
        elif kind is AcceptPenalty:
            if self.phase == BOX:
                owed = self.box_penalty
                self.box_penalty = 0
                self._draw(p, owed, events)
            else:  # the good-nail penalty without two hammers: draw 2 and lose the turn
                self._draw(p, 2, events)
            self._next(0, events)
        return events

    def _play(self, p: int, k: int, events: list[Event]) -> None:
        t = self._t
        hand = self.hands[p]
        hand[k] -= 1
        self.sizes[p] -= 1
        self.discard.append(k)
        self._moved = True
        events.append(Event("play", {"player": p, "card": t.codes[k]}))
        if self.sizes[p] == 0:
            # "La partida termina inmediatamente cuando un jugador logra quedarse sin cartas"
            self._finish(p, "empty hand", events)
            return
        tt = t.ktype[k]
        if tt <= T_BENT:
            self.ctx = k
            self.color = t.kcolor[k]
            self._next(0, events)
        elif tt == T_FINGER:
            self.ctx = k
            self.color = t.kcolor[k]
            self._next(1, events)
        elif tt == T_REVERSE:
            self.ctx = k
            self.color = t.kcolor[k]
            self.direction = -self.direction
            events.append(Event("reverse", {"direction": self.direction}))
            skip = 1 if self._n == 2 and self.options.two_player_reverse_skips else 0
            self._next(skip, events)
        elif tt == T_BOX:
            self.ctx = k
            self.color = t.kcolor[k]
            if self.options.box_stacking:
                self.box_penalty += 2
                self._next(0, events)
            else:
                victim = (p + self.direction) % self._n
                self._draw(victim, 2, events)
                self._next(1, events)
        elif tt == T_TOOLBOX:
            self.ctx = t.free_ctx
            self.color = None
            victim = (p + self.direction) % self._n
            self._draw(victim, 4, events)
            self._next(1, events)
        elif tt == T_WHAMMER:
            self.ctx = t.free_ctx
            self.color = None
            self._next(0, events)
        else:  # paint brush: the same player names a color next
            self.ctx = t.free_ctx
            self.color = None
            self.phase = COLOR

    def _draw(self, p: int, count: int, events: list[Event]) -> list[int]:
        """Draw up to ``count`` cards for ``p``, reshuffling the discard pile when needed."""
        got: list[int] = []
        pile = self.draw_pile
        hand = self.hands[p]
        for _ in range(count):
            if not pile:
                if len(self.discard) <= 1:
                    break
                # "todas las cartas de la pila de descarte, excepto la carta superior, se
                # mezclan nuevamente para crear una nueva pila de robo"
                pile = self.discard[:-1]
                self.discard = self.discard[-1:]
                shuffle(self.rng, pile)
                self.draw_pile = pile
                events.append(Event("reshuffle", {"draw_pile": len(pile)}))
            k = pile.pop()
            hand[k] += 1
            got.append(k)
        if got:
            self.sizes[p] += len(got)
            self._moved = True
        events.append(Event("draw", {"player": p, "count": len(got)}))
        return got

    def _next(self, skip: int, events: list[Event]) -> None:
        """End the turn: move ``1 + skip`` seats in the current direction."""
        n = self._n
        if skip:
            skipped = (self.current + self.direction) % n
            events.append(Event("skip", {"player": skipped}))
        if self._moved:
            self.idle = 0
            self._moved = False
        elif self._has_play(self.current):
            # Nothing moved, but only by choice (an optional draw from empty piles, or taking a
            # penalty of 0 cards while holding a box): the position is not stuck.
            self.idle = 0
        else:
            self.idle += 1
        self.current = (self.current + self.direction * (1 + skip)) % n
        self.phase = BOX if self.box_penalty else PLAY
        self.turn += 1
        if self.idle >= n:  # a whole round in which nobody could move a card: nobody ever will
            self._finish(None, "blocked", events)
            return
        if self.options.max_turns and self.turn >= self.options.max_turns:
            self._finish(None, "turn limit", events)

    def _finish(self, winner: int | None, reason: str, events: list[Event]) -> None:
        self.phase = OVER
        sizes = self.sizes
        if winner is None:
            best = min(sizes)
            winners = tuple(p for p in range(self._n) if sizes[p] == best)
        else:
            winners = (winner,)
        ranking = tuple(sorted(range(self._n), key=lambda q: (q not in winners, sizes[q], q)))
        self._outcome = Outcome(winners, reason, ranking, tuple(float(s) for s in sizes))
        events.append(Event("game_over", {"winners": list(winners), "reason": reason}))

    # ----- views and snapshots ----------
    def _hand_codes(self, p: int) -> list[str]:
        codes = self.deck.codes
        return [codes[k] for k, cnt in enumerate(self.hands[p]) for _ in range(cnt)]

    def view(self, player: int | None = None) -> dict[str, Any]:
        """What ``player`` may see: own hand, others' hand sizes, the face-up pile, pile sizes.

        Never another hand nor the draw pile's order; the pending decision's private details
        (the card just drawn) only to the player deciding.
        """
        self.check_query(player)
        codes = self.deck.codes
        pending = self.pending_for(player)
        view: dict[str, Any] = {
            "game": "tools",
            "player": player,
            "names": list(self.names),
            "hand_sizes": list(self.sizes),
            "top": codes[self.discard[-1]],
            "discard": [codes[k] for k in self.discard],
            "draw_pile": len(self.draw_pile),
            "color": None if self.color is None else self.deck.colors[self.color],
            "direction": "clockwise" if self.direction == 1 else "counterclockwise",
            "current": self.current,
            "box_penalty": self.box_penalty,
            "turn": self.turn,
            "pending": None,
            "outcome": None,
        }
        if player is not None:
            view["hand"] = self._hand_codes(player)
        if pending is not None:
            view["pending"] = {
                "player": pending.player,
                "kind": pending.kind,
                "info": dict(pending.info),
            }
        if self._outcome is not None:
            o = self._outcome
            view["outcome"] = {
                "winners": list(o.winners),
                "reason": o.reason,
                "ranking": list(o.ranking),
                "cards_left": [int(s) for s in o.scores],
            }
        return view

    def snapshot(self) -> dict[str, Any]:
        codes = self.deck.codes
        o = self._outcome
        return {
            "players": list(self.names),  # (what makes the game, so that a save's check covers it)
            "options": self.options.to_dict(),
            "deck": self.deck.to_dict(),
            "hands": [self._hand_codes(p) for p in range(self._n)],
            "draw_pile": [codes[k] for k in self.draw_pile],
            "discard": [codes[k] for k in self.discard],
            "context": self.ctx,
            "color": self.color,
            "direction": self.direction,
            "current": self.current,
            "phase": PHASE_NAMES[self.phase],
            "drawn": None if self.drawn < 0 else codes[self.drawn],
            "box_penalty": self.box_penalty,
            "turn": self.turn,
            "idle": self.idle,
            "outcome": None
            if o is None
            else {"winners": list(o.winners), "reason": o.reason, "ranking": list(o.ranking)},
            "rng": hashlib.sha256(repr(self.rng.getstate()).encode()).hexdigest()[:16],
        }

    # ----- action ids ----------
    @property
    def num_actions(self) -> int:
        t = self._t
        return t.K + 5 + t.C + t.C * t.C

    def action_id(self, action: ToolsAction) -> int:
        """Stable ids: ``0..K-1`` play a card kind (type-major, then color; wilds last); then Draw,
        PlayDrawn, KeepDrawn, AcceptPenalty, EndTurn; then ChooseColor per color; then
        PenaltyHammers per (first, second) color pair."""
        self.validate_action(action)
        t = self._t
        K = t.K
        kind = type(action)
        try:
            if kind is PlayCard:
                return t.kind_by_code[action.card]  # type: ignore[union-attr]
            if kind is Draw:
                return K
            if kind is PlayDrawn:
                return K + 1
            if kind is KeepDrawn:
                return K + 2
            if kind is AcceptPenalty:
                return K + 3
            if kind is EndTurn:
                return K + 4
            if kind is ChooseColor:
                return K + 5 + t.color_by_name[action.color]  # type: ignore[union-attr]
            if kind is PenaltyHammers:
                a = t.color_by_name[action.first]  # type: ignore[union-attr]
                b = t.color_by_name[action.second]  # type: ignore[union-attr]
                return K + 5 + t.C + a * t.C + b
        except (KeyError, TypeError) as exc:
            raise UnknownActionId(
                E_("{action} has no action id: {reason}", action=repr(action), reason=str(exc))
            ) from exc
        raise UnknownActionId(E_("{action} is not a TOOLS action", action=repr(action)))

    def action_from_id(self, action_id: int, player: int) -> ToolsAction:
        self.check_action_id(action_id, player)
        t = self._t
        K, C = t.K, t.C
        if 0 <= action_id < K:
            return t.play[player][action_id]
        simple: list[Sequence[ToolsAction]] = [t.draw, t.play_drawn, t.keep, t.accept, t.end]
        if K <= action_id < K + 5:
            return simple[action_id - K][player]
        i = action_id - (K + 5)
        if 0 <= i < C:
            return t.choose[player][i]
        i -= C
        if 0 <= i < C * C:
            return t.penalty[player][i // C][i % C]
        raise UnknownActionId(
            E_(
                "action id {value} is outside 0..{last}",
                value=action_id,
                last=self.num_actions - 1,
            )
        )

    # ----- cloning and determinization ----------
    def clone(self) -> Self:
        """A deep, independent copy (much faster than ``copy.deepcopy``)."""
        g = object.__new__(type(self))
        g.__dict__.update(self.__dict__)  # immutable parts: deck, options, tables, names, outcome
        g.settings = self.settings  # never mutated after creation
        g.log = list(self.log)
        g.hands = [list(h) for h in self.hands]
        g.sizes = list(self.sizes)
        g.draw_pile = list(self.draw_pile)
        g.discard = list(self.discard)
        g.rng = random.Random()
        g.rng.setstate(self.rng.getstate())
        return g

    def determinize(
        self,
        player: int,
        seed: int,
        constraints: Mapping[int, Sequence[HandConstraint]] | None = None,
    ) -> Self:
        """A clone in which everything ``player`` cannot see is resampled from ``seed``.

        Other hands and the draw pile are redealt from the same cards keeping every size; if
        another player is deciding about a drawn card, that card is resampled among the hidden
        cards that are playable (the only thing the decision reveals about it). The clone's own
        random generator is reseeded too, so future reshuffles are unknown as well. The clone is
        for search: its log no longer replays to its state.

        ``constraints`` maps seats to what is known about their hands (see
        :class:`~parlor.tools.HandConstraint`). After the uniform redeal, each constrained hand is
        redealt from itself plus the draw pile: first the constrained cards, the constraint with
        the smallest count first (the oldest: its cards are also under the newer ones), each
        from the kinds that no constraint covering it excludes; then the rest uniformly; the
        remainder, shuffled, is the draw pile. ``player``'s own constraints are ignored, and so
        are those of a player deciding about a drawn card (its hand is left as dealt). When the
        constraints cannot all be met (the unseen cards do not hold enough allowed ones), as many
        allowed cards as exist are taken and the rest is dealt uniformly. When no constraint
        applies (``None``, empty, or only ignored ones), the result is the unconstrained one for
        the same seed, draw for draw.

        >>> from parlor import tools
        >>> game = tools.new_game(2, seed=1)
        >>> no_hammer = tools.HandConstraint(frozenset(game.deck.codes[:4]), 7)  # the 4 hammers
        >>> sim = game.determinize(0, seed=5, constraints={1: [no_hammer]})
        >>> sim.hand_sizes == game.hand_sizes
        True
        >>> [c for c in sim.snapshot()["hands"][1] if c.startswith("hammer:")]
        []
        """
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self._n:
            raise MalformedAction(
                E_(
                    "player must be a seat number 0..{last}, not {value}",
                    last=self._n - 1,
                    value=repr(player),
                )
            )
        wanted = self._constraint_rows(constraints) if constraints else None
        g = self.clone()
        rng = random.Random(seed)
        K = self._t.K
        # The unseen cards as a multiset, in card order: what the shuffle draws from must not
        # depend on where they truly lie, or whoever picks the seed could undo the shuffle.
        unseen = [0] * K
        for k in g.draw_pile:
            unseen[k] += 1
        others = [q for q in range(self._n) if q != player]
        for q in others:
            hand = g.hands[q]
            for k in range(K):
                unseen[k] += hand[k]
            g.hands[q] = [0] * K
        pool = [k for k in range(K) for _ in range(unseen[k])]
        rng.shuffle(pool)
        if g.phase == DRAWN and g.current != player:
            row = self._t.playable[g.ctx]
            if self.options.ask_after_every_draw:  # (the decision says nothing of the card)
                row = [True] * K
            candidates = [i for i, k in enumerate(pool) if row[k]]
            i = rng.choice(candidates)
            g.drawn = pool.pop(i)
            g.hands[g.current][g.drawn] += 1
            need = {q: g.sizes[q] - (1 if q == g.current else 0) for q in others}
        else:
            need = {q: g.sizes[q] for q in others}
        for q in others:
            hand = g.hands[q]
            for _ in range(need[q]):
                hand[pool.pop()] += 1
        g.draw_pile = pool
        g.rng = random.Random(rng.getrandbits(64))
        if wanted:  # (after the uniform redeal, so that it draws the same numbers as before)
            g._redeal_constrained(player, wanted, rng)
        return g

    def _constraint_rows(
        self, constraints: Mapping[int, Sequence[HandConstraint]]
    ) -> list[tuple[int, list[tuple[int, frozenset[int]]]]]:
        """Validate ``constraints``; per seat, ``(count, excluded kinds)`` by increasing count,
        without those that constrain nothing."""
        if not isinstance(constraints, Mapping):
            raise MalformedAction(
                E_(
                    "constraints map seats to HandConstraints, not {value}",
                    value=repr(constraints),
                )
            )
        n = self._n
        kinds_of = self._t.kinds_of
        out: list[tuple[int, list[tuple[int, frozenset[int]]]]] = []
        for q, cons in constraints.items():
            if type(q) is not int or not 0 <= q < n:
                raise MalformedAction(
                    E_(
                        "constraints are keyed by seat numbers 0..{last}, not {value}",
                        last=n - 1,
                        value=repr(q),
                    )
                )
            rows: list[tuple[int, frozenset[int]]] = []
            for c in cons:
                if not isinstance(c, HandConstraint):
                    raise MalformedAction(
                        E_("expected a HandConstraint, not {value}", value=repr(c))
                    )
                kinds = kinds_of(c.excluded)
                if c.count and kinds:
                    rows.append((c.count, kinds))
            if rows:
                rows.sort(key=lambda row: row[0])  # (stable: equal counts keep the caller's order)
                out.append((q, rows))
        return out

    def _redeal_constrained(
        self,
        player: int,
        wanted: list[tuple[int, list[tuple[int, frozenset[int]]]]],
        rng: random.Random,
    ) -> None:
        """Redeal each constrained hand of this determinized copy; see :meth:`determinize`."""
        K = self._t.K
        for q, rows in wanted:
            if q == player or (self.phase == DRAWN and self.current == q):
                continue
            hand = self.hands[q]
            size = self.sizes[q]
            pool = self.draw_pile
            for k in range(K):
                if hand[k]:
                    pool += [k] * hand[k]
            new = [0] * K
            taken = 0
            last = len(rows) - 1
            for i, (count, _) in enumerate(rows):
                want = min(count, size) - taken
                if want <= 0:
                    continue
                # These cards are under this constraint and every later (larger) one.
                banned = rows[i][1] if i == last else frozenset().union(*(r[1] for r in rows[i:]))
                picks = [j for j, k in enumerate(pool) if k not in banned]
                if len(picks) > want:
                    picks = rng.sample(picks, want)
                    picks.sort(reverse=True)
                else:  # too few allowed cards (inconsistent constraints): take them all
                    picks.reverse()
                for j in picks:  # (descending, so that each pop leaves the others in place)
                    new[pool.pop(j)] += 1
                taken += len(picks)
            rng.shuffle(pool)
            for _ in range(size - taken):  # (the pool holds the whole hand, so it never runs out)
                new[pool.pop()] += 1
            self.hands[q] = new

    def card_name(self, code: str) -> str:
        """A readable name for a card code: ``"hammer:red"`` -> ``"red hammer"``."""
        return self.deck.card_name(self._t.kind_by_code[code])

    def describe(self, action: ToolsAction, lang: str | None = None) -> str:
        """An action in words, with the player's name: ``"Ana plays a red hammer"``."""
        from parlor.tools import text

        self.validate_action(action)
        return text.describe_action(self, action, lang)

    def describe_event(self, event: Event, lang: str | None = None) -> str:
        """A public event in words (a draw says how many cards, never which)."""
        from parlor.tools import text

        return text.describe_event(self, event, lang)

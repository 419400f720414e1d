"""The TOOLS engine: setup and settings, put together with the rule areas.

The rules live in one module per rule area, in the order of docs/rules/tools.md: ``table`` (the
state, the constants and what may be played on what), ``legality`` (the legal actions and why any
other is refused), ``turn`` (playing, drawing, the card drawn, colors, penalties, the next seat and
the end), ``hidden`` (the pending decision and views per seat, snapshots, copies and
determinization) and ``action_ids`` (the integer action space), each class of one on the class of
another (see ``table``). This module's class is the top of that chain: the setup, ``apply``, and
copies (clone and pickling, field by field).

Clauses: "Setup" (PREPARACIÓN, COMIENZO DE LA PARTIDA: 2-10 players, ``hand_size`` cards each, an
action or wild turned up goes back and the pile is shuffled until a base card shows, seat 0 on the
dealer's left starts, clockwise).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar, Self

from parlor.core.errors import E_, GameOverError, SettingsError
from parlor.core.game import Event, Outcome
from parlor.tools.actions import ACTION_TYPES
from parlor.tools.cards import resolve_deck
from parlor.tools.legality import ToolsLegality
from parlor.tools.options import ToolsOptions
from parlor.tools.shuffling import shuffle
from parlor.tools.table import (  # (the phases and types, here since before the split)
    _DEFAULT_OPTIONS,
    ALL_TYPES,
    BOX,
    COLOR,
    DRAWN,
    FOLLOW,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OVER,
    PHASE_NAMES,
    PLAY,
    T_BENT,
    T_BOX,
    T_BRUSH,
    T_FINGER,
    T_GOOD,
    T_HAMMER,
    T_REVERSE,
    T_TOOLBOX,
    T_WHAMMER,
    Unchecked,
    _deck_facts,
    _options_data,
    _tables,
)

__all__ = [
    "ALL_TYPES",
    "BOX",
    "COLOR",
    "DRAWN",
    "FOLLOW",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "OVER",
    "PHASE_NAMES",
    "PLAY",
    "T_BENT",
    "T_BOX",
    "T_BRUSH",
    "T_FINGER",
    "T_GOOD",
    "T_HAMMER",
    "T_REVERSE",
    "T_TOOLBOX",
    "T_WHAMMER",
    "ToolsGame",
]


#: What ToolsGame.__init__ takes for an empty game that a copy fills in (see ToolsGame.clone).
_BLANK = object()


class ToolsGame(ToolsLegality):
    """A game of TOOLS. Create one with :func:`parlor.tools.new_game`.

    Seats are numbered clockwise from 0; the dealer is the last seat, so seat 0 (on the dealer's
    left) starts.
    """

    game_name: ClassVar[str] = "tools"
    action_types: ClassVar[Mapping[str, type]] = ACTION_TYPES
    #: What actions change (``parlor.core.state`` saves and restores these; the rest comes from
    #: the settings): a field added to the state must be listed here.
    STATE_FIELDS: ClassVar[tuple[str, ...]] = (
        "rng", "hands", "held", "sizes", "draw_pile", "discard", "ctx", "color", "direction", "current",
        "phase", "drawn", "box_penalty", "turn", "idle", "_moved", "_outcome",
    )  # fmt: skip
    #: What is not state: the settings and what follows from them, which a copy shares.
    SETTINGS_FIELDS: ClassVar[tuple[str, ...]] = (
        "deck", "options", "names", "settings", "seed", "log", "_t", "_n",
    )  # fmt: skip

    def __init__(
        self,
        players: Unchecked = 4,
        seed: Unchecked = 0,
        deck: Unchecked = None,
        options: Unchecked = None,
    ) -> None:
        """A new game for ``players`` (a count, 2-10, or their names), from ``seed`` (an
        integer), with ``deck`` (a Deck, its table, a file path or a bundled deck's name; the
        default deck when None) and rule ``options`` (ToolsOptions or a mapping); anything
        else is a SettingsError."""
        if players is _BLANK:
            return  # (a copy's fields come next: see clone)
        if isinstance(players, bool) or not isinstance(players, int | list | tuple):
            raise SettingsError(E_("'players' must be a count (2-10) or a list of names"))
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
        deal = hand_size * n
        while True:
            cards = list(_deck_facts(self.deck).cards)
            shuffle(self.rng, cards)
            # One card at a time to each seat from the top (the end of the list): seat p gets
            # the p-th card from the top and every n-th below it.
            last = len(cards) - 1
            hands: list[list[int]] = []
            held: list[int] = []
            for p in range(n):
                hand = [0] * K
                bits = 0
                for k in cards[last - p : last - deal : -n]:
                    hand[k] += 1
                    bits |= 1 << k
                hands.append(hand)
                held.append(bits)
            del cards[last + 1 - deal :]
            if any(t.ktype[k] <= T_BENT for k in cards):
                break
            # No base card is left to start the discard pile: deal again.
        # "Si la primera carta es una carta de acción o comodín, vuelve a barajar y revela una
        # nueva carta base."
        while t.ktype[cards[-1]] > T_BENT:
            shuffle(self.rng, cards)
        top = cards.pop()
        self.hands = hands
        self.held = held
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
    def from_settings(cls, settings: Unchecked, seed: Unchecked) -> Self:
        try:
            players = settings["players"]
        except (KeyError, TypeError) as exc:
            raise SettingsError(E_("TOOLS settings need 'players'")) from exc
        deck = settings.get("deck")
        if deck is not None and not isinstance(deck, Mapping):  # (a path would open a file)
            raise SettingsError(E_("the saved deck is a table of the deck's cards"))
        return cls(players, seed, deck, settings.get("options"))

    def apply(self, action: Unchecked) -> list[Event]:
        """Validate and carry out ``action``; on any rule violation raise and change nothing.

        The actions ``legal_actions`` hands out are the table's own, valid by construction: for
        one of them (by identity) the field check is skipped, and only the rules are checked.
        """
        own = self._t.interned.get(id(action))
        if own is None or own is not action:
            return super().apply(action)  # (anything else: the field check first)
        if self._outcome is not None:
            raise GameOverError(E_("the game is over"))
        self._check(own)
        events = self._execute(own)
        self.log.append(own)
        return events

    # ----- copies ----------
    def clone(self) -> ToolsGame:
        """A deep, independent copy (much faster than ``copy.deepcopy``): the settings and the
        immutable parts (deck, options, tables, names, outcome) shared, the rest copied."""
        g = ToolsGame(_BLANK)
        g.deck = self.deck
        g.options = self.options
        g.names = self.names
        g.settings = self.settings  # (never changed after creation)
        g.seed = self.seed
        g.log = list(self.log)
        g._t = self._t
        g._n = self._n
        g.rng = random.Random()
        g.rng.setstate(self.rng.getstate())
        g.hands = [list(h) for h in self.hands]
        g.held = list(self.held)
        g.sizes = list(self.sizes)
        g.draw_pile = list(self.draw_pile)
        g.discard = list(self.discard)
        g.ctx = self.ctx
        g.color = self.color
        g.direction = self.direction
        g.current = self.current
        g.phase = self.phase
        g.drawn = self.drawn
        g.box_penalty = self.box_penalty
        g.turn = self.turn
        g.idle = self.idle
        g._moved = self._moved
        g._outcome = self._outcome
        return g

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled field by field, as clone copies (compiled, the fields are the slots of a
        # native class, not a __dict__); the tables follow from the settings and are rebuilt.
        names = self.SETTINGS_FIELDS + self.STATE_FIELDS
        return (_with_fields, ({name: getattr(self, name) for name in names if name != "_t"},))

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

    def card_name(self, code: Unchecked) -> str:
        """A readable name for a card code: ``"hammer:red"`` -> ``"red hammer"``."""
        return self.deck.card_name(self._t.kind_by_code[code])

    def describe(self, action: Unchecked, lang: Unchecked = None) -> str:
        """An action in words, with the player's name: ``"Ana plays a red hammer"``."""
        from parlor.tools.text import describe_action  # (the function: see describe_event)

        self.validate_action(action)
        return describe_action(self, action, lang)

    def describe_event(self, event: Unchecked, lang: Unchecked = None) -> str:
        """A public event in words (a draw says how many cards, never which)."""
        # (the function, not the module: compiled, ``from parlor.tools import text`` can give None
        # in a process that has not imported the module yet)
        from parlor.tools.text import describe_event

        return describe_event(self, event, lang)


def _with_fields(fields: Mapping[str, Any]) -> ToolsGame:
    """A game with these fields (unpickling; see :meth:`ToolsGame.__reduce__`)."""
    game = ToolsGame(_BLANK)
    for name, value in fields.items():
        setattr(game, name, value)
    game._t = _tables(game.deck, game.options, game._n)  # (the same object for the same settings)
    return game

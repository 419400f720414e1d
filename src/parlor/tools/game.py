"""The TOOLS engine: setup and settings, put together with the rule areas.

The rules live in one module per rule area, in the order of docs/rules/tools.md: ``table`` (the
state, the constants and what may be played on what), ``legality`` (the legal actions and why any
other is refused), ``turn`` (playing, drawing, the card drawn, colors, penalties, the next seat and
the end), ``hidden`` (the pending decision and views per seat, snapshots, copies and
determinization) and ``action_ids`` (the integer action space). This module puts them together
with the setup.

Clauses: "Setup" (PREPARACIÓN, COMIENZO DE LA PARTIDA: 2-10 players, ``hand_size`` cards each, an
action or wild turned up goes back and the pile is shuffled until a base card shows, seat 0 on the
dealer's left starts, clockwise).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from parlor.core.errors import E_, GameOverError, SettingsError
from parlor.core.game import Event, Game, Outcome
from parlor.tools.action_ids import ToolsActionIds
from parlor.tools.actions import ACTION_TYPES, ToolsAction
from parlor.tools.cards import Deck, resolve_deck
from parlor.tools.hidden import ToolsViews
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
    _deck_facts,
    _options_data,
    _tables,
)
from parlor.tools.turn import ToolsTurn

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


class ToolsGame(ToolsLegality, ToolsTurn, ToolsViews, ToolsActionIds, Game[ToolsAction]):
    """A game of TOOLS. Create one with :func:`parlor.tools.new_game`.

    Seats are numbered clockwise from 0; the dealer is the last seat, so seat 0 (on the dealer's
    left) starts.
    """

    game_name: ClassVar[str] = "tools"
    action_types: ClassVar[Mapping[str, type]] = ACTION_TYPES
    #: What actions change (``parlor.core.state`` saves and restores these; the rest comes from
    #: the settings): a field added to the state must be listed here.
    STATE_FIELDS: ClassVar[tuple[str, ...]] = (
        "rng", "hands", "sizes", "draw_pile", "discard", "ctx", "color", "direction", "current",
        "phase", "drawn", "box_penalty", "turn", "idle", "_moved", "_outcome",
    )  # fmt: skip

    def __init__(
        self,
        players: int | Sequence[str] = 4,
        seed: int = 0,
        deck: Deck | Mapping[str, Any] | str | Any = None,
        options: ToolsOptions | Mapping[str, Any] | None = None,
    ) -> None:
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

    def apply(self, action: ToolsAction) -> list[Event]:
        """Validate and carry out ``action``; on any rule violation raise and change nothing.

        The actions ``legal_actions`` hands out are the table's own, valid by construction: for
        one of them (by identity) the field check is skipped, and only the rules are checked.
        """
        if self._t.interned.get(id(action)) is not action:
            return super().apply(action)  # (anything else: the field check first)
        if self._outcome is not None:
            raise GameOverError(E_("the game is over"))
        self._check(action)
        events = self._execute(action)
        self.log.append(action)
        return events

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

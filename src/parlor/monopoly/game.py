"""The property-trading rules engine: one engine, every edition as data.

>>> from parlor import monopoly
>>> game = monopoly.new_game("classic", players=["Ann", "Bo"], seed=7)
>>> game.pending.kind, game.pending.player
('start_turn', 1)
>>> events = game.apply(monopoly.RollDice(1))
>>> events[0].kind
'dice'
>>> game.apply(monopoly.Build(0, square=39))
Traceback (most recent call last):
...
parlor.core.errors.IllegalAction: Ann does not own Boardwalk

The rules live in one module per rule area, in the order of the rulebooks (docs/rules/README.md,
S1-S21): ``table`` (the state, money, groups), ``turn`` (the opening, dice, moving, squares,
cards, tax, jail), ``buying`` (buying and auctions), ``rent``, ``building`` (buildings and the
bank's stock), ``shortage`` (who wishes to buy the bank's last buildings, and their auction),
``mortgages``, ``trades``, ``debts`` (debts and bankruptcy), ``ending`` (the end and valuation),
and ``action_ids`` (the integer action space), each class of one on the class of another (see
``table``). This module's class is the top of that chain: the new game's state (``turn`` deals
the opening, S3), the pending decision, legality and dispatch of every action to its area's
handler, the legal-action lists, saving and copying; ``views`` builds what players see.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final, cast

from parlor.core.errors import (
    E_,
    GameOverError,
    IllegalAction,
    NotYourDecision,
    ParlorError,
    SettingsError,
)
from parlor.core.game import Decision, Event, Outcome
from parlor.core.validate import check_sample_seed
from parlor.monopoly import (
    building,
    buying,
    debts,
    ending,
    mortgages,
    rent,
    shortage,
    trades,
    turn,
)
from parlor.monopoly.actions import (
    ACTION_TYPES,
    NATIVE_ACTIONS,
    Action,
    EndTurn,
    RollDice,
)
from parlor.monopoly.buying import BID_STEPS
from parlor.monopoly.debts import DebtRules
from parlor.monopoly.edition import Edition, edition_from_save, load_edition, saved_edition
from parlor.monopoly.frames import CLOSED_FRAMES, Auction, Frame, Turn
from parlor.monopoly.id_space import END_TURN_ID, NUM_ACTIONS, PRICE_LEVELS, ROLL_ID, space_for
from parlor.monopoly.rules import RuleOptions
from parlor.monopoly.table import (
    ESTATE_RECENT,
    HOTEL,
    N_SQUARES,
    AnytimeCheck,
    FrameRules,
    Handler,
)
from parlor.monopoly.turn import _END_TURN, _ROLL_AGAIN, _START_TURN, ADVANCED
from parlor.monopoly.views import full_snapshot, table_view

__all__ = [
    "BID_STEPS",
    "HOTEL",
    "NUM_ACTIONS",
    "N_SQUARES",
    "PRICE_LEVELS",
    "PropertyGame",
    "new_game",
]

#: A public method's argument that the method checks itself and refuses with a typed
#: ParlorError: compiled (setup.py), an annotated type would be enforced first, by a TypeError.
Unchecked = Any

#: What PropertyGame.__init__ takes for an empty game that a copy fills in (see _with_fields).
_BLANK = object()
_NO_MEMO: Final[tuple[Frame | None, int, Decision | None]] = (None, -1, None)

_AREAS = (turn, buying, rent, building, shortage, mortgages, trades, debts, ending)
#: Every action's handler, every any-time action's legality check, every decision frame's rules.
_HANDLERS: Final[dict[type[Action], Handler]] = {}
_ANYTIME_CHECKS: Final[dict[type[Action], AnytimeCheck]] = {}
_FRAMES: Final[dict[type[Frame], FrameRules]] = {}
for _area in _AREAS:
    _HANDLERS.update(getattr(_area, "HANDLERS", {}))
    _ANYTIME_CHECKS.update(getattr(_area, "ANYTIME_CHECKS", {}))
    _FRAMES.update(getattr(_area, "FRAMES", {}))
#: The frames' rules split by use (one lookup instead of a lookup and a named field, per call).
_DECISIONS: Final = {kind: rules.decision for kind, rules in _FRAMES.items()}
_PROBLEMS: Final = {kind: rules.problem for kind, rules in _FRAMES.items()}
assert set(_HANDLERS) == set(ACTION_TYPES.values()), "every action needs a handler"
assert set(_ANYTIME_CHECKS) == {a for a in ACTION_TYPES.values() if a.anytime}


def new_game(
    edition: Unchecked = "classic",
    players: Unchecked = 4,
    seed: Unchecked = 0,
    options: Unchecked = None,
) -> PropertyGame:
    """Start a game of ``edition`` (an id such as ``"matador"``, a file path, or an Edition) for
    ``players`` (a number, or their names), from ``seed`` (an integer), with rule ``options`` (a
    mapping, see :class:`RuleOptions`); anything else is a SettingsError."""
    return PropertyGame(edition, players, seed, options)


class PropertyGame(DebtRules):
    """A game of one property-trading edition. See the package docstring for the interface."""

    game_name: ClassVar[str] = "monopoly"
    action_types: ClassVar[Mapping[str, type]] = ACTION_TYPES
    #: What actions change (``parlor.core.state`` saves and restores these; the rest comes from
    #: the settings): a field added to the state must be listed here.
    STATE_FIELDS: ClassVar[tuple[str, ...]] = (
        "rng", "cash", "position", "in_jail", "jail_turns", "jail_cards", "bankrupt",
        "bankrupt_order", "owner", "mortgaged", "buildings", "houses_left", "hotels_left", "pot",
        "bank_flow", "doubles", "round", "turns_taken", "last_dice", "claims", "_outcome",
        "decks", "unseen", "frames", "setup_events", "first_player", "standing_wishes",
    )  # fmt: skip
    #: The last decision ``pending`` built for a frame other than the turn, with that frame and
    #: the log's length: handed out again while both hold (such a decision reads only its frame,
    #: the edition and the bank's stock, which only ``apply`` changes, adding to the log).
    _pending_memo: tuple[Frame | None, int, Decision | None]

    def __init__(
        self,
        edition: Unchecked = "classic",
        players: Unchecked = 4,
        seed: Unchecked = 0,
        options: Unchecked = None,
    ) -> None:  # (see new_game)
        if edition is _BLANK:
            return  # (a copy's fields come next: see _with_fields)
        self.edition = edition if isinstance(edition, Edition) else load_edition(edition)
        ed = self.edition
        self.options = RuleOptions.for_edition(ed, options)
        names = self._players_from(players)
        if not ed.min_players <= len(names) <= ed.max_players:
            raise SettingsError(
                E_(
                    "{title} is played by {least} to {most} players, not {count}",
                    title=ed.title,
                    least=ed.min_players,
                    most=ed.max_players,
                    count=len(names),
                )
            )
        self.names = names
        self.seed = self._seed_from(seed)
        self.settings = {
            # A bundled edition by its id, any other by its data (a save opens no file).
            "edition": saved_edition(ed),
            "players": list(names),
            "options": {k: v for k, v in (options or {}).items()},
        }
        self.log = []
        self.rng = random.Random(self.seed)
        n = len(names)
        self.cash = [ed.starting_cash] * n
        self.position = [ed.go_square] * n
        self.in_jail = [False] * n
        self.jail_turns = [0] * n
        self.jail_cards: list[list[int]] = [[] for _ in range(n)]
        self.bankrupt = [False] * n
        self.bankrupt_order: list[int] = []
        self.owner = [-1] * N_SQUARES
        self.mortgaged = [False] * N_SQUARES
        self.buildings = [0] * N_SQUARES
        self.estate_revision = 0
        self._estate_recent = [-1] * ESTATE_RECENT
        self.houses_left = ed.houses
        self.hotels_left = ed.hotels
        self.standing_wishes: tuple[str, int, tuple[int, ...]] | None = None
        self.pot = 0
        self.bank_flow = 0  # money the bank paid out minus money it took in
        self.doubles = 0
        self.round = 0
        self.turns_taken = 0
        self.last_dice: tuple[int, int] | None = None
        self.claims: list[list[int]] = []  # [payer, owner, amount, square, lapses_on_throw_of]
        self._outcome: Outcome | None = None
        self.decks: dict[str, list[int]] = {d: [] for d in ed.decks}
        for card in ed.cards:
            self.decks[card.deck].append(card.id)
        # Per deck, how many cards at its top nobody has seen since the shuffle. Every drawn card
        # is shown and goes under the pile, so the rest of the order is public knowledge.
        self.unseen: dict[str, int] = {d: len(cards) for d, cards in self.decks.items()}
        self.frames: list[Frame] = []
        self.setup_events: list[Event] = []
        self._space = space_for(ed)
        self._derive()
        self._pending_memo = _NO_MEMO
        self._open_game()

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any], seed: int) -> PropertyGame:
        if not isinstance(settings, Mapping) or not {"edition", "players"} <= set(settings):
            raise SettingsError(E_("the settings of a property game name its edition and players"))
        edition = edition_from_save(settings["edition"])
        return cls(edition, settings["players"], seed, settings.get("options") or {})

    # ----- basic queries -----------------------------------------------------------------------
    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def anytime_open(self) -> bool:
        """May "any time" actions (build, mortgage, trade...) be taken now? Not while a trade
        awaits its answer, a received mortgage awaits a decision, or a won building awaits a lot."""
        return self._outcome is None and bool(self.frames) and self.frames[-1].anytime_ok

    @property
    def current_player(self) -> int:
        """Whose turn it is (the dice holder), whatever decision is pending."""
        return self.frames[0].decider() if self.frames else -1

    @property
    def pending(self) -> Decision | None:
        if self._outcome is not None or not self.frames:
            return None
        top = self.frames[-1]
        if type(top) is Turn:  # (four decisions in five: the plain ones _turn_decision's, inline)
            p = top.player
            if top.phase == "post_roll":
                return _END_TURN[p]
            if not self.in_jail[p]:
                return _ROLL_AGAIN[p] if self.doubles else _START_TURN[p]
            return self._turn_decision(top)
        memo = self._pending_memo  # (asked twice a decision: by a bot's loop, by its choose)
        if memo[0] is top and memo[1] == len(self.log):
            return memo[2]
        decision = _DECISIONS[type(top)](self, top)
        self._pending_memo = (top, len(self.log), decision)
        return decision

    @property
    def decider(self) -> int | None:
        """``pending.player`` without building the decision (``None`` once the game is over)."""
        if self._outcome is not None or not self.frames:
            return None
        return self.frames[-1].decider()

    # ----- legality ----------------------------------------------------------------------------
    def why_illegal(self, action: Unchecked, lang: Unchecked = None) -> str | None:
        """Why the rules refuse ``action`` now, in the words :meth:`apply` would raise (in
        ``lang``, English by default); None when it is legal. Asks the same checks as
        :meth:`apply` and changes nothing.

        >>> from parlor.monopoly.actions import Build
        >>> game = new_game("classic", ["Ann", "Bo"], 1, {})
        >>> game.why_illegal(Build(0, 39))
        'Ann does not own Boardwalk'
        >>> game.why_illegal(Build(0, 39), "es")
        'Ann no posee Boardwalk'
        """
        try:
            self.validate_action(action)
            if self.is_over:
                raise GameOverError(E_("the game is over"))
            self._check(action)
        except ParlorError as exc:
            if lang is None:
                return str(exc)
            from parlor.i18n import translate_error

            return translate_error(exc, lang)
        return None

    def is_legal(self, action: Unchecked) -> bool:
        # (Game.is_legal with its properties read directly: bots ask it before most actions)
        if NATIVE_ACTIONS:  # (the field check a native method: see actions.Action.bad_field)
            if (
                type(action) not in _FIRST_BAD
                or self._outcome is not None
                or cast(Action, action).bad_field(len(self.names)) >= 0
            ):
                return False
        else:
            first_bad = _FIRST_BAD.get(type(action))
            if (
                first_bad is None
                or self._outcome is not None
                or first_bad(action, len(self.names)) >= 0
            ):
                return False
        try:
            self._check(action)
        except ParlorError:
            return False
        return True

    def _check(self, action: Action) -> None:
        # ``apply``, ``is_legal`` and ``why_illegal`` have checked that it is one of our actions and its
        # fields are well formed (a seat that exists): the rules alone are left.
        p = action.player
        if self.bankrupt[p]:
            raise IllegalAction(E_("{who} is bankrupt and out of the game", who=self.names[p]))
        top = self.frames[-1]
        anytime_check = _ANYTIME_CHECKS.get(type(action))  # (the any-time actions' table)
        if anytime_check is not None:
            if type(top) in CLOSED_FRAMES:  # (``not top.anytime_ok`` without the call)
                raise IllegalAction(
                    E_(
                        "{who} must answer first",
                        who=self.names[top.decider()],
                    )
                )
            anytime_check(self, action)
            return
        if type(top) is Turn:  # (see pending)
            if p != top.player:
                raise self._not_yours(top.player, p)
            # (the turn's two plain answers at their right moment, without the call)
            kind = type(action)
            if (kind is RollDice and top.phase == "pre_roll") or (
                kind is EndTurn and top.phase == "post_roll"
            ):
                return
            problem = self._turn_problem(action, top)
        else:
            decider = top.decider()
            if p != decider:
                raise self._not_yours(decider, p)
            problem = _PROBLEMS[type(top)](self, action, top)
        if problem:
            raise IllegalAction(problem)

    def _not_yours(self, decider: int, p: int) -> NotYourDecision:
        return NotYourDecision(
            E_(
                "it is {decider}'s decision, not {who}'s",
                decider=self.names[decider],
                who=self.names[p],
            )
        )

    # ----- legal actions -----------------------------------------------------------------------
    def legal_actions(self, player: Unchecked = None, *, anytime: Unchecked = True) -> list[Action]:
        if not (type(player) is int and 0 <= player < len(self.names) and type(anytime) is bool):
            self.check_query(player, anytime)  # (a seat and a bool need no more checking)
        if self._outcome is not None:
            return []
        top = self.frames[-1]
        decider = top.decider()
        out: list[Action] = []
        if player is None or player == decider:
            out.extend(_FRAMES[type(top)].answers(self, decider, top))
        if anytime and type(top) not in CLOSED_FRAMES:
            players = self.active_players if player is None else [player]
            for p in players:
                if not self.bankrupt[p]:
                    out.extend(self._anytime_actions(p))
        return out

    def _legal_id_list(self, player: Unchecked) -> list[int]:
        """The ids of ``legal_actions(player)``, in order, unbuilt (see ``_with_anytime_ids``)."""
        if not (type(player) is int and 0 <= player < len(self.names)):
            self.check_query(player, optional=False)  # (raises: not a seat)
        if self._outcome is not None:
            return []
        top = self.frames[-1]
        ids: list[int] = []
        if player == top.decider():
            if type(top) is Turn and (top.phase == "post_roll" or not self.in_jail[player]):
                ids = [END_TURN_ID if top.phase == "post_roll" else ROLL_ID]  # (as pending)
            elif isinstance(top, Auction):
                ids = self._bid_ids(player, top)
            else:
                ids = [self._id_of(a) for a in _FRAMES[type(top)].answers(self, player, top)]
        if type(top) not in CLOSED_FRAMES and not self.bankrupt[player]:
            return self._with_anytime_ids(player, ids)
        return ids

    def legal_action_ids(self, player: Unchecked) -> list[int]:
        return self._ordered_ids(player, self._legal_id_list(player))

    def legal_id_list(self, player: Unchecked) -> list[int]:
        """The ids of ``legal_action_ids(player)`` unsorted, in the listing's order (an id may
        come twice where two price levels round to one amount): a new list, for a mask or a
        test of membership, which need no sort (the RL batches ask it at every step)."""
        return self._legal_id_list(player)[:]

    def legal_action_mask(self, player: Unchecked) -> list[bool]:
        mask = [False] * NUM_ACTIONS
        for action_id in self._legal_id_list(player):
            mask[action_id] = True
        return mask

    # ----- ids (the mapping is in action_ids; the boundary checks are the game's) ------------
    def action_id(self, action: Unchecked) -> int:
        self.validate_action(action)
        return self._id_of(action)

    def action_from_id(self, action_id: Unchecked, player: Unchecked) -> Action:
        self.check_action_id(action_id, player)
        return self._action_of_id(action_id, player)

    # ----- carrying actions out ----------------------------------------------------------------
    def apply(self, action: Unchecked) -> list[Event]:
        """Validate and carry out ``action``; on any rule violation raise and change nothing.
        (``Game.apply`` with ``_execute`` inlined: every action of every game passes here.)"""
        ev: list[Event] = []
        kind = type(action)
        if kind is RollDice or kind is EndTurn:
            # Half of a game's actions: a throw or an end of turn by the turn's player at its
            # moment passes every check below (its field is his seat, the game goes on, he is
            # not bankrupt, the phase is right), so these few comparisons replace the checks'
            # calls; anything else goes the general way (and its refusal). Handlers called
            # directly (compiled, a native call): the table's, without the end's hop.
            top = self.frames[-1] if self._outcome is None else None
            p = action.player
            if (
                type(top) is Turn
                and type(p) is int
                and p == top.player
                and top.phase == ("pre_roll" if kind is RollDice else "post_roll")
                and not self.bankrupt[p]
            ):
                if kind is RollDice:
                    self._do_roll(action, top, ev)
                else:
                    self._next_turn(p, ev)
                frames = self.frames  # (a bankruptcy or the end replaces the list)
                if frames and type(frames[-1]) in ADVANCED:  # (else nothing for _advance to run)
                    self._advance(ev)
                self.log.append(action)
                return ev
        if NATIVE_ACTIONS:  # (see is_legal)
            if kind not in _FIRST_BAD or cast(Action, action).bad_field(len(self.names)) >= 0:
                self.validate_action(action)  # (raises: not one of our actions, or a bad field)
        else:
            first_bad = self._field_checks.get(kind)  # (_FIRST_BAD's, but the id space's offers)
            if first_bad is None or first_bad(action, len(self.names)) >= 0:
                self.validate_action(action)
        if self._outcome is not None:
            raise GameOverError(E_("the game is over"))
        self._check(action)
        _HANDLERS[kind](self, action, self.frames[-1], ev)
        frames = self.frames
        if frames and type(frames[-1]) in ADVANCED:
            self._advance(ev)
        self.log.append(action)
        return ev

    def _execute(self, action: Action) -> list[Event]:
        ev: list[Event] = []
        _HANDLERS[type(action)](self, action, self.frames[-1], ev)
        self._advance(ev)
        return ev

    # ----- views (built in ``views``) -----------------------------------------------------------
    def view(self, player: Unchecked = None) -> dict[str, Any]:
        """The table as ``player`` sees it. In this game only the decks' order is hidden."""
        self.check_query(player)
        return table_view(self, player)

    def views(self, players: Sequence[int | None]) -> list[dict[str, Any]]:
        """Every ``view(p)`` of ``players``, built once: they differ only in ``viewer`` (nothing
        else here depends on who looks), so the others are shallow copies sharing the rest."""
        for p in players:
            self.check_query(p)
        if not players:
            return []
        first = table_view(self, players[0])
        return [first] + [{**first, "viewer": p} for p in players[1:]]

    def snapshot(self) -> dict[str, Any]:
        return full_snapshot(self)

    #: What is not state (see STATE_FIELDS): the settings and what follows from them, which a
    #: copy shares with its original (and the log), but for the edition's action space.
    SETTINGS_FIELDS: ClassVar[tuple[str, ...]] = (
        "edition", "options", "names", "seed", "settings", "log",
    )  # fmt: skip

    #: Beside the settings and the state, history kept to answer again (not in snapshots): the
    #: estate's changes, ``pending``'s last decision, the shortage's whole groups, the offer
    #: its proposal found legal, and the listing's memos (the deeds', each seat's last list).
    HISTORY_FIELDS: ClassVar[tuple[str, ...]] = (
        "estate_revision", "_estate_recent", "_pending_memo", "_whole_kept", "_offer_checked",
        "_deeds_memo", "_listing_memo",
    )  # fmt: skip

    def _fields(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _CARRIED}

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled field by field, as clone copies (the server thinks on copies in worker
        # processes): compiled, the fields are the slots of a native class, not a __dict__.
        return (_with_fields, (self._fields(),))

    def clone(self) -> PropertyGame:
        new = _with_fields(self._fields())
        for name in (
            "cash",
            "position",
            "in_jail",
            "jail_turns",
            "bankrupt",
            "bankrupt_order",
            "owner",
            "mortgaged",
            "buildings",
            "_estate_recent",
            "log",
            "setup_events",  # (a list a caller may extend: never shared with the source)
        ):
            setattr(new, name, list(getattr(self, name)))
        new.jail_cards = [list(c) for c in self.jail_cards]
        new.decks = {d: list(c) for d, c in self.decks.items()}
        new.unseen = dict(self.unseen)
        new.claims = [list(c) for c in self.claims]
        new.frames = [f.copy() for f in self.frames]
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        return new

    def determinize(self, player: Unchecked, seed: Unchecked) -> PropertyGame:
        """A copy in which what ``player`` cannot know (deck order, future dice) is resampled.

        Only the cards nobody has seen since the shuffle are reshuffled: a drawn card was shown
        and lies under the pile, in the order drawn (S10: "place it face down at the bottom").
        They are reshuffled from card order, not from where they truly lie, so the copy depends
        on the seed and the public state alone: whoever picks seeds learns nothing of the deck.
        In this game every player knows the same, so ``player`` changes nothing.

        >>> from parlor import monopoly
        >>> game = monopoly.new_game("classic", seed=3)
        >>> a, b = game.determinize(0, seed=1), game.determinize(0, seed=2)
        >>> a.view(0) == b.view(0) == game.view(0), a.decks != b.decks
        (True, True)
        """
        self.check_query(player, optional=False)
        new = self.clone()
        new.rng = random.Random(check_sample_seed(seed))
        for deck, cards in new.decks.items():
            hidden = new.unseen[deck]
            top = sorted(cards[:hidden])
            new.rng.shuffle(top)
            cards[:hidden] = top
        return new

    # ----- words -------------------------------------------------------------------------------
    def describe(self, action: Unchecked, lang: Unchecked = None) -> str:
        """The action in words, with the edition's names and money (in its language by default)."""
        from parlor.monopoly.text import describe_action

        self.validate_action(action)
        return describe_action(self, action, lang)

    def describe_event(self, event: Unchecked, lang: Unchecked = None) -> str:
        """A public event in words (in the edition's language by default)."""
        # (the function, not the module: compiled, ``from parlor.monopoly import text`` gave None
        # in a process that had not imported the module yet)
        from parlor.monopoly.text import describe_event

        return describe_event(self, event, lang)


#: The actions' field checks (``Game._first_bad``): compiled, a module constant is a native
#: read where the class attribute is a generic lookup.
_FIRST_BAD: Final = PropertyGame._first_bad
#: What copies and pickles carry (``_fields``): not the listing's memos (history's last two).
_CARRIED: Final = (
    PropertyGame.SETTINGS_FIELDS + PropertyGame.STATE_FIELDS + PropertyGame.HISTORY_FIELDS[:-2]
)


def _with_fields(fields: Mapping[str, Any]) -> PropertyGame:
    """A game with these fields (see :meth:`PropertyGame.clone`), made empty first: compiled,
    ``__new__`` would run ``__init__`` and build a default game only to replace its fields."""
    game = PropertyGame(_BLANK)
    # (a pickle made before the estate's count was kept starts one)
    game.estate_revision = 0
    game._estate_recent = [-1] * ESTATE_RECENT
    for name, value in fields.items():
        setattr(game, name, value)
    game._pending_memo = _NO_MEMO
    game._space = space_for(game.edition)  # (the same object for the same edition)
    game._derive()
    return game

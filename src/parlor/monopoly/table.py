"""The table every rule area works on: the state, money moving, colour groups, and the dispatch types.

The property engine is split by rule area, the way the rulebooks are laid out (docs/rules/README.md
numbers the shared clauses S1-S21). Each area is a class adding its rules to the one below it,
in one chain of single inheritance: :class:`Table` (on the game protocol), mortgages, rent,
building, shortage, buying, action_ids, trades, ending, turn, debts, and the game (``game.py``)
on top. One chain, not mixins, so that the optional build (setup.py) compiles every class of it
as a native class of mypyc (which takes single inheritance only); an area calls another's
methods through ``self`` either way. An area registers its actions and decision frames in
tables (``HANDLERS``, ``ANYTIME_CHECKS``, ``FRAMES``) that the game merges and dispatches on by
type, so that adding an action means adding a handler, not a branch.

Clauses: S1 (the bank pays and collects, money is conserved), S18 (a debt that cannot be paid at
once stays on the stack until it is paid or the debtor goes bankrupt), S2 (seats).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any, Final, NamedTuple

from parlor.core.errors import E_, IllegalAction, MalformedAction, Phrase
from parlor.core.game import Decision, Event, Game, Outcome
from parlor.i18n import format_money
from parlor.monopoly.actions import Action
from parlor.monopoly.edition import Edition
from parlor.monopoly.facts import SquareFacts, facts_for
from parlor.monopoly.frames import BANK, POT, Debt, Frame
from parlor.monopoly.rules import RuleOptions

HOTEL: Final = 5  # buildings[square] == HOTEL means a hotel stands there
N_SQUARES: Final = 40
#: How many of the latest estate changes a game remembers (:meth:`Table.estate_changes`).
ESTATE_RECENT: Final = 8

#: Carries out an action: (game, action, top frame, events) -> None.
Handler = Callable[[Any, Any, Any, list[Event]], None]
#: Raises an IllegalAction/MalformedAction if an any-time action may not be taken: (game, action).
AnytimeCheck = Callable[[Any, Any], None]


class FrameRules(NamedTuple):
    """What a decision frame needs: its pending decision, its answers, and why an answer is wrong."""

    decision: Callable[[Any, Any], Decision]  # (game, frame)
    answers: Callable[[Any, int, Any], list[Action]]  # (game, player, frame): the legal ones
    problem: Callable[[Any, Any, Any], str | None]  # (game, action, frame): None if legal


def debt_event(kind: str, debt: Debt, square: int | None = None) -> Event:
    """A "paid" or "debt" event; ``square`` names the property a rent is for."""
    return charge_event(kind, debt.debtor, debt.creditor, debt.amount, debt.reason, square)


def charge_event(
    kind: str, debtor: int, creditor: int, amount: int, reason: str, square: int | None
) -> Event:
    """:func:`debt_event` from the debt's parts (a charge paid at once builds no Debt)."""
    data: dict[str, Any] = {"player": debtor, "to": creditor, "amount": amount, "reason": reason}
    if square is not None:
        data["square"] = square
    return Event(kind, data)


class Table(Game[Action]):
    """The state of a game of one edition, and the helpers every rule area uses."""

    # Every field of the game, the chain's (action_ids', game's) and the protocol's too, in
    # slots: plain Python then reads and writes them, and finds the methods, in ways that hold
    # for every game object (with its more than 30 fields in a dictionary, the interpreter's
    # shortcuts were remade for each new game). Compiled, the classes' own native fields.
    __slots__ = (
        "_deeds_memo", "_double_go", "_estate_recent", "_field_checks", "_hotel_level",
        "_jail_extra", "_jail_max", "_listing_memo", "_offer_checked", "_outcome", "_pending_memo",
        "_rent_claim", "_rent_jailed", "_sink",
        "_space", "_sq", "_time_limit", "_unlimited", "_whole_kept", "bank_flow", "bankrupt",
        "bankrupt_order", "buildings", "cash", "claims", "decks", "doubles", "edition",
        "estate_revision", "first_player", "frames", "hotels_left", "houses_left", "in_jail",
        "jail_cards", "jail_turns", "last_dice", "log", "mortgaged", "names", "options", "owner",
        "position", "pot", "rng", "round", "seed", "settings", "setup_events", "standing_wishes",
        "turns_taken", "unseen",
    )  # fmt: skip

    # (declared again here: compiled, native fields; the base class is plain Python, and its
    # fields are read through the instance's dictionary, as every apply appends to the log)
    log: list[Action]
    settings: dict[str, Any]
    seed: int
    edition: Edition
    options: RuleOptions
    names: list[str]
    rng: random.Random
    cash: list[int]
    position: list[int]
    in_jail: list[bool]
    jail_turns: list[int]
    jail_cards: list[list[int]]  # card ids held, oldest first
    bankrupt: list[bool]
    bankrupt_order: list[int]
    owner: list[int]  # per square: a seat, or -1
    mortgaged: list[bool]
    buildings: list[int]  # per square: houses, or HOTEL
    #: How many times the engine has changed a square's owner, mortgage or buildings in this
    #: game object (setup included): see :meth:`estate_changes`.
    estate_revision: int
    _estate_recent: list[int]  # the squares of the latest changes, by revision % ESTATE_RECENT
    houses_left: int
    hotels_left: int
    # S14: the wishes said in the last shortage that fit the stock (item, turns_taken then, what
    # each seat still wishes); a new tuple on every change, so that clones may share it.
    standing_wishes: tuple[str, int, tuple[int, ...]] | None
    pot: int
    bank_flow: int  # money the bank paid out minus money it took in
    doubles: int
    round: int
    turns_taken: int
    first_player: int
    last_dice: tuple[int, int] | None
    claims: list[list[int]]  # [payer, owner, amount, square, lapses_on_throw_of]
    decks: dict[str, list[int]]
    unseen: dict[str, int]  # per deck: cards at its top not seen since the shuffle
    frames: list[Frame]
    setup_events: list[Event]
    _outcome: Outcome | None
    # What _derive copies from the edition and the options (read at every step: compiled,
    # native fields and lists instead of attribute chains into plain-Python dataclasses).
    _sq: SquareFacts
    _hotel_level: int  # options.hotel_after_houses
    _unlimited: bool  # options.unlimited_buildings
    _sink: int  # where taxes and fines go: BANK, or POT under the Free Parking house rule
    _rent_claim: bool
    _rent_jailed: bool  # options.rent_while_jailed
    _double_go: bool  # options.double_salary_on_go
    _jail_extra: bool  # options.jail_doubles_extra_throw
    _jail_max: int  # options.jail_max_turns
    _time_limit: int  # options.time_limit_rounds, 0 for none
    #: What ``shortage._whole_streets`` found, with the owners and mortgages it read (a copy's
    #: own: filled when first asked).
    _whole_kept: tuple[list[int], list[bool], tuple[int, ...] | None] | None

    def _derive(self) -> None:
        """Fill the fields above from ``edition`` and ``options`` (a new game, a copy)."""
        o = self.options
        self._sq = facts_for(self.edition)
        self._hotel_level = o.hotel_after_houses
        self._unlimited = o.unlimited_buildings
        self._sink = POT if o.free_parking_pot else BANK
        self._rent_claim = o.rent_claim
        self._rent_jailed = o.rent_while_jailed
        self._double_go = o.double_salary_on_go
        self._jail_extra = o.jail_doubles_extra_throw
        self._jail_max = o.jail_max_turns
        self._time_limit = o.time_limit_rounds or 0
        self._whole_kept = None

    # ----- what changed in the estate ----------------------------------------------------------
    def _estate_changed(self, sq: int) -> None:
        """Count a change of ``sq``'s owner, mortgage or buildings (every rule that makes one
        calls this once per square changed)."""
        revision = self.estate_revision + 1
        self.estate_revision = revision
        self._estate_recent[revision % ESTATE_RECENT] = sq

    def estate_changes(self, since: int) -> list[int] | None:
        """The squares whose owner, mortgage or buildings the engine changed after
        ``estate_revision`` was ``since``, oldest first (a square once per change, and possibly
        changed back), or ``None`` when the game no longer knows (more than
        :data:`ESTATE_RECENT` changes ago, or ``since`` is not one of its revisions): then
        compare the lists themselves.

        ``estate_revision`` rises by one at every such change the rules make, so a reader that
        kept the revision it last saw knows with one comparison that ``owner``, ``mortgaged``
        and ``buildings`` still hold, and after a few changes which squares to look at. It
        counts within one game object: a clone, a pickle and a replayed save count as the
        original did, and lists replaced by :func:`parlor.core.state.import_state` or changed
        by hand are not counted (a reader should keep the lists it read and compare them by
        identity as well).

        >>> from parlor import monopoly
        >>> from parlor.monopoly.actions import BuyProperty, RollDice
        >>> game = monopoly.new_game("classic", seed=4, options={"roll_for_first_player": False})
        >>> before = game.estate_revision
        >>> _ = game.apply(RollDice(0))
        >>> game.pending.kind, game.estate_changes(before)
        ('buy_or_auction', [])
        >>> _ = game.apply(BuyProperty(0))
        >>> game.estate_revision - before, game.estate_changes(before)
        (1, [12])
        """
        revision = self.estate_revision
        if since < 0 or since > revision or revision - since > ESTATE_RECENT:
            return None
        recent = self._estate_recent
        out: list[int] = []
        for r in range(since + 1, revision + 1):  # (a loop: a comprehension is a call)
            out.append(recent[r % ESTATE_RECENT])
        return out

    # ----- seats and words ---------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self.names)

    @property
    def active_players(self) -> list[int]:
        return [p for p in range(self.num_players) if not self.bankrupt[p]]

    # Names and amounts in rule messages: the edition's words, and any language's on request.
    def name_of(self, square: int) -> str:
        return Phrase(self.edition.square_name(square), partial(self.edition.square_name, square))

    def money(self, amount: int) -> str:
        ed = self.edition
        return Phrase(
            ed.format_money(amount), partial(format_money, amount, ed.currency, ed.currency_after)
        )

    @staticmethod
    def _square_arg(square: object) -> None:
        if not isinstance(square, int) or not 0 <= square < N_SQUARES:
            raise MalformedAction(E_("there is no square {square}", square=repr(square)))

    def _own_square(self, player: int, square: int) -> int:
        """``square``, checked to be a square that ``player`` owns (for selling a building,
        mortgaging and lifting, which only an owner may do)."""
        self._square_arg(square)
        if self.owner[square] != player:
            raise IllegalAction(
                E_(
                    "{who} does not own {square}",
                    who=self.names[player],
                    square=self.name_of(square),
                )
            )
        return square

    # ----- money (S1) ----------------------------------------------------------------------------
    def _pay(self, frm: int, to: int, amount: int) -> None:
        if amount <= 0:
            return
        if frm == BANK:
            self.bank_flow += amount
        elif frm == POT:
            self.pot -= amount
        else:
            self.cash[frm] -= amount
        if to == BANK:
            self.bank_flow -= amount
        elif to == POT:
            self.pot += amount
        else:
            self.cash[to] += amount

    def _fee_sink(self) -> int:
        """Where taxes and fines go: the bank, or the Free Parking pot under that house rule."""
        return self._sink

    # ----- debts as they arise (S18) -------------------------------------------------------------
    def _charge(
        self,
        debtor: int,
        creditor: int,
        amount: int,
        reason: str,
        ev: list[Event],
        square: int | None = None,
    ) -> None:
        """Make ``debtor`` pay now, or leave a debt to be settled (raise funds or go bankrupt).

        ``square`` names the property a rent is for, in the event."""
        if amount <= 0:
            return
        if self.cash[debtor] >= amount:  # (most charges: paid at once, no Debt built)
            self._pay(debtor, creditor, amount)
            ev.append(charge_event("paid", debtor, creditor, amount, reason, square))
            return
        debt = Debt(debtor, creditor, amount, reason)
        self.frames.append(debt)
        ev.append(debt_event("debt", debt, square))

    def _charge_later(self, debtor: int, creditor: int, amount: int, reason: str) -> None:
        self.frames.append(Debt(debtor, creditor, amount, reason))

    def _settle_top_debts(self, ev: list[Event]) -> None:
        """Pay at once the debts just stacked that the debtor can afford, in order."""
        while self.frames and isinstance(self.frames[-1], Debt):
            debt = self.frames[-1]
            assert isinstance(debt, Debt)
            if self.cash[debt.debtor] < debt.amount:
                ev.append(debt_event("debt", debt))
                return
            self.frames.pop()
            self._pay(debt.debtor, debt.creditor, debt.amount)
            ev.append(debt_event("paid", debt))

    # ----- colour groups -----------------------------------------------------------------------
    def group_of(self, square: int) -> tuple[int, ...]:
        return self._sq.members[square]

    # (loops, not all()/any() over generators: rent and every Build and Mortgage ask these)
    def owns_group(self, player: int, square: int) -> bool:
        owner = self.owner
        for s in self._sq.members[square]:  # noqa: SIM110 (see above; group_of, inline)
            if owner[s] != player:
                return False
        return True

    def group_has_buildings(self, square: int) -> bool:
        buildings = self.buildings
        for s in self._sq.members[square]:  # noqa: SIM110 (see above; group_of, inline)
            if buildings[s]:
                return True
        return False

    def _level(self, square: int) -> int:
        """Houses on ``square``, a hotel counting as one more than the houses it needs."""
        b = self.buildings[square]
        return self._hotel_level + 1 if b == HOTEL else b

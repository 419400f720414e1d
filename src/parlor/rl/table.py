"""What the PettingZoo and Gymnasium environments share: one game, its encoder, and the rewards.

A :class:`GameSpec` says how to make a game of one configuration (TOOLS with a deck, player count
and options; a property edition with its rule options), how to encode what a seat sees, and what
the shaped reward measures. A :class:`Table` runs one episode: it checks and applies actions by
id, computes every seat's reward from the engine's state alone (so nothing an agent sends can set
its own reward), and knows when a seat is out and when the episode ends.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import compress
from pathlib import Path
from typing import Any, Literal, Protocol, cast

import numpy as np
import numpy.typing as npt

from parlor import monopoly, tools
from parlor.core.errors import E_, IllegalAction, UnknownActionId
from parlor.core.game import Game
from parlor.rl.layout import Layout, Vector
from parlor.rl.property_obs import PropertyEncoder
from parlor.rl.tools_obs import HAND_SCALE, ToolsEncoder

Mask = npt.NDArray[np.int8]
RewardKind = Literal["win_loss", "shaped", "margin"]
IllegalPolicy = Literal["raise", "penalize"]
TruncationReward = Literal["zero", "valuation"]
Liquidate = Literal["any_time", "for_debts"]

# What the mask-narrowing options need to know of each property-game id (by its action class).
_OTHER, _PROPOSAL, _LIQUIDATING, _SPENDING = 0, 1, 2, 3
# The masks a table keeps, by their legal ids: about this many bytes of them (TOOLS, 52 ids:
# some 20,000 masks, where 300 two-player games meet about 3,700 sets; the classic game's 1,466
# ids: about 700). The store is emptied when it is full.
_MASK_BYTES = 1 << 20
_NOBODY: frozenset[int] = frozenset()


class IllegalActionError(IllegalAction):
    """An agent chose an action id its mask does not allow (the environment never replaces it)."""


class _Encoder(Protocol):
    layout: Layout

    def encode(self, game: Any, seat: int) -> Vector: ...

    def update(self, game: Any, seat: int) -> Vector: ...


@dataclass(frozen=True)
class GameSpec:
    """One game configuration: ``family`` is ``"tools"`` or ``"monopoly"`` (the bot family)."""

    family: str
    edition: str | None = None  # property games: the edition id or file
    players: int = 2
    options: Mapping[str, Any] = field(default_factory=dict)
    deck: str | Path | None = None  # TOOLS: a deck TOML file, or None for the default deck

    @property
    def name(self) -> str:
        return "tools" if self.family == "tools" else str(self.edition)

    def new_game(self, seed: int) -> Game[Any]:
        if self.family == "tools":
            # (no options: the defaults, without checking an empty table at every reset)
            return tools.new_game(self.players, seed, self.deck, dict(self.options) or None)
        return monopoly.new_game(self.edition or "classic", self.players, seed, dict(self.options))

    def encoder(self, game: Game[Any]) -> _Encoder:
        if isinstance(game, tools.ToolsGame):
            return ToolsEncoder(game)
        assert isinstance(game, monopoly.PropertyGame)
        return PropertyEncoder(game)

    def potential(self, game: Game[Any], seat: int) -> float:
        """Net worth by the book's valuation (``valuation``: cash, printed prices, mortgaged deeds at
        half, buildings at cost; in starting cashes) in the property games, so that mortgaging is
        neutral and lifting costs the interest; minus the hand size (in tens of cards) in TOOLS."""
        if isinstance(game, tools.ToolsGame):
            return -game.hand_sizes[seat] / HAND_SCALE
        assert isinstance(game, monopoly.PropertyGame)
        return game.valuation(seat) / game.edition.starting_cash

    def is_out(self, game: Game[Any], seat: int) -> bool:
        """A seat that can no longer act: a bankrupt player (TOOLS has none before the end)."""
        if isinstance(game, monopoly.PropertyGame):
            return seat not in game.active_players
        return False

    def book_ranking(self, game: Game[Any]) -> tuple[int, ...]:
        """The richest by ``valuation`` among the players left (property games), or the fewest
        cards (TOOLS), now."""
        if isinstance(game, tools.ToolsGame):
            sizes = game.hand_sizes
            best = min(sizes)
            return tuple(p for p, s in enumerate(sizes) if s == best)
        assert isinstance(game, monopoly.PropertyGame)
        active = game.active_players
        values = {p: game.valuation(p) for p in active}
        best_value = max(values.values())
        return tuple(p for p in active if values[p] == best_value)


def outcome_reward(winners: tuple[int, ...], seat: int) -> float:
    """+1 to a sole winner, 0 to each of several tied winners, -1 to everyone else."""
    if seat not in winners:
        return -1.0
    return 1.0 if len(winners) == 1 else 0.0


def action_index(action_id: Any) -> int:
    """``action_id`` as an int if it is one (a Python or NumPy integer, or a 0-d integer array),
    else -1: a float such as 1.5 or 1.0, a bool or a string is no action id (``int(1.5)`` would
    quietly play action 1).

    >>> action_index(3), action_index(np.int64(3)), action_index(np.array(3))
    (3, 3, 3)
    >>> action_index(1.5), action_index(1.0), action_index(True), action_index("1")
    (-1, -1, -1, -1)
    """
    if type(action_id) is int:  # (the common case first: no bool, no NumPy type)
        return action_id
    if isinstance(action_id, np.ndarray) and action_id.shape == ():
        action_id = action_id[()]
    if isinstance(action_id, bool | np.bool_) or not isinstance(action_id, int | np.integer):
        return -1
    return int(action_id)


class Table:
    """One episode of one game, for environments to drive. Seats are ints here."""

    def __init__(
        self,
        spec: GameSpec,
        *,
        reward: RewardKind = "win_loss",
        shaping_scale: float = 1.0,
        max_steps: int = 10_000,
        truncation_reward: TruncationReward = "zero",
        illegal_action: IllegalPolicy = "raise",
        illegal_penalty: float = -1.0,
        trade_offers: bool = True,
        liquidate: Liquidate = "any_time",
    ) -> None:
        if reward not in ("win_loss", "shaped", "margin"):
            raise ValueError(f"reward must be 'win_loss', 'shaped' or 'margin', not {reward!r}")
        if illegal_action not in ("raise", "penalize"):
            raise ValueError(
                f"illegal_action must be 'raise' or 'penalize', not {illegal_action!r}"
            )
        if truncation_reward not in ("zero", "valuation"):
            raise ValueError(
                f"truncation_reward must be 'zero' or 'valuation', not {truncation_reward!r}"
            )
        if liquidate not in ("any_time", "for_debts"):
            raise ValueError(f"liquidate must be 'any_time' or 'for_debts', not {liquidate!r}")
        if max_steps < 1:
            raise ValueError("max_steps must be at least 1")
        self.spec = spec
        self.reward_kind: RewardKind = reward
        self.shaping_scale = float(shaping_scale)
        self.max_steps = max_steps
        self.truncation_reward: TruncationReward = truncation_reward
        self.illegal_action: IllegalPolicy = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        # False: trade proposals leave every mask (answers to offers stay). A smaller action set
        # for learners; the rules are unchanged, and bots still propose.
        self.trade_offers = bool(trade_offers)
        # "for_debts": mortgaging and selling buildings back only while raising funds for a debt,
        # building and lifting mortgages only otherwise; a learner cannot spin in
        # mortgage-and-lift loops, which cost it the interest and the game time.
        self.liquidate: Liquidate = liquidate
        self.game: Game[Any] = spec.new_game(0)
        self._id_kinds = self._classify_ids(self.game)
        self.encoder = spec.encoder(self.game)
        self.n = self.game.num_players
        self.num_actions = self.game.num_actions
        # Only the property games have seats that leave before the end (bankruptcy): TOOLS skips
        # the per-seat checks at every step, and its engine's legal ids are this table's as they
        # are, and only the decider's (no id narrowed by an option, no "any time" actions), so
        # decision_ids asks it directly.
        self.seats_leave = spec.family != "tools"
        # Whether only the end of the game or the cap pays anyone (TOOLS' "win_loss" rewards:
        # nobody leaves before the end), False when a seat going out pays too (the property
        # games' "win_loss"), None when any move may pay: ``act_for``'s test of the moves that
        # pay nobody.
        self._ends_pay = (not self.seats_leave) if reward == "win_loss" else None
        self.no_mask = np.zeros(self.num_actions, dtype=np.int8)
        self.no_mask.flags.writeable = False
        self._masks: dict[tuple[int, ...], Mask] = {}  # read-only masks by their legal ids
        self.reset(0)
        # (At most 29 attributes, which tests/rl/test_gym.py holds: CPython 3.11 keeps an
        # instance's attributes beside its class's shared keys only up to that many; past it
        # each table has a dict of its own and every attribute read, at every step, is slower.
        # Derive a value where it is used rather than keep one more.)

    @property
    def layout(self) -> Layout:
        return self.encoder.layout

    def reset(self, seed: int) -> None:
        self.game = self.spec.new_game(seed)
        self.steps = 0
        self.truncated = False
        self.illegal_by: int | None = None
        self.settled = [False] * self.n  # the seat has had its final reward
        # The seats the margins are taken over: those not out before the last step of the game
        # (the step that ends it changes nothing here, so no winner's margin is over no rival).
        self.in_play = list(range(self.n))
        self._potential = self.measures()
        self._forget()

    def _forget(self) -> None:
        """Drop what was worked out for the last position (the game moved)."""
        # The decider and the mask of one position, kept while the game's log has this length
        # (apply appends to it: a game moved from outside, through ``table.game``, is seen too).
        self._at = -1
        self._decider: int | None = None
        self._mask: Mask | None = None
        self._ids: list[int] | None = None
        self._out: frozenset[int] = frozenset()

    # ----- what the environments read --------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.game.is_over or self.truncated or self.illegal_by is not None

    @property
    def decider(self) -> int | None:
        if len(self.game.log) != self._at:
            self._locate()
        return self._decider

    def _locate(self) -> None:
        game = self.game
        self._at = len(game.log)
        over = game.is_over or self.truncated or self.illegal_by is not None
        self._decider = None if over else game.decider
        self._mask = None
        self._ids = None
        if self.seats_leave:  # (the out seats are the bankrupt ones: found in C, once a step)
            bankrupt: list[bool] = game.bankrupt  # type: ignore[attr-defined]
            self._out = (
                frozenset(compress(range(self.n), bankrupt)) if True in bankrupt else _NOBODY
            )

    def measures(self) -> list[float]:
        """Every seat's measure whose changes the shaped rewards pay: ``potential`` ("shaped"),
        its margin over the mean of the other seats in play ("margin"; 0 for a seat out of
        play, so the margins always sum to zero); 0 for "win_loss"."""
        if self.reward_kind == "win_loss":
            return [0.0] * self.n
        values = [self.spec.potential(self.game, p) for p in range(self.n)]
        if self.reward_kind == "shaped":
            return values
        live = self.in_play
        total = sum(values[p] for p in live)
        margins = [0.0] * self.n
        for p in live:
            margins[p] = values[p] - (total - values[p]) / (len(live) - 1)
        return margins

    def out(self, seat: int) -> bool:
        """The seat can no longer act (bankrupt: ``GameSpec.is_out``)."""
        if not self.seats_leave:
            return False
        if len(self.game.log) != self._at:
            self._locate()
        return seat in self._out

    def mask(self, seat: int) -> Mask:
        """The seat's legal ids now: all zero unless it holds the pending decision. Built once a
        step; every caller gets its own copy (what an agent does to it changes nothing here)."""
        return self._shared_mask(seat).copy()

    def _shared_mask(self, seat: int) -> Mask:
        """The mask itself, read-only (for this class's own checks)."""
        if len(self.game.log) != self._at:
            self._locate()
        if seat != self._decider:
            return self.no_mask
        mask = self._mask
        if mask is None:
            ids = self._ids
            if ids is None:
                ids = self._ids = self._legal_ids(seat)
            # The same few sets of legal ids recur all game long (draw only, a hand's plays):
            # one read-only mask per set, built once and looked up by the ids.
            key = tuple(ids)
            mask = self._masks.get(key)
            if mask is None:
                if len(self._masks) >= max(64, _MASK_BYTES // self.num_actions):  # (a miss)
                    self._masks.clear()
                mask = np.zeros(self.num_actions, dtype=np.int8)
                # One item write per legal id through a memoryview: a handful of ids, where
                # NumPy's fancy indexing would first turn the list into an index array.
                view = memoryview(cast(Any, mask))  # (typeshed: see tools_obs)
                for i in ids:
                    view[i] = 1
                mask.flags.writeable = False
                self._masks[key] = mask
            self._mask = mask
        return mask

    def legal_ids(self, seat: int) -> list[int]:
        """The seat's legal ids now, sorted (empty unless it holds the pending decision): the
        mask's ones, without the mask (the batched environments set a whole batch's at once)."""
        if len(self.game.log) != self._at:
            self._locate()
        if seat != self._decider:
            return []
        ids = self._ids
        if ids is None:  # (worked out once a position, for the mask and for this)
            ids = self._ids = self._legal_ids(seat)
        return list(ids)

    def decision_ids(self, seat: int, ordered: bool = True) -> list[int]:
        """``legal_ids`` for the batched environments, which ask once a step: straight from the
        engine, without locating the position (nor the seats out, which they do not need), and
        a list of its own that the table never changes. Not ``ordered``: in the property games
        the same set unsorted, an id possibly twice (for a mask and membership tests)."""
        if self.truncated or self.illegal_by is not None:
            return []
        game = self.game
        if not self.seats_leave:  # (TOOLS: the engine answers [] for a seat not deciding)
            return game.legal_action_ids(seat)
        if game.decider != seat:  # (the engine's decider is None once the game is over)
            return []
        if ordered:
            return self._legal_ids(seat)
        ids: list[int] = game.legal_id_list(seat)  # type: ignore[attr-defined]
        if self.trade_offers and self.liquidate == "any_time":
            return ids
        return self._narrowed(ids)

    @staticmethod
    def _classify_ids(game: Game[Any]) -> npt.NDArray[np.int8] | None:
        """Each property-game id's kind for the narrowing options (an id's class never changes;
        bid raises, which have a meaning only in an auction, are "other")."""
        if not isinstance(game, monopoly.PropertyGame):
            return None
        kinds = np.full(game.num_actions, _OTHER, dtype=np.int8)
        for i in range(game.num_actions):
            try:
                action = game.action_from_id(i, 0)
            except UnknownActionId:
                continue
            if isinstance(action, monopoly.ProposeTrade):
                kinds[i] = _PROPOSAL
            elif isinstance(action, monopoly.Mortgage | monopoly.SellBuilding):
                kinds[i] = _LIQUIDATING
            elif isinstance(action, monopoly.Unmortgage | monopoly.Build):
                kinds[i] = _SPENDING
        return kinds

    def _legal_ids(self, seat: int) -> list[int]:
        ids = self.game.legal_action_ids(seat)
        if self._id_kinds is None or (self.trade_offers and self.liquidate == "any_time"):
            return ids
        return self._narrowed(ids)

    def _narrowed(self, ids: list[int]) -> list[int]:
        """The property-game ``ids`` the narrowing options leave, in their order."""
        kinds = self._id_kinds
        assert kinds is not None
        dropped = set()
        if not self.trade_offers:
            dropped.add(_PROPOSAL)
        if self.liquidate == "for_debts":
            pending = self.game.pending
            raising = pending is not None and pending.kind == "raise_funds"
            dropped.add(_SPENDING if raising else _LIQUIDATING)
        return [i for i in ids if kinds[i] not in dropped]

    def observe(self, seat: int) -> dict[str, npt.NDArray[Any]]:
        # (encode and mask, each one call less: the encoder's vector and the kept mask, copied)
        return {
            "observation": self.encoder.update(self.game, seat).copy(),
            "action_mask": self._shared_mask(seat).copy(),
        }

    # ----- acting ----------------------------------------------------------------------------
    def act_id(self, seat: int, action_id: Any) -> list[float]:
        """Apply the action ``action_id`` for ``seat``; return every seat's reward for it."""
        game = self.game
        if len(game.log) != self._at:
            self._locate()
        if seat != self._decider:
            raise IllegalActionError(
                E_(
                    "seat {seat} does not hold the pending decision ({pending})",
                    seat=seat,
                    pending=game.pending,
                )
            )
        # (a Python int, the common case, without the call)
        index = action_id if type(action_id) is int else action_index(action_id)
        ids = self._ids
        if ids is None:
            ids = self._ids = self._legal_ids(seat)
        if index not in ids:  # (the mask's ones: -1 and ids out of range are not among them)
            return self._illegal(seat, index, action_id, self._shared_mask(seat))
        return self.act(seat, game.action_from_id(index, seat))

    def act(self, seat: int, action: Any) -> list[float]:
        """Apply an action object (bots choose these; some, like odd trades, have no id)."""
        self.game.apply(action)
        self.steps += 1
        return [0.0] * self.n if self._pays_nobody() else self._step_rewards()

    def act_for(self, seat: int, action: Any, learner: int) -> float:
        """``act(seat, action)[learner]`` for the batched environments, without a list of every
        seat's rewards on the steps that pay nobody."""
        game = self.game
        game.apply(action)
        self.steps += 1
        # (``_pays_nobody``'s answer, inline: most moves pay nobody)
        if self._ends_pay:
            if game.outcome is None and self.steps < self.max_steps:
                return 0.0
        elif self._ends_pay is False and game.outcome is None and self.steps < self.max_steps:
            bankrupt: list[bool] = game.bankrupt  # type: ignore[attr-defined]
            if bankrupt.count(True) == self.settled.count(True):
                return 0.0
        return self._step_rewards()[learner]

    def act_and_reply(
        self, seat: int, action_id: int, bots: Mapping[int, Any]
    ) -> tuple[float, bool]:
        """For the batched environments: play ``seat``'s ``action_id``, one its legal ids allow
        (not checked again), then the ``bots``' (by seat) moves until ``seat`` decides again or
        its episode ends. ``seat``'s reward for them all, its move's plus the bots' moves' sum
        (``act_for``'s, in that float order), and whether ``seat`` holds the decision again
        (False: the game is over, cut at the cap, or the seat is out)."""
        game = self.game
        apply = game.apply
        steps, cap, leave = self.steps, self.max_steps, self.seats_leave
        # (None: any move may pay, so each goes the general way below)
        quick = self._ends_pay is not None
        out = self.settled.count(True)  # (the seats out and paid, ``seat`` not among them)
        action = game.action_from_id(action_id, seat)
        reward = total = 0.0
        mover = seat
        try:  # (the steps counted kept if a bot's move is refused by raising)
            while True:
                apply(action)
                steps += 1
                # One read for two questions: the engine's decider is None once the game is over, so
                # a decider says the game goes on (no ``outcome`` read). Within the cap and with
                # nobody newly bankrupt, the move pays nobody (``act_for``'s test).
                decider = game.decider
                if (
                    not quick
                    or decider is None
                    or steps >= cap
                    or (leave and game.bankrupt.count(True) != out)  # type: ignore[attr-defined]
                ):
                    self.steps = steps
                    paid = self._step_rewards()[seat]
                    if mover == seat:
                        reward = paid
                    else:
                        total += paid
                    if self.truncated or (leave and self.settled[seat]):
                        return reward + total, False
                    out = self.settled.count(True)
                if decider is None or decider == seat:
                    return reward + total, decider is not None
                mover = decider
                action = bots[decider].choose(game, decider)
        finally:
            self.steps = steps

    def _pays_nobody(self) -> bool:
        """Whether the action just applied surely pays no seat, found sooner than
        ``_step_rewards`` would: "win_loss" rewards while the game goes on within the cap and
        nobody is newly out (most steps). Before the end the settled seats are the out seats
        already paid, so equal counts say nobody is newly out without working out the position
        (``_locate``) at every move; the seats out are the bankrupt ones, counted in C rather
        than by listing the players in play."""
        game = self.game
        if self.reward_kind != "win_loss" or game.outcome is not None:
            return False
        if self.steps >= self.max_steps:
            return False
        if not self.seats_leave:
            return True
        bankrupt: list[bool] = game.bankrupt  # type: ignore[attr-defined]
        return bankrupt.count(True) == self.settled.count(True)

    def _step_rewards(self) -> list[float]:
        """Every seat's reward for the action just applied."""
        rewards = [0.0] * self.n
        paid = (
            [p for p in range(self.n) if not self.settled[p]]
            if self.reward_kind != "win_loss"
            else []
        )
        outcome = self.game.outcome
        if outcome is not None:
            self._settle(rewards, outcome.winners)
        else:
            if self.seats_leave:
                self.in_play = [p for p in self.in_play if not self.out(p)]
                for p in range(self.n):
                    if not self.settled[p] and self.out(p):
                        rewards[p] += -1.0
                        self.settled[p] = True
            if self.steps >= self.max_steps:
                self.truncated = True
                self._forget()
                if self.truncation_reward == "valuation":
                    self._settle(rewards, self.spec.book_ranking(self.game))
        if self.reward_kind != "win_loss":
            # Every seat in the game before this step is paid the change of its measure, the
            # seats that left it too (their margin goes to 0): the margins' changes sum to zero.
            measures = self.measures()
            for p in paid:
                rewards[p] += self.shaping_scale * (measures[p] - self._potential[p])
                self._potential[p] = measures[p]
        return rewards

    def _settle(self, rewards: list[float], winners: tuple[int, ...]) -> None:
        for p in range(self.n):
            if not self.settled[p]:
                rewards[p] += outcome_reward(winners, p)
                self.settled[p] = True

    def _illegal(self, seat: int, index: int, action_id: Any, mask: Mask) -> list[float]:
        legal = np.flatnonzero(mask).tolist()
        meaning = ""
        with contextlib.suppress(ValueError, TypeError):
            meaning = f" ({self.game.action_from_id(index, seat)!r})"
        message = (
            f"action {index if 0 <= index < self.num_actions else repr(action_id)}{meaning} is not legal for seat {seat} now "
            f"(pending: {self.game.pending}); legal ids: {legal}"
        )
        if self.illegal_action == "raise":
            raise IllegalActionError(message)
        self.illegal_by = seat
        self._forget()
        self.steps += 1
        rewards = [0.0] * self.n
        rewards[seat] = self.illegal_penalty
        self.settled = [True] * self.n
        return rewards

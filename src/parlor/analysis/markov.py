"""The exact long-run distribution of a token's position: a Markov chain over throws.

The chain is built from the :class:`~parlor.monopoly.edition.Edition` data (board, decks) and the
:class:`~parlor.monopoly.rules.RuleOptions` only; it does not call the engine, so a simulation with
the engine is an independent check of both (see ``tests/analysis/test_markov.py``).

States are "about to throw" situations of one player:

* ``Free(square, d)``: on ``square``, not in jail, having thrown ``d`` doubles so far this turn
  (``d = 0`` is the start of a turn);
* ``Jail(k)``: in jail at the start of a turn, after ``k`` failed turns (``0 <= k < jail_max_turns``).

One step is one throw of the dice and everything it sets off: the move, any card and the moves it
orders (a chain of draws is followed), Go To Jail. The next state is where the throw leaves the
player, so the stationary vector ``pi`` is at once the distribution of where each throw ends ("per
roll") and, restricted to turn starts (``d = 0`` and ``Jail``), of where each turn ends ("per
turn"): where a turn ends is where the next one starts.

Jail strategies: ``"leave"`` pays the fine (or uses a card) at once, so a jail turn starts like a
turn on Just Visiting; ``"stay"`` throws for doubles until the rules force the player out (after
``jail_max_turns`` failed throws the fine is paid and the token moves by that throw). Leaving with
doubles moves the token and ends the turn, or gives another throw under
``jail_doubles_extra_throw`` (Matador), which then counts as the turn's first doubles.

Cards: :class:`MarkovChain` draws each card independently and uniformly from its deck (the
convention of published analyses); :mod:`parlor.analysis.cycling` draws them from decks in one
fixed order that cycle as the rules have it. Both are built on :class:`TokenModel`, which holds
what they share: the states, the throws (doubles, jail) and what each card does. What the
get-out-of-jail cards do is set by ``jail_cards``: ``"deck"`` leaves them in the deck as cards that
do not move the token (the published convention; in play they come back when used), ``"held"``
takes them out of the decks for good (what happens when their holders never use them, e.g. every
player follows the "stay" strategy). ``docs/analysis.md`` compares the two card models.

>>> from parlor.monopoly.edition import load_edition
>>> chain = MarkovChain(load_edition("classic"), jail="leave")
>>> r = chain.solve()
>>> round(float(r.per_turn.squares.sum() + r.per_turn.in_jail), 12)
1.0
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from parlor.core.errors import E_, SettingsError
from parlor.monopoly.edition import Card, Edition, load_edition
from parlor.monopoly.rules import RuleOptions

N_SQUARES = 40
JAIL = -1  # an outcome "sent to jail" (the token is in jail, not just visiting)
MAX_CARD_CHAIN = 12  # a card may send the token to another card square; stop following after this

JailStrategy = Literal["leave", "stay"]
CardModel = Literal["uniform", "cycling"]
JailCards = Literal["deck", "held"]
JAIL_STRATEGIES: tuple[JailStrategy, ...] = ("leave", "stay")
CARD_MODELS: tuple[CardModel, ...] = ("uniform", "cycling")
JAIL_CARD_MODELS: tuple[JailCards, ...] = ("deck", "held")

FloatArray = npt.NDArray[np.float64]

#: The 36 equally likely throws, as (total, doubles).
THROWS: tuple[tuple[int, bool], ...] = tuple(
    (a + b, a == b) for a in range(1, 7) for b in range(1, 7)
)


@dataclass(frozen=True, slots=True)
class Arrival:
    """Where one throw's movement ends, with what a rent due there is multiplied by."""

    square: int  # 0..39, or JAIL
    rent_multiplier: int = 1  # a card's "pay the owner twice the rent"
    dice_multiplier: int | None = None  # a card's "throw the dice and pay 10 times the throw"


@dataclass(frozen=True, slots=True)
class Distribution:
    """A probability over the 40 squares, with square ``jail_square`` meaning Just Visiting and
    ``in_jail`` the probability of being in jail."""

    squares: FloatArray
    in_jail: float

    @property
    def total(self) -> float:
        return float(self.squares.sum()) + self.in_jail

    def ranked(self) -> list[tuple[int, float]]:
        """(square, probability) best first; square ``JAIL`` (-1) is In Jail."""
        items = [(i, float(p)) for i, p in enumerate(self.squares)] + [(JAIL, self.in_jail)]
        return sorted(items, key=lambda t: -t[1])


@dataclass(frozen=True, slots=True)
class Landings:
    """Expected landings per turn on each square, with the weights rent needs.

    ``count[s]``: expected number of throws per turn that end on ``s`` (a turn with doubles can
    land several times); ``rent_weight[s]``: the same, each landing weighted by its card rent
    multiplier; ``dice_weight[s]``: weighted by rent multiplier x the landing throw's total (rent of
    a utility whose owner's deed multiplier applies); ``card_dice[s]``: the expected sum of rent
    multiplier x card dice multiplier x 7 (a fresh throw) over landings sent by such a card.
    """

    count: FloatArray
    rent_weight: FloatArray
    dice_weight: FloatArray
    card_dice: FloatArray


@dataclass(frozen=True, slots=True)
class ChainResult:
    """The solved chain: per-roll and per-turn distributions and landing rates."""

    edition: Edition
    options: RuleOptions
    jail: JailStrategy
    cards: CardModel
    jail_cards: JailCards
    per_roll: Distribution
    per_turn: Distribution
    throws_per_turn: float
    landings: Landings
    stationary: FloatArray = field(repr=False)

    def distribution(self, per: str) -> Distribution:
        """``per`` is "roll" (where each throw ends) or "turn" (where each turn ends)."""
        if per not in ("roll", "turn"):
            raise SettingsError(E_("per {per}: choose roll or turn", per=repr(per)))
        return self.per_roll if per == "roll" else self.per_turn


Positions = tuple[int, ...]
#: How a deck is drawn: ``draw(deck, positions)`` gives (probability, card, positions after) for
#: each card that may come up. Uniform draws ignore the positions; a cycling deck's are its place.
Draw = Callable[[str, Positions], Iterable[tuple[float, Card, Positions]]]


@dataclass(frozen=True, slots=True)
class Throw:
    """One of the 36 throws from a state, before the square it reaches is resolved."""

    p: float  # its probability, 1/36
    total: int
    to: int | None  # the square the dice move the token to; None: the token does not move
    again: int  # after a move: doubles thrown this turn before the next throw (0: the turn ends)
    state: int = -1  # when the token does not move: the next state


class TokenModel:
    """One player's token on ``edition`` under ``options``: the states, the throws from each
    (doubles, third doubles, jail and the jail strategy) and where a square or card sends it.

    This is everything the chains share; how the decks are drawn is theirs
    (:class:`MarkovChain`: uniform draws; :class:`parlor.analysis.cycling.CyclingChain`: one fixed
    order of each deck, cycling).
    """

    def __init__(
        self,
        edition: Edition | str = "classic",
        options: RuleOptions | Mapping[str, Any] | None = None,
        jail: JailStrategy = "leave",
        jail_cards: JailCards = "deck",
    ) -> None:
        self.edition = load_edition(edition) if isinstance(edition, str) else edition
        if isinstance(options, RuleOptions):
            self.options = options
        else:
            self.options = RuleOptions.for_edition(self.edition, options)
        if jail not in JAIL_STRATEGIES:
            raise SettingsError(
                E_("unknown jail strategy {jail}: choose leave or stay", jail=repr(jail))
            )
        if jail_cards not in JAIL_CARD_MODELS:
            raise SettingsError(
                E_("unknown jail card model {model}: choose deck or held", model=repr(jail_cards))
            )
        self.jail = jail
        self.jail_cards = jail_cards
        self.jail_square = self.edition.jail_square
        self.max_jail = self.options.jail_max_turns
        self.n_free = N_SQUARES * 3
        self.n_states = self.n_free + self.max_jail
        # The cards each deck draws from, one entry per physical card.
        self.decks: dict[str, list[Card]] = {d: [] for d in self.edition.decks}
        for card in self.edition.cards:
            if card.effect == "get_out_of_jail" and jail_cards == "held":
                continue
            self.decks[card.deck].append(card)

    # ----- states ------------------------------------------------------------------------------
    @staticmethod
    def free(square: int, doubles: int) -> int:
        return square * 3 + doubles

    def jailed(self, turns: int) -> int:
        return self.n_free + turns

    def describe_state(self, state: int) -> str:
        if state >= self.n_free:
            return f"Jail({state - self.n_free})"
        return f"Free({state // 3}, {state % 3})"

    def after(self, arrival: Arrival, again: int) -> int:
        """The state a move leaves the player in: jailed (the turn ends, doubles or not), or on
        the arrival square with ``again`` doubles thrown this turn (0: the next turn starts)."""
        if arrival.square == JAIL:
            return self.jailed(0)
        return self.free(arrival.square, again)

    # ----- one throw from each state -----------------------------------------------------------
    def throws(self, state: int) -> Iterator[Throw]:
        """The 36 throws from ``state``: where the dice take the token, or the next state."""
        if state >= self.n_free:
            k = state - self.n_free
            if self.jail == "leave":
                # Paid (or used a card) before throwing: the throw is an ordinary first throw.
                yield from self._from_square(self.jail_square, 0)
                return
            for total, doubles in THROWS:
                p = 1.0 / 36
                if doubles:
                    again = 1 if self.options.jail_doubles_extra_throw else 0
                    yield Throw(p, total, (self.jail_square + total) % N_SQUARES, again)
                elif k + 1 < self.max_jail:
                    yield Throw(p, total, None, 0, self.jailed(k + 1))
                else:  # the last failed throw: pay the fine and move by it
                    yield Throw(p, total, (self.jail_square + total) % N_SQUARES, 0)
            return
        yield from self._from_square(state // 3, state % 3)

    def _from_square(self, square: int, d: int) -> Iterator[Throw]:
        for total, doubles in THROWS:
            p = 1.0 / 36
            if doubles and d == 2:  # the third doubles: to jail without moving
                yield Throw(p, total, None, 0, self.jailed(0))
            else:
                yield Throw(p, total, (square + total) % N_SQUARES, d + 1 if doubles else 0)

    # ----- where a landing ends ----------------------------------------------------------------
    def deck_at(self, square: int) -> str | None:
        """The deck a token coming to rest on ``square`` draws from (None: no draw)."""
        sq = self.edition.squares[square]
        if sq.kind not in ("chance", "community_chest"):
            return None
        deck = sq.deck or sq.kind
        return deck if self.decks.get(deck) else None

    def settle(
        self, square: int, draw: Draw, positions: Positions = ()
    ) -> Iterator[tuple[float, Arrival, Positions]]:
        """Outcomes (probability, arrival, deck positions after) of the token coming to rest on
        ``square`` by a move: Go To Jail, or the cards drawn there (and on the squares they send
        the token to) with ``draw``."""
        yield from self._follow(square, Arrival(square), 0, draw, positions)

    def _follow(
        self, square: int, arrival: Arrival, depth: int, draw: Draw, positions: Positions
    ) -> Iterator[tuple[float, Arrival, Positions]]:
        if self.edition.squares[square].kind == "go_to_jail":
            yield 1.0, Arrival(JAIL), positions
            return
        deck = self.deck_at(square)
        if deck is None or depth >= MAX_CARD_CHAIN:
            yield 1.0, arrival, positions
            return
        for p, card, drawn in draw(deck, positions):
            to, moved = self.card_outcome(square, card)
            if not moved:
                yield p, to, drawn
                continue
            for q, end, left in self._follow(to.square, to, depth + 1, draw, drawn):
                yield p * q, end, left

    def card_outcome(self, square: int, card: Card) -> tuple[Arrival, bool]:
        """Where ``card`` drawn on ``square`` sends the token, and whether it moved there (so the
        square it reached is resolved in turn: another card, Go To Jail)."""
        effect = card.effect
        if effect == "go_to_jail":
            return Arrival(JAIL), False
        if effect == "move_to":
            assert card.target is not None
            return Arrival(card.target), True
        if effect == "move_relative":
            return Arrival((square + card.steps) % N_SQUARES), True
        if effect == "move_nearest":
            steps = 1
            while self.edition.squares[(square + steps) % N_SQUARES].kind != card.kind:
                steps += 1
                if steps > N_SQUARES:
                    raise SettingsError(
                        E_("no square of kind {kind} for a move_nearest card", kind=repr(card.kind))
                    )
            to = (square + steps) % N_SQUARES
            return Arrival(to, card.rent_multiplier, card.dice_multiplier), True
        # money cards and a get-out-of-jail card: the token stays on the card square
        return Arrival(square), False

    # ----- results -----------------------------------------------------------------------------
    def result(
        self,
        pi: FloatArray,
        per_throw: tuple[FloatArray, FloatArray, FloatArray, FloatArray],
        cards: CardModel,
    ) -> ChainResult:
        """The figures of a stationary vector ``pi`` over the states (where each throw ends) and
        the expected landings of one throw under it (count, rent-, dice-, card-dice-weighted)."""
        free = pi[: self.n_free].reshape(N_SQUARES, 3)
        jail_mass = float(pi[self.n_free :].sum())
        # After a throw the player is in the next state: pi is the per-roll distribution.
        per_roll = Distribution(free.sum(axis=1), jail_mass)
        starts = float(free[:, 0].sum()) + jail_mass  # share of throws that start a turn
        per_turn = Distribution(free[:, 0] / starts, jail_mass / starts)
        count, rent_w, dice_w, card_d = per_throw
        landings = Landings(
            count=count / starts,
            rent_weight=rent_w / starts,
            dice_weight=dice_w / starts,
            card_dice=card_d / starts,
        )
        return ChainResult(
            edition=self.edition,
            options=self.options,
            jail=self.jail,
            cards=cards,
            jail_cards=self.jail_cards,
            per_roll=per_roll,
            per_turn=per_turn,
            throws_per_turn=1.0 / starts,
            landings=landings,
            stationary=pi,
        )


class MarkovChain(TokenModel):
    """The throw-by-throw chain of one player on ``edition`` under ``options``, cards drawn
    uniformly (:mod:`parlor.analysis.cycling` draws them from cycling decks)."""

    def __init__(
        self,
        edition: Edition | str = "classic",
        options: RuleOptions | Mapping[str, Any] | None = None,
        jail: JailStrategy = "leave",
        cards: CardModel = "uniform",
        jail_cards: JailCards = "deck",
    ) -> None:
        if cards != "uniform":
            raise SettingsError(
                f"card model {cards!r}: MarkovChain draws cards uniformly; cycling decks are "
                "parlor.analysis.cycling (or parlor.analysis.analyse(..., cards='cycling'))"
                if cards == "cycling"
                else f"unknown card model {cards!r}: choose {', '.join(CARD_MODELS)}"
            )
        super().__init__(edition, options, jail, jail_cards)
        self.cards: CardModel = cards
        self._resolved: dict[int, list[tuple[float, Arrival]]] = {}
        self._matrices: tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray] | None
        self._matrices = None

    def _uniform(self, deck: str, positions: Positions) -> Iterator[tuple[float, Card, Positions]]:
        cards = self.decks[deck]
        share = 1.0 / len(cards)
        for card in cards:
            yield share, card, positions

    def resolve(self, square: int) -> list[tuple[float, Arrival]]:
        """Outcomes (probability, arrival) of the token coming to rest on ``square`` by a move."""
        if square not in self._resolved:
            merged: dict[Arrival, float] = {}
            for p, arrival, _ in self.settle(square, self._uniform):
                merged[arrival] = merged.get(arrival, 0.0) + p
            self._resolved[square] = list((p, a) for a, p in merged.items())
        return self._resolved[square]

    def throw_outcomes(self, state: int) -> Iterator[tuple[float, int, Arrival | None, int]]:
        """(probability, next state, arrival or None if the token did not move, throw total)."""
        for t in self.throws(state):
            if t.to is None:
                yield t.p, t.state, None, t.total
                continue
            for q, arrival in self.resolve(t.to):
                yield t.p * q, self.after(arrival, t.again), arrival, t.total

    # ----- the chain ---------------------------------------------------------------------------
    def matrices(self) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]:
        """Transition matrix P[state, next] and per-state expected landings of one throw:
        count, rent-weighted, dice-weighted and card-dice-weighted (each ``n_states x 40``).
        Computed once per chain (the money tables need the transitions again); do not modify."""
        if self._matrices is not None:
            return self._matrices
        n = self.n_states
        trans = np.zeros((n, n))
        count = np.zeros((n, N_SQUARES))
        rent_w = np.zeros((n, N_SQUARES))
        dice_w = np.zeros((n, N_SQUARES))
        card_d = np.zeros((n, N_SQUARES))
        for s in range(n):
            for p, nxt, arrival, total in self.throw_outcomes(s):
                trans[s, nxt] += p
                if arrival is None or arrival.square == JAIL:
                    continue
                sq = arrival.square
                count[s, sq] += p
                rent_w[s, sq] += p * arrival.rent_multiplier
                if arrival.dice_multiplier is None:
                    dice_w[s, sq] += p * arrival.rent_multiplier * total
                else:  # the card has the mover throw again: the expected throw is 7
                    card_d[s, sq] += p * arrival.rent_multiplier * arrival.dice_multiplier * 7
        self._matrices = (trans, count, rent_w, dice_w, card_d)
        return self._matrices

    def solve(self) -> ChainResult:
        trans, count, rent_w, dice_w, card_d = self.matrices()
        pi = stationary(trans)
        return self.result(pi, (pi @ count, pi @ rent_w, pi @ dice_w, pi @ card_d), self.cards)


def stationary(trans: FloatArray) -> FloatArray:
    """The stationary vector of a row-stochastic matrix: solve pi (P - I) = 0 with sum(pi) = 1.

    States that cannot be reached (e.g. standing on Go To Jail) get probability 0; the chain of
    reachable states is irreducible and aperiodic (the dice see to that), so the answer is unique.
    """
    n = trans.shape[0]
    a = trans.T - np.eye(n)
    a[-1, :] = 1.0  # replace one (redundant) balance equation by the normalisation
    b = np.zeros(n)
    b[-1] = 1.0
    pi: FloatArray = np.asarray(np.linalg.solve(a, b), dtype=np.float64)
    pi[np.abs(pi) < 1e-15] = 0.0
    return pi

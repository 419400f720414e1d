"""The exact long-run distribution with cycling decks: one fixed order of each deck.

The rules cycle each deck: the top card is drawn and goes to the bottom (a get-out-of-jail card
leaves the deck while it is held). Averaged over unknown orders the state would be the orders
themselves (16! x 16!), but for ONE fixed order of each deck the token's position and each deck's
place in its order make a Markov chain: the state of :class:`~parlor.analysis.markov.MarkovChain`
(square, doubles thrown, jail) x the position in each deck. Classic: 123 x 16 x 16 = 31,488 states
(15 x 15 with the jail cards held); Matador, one 46-card deck: 123 x 46.

The moves, the jail and what each card does are :class:`~parlor.analysis.markov.TokenModel`'s,
shared with the uniform chain; only the draw differs (the card at the deck's position, which then
moves on by one). With ``jail_cards="deck"`` a get-out-of-jail card keeps its slot and does not
move the token; with ``"held"`` it has left the deck for good and the deck cycles one card short.

How it is solved (numpy only). Between two draws the positions stand still and the token moves by
the throws that reach no card: ``A[s, s']`` over the base states. The other throws reach a card
square ``t`` with ``again`` doubles to go (a "context" ``c = (t, again)``): ``D[s, c]``. Then
``N = (I - A)^-1`` counts the visits to each state before the next draw and ``H = N D`` gives the
context of the next draw. A draw is deterministic given the positions ``q``: context ``c`` sends
the token to state ``b(c, q)`` and the decks to ``q'(c, q)``. Seen at its draws, the chain lives on
(context, positions), 18 x 256 states in classic, and steps from ``(c, q)`` to ``(c', q'(c, q))``
with probability ``H[b(c, q), c']``. Its stationary vector ``x`` comes from power iteration on the
lazy chain (each draw advances a deck by one, so the chain at draws is nearly periodic; the lazy
step ``(x + xK) / 2`` has the same fixed point and none of the period). Each draw starts a stretch
of throws without one, so the full chain's stationary vector is
``pi[s, q] ~ sum of x[c, q0] N[b(c, q0), s] over the (c, q0) with q'(c, q0) = q``.

>>> chain = CyclingChain("classic")
>>> r = chain.solve(random_orders(chain.edition, seed=0))
>>> r.cards, round(r.per_roll.total, 12), round(r.per_turn.total, 12)
('cycling', 1.0, 1.0)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from parlor.analysis.markov import (
    JAIL,
    N_SQUARES,
    ChainResult,
    Distribution,
    Draw,
    FloatArray,
    JailCards,
    JailStrategy,
    Landings,
    Positions,
    TokenModel,
    stationary,
)
from parlor.core.errors import E_, SettingsError
from parlor.monopoly.edition import Card, Edition, load_edition
from parlor.monopoly.rules import RuleOptions

IntArray = npt.NDArray[np.int64]
#: Each deck's cards by id, top first, as ``PropertyGame.snapshot()["decks_order"]`` gives them.
DeckOrders = Mapping[str, Sequence[int]]

TOLERANCE = 1e-13  # power iteration stops when one step moves the vector less than this (L1)
MAX_ITERATIONS = 200_000


def random_orders(edition: Edition | str, seed: int) -> dict[str, list[int]]:
    """One shuffle of every deck of ``edition`` (card ids, top first), reproducible by ``seed``.
    The same seed gives the same order with either ``jail_cards`` model (``held`` drops the
    get-out-of-jail cards from it)."""
    ed = load_edition(edition) if isinstance(edition, str) else edition
    rng = np.random.default_rng(seed)
    orders: dict[str, list[int]] = {}
    for deck in ed.decks:
        ids = [c.id for c in ed.cards if c.deck == deck]
        orders[deck] = [int(i) for i in rng.permutation(ids)]
    return orders


class CyclingChain(TokenModel):
    """One player's chain on ``edition`` with each deck in a fixed order, cycling.

    What does not depend on the order (the throws between draws) is built once; :meth:`solve`
    then takes an order of each deck, so many orders are cheap to solve in a row.
    """

    def __init__(
        self,
        edition: Edition | str = "classic",
        options: RuleOptions | Mapping[str, Any] | None = None,
        jail: JailStrategy = "leave",
        jail_cards: JailCards = "deck",
    ) -> None:
        super().__init__(edition, options, jail, jail_cards)
        # The decks some square draws from, and the card squares, in board order.
        drawn = {self.deck_at(sq) for sq in range(N_SQUARES)} - {None}
        self.drawn_decks: tuple[str, ...] = tuple(d for d in self.edition.decks if d in drawn)
        self.deck_sizes: tuple[int, ...] = tuple(len(self.decks[d]) for d in self.drawn_decks)
        self.n_positions = int(np.prod(self.deck_sizes, dtype=np.int64))
        self.card_squares: tuple[int, ...] = tuple(
            sq for sq in range(N_SQUARES) if self.deck_at(sq) is not None
        )
        t_index = {sq: i for i, sq in enumerate(self.card_squares)}
        n, n_t = self.n_states, len(self.card_squares)
        self.n_contexts = 3 * n_t  # context (t, again) is 3 * t_index + again
        # Throws between draws, and the throws that draw (by context; by card square for rent).
        self._a = np.zeros((n, n))
        self._d = np.zeros((n, self.n_contexts))
        self._reach = np.zeros((n, n_t))  # probability of a throw reaching card square t
        self._reach_total = np.zeros((n, n_t))  # the same, times the throw's total
        self._count = np.zeros((n, N_SQUARES))  # landings of throws that draw no card
        self._dice = np.zeros((n, N_SQUARES))  # the same, times the throw's total
        for s in range(n):
            for t in self.throws(s):
                if t.to is None:
                    self._a[s, t.state] += t.p
                elif t.to in t_index:
                    i = t_index[t.to]
                    self._d[s, 3 * i + t.again] += t.p
                    self._reach[s, i] += t.p
                    self._reach_total[s, i] += t.p * t.total
                else:
                    ((_, arrival, _),) = self.settle(t.to, _no_draw)
                    self._a[s, self.after(arrival, t.again)] += t.p
                    if arrival.square != JAIL:
                        self._count[s, arrival.square] += t.p
                        self._dice[s, arrival.square] += t.p * t.total
        if n_t:
            try:
                self._visits = np.linalg.solve(np.eye(n) - self._a, np.eye(n))
            except np.linalg.LinAlgError as exc:  # pragma: no cover - every edition has cards
                raise SettingsError(E_("some state never reaches a card square")) from exc
            self._next_draw = self._visits @ self._d  # H: from a state, the next draw's context

    # ----- one order ---------------------------------------------------------------------------
    def _cards(self, orders: DeckOrders) -> tuple[tuple[Card, ...], ...]:
        """Each drawn deck's cards in ``orders``' order, checked against the deck."""
        out: list[tuple[Card, ...]] = []
        for deck in self.drawn_decks:
            if deck not in orders:
                raise SettingsError(E_("no order given for deck {deck}", deck=repr(deck)))
            cards = self.edition.cards
            try:
                ids = [int(i) for i in orders[deck]]
                order = [
                    cards[i] for i in ids if self.jail_cards == "deck" or not _jail_card(cards[i])
                ]
            except (IndexError, TypeError, ValueError) as exc:
                raise SettingsError(
                    E_(
                        "deck {deck}: card ids must be 0..{last}",
                        deck=repr(deck),
                        last=len(cards) - 1,
                    )
                ) from exc
            want = sorted(c.id for c in self.decks[deck])
            if sorted(c.id for c in order) != want:
                raise SettingsError(
                    E_(
                        "deck {deck}: the order must hold each of its cards once ({want}), got {ids}",
                        deck=repr(deck),
                        want=want,
                        ids=ids,
                    )
                )
            out.append(tuple(order))
        return tuple(out)

    def _drawing(self, order: tuple[tuple[Card, ...], ...]) -> Draw:
        """Draws from the decks in ``order``: the card at the deck's position, and the position
        moves on by one (the card goes under)."""

        def draw(deck: str, positions: Positions) -> Iterator[tuple[float, Card, Positions]]:
            i = self.drawn_decks.index(deck)
            k = positions[i]
            cards = order[i]
            yield 1.0, cards[k], (*positions[:i], (k + 1) % len(cards), *positions[i + 1 :])

        return draw

    def draws(self, orders: DeckOrders) -> tuple[IntArray, IntArray, IntArray, IntArray]:
        """What a draw does at each card square ``t`` and positions ``q`` (flattened,
        ``numpy.ravel_multi_index`` over the drawn decks): the arrival square (``JAIL``: in jail),
        its rent and dice multipliers (0: none) and the positions after (``t x q`` arrays)."""
        draw = self._drawing(self._cards(orders))
        shape = (len(self.card_squares), self.n_positions)
        square = np.zeros(shape, dtype=np.int64)
        rent = np.ones(shape, dtype=np.int64)
        dice = np.zeros(shape, dtype=np.int64)
        then = np.zeros(shape, dtype=np.int64)
        for q in range(self.n_positions):
            positions = tuple(int(k) for k in np.unravel_index(q, self.deck_sizes))
            for i, t in enumerate(self.card_squares):
                ((_, arrival, after),) = self.settle(t, draw, positions)
                square[i, q] = arrival.square
                rent[i, q] = arrival.rent_multiplier
                dice[i, q] = arrival.dice_multiplier or 0
                then[i, q] = np.ravel_multi_index(after, self.deck_sizes)
        return square, rent, dice, then

    def _landed(self, square: IntArray) -> IntArray:
        """b(c, q): the state a draw leaves the token in, per context and positions."""
        n_t = len(self.card_squares)
        b = np.zeros((self.n_contexts, self.n_positions), dtype=np.int64)
        for i in range(n_t):
            for again in range(3):
                row = square[i]
                b[3 * i + again] = np.where(row == JAIL, self.jailed(0), self.free(row, again))
        return b

    def full_stationary(self, orders: DeckOrders) -> FloatArray:
        """The stationary vector of the whole chain, ``n_states x n_positions``."""
        return self._solve(orders)[0]

    def _solve(self, orders: DeckOrders) -> tuple[FloatArray, tuple[IntArray, ...]]:
        n, n_pos, n_c = self.n_states, self.n_positions, self.n_contexts
        square, rent, dice, then = self.draws(orders)
        if not self.card_squares:  # no deck to draw: the throws between draws are the chain
            return stationary(self._a)[:, None], (square, rent, dice, then)
        b = self._landed(square).ravel()
        q_after = np.repeat(then, 3, axis=0).ravel()  # per context: its card square's positions
        into = b * n_pos + q_after  # (state after the draw, positions after), flattened
        h_t = self._next_draw.T.copy()  # n_contexts x n_states

        def step(x: FloatArray) -> FloatArray:
            after = np.bincount(into, weights=x, minlength=n * n_pos).reshape(n, n_pos)
            out: FloatArray = (h_t @ after).ravel()
            return out

        x = np.full(n_c * n_pos, 1.0 / (n_c * n_pos))
        for _ in range(MAX_ITERATIONS):
            y = 0.5 * (x + step(x))
            moved = float(np.abs(y - x).sum())
            x = y
            if moved < TOLERANCE:
                break
        else:  # pragma: no cover - the chain mixes in a few thousand draws
            raise RuntimeError(f"power iteration did not converge (last step {moved:.1e})")
        after = np.bincount(into, weights=x, minlength=n * n_pos).reshape(n, n_pos)
        full: FloatArray = self._visits.T @ after
        full /= full.sum()
        return full, (square, rent, dice, then)

    def solve(self, orders: DeckOrders) -> ChainResult:
        """The exact long-run figures with the decks in ``orders`` (card ids, top first; with
        ``jail_cards="held"`` the get-out-of-jail cards may be left out)."""
        full, (square, rent, dice, _) = self._solve(orders)
        pi: FloatArray = full.sum(axis=1)
        count = pi @ self._count
        rent_w = count.copy()  # a throw that draws no card lands without a multiplier
        dice_w = pi @ self._dice
        card_d = np.zeros(N_SQUARES)
        if self.card_squares:
            flow = self._reach.T @ full  # t x q: throws reaching card square t at positions q
            flow_total = self._reach_total.T @ full  # the same, times the throw's total
            landed = square != JAIL
            np.add.at(count, square[landed], flow[landed])
            np.add.at(rent_w, square[landed], (flow * rent)[landed])
            plain = landed & (dice == 0)
            np.add.at(dice_w, square[plain], (flow_total * rent)[plain])
            by_card = landed & (dice > 0)
            np.add.at(card_d, square[by_card], (flow * rent * dice * 7)[by_card])
        return self.result(pi, (count, rent_w, dice_w, card_d), "cycling")

    def transitions(self, orders: DeckOrders) -> tuple[IntArray, IntArray, FloatArray]:
        """The whole chain's transitions as (from, to, probability) over the states
        ``state * n_positions + q``, built throw by throw (a check on :meth:`solve`)."""
        n_pos = self.n_positions
        square, _, _, then = self.draws(orders)
        b = self._landed(square)
        t_index = {sq: i for i, sq in enumerate(self.card_squares)}
        qs = np.arange(n_pos)
        rows: list[IntArray] = []
        cols: list[IntArray] = []
        probs: list[FloatArray] = []
        for s in range(self.n_states):
            for t in self.throws(s):
                if t.to is None:
                    to = t.state * n_pos + qs
                elif t.to in t_index:
                    i = t_index[t.to]
                    to = b[3 * i + t.again] * n_pos + then[i]
                else:
                    ((_, arrival, _),) = self.settle(t.to, _no_draw)
                    to = self.after(arrival, t.again) * n_pos + qs
                rows.append(s * n_pos + qs)
                cols.append(to)
                probs.append(np.full(n_pos, t.p))
        return np.concatenate(rows), np.concatenate(cols), np.concatenate(probs)


def _jail_card(card: Card) -> bool:
    return card.effect == "get_out_of_jail"


def _no_draw(deck: str, positions: Positions) -> Iterator[tuple[float, Card, Positions]]:
    raise AssertionError(f"a square without cards drew from {deck!r}")  # pragma: no cover


@dataclass(frozen=True, slots=True)
class CyclingAverage:
    """The exact figures of several shuffles (``results``, one per seed) and their mean.

    ``mean`` is the expected long-run figure of a game played with a random shuffle, estimated
    from ``len(results)`` of them; it plugs into the tables, CSV, heatmaps and rents as any result.
    """

    mean: ChainResult
    results: tuple[ChainResult, ...]
    seeds: tuple[int, ...]

    def values(self, per: str) -> FloatArray:
        """Orders x 41: each shuffle's probability per square (40 squares, then In Jail)."""
        rows = [r.distribution(per) for r in self.results]
        return np.array([np.append(d.squares, d.in_jail) for d in rows])

    def std(self, per: str) -> FloatArray:
        """Per square, the standard deviation across shuffles (41 entries; 0 for one shuffle)."""
        v = self.values(per)
        return v.std(axis=0, ddof=1) if len(v) > 1 else np.zeros(v.shape[1])

    def low(self, per: str) -> FloatArray:
        """Per square, the least of the shuffles' figures."""
        out: FloatArray = self.values(per).min(axis=0)
        return out

    def high(self, per: str) -> FloatArray:
        """Per square, the greatest of the shuffles' figures."""
        out: FloatArray = self.values(per).max(axis=0)
        return out


def mean_result(results: Sequence[ChainResult]) -> ChainResult:
    """The figures averaged over ``results`` (each a long-run figure of one shuffle)."""
    first = results[0]

    def avg(get: Callable[[ChainResult], Any]) -> Any:
        return np.mean([get(r) for r in results], axis=0)

    def dist(per: str) -> Distribution:
        return Distribution(
            avg(lambda r: r.distribution(per).squares),
            float(avg(lambda r: r.distribution(per).in_jail)),
        )

    return ChainResult(
        edition=first.edition,
        options=first.options,
        jail=first.jail,
        cards=first.cards,
        jail_cards=first.jail_cards,
        per_roll=dist("roll"),
        per_turn=dist("turn"),
        throws_per_turn=float(avg(lambda r: r.throws_per_turn)),
        landings=Landings(
            count=avg(lambda r: r.landings.count),
            rent_weight=avg(lambda r: r.landings.rent_weight),
            dice_weight=avg(lambda r: r.landings.dice_weight),
            card_dice=avg(lambda r: r.landings.card_dice),
        ),
        stationary=avg(lambda r: r.stationary),
    )


def average(
    edition: Edition | str = "classic",
    options: RuleOptions | Mapping[str, Any] | None = None,
    jail: JailStrategy = "leave",
    jail_cards: JailCards = "deck",
    orders: int = 20,
    seed: int = 0,
    progress: Callable[[], object] | None = None,
) -> CyclingAverage:
    """Solve the cycling chain exactly for the shuffles ``random_orders(edition, s)``, ``s`` from
    ``seed`` to ``seed + orders - 1``, and average them; ``progress()`` is called after each."""
    if orders < 1:
        raise SettingsError(E_("orders must be at least 1"))
    chain = CyclingChain(edition, options, jail, jail_cards)
    seeds = tuple(range(seed, seed + orders))
    results = []
    for s in seeds:
        results.append(chain.solve(random_orders(chain.edition, s)))
        if progress is not None:
            progress()
    return CyclingAverage(mean_result(results), tuple(results), seeds)


__all__ = [
    "CyclingAverage",
    "CyclingChain",
    "DeckOrders",
    "average",
    "mean_result",
    "random_orders",
]

"""Monte-Carlo search over determinized copies of the game, for any Parlor game.

At a decision worth searching, the bot lists a few candidate actions (the answers to the pending
decision, plus the any-time action its heuristic would take), then runs iterations: each one asks
``game.determinize(player, seed)`` for a copy in which what the bot cannot see (other hands, deck
order, future dice) is resampled, applies a candidate chosen by UCB1, plays on with the heuristic
bot at every seat, and scores the result for the bot (win 1, tie shared, or an evaluation when the
rollout is cut off at ``depth`` actions). This is single-observer information-set MCTS kept to the
root: the tree below the root is replaced by heuristic rollouts, which keeps the branching small
and the bot fast enough for tournaments.

Candidates share their determinizations (the k-th sample of every candidate uses the k-th seed),
so they are compared on the same dice and deals. With a budget in ``simulations`` the bot is
deterministic for a given seed; ``time_ms`` bounds the time per searched decision instead.

In two-player TOOLS the evaluation of a cut-off rollout is the probability of winning that
:mod:`parlor.bots.tools_value` fitted on heuristic self-play, and rollouts stop after 16 actions.

Elsewhere (a single legal answer, or a decision the game's adapter does not search, such as
raising funds in the property game) the bot plays its heuristic's choice at once.

In the property game the bot's own policy is :class:`OfferingHeuristicBot`: the heuristic, stricter
when answering trades, that also offers to buy the lots of a colour group it has started, at the
lowest price the heuristic seller accepts. The search weighs those offers against not offering,
auction bids (pass, the minimum raise, just over the highest opponent's limit, fractions of its
own valuation), buying, jail and trade answers, and in a building shortage wishing for the
fewest or the most of the scarce buildings; rollouts play the bot's seat with the same policy.
"""

from __future__ import annotations

import math
import random
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from parlor.bots.base import Bot
from parlor.core.game import Game


@dataclass(frozen=True, slots=True)
class Adapter:
    """What the search needs to know about one game family."""

    make_heuristic: Callable[[int], Bot]
    #: Candidate actions at this decision (given the heuristic's choice); one or none: no search.
    candidates: Callable[[Game[Any], int, Any], list[Any]]
    #: The bot's score in [0, 1] for a game cut off before its end.
    evaluate: Callable[[Game[Any], int], float]
    #: Default rollout length in actions, or a function of the game giving it.
    depth: int | Callable[[Game[Any]], int]
    #: The bot's own policy outside searches (default: ``make_heuristic``).
    make_own: Callable[[int], Bot] | None = None
    #: The searching seat's policy in rollouts (default: ``make_heuristic``, as the others).
    make_own_rollout: Callable[[int], Bot] | None = None
    #: Told which action the search chose, so the adapter may remember it (e.g. offers made).
    chosen: Callable[[Game[Any], int, Any], None] | None = None
    #: The first candidate, not the heuristic's choice, is the one kept unless beaten clearly.
    first_is_default: bool = False
    #: ``(game, player, seed) -> copy`` resampling what ``player`` cannot see (default: the
    #: game's own ``determinize``).
    determinize: Callable[[Game[Any], int, int], Game[Any]] | None = None


def _outcome_score(game: Game[Any], player: int) -> float:
    outcome = game.outcome
    assert outcome is not None
    if player in outcome.winners:
        return 1.0 / len(outcome.winners)
    return 0.0


# ----- the property game ---------------------------------------------------------------------
#: Most trade offers searched at one decision (besides not offering).
MAX_OFFERS = 3
#: Also offer to buy part of a group (the lots one owner holds) when it does not complete it.
PARTIAL_OFFERS = True
#: Also offer to buy the lots that keep another opponent from completing a group.
BLOCK_OFFERS = False
#: Most offers the bot makes in one turn.
OFFERS_PER_TURN = 3


@dataclass(slots=True)
class _Offers:
    """What the search bot remembers of one game: the offers it made and when."""

    made: set[Any]
    turn: int  # the turn (round * 16 + player) of the last offer made
    count: int  # offers made in that turn
    searched: set[tuple[int, str, int]]  # (turn, decision kind, offers made) already searched


_OFFERS: weakref.WeakKeyDictionary[Any, dict[int, _Offers]] = weakref.WeakKeyDictionary()


def _offers_memory(game: Game[Any], player: int) -> _Offers:
    per_game = _OFFERS.get(game)
    if per_game is None:
        per_game = _OFFERS[game] = {}
    memory = per_game.get(player)
    if memory is None:
        memory = per_game[player] = _Offers(set(), -1, 0, set())
    return memory


def _opponent_model() -> Any:
    from parlor.bots.monopoly_heuristic import MonopolyHeuristicBot

    global _MODEL
    if _MODEL is None:
        _MODEL = MonopolyHeuristicBot(0)
    return _MODEL


_MODEL: Any = None


def _trade_offers(game: Game[Any], player: int) -> list[Any]:
    """Offers to buy, at the lowest price the seller accepts by the heuristic's measure, the lots
    one opponent holds in a colour group where ``player`` owns a lot: first those that complete
    the group (best first by the bot's own gain in worth), then the partial ones (the most of a
    group first); at most :data:`MAX_OFFERS`, none made before in this game."""
    from parlor.bots.monopoly_table import Table

    memory = _offers_memory(game, player)
    table = Table.of(game)
    b = table.board
    scored: list[tuple[float, Any]] = []
    for group in b.street_groups:
        mine = [s for s in group if table.owner[s] == player]
        rest = [s for s in group if table.owner[s] != player]
        if not rest or any(table.buildings[s] for s in group):
            continue
        holders = {table.owner[s] for s in rest}
        for other in sorted(holders):
            if other < 0 or table.bankrupt[other]:
                continue
            take = tuple(s for s in rest if table.owner[s] == other)
            complete = len(take) == len(rest)
            if not mine:
                # Blocking: the lots standing between another opponent and the group.
                if not BLOCK_OFFERS or len(holders) != 2 or -1 in holders:
                    continue
                if len(take) * 2 > len(group):
                    continue
            elif not complete and not PARTIAL_OFFERS:
                continue
            _offers_for(game, table, player, other, group, take, complete, memory, scored)
    scored.sort(key=lambda x: -x[0])
    return [offer for _, offer in scored[:MAX_OFFERS]]


def _offers_for(
    game: Game[Any],
    table: Any,
    player: int,
    other: int,
    group: tuple[int, ...],
    take: tuple[int, ...],
    complete: bool,
    memory: _Offers,
    scored: list[tuple[float, Any]],
) -> None:
    """Append to ``scored`` the offers to buy ``take`` (lots of ``group`` held by ``other``) at
    the lowest price ``other`` accepts by the heuristic's measure, with (when the purchase
    completes the group) the variants that also give the lot completing one of ``other``'s."""
    from parlor.monopoly.actions import ProposeTrade

    model = _opponent_model()
    b = table.board
    unit = b.edition.money_unit
    cash = table.cash[player]
    keep = 0.05 * b.edition.starting_cash
    sweeteners: list[tuple[int, ...]] = [()]
    for g2 in b.street_groups if complete else ():
        if g2 == group:
            continue
        missing = [s for s in g2 if table.owner[s] != other]
        if (
            len(missing) == 1
            and len(missing) < len(g2)
            and table.owner[missing[0]] == player
            and not any(table.buildings[s] for s in g2)
        ):
            sweeteners.append((missing[0],))
    for give in sweeteners:
        data = {
            "give_squares": list(give),
            "take_squares": list(take),
            "give_cash": 0,
            "take_cash": 0,
            "give_jail_cards": 0,
            "take_jail_cards": 0,
        }
        # Their gain grows by (1 + their weight) per unit paid: solve for the lowest price.
        slope = 2.0 if len(table.active()) <= 2 else 1.0 + model.trade_weight
        gain0 = model.trade_gain(table, player, other, data, answering=True)
        pay = 0 if gain0 > 0 else math.ceil((-gain0 / slope + 1) / unit) * unit
        for _ in range(4):
            data["give_cash"] = pay
            if model.trade_gain(table, player, other, data, answering=True) > 0:
                break
            pay += unit
        else:
            continue
        if pay > cash - keep or (not give and pay <= 0):
            continue
        offer = ProposeTrade(player, other, give_squares=give, take_squares=take, give_cash=pay)
        if offer in memory.made or not game.is_legal(offer):
            continue
        if complete:
            score = model.trade_gain(table, player, other, data, answering=False, weight=0.0)
        else:
            # A step towards a group: after every completion, the more owned the better.
            owned = sum(1 for s in group if table.owner[s] == player) + len(take)
            score = -1e6 + 1e3 * owned / len(group) - pay / unit
            if owned == len(take):
                score -= 1e3  # a blocking purchase comes last
        scored.append((score, offer))


def _bid_candidates(game: Game[Any], player: int, answers: list[Any]) -> list[Any]:
    """Pass, the minimum raise, and jump bids: just over the highest opponent's limit (by the
    heuristic's measure) and at fractions of the bot's own valuation."""
    from parlor.bots.monopoly_table import Table
    from parlor.monopoly.actions import Bid, PassBid

    pending = game.pending
    assert pending is not None
    bids = sorted((a for a in answers if isinstance(a, Bid)), key=lambda a: a.amount)
    out: list[Any] = [PassBid(player)]
    if not bids:
        return out
    table = Table.of(game)
    b = table.board
    sq = int(pending.info["square"])
    unit = b.edition.money_unit
    model = _opponent_model()
    mine = model.property_value(table, player, sq)
    if bids[0].amount > 1.3 * mine:
        return out  # beyond what the lot is worth to the bot: nothing to search
    out.append(bids[0])
    cash = table.cash[player]
    others = [
        model.bid_limit(table, q, sq)
        for q in table.active()
        if q != player and q != pending.info.get("high_bidder")
    ]
    top = max([float(pending.info["high_bid"]), *others])
    levels = [top + unit, 0.8 * mine, mine]
    for level in levels:
        amount = math.ceil(level / unit) * unit
        if amount <= bids[0].amount or amount > cash or amount > 1.3 * mine:
            continue
        bid = Bid(player, amount)
        if bid not in out and game.is_legal(bid):
            out.append(bid)
    return out


def _monopoly_candidates(game: Game[Any], player: int, default: Any) -> list[Any]:
    from parlor.monopoly.actions import Bid, ProposeTrade

    pending = game.pending
    assert pending is not None
    kind = pending.kind
    answers = game.legal_actions(player, anytime=False)
    if kind in ("buy_or_auction", "jail", "answer_trade"):
        out = list(answers)
    elif kind == "building_wish":
        out = list(dict.fromkeys((answers[0], answers[-1])))  # fewest and most, vs the policy's
    elif kind == "bid" and pending.info.get("item") == "property":
        if not any(isinstance(a, Bid) for a in answers):
            return [default]
        out = _bid_candidates(game, player, answers)
    elif kind in ("start_turn", "end_turn"):
        offers = _open_offers(game, player, mark=True)
        if not offers:
            return [default]
        # The best offer is the choice to beat (the bot's own policy makes it): the heuristics
        # accept it, and it pays on average. Not offering is the last candidate.
        out = [*offers]
        if isinstance(default, ProposeTrade):
            out.extend(a for a in answers if a not in out)
        else:
            out.append(default)
        return out
    else:
        return [default]
    if default in out:
        out.remove(default)
    if kind in ("start_turn", "end_turn") and out and isinstance(out[0], ProposeTrade):
        return [*out, default]
    return [default, *out]


def _open_offers(game: Game[Any], player: int, mark: bool = False) -> list[Any]:
    """The offers :func:`_trade_offers` lists, unless ``player`` made its offers for this turn
    or they were already searched at this decision (``mark``: remember this search)."""
    memory = _offers_memory(game, player)
    pending = game.pending
    assert pending is not None
    turn = int(game.round) * 16 + player  # type: ignore[attr-defined]
    made = memory.count if memory.turn == turn else 0
    key = (turn, pending.kind, made)
    if made >= OFFERS_PER_TURN or key in memory.searched:
        return []
    if mark:
        if len(memory.searched) > 64:
            memory.searched.clear()
        memory.searched.add(key)
    return _trade_offers(game, player)


class OfferingHeuristicBot:
    """The property heuristic, stricter in answering trades (the other side's gain counts in
    full), that at the start and end of its turns makes the best offer of
    :func:`_trade_offers` (up to :data:`OFFERS_PER_TURN` per turn). The search bot's own policy,
    and its seat's policy in rollouts (``record``: it remembers its offers itself)."""

    name = "offering-heuristic"

    def __init__(self, seed: int | None = None, *, record: bool = True) -> None:
        from parlor.bots.monopoly_heuristic import MonopolyHeuristicBot

        self.heuristic = MonopolyHeuristicBot(seed, accept_weight=1.0)
        self.rng = self.heuristic.rng
        self.record = record

    def choose(self, game: Game[Any], player: int) -> Any:
        choice = self.heuristic.choose(game, player)
        pending = game.pending
        assert pending is not None
        if pending.kind in ("start_turn", "end_turn"):
            offers = _open_offers(game, player)
            if offers:
                choice = offers[0]
            if self.record:
                _monopoly_chosen(game, player, choice)
        return choice


def _monopoly_chosen(game: Game[Any], player: int, action: Any) -> None:
    from parlor.monopoly.actions import ProposeTrade

    if isinstance(action, ProposeTrade):
        memory = _offers_memory(game, player)
        memory.made.add(action)
        turn = int(game.round) * 16 + player  # type: ignore[attr-defined]
        memory.count = memory.count + 1 if memory.turn == turn else 1
        memory.turn = turn


def _monopoly_evaluate(game: Game[Any], player: int) -> float:
    from parlor.bots.monopoly_table import Table

    if game.is_over:
        return _outcome_score(game, player)
    table = Table.of(game)
    worths = [
        max(0.0, table.worth(p)) if not table.bankrupt[p] else 0.0 for p in range(game.num_players)
    ]
    total = sum(worths)
    return worths[player] / total if total > 0 else 0.0


def _monopoly_heuristic(seed: int) -> Bot:
    from parlor.bots.monopoly_heuristic import MonopolyHeuristicBot

    return MonopolyHeuristicBot(seed)


def _monopoly_own(seed: int) -> Bot:
    return OfferingHeuristicBot(seed, record=False)


def _monopoly_own_rollout(seed: int) -> Bot:
    return OfferingHeuristicBot(seed, record=True)


# ----- TOOLS ---------------------------------------------------------------------------------
#: Two players: score cut-off rollouts by the fitted model of :mod:`parlor.bots.tools_value`.
TOOLS_VALUE_MODEL = True


def _tools_model_applies(game: Game[Any]) -> bool:
    return TOOLS_VALUE_MODEL and game.num_players == 2  # the model is fitted on two players


def _tools_candidates(game: Game[Any], player: int, default: Any) -> list[Any]:
    out: list[Any] = []
    for action in game.legal_actions(player):
        if action not in out:
            out.append(action)
    return out


def _tools_evaluate(game: Game[Any], player: int) -> float:
    if game.is_over:
        return _outcome_score(game, player)
    if _tools_model_applies(game):
        from parlor.bots.tools_value import default_model

        return default_model().value(game, player)
    sizes: list[int] = game.view(None)["hand_sizes"]
    # Fewer cards than the others is good: the share of the others' cards, scaled to [0, 1].
    inverse = [1.0 / (1 + s) for s in sizes]
    return inverse[player] / sum(inverse)


def _tools_depth(game: Game[Any]) -> int:
    # Two players: short rollouts scored by the fitted model do as well as long ones scored by
    # hand sizes, per simulation, and cost less (docs/bots.md); more players have no model.
    return 16 if _tools_model_applies(game) else 40


def _tools_determinize(game: Game[Any], player: int, seed: int) -> Game[Any]:
    from parlor.bots.tools_inference import determinize

    return determinize(game, player, seed)  # type: ignore[arg-type]


def _tools_heuristic(seed: int) -> Bot:
    from parlor.bots.tools_heuristic import ToolsHeuristicBot

    return ToolsHeuristicBot(seed)


ADAPTERS: dict[str, Adapter] = {
    "monopoly": Adapter(
        _monopoly_heuristic,
        _monopoly_candidates,
        _monopoly_evaluate,
        150,
        make_own=_monopoly_own,
        make_own_rollout=_monopoly_own_rollout,
        chosen=_monopoly_chosen,
        first_is_default=True,
    ),
    "tools": Adapter(
        _tools_heuristic,
        _tools_candidates,
        _tools_evaluate,
        _tools_depth,
        determinize=_tools_determinize,
    ),
}


class SearchBot:
    """Determinized Monte-Carlo search with heuristic rollouts (see the module docstring).

    ``simulations`` (default 64 when no budget is given) or ``time_ms`` set the budget per searched
    decision; ``depth`` cuts rollouts off (default per game); ``exploration`` is the UCB1
    constant; ``confidence`` is how many standard errors the best candidate's paired advantage
    over the heuristic's choice must reach before the bot departs from that choice (0: always take
    the best mean).
    """

    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        *,
        simulations: int | None = None,
        time_ms: float | None = None,
        depth: int | None = None,
        exploration: float = 0.7,
        confidence: float = 1.0,
    ) -> None:
        if simulations is None and time_ms is None:
            simulations = 64
        if simulations is not None and simulations < 1:
            raise ValueError("simulations must be at least 1")
        self.rng = random.Random(seed)
        self.simulations = simulations
        self.time_ms = time_ms
        self.depth = depth
        self.exploration = exploration
        self.confidence = confidence
        self._heuristics: dict[str, Bot] = {}
        self._rollout_bots: dict[str, list[Bot]] = {}
        self.searched = 0  # decisions searched so far (for benchmarks)
        self.iterations = 0

    def _adapter(self, game: Game[Any]) -> Adapter:
        adapter = ADAPTERS.get(game.game_name)
        if adapter is None:
            raise ValueError(f"the search bot does not know the game {game.game_name!r}")
        return adapter

    def choose(self, game: Game[Any], player: int) -> Any:
        adapter = self._adapter(game)
        family = game.game_name
        heuristic = self._heuristics.get(family)
        if heuristic is None:
            make = adapter.make_own or adapter.make_heuristic
            heuristic = self._heuristics[family] = make(self.rng.getrandbits(32))
        default = heuristic.choose(game, player)
        candidates = adapter.candidates(game, player, default)
        if len(candidates) <= 1:
            choice = default
        else:
            keep = candidates[0] if adapter.first_is_default else default
            choice = self.search(game, player, candidates, adapter, keep)
        if adapter.chosen is not None:
            adapter.chosen(game, player, choice)
        return choice

    def search(
        self,
        game: Game[Any],
        player: int,
        candidates: list[Any],
        adapter: Adapter,
        default: Any = None,
    ) -> Any:
        """The candidate with the best mean score over the budget's iterations; ``default`` (the
        heuristic's choice) unless the best beats it clearly on the shared determinizations."""
        self.searched += 1
        k = len(candidates)
        counts = [0] * k
        totals = [0.0] * k
        rewards: list[list[float]] = [[] for _ in range(k)]
        base = self.rng.getrandbits(48)
        depth = self.depth if self.depth is not None else adapter.depth
        if callable(depth):
            depth = depth(game)
        deadline = None if self.time_ms is None else time.perf_counter() + self.time_ms / 1000
        bots = self._rollout_bots.get(game.game_name)
        if bots is None or len(bots) < game.num_players + 1:
            bots = [adapter.make_heuristic(i) for i in range(game.num_players)]
            own = adapter.make_own_rollout or adapter.make_heuristic
            bots.append(own(game.num_players))
            self._rollout_bots[game.game_name] = bots
        iteration = 0
        while True:
            if self.simulations is not None and iteration >= self.simulations:
                break
            if deadline is not None and iteration >= k and time.perf_counter() >= deadline:
                break
            if iteration < k:
                i = iteration
            else:
                log_n = math.log(iteration)
                i = max(
                    range(k),
                    key=lambda j: (
                        totals[j] / counts[j] + self.exploration * math.sqrt(log_n / counts[j])
                    ),
                )
            seed = (base + counts[i] * 7919) & 0xFFFFFFFFFFFF
            reward = self._rollout(game, player, candidates[i], seed, depth, adapter, bots)
            rewards[i].append(reward)
            totals[i] += reward
            counts[i] += 1
            iteration += 1
        self.iterations += iteration
        best = max(range(k), key=lambda j: (totals[j] / counts[j] if counts[j] else -1.0, -j))
        if default in candidates and self.confidence > 0:
            d = candidates.index(default)
            if best != d and not self._clearly_better(rewards[best], rewards[d]):
                return default
        return candidates[best]

    def _clearly_better(self, a: list[float], b: list[float]) -> bool:
        """Whether ``a`` beats ``b`` by ``confidence`` standard errors of the paired differences
        (the k-th samples of both share a determinization)."""
        n = min(len(a), len(b))
        if n < 2:
            return False
        diffs = [a[j] - b[j] for j in range(n)]
        mean = sum(diffs) / n
        var = sum((x - mean) ** 2 for x in diffs) / (n - 1)
        return mean > self.confidence * math.sqrt(var / n)

    def _rollout(
        self,
        game: Game[Any],
        player: int,
        action: Any,
        seed: int,
        depth: int,
        adapter: Adapter,
        bots: list[Bot],
    ) -> float:
        if adapter.determinize is not None:
            sim = adapter.determinize(game, player, seed)
        else:
            sim = game.determinize(player, seed)  # type: ignore[attr-defined]
        try:
            sim.apply(action)
        except ValueError:
            return 0.0
        rng = random.Random(seed)
        # With ``make_own_rollout`` the last bot plays the searching seat (reseeded last, so the
        # others' seeds do not depend on it).
        for b in bots:
            reseed = getattr(b, "rng", None)
            if isinstance(reseed, random.Random):
                reseed.seed(rng.getrandbits(32))
        own = bots[-1] if adapter.make_own_rollout is not None else bots[player]
        steps = 0
        while steps < depth:
            pending = sim.pending
            if pending is None:
                break
            p = pending.player
            sim.apply((own if p == player else bots[p]).choose(sim, p))
            steps += 1
        return adapter.evaluate(sim, player)

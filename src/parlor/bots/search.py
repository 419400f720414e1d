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

The parts: :mod:`parlor.bots.search_adapter` (what a game family supplies),
:mod:`parlor.bots.search_monopoly` and :mod:`parlor.bots.search_tools` (the two families),
:mod:`parlor.bots.monopoly_offers` (the property bots' trade offers and the offering heuristic).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from parlor.bots import search_monopoly, search_tools
from parlor.bots.base import Bot
from parlor.bots.monopoly_offers import OfferingHeuristicBot
from parlor.bots.search_adapter import Adapter
from parlor.core.game import Game

__all__ = ["ADAPTERS", "Adapter", "OfferingHeuristicBot", "SearchBot"]

#: The game families the search plays, by ``game_name``.
ADAPTERS: dict[str, Adapter] = {
    "monopoly": search_monopoly.ADAPTER,
    "tools": search_tools.ADAPTER,
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

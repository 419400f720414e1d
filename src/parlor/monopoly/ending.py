"""The end of the game and the valuations it rests on.

Clauses (docs/rules/README.md): S20 the end (the last player left; the first bankruptcy in the
short game; a time limit or a called time, the highest valuation winning, ties sharing), S11 (the
total worth income tax takes its percentage of), S19 (what a bankrupt player leaves ends the game
when one player is left).
"""

from __future__ import annotations

from parlor.core.errors import E_, IllegalAction
from parlor.core.game import Event, Outcome
from parlor.monopoly.actions import Action, CallTime
from parlor.monopoly.frames import Frame
from parlor.monopoly.table import AnytimeCheck, Handler
from parlor.monopoly.trades import TradeRules


class EndRules(TradeRules):
    # ----- valuations --------------------------------------------------------------------------
    def total_worth(self, player: int) -> int:
        """Cash, printed prices of all properties (mortgaged or not) and the cost of buildings:
        the income-tax and Matador-legat measure."""
        worth = self.cash[player]
        price = self._sq.price
        for sq in self._sq.props:
            if self.owner[sq] == player:
                worth += price[sq] + self.building_cost_value(sq)
        return worth

    def valuation(self, player: int) -> int:
        """The short game's valuation: cash, printed prices, mortgaged at half, buildings at cost."""
        if self.bankrupt[player]:
            return 0
        worth = self.cash[player]
        prices = self._sq.price
        for sq in self._sq.props:
            if self.owner[sq] == player:
                price = prices[sq]
                worth += price // 2 if self.mortgaged[sq] else price
                worth += self.building_cost_value(sq)
        return worth

    # ----- the end (S20) -----------------------------------------------------------------------
    def _check_end(self, ev: list[Event]) -> bool:
        active = self.active_players
        if len(active) == 1:
            ranking = (active[0], *reversed(self.bankrupt_order))
            self._set_outcome((active[0],), "bankruptcy", ranking, ev)
            return True
        if self.options.end_at_first_bankruptcy:
            self._finish_by_valuation("first_bankruptcy", ev)
            return True
        return False

    def _finish_by_valuation(self, reason: str, ev: list[Event]) -> None:
        scores = [self.valuation(p) for p in range(self.num_players)]
        active = self.active_players
        best = max(scores[p] for p in active)
        winners = tuple(p for p in active if scores[p] == best)
        ranking = tuple(sorted(active, key=lambda q: -scores[q])) + tuple(
            reversed(self.bankrupt_order)
        )
        self._set_outcome(winners, reason, ranking, ev, scores)

    def _set_outcome(
        self,
        winners: tuple[int, ...],
        reason: str,
        ranking: tuple[int, ...],
        ev: list[Event],
        scores: list[int] | None = None,
    ) -> None:
        scores = scores or [self.valuation(p) for p in range(self.num_players)]
        self._outcome = Outcome(winners, reason, ranking, tuple(float(s) for s in scores))
        self._return_reserved(self.frames)
        self.frames = []
        ev.append(Event("game_over", {"winners": list(winners), "reason": reason}))

    def _check_call_time(self, action: CallTime) -> None:
        if not self.options.time_call_allowed:
            raise IllegalAction(E_("time can be called only in a time-limit or quick game"))

    def _do_call_time(self, action: CallTime, top: Frame, ev: list[Event]) -> None:
        ev.append(Event("time_called", {"player": action.player}))
        self._finish_by_valuation("time_called", ev)


HANDLERS: dict[type[Action], Handler] = {CallTime: EndRules._do_call_time}
ANYTIME_CHECKS: dict[type[Action], AnytimeCheck] = {CallTime: EndRules._check_call_time}

"""The scripted players of the analysis cross-checks: they move, and keep money out of play.

They decline every property and pass every bid (so no rent is ever due), and in jail either
leave at once (use a held card if asked, else pay the fine; when that is not allowed, throw) or
throw for doubles, as the jail strategy says. :mod:`parlor.analysis.simulate` counts where they
land; :mod:`parlor.analysis.moneysim` counts the money the rules still move.

Only the engine's public interface is used.

>>> from parlor import monopoly
>>> game = monopoly.new_game("classic", players=2, seed=1)
>>> step = answer(game, game.pending, jail="leave")
>>> type(step.action).__name__, step.planned
('RollDice', True)
"""

from __future__ import annotations

from dataclasses import dataclass

from parlor import monopoly
from parlor.analysis.markov import JailStrategy
from parlor.core.errors import IllegalAction
from parlor.core.game import Decision, Event
from parlor.monopoly import Action


@dataclass(frozen=True, slots=True)
class Step:
    """What one answer did: the action applied, its events, and whether it was the policy's
    own choice (``False``: that was refused, e.g. a fine without the cash, and a throw replaced it)."""

    action: Action
    events: list[Event]
    planned: bool = True


def answer(
    game: monopoly.PropertyGame,
    decision: Decision,
    *,
    jail: JailStrategy,
    use_jail_card: bool = False,
    cheaper_tax: bool = False,
) -> Step:
    """Answer ``decision`` as the scripted players do. ``use_jail_card``: leave jail with a held
    card rather than the fine (the caller knows what is held). At an income-tax choice they pay the
    flat amount, or with ``cheaper_tax`` the cheaper way for their total worth."""
    p, kind = decision.player, decision.kind
    action: Action
    if kind in ("start_turn", "roll_again"):
        action = monopoly.RollDice(p)
    elif kind == "jail":
        if jail == "leave":
            leave = monopoly.UseJailCard(p) if use_jail_card else monopoly.PayJailFine(p)
            try:
                return Step(leave, game.apply(leave))
            except IllegalAction:
                roll = monopoly.RollDice(p)
                return Step(roll, game.apply(roll), planned=False)
        action = monopoly.RollDice(p)
    elif kind == "end_turn":
        action = monopoly.EndTurn(p)
    elif kind == "buy_or_auction":
        action = monopoly.DeclineProperty(p)
    elif kind == "bid":
        action = monopoly.PassBid(p)
    elif kind == "tax_choice":
        info = decision.info
        percent = cheaper_tax and (
            game.total_worth(p) * int(info["percent"]) // 100 < int(info["flat"])
        )
        action = monopoly.ChooseTax(p, percent)
    elif kind == "raise_funds":
        try:
            return Step(monopoly.PayDebt(p), game.apply(monopoly.PayDebt(p)))
        except IllegalAction:
            action = monopoly.DeclareBankruptcy(p)
    else:  # pragma: no cover - trades and mortgages never arise under this policy
        raise AssertionError(f"unexpected decision {kind!r}")
    return Step(action, game.apply(action))

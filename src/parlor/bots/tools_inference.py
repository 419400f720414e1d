"""What the public log of a TOOLS game says about the other hands, for the search bot.

Whenever an opponent draws instead of playing (``may_draw_when_able`` off), takes the good-nail
penalty, or takes a box-of-nails penalty, it held no card that could be played at that moment: the
cards it held then lie outside the codes playable then. Those cards stay in its hand until it plays
cards (each play may use one of them up, so the count that must still lie outside falls by one per
play). :class:`ToolsInference` follows the public log by replaying it on a shadow game and reading
only its public interface (``pending``, ``playable_cards()``, ``hand_sizes``, ``options``), and
keeps, per opponent, :class:`~parlor.tools.HandConstraint`\\ s "at least ``count`` cards of the hand
are none of the codes ``excluded``".

:func:`determinize` hands them to the engine: ``game.determinize(player, seed, constraints=...)``
redeals each constrained hand under them. The bot's own hand, the discard pile and the log of
actions are all it uses.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from parlor.bots.game_memory import PerGame
from parlor.tools import AcceptPenalty, Draw, HandConstraint, PenaltyHammers, PlayCard, ToolsGame

#: Switch for experiments and tests: without inference the search samples uniformly.
ENABLED = True


@dataclass(slots=True)
class ToolsInference:
    """Constraints on the other hands, following one game's log."""

    shadow: ToolsGame
    done: int = 0
    constraints: dict[int, list[HandConstraint]] = field(default_factory=dict)

    def update(self, game: ToolsGame) -> None:
        log = game.log
        s = self.shadow
        o = s.options
        while self.done < len(log):
            action = log[self.done]
            self.done += 1
            q = action.player
            mine = self.constraints.get(q, [])
            kind = type(action)
            decision = s.pending
            phase = decision.kind if decision is not None else None
            before = s.hand_sizes[q]
            excluded: frozenset[str] | None = None
            count = before
            played = 0
            if kind is PlayCard:
                played = 1
            elif kind is Draw and phase == "play" and not o.may_draw_when_able:
                excluded = s.playable_cards()
            elif kind is PenaltyHammers:
                played = 2
                excluded = s.playable_cards()
                count = before - 2  # (the two hammers it plays are not among them)
            elif kind is AcceptPenalty and phase in ("box_of_nails", "play"):
                excluded = s.playable_cards()  # (the box-of-nails codes while one is pending)
            s.apply(action)
            if played:  # (a constraint used up is dropped here: counts stay >= 0)
                mine = [
                    HandConstraint(c.excluded, c.count - played) for c in mine if c.count > played
                ]
            if excluded is not None:
                if kind is Draw and o.may_play_drawn and not _deciding_drawn(s, q):
                    # The drawn card could not be played either (or the game ended).
                    count += s.hand_sizes[q] - before
                mine.append(HandConstraint(excluded, count))
            self.constraints[q] = [c for c in mine if c.count > 0 and c.excluded]


def _deciding_drawn(game: ToolsGame, player: int) -> bool:
    """After ``player``'s Draw: is it asked about the card drawn? The flow shows it to everybody
    (the drawer decides again, or the turn passes); the public decision's kind does not say."""
    decision = game.pending
    return decision is not None and decision.player == player


#: Per game (held, not weakly referenced: a compiled game is a native class, see game_memory).
_CACHE: PerGame[ToolsInference] = PerGame()


def inference_for(game: ToolsGame) -> ToolsInference:
    """The inference following ``game`` (kept per game object, updated to its log)."""
    inf = _CACHE.get(game)
    if inf is None or inf.done > len(game.log):
        shadow = ToolsGame.from_settings(game.settings, game.seed)
        inf = ToolsInference(shadow)
        _CACHE.set(game, inf)
    inf.update(game)
    return inf


def assume(game: ToolsGame, constraints: dict[int, list[HandConstraint]]) -> None:
    """Take ``constraints`` as what the log of ``game`` says, instead of replaying it: for a copy
    whose log does not replay from its seed (a seat's sample from a server, which computed them
    from the same public log). Actions applied to ``game`` later are followed as usual."""
    _CACHE.set(game, ToolsInference(game.clone(), len(game.log), dict(constraints)))


def determinize(game: ToolsGame, player: int, seed: int) -> ToolsGame:
    """``game.determinize(player, seed)`` with the other hands redealt under the constraints."""
    if not ENABLED or type(game) is not ToolsGame or not game.log:
        return game.determinize(player, seed)
    return game.determinize(player, seed, constraints=inference_for(game).constraints)

"""What players see of a property game: :func:`table_view` (``PropertyGame.view``: the table,
everything but the decks' order) and :func:`full_snapshot` (``PropertyGame.snapshot``: all of it,
hidden parts included: equal snapshots mean equal games).

Apart from the game's class so that the game's module holds the rules' dispatch and its state.
Both read the game's fields and change nothing; the game checks who asks.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from parlor.monopoly.game import PropertyGame


def table_view(game: PropertyGame, player: int | None) -> dict[str, Any]:
    """The table as ``player`` sees it (``None``: an onlooker). Nothing here depends on who
    looks but ``viewer``: the decks' order, the one secret, is left out for everyone."""
    pending = game.pending
    ed = game.edition
    outcome = game.outcome
    return {
        "edition": ed.id,
        "viewer": player,
        "players": [
            {
                "name": game.names[p],
                "cash": game.cash[p],
                "position": game.position[p],
                "in_jail": game.in_jail[p],
                "jail_turns": game.jail_turns[p],
                "jail_cards": len(game.jail_cards[p]),
                "bankrupt": game.bankrupt[p],
            }
            for p in range(game.num_players)
        ],
        "properties": [
            {
                "square": sq,
                "owner": game.owner[sq],
                "mortgaged": game.mortgaged[sq],
                "buildings": game.buildings[sq],
            }
            for sq in ed.property_squares
        ],
        "bank": {"houses": game.houses_left, "hotels": game.hotels_left},
        "pot": game.pot,
        "turn": game.current_player,
        "round": game.round,
        "doubles": game.doubles,
        "last_dice": list(game.last_dice) if game.last_dice else None,
        "decks": {d: len(cards) for d, cards in game.decks.items()},
        "rent_claims": [list(c) for c in game.claims],
        "pending": None
        if pending is None
        else {"player": pending.player, "kind": pending.kind, "info": dict(pending.info)},
        "outcome": None
        if outcome is None
        else {"winners": list(outcome.winners), "reason": outcome.reason},
    }


def full_snapshot(game: PropertyGame) -> dict[str, Any]:
    """The onlooker's view and what it leaves out: the decks' order, the held jail cards, the
    frames, the bank's flow, the standing wishes, the options and a digest of the generator."""
    data = table_view(game, None)
    data["decks_order"] = {d: list(c) for d, c in game.decks.items()}
    data["jail_card_ids"] = [list(c) for c in game.jail_cards]
    data["frames"] = [repr(f) for f in game.frames]
    data["bank_flow"] = game.bank_flow
    if game.standing_wishes is not None:  # (absent otherwise: older saves' snapshots hold)
        data["standing_wishes"] = repr(game.standing_wishes)
    data["options"] = game.options.as_dict()  # (names and edition are in the view)
    data["rng"] = hashlib.sha256(repr(game.rng.getstate()).encode()).hexdigest()[:16]
    return data

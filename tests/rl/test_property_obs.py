"""The property observation of a building-shortage wish (S14): the decision kind, the item and
the counts the decider weighs."""

from __future__ import annotations

import numpy as np

from parlor import monopoly
from parlor.rl.property_obs import AUCTION_ITEMS, PROPERTY_DECISIONS, PropertyEncoder


def test_a_shortage_wish_is_encoded_with_its_item_and_counts() -> None:
    game = monopoly.new_game("classic", 3, seed=0, options={"roll_for_first_player": False})
    for sq, p in ((1, 0), (3, 0), (37, 1), (39, 1)):
        game.owner[sq] = p  # set up directly, as the rule scenarios do
    game.houses_left = 3
    game.apply(monopoly.Build(0, 1))
    game.apply(monopoly.WishBuildings(0, 2))
    encoder = PropertyEncoder(game)
    lay = encoder.layout
    obs = np.asarray(encoder.encode(game, 1))
    kinds = obs[lay.slice("pending_kind")]
    assert kinds[PROPERTY_DECISIONS.index("building_wish")] == 1.0 and kinds.sum() == 1.0
    assert obs[lay.slice("auction_item")][AUCTION_ITEMS.index("house")] == 1.0
    # stock 3, Bo may wish 0 to 3, Ann wished 2: over the edition's 32 houses.
    assert np.allclose(obs[lay.slice("shortage")], np.array([3, 0, 3, 2]) / 32)
    assert obs[lay.slice("decider")][0] == 1.0  # Bo decides, seen from Bo's seat

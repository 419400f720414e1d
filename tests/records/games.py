"""Bot games of every game and edition, for the record tests and the round-trip bench."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from parlor import monopoly, tools
from parlor.bots.registry import make_bot
from parlor.core.game import Game

EDITIONS = ("classic", "matco", "latam", "matador")
#: The property variants each edition is played in (quick is Matador's own time-limit game).
VARIANTS = {
    "classic": ("standard", "short", "time_limit"),
    "matco": ("standard", "short", "time_limit"),
    "latam": ("standard", "time_limit"),
    "matador": ("standard", "quick"),
}
#: TOOLS option sets: the rulebook's, and the house rules that change the flow of a turn.
TOOLS_OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {"ask_after_every_draw": True, "may_draw_when_able": True},
    {"box_stacking": False, "brush_color_binds": False, "hand_size": 5},
    {"two_player_reverse_skips": True, "may_play_drawn": False, "max_turns": 40},
)


def play(game: Game[Any], family: str, bot: str, cap: int, seed: int) -> Game[Any]:
    """``game`` played by ``bot`` in every seat for at most ``cap`` decisions."""
    bots = [make_bot(family, bot, seed=seed * 10 + s) for s in range(game.num_players)]
    n = 0
    while not game.is_over and n < cap:
        p = game.pending.player  # type: ignore[union-attr]
        game.apply(bots[p].choose(game, p))
        n += 1
    return game


def property_games(
    per_variant: int, bot: str = "random", cap: int = 400, first_seed: int = 0
) -> Iterator[tuple[str, Game[Any]]]:
    for edition in EDITIONS:
        for variant in VARIANTS[edition]:
            for k in range(per_variant):
                seed = first_seed + k
                players = 2 + seed % 3
                options: dict[str, Any] = {"variant": variant}
                if seed % 4 == 1:
                    options["rent_claim"] = True
                if seed % 4 == 2:
                    options["free_parking_pot"] = True
                    options["auctions"] = False
                game = monopoly.new_game(edition, players, seed, options)
                yield f"{edition}/{variant}/{seed}", play(game, "monopoly", bot, cap, seed)


def tools_games(
    per_options: int, bot: str = "random", first_seed: int = 0, cap: int = 3000
) -> Iterator[tuple[str, Game[Any]]]:
    for i, options in enumerate(TOOLS_OPTIONS):
        for k in range(per_options):
            seed = first_seed + k
            game = tools.new_game(2 + seed % 5, seed, None, options)
            yield f"tools/{i}/{seed}", play(game, "tools", bot, cap, seed)

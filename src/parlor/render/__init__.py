"""Pictures of Parlor's tables as SVG, for the web page, a notebook and the command line.

``board_svg(game_or_view)`` draws a property game's board, ``tools_svg(game_or_view)`` a TOOLS
table, ``draw`` whichever fits; all return a :class:`Picture`, which Jupyter shows inline (as
python-chess shows its boards) and which saves as SVG or PNG. Only public information is drawn:
what ``view(player)`` gives the one looking (a spectator by default).

This is an adapter: it uses the engines and ``parlor.analysis``; nothing below imports it.

>>> from parlor import tools
>>> draw(tools.new_game(players=2, seed=1), player=0)
<Picture: ... characters of SVG>
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlor.monopoly.game import PropertyGame
from parlor.render.board import board_svg
from parlor.render.picture import Picture
from parlor.render.table import tools_svg
from parlor.tools.game import ToolsGame


def draw(game_or_view: Any, player: int | None = None, **options: Any) -> Picture:
    """The picture of any Parlor game or view: a board for the property games, a table for
    TOOLS; ``options`` go to :func:`board_svg` or :func:`tools_svg`."""
    if isinstance(game_or_view, ToolsGame) or (
        isinstance(game_or_view, Mapping) and game_or_view.get("game") == "tools"
    ):
        return tools_svg(game_or_view, player, **options)
    if isinstance(game_or_view, PropertyGame | Mapping):
        return board_svg(game_or_view, player, **options)
    raise TypeError(f"cannot draw {type(game_or_view).__name__}: give a Parlor game or its view")


__all__ = ["Picture", "board_svg", "draw", "tools_svg"]

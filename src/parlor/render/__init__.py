"""Pictures of Parlor's tables as SVG, for the web page, a notebook and the command line.

``board_svg(game_or_view)`` draws a property game's board, ``tools_svg(game_or_view)`` a TOOLS
table; both return a :class:`Picture`, which Jupyter shows inline and which saves as SVG or PNG.
Only public information is drawn: what ``view(player)`` gives the one looking.

This is an adapter: it uses the engines and ``parlor.analysis``; nothing below imports it.
"""

from parlor.render.board import board_svg
from parlor.render.picture import Picture
from parlor.render.table import tools_svg

__all__ = ["Picture", "board_svg", "tools_svg"]

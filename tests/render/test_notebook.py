"""docs/render.ipynb runs as written, and each cell's last expression shows as SVG in Jupyter."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

from parlor.render import Picture
from tests.render.helpers import parse

NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "render.ipynb"


def run_cell(source: str, scope: dict[str, Any]) -> Any:
    """Run a cell as Jupyter does: the statements, then the value of a last bare expression."""
    tree = ast.parse(source)
    last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    body = tree.body[:-1] if last else tree.body
    exec(compile(ast.Module(body=body, type_ignores=[]), str(NOTEBOOK), "exec"), scope)
    if last is None:
        return None
    return eval(compile(ast.Expression(last.value), str(NOTEBOOK), "eval"), scope)


def test_the_notebook_runs_and_shows_pictures() -> None:
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    scope: dict[str, Any] = {}
    shown = []
    for cell in cells:
        if cell["cell_type"] == "code":
            value = run_cell("".join(cell["source"]), scope)
            if isinstance(value, Picture):
                shown.append(value)
    assert len(shown) == 4
    for picture in shown:
        parse(picture._repr_svg_())  # what Jupyter puts on the page is well-formed SVG


def test_draw_picks_the_picture_for_the_game() -> None:
    import pytest

    from parlor import monopoly, tools
    from parlor.render import board_svg, draw, tools_svg

    property_game = monopoly.new_game("latam", players=2, seed=3)
    tools_game = tools.new_game(players=3, seed=3)
    assert str(draw(property_game, 1, heat=True)) == str(board_svg(property_game, 1, heat=True))
    assert str(draw(property_game.view(None))) == str(board_svg(property_game))
    assert str(draw(tools_game, 2)) == str(tools_svg(tools_game, 2))
    assert str(draw(tools_game.view(None))) == str(tools_svg(tools_game))
    with pytest.raises(TypeError, match="cannot draw str"):
        draw("classic")

"""Shared helpers: play seeded bot games, and read the SVG back with xml.etree."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from parlor.bots.registry import make_bot

NS = {"s": "http://www.w3.org/2000/svg"}
SVG = "{http://www.w3.org/2000/svg}"


def play(game: Any, decisions: int, bot: str = "heuristic", seed: int = 0) -> Any:
    """Let bots take ``decisions`` decisions (fewer if the game ends first)."""
    kind = "tools" if game.game_name == "tools" else "monopoly"
    bots = [make_bot(kind, bot, seed=seed + p) for p in range(game.num_players)]
    for _ in range(decisions):
        if game.is_over:
            break
        p = game.pending.player
        game.apply(bots[p].choose(game, p))
    return game


def parse(svg: object) -> ET.Element:
    root = ET.fromstring(str(svg))
    assert root.tag == SVG + "svg"
    return root


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [el for el in root.iter() if cls in (el.get("class") or "").split()]


def texts(el: ET.Element) -> str:
    """All text under ``el``, tspans joined by spaces, titles left out."""
    out: list[str] = []

    def walk(node: ET.Element) -> None:
        if node.tag == SVG + "title":
            return
        if node.text and node.text.strip():
            out.append(node.text.strip())
        for child in node:
            walk(child)

    walk(el)
    return " ".join(out)


def title_of(el: ET.Element) -> str:
    t = el.find("s:title", NS)
    assert t is not None and t.text
    return t.text

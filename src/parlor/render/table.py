"""A TOOLS table as SVG, from the public ``view(player)``.

The viewer's hand (a spectator has none) as card faces, sorted by colour and kind, the playable
ones raised; the discard pile's top and the colour in force; the draw pile's size; every other
seat around the table with its hand size, as card backs; the direction of play and whose turn
it is. Ids for the browser client: ``id="hand"`` with ``class="card in-hand"`` children carrying
``data-card``, ``id="discard"``, ``id="draw-pile"``, ``<g class="seat" data-seat="2">``.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Collection, Mapping
from typing import Any

from parlor.render.cards import (
    CARD_H,
    CARD_W,
    Colours,
    card,
    card_back,
    card_words,
    sort_key,
    split,
)
from parlor.render.picture import Picture
from parlor.render.svg import sub, svg_root, title, to_text
from parlor.tools.actions import PlayDrawn
from parlor.tools.game import ToolsGame

WIDTH = 900
TABLE_H = 560
CX, CY = WIDTH / 2, 280
RAISE = 16  # how far a playable card stands out of the hand
PER_ROW = 12
ROW_H = CARD_H + RAISE + 14
SEAT_W, SEAT_H = 170, 62
#: Decisions at which the decider plays a card from the hand.
PLAY_KINDS = frozenset({"play", "brush_second_card", "box_of_nails"})


def tools_svg(
    game_or_view: ToolsGame | Mapping[str, Any],
    player: int | None = None,
    *,
    playable: Collection[str] | None = None,
    id_prefix: str = "",
) -> Picture:
    """The TOOLS table as ``player`` sees it (``None``: a spectator, who sees no hand).

    Given a game, the cards the viewer may play now are raised (from the public
    ``playable_cards()``, when the viewer is the one deciding); given a view, pass ``playable``
    (card codes) to raise them. ``id_prefix`` goes before every element id.

    >>> from parlor import tools
    >>> game = tools.new_game(players=3, seed=7)
    >>> pic = tools_svg(game, player=0)
    >>> str(pic).count('class="card in-hand')
    7
    >>> 'class="card in-hand' in str(tools_svg(game))
    False
    """
    view: Mapping[str, Any]
    if isinstance(game_or_view, ToolsGame):
        game = game_or_view
        view = game.view(player)
        if playable is None:
            playable = _playable(game, player)
    else:
        view = game_or_view
    return Picture(_Table(view, frozenset(playable or ())).draw(id_prefix))


def _playable(game: ToolsGame, player: int | None) -> frozenset[str]:
    pending = game.pending
    if player is None or pending is None or pending.player != player:
        return frozenset()
    pending = game.pending_for(player) or pending  # (the kind drawn_card is the drawer's alone)
    if pending.kind in PLAY_KINDS:
        return game.playable_cards()
    if pending.kind == "drawn_card" and game.is_legal(PlayDrawn(player)):
        drawn = pending.info.get("drawn")
        return frozenset({str(drawn)}) if drawn else frozenset()
    return frozenset()


class _Table:
    def __init__(self, view: Mapping[str, Any], playable: frozenset[str]) -> None:
        self.view = view
        self.viewer: int | None = view.get("player")
        self.names: list[str] = [str(n) for n in view["names"]]
        self.sizes: list[int] = [int(s) for s in view["hand_sizes"]]
        self.hand: list[str] = list(view.get("hand") or ())
        seen = [c for code in [*self.hand, *view["discard"]] if (c := split(code)[1])]
        if view.get("color"):
            seen.append(str(view["color"]))
        self.colours = Colours(seen)
        self.hand.sort(key=lambda code: sort_key(code, self.colours))
        self.playable = playable
        pending = view.get("pending") or {}
        self.pending: Mapping[str, Any] = pending
        self.drawn = (pending.get("info") or {}).get("drawn") if self.viewer is not None else None

    def draw(self, id_prefix: str = "") -> str:
        rows = max(1, math.ceil(len(self.hand) / PER_ROW)) if self.viewer is not None else 0
        height = TABLE_H + (40 + rows * ROW_H if rows else 0)
        who = "spectator view" if self.viewer is None else f"as seen by {self.names[self.viewer]}"
        root = svg_root(WIDTH, height, f"TOOLS table, {who}", self.describe())
        root.set("class", "parlor-tools")
        sub(root, "rect", x=0, y=0, width=WIDTH, height=height, fill="#f4efe4")
        sub(
            root,
            "ellipse",
            cx=CX,
            cy=CY,
            rx=300,
            ry=170,
            fill="#2f6b3f",
            stroke="#1d4328",
            stroke_width=6,
            id="felt",
        )
        self.direction(root)
        self.piles(root)
        self.seats(root)
        self.status(root)
        if self.viewer is not None:
            self.hand_row(root, TABLE_H)
        return to_text(root, id_prefix)

    def describe(self) -> str:
        v = self.view
        parts = [f"top of the discard pile: {card_words(str(v['top']))}"]
        parts.append(f"colour in force: {v['color'] or 'any'}")
        parts.append(f"draw pile: {v['draw_pile']} cards")
        parts.append(f"play goes {v['direction']}")
        parts += [f"{n} holds {s} cards" for n, s in zip(self.names, self.sizes, strict=True)]
        if self.viewer is not None:
            parts.append("your hand: " + ", ".join(card_words(c) for c in self.hand))
        return "; ".join(parts) + "."

    # ----- the middle of the table ---------------------------------------------------------
    def piles(self, root: ET.Element) -> None:
        draw = sub(root, "g", id="draw-pile", data_count=int(self.view["draw_pile"]))
        title(draw, f"draw pile: {self.view['draw_pile']} cards")
        x, y = CX - 100, CY - CARD_H / 2 - 10
        if self.view["draw_pile"]:
            for k in range(min(3, int(self.view["draw_pile"]))):
                card_back(draw, x - 2 * k, y - 2 * k)
        else:
            sub(
                draw,
                "rect",
                x=x,
                y=y,
                width=CARD_W,
                height=CARD_H,
                rx=6,
                fill="none",
                stroke="#ddd",
                stroke_dasharray="4 3",
            )
        sub(
            draw,
            "text",
            f"draw pile: {self.view['draw_pile']}",
            x=x + CARD_W / 2,
            y=y + CARD_H + 18,
            font_size=12,
            text_anchor="middle",
            fill="#fff",
        )
        pile = sub(root, "g", id="discard", data_count=len(self.view["discard"]))
        top = str(self.view["top"])
        card(
            pile,
            top,
            CX + 36,
            y,
            self.colours,
            cls="card discard-top",
            note="top of the discard pile",
        )
        colour = self.view.get("color")
        words = f"colour: {colour}" if colour else "colour: any"
        force = sub(pile, "g", id="colour-in-force", data_color=colour or "")
        sub(
            force,
            "text",
            words,
            x=CX + 36 + CARD_W / 2,
            y=y + CARD_H + 18,
            font_size=12,
            font_weight="bold",
            text_anchor="middle",
            fill="#fff",
        )
        if colour:
            sub(
                force,
                "rect",
                x=CX + 36 + CARD_W + 8,
                y=y + CARD_H - 24,
                width=22,
                height=22,
                rx=4,
                fill=self.colours.fill(str(colour)),
                stroke="#fff",
                stroke_width=2,
            )

    def direction(self, root: ET.Element) -> None:
        clockwise = self.view["direction"] == "clockwise"
        g = sub(root, "g", id="direction", data_direction=self.view["direction"])
        title(g, f"play goes {self.view['direction']}")
        rx, ry = 250, 135
        # An arc over the top of the felt, its head showing which way play goes.
        start, end = (CX - rx, CY), (CX + rx, CY)
        sweep = 1 if clockwise else 0
        if not clockwise:
            start, end = end, start
            sweep = 0
        sub(
            g,
            "path",
            d=f"M{start[0]} {CY - 20} A{rx} {ry} 0 0 {sweep if clockwise else 0} {end[0]} {CY - 20}",
            fill="none",
            stroke="#cfe8d4",
            stroke_width=3,
            stroke_dasharray="10 6",
        )
        hx = end[0]
        sign = 1 if clockwise else -1
        sub(
            g,
            "path",
            d=f"M{hx - 9} {CY - 32} L{hx} {CY - 16} L{hx + 9} {CY - 32}",
            fill="none",
            stroke="#cfe8d4",
            stroke_width=3,
            transform=f"rotate({-sign * 20} {hx} {CY - 20})",
        )
        sub(
            g,
            "text",
            f"play goes {self.view['direction']}",
            x=CX,
            y=CY - 128,
            font_size=12,
            text_anchor="middle",
            fill="#fff",
        )
        del start, sweep

    # ----- the seats -----------------------------------------------------------------------
    def seat_spot(self, seat: int) -> tuple[float, float]:
        """Seats in play order clockwise round the table, the viewer (or seat 1) at the bottom."""
        n = len(self.names)
        first = self.viewer if self.viewer is not None else 0
        angle = math.pi / 2 + 2 * math.pi * ((seat - first) % n) / n
        return CX + 360 * math.cos(angle), CY + 215 * math.sin(angle)

    def seats(self, root: ET.Element) -> None:
        group = sub(root, "g", id="seats")
        current = int(self.view["current"])
        outcome = self.view.get("outcome")
        winners = set(outcome["winners"]) if outcome else set()
        for seat, name in enumerate(self.names):
            x, y = self.seat_spot(seat)
            x0, y0 = x - SEAT_W / 2, y - SEAT_H / 2
            turn = seat == current and not outcome
            g = sub(
                group,
                "g",
                class_="seat" + (" current" if turn else ""),
                data_seat=seat,
                data_hand_size=self.sizes[seat],
            )
            sub(
                g,
                "rect",
                x=x0,
                y=y0,
                width=SEAT_W,
                height=SEAT_H,
                rx=8,
                fill="#fff8d6" if turn else "#ffffff",
                stroke="#b58900" if turn else "#555",
                stroke_width=4 if turn else 1.2,
            )
            label = f"{seat + 1}. {name}" + (" (you)" if seat == self.viewer else "")
            sub(g, "text", label[:22], x=x0 + 8, y=y0 + 17, font_size=12, font_weight="bold")
            size = self.sizes[seat]
            state = "won" if seat in winners else ("to play" if turn else "")
            sub(
                g,
                "text",
                f"{size} card{'s' if size != 1 else ''}" + (f" - {state}" if state else ""),
                x=x0 + 8,
                y=y0 + 33,
                font_size=11,
                class_="hand-size",
            )
            for k in range(min(size, 10)):
                card_back(g, x0 + 8 + 12 * k, y0 + 39, 11, 17, cls="card-back mini")
            if size > 10:
                sub(g, "text", f"+{size - 10}", x=x0 + 8 + 12 * 10 + 2, y=y0 + 53, font_size=10)
            title(g, f"{name}: {size} cards" + (f", {state}" if state else ""))

    def status(self, root: ET.Element) -> None:
        g = sub(root, "g", id="status")
        outcome = self.view.get("outcome")
        if outcome:
            winners = ", ".join(self.names[int(w)] for w in outcome["winners"]) or "nobody"
            words = f"game over ({outcome['reason']}): {winners} won"
        elif self.pending:
            who = self.names[int(self.pending["player"])]
            words = f"turn {self.view['turn']}: {who} to decide: {str(self.pending['kind']).replace('_', ' ')}"
        else:
            words = ""
        sub(
            g,
            "text",
            words,
            x=CX,
            y=CY + 100,
            font_size=13,
            font_weight="bold",
            text_anchor="middle",
            fill="#fff",
            id="turn",
        )
        if self.view.get("box_penalty"):
            sub(
                g,
                "text",
                f"box of nails: {self.view['box_penalty']} cards to draw or pass on",
                x=CX,
                y=CY + 118,
                font_size=12,
                text_anchor="middle",
                fill="#ffe08a",
                id="box-penalty",
            )

    # ----- the viewer's hand ---------------------------------------------------------------
    def hand_row(self, root: ET.Element, top: float) -> None:
        assert self.viewer is not None
        hand = sub(root, "g", id="hand", data_player=self.viewer, data_size=len(self.hand))
        n = len(self.hand)
        raised = sum(1 for c in self.hand if c in self.playable)
        words = f"your hand, {self.names[self.viewer]}: {n} card{'s' if n != 1 else ''}"
        deciding = self.pending.get("player") == self.viewer
        if raised:
            words += f", {raised} playable (raised)"
        elif deciding and self.pending.get("kind") in PLAY_KINDS:
            words += ", none playable"
        penalty = (self.pending.get("info") or {}).get("good_nail_penalty") if deciding else None
        if penalty:
            words += f"; the good nail's penalty: {str(penalty).replace('_', ' ')}"
        sub(hand, "text", words, x=20, y=top + 22, font_size=13, font_weight="bold")
        marked_drawn = False
        for i, code in enumerate(self.hand):
            row, col = divmod(i, PER_ROW)
            in_row = min(PER_ROW, n - row * PER_ROW)
            x = (WIDTH - in_row * (CARD_W + 8) + 8) / 2 + col * (CARD_W + 8)
            y = top + 40 + row * ROW_H + RAISE
            cls = "card in-hand"
            notes = []
            is_drawn = code == self.drawn and not marked_drawn
            marked_drawn = marked_drawn or is_drawn
            # Deciding about a drawn card, only that copy may be played, not its twins.
            if code in self.playable and (is_drawn or self.drawn is None):
                cls += " playable"
                notes.append("playable")
                y -= RAISE
            if is_drawn:
                cls += " drawn"
                notes.append("just drawn")
            g = card(hand, code, x, y, self.colours, cls=cls, note=", ".join(notes))
            if "playable" in notes:
                sub(
                    g,
                    "rect",
                    x=-3,
                    y=-3,
                    width=CARD_W + 6,
                    height=CARD_H + 6,
                    rx=8,
                    fill="none",
                    stroke="#b58900",
                    stroke_width=3,
                )
            if "just drawn" in notes:
                sub(
                    g,
                    "text",
                    "drawn",
                    x=CARD_W / 2,
                    y=-5,
                    font_size=10,
                    font_weight="bold",
                    text_anchor="middle",
                )

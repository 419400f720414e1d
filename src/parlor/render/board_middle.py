"""What a board picture knows (the view, the edition's words, the overlay's figures) and how it
draws the middle of the board: the title, the dice, whose turn, the players, the legends."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from parlor.analysis.markov import JailStrategy
from parlor.monopoly.edition import Edition
from parlor.monopoly.rules import RuleOptions
from parlor.monopoly.text import generic_word
from parlor.render.layout import BOARD, CORNER, INNER, SIDE
from parlor.render.overlay import HOTEL, DeedFigures, deed_figures, heat_colour, solved
from parlor.render.palette import Groups, player_colour
from parlor.render.svg import ink_on, sub, title

#: Pips of a die face, on a 3 x 3 grid.
PIPS = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
}


class BoardBase:
    """The view and edition of one picture, with the words and figures every part uses."""

    def __init__(
        self,
        view: Mapping[str, Any],
        edition: Edition,
        options: RuleOptions,
        heat: bool,
        jail: JailStrategy,
        language: str | None,
    ) -> None:
        self.view = view
        self.ed = edition
        self.options = options
        # Any language the edition's data has words for; each missing word falls back alone.
        self.lang = language or edition.language
        self.groups = Groups(edition)
        self.players: list[Mapping[str, Any]] = list(view["players"])
        self.props: dict[int, Mapping[str, Any]] = {int(p["square"]): p for p in view["properties"]}
        self.heat = heat
        self.deeds: dict[int, DeedFigures] = {}
        self.landing: list[float] = []
        self.in_jail = 0.0
        if heat:
            result, rents = solved(edition, options, jail)
            dist = result.per_turn
            self.landing = [float(p) for p in dist.squares]
            self.in_jail = dist.in_jail
            reached = [p for p in self.landing if p > 0]
            self.low, self.high = (min(reached), max(reached)) if reached else (0.0, 1.0)
            self.jail_strategy = jail
            for rent in rents:
                self.deeds[rent.square] = deed_figures(rent, self.props, edition.groups)

    # ----- words ---------------------------------------------------------------------------
    def text(self, key: str) -> str:
        texts = self.ed.texts.get(self.lang) or {}
        if key in texts:
            return texts[key]
        # an edition without words in this language (the classic board in Spanish): the
        # catalog's generic ones, as the game's events say them, before the edition's own
        if self.lang in ("en", "es", "da"):
            generic = generic_word(key, self.lang)
            if generic is not None:
                return generic
        return self.ed.text(key)

    def name(self, square: int) -> str:
        return self.ed.square_name(square, self.lang)

    def money(self, amount: int) -> str:
        return self.ed.format_money(amount)

    def seat_name(self, seat: int) -> str:
        return str(self.players[seat]["name"])

    def buildings_words(self, b: int) -> str:
        if b == HOTEL:
            return f"1 {self.text('hotel')}"
        return f"{b} {self.text('house' if b == 1 else 'houses')}"

    @staticmethod
    def token_shape(parent: ET.Element, seat: int, x: float, y: float, r: float) -> None:
        colour = player_colour(seat)
        sub(parent, "circle", cx=x, cy=y, r=r, fill=colour, stroke="#000", stroke_width=1.2)
        sub(
            parent,
            "text",
            str(seat + 1),
            x=x,
            y=y + r * 0.45,
            font_size=r * 1.3,
            font_weight="bold",
            text_anchor="middle",
            fill=ink_on(colour),
        )


class Centre(BoardBase):
    """The middle of the board."""

    # ----- the middle of the board ---------------------------------------------------------
    def centre(self, g: ET.Element) -> None:
        mid = BOARD / 2
        sub(
            g,
            "text",
            self.ed.title,
            x=mid,
            y=CORNER + 48,
            font_size=24,
            font_weight="bold",
            text_anchor="middle",
        )
        viewer = self.view.get("viewer")
        seen = "spectator view" if viewer is None else f"as seen by {self.seat_name(int(viewer))}"
        sub(
            g,
            "text",
            f"round {self.view.get('round', 0)}, {seen}",
            x=mid,
            y=CORNER + 68,
            font_size=11,
            text_anchor="middle",
        )
        self.dice(g, mid, CORNER + 82)
        self.turn_line(g, mid, CORNER + 165)
        self.player_rows(g, CORNER + 30, CORNER + 190)
        bank = self.view.get("bank") or {}
        if bank:
            words = f"{self.text('bank')}: {bank['houses']} {self.text('houses')}, {bank['hotels']} {self.text('hotels')}"
            sub(
                g,
                "text",
                words,
                x=mid,
                y=CORNER + 380,
                font_size=11,
                text_anchor="middle",
                id="bank",
            )
        self.legend(g, CORNER + 30, CORNER + 405)
        if self.heat:
            self.heat_legend(g, CORNER + 30, INNER - 95)

    def dice(self, g: ET.Element, mid: float, top: float) -> None:
        dice = self.view.get("last_dice")
        d = sub(g, "g", id="dice", data_dice="" if not dice else f"{dice[0]},{dice[1]}")
        if not dice:
            title(d, "no throw yet")
            sub(d, "text", "no throw yet", x=mid, y=top + 30, font_size=11, text_anchor="middle")
            return
        size = 44
        for k, value in enumerate(dice[:2]):
            x = mid - size - 6 + k * (size + 12)
            die = sub(d, "g", class_="die", data_value=int(value))
            sub(
                die,
                "rect",
                x=x,
                y=top,
                width=size,
                height=size,
                rx=7,
                fill="#fff",
                stroke="#000",
                stroke_width=1.5,
            )
            for cx, cy in PIPS.get(int(value), ()):
                sub(die, "circle", cx=x + 10 + 12 * cx, cy=top + 10 + 12 * cy, r=4, fill="#000")
        a, b = int(dice[0]), int(dice[1])
        words = f"{a} + {b} = {a + b}" + (", doubles" if a == b else "")
        title(d, f"last throw: {words}")
        sub(d, "text", words, x=mid, y=top + size + 18, font_size=12, text_anchor="middle")

    def turn_line(self, g: ET.Element, mid: float, y: float) -> None:
        outcome = self.view.get("outcome")
        if outcome:
            winners = ", ".join(self.seat_name(int(w)) for w in outcome["winners"])
            words = f"game over ({outcome['reason']}): {winners} won"
        else:
            turn = int(self.view.get("turn", 0))
            words = f"turn: {self.seat_name(turn)} ({turn + 1})"
            pending = self.view.get("pending")
            if pending:
                words += f"; {self.seat_name(int(pending['player']))} to decide: {str(pending['kind']).replace('_', ' ')}"
        sub(
            g,
            "text",
            words,
            x=mid,
            y=y,
            font_size=12,
            font_weight="bold",
            text_anchor="middle",
            id="turn",
        )

    def player_rows(self, g: ET.Element, left: float, top: float) -> None:
        rows = sub(g, "g", id="players")
        turn = self.view.get("turn")
        deeds = {p: 0 for p in range(len(self.players))}
        for prop in self.props.values():
            if int(prop["owner"]) >= 0:
                deeds[int(prop["owner"])] += 1
        for seat, p in enumerate(self.players):
            y = top + 20 * seat
            row = sub(rows, "g", class_="player", data_player=seat)
            if seat == turn and not self.view.get("outcome"):
                sub(
                    row,
                    "rect",
                    x=left - 6,
                    y=y - 9,
                    width=9 * SIDE - 48,
                    height=19,
                    fill="#fff7c2",
                    stroke="#b59b00",
                )
            self.token_shape(row, seat, left + 10, y, 7)
            status = []
            if p["bankrupt"]:
                status.append("bankrupt")
            elif p["in_jail"]:
                status.append(f"in {self.text('jail').lower()}")
            if p["jail_cards"]:
                status.append(f"{p['jail_cards']} x {self.text('get_out_of_jail_card')}")
            sub(
                row,
                "text",
                str(p["name"])[:18],
                x=left + 24,
                y=y + 4,
                font_size=11,
                font_weight="bold" if seat == turn else None,
            )
            sub(
                row,
                "text",
                self.money(int(p["cash"])),
                x=left + 230,
                y=y + 4,
                font_size=11,
                text_anchor="end",
            )
            sub(
                row,
                "text",
                f"{deeds[seat]} deeds",
                x=left + 290,
                y=y + 4,
                font_size=10,
                text_anchor="end",
            )
            sub(row, "text", ", ".join(status)[:34], x=left + 300, y=y + 4, font_size=10)
            title(
                row,
                f"{p['name']}, token {seat + 1}: {self.money(int(p['cash']))}, {deeds[seat]} deeds"
                + "".join(f", {s}" for s in status),
            )

    def legend(self, g: ET.Element, left: float, top: float) -> None:
        leg = sub(g, "g", id="group-legend")
        for k, group in enumerate(self.groups.order):
            x = left + (k % 4) * 146
            y = top + (k // 4) * 24
            item = sub(leg, "g", class_="legend-item", data_group=group)
            colour = self.groups.colour(group)
            sub(item, "rect", x=x, y=y, width=30, height=16, fill=colour, stroke="#000")
            sub(
                item,
                "rect",
                x=x,
                y=y,
                width=30,
                height=16,
                fill=f"url(#pat-{self.groups.pattern(group)})",
            )
            sub(
                item,
                "circle",
                cx=x + 15,
                cy=y + 8,
                r=6.5,
                fill="#fff",
                stroke="#000",
                stroke_width=0.6,
            )
            sub(
                item,
                "text",
                self.groups.letter(group),
                x=x + 15,
                y=y + 11.5,
                font_size=9.5,
                font_weight="bold",
                text_anchor="middle",
            )
            sub(
                item,
                "text",
                self.groups.label(group),
                x=x + 36,
                y=y + 12,
                font_size=10,
                class_="group-name",
            )

    def heat_legend(self, g: ET.Element, left: float, top: float) -> None:
        leg = sub(g, "g", id="heat-legend")
        steps = 40
        width = 300
        for k in range(steps):
            p = self.low + (self.high - self.low) * k / (steps - 1)
            sub(
                leg,
                "rect",
                x=left + k * width / steps,
                y=top + 16,
                width=width / steps + 0.5,
                height=14,
                fill=heat_colour(p, self.low, self.high),
            )
        sub(
            leg,
            "text",
            f"landing per turn (jail strategy: {self.jail_strategy})",
            x=left,
            y=top + 10,
            font_size=10,
        )
        sub(leg, "text", f"{100 * self.low:.2f}%", x=left, y=top + 44, font_size=10)
        sub(
            leg,
            "text",
            f"{100 * self.high:.2f}%",
            x=left + width,
            y=top + 44,
            font_size=10,
            text_anchor="end",
        )
        sub(
            leg,
            "text",
            f"{self.text('jail')}: {100 * self.in_jail:.2f}%",
            x=left + width + 12,
            y=top + 28,
            font_size=10,
        )
        sub(
            leg,
            "text",
            "on deeds: expected rent per opponent turn now; opponent turns the next building takes to pay back",
            x=left,
            y=top + 62,
            font_size=9,
        )

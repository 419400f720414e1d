"""The property games' board as SVG, from the edition data and a public ``view(player)``.

Only what the view holds is drawn (owners, buildings, mortgages, positions, the last dice): a
picture never shows more than the player it is drawn for may see. Elements carry stable ids and
data attributes for the browser client: ``<g id="square-12" data-square="12">`` for each square,
``<g id="token-0" data-player="0" data-square="12">`` for each token (moved by its ``transform``),
``id="dice"``, ``id="players"``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from parlor.analysis.markov import JailStrategy
from parlor.monopoly.edition import Edition, load_edition
from parlor.monopoly.game import PropertyGame
from parlor.monopoly.rules import RuleOptions
from parlor.render.board_middle import Centre
from parlor.render.layout import (
    BOARD,
    CORNER,
    SIDE,
    corner_origin,
    side_transform,
    token_spot,
)
from parlor.render.overlay import HOTEL, heat_colour
from parlor.render.palette import pattern_defs, player_colour
from parlor.render.picture import Picture
from parlor.render.svg import fit, ink_on, lines, sub, svg_root, title, to_text, wrap

BAND = 22  # depth of a street's colour band
PAPER = "#fbf8ef"
HOUSE = "#2e8b57"
HOTEL_FILL = "#b22222"


def board_svg(
    game_or_view: PropertyGame | Mapping[str, Any],
    player: int | None = None,
    *,
    edition: Edition | None = None,
    options: RuleOptions | None = None,
    heat: bool = False,
    jail: JailStrategy = "leave",
    language: str | None = None,
    id_prefix: str = "",
) -> Picture:
    """The board of a property game as ``player`` sees it (``None``: a spectator).

    ``game_or_view`` is a game (its ``view(player)`` is drawn) or a view already taken (then
    ``player`` is ignored and the edition comes from ``edition`` or the view's edition id).
    ``heat`` lays the analysis overlay over the board for the game's rule options (or
    ``options``) with the jail strategy ``jail``; ``language`` picks the edition's language;
    ``id_prefix`` goes before every element id, for several pictures on one page.

    >>> from parlor import monopoly
    >>> pic = board_svg(monopoly.new_game("classic", players=2, seed=1))
    >>> str(pic).count('class="square ')
    40
    """
    view: Mapping[str, Any]
    if isinstance(game_or_view, PropertyGame):
        view = game_or_view.view(player)
        edition = edition or game_or_view.edition
        options = options or game_or_view.options
    else:
        view = game_or_view
        edition = edition or load_edition(str(view["edition"]))
        options = options or RuleOptions.for_edition(edition)
    return Picture(_Board(view, edition, options, heat, jail, language).draw(id_prefix))


class _Board(Centre):
    # ----- the picture ---------------------------------------------------------------------
    def draw(self, id_prefix: str = "") -> str:
        viewer = self.view.get("viewer")
        who = "spectator view" if viewer is None else f"as seen by {self.seat_name(int(viewer))}"
        root = svg_root(
            BOARD,
            BOARD,
            f"{self.ed.title}: the board, {who}",
            self.describe(),
        )
        root.set("class", "parlor-board")
        root.set("data-edition", self.ed.id)
        pattern_defs(sub(root, "defs"))
        sub(root, "rect", x=0, y=0, width=BOARD, height=BOARD, fill="#dfeee0", stroke="#000")
        squares = sub(root, "g", id="squares")
        for i in range(40):
            self.square(squares, i)
        self.centre(sub(root, "g", id="centre"))
        self.tokens(sub(root, "g", id="tokens"))
        return to_text(root, id_prefix)

    def describe(self) -> str:
        parts = []
        for seat, p in enumerate(self.players):
            if p["bankrupt"]:
                parts.append(f"{p['name']} is bankrupt")
                continue
            where = self.name(int(p["position"]))
            if p["in_jail"]:
                where = self.text("jail")
            parts.append(
                f"{p['name']} (token {seat + 1}) on {where} with {self.money(int(p['cash']))}"
            )
        dice = self.view.get("last_dice")
        if dice:
            parts.append(f"last throw {dice[0]} and {dice[1]}")
        return "; ".join(parts) + "."

    # ----- squares -------------------------------------------------------------------------
    def square(self, parent: ET.Element, i: int) -> None:
        sq = self.ed.squares[i]
        attrs: dict[str, object] = {
            "id": f"square-{i}",
            "class_": f"square {sq.kind}" + (f" group-{sq.group}" if sq.group else ""),
            "data_square": i,
            "data_kind": sq.kind,
            # Where each seat's token stands here, so the page can move tokens square by square.
            "data_token_spots": self.spots(i, False),
        }
        if i == self.ed.jail_square:
            attrs["data_jail_spots"] = self.spots(i, True)
        prop = self.props.get(i)
        if prop is not None:
            attrs["data_owner"] = int(prop["owner"])
            attrs["data_buildings"] = int(prop["buildings"])
            attrs["data_mortgaged"] = bool(prop["mortgaged"])
        if self.heat:
            attrs["data_landing"] = repr(self.landing[i])
            figures = self.deeds.get(i)
            if figures is not None:
                attrs["data_expected_rent"] = repr(figures.expected_rent)
                attrs["data_rent_level"] = figures.level
                if figures.payback_turns is not None:
                    attrs["data_payback_turns"] = repr(figures.payback_turns)
                    attrs["data_next_building"] = figures.next_building
        if i % 10 == 0:
            x, y = corner_origin(i)
            g = sub(parent, "g", transform=f"translate({x},{y})", **attrs)
            self.corner(g, i)
        else:
            x, y, deg = side_transform(i)
            g = sub(parent, "g", transform=f"translate({x},{y}) rotate({deg})", **attrs)
            self.side(g, i)
        title(g, self.square_title(i))

    def spots(self, i: int, in_jail: bool) -> str:
        points = (
            token_spot(i, seat, in_jail, self.ed.jail_square) for seat in range(len(self.players))
        )
        return " ".join(f"{x:g},{y:g}" for x, y in points)

    def square_title(self, i: int) -> str:
        sq = self.ed.squares[i]
        bits = [f"{i}. {self.name(i)}"]
        if sq.kind == "street" and sq.group:
            bits.append(f"group {self.groups.letter(sq.group)} ({self.groups.label(sq.group)})")
        elif sq.is_property:
            bits.append(sq.kind)
        if sq.price:
            bits.append(f"price {self.money(sq.price)}")
        if sq.kind == "tax":
            bits.append(f"tax {self.money(sq.tax)}")
        prop = self.props.get(i)
        if prop is not None:
            owner = int(prop["owner"])
            bits.append("unowned" if owner < 0 else f"owner {self.seat_name(owner)} ({owner + 1})")
            if prop["buildings"]:
                bits.append(self.buildings_words(int(prop["buildings"])))
            if prop["mortgaged"]:
                bits.append(self.text("mortgaged"))
        if self.heat:
            bits.append(f"lands {100 * self.landing[i]:.2f}% of turns")
            if i == self.ed.jail_square:
                bits.append(f"in jail {100 * self.in_jail:.2f}% of turns")
            fig = self.deeds.get(i)
            if fig is not None:
                bits.append(
                    f"expected rent {fig.expected_rent:.2f} per opponent turn ({fig.level})"
                )
                if fig.payback_turns is not None:
                    bits.append(
                        f"the {fig.next_building} pays back in {fig.payback_turns:.0f} opponent turns"
                    )
        return "; ".join(bits)

    def background(self, i: int) -> str:
        return heat_colour(self.landing[i], self.low, self.high) if self.heat else PAPER

    def side(self, g: ET.Element, i: int) -> None:
        sq = self.ed.squares[i]
        fill = self.background(i)
        ink = ink_on(fill)
        sub(
            g, "rect", x=0, y=0, width=SIDE, height=CORNER, fill=fill, stroke="#000", stroke_width=1
        )
        top = 4
        if sq.kind == "street" and sq.group:
            colour = self.groups.colour(sq.group)
            band = sub(g, "g", class_="band")
            sub(band, "rect", x=0, y=0, width=SIDE, height=BAND, fill=colour, stroke="#000")
            sub(
                band,
                "rect",
                x=0,
                y=0,
                width=SIDE,
                height=BAND,
                fill=f"url(#pat-{self.groups.pattern(sq.group)})",
            )
            sub(
                band,
                "circle",
                cx=10,
                cy=BAND / 2,
                r=7.5,
                fill="#fff",
                stroke="#000",
                stroke_width=0.8,
            )
            sub(
                band,
                "text",
                self.groups.letter(sq.group),
                x=10,
                y=BAND / 2 + 3.6,
                font_size=10,
                font_weight="bold",
                text_anchor="middle",
                class_="group-letter",
            )
            top = BAND
        rows, size = fit(self.name(i), SIDE - 6, 8.5)
        lines(g, rows, SIDE / 2, top + 11, size, 10, fill=ink, class_="name")
        prop = self.props.get(i)
        if prop is not None and prop["buildings"]:
            self.buildings(g, int(prop["buildings"]))
        if self.heat:
            self.side_figures(g, i, ink)
        if sq.price:
            sub(
                g,
                "text",
                self.money(sq.price),
                x=SIDE / 2,
                y=CORNER - 17,
                font_size=8.5,
                text_anchor="middle",
                fill=ink,
                class_="price",
            )
        elif sq.kind == "tax":
            sub(
                g,
                "text",
                self.money(sq.tax),
                x=SIDE / 2,
                y=CORNER - 17,
                font_size=8.5,
                text_anchor="middle",
                fill=ink,
                class_="price",
            )
        if prop is not None:
            if prop["mortgaged"]:
                self.mortgaged(g)
            if int(prop["owner"]) >= 0:
                self.owner_strip(g, int(prop["owner"]))

    def side_figures(self, g: ET.Element, i: int, ink: str) -> None:
        rows = [f"{100 * self.landing[i]:.2f}%"]
        fig = self.deeds.get(i)
        prop = self.props.get(i)
        if fig is not None and not (prop and prop["mortgaged"]):  # a mortgaged deed earns nothing
            rows.append(f"{fig.expected_rent:.2f}/turn")
            if fig.payback_turns is not None:
                rows.append(f"pays in {fig.payback_turns:.0f}")
        lines(g, rows, SIDE / 2, 66, 7.5, 9, fill=ink, font_weight="bold", class_="analysis")

    def buildings(self, g: ET.Element, b: int) -> None:
        group = sub(g, "g", class_="buildings", data_count=b)
        if b == HOTEL:
            hotel = sub(group, "g", class_="hotel")
            sub(hotel, "rect", x=24, y=4, width=40, height=14, rx=2, fill=HOTEL_FILL, stroke="#000")
            sub(
                hotel,
                "text",
                "H",
                x=44,
                y=15,
                font_size=11,
                font_weight="bold",
                text_anchor="middle",
                fill="#fff",
            )
            return
        # A white backing keeps the houses clear of any group colour (green ones on green).
        sub(
            group,
            "rect",
            x=18,
            y=3,
            width=12 * b + 2,
            height=16,
            rx=2,
            fill="#fff",
            stroke="#000",
            stroke_width=0.5,
        )
        for k in range(b):
            x = 21 + 12 * k
            sub(
                group,
                "path",
                d=f"M{x} 18 v-8 l5 -5 l5 5 v8 z",
                fill=HOUSE,
                stroke="#000",
                stroke_width=0.8,
                class_="house",
            )

    def mortgaged(self, g: ET.Element) -> None:
        m = sub(g, "g", class_="mortgaged")
        sub(
            m,
            "rect",
            x=0,
            y=0,
            width=SIDE,
            height=CORNER,
            fill="url(#pat-mortgaged)",
            fill_opacity=0.8,
        )
        sub(m, "rect", x=4, y=CORNER - 40, width=SIDE - 8, height=14, fill="#fff", stroke="#444")
        sub(
            m,
            "text",
            self.text("mortgaged").upper(),
            x=SIDE / 2,
            y=CORNER - 30,
            font_size=7.5,
            font_weight="bold",
            text_anchor="middle",
            fill="#000",
        )

    def owner_strip(self, g: ET.Element, owner: int) -> None:
        colour = player_colour(owner)
        strip = sub(g, "g", class_="owner", data_player=owner)
        sub(strip, "rect", x=0, y=CORNER - 12, width=SIDE, height=12, fill=colour, stroke="#000")
        label = f"{owner + 1} {self.seat_name(owner)}"
        sub(
            strip,
            "text",
            label[:12],
            x=SIDE / 2,
            y=CORNER - 3,
            font_size=8,
            text_anchor="middle",
            fill=ink_on(colour),
        )

    def corner(self, g: ET.Element, i: int) -> None:
        fill = self.background(i)
        ink = ink_on(fill)
        sub(g, "rect", x=0, y=0, width=CORNER, height=CORNER, fill=fill, stroke="#000")
        sq = self.ed.squares[i]
        if sq.kind == "jail":
            self.jail_corner(g, i, ink)
            return
        label = {
            "go": self.text("go"),
            "free_parking": self.text("free_parking"),
            "go_to_jail": self.text("go_to_jail"),
        }.get(sq.kind, self.name(i))
        lines(
            g,
            wrap(label, CORNER - 12, 13, 2),
            CORNER / 2,
            28,
            13,
            fill=ink,
            font_weight="bold",
            class_="name",
        )
        extra = []
        if sq.kind == "go":
            extra.append(f"+{self.money(self.ed.salary)}")
        if sq.kind == "free_parking" and (self.options.free_parking_pot or self.view.get("pot")):
            extra.append(f"pot {self.money(int(self.view.get('pot') or 0))}")
        if self.heat:
            extra.append(f"{100 * self.landing[i]:.2f}%")
        if extra:
            lines(g, extra, CORNER / 2, 58, 10, fill=ink, class_="corner-info")

    def jail_corner(self, g: ET.Element, i: int, ink: str) -> None:
        cell_fill = (
            heat_colour(min(self.in_jail, self.high), self.low, self.high)
            if self.heat
            else "#f3c892"
        )
        cell = sub(g, "g", class_="jail-cell")
        sub(cell, "rect", x=30, y=0, width=80, height=80, fill=cell_fill, stroke="#000")
        for k in range(5):
            sub(
                cell,
                "line",
                x1=42 + 14 * k,
                y1=44,
                x2=42 + 14 * k,
                y2=78,
                stroke="#333",
                stroke_width=1.5,
            )
        cell_ink = ink_on(cell_fill)
        rows = [self.text("jail")]
        if self.heat:
            rows.append(f"{100 * self.in_jail:.2f}%")
        lines(
            cell, rows, 70, 14 if not self.heat else 12, 10, 11, fill=cell_ink, font_weight="bold"
        )
        visit = [self.text("just_visiting")]
        if self.heat:
            visit = [f"{visit[0]} {100 * self.landing[i]:.2f}%"]
        # One line along the bottom edge, under the visitors' tokens.
        rows, size = fit(visit[0], CORNER - 6, 7.5, 1, smallest=5.0)
        lines(g, rows[:1], CORNER / 2, 106, size, fill=ink, class_="name")

    # ----- tokens --------------------------------------------------------------------------
    def tokens(self, g: ET.Element) -> None:
        for seat, p in enumerate(self.players):
            if p["bankrupt"]:
                continue
            square = int(p["position"])
            x, y = token_spot(square, seat, bool(p["in_jail"]), self.ed.jail_square)
            token = sub(
                g,
                "g",
                id=f"token-{seat}",
                class_="token",
                data_player=seat,
                data_square=square,
                data_in_jail=bool(p["in_jail"]),
                transform=f"translate({x:g},{y:g})",
            )
            where = self.text("jail") if p["in_jail"] else self.name(square)
            title(token, f"{p['name']} (token {seat + 1}) on {where}")
            self.token_shape(token, seat, 0, 0, 7)

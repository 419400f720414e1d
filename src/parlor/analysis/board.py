"""A heatmap of the board: the 40 squares around a square board, coloured by probability.

Square 0 (Go) is the bottom-right corner and play runs clockwise as on the printed board: along
the bottom to Jail (bottom left), up the left side to Free Parking, along the top to Go To Jail and
down the right side. The Jail corner is split: the upper triangle is In Jail, the lower Just
Visiting. Streets carry a strip in their group's colour on the inner edge.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from parlor.analysis.markov import N_SQUARES, Distribution
from parlor.monopoly.edition import Edition

#: Colours for street groups: the usual names, then a fallback cycle for other editions' ids.
GROUP_COLOURS = {
    "brown": "#8b4513",
    "purple": "#6a0dad",
    "dark_purple": "#5b2c6f",
    "light_blue": "#87ceeb",
    "pink": "#d63384",
    "magenta": "#d63384",
    "orange": "#f28c28",
    "red": "#d62728",
    "yellow": "#f5d300",
    "green": "#1f8b4c",
    "dark_blue": "#1f3a93",
    "blue": "#1f3a93",
}
FALLBACK = (
    "#8b4513",
    "#87ceeb",
    "#d63384",
    "#f28c28",
    "#d62728",
    "#f5d300",
    "#1f8b4c",
    "#1f3a93",
    "#7f7f7f",
)


def cell(index: int) -> tuple[int, int]:
    """(column, row) of a square on an 11 x 11 grid, row 0 at the bottom."""
    if index <= 10:
        return 10 - index, 0
    if index <= 20:
        return 0, index - 10
    if index <= 30:
        return index - 20, 10
    return 10, 40 - index


def short_name(edition: Edition, index: int, width: int = 11) -> str:
    name = edition.square_name(index)
    for long, short in (
        ("Avenue", "Ave"),
        ("Place", "Pl"),
        ("Railroad", "RR"),
        ("Community Chest", "Comm. Chest"),
        ("Gardens", "Gdns"),
    ):
        name = name.replace(long, short)
    return "\n".join(textwrap.wrap(name, width)[:3])


def draw_board(edition: Edition, dist: Distribution, path: Path | str, title: str = "") -> Path:
    """Write a PNG heatmap of ``dist`` over ``edition``'s board to ``path``."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt
    from matplotlib import cm, colors
    from matplotlib.patches import Polygon, Rectangle

    path = Path(path)
    # Scale on the squares only: In Jail (up to ~10%) would wash out the rest of the board; start
    # at the least likely square reached so the 2-3% squares that matter are told apart.
    vmax = float(dist.squares.max())
    reached = dist.squares[dist.squares > 0]
    norm = colors.Normalize(vmin=float(reached.min()) if len(reached) else 0.0, vmax=vmax)
    cmap = matplotlib.colormaps["viridis"]

    def ink(p: float) -> str:
        r, g, b, _ = cmap(norm(p))
        return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.5 else "white"

    fig, ax = plt.subplots(figsize=(11, 11))
    groups = sorted({s.group for s in edition.squares if s.kind == "street" and s.group})
    group_colour = {
        g: GROUP_COLOURS.get(g, FALLBACK[i % len(FALLBACK)]) for i, g in enumerate(groups)
    }
    for i in range(N_SQUARES):
        x, y = cell(i)
        p = float(dist.squares[i])
        sq = edition.squares[i]
        if i == edition.jail_square:
            ax.add_patch(
                Polygon(
                    [(x, y), (x + 1, y), (x, y + 1)],
                    facecolor=cmap(norm(p)),
                    edgecolor="black",
                    lw=0.5,
                )
            )
            ax.add_patch(
                Polygon(
                    [(x + 1, y), (x + 1, y + 1), (x, y + 1)],
                    facecolor=cmap(norm(min(dist.in_jail, vmax))),
                    edgecolor="black",
                    lw=0.5,
                )
            )
            ax.text(
                x + 0.3,
                y + 0.25,
                f"Visit\n{100 * p:.2f}%",
                ha="center",
                va="center",
                fontsize=6.5,
                color=ink(p),
            )
            ax.text(
                x + 0.7,
                y + 0.75,
                f"In jail\n{100 * dist.in_jail:.2f}%",
                ha="center",
                va="center",
                fontsize=6.5,
                fontweight="bold",
                color=ink(vmax),
            )
            continue
        ax.add_patch(Rectangle((x, y), 1, 1, facecolor=cmap(norm(p)), edgecolor="black", lw=0.5))
        if sq.kind == "street" and sq.group:
            # The colour strip sits on the edge facing the centre of the board.
            strip = {0: (x, y + 0.85, 1, 0.15), 10: (x, y, 1, 0.15)}.get(y) or (
                (x + 0.85, y, 0.15, 1) if x == 0 else (x, y, 0.15, 1)
            )
            ax.add_patch(
                Rectangle(strip[:2], strip[2], strip[3], facecolor=group_colour[sq.group], lw=0)
            )
        ax.text(
            x + 0.5,
            y + 0.55,
            short_name(edition, i),
            ha="center",
            va="center",
            fontsize=6,
            color=ink(p),
        )
        ax.text(
            x + 0.5,
            y + 0.2,
            f"{100 * p:.2f}%",
            ha="center",
            va="center",
            fontsize=7.5,
            fontweight="bold",
            color=ink(p),
        )
    ax.text(5.5, 6.2, edition.title, ha="center", va="center", fontsize=16, fontweight="bold")
    ax.text(5.5, 5.5, title, ha="center", va="center", fontsize=11)
    ax.text(
        5.5,
        4.9,
        f"In jail: {100 * dist.in_jail:.2f}% (its colour is capped at the top square)",
        ha="center",
        va="center",
        fontsize=9,
    )
    sm = cm.ScalarMappable(norm=norm, cmap=cmap)
    bar = fig.colorbar(sm, ax=ax, fraction=0.03, pad=0.02)
    bar.ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(xmax=1, decimals=1))
    ax.set_xlim(0, 11)
    ax.set_ylim(0, 11)
    ax.set_aspect("equal")
    ax.axis("off")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return path

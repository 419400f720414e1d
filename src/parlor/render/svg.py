"""A few helpers to build SVG with :mod:`xml.etree.ElementTree`, which escapes all text.

>>> root = svg_root(20, 10, "A dot", "One dot on a line.")
>>> _ = sub(root, "circle", cx=5, cy=5, r=2, class_="dot")
>>> text = to_text(root)
>>> text.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and 'class="dot"' in text
True
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
#: Average advance of a character, in ems, for wrapping text (DejaVu Sans runs wide).
CHAR_EM = 0.58


def _attrs(attrs: dict[str, object]) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in attrs.items():
        if value is None:
            continue
        # ``class_`` and ``data_square`` stand for ``class`` and ``data-square``.
        name = key.rstrip("_").replace("_", "-")
        out[name] = _fmt(value)
    return out


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def svg_root(width: float, height: float, title: str, desc: str) -> ET.Element:
    """An ``<svg>`` element with a view box, and the ``<title>``/``<desc>`` screen readers read."""
    root = ET.Element(
        "svg",
        _attrs(
            {
                "xmlns": SVG_NS,
                "viewBox": f"0 0 {_fmt(width)} {_fmt(height)}",
                "width": width,
                "height": height,
                "role": "img",
                "aria-labelledby": "picture-title picture-desc",
                "font-family": FONT,
            }
        ),
    )
    ET.SubElement(root, "title", id="picture-title").text = title
    ET.SubElement(root, "desc", id="picture-desc").text = desc
    return root


def sub(parent: ET.Element, tag: str, text: str | None = None, /, **attrs: object) -> ET.Element:
    """Append a child element; attribute names use ``_`` for ``-`` (``data_square``)."""
    el = ET.SubElement(parent, tag, _attrs(attrs))
    if text is not None:
        el.text = text
    return el


def title(parent: ET.Element, text: str) -> None:
    """The tooltip and accessible name of ``parent`` (must be its first child to count)."""
    el = ET.Element("title")
    el.text = text
    parent.insert(0, el)


def wrap(text: str, width: float, size: float, lines: int = 3) -> list[str]:
    """``text`` broken into at most ``lines`` lines that fit ``width`` at font ``size``."""
    chars = max(3, int(width / (size * CHAR_EM)))
    out = textwrap.wrap(text, chars, break_long_words=False) or [""]
    if len(out) > lines:
        out = [*out[: lines - 1], " ".join(out[lines - 1 :])]
    # A word longer than the line is cut, with a mark that it was.
    return [ln if len(ln) <= chars else ln[: chars - 1] + "." for ln in out]


def fit(
    text: str, width: float, size: float, rows: int = 3, smallest: float = 6.0
) -> tuple[list[str], float]:
    """``text`` wrapped to ``width`` at the largest font size from ``size`` down to ``smallest``
    at which no word is cut and it takes at most ``rows`` lines.

    >>> fit("Mediterranean Avenue", 64, 8.5)
    (['Mediterranean', 'Avenue'], 8.0)
    """
    step = size
    while step > smallest:
        chars = int(width / (step * CHAR_EM))
        out = textwrap.wrap(text, max(3, chars), break_long_words=False)
        if len(out) <= rows and all(len(ln) <= chars for ln in out):
            return out or [""], step
        step -= 0.5
    return wrap(text, width, smallest, rows), smallest


def lines(
    parent: ET.Element,
    rows: list[str],
    x: float,
    y: float,
    size: float,
    step: float | None = None,
    **attrs: object,
) -> ET.Element:
    """A ``<text>`` of several centred lines, the first baseline at ``y``."""
    el = sub(parent, "text", x=x, y=y, font_size=size, text_anchor="middle", **attrs)
    for i, row in enumerate(rows):
        sub(el, "tspan", row, x=x, dy=0 if i == 0 else (step or size * 1.15))
    return el


def ink_on(fill: str) -> str:
    """Black or white, whichever reads better on the colour ``fill`` (``#rrggbb``)."""
    r, g, b = (int(fill[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "#ffffff"


def prefix_ids(root: ET.Element, prefix: str) -> None:
    """Put ``prefix`` before every id and every reference to one, so that several pictures can
    share one HTML page.

    >>> root = svg_root(4, 4, "t", "d")
    >>> _ = sub(root, "rect", fill="url(#pat-dots)")
    >>> prefix_ids(root, "b1-")
    >>> root.get("aria-labelledby"), root[2].get("fill")
    ('b1-picture-title b1-picture-desc', 'url(#b1-pat-dots)')
    """
    for el in root.iter():
        for key, value in el.attrib.items():
            if key == "id":
                el.set(key, prefix + value)
            elif key == "aria-labelledby":
                el.set(key, " ".join(prefix + v for v in value.split()))
            elif "url(#" in value:
                el.set(key, value.replace("url(#", "url(#" + prefix))


def to_text(root: ET.Element, id_prefix: str = "") -> str:
    if id_prefix:
        prefix_ids(root, id_prefix)
    ET.indent(root, space=" ")
    return ET.tostring(root, encoding="unicode")

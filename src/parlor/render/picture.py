"""A drawn picture: SVG text that shows itself in a notebook and saves as SVG or PNG."""

from __future__ import annotations

from pathlib import Path

from parlor.core.errors import E_, SettingsError


class Picture:
    """An SVG picture, shown inline by Jupyter (``_repr_svg_``) the way python-chess shows boards.

    ``str(picture)`` is the SVG text; :meth:`png` rasterises it; :meth:`save` writes either,
    chosen by the file's suffix.

    >>> pic = Picture('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="2"/>')
    >>> pic._repr_svg_() == str(pic)
    True
    """

    def __init__(self, svg: str) -> None:
        self.svg = svg

    def __str__(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return f"<Picture: {len(self.svg)} characters of SVG>"

    def _repr_svg_(self) -> str:
        return self.svg

    def png(self, scale: float = 1.0) -> bytes:
        """The picture as PNG bytes, ``scale`` times its nominal size (needs ``cairosvg``)."""
        try:
            import cairosvg  # type: ignore[import-untyped]
        except (ImportError, OSError) as exc:  # OSError: the cairo library itself is missing
            raise SettingsError(
                E_(
                    "PNG output needs cairosvg and the cairo library: pip install 'parlor[render]' "
                    "(and apt-get install libcairo2)"
                )
            ) from exc
        data = cairosvg.svg2png(bytestring=self.svg.encode("utf-8"), scale=scale)
        assert isinstance(data, bytes)
        return data

    def save(self, path: str | Path, scale: float = 1.0) -> Path:
        """Write the picture to ``path``: PNG for a ``.png`` name, SVG otherwise."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix.lower() == ".png":
            path.write_bytes(self.png(scale))
        else:
            path.write_text(self.svg, encoding="utf-8")
        return path

"""Named, documented observation layouts: one table that both fills the vectors and writes docs/rl.md.

A :class:`Layout` is an ordered list of :class:`Entry` (a name, a width, a meaning and a scale); the
encoders write each entry through :meth:`Layout.put`, so an entry the documentation does not list
cannot be written, and the documentation is generated from the same table (``parlor.rl.docs``).

>>> layout = Layout([Entry("cash", 2, "cash of each seat", "money / starting cash")])
>>> layout.size, layout.slice("cash")
(2, slice(0, 2, None))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class Entry:
    """One block of the observation vector.

    ``width`` floats; ``meaning`` says what they stand for (and in which order, for a block);
    ``scale`` says how raw values are turned into floats ("one-hot", "0/1", "count / 10"...).
    """

    name: str
    width: int
    meaning: str
    scale: str


class Layout:
    """The observation vector of one environment configuration, entry by entry."""

    def __init__(self, entries: Iterable[Entry]) -> None:
        self.entries: tuple[Entry, ...] = tuple(entries)
        self._slices: dict[str, slice] = {}
        offset = 0
        for entry in self.entries:
            if entry.name in self._slices:
                raise ValueError(f"duplicate observation entry {entry.name!r}")
            self._slices[entry.name] = slice(offset, offset + entry.width)
            offset += entry.width
        self.size = offset

    def slice(self, name: str) -> slice:
        return self._slices[name]

    def zeros(self) -> Vector:
        return np.zeros(self.size, dtype=np.float32)

    def put(self, vector: Vector, name: str, values: float | Sequence[float]) -> None:
        """Write a whole entry (a scalar fills a one-wide entry)."""
        vector[self._slices[name]] = values

    def hot(self, vector: Vector, name: str, index: int, value: float = 1.0) -> None:
        """Set one position of an entry (one-hot and multi-hot blocks); out-of-range is a bug."""
        s = self._slices[name]
        if not 0 <= index < s.stop - s.start:
            raise IndexError(f"{name}[{index}] is outside its width {s.stop - s.start}")
        vector[s.start + index] = value

    def markdown(self) -> str:
        """The layout as a Markdown table (offsets, widths, meanings, scales)."""
        rows = ["| offset | width | entry | meaning | scale |", "| ---: | ---: | --- | --- | --- |"]
        for entry in self.entries:
            s = self._slices[entry.name]
            rows.append(
                f"| {s.start} | {entry.width} | `{entry.name}` | {entry.meaning} | {entry.scale} |"
            )
        rows.append(f"| | **{self.size}** | | total | |")
        return "\n".join(rows)

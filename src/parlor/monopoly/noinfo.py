"""The empty, read-only ``info`` that a turn's plain decisions share (see ``turn.py``).

A module of its own, left out of the optional compiled build (setup.py): a native class may not
derive from dict, and the frames it once lived beside are compiled.
"""

from __future__ import annotations

from typing import Any, NoReturn


class NoInfo(dict[str, Any]):
    """The empty ``info`` of a decision shared by every game: an empty dict that refuses to
    change, so that no reader can alter another's."""

    __slots__ = ()

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("a shared decision's info is read-only")

    __setitem__ = __delitem__ = update = setdefault = pop = popitem = clear = _refuse
    __ior__ = _refuse


NO_INFO = NoInfo()

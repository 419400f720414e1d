"""A seat's view as the changes since the view it holds (protocol 3's ``update.changes``).

The form (docs/server.md, "Views as changes"): a list of changes, applied in order, each

- ``[path, value]``: set the value at ``path`` (a new object key included), or
- ``[path]``: remove the object key at ``path``,

where ``path`` is a list of object keys (strings) and list indices (integers) from the view's
root. Objects are compared key by key and lists of the same length item by item; a list that
grew at its end gets its new items set at the indices past its old end (an index equal to the
list's length appends), any other list whose length changed is set whole (a TOOLS hand). The diff is computed between two views of the
same seat (never from the whole state), so it tells that seat nothing its own views do not.
No I/O, no engine: the Python client applies it too.
"""

from __future__ import annotations

from typing import Any

import orjson

Path = list[str | int]
Change = list[Any]  # [path, value] or [path]


def diff(old: Any, new: Any) -> list[Change]:
    """The changes that turn ``old`` into ``new`` (both parsed JSON).

    >>> diff({"a": 1, "b": [1, 2], "c": 0}, {"a": 2, "b": [1, 3], "d": None})
    [[['a'], 2], [['b', 1], 3], [['d'], None], [['c']]]
    >>> diff({"x": [1]}, {"x": [1, 2]}), diff({"x": [1]}, {"x": [2, 1]})
    ([[['x', 1], 2]], [[['x'], [2, 1]]])
    >>> diff({"t": True}, {"t": 1}), diff([1], [1])
    ([[['t'], 1]], [])
    """
    out: list[Change] = []
    _diff(old, new, [], out)
    return out


def _diff(old: Any, new: Any, path: Path, out: list[Change]) -> None:
    if old is new:
        return
    if type(old) is not type(new):  # (True == 1 and 1 == 1.0 in Python, not in JSON)
        out.append([path, new])
    elif type(new) is dict or type(new) is list:
        # most of a view is as it was: compared whole at C speed (and as JSON text, where True
        # is not 1) before it is walked
        if old == new and _json(old) == _json(new):
            return
        _walk(old, new, path, out)
    elif old != new:
        out.append([path, new])


def _walk(old: Any, new: Any, path: Path, out: list[Change]) -> None:
    if isinstance(new, dict):
        for key, value in new.items():
            if key in old:
                _diff(old[key], value, [*path, key], out)
            else:
                out.append([[*path, key], value])
        out.extend([[*path, key]] for key in old if key not in new)
    elif isinstance(new, list):
        head = new[: len(old)]
        if len(old) < len(new) and head == old and _json(head) == _json(old):  # (grown at its end)
            out.extend([[*path, i], new[i]] for i in range(len(old), len(new)))
        elif len(old) != len(new):
            out.append([path, new])
        else:
            for i, (a, b) in enumerate(zip(old, new, strict=True)):
                _diff(a, b, [*path, i], out)


def smaller(old: Any, new: Any) -> list[Change] | None:
    """The changes from ``old`` to ``new`` if they are shorter as JSON than ``new`` itself, else
    None (send it whole): what the server sends a connection that holds ``old``.

    >>> smaller({"a": 1, "b": 2}, {"a": 1, "b": 3}), smaller([1], [2])
    ([[['b'], 3]], None)
    """
    found = diff(old, new)
    return found if len(_json(found)) < len(_json(new)) else None


def _json(value: Any) -> bytes:
    try:  # (views may have integer keys: TOOLS scores)
        return orjson.dumps(value)
    except TypeError:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def apply(view: Any, changes: list[Change]) -> Any:
    """``view`` with ``changes`` applied: a new object; ``view`` itself is left as it was.

    >>> old = {"a": 1, "b": [1, 2], "c": 0}
    >>> new = {"a": 2, "b": [1, 3], "d": None}
    >>> apply(old, diff(old, new)) == new, old["b"]
    (True, [1, 2])
    """
    root = _copy(view)
    for change in changes:
        path = change[0]
        if not path:  # (the whole view set; never removed: diff does not make that)
            root = _copy(change[1]) if len(change) >= 2 else None
            continue
        parent = root
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        if len(change) >= 2:
            if isinstance(parent, list) and last == len(parent):
                parent.append(_copy(change[1]))
            else:
                parent[last] = _copy(change[1])
        else:
            del parent[last]
    return root


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value

"""The shape of the package: no import cycles between parlor modules, and rules packages at the bottom.

Imports are read from the source (every ``import`` and ``from ... import``, at module level or
inside functions; imports under ``if TYPE_CHECKING:`` are for the type checker only and are not
counted). ``from pkg import name`` is an import of the module ``pkg.name`` when that module exists,
else of ``pkg`` itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
#: The rules cores and the only parlor packages each may import.
RULES_LAYERS = {
    "parlor.core": ("parlor.core",),
    # The message catalogs sit beside the core: the games' text modules word their events with them.
    "parlor.i18n": ("parlor.core", "parlor.i18n"),
    "parlor.monopoly": ("parlor.core", "parlor.i18n", "parlor.monopoly"),
    "parlor.tools": ("parlor.core", "parlor.i18n", "parlor.tools"),
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in SRC.glob("parlor/**/*.py")}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_nodes(tree: ast.AST) -> list[ast.stmt]:
    """Every import statement that runs, skipping the bodies of ``if TYPE_CHECKING:``."""
    found: list[ast.stmt] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def imports_of(name: str) -> set[str]:
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            assert isinstance(node, ast.ImportFrom)
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                for alias in node.names
            ]
        out.update(t for t in targets if t in MODULES and t != name)
    return out


GRAPH = {name: imports_of(name) for name in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_import_reader_sees_lazy_imports_and_skips_type_checking_ones() -> None:
    # game.py imports text.py inside describe(); text.py imports game.py for the type checker only.
    assert "parlor.monopoly.text" in GRAPH["parlor.monopoly.game"]
    assert "parlor.monopoly.game" not in GRAPH["parlor.monopoly.text"]


def test_no_import_cycles_between_parlor_modules() -> None:
    assert cycles(GRAPH) == []


@pytest.mark.parametrize("layer", sorted(RULES_LAYERS))
def test_rules_packages_import_nothing_above_them(layer: str) -> None:
    allowed = RULES_LAYERS[layer]
    upward = {
        (name, target)
        for name, targets in GRAPH.items()
        if name == layer or name.startswith(layer + ".")
        for target in targets
        if not any(target == a or target.startswith(a + ".") for a in allowed)
    }
    assert upward == set()

"""parlor.render is an adapter: it imports the engines and the analysis, and none of them imports it."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "parlor"
ALLOWED = ("parlor.core", "parlor.monopoly", "parlor.tools", "parlor.analysis", "parlor.render")
BELOW = ("core", "monopoly", "tools", "analysis")


def parlor_imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names if a.name.startswith("parlor")}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("parlor"):
            names.add(str(node.module))
    return names


def test_render_imports_only_the_engines_and_the_analysis() -> None:
    for path in (SRC / "render").glob("*.py"):
        for name in parlor_imports(path):
            assert name.startswith(ALLOWED), f"{path.name} imports {name}"


def test_nothing_below_imports_render() -> None:
    for package in BELOW:
        for path in (SRC / package).rglob("*.py"):
            assert not any(n.startswith("parlor.render") for n in parlor_imports(path)), path

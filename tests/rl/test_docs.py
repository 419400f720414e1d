"""docs/rl.md is generated from the code; this fails when the two differ."""

from __future__ import annotations

from pathlib import Path

from parlor.rl import docs

ROOT = Path(__file__).resolve().parents[2]


def test_docs_rl_md_is_what_the_code_generates() -> None:
    on_disk = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    assert on_disk == docs.render(), "docs/rl.md is stale: run python -m parlor.rl.docs"


def test_every_observation_entry_is_documented() -> None:
    text = docs.render()
    from parlor.rl import make_spec
    from parlor.rl.table import Table

    for spec in (make_spec("tools", 2), make_spec("classic", 4)):
        for entry in Table(spec).layout.entries:
            assert f"`{entry.name}`" in text

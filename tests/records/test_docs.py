"""docs/records.md shows records the code writes: its examples are generated here and must be
in the page as they are (``PARLOR_UPDATE_DOCS=1`` writes them in), and each reads back."""

from __future__ import annotations

import os
import re
from pathlib import Path

from parlor import monopoly, tools
from parlor.records import RecordError, parse, read_game, write_record
from tests.records.games import play

DOC = Path(__file__).resolve().parents[2] / "docs" / "records.md"


def examples() -> dict[str, str]:
    prop = play(
        monopoly.new_game("classic", ["Ann", "Bo", "Cy"], 6), "monopoly", "heuristic", 45, 6
    )
    shed = play(tools.new_game(2, 21), "tools", "heuristic", 3000, 21)
    made = {
        "property": write_record(
            prop,
            seats=["human", "heuristic", "heuristic"],
            tags={"Event": "docs example", "Date": "2026.12.03"},
        ),
        "tools": write_record(shed, seats=["heuristic", "heuristic"]),
        "hidden": "\n".join(
            write_record(shed, seats=["heuristic", "heuristic"], hide_seed=True).split("\n")[:8]
        )
        + "\n",
    }
    made["errors"] = errors(made["property"])
    return made


def errors(text: str) -> str:
    """What the reader says of three changed copies of ``text``."""
    lines = text.split("\n")
    roll = next(i for i, line in enumerate(lines) if line.startswith("3. "))
    buy = next(i for i, line in enumerate(lines) if " buy " in line and i > roll)
    changed = [
        "\n".join([*lines[:roll], lines[roll].replace("6+3", "6+2"), *lines[roll + 1 :]]),
        "\n".join(lines[:buy] + lines[buy + 1 :]),
        text.replace('[Result "*"]', '[Result "2"]'),
    ]
    out = []
    for t in changed:
        try:
            read_game(t)
        except RecordError as exc:
            out.append(str(exc))
    return "\n".join(out) + "\n"


def _block(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- example {name} -->\n```text\n)(.*?)(```)", re.S)


def test_the_examples_in_the_docs_are_what_the_code_writes() -> None:
    page = DOC.read_text(encoding="utf-8")
    made = examples()
    if os.environ.get("PARLOR_UPDATE_DOCS"):
        for name, text in made.items():
            page = _block(name).sub(lambda m, t=text: m.group(1) + t + m.group(3), page)
        DOC.write_text(page, encoding="utf-8")
    for name, text in made.items():
        found = _block(name).search(page)
        assert found, f"docs/records.md lacks the example {name}"
        assert found.group(2) == text, f"the example {name} is not what the code writes"
    for name in ("property", "tools"):
        assert read_game(made[name]).log
    assert parse(made["property"]).tag("Date") == "2026.12.03"

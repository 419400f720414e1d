"""Every word the page writes exists in each language, and every key the page uses is in them."""

from __future__ import annotations

import json
import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "src" / "parlor" / "web" / "static"


def catalog(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
    return data


def test_the_three_catalogs_have_the_same_keys_and_placeholders() -> None:
    en = catalog("en")
    for lang in ("es", "da"):
        other = catalog(lang)
        assert set(other) == set(en), lang
        for key, text in en.items():
            assert set(re.findall(r"\{\w+\}", other[key])) == set(re.findall(r"\{\w+\}", text))


def test_every_literal_key_the_page_uses_is_in_the_catalog() -> None:
    source = (STATIC / "app.js").read_text("utf-8") + (STATIC / "index.html").read_text("utf-8")
    used = set(re.findall(r"""\bt\("(\w+)"[,)]""", source)) | set(
        re.findall(r'data-t="(\w+)"', source)
    )
    assert used and used <= set(catalog("en")), used - set(catalog("en"))

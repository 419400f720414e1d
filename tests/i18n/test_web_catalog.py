"""The browser page's words: the "web" gettext domain is complete in every language, holds nothing
the page does not use, is compiled, and is what the server hands the page."""

from __future__ import annotations

import io
import json
import re
import string
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

import parlor
from parlor.i18n import LANGUAGES, WEB_DOMAIN, web_messages

SOURCE = Path(parlor.__file__).parent
STATIC = SOURCE / "web" / "static"
LOCALE = SOURCE / "i18n" / "locale"


@pytest.fixture(scope="module")
def used() -> set[str]:
    """Every message the page translates (t) or marks for later (N_), as scripts/i18n.sh
    extracts them with Babel's JavaScript extractor."""
    found = extract_from_dir(
        str(STATIC),
        method_map=[("**.js", "javascript")],
        keywords={"t": None, "N_": None, "tn": (1, 2)},
        comment_tags=(),
    )
    return {m if isinstance(m, str) else m[0] for _f, _l, m, _c, _x in found}


def _catalog(lang: str) -> Any:
    with open(LOCALE / lang / "LC_MESSAGES" / f"{WEB_DOMAIN}.po", encoding="utf-8") as fh:
        return read_po(fh, locale=lang, domain=WEB_DOMAIN)


def _key(value: Any) -> Any:
    """A message id or string, plural ones (lists in .mo, tuples in .po) as tuples."""
    return value if isinstance(value, str) else tuple(value)


def _fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_word_of_the_page_is_translated_and_none_is_unused(lang: str, used: set[str]) -> None:
    catalog = _catalog(lang)
    have = {(m.id if isinstance(m.id, str) else m.id[0]): m for m in catalog if m.id}
    assert sorted(used - set(have)) == [], f"missing in {lang}: run scripts/i18n.sh"
    assert sorted(set(have) - used) == [], f"unused in {lang}: run scripts/i18n.sh"
    for key, message in have.items():
        assert message.string, f"{lang}: {key!r} is not translated"
        assert "fuzzy" not in message.flags, f"{lang}: {key!r} is fuzzy"
        # the page fills {field}s by name: a translation keeps every one and adds none
        if isinstance(message.id, str):
            assert _fields(message.string) == _fields(key), f"{lang}: {key!r} -> {message.string!r}"
            continue
        # plural forms (tn): as many as the language has, each with the plural's fields
        assert len(message.string) == catalog.num_plurals, key
        for form in message.string:
            assert form and _fields(form) == _fields(message.id[1]), f"{lang}: {key!r} -> {form!r}"


def test_the_page_builds_no_message_at_run_time(used: set[str]) -> None:
    # t("edition_" + id) would escape extraction: such words go through WORD with N_ marks
    source = "".join(path.read_text("utf-8") for path in sorted(STATIC.glob("*.js")))
    assert not re.findall(r"""\b(?:t|N_)\(\s*["'][^"']*["']\s*\+""", source)
    assert not re.findall(r"""\b(?:t|N_)\(\s*`""", source)  # nor a template string
    assert len(used) > 150 and "Top of the pile" in used


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_compiled_catalog_matches_its_source(lang: str) -> None:
    mo = resources.files("parlor.i18n").joinpath(f"locale/{lang}/LC_MESSAGES/{WEB_DOMAIN}.mo")
    compiled = {_key(m.id): _key(m.string) for m in read_mo(io.BytesIO(mo.read_bytes())) if m.id}
    source = {_key(m.id): _key(m.string) for m in _catalog(lang) if m.id}
    assert compiled == source, "run scripts/i18n.sh to recompile the catalogs"


def test_the_page_gets_the_compiled_words_with_placeholders_kept() -> None:
    assert web_messages("es")["Seat {n}"] == "Puesto {n}"
    assert all(f.count("{n}") == 1 for f in web_messages("da")["{n} card to draw"])
    assert web_messages("en")["Top of the pile"] == "Top of the pile"
    # plural forms as a list in the catalog's order (Spanish has three: one, many, other)
    assert web_messages("es")["{n} card"] == ["{n} carta", "{n} cartas", "{n} cartas"]
    assert web_messages("da")["{n} house"] == ["{n} hus", "{n} huse"]
    assert set(web_messages("da")) == set(web_messages("en"))
    assert json.loads(json.dumps(web_messages("es")))["Language"] == "Idioma"


def test_the_spanish_page_names_the_nails_as_the_rulebook_does() -> None:
    # the Spanish rulebook (tools-card-game.es.txt): "Clavo en Buen Estado", "Clavo Doblado";
    # "clavo bueno" (the good-nail prompt) and "clavo torcido" were the page's own words
    words = [w for v in web_messages("es").values() for w in ([v] if isinstance(v, str) else v)]
    for wrong in ("clavo bueno", "clavos buenos", "torcido"):
        assert not [w for w in words if wrong in w.lower()], wrong
    assert web_messages("es")["Good nail: you cannot play"].startswith("Clavo en buen estado")
    assert web_messages("es")["bent nail"] == "clavo doblado"

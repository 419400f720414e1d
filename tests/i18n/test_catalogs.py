"""The message catalogs: complete in every language, nothing unused, compiled files up to date.

Two domains: "parlor" (events, prompts, menus, CLI help) and "errors" (the typed errors' messages,
marked with ``E_``); each is checked against the messages its keywords mark in the code.
"""

from __future__ import annotations

import ast
import io
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
from parlor.i18n import LANGUAGES, translator

SOURCE = Path(parlor.__file__).parent
LOCALE = SOURCE / "i18n" / "locale"
KEYWORDS = {
    "parlor": {"_": None, "N_": None, "ngettext": (1, 2)},
    "errors": {"E_": None},
}
DOMAINS = sorted(KEYWORDS)


def _key(message_id: Any) -> str:
    return message_id if isinstance(message_id, str) else message_id[0]


@pytest.fixture(scope="module")
def marked() -> dict[str, set[str]]:
    """Every message id the code marks for translation, by domain (what scripts/i18n.sh
    extracts)."""
    out = {}
    for domain, keywords in KEYWORDS.items():
        found = extract_from_dir(
            str(SOURCE), method_map=[("**.py", "python")], keywords=keywords, comment_tags=()
        )
        out[domain] = {_key(message) for _file, _line, message, _comments, _context in found}
    return out


def _catalog(lang: str, domain: str = "parlor") -> Any:
    with open(LOCALE / lang / "LC_MESSAGES" / f"{domain}.po", encoding="utf-8") as fh:
        return read_po(fh, locale=lang)


def _fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_used_message_is_translated_and_none_is_unused(
    lang: str, domain: str, marked: dict[str, set[str]]
) -> None:
    used = marked[domain]
    catalog = _catalog(lang, domain)
    have = {_key(m.id): m for m in catalog if m.id}
    assert sorted(used - set(have)) == [], f"missing in {lang}"
    assert sorted(set(have) - used) == [], f"unused in {lang}"
    for key, message in have.items():
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), f"{lang}: {key!r} is not translated"
        assert "fuzzy" not in message.flags, f"{lang}: {key!r} is fuzzy"
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        wanted = set().union(*(_fields(i) for i in ids))
        for text in strings:
            # The same fields (a translation may leave out a count its words already imply).
            assert _fields(text) <= wanted, f"{lang}: {key!r} -> {text!r} has unknown fields"
            assert _fields(text) >= wanted - {"n"}, f"{lang}: {key!r} -> {text!r} lacks fields"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_compiled_catalogs_match_the_sources(lang: str, domain: str) -> None:
    mo_path = resources.files("parlor.i18n").joinpath(f"locale/{lang}/LC_MESSAGES/{domain}.mo")
    compiled = read_mo(io.BytesIO(mo_path.read_bytes()))
    source = _catalog(lang, domain)

    def table(catalog: Any) -> dict[Any, Any]:
        def frozen(value: Any) -> Any:
            return tuple(value) if isinstance(value, list | tuple) else value

        return {frozen(m.id): frozen(m.string) for m in catalog if m.id}

    want, got = table(source), table(compiled)
    assert got == want, "run scripts/i18n.sh to recompile the catalogs"


def test_no_message_hides_inside_an_f_string() -> None:
    # The extractor cannot see a call inside an f-string, so such a message would never be
    # translated (nor flagged missing).
    pattern = re.compile(r"""\bf(["'])[^"'\n]*\{[\w.]*\b[EN]?_\(""")
    hidden = [
        f"{path.relative_to(SOURCE)}:{n}"
        for path in SOURCE.rglob("*.py")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert hidden == []


def test_every_error_message_is_a_literal() -> None:
    # E_(text) with anything but a literal would escape extraction and stay English.
    calls = [
        (path.relative_to(SOURCE), node)
        for path in SOURCE.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "E_"
    ]
    assert len(calls) > 200
    bad = [
        f"{path}:{node.lineno}"
        for path, node in calls
        if not (node.args and isinstance(node.args[0], ast.Constant))
        or not isinstance(node.args[0].value, str)
    ]
    assert bad == []


def test_translations_are_used_at_run_time() -> None:
    assert translator("es")("{who} passes", who="Ana") == "Ana pasa"
    assert translator("da").ngettext("{n} house", "{n} houses", 3, n=3) == "3 huse"
    assert translator("en")("{who} passes", who="Ann") == "Ann passes"
    with pytest.raises(parlor.core.errors.SettingsError, match="unknown language 'fr'"):
        translator("fr")


#: Packages whose words reach players (terminal games, engines' errors, server, client).
PLAYER_FACING = ("cli", "core", "i18n", "monopoly", "tools", "server", "client")
#: English that is meant to stay English, and why.
ENGLISH_ON_PURPOSE = {
    # a programming error in an annotation, raised when a class is defined
    ("core/validate.py", "TypeError"),
    # a programming error: a reader writing into the info every game's plain decisions share
    ("monopoly/noinfo.py", "TypeError"),
    # an API caller's bug (seats neither human nor bot), never a user's input
    ("cli/monopoly_tui.py", "ValueError"),
    # the operator's log line, read by scripts (the address is its last word)
    ("server/cli.py", "print"),
    # why a stored snapshot is not used: written to the server's log, then the log is replayed
    ("server/snapshots.py", "ReplayError"),
}
_WORD = re.compile(r"(?<![-\w.%{])[A-Za-z]{2,}")


def _has_words(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and bool(_WORD.search(node.value))
    if isinstance(node, ast.JoinedStr):
        return any(_has_words(part) for part in node.values if isinstance(part, ast.Constant))
    if isinstance(node, ast.BinOp):
        return _has_words(node.left) or _has_words(node.right)
    return False


def test_no_english_is_raised_or_printed_outside_the_catalogs() -> None:
    # An f-string or plain literal with words, raised as an error or printed/said to a player,
    # stays English in a Spanish or Danish game: such text goes through _() or E_() instead.
    found = set()
    for package in PLAYER_FACING:
        for path in sorted((SOURCE / package).rglob("*.py")):
            where = str(path.relative_to(SOURCE))
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                    call, what = node.exc, ast.unparse(node.exc.func).split(".")[-1]
                    # (a literal without a space is a code, like ProtocolError's "bad_request")
                    texts = [
                        a
                        for a in call.args
                        if not (isinstance(a, ast.Constant) and " " not in str(a.value))
                    ]
                elif isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-1] in (
                    "print",
                    "say",
                ):
                    call, what, texts = node, "print", list(node.args)
                else:
                    continue
                if any(_has_words(arg) for arg in texts):
                    found.add((where, what, node.lineno))
    unexpected = sorted(f for f in found if f[:2] not in ENGLISH_ON_PURPOSE)
    assert unexpected == []
    # and every exception above still exists (a stale entry would hide a new English text)
    assert {f[:2] for f in found} == ENGLISH_ON_PURPOSE

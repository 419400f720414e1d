"""Player-facing words in English, Spanish and Danish, from gettext catalogs managed with Babel.

Every text a player reads (events, prompts, decisions, menus, CLI help) is written in the code as
an English message id and looked up here; the engines' error messages come from a catalog of
their own (:func:`translate_error`). The catalogs live in ``parlor/i18n/locale/<lang>/
LC_MESSAGES/parlor.po`` and are compiled to ``.mo`` files that ship with the package
(``scripts/i18n.sh`` extracts, updates and compiles them).

>>> _ = translator("da")
>>> _("{who} passes", who="Ann")
'Ann melder pas'
>>> _.ngettext("{n} house", "{n} houses", 2, n=2)
'2 huse'
>>> format_money(18575, "kr.", True, "da"), format_money(1500, "$", False, "en")
('18.575 kr.', '$1,500')
"""

from __future__ import annotations

import io
import locale
import os
from collections.abc import Sequence
from functools import cache, lru_cache
from importlib import resources

from babel.messages.mofile import read_mo
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

from parlor.core.errors import E_, ParlorError, SettingsError, Text, say

#: The languages every catalog covers; the first is the fallback.
LANGUAGES: tuple[str, ...] = ("en", "es", "da")
DOMAIN = "parlor"
#: The typed errors' messages (marked with ``parlor.core.errors.E_``) have a catalog of their own.
ERRORS_DOMAIN = "errors"
#: The browser page's words (``t("...")`` in ``parlor/web/static/app.js``), a catalog of their own.
WEB_DOMAIN = "web"
LANGUAGE_NAMES = {"en": "English", "es": "español", "da": "dansk"}


def N_(message: str) -> str:
    """Marks a message for extraction where it is translated later (a table of names)."""
    return message


def check_language(lang: object) -> str:
    """``lang`` if it is one of :data:`LANGUAGES`, else a :class:`SettingsError` that lists them."""
    if not isinstance(lang, str) or lang not in LANGUAGES:
        raise SettingsError(
            E_(
                "unknown language {lang}: choose one of {choices}",
                lang=repr(lang),
                choices=", ".join(LANGUAGES),
            )
        )
    return lang


def pick_language(preferred: Sequence[str], fallback: str = "en") -> str:
    """The first of ``preferred`` that the catalogs cover (an edition's languages), else fallback.

    >>> pick_language(["de", "da", "en"]), pick_language(["de"])
    ('da', 'en')
    """
    return next((lang for lang in preferred if lang in LANGUAGES), fallback)


def environment_language() -> str | None:
    """The language the user's environment asks for (``LANGUAGE``, ``LC_ALL``, ``LANG``), if one of
    ours; None otherwise."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        for part in value.split(":"):
            code = locale.normalize(part).split("_")[0].split(".")[0].lower() if part else ""
            if code in LANGUAGES:
                return code
    return None


class Translator:
    """The messages of one language: ``_("text {field}", field=...)`` and ``_.ngettext(...)``;
    fields are filled with :meth:`str.format`."""

    def __init__(self, lang: str, catalog: NullTranslations) -> None:
        self.lang = lang
        self._catalog = catalog

    def __call__(self, message: str, /, **fields: object) -> str:
        text = self._catalog.gettext(message)
        return text.format(**fields) if fields else text

    def ngettext(self, singular: str, plural: str, n: int, /, **fields: object) -> str:
        text = self._catalog.ngettext(singular, plural, n)
        return text.format(**fields) if fields else text

    def number(self, value: int) -> str:
        """A whole number with this language's digit grouping (``1,500``, ``18.575``)."""
        return format_number(value, self.lang)

    def join(self, items: Sequence[str]) -> str:
        """``a, b and c`` in this language."""
        if len(items) <= 1:
            return "".join(items)
        return self(N_("{items} and {last}"), items=", ".join(items[:-1]), last=items[-1])


def _catalog(lang: str, domain: str) -> NullTranslations:
    check_language(lang)
    localedir = resources.files("parlor.i18n").joinpath("locale")
    path = localedir.joinpath(lang, "LC_MESSAGES", f"{domain}.mo")
    with resources.as_file(path) as mo, open(mo, "rb") as fh:
        return Translations(fh, domain=domain)


@cache
def translator(lang: str = "en") -> Translator:
    """The :class:`Translator` for ``lang`` (one of :data:`LANGUAGES`)."""
    return Translator(lang, _catalog(lang, DOMAIN))


@cache
def _errors_catalog(lang: str) -> NullTranslations:
    return _catalog(lang, ERRORS_DOMAIN)


def translate_error(error: BaseException | str, lang: str) -> str:
    """An error's message (or a :class:`~parlor.core.errors.Text`) in ``lang``: a
    :class:`~parlor.core.errors.ParlorError`, or any exception made with a ``Text``; anything
    else as its English text.

    >>> from parlor.core.errors import E_, IllegalAction
    >>> translate_error(IllegalAction(E_("the game is over")), "da")
    'spillet er slut'
    >>> translate_error(ValueError("raw"), "es")
    'raw'
    """
    message: object = error
    if isinstance(error, ParlorError):
        message = error.text
    elif isinstance(error, BaseException) and len(error.args) == 1:
        message = error.args[0]
    if not isinstance(message, Text):
        return str(error)
    return say(message, lang, _errors_catalog(lang).gettext)


@cache
def web_messages(lang: str) -> dict[str, str | list[str]]:
    """The browser page's catalog in ``lang`` as ``{English message: translation}`` (the page
    fills the ``{field}`` placeholders itself); a message with plural forms (the page's ``tn``)
    as ``{English singular: [the forms in the catalog's order]}``.

    >>> web_messages("es")["Seat {n}"], web_messages("da")["Top of the pile"]
    ('Puesto {n}', 'Øverst på bunken')
    """
    check_language(lang)
    path = resources.files("parlor.i18n").joinpath(
        "locale", lang, "LC_MESSAGES", f"{WEB_DOMAIN}.mo"
    )
    catalog = read_mo(io.BytesIO(path.read_bytes()))
    out: dict[str, str | list[str]] = {}
    for m in catalog:
        if isinstance(m.id, str) and m.id:
            out[m.id] = str(m.string)
        elif isinstance(m.id, tuple | list) and m.id:
            out[str(m.id[0])] = [str(form) for form in (m.string or ())]
    return out


@lru_cache(maxsize=8192)  # babel's formatting is slow and a game shows the same amounts again
def format_number(value: int, lang: str) -> str:
    """``value`` with the digit grouping of ``lang``.

    >>> format_number(1500, "en"), format_number(18575, "da"), format_number(18575, "es")
    ('1,500', '18.575', '18.575')
    """
    return format_decimal(value, locale=check_language(lang))


def format_money(amount: int, currency: str, currency_after: bool, lang: str) -> str:
    """An amount in an edition's currency (its symbol and side) with ``lang``'s digit grouping.

    >>> format_money(-1500, "$", False, "en"), format_money(1500, "$", True, "es")
    ('-$1,500', '1.500 $')
    """
    number = format_number(abs(amount), lang)
    sign = "-" if amount < 0 else ""
    if currency_after:
        return f"{sign}{number} {currency}"
    return f"{sign}{currency}{number}"


__all__ = [
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "N_",
    "Translator",
    "check_language",
    "environment_language",
    "format_money",
    "format_number",
    "pick_language",
    "translate_error",
    "translator",
    "web_messages",
]

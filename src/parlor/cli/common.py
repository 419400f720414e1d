"""Helpers shared by the terminal games: seat lists, names and ``key=value`` options."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlor.bots.registry import bot_names
from parlor.core.errors import E_
from parlor.i18n import LANGUAGES, Translator, environment_language, translator


def parse_seats(spec: str, players: int, _: Translator | None = None) -> set[int]:
    """Bot seats from ``"2,3"`` (1-based), ``"all-but-1"``, ``"all"`` or ``"none"``; 0-based out.

    >>> sorted(parse_seats("all-but-1", 4)), sorted(parse_seats("2, 4", 4))
    ([1, 2, 3], [1, 3])
    """
    text = spec.strip().lower()
    everyone = set(range(players))
    if text == "all":
        return everyone
    if text in ("none", ""):
        return set()
    if text.startswith("all-but-"):
        return everyone - _seat_list(text[len("all-but-") :], players, _)
    return _seat_list(text, players, _)


def _seat_list(text: str, players: int, _: Translator | None) -> set[int]:
    _ = _ or translator()
    seats: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or not 1 <= int(part) <= players:
            raise ValueError(
                _(
                    "seat {seat} is not a number from 1 to {n}",
                    seat=repr(clean_text(part)),
                    n=players,
                )
            )
        seats.add(int(part) - 1)
    return seats


def parse_names(spec: str | None, _: Translator | None = None) -> list[str] | None:
    """Player names from ``"Ann, Bo,Cy"``; None when no names are given.

    >>> parse_names("Ann, Bo,Cy")
    ['Ann', 'Bo', 'Cy']
    """
    if not spec:
        return None
    _ = _ or translator()
    names = [s.strip() for s in spec.split(",")]
    if any(not n for n in names):
        raise ValueError(_("empty name in {names}", names=repr(clean_text(spec))))
    if any(clean_text(n) != n for n in names):
        raise ValueError(
            _(
                "a name holds undecodable bytes or control characters: {names}",
                names=repr(clean_text(spec)),
            )
        )
    if any(len(n) > MAX_NAME for n in names):
        raise ValueError(_("a name is at most {n} characters", n=MAX_NAME))
    return names


def parse_value(text: str) -> Any:
    """A typed option value: true/false (yes/no, on/off), none/null, a number, else text.

    >>> [parse_value(t) for t in ("true", "Off", "none", "-3", "0.5", "short")]
    [True, False, None, -3, 0.5, 'short']
    """
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null"):
        return None
    for number in (int, float):
        try:
            return number(low)
        except ValueError:
            pass
    return text.strip()


def parse_option(text: str, _: Translator | None = None) -> tuple[str, Any]:
    """``"key=value"`` as ``(key, typed value)``.

    >>> parse_option("time_limit_rounds=100"), parse_option("search.exploration=0.5")
    (('time_limit_rounds', 100), ('search.exploration', 0.5))
    """
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        _ = _ or translator()
        raise ValueError(
            _("an option is written key=value, not {text}", text=repr(clean_text(text)))
        )
    return key, parse_value(raw)


def parse_options(pairs: list[str] | None, _: Translator | None = None) -> dict[str, Any]:
    """``["auctions=false", "time_limit_rounds=20"]`` as a dict of typed values.

    >>> parse_options(["auctions=false", "time_limit_rounds = 20"])
    {'auctions': False, 'time_limit_rounds': 20}
    """
    return dict(parse_option(pair, _) for pair in pairs or [])


#: The longest player name accepted.
MAX_NAME = 40
#: Typed numbers longer than this are refused rather than parsed (no game amount comes near).
MAX_DIGITS = 12


def parse_int(text: str) -> int | None:
    """A typed whole number (ASCII digits, at most :data:`MAX_DIGITS`), else None.

    ``"²"`` and other Unicode digits, signs and huge numbers are not numbers here.

    >>> parse_int("42"), parse_int(" 7 "), parse_int("²"), parse_int("9" * 40), parse_int("-1")
    (42, 7, None, None, None)
    """
    text = text.strip()
    if not 1 <= len(text) <= MAX_DIGITS or not all("0" <= ch <= "9" for ch in text):
        return None
    return int(text)


def clean_text(text: str) -> str:
    """Typed or given text made printable: undecodable bytes and control characters become "?".

    >>> clean_text("Ann\\udcff\\x07")
    'Ann??'
    """
    return "".join(
        "?" if (0xD800 <= ord(ch) <= 0xDFFF or (ord(ch) < 32 and ch != "\t")) else ch for ch in text
    )


@dataclass(frozen=True)
class Seat:
    """Who plays a seat: a human (``bot=None``) or a bot of that kind with its seed."""

    bot: str | None = None
    seed: int | None = None

    @property
    def is_human(self) -> bool:
        return self.bot is None

    def to_dict(self) -> dict[str, Any]:
        if self.bot is None:
            return {"role": "human"}
        return {"role": "bot", "bot": self.bot, "seed": self.seed}

    @staticmethod
    def from_dict(data: Any) -> Seat:
        """A seat from a save; ``ValueError`` when the entry is not one."""
        if not isinstance(data, dict) or data.get("role") not in ("human", "bot"):
            raise ValueError(E_("not a seat: {entry}", entry=clean_text(str(data)[:60])))
        if data["role"] == "human":
            return Seat()
        bot, seed = data.get("bot"), data.get("seed")
        if not isinstance(bot, str) or not (
            seed is None or (isinstance(seed, int) and not isinstance(seed, bool))
        ):
            raise ValueError(E_("not a bot seat: {entry}", entry=clean_text(str(data)[:60])))
        return Seat(bot, seed)


def help_language(argv: Sequence[str] | None) -> str:
    """The language of the help and messages: ``--lang`` on the command line, else the
    environment's (``LANGUAGE``/``LC_ALL``/``LANG``) when it is one of ours, else English.

    >>> help_language(["play", "--lang", "da"]), help_language(["--lang=es"])
    ('da', 'es')
    """
    args = list(sys.argv[1:] if argv is None else argv)
    for i, arg in enumerate(args):
        if arg in ("--lang", "--language") and i + 1 < len(args) and args[i + 1] in LANGUAGES:
            return args[i + 1]
        for flag in ("--lang=", "--language="):
            if arg.startswith(flag) and arg[len(flag) :] in LANGUAGES:
                return arg[len(flag) :]
    return environment_language() or "en"


def bot_epilog(game: str, about: Mapping[str, str], _: Translator) -> str:
    """The help's list of bot kinds for ``game`` (``about``: a catalog message per kind)."""
    lines = [_("Bots (--bot):")]
    for name in bot_names(game):
        what = _(about[name]) if name in about else ""
        lines.append(f"  {name:<10} {what}")
    return "\n".join(lines)


def add_bot_arguments(
    parser: argparse.ArgumentParser, game: str, default_bot: str, _: Translator
) -> None:
    """``--bots`` (which seats) and ``--bot`` (which kind), as both terminal games take them."""
    parser.add_argument(
        "--bots",
        default=None,
        help=_('seats played by bots: "2,3,4", "all-but-1" (default), "all" or "none"'),
    )
    parser.add_argument(
        "--bot",
        default=None,
        help=_(
            "which bot plays the bot seats: {names} (default {default})",
            names=", ".join(bot_names(game)),
            default=default_bot,
        ),
    )


def add_save_arguments(parser: argparse.ArgumentParser, _: Translator) -> None:
    """``--save`` and ``--load``, as both terminal games take them."""
    parser.add_argument(
        "--save",
        default=None,
        help=_("keep the game in this file (after every move, at the end and on quitting)"),
    )
    parser.add_argument(
        "--load",
        default=None,
        help=_(
            "resume a saved game, with its seats and language; it is saved on to the same "
            "file unless --save names another"
        ),
    )

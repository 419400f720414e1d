"""Games to records and records to games: the writer replays a game's log and writes each move
with what chance made of it; the reader rebuilds the game from the tags and replays the moves,
checking every line against the rules and the seed (a line that does not fit is refused with its
line number). Both stand on the games' public interface only.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any

from parlor.core.errors import E_, ParlorError
from parlor.core.game import Event, Game
from parlor.core.validate import check_seed
from parlor.records import property as property_notation
from parlor.records import shedding
from parlor.records.syntax import (
    FORMAT_NAME,
    FORMAT_VERSION,
    Line,
    Record,
    RecordError,
    Tag,
    number_list,
    numbers_text,
    problem,
    seat_list,
    seats_text,
    tag,
)

NOTATIONS: dict[str, ModuleType] = {"monopoly": property_notation, "tools": shedding}
#: Tags that say what the game was; any other tag (Event, Site, Date...) is kept as written.
FACT_TAGS = frozenset(
    {
        "Format", "Game", "Edition", "EditionData", "Title", "Deck", "DeckData", "Variant",
        "Option", "Seat", "Seed", "SeedCommitment", "Result", "Termination", "Ranking",
        "Valuation",
    }
)  # fmt: skip
_SINGLE = FACT_TAGS - {"Option", "Seat"}


def game_class(name: str) -> type[Game[Any]]:
    if name == "monopoly":
        from parlor import monopoly

        return monopoly.PropertyGame
    if name == "tools":
        from parlor import tools

        return tools.ToolsGame
    raise RecordError(E_("unknown game {name}: monopoly or tools", name=repr(name[:40])))


def seed_commitment(seed: int) -> str:
    """What a record that withholds its seed shows instead: a SHA-256 digest that the seed,
    revealed later, must match. It hides only a seed that cannot be guessed (the server's are
    63-bit random numbers; a simulation's are small)."""
    return "sha256:" + hashlib.sha256(f"parlor-record-seed:{seed}".encode()).hexdigest()


# ----- writing ------------------------------------------------------------------------------
def _notation(game_name: str) -> ModuleType:
    notation = NOTATIONS.get(game_name)
    if notation is None:
        raise RecordError(E_("unknown game {name}: monopoly or tools", name=repr(game_name)))
    return notation


def _mark(game: Game[Any]) -> int:
    return int(game.view(None)["turn"]) if game.game_name == "tools" else 0


def _turn_passed(game: Game[Any], events: Sequence[Event], mark: int) -> bool:
    if game.game_name == "tools":
        return shedding.turn_passed(game, mark)  # type: ignore[arg-type]
    return property_notation.turn_passed(events)


def record_of(
    game: Game[Any],
    *,
    seats: Sequence[str] | None = None,
    tags: Mapping[str, str] | None = None,
    hide_seed: bool = False,
) -> Record:
    """The record of ``game`` (replayed from its settings, seed and log). ``seats`` says who
    played each seat (``"human"``, a bot's name...), ``tags`` adds descriptive tags (Event, Site,
    Date...); with ``hide_seed`` the seed is replaced by its commitment."""
    notation = _notation(game.game_name)
    fresh = type(game).from_settings(game.settings, game.seed)
    record = Record()
    record.setup = notation.setup_lines(fresh)
    turn, opens = 1, True
    memo = notation.start(fresh)
    for action in game.log:
        before, mark = notation.before(fresh, memo), _mark(fresh)
        events = fresh.apply(action)
        line = notation.write(fresh, action, events, before)
        record.moves.append(replace(line, number=turn) if opens else line)
        opens = _turn_passed(fresh, events, mark)
        turn += opens
    names = list(game.settings["players"])
    kinds = list(seats or [])
    head = [tag("Format", f"{FORMAT_NAME} {FORMAT_VERSION}"), tag("Game", game.game_name)]
    head += notation.header(fresh)
    for p, name in enumerate(names):
        kind = kinds[p] if p < len(kinds) else ""
        head.append(tag("Seat", p + 1, name, kind) if kind else tag("Seat", p + 1, name))
    if hide_seed:
        head.append(tag("SeedCommitment", seed_commitment(game.seed)))
    else:
        head.append(tag("Seed", game.seed))
    outcome = fresh.outcome
    if outcome is None:
        head.append(tag("Result", "*"))
    else:
        head += [
            tag("Result", seats_text(outcome.winners)),
            tag("Termination", outcome.reason),
            tag("Ranking", seats_text(outcome.ranking)),
            tag("Valuation", numbers_text(outcome.scores)),
        ]
    for name, value in (tags or {}).items():
        if name in FACT_TAGS:
            raise RecordError(E_("{name} is a tag the record writes itself", name=name))
        head.append(tag(name, value))
    record.tags = head
    return record


# ----- reading ------------------------------------------------------------------------------
def _tag_map(record: Record) -> dict[str, Tag]:
    seen: dict[str, Tag] = {}
    for t in record.tags:
        if t.name in _SINGLE and t.name in seen:
            raise problem(t.line, E_("the tag {name} is given twice", name=t.name))
        seen.setdefault(t.name, t)
    return seen


def _seats(record: Record) -> tuple[list[str], list[str]]:
    names: list[str] = []
    kinds: list[str] = []
    for t in record.tags_named("Seat"):
        if len(t.values) not in (2, 3) or t.values[0] != str(len(names) + 1):
            raise problem(
                t.line, E_('seats are [Seat "N" "name" "who"], numbered 1, 2... in order')
            )
        names.append(t.values[1])
        kinds.append(t.values[2] if len(t.values) == 3 else "")
    if not names:
        raise RecordError(E_("the record names no seat ([Seat] tags)"))
    return names, kinds


def _options(record: Record) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for t in record.tags_named("Option"):
        if len(t.values) != 2 or t.values[0] in options:
            raise problem(t.line, E_('an option is [Option "name" "value"], each name once'))
        try:
            value = json.loads(t.values[1])
        except ValueError:
            raise problem(t.line, E_("an option's value is JSON: true, 12, null...")) from None
        if isinstance(value, dict | list):
            raise problem(t.line, E_("an option's value is JSON: true, 12, null..."))
        options[t.values[0]] = value
    return options


def _seed(tags: Mapping[str, Tag], seed: int | None) -> int:
    given, commitment = tags.get("Seed"), tags.get("SeedCommitment")
    if given is not None:
        try:
            found = check_seed(int(given.values[0]) if given.values else None)
        except (ValueError, ParlorError):
            raise problem(given.line, E_("the seed is a whole number")) from None
        if given.values != (str(found),):  # (one spelling: 5, not 05 or +5)
            raise problem(given.line, E_("the seed is a whole number"))
        if seed is not None and seed != found:
            raise problem(given.line, E_("the record's seed is not the one given"))
        seed = found
    if seed is None:
        raise RecordError(
            E_("the record withholds its seed: it can be read, but replayed only with the seed")
        )
    if commitment is not None and commitment.values != (seed_commitment(seed),):
        raise problem(commitment.line, E_("the seed does not match the record's commitment"))
    return seed


@dataclass(frozen=True)
class Step:
    """One move replayed: its line, the action and what happened."""

    index: int
    line: Line
    action: Any
    events: list[Event]


class Replay:
    """A record being replayed: ``game`` is the game so far; :meth:`steps` applies the moves one
    at a time, each checked against the rules and the seed; :meth:`finish` checks the result."""

    def __init__(self, record: Record, seed: int | None = None) -> None:
        self.record = record
        tags = _tag_map(record)
        game_tag = tags.get("Game")
        if game_tag is None or not game_tag.values:
            raise RecordError(E_("the record does not say its game ([Game] tag)"))
        self.notation = _notation(game_tag.values[0])
        cls = game_class(game_tag.values[0])
        self.names, self.kinds = _seats(record)
        self.seed = _seed(tags, seed)
        options = _options(record)
        try:
            settings = self.notation.settings(record, self.names, options)
            self.game: Game[Any] = cls.from_settings(settings, self.seed)
        except RecordError:
            raise
        except ParlorError as exc:
            raise RecordError(E_("the tags do not make a game: {error}", error=exc)) from exc
        except Exception as exc:  # (edition or deck data the engine's parser chokes on)
            raise RecordError(
                E_("the tags do not make a game: {error}", error=type(exc).__name__)
            ) from exc
        title = tags.get("Title")
        actual = getattr(getattr(self.game, "edition", None), "title", None)
        if title is not None and title.values != (actual,):
            raise problem(title.line, E_("this edition's title is {title}", title=repr(actual)))
        setup = self.notation.setup_lines(self.game)
        written = [s.text() for s in record.setup]
        for i, want in enumerate(s.text() for s in setup):
            if i >= len(written) or written[i] != want:
                at = record.setup[i].line if i < len(written) else 0
                raise problem(at, E_("the seed deals {want}", want=want))
        if len(written) > len(setup):
            raise problem(record.setup[len(setup)].line, E_("the seed deals nothing more"))
        self.done = 0
        self.turn, self.opens = 1, True
        self.memo = self.notation.start(self.game)

    def steps(self) -> Iterator[Step]:
        """Apply the moves left, yielding each (raises :class:`RecordError` at the first line
        that does not replay)."""
        game, notation = self.game, self.notation
        turn, opens = self.turn, self.opens
        for i, line in enumerate(self.record.moves):
            if i < self.done:
                continue
            assert line.seat is not None
            if line.seat >= game.num_players:
                raise problem(line.line, E_("there is no player P{seat}", seat=line.seat + 1))
            if line.number is not None and (not opens or line.number != turn):
                raise problem(
                    line.line, E_("this move is not the first of turn {n}", n=line.number)
                )
            action = notation.read(game, line)
            before, mark = notation.before(game, self.memo), _mark(game)
            try:
                events = game.apply(action)
            except ParlorError as exc:
                raise problem(
                    line.line, E_("{move} is not legal here: {error}", move=line.text(), error=exc)
                ) from exc
            canon = notation.write(game, action, events, before)
            if (canon.verb, canon.args, canon.outcomes) != (line.verb, line.args, line.outcomes):
                raise problem(
                    line.line,
                    E_(
                        "the record says {written}, the game gives {actual}",
                        written=replace(line, number=None).text(),
                        actual=canon.text(),
                    ),
                )
            self.done = i + 1
            opens = _turn_passed(game, events, mark)
            turn += opens
            self.turn, self.opens = turn, opens
            yield Step(i, line, action, events)

    def finish(self) -> Game[Any]:
        """Replay what is left and check the result tags; the game."""
        for _ in self.steps():
            pass
        tags = _tag_map(self.record)
        outcome = self.game.outcome
        result = tags.get("Result")
        if result is not None:
            value = result.values[0] if result.values else ""
            if value == "*":
                if outcome is not None:
                    raise problem(result.line, E_("the game is over, the result is not *"))
            elif outcome is None:
                raise problem(result.line, E_("the moves do not finish the game: the result is *"))
        if outcome is None:
            for name in ("Termination", "Ranking", "Valuation"):
                if name in tags:
                    raise problem(tags[name].line, E_("the moves do not finish the game"))
            return self.game
        actual = {
            "Result": seats_text(outcome.winners),
            "Termination": outcome.reason,
            "Ranking": seats_text(outcome.ranking),
            "Valuation": numbers_text(outcome.scores),
        }
        n = self.game.num_players
        for name, value in actual.items():
            found = tags.get(name)
            if found is None:
                continue
            text = " ".join(found.values)
            if name in ("Result", "Ranking"):
                same = seat_list(text, n, found.line) == seat_list(value, n, 0)
            elif name == "Valuation":
                same = number_list(text, found.line) == list(outcome.scores)
            else:
                same = text == value
            if not same:
                raise problem(
                    found.line, E_("the game gives [{name} {value}]", name=name, value=repr(value))
                )
        return self.game


def replay(record: Record, seed: int | None = None) -> Game[Any]:
    """The game ``record`` stands for, every line checked (raises :class:`RecordError`)."""
    return Replay(record, seed).finish()

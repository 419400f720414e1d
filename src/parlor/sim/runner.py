"""Run many seeded games with bots, the same way on one core, many cores or a Ray cluster.

A :class:`GameSpec` says what to play (game, edition, options, line-up, the decision cap);
:func:`run_game` plays one game from a seed and returns a :class:`GameRecord`, a pure function of
the spec and the seed: game ``i`` of a run is seeded ``base_seed + i`` and the bot in seat ``s``
gets :func:`bot_seed` ``(game_seed, s)``, so every backend produces the same rows.

>>> spec = GameSpec(game="tools", players=3, bots=("random",), max_decisions=5000)
>>> record = run_game(spec, 7)
>>> record.lineup, record.seed
(('random', 'random', 'random'), 7)
>>> run_game(spec, 7) == record
True
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, overload

from parlor.bots.base import Bot
from parlor.bots.registry import make_bot
from parlor.core.errors import E_, SettingsError
from parlor.core.game import Event, Game

if TYPE_CHECKING:
    from parlor.monopoly import Edition

GAMES = ("monopoly", "tools")
BACKENDS = ("local", "ray")
#: Default decision caps: random property games can wander for tens of thousands of decisions.
DEFAULT_MAX_DECISIONS = {"monopoly": 20_000, "tools": 5_000}
#: Reason recorded for a game stopped by the decision cap.
CAPPED = "capped"
#: Reason recorded for a game that raised (an engine or bot bug); ``error`` holds the message.
ERROR = "error"


@dataclass(frozen=True)
class GameSpec:
    """What to simulate. ``bots`` is one name per seat, or a single name for every seat.

    ``options`` are the game's rule options (for property games the variant is ``"variant"``);
    ``deck`` is a TOOLS deck file (None: the default deck). With ``rotate`` the line-up turns
    one seat per game, so that every bot sits in every seat equally often. ``bot_options`` gives
    keyword options by bot name (e.g. ``{"search": {"simulations": 128}}``).
    """

    game: str = "monopoly"
    edition: str | None = None
    players: int = 4
    bots: tuple[str, ...] = ("random",)
    options: Mapping[str, Any] = field(default_factory=dict)
    deck: str | None = None
    max_decisions: int | None = None
    rotate: bool = False
    bot_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: Keep each game's record (docs/records.md) in :attr:`GameRecord.record` (not in the rows).
    records: bool = False

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise SettingsError(
                E_(
                    "unknown game {game}: choose one of {choices}",
                    game=repr(self.game),
                    choices=", ".join(GAMES),
                )
            )
        if self.game == "monopoly" and self.edition is None:
            object.__setattr__(self, "edition", "classic")
        if self.game == "tools" and self.edition is not None:
            raise SettingsError(E_("TOOLS has no editions (give --deck for another deck)"))
        if self.game == "monopoly" and self.deck is not None:
            raise SettingsError(E_("decks are a TOOLS setting; property games take --edition"))
        bots = tuple(self.bots)
        if not bots or any(not b for b in bots):
            raise SettingsError(E_("the line-up names no bot"))
        if len(bots) == 1:
            bots = bots * self.players
        if len(bots) != self.players:
            raise SettingsError(
                E_(
                    "the line-up names {count} bots for {players} players: give one name for every "
                    "seat, or a single name for all",
                    count=len(bots),
                    players=self.players,
                )
            )
        object.__setattr__(self, "bots", bots)
        object.__setattr__(self, "options", dict(self.options))
        unused = sorted(set(self.bot_options) - set(bots))
        if unused:
            raise SettingsError(
                E_(
                    "bot options for {choices}, who is not in the line-up",
                    choices=", ".join(unused),
                )
            )
        object.__setattr__(
            self, "bot_options", {k: dict(v) for k, v in sorted(self.bot_options.items())}
        )
        if self.max_decisions is None:
            object.__setattr__(self, "max_decisions", DEFAULT_MAX_DECISIONS[self.game])
        if self.cap < 1:
            raise SettingsError(
                E_("the decision cap must be at least 1, not {value}", value=self.max_decisions)
            )

    @property
    def cap(self) -> int:
        return int(self.max_decisions or DEFAULT_MAX_DECISIONS[self.game])

    @property
    def variant(self) -> str | None:
        """The property-game variant asked for (None: the edition's default)."""
        value = self.options.get("variant")
        return None if value is None else str(value)

    def lineup(self, index: int) -> tuple[str, ...]:
        """The bot in each seat for game ``index`` (turned by ``index`` seats with ``rotate``)."""
        if not self.rotate:
            return self.bots
        k = index % self.players
        return self.bots[-k:] + self.bots[:-k] if k else self.bots

    def new_game(self, seed: int) -> Game[Any]:
        """A fresh game of this spec (raises :class:`SettingsError` on bad settings)."""
        if self.game == "monopoly":
            from parlor import monopoly

            return monopoly.new_game(self.edition or "classic", self.players, seed, self.options)
        from parlor import tools

        return tools.new_game(self.players, seed, self.deck, self.options or None)

    def check(self) -> None:
        """Build one game and its bots, so that bad settings fail before any work is sent out."""
        self.new_game(0)
        for name in sorted(set(self.bots)):
            self.make_bot(name, 0)

    def make_bot(self, name: str, seed: int) -> Bot:
        """The bot ``name`` with this spec's options for it, seeded ``seed``."""
        return make_bot(self.game, name, seed=seed, **self.bot_options.get(name, {}))

    def to_dict(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["bots"] = list(self.bots)
        out["options"] = dict(self.options)
        out["bot_options"] = {k: dict(v) for k, v in self.bot_options.items()}
        out["max_decisions"] = self.cap
        del out["records"]  # (how the games are kept, not what was played)
        return out


@dataclass(frozen=True)
class GameRecord:
    """One simulated game: how it was set up, how it ended and what happened on the board.

    ``winners`` is empty for a capped game or an error; ``winner`` is the single winner's seat, or
    -1 (a tie, a cap, an error). ``turns`` counts turns taken, ``rounds`` full rounds of the table.
    For property games ``landings[sq]`` counts how often a token ended a move on square ``sq``
    (being sent to jail counts as landing on the jail square) and ``rent[sq]`` the rent paid for
    that square; both are empty for TOOLS.
    """

    index: int
    game: str
    edition: str
    seed: int
    players: int
    lineup: tuple[str, ...]
    bot_seeds: tuple[int, ...]
    winners: tuple[int, ...]
    winner: int
    reason: str
    capped: bool
    decisions: int
    turns: int
    rounds: int
    scores: tuple[float, ...]
    ranking: tuple[int, ...]
    landings: tuple[int, ...] = ()
    rent: tuple[int, ...] = ()
    error: str = ""
    #: The game's record, with ``GameSpec.records`` (not a column of the rows).
    record: str = field(default="", compare=False, repr=False)

    @property
    def winner_bot(self) -> str:
        return self.lineup[self.winner] if self.winner >= 0 else ""

    def to_row(self) -> dict[str, Any]:
        row = dataclasses.asdict(self)
        del row["record"]
        for key, value in row.items():
            if isinstance(value, tuple):
                row[key] = list(value)
        row["winner_bot"] = self.winner_bot
        return row


@functools.lru_cache(maxsize=16)
def _edition(edition: str) -> Edition:
    from parlor.monopoly import load_edition

    return load_edition(edition)


def board_of(spec: GameSpec) -> Edition:
    """The edition (board, names, money) of a property-game spec."""
    if spec.game != "monopoly":
        raise SettingsError(E_("only property games have a board"))
    return _edition(spec.edition or "classic")


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of the game seeded ``game_seed``: stable across processes
    and machines (no use of ``hash()``), and different for every seat and game.

    >>> bot_seed(0, 0) == bot_seed(0, 0) != bot_seed(0, 1)
    True
    """
    digest = hashlib.blake2b(f"parlor-sim:{game_seed}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


class _BoardTally:
    """Landings and rent per square, read from the events the property engine returns."""

    def __init__(self, game: Game[Any], jail_square: int) -> None:
        view = game.view(None)
        self.jail_square = jail_square
        self.position = [int(p["position"]) for p in view["players"]]
        self.landings = [0] * 40
        self.rent = [0] * 40
        # Rent claimed later (the rent_claim option): squares waiting, per (payer, owner).
        self.claims: dict[tuple[int, int], deque[int]] = defaultdict(deque)

    def feed(self, events: Iterable[Event]) -> None:
        for e in events:
            d = e.data
            if e.kind == "moved":
                self.position[d["player"]] = d["to"]
                self.landings[d["to"]] += 1
            elif e.kind == "jailed":
                self.position[d["player"]] = self.jail_square
                self.landings[self.jail_square] += 1
            elif e.kind == "rent_due":
                self.claims[(d["player"], d["owner"])].append(self.position[d["player"]])
            elif e.kind == "rent_lapsed":
                waiting = self.claims.get((d["player"], d["owner"]))
                if waiting:
                    waiting.popleft()
            elif e.kind == "paid" and d.get("reason") == "rent":
                waiting = self.claims.get((d["player"], d["to"]))
                square = waiting.popleft() if waiting else self.position[d["player"]]
                self.rent[square] += int(d["amount"])


def run_game(spec: GameSpec, seed: int, index: int = 0) -> GameRecord:
    """Play one game of ``spec`` from ``seed`` with the line-up of game ``index``.

    A pure function of its arguments (given deterministic bots). A game still going after
    ``spec.max_decisions`` decisions is stopped and recorded with reason ``"capped"``; one that
    raises is recorded with reason ``"error"`` and the message, so that one bad game does not
    lose a whole run.
    """
    lineup = spec.lineup(index)
    seeds = tuple(bot_seed(seed, s) for s in range(spec.players))
    game = spec.new_game(seed)
    bots = [spec.make_bot(name, s) for name, s in zip(lineup, seeds, strict=True)]
    board = _BoardTally(game, board_of(spec).jail_square) if spec.game == "monopoly" else None
    decisions = turns = rounds = 0
    error = ""
    try:
        while not game.is_over and decisions < spec.cap:
            # (``decider`` is ``pending.player`` without building the decision)
            p = game.decider
            if p is None:  # pragma: no cover - the protocol says over iff no decision
                raise RuntimeError("the game waits for no decision but is not over")
            action = bots[p].choose(game, p)
            events = game.apply(action)
            decisions += 1
            for e in events:
                if e.kind == "turn":
                    turns += 1
                    rounds = max(rounds, int(e.data.get("round", 0)))
            if board is not None:
                board.feed(events)
    except Exception as exc:
        error = f"{type(exc).__name__} after {decisions} decisions: {exc}"
    if spec.game == "tools":
        turns = int(game.view(None)["turn"])
        rounds = turns // spec.players
    outcome = game.outcome
    winners: tuple[int, ...]
    scores: tuple[float, ...]
    ranking: tuple[int, ...]
    if error:
        reason, winners, scores, ranking = ERROR, (), (), ()
    elif outcome is None:
        reason, winners, scores, ranking = CAPPED, (), (), ()
    else:
        reason = outcome.reason.replace(" ", "_")
        winners, scores, ranking = outcome.winners, outcome.scores, outcome.ranking
    record = _record_text(game, lineup, index) if spec.records else ""
    return GameRecord(
        index=index,
        game=spec.game,
        edition=spec.edition or "",
        seed=seed,
        players=spec.players,
        lineup=lineup,
        bot_seeds=seeds,
        winners=tuple(winners),
        winner=winners[0] if len(winners) == 1 else -1,
        reason=reason,
        capped=reason == CAPPED,
        decisions=decisions,
        turns=turns,
        rounds=rounds,
        scores=tuple(float(s) for s in scores),
        ranking=tuple(ranking),
        landings=tuple(board.landings) if board else (),
        rent=tuple(board.rent) if board else (),
        error=error,
        record=record,
    )


def _record_text(game: Game[Any], lineup: Sequence[str], index: int) -> str:
    """The game's record (an engine that fails replaying its own log gives none)."""
    from parlor.records import write_record

    try:
        tags = {"Event": "parlor simulate", "Round": str(index + 1)}
        return write_record(game, seats=list(lineup), tags=tags)
    except Exception:  # (the row says why the game stopped)
        return ""


def run_batch(spec: GameSpec, indices: Sequence[int], base_seed: int) -> list[GameRecord]:
    """Games ``indices`` of a run seeded ``base_seed`` (the unit of work sent to a worker)."""
    return [run_game(spec, base_seed + i, i) for i in indices]


class Chunks(Sequence[range]):
    """Games ``0..n-1`` cut into consecutive batches of ``size``, computed when asked for: a run
    of a million games does not hold a list of its million indices.

    >>> chunks = Chunks(7, 3)
    >>> len(chunks), chunks[0], chunks[-1], list(chunks[2])
    (3, range(0, 3), range(6, 7), [6])
    """

    __slots__ = ("n", "size")

    def __init__(self, n: int, size: int) -> None:
        self.n = n
        self.size = size

    def __len__(self) -> int:
        return -(-self.n // self.size)

    @overload
    def __getitem__(self, i: int) -> range: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[range]: ...
    def __getitem__(self, i: int | slice) -> range | Sequence[range]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        start = i * self.size
        return range(start, min(self.n, start + self.size))


def _chunks(n: int, workers: int, chunk_size: int | None) -> Chunks:
    return Chunks(n, chunk_size or max(1, min(50, n // (workers * 8) or 1)))


def run_many(
    spec: GameSpec,
    n: int,
    base_seed: int = 0,
    workers: int | None = None,
    backend: str = "local",
    progress: bool = True,
    ray_address: str | None = None,
    chunk_size: int | None = None,
    on_record: Callable[[GameRecord], None] | None = None,
    ship_code: bool = False,
) -> list[GameRecord]:
    """Play ``n`` games (indices ``0..n-1``, seeds ``base_seed + i``) and return them by index
    (all in memory: for large runs iterate :func:`iter_records` instead).

    ``backend="local"`` uses ``workers`` processes (default: every core; 1 runs in this process);
    ``backend="ray"`` sends batches to Ray: to the cluster at ``ray_address`` (or the
    ``RAY_ADDRESS`` environment variable) if given, else to a local Ray started with ``workers``
    CPUs (an already initialised Ray is used as it is); with
    ``ship_code`` this process's ``parlor`` package is uploaded to the workers (for a cluster
    where it is not installed). The rows do not depend on the backend, the worker count or the
    chunk size.
    """
    records = []
    for r in iter_records(
        spec, n, base_seed, workers, backend, progress, ray_address, chunk_size, ship_code
    ):
        records.append(r)
        if on_record is not None:
            on_record(r)
    return records


#: Batches in flight per worker: enough to keep every worker busy, few enough that the records
#: waiting to be handed out in order stay few.
IN_FLIGHT_PER_WORKER = 3


def iter_records(
    spec: GameSpec,
    n: int,
    base_seed: int = 0,
    workers: int | None = None,
    backend: str = "local",
    progress: bool = True,
    ray_address: str | None = None,
    chunk_size: int | None = None,
    ship_code: bool = False,
) -> Iterator[GameRecord]:
    """The records of :func:`run_many` one by one, in index order, as the games finish: memory
    stays bounded whatever ``n`` (at most a few batches per worker are in flight or waiting)."""
    if backend not in BACKENDS:
        raise SettingsError(
            E_(
                "unknown backend {backend}: choose one of {choices}",
                backend=repr(backend),
                choices=", ".join(BACKENDS),
            )
        )
    if n < 0:
        raise SettingsError(E_("the number of games must be at least 0, not {count}", count=n))
    workers = max(1, workers or os.cpu_count() or 1)
    bar = _progress_bar(n, progress, spec)
    chunks = _chunks(n, workers, chunk_size)
    capped = 0
    try:
        batches: Iterator[list[GameRecord]]
        if backend == "ray":
            batches = _ray_batches(spec, chunks, base_seed, workers, ray_address, ship_code)
        elif workers == 1 or n <= 1:
            batches = (run_batch(spec, chunk, base_seed) for chunk in chunks)
        else:
            batches = _pool_batches(spec, chunks, base_seed, workers)
        for batch in batches:
            for r in batch:
                capped += r.capped
                yield r
            if bar is not None:
                bar.update(len(batch))
                if capped:
                    bar.set_postfix(capped=capped, refresh=False)
    finally:
        if bar is not None:
            bar.close()


def _in_order(
    chunks: Sequence[range],
    submit: Callable[[int], Any],
    wait_any: Callable[[list[Any]], tuple[list[Any], list[Any]]],
    result: Callable[[Any], list[GameRecord]],
    in_flight: int,
) -> Iterator[list[GameRecord]]:
    """Run ``chunks`` with at most ``in_flight`` submitted at once and yield their results in
    chunk order (a finished chunk waits for the ones before it)."""
    handles: dict[Any, int] = {}
    done: dict[int, list[GameRecord]] = {}
    following = 0  # the next chunk to submit
    ready = 0  # the next chunk to yield
    while ready < len(chunks):
        while following < len(chunks) and len(handles) + len(done) < in_flight:
            handles[submit(following)] = following
            following += 1
        finished, _ = wait_any(list(handles))
        for h in finished:
            done[handles.pop(h)] = result(h)
        while ready in done:
            yield done.pop(ready)
            ready += 1


def _pool_batches(
    spec: GameSpec, chunks: Sequence[range], base_seed: int, workers: int
) -> Iterator[list[GameRecord]]:
    with ProcessPoolExecutor(max_workers=min(workers, len(chunks))) as pool:

        def wait_any(futures: list[Any]) -> tuple[list[Any], list[Any]]:
            finished, left = wait(futures, return_when=FIRST_COMPLETED)
            return list(finished), list(left)

        yield from _in_order(
            chunks,
            lambda i: pool.submit(run_batch, spec, chunks[i], base_seed),
            wait_any,
            lambda fut: fut.result(),
            workers * IN_FLIGHT_PER_WORKER,
        )


def _progress_bar(n: int, enabled: bool, spec: GameSpec) -> Any:
    if not enabled:
        return None
    from tqdm import tqdm  # type: ignore[import-untyped]

    label = spec.edition if spec.game == "monopoly" else "tools"
    return tqdm(total=n, desc=f"simulating {label}", unit="game", dynamic_ncols=True)


def _ray_batches(
    spec: GameSpec,
    chunks: Sequence[range],
    base_seed: int,
    workers: int,
    address: str | None,
    ship_code: bool,
) -> Iterator[list[GameRecord]]:
    try:
        import ray
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise SettingsError(
            E_("the Ray backend needs Ray: pip install 'parlor[ray]' (or pip install ray)")
        ) from exc
    started = False
    address = address or os.environ.get("RAY_ADDRESS") or None
    if not ray.is_initialized():
        import parlor

        env = {"py_modules": [parlor]} if ship_code else None
        if address:
            ray.init(address=address, log_to_driver=False, runtime_env=env)
        else:
            ray.init(
                num_cpus=workers, include_dashboard=False, log_to_driver=False, runtime_env=env
            )
        started = True
    try:
        remote_batch = ray.remote(run_batch)
        spec_ref = ray.put(spec)
        cpus = max(1, int(ray.cluster_resources().get("CPU", workers)))  # type: ignore[no-untyped-call]

        def wait_any(refs: list[Any]) -> tuple[list[Any], list[Any]]:
            finished, left = ray.wait(refs, num_returns=1)
            return list(finished), list(left)

        yield from _in_order(
            chunks,
            lambda i: remote_batch.remote(spec_ref, chunks[i], base_seed),
            wait_any,
            ray.get,
            cpus * IN_FLIGHT_PER_WORKER,
        )
    finally:
        if started:
            ray.shutdown()

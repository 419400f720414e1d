"""The property-game observation: the table as one seat sees it, as a fixed float vector.

Read from the engine's public state (the lists ``game.view(seat)`` copies: cash, positions,
owners...) and the public queries (``owns_group``); in these games only the decks' order and the
future dice are hidden, and neither appears. Seats are relative: position 0 of a per-player block
is the observer, 1 the next seat (seat + 1), and so on. Money is divided by the edition's starting
cash, so the four editions (dollars, kroner...) share one scale.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import compress
from operator import ne
from typing import Any, cast

from parlor.core.records import Decision
from parlor.monopoly import PropertyGame
from parlor.rl.layout import Entry, Layout, Vector

#: Decision kinds of the property games, in the order of the ``pending_kind`` one-hot.
PROPERTY_DECISIONS = (
    "start_turn",
    "roll_again",
    "jail",
    "end_turn",
    "buy_or_auction",
    "bid",
    "tax_choice",
    "raise_funds",
    "answer_trade",
    "mortgaged_property",
    "place_building",
    "building_wish",
)
AUCTION_ITEMS = ("property", "house", "hotel")
BANK = -1  # a creditor that is not a player


class _Seen:
    """What :meth:`PropertyEncoder.update` last wrote one seat's vector from (None:
    nothing yet): copies of the game's lists, the scalars, and the one-hots' positions; and
    what says without reading them that some still hold: the game's own estate lists read
    then with its ``estate_revision``, and the pending decision with the dice holder."""

    __slots__ = (
        "bankrupt",
        "buildings",
        "cash",
        "complete",
        "estate_of",
        "held",
        "in_jail",
        "jail_turns",
        "mortgaged",
        "owner",
        "owner_of",
        "pending",
        "position",
        "revision",
        "scalars",
        "turn",
        "written",
    )

    def __init__(self) -> None:
        self.cash: list[int] | None = None
        self.position: list[int] | None = None
        self.in_jail: list[bool] | None = None
        self.jail_turns: list[int] | None = None
        self.held: list[list[int]] | None = None  # (a copy of ``game.jail_cards``)
        self.bankrupt: list[bool] | None = None
        self.owner: list[int] | None = None
        self.mortgaged: list[bool] | None = None
        self.buildings: list[int] | None = None
        self.complete: list[bool] | None = None
        # The game's own owner, mortgaged and buildings lists (not copies) and its estate
        # revision when ``owner``... were last brought up to them.
        self.estate_of: tuple[list[int], list[bool], list[int]] | None = None
        self.owner_of: list[int] | None = None  # (``estate_of[0]``, read at every call)
        self.revision = -1
        self.scalars: tuple[int, ...] | None = None
        self.pending: Decision | None = None
        self.turn: int | None = None
        self.written: list[tuple[int, float]] = []


def _changed(new: list[Any], old: list[Any] | None, indices: range) -> Iterable[int]:
    """The indices where ``new`` differs from ``old`` (all of them when there is no ``old``),
    found in C: the lists change a few items at a time."""
    if old is None:
        return indices
    return compress(indices, map(ne, new, old))


class PropertyEncoder:
    """Builds the layout for an edition and player count, and encodes what a seat sees into it."""

    def __init__(self, game: PropertyGame) -> None:
        ed = game.edition
        self.n = game.num_players
        self.board = len(ed.squares)
        self.lots: tuple[int, ...] = tuple(ed.property_squares)
        self.lot_index = {sq: i for i, sq in enumerate(self.lots)}
        self.cash_scale = float(ed.starting_cash)
        self.houses, self.hotels = max(1, ed.houses), max(1, ed.hotels)
        self.time_limit = game.options.time_limit_rounds
        n, B, P = self.n, self.board, len(self.lots)
        money = "money / starting cash"
        lots = (
            "the edition's property squares in board order (" + ", ".join(map(str, self.lots)) + ")"
        )
        self.layout = Layout(
            [
                Entry(
                    "position",
                    n * B,
                    f"each seat's square (seats relative, observer first; {B} squares per seat)",
                    "one-hot per seat",
                ),
                Entry("cash", n, "each seat's cash", money),
                Entry("in_jail", n, "each seat is in jail", "0/1"),
                Entry("jail_turns", n, "turns each seat has spent in jail", "turns / 3"),
                Entry("jail_cards", n, "get-out-of-jail cards each seat holds", "count"),
                Entry("bankrupt", n, "each seat is bankrupt (out of the game)", "0/1"),
                Entry(
                    "dice_holder",
                    n,
                    "whose turn it is (the dice holder), whatever decision is pending",
                    "one-hot",
                ),
                Entry(
                    "owner",
                    P * (n + 1),
                    f"owner of each deed: [unowned, seat +0, +1, ...] for each of {lots}",
                    "one-hot per deed",
                ),
                Entry("mortgaged", P, "each deed is mortgaged", "0/1"),
                Entry("buildings", P, "buildings on each deed (5 = a hotel)", "count / 5"),
                Entry("group_complete", P, "the deed's owner holds its whole colour group", "0/1"),
                Entry(
                    "bank_stock",
                    2,
                    "houses and hotels left in the bank",
                    "count / edition stock (capped at 1)",
                ),
                Entry("pot", 1, "the Free Parking pot (house rule; 0 otherwise)", money),
                Entry("doubles", 1, "doubles thrown in a row this turn", "count / 3"),
                Entry(
                    "rounds_left",
                    1,
                    "rounds left under a time limit; 0 when there is none",
                    "rounds / limit",
                ),
                Entry(
                    "rent_owed_to_me",
                    1,
                    "unclaimed rent the observer may still claim (rent-claim option)",
                    money,
                ),
                Entry(
                    "decider",
                    n,
                    "who must decide now (relative seat); all 0 once the game is over",
                    "one-hot",
                ),
                Entry(
                    "pending_kind",
                    len(PROPERTY_DECISIONS),
                    "the pending decision (" + ", ".join(PROPERTY_DECISIONS) + ")",
                    "one-hot",
                ),
                Entry(
                    "pending_square",
                    B,
                    "the square the decision is about (deed offered or auctioned, tax square, mortgaged deed received)",
                    "one-hot",
                ),
                Entry("price", 1, "price of the deed offered for purchase", money),
                Entry(
                    "auction_item",
                    len(AUCTION_ITEMS),
                    "what is auctioned, or wished for in a building shortage ("
                    + ", ".join(AUCTION_ITEMS)
                    + ")",
                    "one-hot",
                ),
                Entry("high_bid", 1, "the auction's high bid", money),
                Entry(
                    "high_bidder",
                    n + 1,
                    "the auction's high bidder: [nobody yet, seat +0, +1, ...]",
                    "one-hot",
                ),
                Entry("min_bid", 1, "the least bid the auction accepts now", money),
                Entry(
                    "shortage",
                    4,
                    "building shortage wish: the bank's stock of the item, the least and the most"
                    " the decider may wish for, and what the players asked before wished in all",
                    "count / edition stock of the item",
                ),
                Entry("debt", 1, "the amount the decider must raise", money),
                Entry(
                    "creditor",
                    n + 1,
                    "whom the debt is owed to: [the bank, seat +0, +1, ...]",
                    "one-hot",
                ),
                Entry(
                    "tax",
                    2,
                    "tax choice: the flat amount, and the percentage of worth",
                    "money / starting cash, percent / 100",
                ),
                Entry(
                    "trade_from",
                    n,
                    "who proposed the trade awaiting an answer (relative seat)",
                    "one-hot",
                ),
                Entry(
                    "trade_gives",
                    P,
                    "deeds the proposer gives (same deed order as `owner`)",
                    "multi-hot",
                ),
                Entry("trade_takes", P, "deeds the proposer asks for", "multi-hot"),
                Entry("trade_cash", 2, "cash the proposer gives, and asks for", money),
                Entry(
                    "trade_jail_cards", 2, "jail cards the proposer gives, and asks for", "count"
                ),
            ]
        )
        self._starts = {e.name: self.layout.slice(e.name).start for e in self.layout.entries}
        self._extents = {e.name: (self._starts[e.name], e.width) for e in self.layout.entries}
        self._prepare()

    def _prepare(self) -> None:
        """Per observing seat, the vector last encoded for it and what it was written from.

        ``update`` compares the game's per-player lists with copies of those it last wrote
        for that seat (whole lists, one C-level comparison each) and rewrites only the items
        that differ; the deeds' lists are read again only when the engine's
        ``estate_revision`` moved (it counts every change the rules make to them:
        docs/interface.md) or the lists are not those read (another game, a clone, a restored
        state), at the squares ``estate_changes`` names, else compared whole; the
        few scalars, as a tuple, are compared and written the same way; the pending
        decision's entries (a short list of positions and values) are worked out again when
        the decision is neither the same object nor an equal one and, when they differ from
        the last call's, written after zeroing the positions that call wrote. So the result
        is always the game's, whatever happened since; the deeds' ``group_complete`` are
        worked out again only when some owner changed."""
        n = self.n
        self._vectors = [self.layout.zeros() for _ in range(n)]
        # (typed Any: typeshed knows memoryview item writes as ints only, not a float32 format)
        self._views: list[Any] = [memoryview(cast(Any, v)) for v in self._vectors]
        self._seen = [_Seen() for _ in range(n)]
        self._rel = [[(p - seat) % n for p in range(n)] for seat in range(n)]
        self._players = range(n)
        self._squares = range(self.board)
        # Each square's index among the deeds (-1: not a deed, never encoded).
        self._lot_of = [-1] * self.board
        for i, sq in enumerate(self.lots):
            self._lot_of[sq] = i
        self._lot_range = range(len(self.lots))
        self._cash_at = self._starts["cash"]
        self._mortgaged_at = self._starts["mortgaged"]
        self._buildings_at = self._starts["buildings"]
        # Each deed's first place in the owner one-hots, and per observing seat the place of
        # each owner in a deed's one-hot (by seat; the last item, read by owner -1: unowned).
        self._owner_rows = [self._starts["owner"] + i * (n + 1) for i in range(len(self.lots))]
        self._cells = [[1 + r for r in rel] + [0] for rel in self._rel]
        self._dice_at = self._starts["dice_holder"]
        self._decider_at = self._starts["decider"]
        self._square_at = self._starts["pending_square"]
        kinds_at = self._starts["pending_kind"]
        self._kind_at = {kind: kinds_at + k for k, kind in enumerate(PROPERTY_DECISIONS)}
        self._owners: list[int] | None = None  # the owners the flags below were worked out for
        # (and the game's owner list and estate revision they were, when known)
        self._flags_of: list[int] | None = None
        self._flags_at = -1
        self._complete: list[bool] = []
        self._groups: dict[tuple[int, ...], list[int]] | None = None  # (deeds by group)
        self._group_of: list[list[int]] = []  # (per deed: its group's deeds; with ``_groups``)

    def update(self, game: PropertyGame, seat: int) -> Vector:
        """The encoder's own vector for ``seat``, brought up to date from the engine's public
        state (``game.cash``, ``game.owner``, ``game.pending``..., what ``game.view(seat)``
        copies into its dicts, read without building that view): read it, don't keep it (the
        next call for that seat changes it). tests/rl/property_obs_reference.py encodes the
        same vector from ``game.view(seat)``, and tests/rl/test_fast_obs.py holds the two
        equal, byte for byte. Most calls find little or nothing changed (a refused trade
        offer changes nothing encoded), in a few comparisons (``_prepare``)."""
        v = self._views[seat]
        seen = self._seen[seat]
        # (the players' lists are a few items: a loop over them is quicker than finding the
        # changed ones in C, as the deeds' lists are)
        cash, old = game.cash, seen.cash
        if cash != old:
            rel, base, cash_scale = self._rel[seat], self._cash_at, self.cash_scale
            for p in self._players:
                if old is None or cash[p] != old[p]:
                    v[base + rel[p]] = cash[p] / cash_scale
            seen.cash = cash[:]
        if (
            game.position != seen.position
            or game.in_jail != seen.in_jail
            or game.jail_turns != seen.jail_turns
            or game.jail_cards != seen.held
            or game.bankrupt != seen.bankrupt
        ):
            self._players_now(game, seat, v, seen)
        # (the owners' list stands for the three: import_state replaces them all at once)
        if game.estate_revision != seen.revision or game.owner is not seen.owner_of:
            self._deeds(game, seat, v, seen)
        # The scalars at fixed positions, written when one of them changed.
        claims = game.claims
        owed = sum(c[2] for c in claims if c[1] == seat) if claims else 0
        scalars = (game.houses_left, game.hotels_left, game.pot, game.doubles, game.round, owed)
        if scalars != seen.scalars:
            at, cash_scale = self._starts, self.cash_scale
            stock = at["bank_stock"]
            v[stock] = min(1.0, scalars[0] / self.houses)
            v[stock + 1] = min(1.0, scalars[1] / self.hotels)
            v[at["pot"]] = scalars[2] / cash_scale
            v[at["doubles"]] = scalars[3] / 3
            if self.time_limit:
                v[at["rounds_left"]] = max(0, self.time_limit - scalars[4]) / self.time_limit
            v[at["rent_owed_to_me"]] = owed / cash_scale
            seen.scalars = scalars
        # The dice holder and the pending decision: the same decision (the engine hands out
        # the same object while nothing changed, and one per seat for the turn's plain
        # decisions) or an equal one (its info a fresh record of numbers) writes the same.
        pending = game.pending
        turn = game.current_player
        last = seen.pending
        if pending is not last or turn != seen.turn:
            if (
                pending is None
                or last is None
                or turn != seen.turn
                or pending.player != last.player
                or pending.kind != last.kind
                or pending.info != last.info
            ):
                self._decision(seat, v, seen, turn, pending)
            seen.pending = pending
            seen.turn = turn
        return self._vectors[seat]

    def _players_now(self, game: PropertyGame, seat: int, v: Any, seen: _Seen) -> None:
        """``update``'s per-player entries other than cash, where they differ from what
        ``seen`` holds."""
        rel, players, at = self._rel[seat], self._players, self._starts
        position, old = game.position, seen.position
        if position != old:
            base, B = at["position"], self.board
            for p in players:
                if old is None or position[p] != old[p]:
                    if old is not None:
                        v[base + rel[p] * B + old[p]] = 0.0
                    v[base + rel[p] * B + position[p]] = 1.0
            seen.position = position[:]
        in_jail = game.in_jail
        if in_jail != seen.in_jail:
            self._floats(v, at["in_jail"], rel, list(map(float, in_jail)))
            seen.in_jail = in_jail[:]
        turns = game.jail_turns
        if turns != seen.jail_turns:
            self._floats(v, at["jail_turns"], rel, [t / 3 for t in turns])
            seen.jail_turns = turns[:]
        held = game.jail_cards
        if held != seen.held:
            self._floats(v, at["jail_cards"], rel, list(map(float, map(len, held))))
            seen.held = [h[:] for h in held]
        bankrupt = game.bankrupt
        if bankrupt != seen.bankrupt:
            self._floats(v, at["bankrupt"], rel, list(map(float, bankrupt)))
            seen.bankrupt = bankrupt[:]

    @staticmethod
    def _floats(v: Any, base: int, rel: list[int], values: list[float]) -> None:
        """Each player's value of a per-player entry at ``base``, written in relative seats
        (the writes are what the comparison would save: these lists change seldom)."""
        for p, x in enumerate(values):
            v[base + rel[p]] = x

    def _decision(
        self, seat: int, v: Any, seen: _Seen, turn: int, pending: Decision | None
    ) -> None:
        """``update``'s one-hots of the dice holder and the pending decision's entries:
        positions and values, written (when they differ from the last call's) after zeroing
        those the last call wrote."""
        writes: list[tuple[int, float]] = []
        if turn >= 0:
            writes.append((self._dice_at + self._rel[seat][turn], 1.0))
        if pending is not None:
            self._pending(writes, seat, pending.player, pending.kind, pending.info)
        if writes != seen.written:
            for i, _ in seen.written:
                v[i] = 0.0
            for i, x in writes:
                v[i] = x
            seen.written = writes

    def _deeds(self, game: PropertyGame, seat: int, v: Any, seen: _Seen) -> None:
        """``update``'s deed entries: owner, mortgaged, buildings, group_complete. The squares
        the engine changed since the revision ``seen`` was brought up to are read, when it
        still knows them and its lists are the ones read then; else the lists are compared."""
        owner, mortgaged, buildings = game.owner, game.mortgaged, game.buildings
        revision, estate, since = game.estate_revision, seen.estate_of, seen.revision
        changed = None
        if (
            estate is not None
            and owner is estate[0]
            and mortgaged is estate[1]
            and buildings is estate[2]
        ):
            changed = game.estate_changes(since)
        # (whether the group flags were last worked out for the owners this seat saw)
        flags_seen = self._flags_of is owner and self._flags_at == since
        if changed is None:
            moved = self._deed_lists(game, seat, v, seen)
            seen.estate_of = (owner, mortgaged, buildings)
            seen.owner_of = owner
            flags_seen = False
        else:
            # (seen's copies brought up to the squares changed, in place)
            was_owner, was_mortgaged, was_buildings = seen.owner, seen.mortgaged, seen.buildings
            assert was_owner is not None and was_mortgaged is not None
            assert was_buildings is not None
            lot_of, rows, cell = self._lot_of, self._owner_rows, self._cells[seat]
            mortgaged_at, buildings_at = self._mortgaged_at, self._buildings_at
            moved = []  # (the deeds that changed hands)
            for sq in changed:
                i = lot_of[sq]
                if i < 0:  # (not a deed: never encoded)
                    continue
                o, was = owner[sq], was_owner[sq]
                if o != was:
                    row = rows[i]
                    v[row + cell[was]] = 0.0
                    v[row + cell[o]] = 1.0
                    was_owner[sq] = o
                    moved.append(i)
                m = mortgaged[sq]
                if m != was_mortgaged[sq]:
                    v[mortgaged_at + i] = float(m)
                    was_mortgaged[sq] = m
                b = buildings[sq]
                if b != was_buildings[sq]:
                    v[buildings_at + i] = b / 5
                    was_buildings[sq] = b
        seen.revision = revision
        if not moved:
            if flags_seen:  # (the same owners at this revision)
                self._flags_at = revision
            return
        # A deed's group_complete follows its group's owners: worked out once for every seat
        # (and game) while the owners stay the same, and from the owners last worked out for,
        # only for the groups of the deeds that changed hands since.
        base = self._starts["group_complete"]
        if flags_seen and self._group_of:
            # (worked out for the owners this seat saw, and written for it: the moved deeds'
            # groups asked again, and the flags that changed written)
            before = self._complete
            complete = self._follow(game, owner, moved)
            if complete is not before:
                for i in _changed(complete, before, self._lot_range):
                    v[base + i] = 1.0 if complete[i] else 0.0
            self._complete = seen.complete = complete
        else:
            if owner != self._owners:
                known = self._owners
                if known is not None and self._group_of:
                    lot_of = self._lot_of
                    diff = [lot_of[sq] for sq in _changed(owner, known, self._squares)]
                    self._complete = self._follow(game, owner, [i for i in diff if i >= 0])
                else:
                    self._complete = self._completes(game, owner)
            complete, was_complete = self._complete, seen.complete
            if complete != was_complete:
                for i in _changed(complete, was_complete, self._lot_range):
                    v[base + i] = 1.0 if complete[i] else 0.0
                seen.complete = complete
        self._owners = owner[:]
        self._flags_of, self._flags_at = owner, revision

    def _deed_lists(self, game: PropertyGame, seat: int, v: Any, seen: _Seen) -> list[int]:
        """``_deeds``' entries where the game's lists differ from ``seen``'s copies, found by
        comparing them; the deeds that changed hands (every deed at the first call)."""
        at, lot_of, squares = self._starts, self._lot_of, self._squares
        owner, old = game.owner, seen.owner
        moved: list[int] = []
        if owner != old:
            rows, cell = self._owner_rows, self._cells[seat]
            for sq in _changed(owner, old, squares):
                i = lot_of[sq]
                if i < 0:
                    continue
                moved.append(i)
                if old is not None:
                    v[rows[i] + cell[old[sq]]] = 0.0
                v[rows[i] + cell[owner[sq]]] = 1.0
            seen.owner = owner[:]
        mortgaged = game.mortgaged
        if mortgaged != seen.mortgaged:
            base = at["mortgaged"]
            for sq in _changed(mortgaged, seen.mortgaged, squares):
                i = lot_of[sq]
                if i >= 0:
                    v[base + i] = float(mortgaged[sq])
            seen.mortgaged = mortgaged[:]
        buildings = game.buildings
        if buildings != seen.buildings:
            base = at["buildings"]
            for sq in _changed(buildings, seen.buildings, squares):
                i = lot_of[sq]
                if i >= 0:
                    v[base + i] = buildings[sq] / 5
            seen.buildings = buildings[:]
        return moved if seen.complete is not None else list(self._lot_range)

    def _completes(self, game: PropertyGame, owner: list[int]) -> list[bool]:
        """Each deed's ``group_complete`` for these owners: ``owns_group`` asked once a group
        rather than once a deed (the groups are the edition's, read once)."""
        lots = self.lots
        groups = self._groups
        if groups is None:
            groups = {}
            for i, sq in enumerate(lots):
                groups.setdefault(tuple(game.group_of(sq)), []).append(i)
            if not all(lots[i] in members for members, found in groups.items() for i in found):
                groups = {}  # (a deed outside its own group: ask owns_group deed by deed)
            self._groups = groups
            if groups:
                group_of: list[list[int]] = [[] for _ in lots]
                for found in groups.values():
                    for i in found:
                        group_of[i] = found
                self._group_of = group_of
        if not groups:
            return [owner[sq] >= 0 and game.owns_group(owner[sq], sq) for sq in lots]
        complete = [False] * len(lots)
        for found in groups.values():
            first = lots[found[0]]
            o = owner[first]
            if o >= 0 and game.owns_group(o, first):
                for i in found:
                    complete[i] = True
        return complete

    def _follow(self, game: PropertyGame, owner: list[int], moved: list[int]) -> list[bool]:
        """``_completes`` for these owners, from ``self._complete``, when only the deeds
        ``moved`` changed hands since: their groups asked again (a trade moves one or two).
        ``self._complete`` itself when no flag changed, else a new list (the seats'
        ``seen.complete`` may hold the old)."""
        lots, group_of = self.lots, self._group_of
        complete = self._complete
        copied = False
        for i in moved:
            found = group_of[i]
            first = lots[found[0]]
            o = owner[first]
            done = o >= 0 and game.owns_group(o, first)
            if done != complete[i]:  # (a group's flags are all the same)
                if not copied:
                    complete, copied = complete[:], True
                for k in found:
                    complete[k] = done
        return complete

    def rel(self, seat: int, other: int) -> int:
        return (other - seat) % self.n

    def encode(self, game: PropertyGame, seat: int) -> Vector:
        """What ``seat`` sees (``update``), as a new array."""
        return self.update(game, seat).copy()

    def encode_into(self, game: PropertyGame, seat: int, out: Vector) -> None:
        """``encode`` written into ``out`` (a row of a batch) instead of a new array."""
        out[:] = self.update(game, seat)

    def _hot(self, name: str, index: int) -> tuple[int, float]:
        """Position ``index`` of entry ``name``, set to 1; out-of-range is a bug."""
        start, width = self._extents[name]
        if not 0 <= index < width:
            raise IndexError(f"{name}[{index}] is outside its width {width}")
        return (start + index, 1.0)

    def _pending(
        self, w: list[tuple[int, float]], seat: int, player: int, kind: str, info: Mapping[str, Any]
    ) -> None:
        """The pending decision's entries (``player`` must decide ``kind``, knowing ``info``),
        appended to ``w`` as (position, value)."""
        at, cash, hot = self._starts, self.cash_scale, self._hot
        # (the decider's relative seat and the kind's place are in range by construction)
        w.append((self._decider_at + self._rel[seat][player], 1.0))
        w.append((self._kind_at[kind], 1.0))
        square = info.get("square")
        if isinstance(square, int) and 0 <= square < self.board:
            w.append((self._square_at + square, 1.0))
        if kind == "buy_or_auction":
            w.append((at["price"], info["price"] / cash))
        elif kind == "bid":
            w.append(hot("auction_item", AUCTION_ITEMS.index(info["item"])))
            w.append((at["high_bid"], info["high_bid"] / cash))
            bidder = info["high_bidder"]
            w.append(hot("high_bidder", 0 if bidder < 0 else 1 + self.rel(seat, bidder)))
            w.append((at["min_bid"], info["min_bid"] / cash))
        elif kind == "building_wish":
            item = info["item"]
            w.append(hot("auction_item", AUCTION_ITEMS.index(item)))
            scale = self.hotels if item == "hotel" else self.houses
            facts = (info["stock"], info["least"], info["most"], sum(info["wishes"].values()))
            w.extend((at["shortage"] + k, x / scale) for k, x in enumerate(facts))
        elif kind == "raise_funds":
            w.append((at["debt"], info["amount"] / cash))
            creditor = info["creditor"]
            w.append(hot("creditor", 0 if creditor < 0 else 1 + self.rel(seat, creditor)))
        elif kind == "tax_choice":
            w.append((at["tax"], info["flat"] / cash))
            w.append((at["tax"] + 1, info["percent"] / 100))
        elif kind == "answer_trade":
            offer = info["offer"]
            w.append(hot("trade_from", self.rel(seat, info["from"])))
            for sq in offer["give_squares"]:
                w.append(hot("trade_gives", self.lot_index[sq]))
            for sq in offer["take_squares"]:
                w.append(hot("trade_takes", self.lot_index[sq]))
            w.append((at["trade_cash"], offer["give_cash"] / cash))
            w.append((at["trade_cash"] + 1, offer["take_cash"] / cash))
            w.append((at["trade_jail_cards"], float(offer["give_jail_cards"])))
            w.append((at["trade_jail_cards"] + 1, float(offer["take_jail_cards"])))

"""What follows from who owns which lot, the mortgages and the buildings alone (:class:`Deeds`,
kept from one decision to the next while it holds), on the property bots' static picture of a
board (:class:`Board`, :mod:`parlor.bots.monopoly_lots`). :mod:`parlor.bots.monopoly_table`
reads a moment of a game into them.
"""

from __future__ import annotations

from itertools import count
from typing import Any

from parlor.bots.monopoly_lots import (
    N_SQUARES,
    Board,
    OfferTarget,
    _any_built,
    _offer_players,
    _whole_owner,
    lot_rent,
)

__all__ = ["Deeds"]

#: Stamps for :attr:`Deeds.stamps`, unique in the process: deeds of games that part from one
#: moment (clones, searches) never give the same stamp to different states of a group.
_STAMPS = count(1)
#: Most entries of a game's per-target plan cache (:attr:`Deeds.target_plans`) before it is
#: emptied (a game has a few dozen live ones).
MAX_TARGET_PLANS = 512


class Deeds:
    """What follows from who owns which lot, the mortgages and the buildings alone: whole-group
    owners, each player's lots, rents at risk and where each may build. These change only at a
    few actions, so a table keeps the deeds of the game's previous decision while they are equal
    (:meth:`same`), and after a change (:meth:`advance_at` in place, or :meth:`successor`)
    keeps the per-player parts of the players whose groups did not change. The per-player parts
    are filled lazily."""

    __slots__ = (
        "_build_options",
        "_built",
        "_by_price",
        "_danger",
        "_junk",
        "_lone",
        "_offer_plans",
        "_offer_targets",
        "_rents",
        "_spots",
        "_top_rent",
        "board",
        "buildings",
        "complete",
        "group_builds",
        "group_owner",
        "mortgaged",
        "owned",
        "owner",
        "stamps",
        "target_plans",
        "version",
    )

    #: Per group: the player owning every lot, or -2 (several owners or the bank).
    group_owner: list[int]
    #: Per player: the lots it owns, in board order.
    owned: list[list[int]]
    #: Per player: the groups it owns whole (indices into ``board.groups``).
    complete: list[list[int]]
    owner: list[int]
    mortgaged: list[bool]
    buildings: list[int]
    #: Per group: a stamp (unique in the process) of its last change of owner, mortgage or
    #: buildings; what follows from a few groups alone holds while their stamps do.
    stamps: list[int]
    #: The trade searches' plans per target (``monopoly_trading.offer_plan``), with the stamps
    #: of the groups they follow from: one dict shared by a game's successive deeds (entries
    #: are checked against the stamps, never trusted as they stand).
    target_plans: dict[Any, Any]
    #: A stamp (unique in the process) of what these deeds say now: :meth:`advance_at` changes
    #: them in place, so what is kept with them is kept by this number, not by their identity.
    version: int
    #: Per group: its stamp, and the lots where its whole owner may build next with their
    #: ``(lot, cost, score)`` (``monopoly_builds.build_spots``' and ``build_options``' parts),
    #: shared like :attr:`target_plans`.
    group_builds: dict[int, tuple[int, list[int], list[tuple[int, int, float]]]]

    def __init__(
        self,
        board: Board,
        owner: list[int],
        mortgaged: list[bool],
        buildings: list[int],
        players: int,
        previous: Deeds | None = None,
    ) -> None:
        """The deeds of ``owner``, ``mortgaged`` and ``buildings`` (copied). With ``previous``
        (deeds of the same game with these lists), a copy of it that can change apart from it:
        its lists copied, what it has found kept (:meth:`successor`)."""
        self.board = board
        self.version = next(_STAMPS)
        self.owner = list(owner)
        self.mortgaged = list(mortgaged)
        self.buildings = list(buildings)
        self._danger: list[int] | None = None
        if previous is not None:
            # (the per-player lists in ``owned`` and ``complete`` are replaced when they change,
            # never changed in place: sharing them is safe)
            self.group_owner = previous.group_owner[:]
            self.owned = previous.owned[:]
            self.complete = previous.complete[:]
            self.stamps = previous.stamps[:]
            self.target_plans = previous.target_plans
            self.group_builds = previous.group_builds
            rents = previous._rents
            self._rents: list[int] | None = None if rents is None else rents[:]
            built = previous._built
            self._built: list[bool] | None = None if built is None else built[:]
            self._offer_plans: dict[Any, Any] | None = previous._offer_plans
            self._top_rent: list[int | None] = previous._top_rent[:]
            self._spots: list[list[int] | None] = previous._spots[:]
            self._build_options: list[list[tuple[int, int, float]] | None] = (
                previous._build_options[:]
            )
            self._by_price: list[list[int] | None] = previous._by_price[:]
            self._offer_targets: list[list[OfferTarget] | None] = previous._offer_targets[:]
            self._junk: list[int | None] = previous._junk[:]
            self._lone: list[tuple[int, list[int]] | None] = previous._lone[:]
            return
        self.group_owner = []
        self.owned = [[] for _ in range(players)]
        owned = self.owned
        for sq in board.properties:
            o = owner[sq]
            if o >= 0:
                owned[o].append(sq)
        group_owner = self.group_owner
        self.complete = [[] for _ in range(players)]
        for gi, members in enumerate(board.groups):
            first = _whole_owner(owner, members)
            group_owner.append(first)
            if first >= 0:
                self.complete[first].append(gi)
        # Per player, filled on demand: the dearest rent of its unmortgaged lots, the lots where
        # it may build, with their costs and scores, its lots dearest first, its trade targets,
        # what its lone lots would raise; and the danger each player faces (from the others' top
        # rents), the groups with buildings, the trade searches' price plans (monopoly_trading,
        # by player and bot parameters).
        self.stamps = [next(_STAMPS) for _ in board.groups]
        self.target_plans = {}
        self.group_builds = {}
        self._rents = None
        self._built = None
        self._offer_plans = None
        self._top_rent = [None] * players
        self._spots = [None] * players
        self._build_options = [None] * players
        self._by_price = [None] * players
        self._offer_targets = [None] * players
        self._junk = [None] * players
        self._lone = [None] * players

    def rents(self) -> list[int]:
        """Per square: the rent its owner would charge now if it were not mortgaged (a throw of
        7 for the dice-rated lots), 0 where no player owns it: ``Table.rent_at``'s default, kept
        with the deeds (filled at the first question, then carried for the untouched groups)."""
        rents = self._rents
        if rents is None:
            board, owner, buildings, group_owner = (
                self.board,
                self.owner,
                self.buildings,
                self.group_owner,
            )
            rents = [0] * N_SQUARES
            for sq in board.properties:
                rents[sq] = lot_rent(board, owner, buildings, group_owner, sq)
            self._rents = rents
        return rents

    def built_groups(self) -> list[bool]:
        """Per group: whether one of its lots has a building (filled on the first question)."""
        built = self._built
        if built is None:
            buildings = self.buildings
            built = self._built = [_any_built(buildings, m) for m in self.board.groups]
        return built

    def same(self, owner: list[int], mortgaged: list[bool], buildings: list[int]) -> bool:
        return owner == self.owner and buildings == self.buildings and mortgaged == self.mortgaged

    def successor(self, owner: list[int], mortgaged: list[bool], buildings: list[int]) -> Deeds:
        """The deeds of a later moment of the same game (any lot may differ), keeping what is
        known of the players none of whose groups changed: a copy of these, advanced
        (:meth:`advance_at`) over the lots that differ."""
        before_owner, before_mortgaged, before_buildings = (
            self.owner,
            self.mortgaged,
            self.buildings,
        )
        changed = [
            sq
            for sq in self.board.properties  # (only properties ever change)
            if owner[sq] != before_owner[sq]
            or buildings[sq] != before_buildings[sq]
            or mortgaged[sq] != before_mortgaged[sq]
        ]
        new = Deeds(
            self.board, before_owner, before_mortgaged, before_buildings, len(self.owned), self
        )
        new.advance_at(owner, mortgaged, buildings, changed)
        return new

    def advance_at(
        self, owner: list[int], mortgaged: list[bool], buildings: list[int], squares: list[int]
    ) -> bool:
        """Make these deeds those of ``owner``, ``mortgaged`` and ``buildings``, told (by the
        engine, ``PropertyGame.estate_changes``) that only ``squares`` may differ from them: in
        place, for the one holder of a game's newest deeds (the bots' table), at a cost that
        follows from the groups that changed (no list of the board or of the players copied).
        What follows from the other groups is kept: the per-player parts of the players without
        a lot in a changed group (before or after), the offer targets and price plans
        (``_offer_plans``) of those not sharing a changed street group of two players
        (:func:`_offer_players`), the rents and building flags of the other groups. The
        :attr:`version` changes. False (nothing changed) when none of ``squares`` differs."""
        if len(squares) == 1:
            sq = squares[0]
            if owner[sq] == self.owner[sq]:
                return self._advance_lot(owner, mortgaged, buildings, sq)
            if (
                buildings[sq] == self.buildings[sq]
                and mortgaged[sq] == self.mortgaged[sq]
                and self.board.group_index[sq] >= 0
            ):
                self._advance_owner(owner, sq)
                return True
        board = self.board
        group_index = board.group_index
        before_owner, before_mortgaged, before_buildings = (
            self.owner,
            self.mortgaged,
            self.buildings,
        )
        touched: list[int] = []
        same_owner = True
        same_buildings = True
        rebuilt: list[int] = []  # (the lots whose buildings changed)
        for sq in squares:
            differs = False
            if owner[sq] != before_owner[sq]:
                same_owner = False
                differs = True
            if buildings[sq] != before_buildings[sq]:
                same_buildings = False
                differs = True
                rebuilt.append(sq)
            if differs or mortgaged[sq] != before_mortgaged[sq]:
                gi = group_index[sq]
                if gi >= 0 and gi not in touched:
                    touched.append(gi)
        if not touched:
            return False
        groups = board.groups
        mortgages_only = same_owner and same_buildings
        affected: set[int] = set()
        partial: set[int] = set()
        group_owner = self.group_owner
        top_rent, spots, build_options = self._top_rent, self._spots, self._build_options
        junk, lone, by_price = self._junk, self._lone, self._by_price
        targets = self._offer_targets
        if same_owner:  # (the parts of the touched groups' players that read them)
            for gi in touched:
                self._drop_group_parts(gi, owner, partial)
        else:
            for gi in touched:
                members = groups[gi]
                group_owner[gi] = _whole_owner(owner, members)
                for s in members:
                    affected.add(owner[s])
                    affected.add(before_owner[s])
            owned, complete = self.owned, self.complete
            order = board.order
            for p in affected:
                if p < 0:
                    continue
                lots = [sq for sq in owned[p] if owner[sq] == p]
                whole_groups = [gi for gi in complete[p] if group_owner[gi] == p]
                new_lot = new_whole = False
                for gi in touched:
                    if group_owner[gi] == p and gi not in whole_groups:
                        whole_groups.append(gi)
                        new_whole = True
                    for sq in groups[gi]:
                        if owner[sq] == p and before_owner[sq] != p:
                            lots.append(sq)
                            new_lot = True
                if new_lot:
                    lots.sort(key=order.__getitem__)
                if new_whole:
                    whole_groups.sort()
                owned[p] = lots
                complete[p] = whole_groups
            # (the offer parts follow from the street groups of two players alone)
            for gi in touched:
                _offer_players(board, gi, owner, partial)
                _offer_players(board, gi, before_owner, partial)
        # Which groups have a building, read against the buildings before.
        flipped = False
        if not mortgages_only:
            for gi in touched:
                if self._built_flipped(gi, buildings, before_buildings):
                    flipped = True
        # The lists now (only the named squares may differ).
        for sq in squares:
            before_owner[sq] = owner[sq]
            before_mortgaged[sq] = mortgaged[sq]
            before_buildings[sq] = buildings[sq]
        self.version = next(_STAMPS)
        stamps = self.stamps
        for gi in touched:
            stamps[gi] = next(_STAMPS)
        if len(self.target_plans) > MAX_TARGET_PLANS:
            self.target_plans.clear()
        rents = self._rents
        if rents is not None and not mortgages_only:
            if same_owner:
                # (the same owners, so the same whole owners: a lot's rent changes with its
                # own buildings alone)
                for sq in rebuilt:
                    rents[sq] = lot_rent(board, before_owner, before_buildings, group_owner, sq)
            else:
                for gi in touched:
                    for sq in groups[gi]:
                        rents[sq] = lot_rent(board, before_owner, before_buildings, group_owner, sq)
        self._danger = None
        for p in affected:  # (the players of a change of owners: all their parts)
            if p < 0:
                continue
            top_rent[p] = None
            spots[p] = None
            build_options[p] = None
            junk[p] = None
            lone[p] = None
            by_price[p] = None
        if not same_owner:
            for p in partial:
                targets[p] = None
        self._drop_offer_parts(partial, same_owner and flipped)
        return True

    def _drop_group_parts(self, gi: int, owner: list[int], partial: set[int]) -> None:
        """With the owners unchanged, the parts of group ``gi``'s players that read it dropped:
        the top rents; where its whole owner may build (only whole groups count); the junk lot
        and the lone lots, which skip a whole street group's lots whatever their mortgages and
        buildings. The players of a split group of two players join ``partial`` (whose offer
        parts are dropped: :func:`_offer_players`)."""
        sole = self.group_owner[gi]
        if sole >= 0:
            self._top_rent[sole] = self._spots[sole] = self._build_options[sole] = None
            if not self.board.group_is_street[gi]:
                self._junk[sole] = self._lone[sole] = None
            return
        top_rent, junk, lone = self._top_rent, self._junk, self._lone
        members = self.board.groups[gi]
        first = owner[members[0]]
        split = False
        for s in members:
            o = owner[s]
            if o >= 0:
                top_rent[o] = junk[o] = lone[o] = None
            if o != first:
                split = True
        if split:
            _offer_players(self.board, gi, owner, partial)

    def _built_flipped(self, gi: int, buildings: list[int], before: list[int]) -> bool:
        """Whether group ``gi`` gained its first building or lost its last from ``before`` to
        ``buildings`` (the flag kept in ``_built`` when it is kept)."""
        members = self.board.groups[gi]
        built = self._built
        has = _any_built(buildings, members)
        had = _any_built(before, members) if built is None else built[gi]
        if had == has:
            return False
        if built is not None:
            built[gi] = has
        return True

    def _drop_offer_parts(self, partial: set[int], flipped: bool) -> None:
        """After a change: the trade plans of the players of a split group it touched (``partial``)
        dropped, and their offer targets too when the group gained or lost its last building
        (``flipped``)."""
        if flipped:
            for p in partial:
                if p >= 0:
                    self._offer_targets[p] = None
        plans = self._offer_plans
        if not plans:
            self._offer_plans = None
        elif partial:
            kept = {key: plan for key, plan in plans.items() if key[0] not in partial}
            self._offer_plans = kept if kept else None

    def _advance_lot(
        self, owner: list[int], mortgaged: list[bool], buildings: list[int], sq: int
    ) -> bool:
        """:meth:`advance_at` where only ``sq`` may differ, not in its owner (a build, a sale, a
        mortgage or its lift: most changes): the same steps for one lot of one group."""
        before = self.buildings
        rebuilt = buildings[sq] != before[sq]
        board = self.board
        gi = board.group_index[sq]
        if (not rebuilt and mortgaged[sq] == self.mortgaged[sq]) or gi < 0:
            return False
        sole = self.group_owner[gi]
        partial: set[int] | None = None
        if sole >= 0:  # (_drop_group_parts of a group of one owner, written out)
            self._top_rent[sole] = self._spots[sole] = self._build_options[sole] = None
            if not board.group_is_street[gi]:
                self._junk[sole] = self._lone[sole] = None
        else:
            partial = set()
            self._drop_group_parts(gi, owner, partial)
        flipped = rebuilt and self._built_flipped(gi, buildings, before)
        self.mortgaged[sq] = mortgaged[sq]
        before[sq] = buildings[sq]
        self.version = next(_STAMPS)
        self.stamps[gi] = next(_STAMPS)
        if len(self.target_plans) > MAX_TARGET_PLANS:
            self.target_plans.clear()
        rents = self._rents
        if rents is not None and rebuilt:
            rents[sq] = lot_rent(board, self.owner, before, self.group_owner, sq)
        dangers = self._danger
        holder = self.owner[sq]
        if dangers is not None and holder >= 0:
            # (of the top rents only the lot's owner's moved: its own danger, from the others',
            # holds)
            kept = dangers[holder]
            dangers = self._danger = [-1] * len(dangers)
            dangers[holder] = kept
        else:
            self._danger = None
        if partial is not None:
            self._drop_offer_parts(partial, flipped)
        elif not self._offer_plans:  # (_drop_offer_parts with no players, written out)
            self._offer_plans = None
        return True

    def _advance_owner(self, owner: list[int], sq: int) -> None:
        """:meth:`advance_at` where only ``sq``'s owner changed (a lot bought from the bank, or
        sold to another player alone), ``sq`` in a group: the same steps for one lot."""
        board = self.board
        gi = board.group_index[sq]
        members = board.groups[gi]
        before_owner = self.owner
        was = before_owner[sq]
        now = owner[sq]
        group_owner = self.group_owner
        whole = group_owner[gi] = _whole_owner(owner, members)
        partial: set[int] = set()
        _offer_players(board, gi, owner, partial)
        if was >= 0:  # (a group with a lot of the bank's is no one's offer part)
            _offer_players(board, gi, before_owner, partial)
        before_owner[sq] = now
        owned, complete = self.owned, self.complete
        if was >= 0:
            lots = owned[was][:]
            lots.remove(sq)
            owned[was] = lots
            if gi in complete[was]:
                complete[was] = [g for g in complete[was] if g != gi]
        if now >= 0:
            lots = owned[now][:]
            order = board.order
            at = order[sq]
            i = len(lots)
            while i and order[lots[i - 1]] > at:
                i -= 1
            lots.insert(i, sq)
            owned[now] = lots
            if whole == now:
                groups = complete[now][:]
                j = len(groups)
                while j and groups[j - 1] > gi:
                    j -= 1
                groups.insert(j, gi)
                complete[now] = groups
        self.version = next(_STAMPS)
        self.stamps[gi] = next(_STAMPS)
        if len(self.target_plans) > MAX_TARGET_PLANS:
            self.target_plans.clear()
        rents = self._rents
        if rents is not None:
            buildings = self.buildings
            for s in members:
                rents[s] = lot_rent(board, before_owner, buildings, group_owner, s)
        self._danger = None
        top_rent, spots, build_options = self._top_rent, self._spots, self._build_options
        junk, lone, by_price = self._junk, self._lone, self._by_price
        for s in members:  # (the players of the group, before and after: all their parts)
            p = before_owner[s]
            if s == sq and was >= 0:
                top_rent[was] = spots[was] = build_options[was] = None
                junk[was] = lone[was] = by_price[was] = None
            if p >= 0:
                top_rent[p] = spots[p] = build_options[p] = None
                junk[p] = lone[p] = by_price[p] = None
        targets = self._offer_targets
        for p in partial:
            targets[p] = None
        self._drop_offer_parts(partial, False)

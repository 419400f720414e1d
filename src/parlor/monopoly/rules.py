"""Rule options: one typed, documented set, with per-edition defaults from the edition file.

Each field names the rulebook clause or house rule it controls (the rules notes under docs/rules/
give the full sentences). ``RuleOptions.for_edition(edition, overrides)`` merges, in order, these
defaults, the edition's ``[options]`` table, the chosen variant's changes, and the caller's overrides.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from parlor.core.errors import E_, SettingsError, Text
from parlor.core.validate import Bounds, MaxLen, check_fields, short_repr
from parlor.monopoly.edition import Edition

VARIANTS = ("standard", "short", "time_limit", "quick")


@dataclass(frozen=True, slots=True)
class RuleOptions:
    #: "standard"; "short" (Millennium/Matco short game: three free deeds, hotels after three
    #: houses, the changed jail exit, flat tax, ends at the first bankruptcy); "time_limit" (two paid
    #: deeds, ends after ``time_limit_rounds`` rounds or when time is called); "quick" (Matador:
    #: two deeds each, ends when time is called or after ``time_limit_rounds``).
    variant: Annotated[str, MaxLen(20)] = "standard"
    #: Income tax: may the player choose 10% of total worth instead of the flat amount.
    income_tax_choice: bool = True
    #: Declined properties are auctioned (off: the house rule "no auctions", the square stays unowned).
    auctions: bool = True
    #: Lowest opening bid; None takes the edition's (latam: 10 $).
    auction_min_bid: Annotated[int | None, Bounds(1, 10**9)] = None
    #: A jailed owner still collects rent (Matador: no).
    rent_while_jailed: bool = True
    #: Leaving jail with doubles gives another throw (Matador: yes; classic: no).
    jail_doubles_extra_throw: bool = False
    #: On how many of the jail turns the fine may be paid before rolling (classic: "either of your
    #: next two turns"; Matador and latam: any of them).
    jail_fine_turns: Annotated[int, Bounds(1, 3)] = 2
    #: Most turns spent in jail; after the last failed throw the fine is paid and the token moves.
    jail_max_turns: Annotated[int, Bounds(1, 3)] = 3
    #: A receiver of a mortgaged property pays 10% interest at once if not lifting it (classic,
    #: latam); Matador charges nothing until the mortgage is lifted.
    mortgage_transfer_fee: bool = True
    #: Houses on every lot of a group before a hotel (short game: 3).
    hotel_after_houses: Annotated[int, Bounds(3, 4)] = 4
    #: Deeds dealt to each player at the start, and whether they are paid for.
    starting_deeds: Annotated[int, Bounds(0, 3)] = 0
    starting_deeds_paid: bool = False
    #: The game ends at the first bankruptcy and the richest by the short-game valuation wins.
    end_at_first_bankruptcy: bool = False
    #: Ends after this many rounds with the richest player winning (None: no limit).
    time_limit_rounds: Annotated[int | None, Bounds(1, 10**6)] = None
    #: Any player may "call time" (the front end does when the agreed minutes are up).
    time_call_allowed: bool = False
    #: Roll for who starts (classic, latam); otherwise seat 0 starts (Matador: "agree who begins").
    roll_for_first_player: bool = True
    #: Rent must be claimed by the owner before the deadline (see ``rent_claim_deadline``); by
    #: default rent is collected automatically.
    rent_claim: bool = False
    #: How many following players' throws end an unclaimed rent (classic, Matador: the second
    #: player following; latam: the next player).
    rent_claim_deadline: Annotated[int, Bounds(1, 2)] = 2
    #: Building stock shortage (S14): when two or more players wish to buy more houses (or
    #: hotels) than the bank has, they are auctioned one at a time instead of sold at their price.
    building_shortage_auction: bool = True
    #: House rules players often ask for.
    free_parking_pot: bool = False
    double_salary_on_go: bool = False
    unlimited_buildings: bool = False

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    def for_edition(
        cls, edition: Edition, overrides: Mapping[str, Any] | None = None
    ) -> RuleOptions:
        """The edition's defaults, with the variant's changes, then ``overrides``.

        >>> from parlor.monopoly.edition import load_edition
        >>> RuleOptions.for_edition(load_edition("classic"), {"variant": "short"}).hotel_after_houses
        3
        """
        plain = overrides is None or (isinstance(overrides, Mapping) and not overrides)
        if plain:
            # An edition's own options, the usual case: frozen, so computed once per edition.
            known = _EDITION_OPTIONS.get(id(edition))
            if known is not None and known[0] is edition:
                return known[1]
        names = set(cls.field_names())
        merged: dict[str, Any] = {}
        if overrides is not None and not isinstance(overrides, Mapping):
            raise SettingsError(
                E_(
                    "'options' must be a table of rule options, not {value}",
                    value=short_repr(overrides),
                )
            )
        sources = (
            (E_("the edition"), edition.option_defaults),
            (E_("the options"), overrides or {}),
        )
        for source, table in sources:
            for key, value in table.items():
                if key not in names:
                    raise SettingsError(
                        E_(
                            "unknown rule option {key} in {source}; known options: {choices}",
                            key=short_repr(key),
                            source=source,
                            choices=", ".join(sorted(names)),
                        )
                    )
                merged[key] = value
        variant = merged.get("variant", "standard")
        if type(variant) is not str or variant not in VARIANTS:
            raise SettingsError(
                E_(
                    "unknown variant {variant}: choose one of {choices}",
                    variant=short_repr(variant),
                    choices=", ".join(VARIANTS),
                )
            )
        changes: dict[str, Any] = {}
        if variant == "short":
            changes = dict(
                starting_deeds=3,
                starting_deeds_paid=False,
                hotel_after_houses=3,
                # "you must exit on your next turn ... you may try to roll doubles and, failing to
                # do so, pay the $50 on the same turn": one jail turn, fine after a failed throw.
                jail_max_turns=1,
                jail_fine_turns=1,
                income_tax_choice=False,
                end_at_first_bankruptcy=True,
            )
        elif variant == "time_limit" or variant == "quick":
            changes = dict(starting_deeds=2, starting_deeds_paid=True, time_call_allowed=True)
        # Explicit overrides win over the variant's changes.
        changes.update({k: v for k, v in (overrides or {}).items()})
        values = {**{k: v for k, v in edition.option_defaults.items()}, **changes}
        try:
            options = cls(**values)
        except TypeError as exc:  # pragma: no cover - names were checked above
            raise SettingsError(str(exc)) from exc
        options.validate()
        if plain:
            if len(_EDITION_OPTIONS) > 64:
                _EDITION_OPTIONS.clear()
            _EDITION_OPTIONS[id(edition)] = (edition, options)
        return options

    def validate(self) -> None:
        def bad(rule: Text) -> SettingsError:
            return SettingsError(E_("bad rule option: {rule}", rule=rule))

        # Types and ranges from the annotations: no bool for a count, no float, no NaN.
        check_fields(
            self,
            error=SettingsError,
            message=E_("bad rule option: {field} must be {want}, not {value}"),
        )
        if not 1 <= self.jail_max_turns <= 3 or not 1 <= self.jail_fine_turns <= 3:
            raise bad(E_("'jail_max_turns' and 'jail_fine_turns' are between 1 and 3"))
        if self.hotel_after_houses not in (3, 4):
            raise bad(E_("'hotel_after_houses' is 3 or 4"))
        if not 0 <= self.starting_deeds <= 3:
            raise bad(E_("'starting_deeds' is between 0 and 3 (the books deal 2 or 3)"))
        if self.time_limit_rounds is not None and self.time_limit_rounds < 1:
            raise bad(E_("'time_limit_rounds' must be at least 1"))
        if self.auction_min_bid is not None and self.auction_min_bid < 1:
            raise bad(E_("'auction_min_bid' must be at least 1"))
        if self.rent_claim_deadline not in (1, 2):
            raise bad(E_("'rent_claim_deadline' is 1 or 2"))

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


#: Each edition's default options (see RuleOptions.for_edition), by the edition's identity; the
#: entry keeps the edition alive so that the id stays its own.
_EDITION_OPTIONS: dict[int, tuple[Edition, RuleOptions]] = {}

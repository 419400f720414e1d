"""What a proposed trade is worth to each side, by the heuristic bot's own measure.

The page's trade dialog posts the view it already holds and the terms being written; the answer
is each side's change of worth as :meth:`parlor.bots.monopoly_table.Table.worth` counts it
(cash at face value, deeds at their price less a mortgage's lifting cost, a bonus for a colour
group completed or broken, railway and utility sets), and the jail cards at the share of the
fine the bots give them. It is computed from the posted view alone: nothing hidden goes in, so
nothing hidden comes out.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

#: A get-out-of-jail card's worth, as a share of the edition's jail fine (the bots' figure,
#: ``parlor.bots.monopoly_trading``).
CARD_SHARE = 0.6


def _ints(raw: Any, field: str) -> list[int]:
    vals = raw.get(field) or []
    if not isinstance(vals, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 64 for v in vals
    ):
        raise ValueError(field)
    return [int(v) for v in vals]


def _count(raw: Any, field: str) -> int:
    v = raw.get(field, 0)
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 10**9:
        raise ValueError(field)
    return int(v)


def trade_values(
    view: dict[str, Any], offer: dict[str, Any], options: Any = None
) -> dict[str, int]:
    """Each side's change of worth if ``offer`` (a ``ProposeTrade``'s fields: ``player``, ``to``,
    the squares, cash and jail cards both ways) were accepted in ``view``: ``{"proposer": ...,
    "to": ...}``, rounded to whole money. Raises ``ValueError`` on a view or offer that does not
    fit (an unknown edition, a square owned by neither side, a seat out of range)."""
    from parlor.bots.monopoly_table import Table, board_for
    from parlor.monopoly.edition import EDITION_IDS, load_edition
    from parlor.monopoly.rules import RuleOptions

    if view.get("edition") not in EDITION_IDS:  # (a view names no file to open)
        raise ValueError("edition")
    ed = load_edition(str(view["edition"]))
    opts = dict(options or {})
    rules = RuleOptions.for_edition(ed, opts)
    board = board_for(SimpleNamespace(edition=ed, options=rules, settings={"options": opts}))
    table = Table(board, view)
    n = len(table.cash)
    proposer, to = _count(offer, "player"), _count(offer, "to")
    if proposer >= n or to >= n or proposer == to:
        raise ValueError("seats")
    give, take = _ints(offer, "give_squares"), _ints(offer, "take_squares")
    if any(table.owner[q] != proposer for q in give) or any(table.owner[q] != to for q in take):
        raise ValueError("squares")
    d_proposer, d_to = table.trade_deltas(proposer, to, give, take)
    cash = _count(offer, "take_cash") - _count(offer, "give_cash")
    cards = _count(offer, "give_jail_cards") - _count(offer, "take_jail_cards")
    card = CARD_SHARE * ed.jail_fine * cards  # the cards go to ``to``
    return {
        "proposer": round(d_proposer + cash - card),
        "to": round(d_to - cash + card),
    }

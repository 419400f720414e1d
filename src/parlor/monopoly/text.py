"""The property game in words: events, actions, decisions and trades in English, Spanish or Danish.

Square, group, deck and card names come from the edition data (in the language asked for when the
edition has it); every other word comes from the message catalogs of :mod:`parlor.i18n`. Money is
shown in the edition's currency with the language's digit grouping. ``lang=None`` means the
edition's own language (classic and matco English, latam Spanish, matador Danish).

This module reads the game only through its public interface and imports the engine only for
type checking, so the engine may import it without a cycle.

>>> from parlor import monopoly
>>> game = monopoly.new_game("matador", 2, seed=1)
>>> describe_event(game, Event("bought", {"player": 0, "square": 39, "price": 8000}))
'Player 1 køber Rådhuspladsen for 8.000 kr.'
>>> describe_event(game, Event("bought", {"player": 0, "square": 39, "price": 8000}), lang="en")
'Player 1 buys Rådhuspladsen for 8,000 kr.'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from parlor.core.game import Decision, Event
from parlor.i18n import N_, Translator, check_language, format_money, pick_language, translator
from parlor.monopoly import actions as A

if TYPE_CHECKING:
    from parlor.monopoly.game import PropertyGame

BANK, POT = -1, -2
HOTEL = 5  # the engine's building count that means a hotel (parlor.monopoly.game.HOTEL)

#: Names an edition may give its own way (its ``[texts.<lang>]``); these are the generic ones used
#: when the edition has no text in the language asked for.
_GENERIC_NAMES = {
    "go": N_("GO"),
    "jail": N_("Jail"),
    "just_visiting": N_("Just Visiting"),
    "go_to_jail": N_("Go to Jail"),
    "free_parking": N_("Free Parking"),
    "get_out_of_jail_card": N_("Get Out of Jail Free card"),
    "income_tax": N_("Income Tax"),
}
_REASONS = {
    "rent": N_("rent"),
    "tax": N_("tax"),
    "card": N_("card"),
    "repairs": N_("repairs"),
    "jail fine": N_("jail fine"),
    "mortgage interest": N_("mortgage interest"),
    "auction": N_("auction"),
}
_LEFT_JAIL = {
    "card": N_("with a card"),
    "doubles": N_("with doubles"),
    "fine": N_("paying the fine"),
}
OUTCOME_REASONS = {
    "bankruptcy": N_("everyone else went bankrupt"),
    "first_bankruptcy": N_("richest at the first bankruptcy"),
    "time_limit": N_("richest after the agreed number of rounds"),
    "time_called": N_("richest when time was called"),
}


# ----- the pieces ------------------------------------------------------------------------------
def language(game: PropertyGame, lang: str | None = None) -> str:
    """``lang`` checked, or the edition's own language when None."""
    if lang is None:
        return pick_language(game.edition.languages)
    return check_language(lang)


def tr(game: PropertyGame, lang: str | None = None) -> Translator:
    return translator(language(game, lang))


def money(game: PropertyGame, amount: int, lang: str | None = None) -> str:
    """An amount in the edition's currency: ``$1,500``, ``18.575 kr.``."""
    ed = game.edition
    return format_money(int(amount), ed.currency, ed.currency_after, language(game, lang))


def square(game: PropertyGame, index: int, lang: str | None = None) -> str:
    return game.edition.square_name(index, language(game, lang))


def group(game: PropertyGame, group_id: str | None, lang: str | None = None) -> str:
    return game.edition.group_name(group_id or "", language(game, lang))


def word(game: PropertyGame, key: str, lang: str | None = None) -> str:
    """An edition's own name for a place or card (its Jail, its Free Parking...)."""
    code = language(game, lang)
    texts = game.edition.texts.get(code)
    if texts and key in texts:
        return texts[key]
    return translator(code)(_GENERIC_NAMES[key])


def generic_word(key: str, lang: str) -> str | None:
    """The catalog's word in ``lang`` for a place an edition may name its own way, or for the
    mortgage stamp (None for any other key): what a board picture falls back on when its
    edition has no words in ``lang``."""
    generic = _GENERIC_NAMES.get(key) or {"mortgaged": N_("mortgaged")}.get(key)
    return None if generic is None else translator(check_language(lang))(generic)


def buildings(game: PropertyGame, count: int, lang: str | None = None) -> str:
    """``2 houses``, ``1 hotel`` (the count past the last house is a hotel)."""
    _ = tr(game, lang)
    if count == HOTEL:
        return _("1 hotel")
    return _.ngettext("{n} house", "{n} houses", count, n=count)


def items(game: PropertyGame, kind: str, count: int, lang: str | None = None) -> str:
    """``3 houses``, ``1 hotel``: a number of buildings of one kind."""
    _ = tr(game, lang)
    if kind == "hotel":
        return _.ngettext("{n} hotel", "{n} hotels", count, n=count)
    return _.ngettext("{n} house", "{n} houses", count, n=count)


def item(game: PropertyGame, kind: str, lang: str | None = None) -> str:
    """An auctioned or placed item: a house, a hotel (a property is named by its square)."""
    _ = tr(game, lang)
    return _("a hotel") if kind == "hotel" else _("a house")


def party(game: PropertyGame, seat: int, lang: str | None = None) -> str:
    """A player's name, or the bank (-1) or the Free Parking pot (-2)."""
    if seat == BANK:
        _ = tr(game, lang)
        return _("the bank")
    if seat == POT:
        return word(game, "free_parking", lang)
    return game.names[seat]


def reason(game: PropertyGame, key: str, lang: str | None = None) -> str:
    return tr(game, lang)(_REASONS[key]) if key in _REASONS else key.replace("_", " ")


def outcome_reason(game: PropertyGame, key: str, lang: str | None = None) -> str:
    _ = tr(game, lang)
    return _(OUTCOME_REASONS[key]) if key in OUTCOME_REASONS else key.replace("_", " ")


# ----- trades ----------------------------------------------------------------------------------
def trade_side(
    game: PropertyGame, squares: Any, cash: int, cards: int, lang: str | None = None
) -> str:
    _ = tr(game, lang)
    parts = [square(game, s, lang) for s in squares]
    if cash:
        parts.append(money(game, cash, lang))
    if cards:
        parts.append(f"{cards} x {word(game, 'get_out_of_jail_card', lang)}")
    return ", ".join(parts) or _("nothing")


def describe_trade(
    game: PropertyGame,
    t: A.ProposeTrade | Mapping[str, Any],
    proposer: int,
    lang: str | None = None,
) -> str:
    """``Ann offers Bo: Boardwalk, $50 for Park Place``."""

    def get(key: str) -> Any:
        return t[key] if isinstance(t, Mapping) else getattr(t, key)

    _ = tr(game, lang)
    return _(
        "{who} offers {to}: {give} for {take}",
        who=game.names[proposer],
        to=game.names[get("to")],
        give=trade_side(game, get("give_squares"), get("give_cash"), get("give_jail_cards"), lang),
        take=trade_side(game, get("take_squares"), get("take_cash"), get("take_jail_cards"), lang),
    )


# ----- actions ---------------------------------------------------------------------------------
#: the actions whose words depend on nothing else
_SIMPLE_ACTIONS: dict[type, str] = {
    A.RollDice: N_("throw the dice"),
    A.EndTurn: N_("end the turn"),
    A.DeclineProperty: N_("decline (the bank auctions it)"),
    A.PassBid: N_("pass (leave the auction)"),
    A.PayDebt: N_("pay what you owe"),
    A.DeclareBankruptcy: N_("declare bankruptcy"),
    A.AcceptTrade: N_("accept the trade"),
    A.RejectTrade: N_("reject the trade"),
    A.ClaimRent: N_("claim the rent you are owed"),
    A.CallTime: N_("call time (the richest player wins)"),
}


def describe_action(game: PropertyGame, a: A.Action, lang: str | None = None) -> str:
    """An action as a menu line: ``buy Boardwalk for $400``, ``mortgage Park Place``."""
    _ = tr(game, lang)
    simple = _SIMPLE_ACTIONS.get(type(a))
    if simple is not None:
        return _(simple)
    sq = getattr(a, "square", None)
    where = square(game, sq, lang) if isinstance(sq, int) else ""
    if isinstance(a, A.PayJailFine):
        return _("pay the {fine} fine", fine=money(game, game.edition.jail_fine, lang))
    if isinstance(a, A.UseJailCard):
        return _("use a {card}", card=word(game, "get_out_of_jail_card", lang))
    if isinstance(a, A.BuyProperty):
        top = game.pending
        info = top.info if top else {}
        return _(
            "buy {square} for {price}",
            square=square(game, int(info.get("square", 0)), lang),
            price=money(game, int(info.get("price", 0)), lang),
        )
    if isinstance(a, A.Bid):
        return _("bid {amount}", amount=money(game, a.amount, lang))
    if isinstance(a, A.ChooseTax):
        if not a.percent:
            return _("pay the flat tax")
        return _(
            "pay {percent} percent of your total worth", percent=game.edition.income_tax_percent
        )
    if isinstance(a, A.Build):
        return _("build on {square}", square=where)
    if isinstance(a, A.SellBuilding):
        return _("sell a building on {square}", square=where)
    if isinstance(a, A.Mortgage):
        return _("mortgage {square}", square=where)
    if isinstance(a, A.Unmortgage | A.LiftMortgageNow):
        return _("lift the mortgage on {square}", square=where)
    if isinstance(a, A.KeepMortgage):
        return _("keep {square} mortgaged", square=where)
    if isinstance(a, A.PlaceBuilding):
        return _("place the building on {square}", square=where)
    if isinstance(a, A.WishBuildings):
        if not a.count:
            return _("want none")
        top = game.pending
        kind = str(top.info.get("item", "house")) if top else "house"
        return _("want {what}", what=items(game, kind, a.count, lang))
    if isinstance(a, A.ProposeTrade):
        return describe_trade(game, a, a.player, lang)
    return type(a).__name__


# ----- events ----------------------------------------------------------------------------------
def describe_event(game: PropertyGame, e: Event, lang: str | None = None) -> str:
    """An event in one line: ``Ann throws 3 and 4``, ``Bo pays Ann $26 (rent)``."""
    _ = tr(game, lang)
    d = e.data
    who = game.names[d["player"]] if isinstance(d.get("player"), int) else ""
    sq = d.get("square")
    where = square(game, sq, lang) if isinstance(sq, int) else ""

    def cash(key: str) -> str:
        return money(game, int(d[key]), lang)

    def what() -> str:
        return where if d["item"] == "property" else item(game, d["item"], lang)

    k = e.kind
    if k == "dice":
        return _("{who} throws {a} and {b}", who=who, a=d["dice"][0], b=d["dice"][1])
    if k == "moved":
        return _("{who} moves to {square}", who=who, square=square(game, d["to"], lang))
    if k == "salary":
        return _("{who} collects {amount} salary", who=who, amount=cash("amount"))
    if k == "bought":
        return _("{who} buys {square} for {price}", who=who, square=where, price=cash("price"))
    if k == "declined":
        return _("{who} declines {square}", who=who, square=where)
    if k == "paid":
        return _(
            "{who} pays {to} {amount} ({reason})",
            who=who,
            to=party(game, d["to"], lang),
            amount=cash("amount"),
            reason=reason(game, d["reason"], lang),
        )
    if k == "debt":
        return _(
            "{who} owes {to} {amount} ({reason}) and must raise the money",
            who=who,
            to=party(game, d["to"], lang),
            amount=cash("amount"),
            reason=reason(game, d["reason"], lang),
        )
    if k == "card":
        code = language(game, lang)
        return _("{who} draws: {card}", who=who, card=game.edition.card_text(d["card"], code))
    if k == "jailed":
        return _("{who} goes to {jail}", who=who, jail=word(game, "jail", lang))
    if k == "left_jail":
        how = _(_LEFT_JAIL[d["how"]]) if d["how"] in _LEFT_JAIL else str(d["how"])
        return _("{who} leaves {jail} ({how})", who=who, jail=word(game, "jail", lang), how=how)
    if k == "stays_in_jail":
        return _("{who} stays in {jail}", who=who, jail=word(game, "jail", lang))
    if k == "third_doubles":
        return _("{who} throws doubles a third time", who=who)
    if k == "auction_started":
        return _("auction of {what}", what=what())
    if k == "bid":
        return _("{who} bids {amount}", who=who, amount=cash("amount"))
    if k == "passed":
        return _("{who} passes", who=who)
    if k == "auction_won":
        return _("{who} wins {what} for {price}", who=who, what=what(), price=cash("price"))
    if k == "auction_unsold":
        return _("nobody bids: nothing happens")
    if k == "auction_void":
        if d.get("refund"):
            return _(
                "{who} can no longer place {what}: it goes back to the bank, and {refund} is "
                "refunded",
                who=who,
                what=what(),
                refund=cash("refund"),
            )
        return _("{who} can no longer place {what}: it goes back to the bank", who=who, what=what())
    if k == "shortage":
        return _(
            "{who} wants to build on {square}, but the bank has only {stock} left: each player "
            "who could buy some says how many they want",
            who=who,
            square=where,
            stock=items(game, d["item"], d["stock"], lang),
        )
    if k == "wished":
        if not d["count"]:
            return _("{who} wants none", who=who)
        return _("{who} wants {what}", who=who, what=items(game, d["item"], d["count"], lang))
    if k == "shortage_auction":
        return _(
            "{wanted} are wanted and the bank has {stock}: they are auctioned one at a time",
            wanted=items(game, d["item"], d["wanted"], lang),
            stock=items(game, d["item"], d["stock"], lang),
        )
    if k == "shortage_over":
        return _("the auctions of the scarce buildings are over")
    if k == "house_built":
        return _("{who} builds a house on {square}", who=who, square=where)
    if k == "hotel_built":
        return _("{who} builds a hotel on {square}", who=who, square=where)
    if k == "house_sold":
        return _(
            "{who} sells a house on {square} for {amount}",
            who=who,
            square=where,
            amount=cash("refund"),
        )
    if k == "hotel_sold":
        return _(
            "{who} sells a hotel on {square} for {amount}",
            who=who,
            square=where,
            amount=cash("refund"),
        )
    if k == "mortgaged":
        return _("{who} mortgages {square}", who=who, square=where)
    if k == "unmortgaged":
        return _("{who} lifts the mortgage on {square}", who=who, square=where)
    if k == "trade_proposed":
        return describe_trade(game, d, d["player"], lang)
    if k == "trade_accepted":
        return _("{who} accepts the trade", who=who)
    if k == "trade_rejected":
        return _("{who} rejects the trade", who=who)
    if k == "bankrupt":
        return _("{who} is bankrupt", who=who)
    if k == "turn":
        return _("--- {who}'s turn ---", who=who)
    if k == "game_over":
        winners = _.join([game.names[w] for w in d["winners"]])
        return _.ngettext(
            "game over ({reason}): {names} wins",
            "game over ({reason}): {names} win",
            len(d["winners"]),
            reason=outcome_reason(game, d["reason"], lang),
            names=winners,
        )
    if k == "tax_chosen":
        return _("{who} pays tax: {amount}", who=who, amount=cash("amount"))
    if k == "no_rent_owner_jailed":
        return _(
            "no rent: the owner of {square} is in {jail}",
            square=where,
            jail=word(game, "jail", lang),
        )
    if k == "first_throw":
        throws = ", ".join(f"{game.names[int(q)]} {t}" for q, t in d["throws"].items())
        return _("throws for the first turn: {throws}", throws=throws)
    if k == "first_player":
        return _("{who} starts", who=who)
    if k == "deed_dealt":
        if d["paid"]:
            return _(
                "{who} is dealt {square} and pays {amount}",
                who=who,
                square=where,
                amount=cash("paid"),
            )
        return _("{who} is dealt {square}", who=who, square=where)
    if k == "kept_mortgage":
        return _("{who} keeps {square} mortgaged", who=who, square=where)
    if k == "time_called":
        return _("{who} calls time", who=who)
    if k == "rent_due":
        return _(
            "{who} owes {owner} {amount} rent, if claimed in time",
            who=who,
            owner=game.names[d["owner"]],
            amount=cash("amount"),
        )
    if k == "rent_lapsed":
        return _(
            "{owner} did not claim {amount} rent in time",
            owner=game.names[d["owner"]],
            amount=cash("amount"),
        )
    if k == "collected":
        return _("{who} collects {amount}", who=who, amount=cash("amount"))
    if k == "not_auctioned":
        return _("{square} stays with the bank", square=where)
    if k == "pot_collected":
        return _("{who} collects the pot: {amount}", who=who, amount=cash("amount"))
    return k.replace("_", " ")


# ----- decisions -------------------------------------------------------------------------------
def square_facts(game: PropertyGame, index: int, p: int, lang: str | None = None) -> str:
    """Rents and who holds the rest of the group, for the buy decision."""
    _ = tr(game, lang)
    sq = game.edition.squares[index]
    members = game.group_of(index)
    owners = {prop["square"]: prop["owner"] for prop in game.view(p)["properties"]}
    mine = sum(1 for s in members if owners.get(s) == p)
    others = sorted({game.names[owners[s]] for s in members if owners.get(s, -1) not in (-1, p)})
    if sq.kind == "street":
        rents = _(
            "rent {rent} (with a hotel: {hotel})",
            rent=money(game, sq.rents[0], lang),
            hotel=money(game, sq.rents[-1], lang),
        )
    elif sq.kind == "railroad":
        rents = _("rent {rents}", rents=" / ".join(money(game, r, lang) for r in sq.rents))
    else:
        rents = _("rent {rents}", rents=_(" or ").join(_("{n}x the dice", n=r) for r in sq.rents))
    facts = _(
        "{rents}; group {group}: you own {mine} of {size}",
        rents=rents,
        group=group(game, sq.group, lang),
        mine=mine,
        size=len(members),
    )
    if others:
        facts += _("; {names} hold some", names=_.join(others))
    return facts


def describe_decision(game: PropertyGame, decision: Decision, lang: str | None = None) -> str:
    """What a decision asks of its player, addressed to them: ``Ann, it is your turn.``"""
    _ = tr(game, lang)
    info = decision.info
    kind = decision.kind
    p = decision.player
    name = game.names[p]
    cash = money(game, game.view(p)["players"][p]["cash"], lang)
    text: str
    if kind == "start_turn":
        text = _("{name}, it is your turn.", name=name)
    elif kind == "roll_again":
        text = _("{name}, you threw doubles: throw again.", name=name)
    elif kind == "end_turn":
        text = _("{name}, end your turn (or build, mortgage or trade first).", name=name)
    elif kind == "jail":
        text = _(
            "{name}, you are in {jail} (turn {n} there).",
            name=name,
            jail=word(game, "jail", lang),
            n=int(info.get("turns_in_jail", 0)) + 1,
        )
    elif kind == "buy_or_auction":
        index = int(info["square"])
        text = _(
            "{square} is for sale at {price} (you have {cash}): {facts}.",
            square=square(game, index, lang),
            price=money(game, info["price"], lang),
            cash=cash,
            facts=square_facts(game, index, p, lang),
        )
    elif kind == "bid":
        what = (
            square(game, info["square"], lang)
            if info["item"] == "property"
            else item(game, info["item"], lang)
        )
        if info.get("high_bidder", -1) >= 0:
            high = _(
                "high bid {amount} by {name}",
                amount=money(game, info["high_bid"], lang),
                name=game.names[info["high_bidder"]],
            )
        else:
            high = _("no bid yet")
        text = _(
            "Auction of {what}: {high}; the next bid is at least {min}. You have {cash}.",
            what=what,
            high=high,
            min=money(game, info["min_bid"], lang),
            cash=cash,
        )
    elif kind == "tax_choice":
        # No sum: "You must decide which option you will take before you add up your total
        # worth" (C21; docs/rules/README.md S11).
        text = _(
            "{tax}: pay {flat} or {percent} percent of your total worth. The rules ask you to "
            "choose before adding it up.",
            tax=word(game, "income_tax", lang),
            flat=money(game, info["flat"], lang),
            percent=int(info["percent"]),
        )
    elif kind == "raise_funds":
        text = _(
            "You owe {amount} to {to} ({reason}) and have {cash}.",
            amount=money(game, info["amount"], lang),
            to=party(game, info["creditor"], lang),
            reason=reason(game, info["reason"], lang),
            cash=cash,
        )
    elif kind == "answer_trade":
        offer = describe_trade(game, dict(info["offer"]), int(info["from"]), lang)
        text = _("{offer}. Do you accept?", offer=offer)
    elif kind == "mortgaged_property":
        index = int(info["square"])
        lift = game.edition.squares[index].mortgage + game.edition.mortgage_interest(index)
        text = _(
            "You received {square}, mortgaged: lift the mortgage now for {amount}, or keep it "
            "mortgaged.",
            square=square(game, index, lang),
            amount=money(game, lift, lang),
        )
    elif kind == "place_building":
        text = _("Place {what} you won at auction.", what=item(game, info["item"], lang))
    elif kind == "building_wish":
        text = _(
            "{name}, the bank has only {stock} left and others could buy them too. How many do "
            "you want ({least} to {most})? If more are wanted than the bank has, they are "
            "auctioned.",
            name=name,
            stock=items(game, info["item"], info["stock"], lang),
            least=info["least"],
            most=info["most"],
        )
    else:
        text = _("{name}: {kind}", name=name, kind=kind.replace("_", " "))
    # An amount ending in "kr." before a full stop would double it.
    return text.replace("..", ".")

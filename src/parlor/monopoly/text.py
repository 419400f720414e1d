"""Actions and events in words, with the edition's square names and money."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from parlor.core.game import Event
from parlor.monopoly import actions as A

if TYPE_CHECKING:
    from parlor.monopoly.game import PropertyGame


def _who(game: PropertyGame, seat: int) -> str:
    if seat == -1:
        return game.edition.text("bank")
    if seat == -2:
        return game.edition.text("free_parking")
    return game.names[seat]


def describe_trade(game: PropertyGame, t: A.ProposeTrade | Mapping[str, Any], proposer: int) -> str:
    def get(key: str) -> Any:
        return t[key] if isinstance(t, Mapping) else getattr(t, key)

    card = game.edition.text("get_out_of_jail_card")

    def side(squares: Any, cash: int, cards: int) -> str:
        parts = [game.name_of(s) for s in squares]
        if cash:
            parts.append(game.money(cash))
        if cards:
            parts.append(f"{cards} x {card}")
        return ", ".join(parts) or "nothing"

    return (
        f"{game.names[proposer]} offers {game.names[get('to')]}: "
        f"{side(get('give_squares'), get('give_cash'), get('give_jail_cards'))} for "
        f"{side(get('take_squares'), get('take_cash'), get('take_jail_cards'))}"
    )


def describe_action(game: PropertyGame, a: A.Action) -> str:
    sq = getattr(a, "square", None)
    where = game.name_of(sq) if isinstance(sq, int) else ""
    top = game.pending
    simple = {
        A.RollDice: "throw the dice",
        A.EndTurn: "end the turn",
        A.DeclineProperty: "decline (the bank auctions it)",
        A.PassBid: "pass (leave the auction)",
        A.PayJailFine: f"pay the {game.money(game.edition.jail_fine)} fine",
        A.UseJailCard: f"use a {game.edition.text('get_out_of_jail_card')}",
        A.PayDebt: "pay what you owe",
        A.DeclareBankruptcy: "declare bankruptcy",
        A.AcceptTrade: "accept the trade",
        A.RejectTrade: "reject the trade",
        A.ClaimRent: "claim the rent you are owed",
        A.CallTime: "call time (the richest player wins)",
    }
    if type(a) in simple:
        return simple[type(a)]
    if isinstance(a, A.BuyProperty):
        info = top.info if top else {}
        square = info.get("square", 0)
        return f"buy {game.name_of(square)} for {game.money(info.get('price', 0))}"
    if isinstance(a, A.Bid):
        return f"bid {game.money(a.amount)}"
    if isinstance(a, A.ChooseTax):
        return "pay 10% of your total worth" if a.percent else "pay the flat tax"
    if isinstance(a, A.Build):
        return f"build on {where}"
    if isinstance(a, A.SellBuilding):
        return f"sell a building on {where}"
    if isinstance(a, A.Mortgage):
        return f"mortgage {where}"
    if isinstance(a, A.Unmortgage | A.LiftMortgageNow):
        return f"lift the mortgage on {where}"
    if isinstance(a, A.KeepMortgage):
        return f"keep {where} mortgaged"
    if isinstance(a, A.PlaceBuilding):
        return f"place the building on {where}"
    if isinstance(a, A.ProposeTrade):
        return describe_trade(game, a, a.player)
    return repr(a)


def describe_event(game: PropertyGame, e: Event) -> str:
    d = e.data
    who = game.names[d["player"]] if isinstance(d.get("player"), int) else ""
    sq = d.get("square")
    where = game.name_of(sq) if isinstance(sq, int) else ""
    k = e.kind
    if k == "dice":
        return f"{who} throws {d['dice'][0]} and {d['dice'][1]}"
    if k == "moved":
        return f"{who} moves to {game.name_of(d['to'])}"
    if k == "salary":
        return f"{who} collects {game.money(d['amount'])} salary"
    if k == "bought":
        return f"{who} buys {where} for {game.money(d['price'])}"
    if k == "declined":
        return f"{who} declines {where}"
    if k == "paid":
        return f"{who} pays {_who(game, d['to'])} {game.money(d['amount'])} ({d['reason']})"
    if k == "debt":
        return (
            f"{who} owes {_who(game, d['to'])} {game.money(d['amount'])} ({d['reason']}) "
            "and must raise the money"
        )
    if k == "card":
        return f"{who} draws: {game.edition.card_text(d['card'])}"
    if k == "jailed":
        return f"{who} goes to {game.edition.text('jail')}"
    if k == "left_jail":
        return f"{who} leaves {game.edition.text('jail')} ({d['how']})"
    if k == "stays_in_jail":
        return f"{who} stays in {game.edition.text('jail')}"
    if k == "third_doubles":
        return f"{who} throws doubles a third time"
    if k == "auction_started":
        what = where if d["item"] == "property" else f"a {d['item']}"
        return f"auction of {what}"
    if k == "bid":
        return f"{who} bids {game.money(d['amount'])}"
    if k == "passed":
        return f"{who} passes"
    if k == "auction_won":
        what = where if d["item"] == "property" else f"a {d['item']}"
        return f"{who} wins {what} for {game.money(d['price'])}"
    if k == "auction_unsold":
        return "nobody bids: nothing happens"
    if k == "auction_void":
        refund = f", and {game.money(d['refund'])} is refunded" if d.get("refund") else ""
        return f"{who} can no longer place the {d['item']}: it goes back to the bank{refund}"
    if k in ("house_built", "hotel_built"):
        return f"{who} builds a {k.split('_')[0]} on {where}"
    if k in ("house_sold", "hotel_sold"):
        return f"{who} sells a {k.split('_')[0]} on {where} for {game.money(d['refund'])}"
    if k == "mortgaged":
        return f"{who} mortgages {where}"
    if k == "unmortgaged":
        return f"{who} lifts the mortgage on {where}"
    if k == "trade_proposed":
        return describe_trade(game, d, d["player"])
    if k == "trade_accepted":
        return f"{who} accepts the trade"
    if k == "trade_rejected":
        return f"{who} rejects the trade"
    if k == "bankrupt":
        return f"{who} is bankrupt"
    if k == "turn":
        return f"--- {who}'s turn ---"
    if k == "game_over":
        names = ", ".join(game.names[w] for w in d["winners"])
        return f"game over ({d['reason']}): {names} wins"
    if k == "tax_chosen":
        return f"{who} pays tax: {game.money(d['amount'])}"
    if k == "no_rent_owner_jailed":
        return f"no rent: the owner of {where} is in {game.edition.text('jail')}"
    if k == "first_throw":
        throws = ", ".join(f"{game.names[int(q)]} {t}" for q, t in d["throws"].items())
        return f"throws for the first turn: {throws}"
    if k == "first_player":
        return f"{who} starts"
    if k == "deed_dealt":
        paid = f" and pays {game.money(d['paid'])}" if d["paid"] else ""
        return f"{who} is dealt {where}{paid}"
    if k == "kept_mortgage":
        return f"{who} keeps {where} mortgaged"
    if k == "time_called":
        return f"{who} calls time"
    if k == "rent_due":
        return f"{who} owes {game.names[d['owner']]} {game.money(d['amount'])} rent, if claimed in time"
    if k == "rent_lapsed":
        return f"{game.names[d['owner']]} did not claim {game.money(d['amount'])} rent in time"
    if k == "collected":
        return f"{who} collects {game.money(d['amount'])}"
    if k == "not_auctioned":
        return f"{where} stays with the bank"
    if k == "pot_collected":
        return f"{who} collects the pot: {game.money(d['amount'])}"
    return str(e)

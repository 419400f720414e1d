"""What the property game's terminal shows: the table, standings, the board, trade offers.

Everything is built from the public view of the game and worded through :mod:`parlor.i18n`;
coloured pieces are rich :class:`~rich.text.Text` (plain when the output is not a terminal).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from parlor.monopoly import Action, Build, Mortgage, PropertyGame, SellBuilding, Unmortgage
from parlor.monopoly import text as words
from parlor.monopoly.text import HOTEL


def group_style(game: PropertyGame, group: str | None) -> str:
    colour = game.edition.group_colours.get(group or "")
    return f"bold {colour}" if colour else "bold"


def _where(game: PropertyGame, player: Mapping[str, Any], lang: str) -> str:
    _ = words.tr(game, lang)
    if player["bankrupt"]:
        return _("bankrupt")
    if player["in_jail"]:
        return _(
            "in {jail} (turn {n})",
            jail=words.word(game, "jail", lang),
            n=int(player["jail_turns"]) + 1,
        )
    if player["position"] == game.edition.jail_square:
        return words.word(game, "just_visiting", lang)
    return words.square(game, player["position"], lang)


def standings(game: PropertyGame, lang: str, p: int | None = None) -> list[Text]:
    """One block per player: cash, net worth and where they stand, then holdings by group."""
    _ = words.tr(game, lang)
    view = game.view(p)
    owned: dict[int, dict[str, int]] = {}
    for prop in view["properties"]:
        if prop["owner"] >= 0:
            group = game.edition.squares[prop["square"]].group or ""
            owned.setdefault(prop["owner"], {}).setdefault(group, 0)
            owned[prop["owner"]][group] += 1
    width = min(16, max(len(n) for n in game.names))
    lines = []
    for q, player in enumerate(view["players"]):
        marker = ">" if q == view["turn"] else " "
        line = Text(f" {marker} {player['name']:<{width}}  ", style="bold" if marker == ">" else "")
        if not player["bankrupt"]:
            line.append(f"{words.money(game, player['cash'], lang):>11}", style="green")
            line.append(
                "  " + _("worth {amount}", amount=words.money(game, game.valuation(q), lang))
            )
        line.append("  " + _where(game, player, lang))
        if player["jail_cards"]:
            line.append(
                f"  +{player['jail_cards']} {words.word(game, 'get_out_of_jail_card', lang)}"
            )
        lines.append(line)
        held = owned.get(q)
        if held and not player["bankrupt"]:
            row = Text("     ")
            for i, (group, count) in enumerate(held.items()):
                if i:
                    row.append(", ")
                size = len(game.edition.groups.get(group, ()))
                row.append(words.group(game, group, lang), style=group_style(game, group))
                row.append(f" {count}/{size}" + ("*" if count == size else ""))
            lines.append(row)
    return lines


def summary(game: PropertyGame, lang: str, p: int | None) -> list[Text]:
    """The table: round and turn, standings, the bank's stock, then ``p``'s own properties."""
    _ = words.tr(game, lang)
    view = game.view(p)
    head = _(
        "=== Round {round}, {name}'s turn ===",
        round=view["round"] + 1,
        name=game.names[view["turn"]],
    )
    lines = [Text(head, style="bold"), *standings(game, lang, p)]
    bank = view["bank"]
    if game.options.unlimited_buildings:
        lines.append(Text(_("The bank's buildings are unlimited.")))
    else:
        lines.append(
            Text(
                _(
                    "The bank has {houses} and {hotels} left.",
                    houses=_.ngettext("{n} house", "{n} houses", bank["houses"], n=bank["houses"]),
                    hotels=_.ngettext("{n} hotel", "{n} hotels", bank["hotels"], n=bank["hotels"]),
                )
            )
        )
    if view["pot"]:
        lines.append(
            Text(
                _(
                    "{pot} pot: {amount}",
                    pot=words.word(game, "free_parking", lang),
                    amount=words.money(game, view["pot"], lang),
                )
            )
        )
    if p is not None:
        lines.extend(holdings(game, lang, p))
    return lines


def holdings(game: PropertyGame, lang: str, p: int) -> list[Text]:
    """``p``'s properties by group, with buildings, mortgages and full sets marked."""
    _ = words.tr(game, lang)
    view = game.view(p)
    mine = [prop for prop in view["properties"] if prop["owner"] == p]
    if not mine:
        return [Text(_("{name} owns no property.", name=game.names[p]))]
    lines = [Text(_("{name}'s properties:", name=game.names[p]))]
    groups: dict[str, list[dict[str, Any]]] = {}
    for prop in mine:
        groups.setdefault(game.edition.squares[prop["square"]].group or "", []).append(prop)
    for group, props in groups.items():
        total = len(game.group_of(props[0]["square"]))
        parts = []
        for prop in props:
            part = words.square(game, prop["square"], lang)
            if prop["buildings"]:
                part += f" ({words.buildings(game, prop['buildings'], lang)})"
            if prop["mortgaged"]:
                part += " [" + _("mortgaged") + "]"
            parts.append(part)
        line = Text("  ")
        line.append(f"{words.group(game, group, lang):<14}", style=group_style(game, group))
        line.append(" " + ", ".join(parts))
        line.append("  " + (_("* full set") if len(props) == total else f"({len(props)}/{total})"))
        lines.append(line)
    return lines


def board(game: PropertyGame, lang: str, width: int = 80) -> list[Text]:
    """The 40 squares with owners, buildings, mortgages and the players standing there: a ring
    as on the table when the terminal is wide enough, else a list."""
    from parlor.cli.monopoly_board import WIDTH, ring

    if width >= WIDTH:
        return ring(game, lang)
    _ = words.tr(game, lang)
    view = game.view()
    ed = game.edition
    props = {prop["square"]: prop for prop in view["properties"]}
    here: dict[int, list[str]] = {}
    for player in view["players"]:
        if not player["bankrupt"]:
            mark = _("(jailed)") if player["in_jail"] else ""
            here.setdefault(player["position"], []).append(player["name"] + mark)
    two_columns = width >= 80
    name_width = 18 if two_columns else 24
    column = (width - 1) // 2 if two_columns else width
    rows = []
    for i, sq in enumerate(ed.squares):
        row = Text(f"{i:>2} ")
        row.append(
            f"{words.square(game, i, lang):<{name_width}}",
            style=group_style(game, sq.group) if sq.group else "",
        )
        detail = ""
        if i in props:
            prop = props[i]
            if prop["owner"] < 0:
                detail = words.money(game, sq.price, lang)
            else:
                detail = game.names[prop["owner"]]
                if prop["buildings"]:
                    detail += " " + ("H" if prop["buildings"] == HOTEL else "h" * prop["buildings"])
                if prop["mortgaged"]:
                    detail += " [M]"
        row.append(" " + detail)
        if i in here:
            row.append(" @" + ",".join(here[i]), style="bold")
        rows.append(row)
    legend = Text(_("h house, H hotel, [M] mortgaged, @ players there"), style="dim")
    if not two_columns:
        return [*rows, legend]
    out = []
    for left, right in zip(rows[:20], rows[20:], strict=True):
        left.pad_right(column - left.cell_len)
        out.append(Text.assemble(left, " ", right))
    return [*out, legend]


def action_label(game: PropertyGame, action: Action, lang: str) -> str:
    """A menu line: the action in words, with what building and mortgaging cost or bring."""
    _ = words.tr(game, lang)
    ed = game.edition
    text = words.describe_action(game, action, lang)
    if not isinstance(action, Build | SellBuilding | Mortgage | Unmortgage):
        return text
    sq = ed.squares[action.square]
    built = built_on(game, action.square)
    if isinstance(action, Build):
        hotel_next = built == game.options.hotel_after_houses
        cost = ed.hotel_cost(action.square) if hotel_next else sq.house_cost
        what = words.item(game, "hotel" if hotel_next else "house", lang)
        return _(
            "{action}: {what} for {cost}",
            action=text,
            what=what,
            cost=words.money(game, cost, lang),
        )
    if isinstance(action, SellBuilding):
        return _(
            "{action} (now {buildings})", action=text, buildings=words.buildings(game, built, lang)
        )
    if isinstance(action, Mortgage):
        return _("{action}: get {amount}", action=text, amount=words.money(game, sq.mortgage, lang))
    lift = sq.mortgage + ed.mortgage_interest(action.square)
    return _("{action}: pay {amount}", action=text, amount=words.money(game, lift, lang))


def built_on(game: PropertyGame, square: int) -> int:
    return int(next(p["buildings"] for p in game.view()["properties"] if p["square"] == square))


def completes_group(
    game: PropertyGame, receiver: int, squares: Sequence[int], giver: int
) -> list[str]:
    """The groups ``receiver`` would hold whole after getting ``squares`` from ``giver``."""
    owners = {prop["square"]: prop["owner"] for prop in game.view()["properties"]}
    for s in squares:
        owners[s] = receiver
    done = []
    for group in {game.edition.squares[s].group for s in squares}:
        members = game.edition.groups.get(group or "", ())
        if members and all(owners.get(m) == receiver for m in members):
            done.append(group or "")
    return done


def trade_details(
    game: PropertyGame, offer: Mapping[str, Any], proposer: int, me: int, lang: str
) -> list[Text]:
    """Everything an offer to ``me`` means: each deed's price and state, the mortgage fees, cash,
    and whether it completes a group for either side."""
    _ = words.tr(game, lang)
    ed = game.edition
    mortgaged = {p["square"]: p["mortgaged"] for p in game.view()["properties"]}
    lines = [Text(words.describe_trade(game, offer, proposer, lang) + ".", style="bold")]

    def deeds(squares: Sequence[int], receiver: int, heading: str) -> None:
        lines.append(Text(heading))
        for s in squares:
            sq = ed.squares[s]
            line = Text("   ")
            line.append(words.square(game, s, lang), style=group_style(game, sq.group))
            line.append(
                " ("
                + _(
                    "{group}, price {price}",
                    group=words.group(game, sq.group, lang),
                    price=words.money(game, sq.price, lang),
                )
                + ")"
            )
            if mortgaged.get(s):
                interest = words.money(game, ed.mortgage_interest(s), lang)
                lift = words.money(game, sq.mortgage + ed.mortgage_interest(s), lang)
                if game.options.mortgage_transfer_fee:
                    note = _(
                        "mortgaged: the receiver pays {fee} interest at once, or {lift} to lift it",
                        fee=interest,
                        lift=lift,
                    )
                else:
                    note = _("mortgaged: lifting it costs {lift}", lift=lift)
                line.append(" - " + note, style="yellow")
            lines.append(line)

    give, take = offer["give_squares"], offer["take_squares"]
    if give:
        deeds(give, me, _("You get:"))
    if take:
        deeds(take, proposer, _("You give:"))
    if offer["give_cash"]:
        lines.append(
            Text(_("You get {amount} in cash.", amount=words.money(game, offer["give_cash"], lang)))
        )
    if offer["take_cash"]:
        lines.append(
            Text(_("You pay {amount} in cash.", amount=words.money(game, offer["take_cash"], lang)))
        )
    value = (
        sum(ed.squares[s].price for s in give)
        - sum(ed.squares[s].price for s in take)
        + offer["give_cash"]
        - offer["take_cash"]
    )
    lines.append(
        Text(_("At printed prices you gain {amount}.", amount=words.money(game, value, lang)))
        if value >= 0
        else Text(_("At printed prices you lose {amount}.", amount=words.money(game, -value, lang)))
    )
    for who, squares, giver in ((me, give, proposer), (proposer, take, me)):
        for group in completes_group(game, who, squares, giver):
            lines.append(
                Text(
                    _(
                        "This completes the {group} group for {name}.",
                        group=words.group(game, group, lang),
                        name=game.names[who],
                    ),
                    style="bold red" if who == proposer else "bold green",
                )
            )
    return lines


def final_ranking(
    game: PropertyGame, lang: str, scores: Sequence[float], ranking: Sequence[int]
) -> list[str]:
    _ = words.tr(game, lang)
    view = game.view()
    lines = []
    for place, q in enumerate(ranking, 1):
        worth = (
            _("bankrupt")
            if view["players"][q]["bankrupt"]
            else _("worth {amount}", amount=words.money(game, int(scores[q]), lang))
        )
        lines.append(f"  {place}. {game.names[q]:<12} {worth}")
    return lines

"""The opening and a turn: who starts, the dice, moving, what the square reached does, cards,
income tax and jail.

Clauses (docs/rules/README.md): S2 seats (play passes left, bankrupt seats skipped), S3 the opening
(who starts; the short game's deeds), S4 a turn, doubles and three doubles (jail without moving),
S5 salary at Go (passing or landing, forward moves only), S6 (an unowned property landed on is
offered), S8 (rent is charged on landing, see rent.py), S10 cards (top card drawn, back to the
bottom; jail cards held), S11 income tax (flat or the percentage of total worth), S12 jail (card,
fine on the first turns, doubles; the last failed throw pays and moves), S20 (a time limit counted
in rounds from the first player), S21 Free Parking.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Final

from parlor.core.errors import E_
from parlor.core.game import Decision, Event
from parlor.core.validate import MAX_SEATS
from parlor.monopoly.actions import (
    Action,
    ChooseTax,
    EndTurn,
    PayJailFine,
    RollDice,
    UseJailCard,
    shared,
)
from parlor.monopoly.edition import Card
from parlor.monopoly.ending import EndRules
from parlor.monopoly.frames import (
    AUTO_FRAMES,
    BANK,
    POT,
    BankAuctions,
    BuyChoice,
    Frame,
    Move,
    PlaceBuildingChoice,
    ShortageSale,
    TaxChoice,
    Turn,
)
from parlor.monopoly.noinfo import NO_INFO
from parlor.monopoly.table import HOTEL, N_SQUARES, FrameRules, Handler


def _die(bits: Callable[[int], int]) -> int:
    """One die, drawn from ``bits`` (a generator's ``getrandbits``) exactly as ``randint(1, 6)``
    draws it (three bits, drawn again while they make 6 or 7), without its argument checks: the
    hottest call of a game (tests/monopoly/test_dice.py holds the two equal)."""
    r = bits(3)
    while r >= 6:
        r = bits(3)
    return r + 1


def _per_seat(kind: str) -> tuple[Decision, ...]:
    return tuple(Decision(p, kind, NO_INFO) for p in range(MAX_SEATS))


#: A turn's decisions that carry no info, per seat: immutable (their info refuses to change),
#: so every game hands out the same ones (``pending`` is asked twice a decision, and most
#: decisions are these: building none saves a third of its cost).
_END_TURN: Final = _per_seat("end_turn")
_START_TURN: Final = _per_seat("start_turn")
_ROLL_AGAIN: Final = _per_seat("roll_again")


#: The frames :meth:`TurnRules._advance` acts on: the automatic ones, and a won building it may
#: give back (with any other on top it has nothing to run: ``apply`` asks it only for these).
ADVANCED: Final = AUTO_FRAMES | {PlaceBuildingChoice}


class TurnRules(EndRules):
    # ----- the game's opening (S3) -----------------------------------------------------------
    def _open_game(self) -> None:
        """Shuffle the decks, find who starts (a throw each, the highest again on a tie) and deal
        the short game's deeds (its options): the setup events, then the first turn."""
        ev = self.setup_events
        for deck in self.decks.values():
            self.rng.shuffle(deck)
        n = self.num_players
        first = 0
        if self.options.roll_for_first_player:
            contenders = list(range(n))
            while len(contenders) > 1:
                throws = {p: self.rng.randint(1, 6) + self.rng.randint(1, 6) for p in contenders}
                ev.append(Event("first_throw", {"throws": {str(p): t for p, t in throws.items()}}))
                best = max(throws.values())
                contenders = [p for p in contenders if throws[p] == best]
            first = contenders[0]
        self.first_player = first
        ev.append(Event("first_player", {"player": first}))
        if self.options.starting_deeds:
            deeds = list(self.edition.property_squares)
            self.rng.shuffle(deeds)
            for _ in range(self.options.starting_deeds):
                for k in range(n):
                    p = (first + k) % n
                    sq = deeds.pop()
                    self.owner[sq] = p
                    self._estate_changed(sq)
                    price = (
                        self.edition.squares[sq].price if self.options.starting_deeds_paid else 0
                    )
                    self._pay(p, BANK, price)
                    ev.append(Event("deed_dealt", {"player": p, "square": sq, "paid": price}))
        self.frames.append(Turn(first))

    # ----- the turn's decision (S4, S12) -------------------------------------------------------
    def _turn_decision(self, top: Turn) -> Decision:
        p = top.player
        if top.phase == "post_roll":
            return _END_TURN[p]
        if self.in_jail[p]:
            return Decision(p, "jail", {"turns_in_jail": self.jail_turns[p]})
        return _ROLL_AGAIN[p] if self.doubles else _START_TURN[p]

    def _turn_answers(self, p: int, top: Turn) -> list[Action]:
        # The legal ones among throwing (or ending the turn), the fine and the card: see
        # _turn_problem, which says why the others are not.
        if top.phase == "post_roll":
            return [shared(EndTurn, p)]
        out: list[Action] = [shared(RollDice, p)]
        if self.in_jail[p]:
            if (
                self.jail_turns[p] < self.options.jail_fine_turns
                and self.cash[p] >= self._sq.jail_fine
            ):
                out.append(shared(PayJailFine, p))
            if self.jail_cards[p]:
                out.append(shared(UseJailCard, p))
        return out

    def _turn_problem(self, action: Action, top: Turn) -> str | None:
        p = action.player
        name = self.names[p]
        if isinstance(action, RollDice):
            return (
                None
                if top.phase == "pre_roll"
                else E_("{name} has thrown: end the turn", name=name)
            )
        if isinstance(action, EndTurn):
            return (
                None
                if top.phase == "post_roll"
                else E_("{name} must throw the dice first", name=name)
            )
        if isinstance(action, PayJailFine | UseJailCard):
            if top.phase != "pre_roll" or not self.in_jail[p]:
                return E_("{name} is not in jail", name=name)
            if isinstance(action, UseJailCard):
                return (
                    None
                    if self.jail_cards[p]
                    else E_("{name} has no get-out-of-jail card", name=name)
                )
            if self.jail_turns[p] >= self.options.jail_fine_turns:
                return E_(
                    "the fine may be paid before throwing only on the first {turns} turn(s) in jail: "
                    "throw the dice",
                    turns=self.options.jail_fine_turns,
                )
            fine = self.edition.jail_fine
            if self.cash[p] < fine:
                return E_(
                    "{name} has {cash}, the fine is {fine}",
                    name=name,
                    cash=self.money(self.cash[p]),
                    fine=self.money(fine),
                )
            return None
        if top.phase == "pre_roll":
            return E_("{name} must throw the dice", name=name)
        return E_("{name} must end the turn", name=name)

    # ----- the dice (S4) -----------------------------------------------------------------------
    def _throw(self) -> tuple[int, int]:
        rng = self.rng
        if type(rng) is Random:
            bits = rng.getrandbits
            dice = (_die(bits), _die(bits))
        else:  # a generator of another kind (rigged dice in the tests) throws its own way
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        self.last_dice = dice
        return dice

    def _do_roll(self, action: RollDice, turn: Frame, ev: list[Event]) -> None:
        assert isinstance(turn, Turn)
        p = action.player
        if self.claims:
            self._lapse_claims(p, ev)
        rng = self.rng
        if type(rng) is Random:  # (_throw inlined, the same draws: one roll per turn or more)
            bits = rng.getrandbits
            d1 = bits(3)
            while d1 >= 6:
                d1 = bits(3)
            d2 = bits(3)
            while d2 >= 6:
                d2 = bits(3)
            d1 += 1
            d2 += 1
            self.last_dice = (d1, d2)
        else:
            d1, d2 = self._throw()
        doubles = d1 == d2
        ev.append(Event("dice", {"player": p, "dice": [d1, d2]}))
        if self.in_jail[p]:
            if doubles:
                self._leave_jail(p, "doubles", ev)
                if self._jail_extra:
                    self.doubles = 1
                    turn.phase = "pre_roll"
                else:
                    turn.phase = "post_roll"
                self.frames.append(Move(p, d1 + d2))
                return
            self.jail_turns[p] += 1
            turn.phase = "post_roll"
            if self.jail_turns[p] >= self._jail_max:
                # Last attempt failed: pay the fine, leave, and move by this throw.
                self._leave_jail(p, "fine", ev)
                self.frames.append(Move(p, d1 + d2))
                self._charge(p, self._sink, self._sq.jail_fine, "jail fine", ev)
            else:
                ev.append(Event("stays_in_jail", {"player": p, "turns": self.jail_turns[p]}))
            return
        if doubles:
            self.doubles += 1
            if self.doubles == 3:
                ev.append(Event("third_doubles", {"player": p}))
                self._send_to_jail(p, ev)
                return
            turn.phase = "pre_roll"
        else:
            turn.phase = "post_roll"
        # (moved at once, as ``_advance`` would run a Move frame, without building one)
        self._move_by(p, d1 + d2, None, ev)

    # ----- the automatic steps -----------------------------------------------------------------
    def _advance(self, ev: list[Event]) -> None:
        """Run automatic frames until a decision is needed or the game ends: a move (a card's,
        or a throw out of jail), the bank's auctions of a bankrupt's deeds, a shortage's sale;
        a won building that has no lot left is given back."""
        while self._outcome is None and self.frames:
            frames = self.frames  # (read again: a bankruptcy or the end replaces the list)
            top = frames[-1]
            if type(top) is Turn:  # (most actions end on a turn's decision: nothing to run)
                break
            if isinstance(top, PlaceBuildingChoice) and not self._buildable_squares(
                top.player, top.item
            ):
                self._void_placement(top, ev)
                continue
            if type(top) not in AUTO_FRAMES:  # (a decision: ``top.auto`` without the call)
                break
            frame = frames.pop()
            if isinstance(frame, Move):
                self._move_by(frame.player, frame.steps, frame, ev)
            elif isinstance(frame, BankAuctions) and frame.squares:
                sq = frame.squares.pop(0)
                if frame.squares:
                    frames.append(frame)
                self._start_property_auction(sq, frame.first_bidder - 1, ev)
            elif isinstance(frame, ShortageSale):
                self._shortage_step(frame, ev)

    # ----- jail (S12) --------------------------------------------------------------------------
    def _do_pay_jail_fine(self, action: PayJailFine, top: Frame, ev: list[Event]) -> None:
        self._pay(action.player, self._sink, self._sq.jail_fine)
        self._leave_jail(action.player, "fine", ev)

    def _do_use_jail_card(self, action: UseJailCard, top: Frame, ev: list[Event]) -> None:
        p = action.player
        card = self.jail_cards[p].pop(0)
        self.decks[self.edition.cards[card].deck].append(card)
        self._leave_jail(p, "card", ev)

    def _leave_jail(self, p: int, how: str, ev: list[Event]) -> None:
        self.in_jail[p] = False
        self.jail_turns[p] = 0
        ev.append(Event("left_jail", {"player": p, "how": how}))

    def _send_to_jail(self, p: int, ev: list[Event]) -> None:
        self.position[p] = self._sq.jail_square
        self.in_jail[p] = True
        self.jail_turns[p] = 0
        self.doubles = 0
        turn = self.frames[0]
        if isinstance(turn, Turn) and turn.player == p:
            turn.phase = "post_roll"
        ev.append(Event("jailed", {"player": p}))

    # ----- the end of a turn (S2, S20) ---------------------------------------------------------
    def _do_end_turn(self, action: EndTurn, top: Frame, ev: list[Event]) -> None:
        self._next_turn(action.player, ev)

    def _next_turn(self, p: int, ev: list[Event]) -> None:
        n = len(self.names)
        nxt = (p + 1) % n
        while self.bankrupt[nxt]:
            nxt = (nxt + 1) % n
        first = self.first_player
        if (nxt - first) % n <= (p - first) % n:
            self.round += 1
        self.turns_taken += 1
        self.doubles = 0
        turn = self.frames[0]
        if type(turn) is Turn:  # (passed on in place, as a throw sets its phase: no new frame)
            turn.player = nxt
            turn.phase = "pre_roll"
        else:
            self.frames[0] = Turn(nxt)
        ev.append(Event("turn", {"player": nxt, "round": self.round}))
        limit = self._time_limit
        if limit and self.round >= limit:
            self._finish_by_valuation("time_limit", ev)

    # ----- moving and landing (S5, S6, S8, S21) ------------------------------------------------
    def _move_by(self, p: int, steps: int, m: Move | None, ev: list[Event]) -> None:
        """Move ``p`` by ``steps`` and resolve the square; ``m`` the Move frame whose multipliers
        apply, None for a plain throw (the most common move: no frame built for it)."""
        if self.bankrupt[p]:
            return
        facts = self._sq
        old = self.position[p]
        new = (old + steps) % N_SQUARES
        self.position[p] = new
        ev.append(Event("moved", {"player": p, "from": old, "to": new}))
        if steps > 0 and (old + steps) >= N_SQUARES + facts.go_square:
            salary = facts.salary
            if new == facts.go_square and self._double_go:
                salary *= 2
            self._pay(BANK, p, salary)
            ev.append(Event("salary", {"player": p, "amount": salary}))
        self._land(p, m, ev)

    def _land(self, p: int, m: Move | None, ev: list[Event]) -> None:
        facts = self._sq
        sq_index = self.position[p]
        kind = facts.kind[sq_index]
        if facts.is_property[sq_index]:
            owner = self.owner[sq_index]
            if owner < 0:
                self.frames.append(BuyChoice(p, sq_index))
            elif owner != p and not self.mortgaged[sq_index]:
                if self.in_jail[owner] and not self._rent_jailed:
                    ev.append(Event("no_rent_owner_jailed", {"square": sq_index, "owner": owner}))
                    return
                if m is None:
                    amount = self.rent(sq_index, sum(self.last_dice) if self.last_dice else 0)
                elif kind == "utility" and m.dice_multiplier is not None:
                    d1, d2 = self._throw()
                    ev.append(Event("dice", {"player": p, "dice": [d1, d2], "for": "rent"}))
                    amount = self.rent(sq_index, d1 + d2, m.rent_multiplier, m.dice_multiplier)
                else:
                    total = sum(self.last_dice) if self.last_dice else 0
                    amount = self.rent(sq_index, total, m.rent_multiplier)
                if self._rent_claim:
                    self.claims.append([p, owner, amount, sq_index, self._claim_deadline(p)])
                    ev.append(Event("rent_due", {"player": p, "owner": owner, "amount": amount}))
                else:
                    self._charge(p, owner, amount, "rent", ev, square=sq_index)
        elif kind in ("chance", "community_chest"):
            self._draw_card(p, self.edition.squares[sq_index].deck or kind, ev)
        elif kind == "tax":
            sq = self.edition.squares[sq_index]
            if sq.tax_percent_option and self.options.income_tax_choice:
                self.frames.append(TaxChoice(p, sq_index))
            else:
                self._charge(p, self._sink, sq.tax, "tax", ev)
        elif kind == "go_to_jail":
            self._send_to_jail(p, ev)
        elif kind == "free_parking" and self.options.free_parking_pot and self.pot:
            amount = self.pot
            self._pay(POT, p, amount)
            ev.append(Event("pot_collected", {"player": p, "amount": amount}))

    # ----- cards (S10) -------------------------------------------------------------------------
    def _draw_card(self, p: int, deck: str, ev: list[Event]) -> None:
        cards = self.decks[deck]
        if not cards:  # every card of the deck is held as a jail card
            return
        card = self.edition.cards[cards.pop(0)]
        if self.unseen[deck]:
            self.unseen[deck] -= 1
        ev.append(Event("card", {"player": p, "deck": deck, "card": card.id}))
        if card.effect == "get_out_of_jail":
            self.jail_cards[p].append(card.id)
        else:
            cards.append(card.id)
            self._card_effect(p, card, ev)

    def _card_effect(self, p: int, card: Card, ev: list[Event]) -> None:
        effect = card.effect
        pos = self.position[p]
        if effect == "move_to":
            assert card.target is not None
            steps = (card.target - pos) % N_SQUARES
            self.frames.append(
                Move(
                    p, steps if steps else N_SQUARES if card.target == self.edition.go_square else 0
                )
            )
        elif effect == "move_relative":
            self.frames.append(Move(p, card.steps))
        elif effect == "move_nearest":
            steps = 1
            while self.edition.squares[(pos + steps) % N_SQUARES].kind != card.kind:
                steps += 1
            self.frames.append(Move(p, steps, card.rent_multiplier, card.dice_multiplier))
        elif effect == "collect":
            self._pay(BANK, p, card.amount)
        elif effect == "pay":
            self._charge(p, self._sink, card.amount, "card", ev)
        elif effect == "collect_from_each":
            for q in reversed(self.active_players):
                if q != p:
                    self._charge(q, p, card.amount, "card", ev)
        elif effect == "pay_each":
            for q in reversed(self.active_players):
                if q != p:
                    self._charge_later(p, q, card.amount, "card")
            self._settle_top_debts(ev)
        elif effect == "repairs":
            houses = sum(b for b in self._owned_buildings(p) if b != HOTEL)
            hotels = sum(1 for b in self._owned_buildings(p) if b == HOTEL)
            amount = houses * card.per_house + hotels * card.per_hotel
            self._charge(p, self._fee_sink(), amount, "repairs", ev)
        elif effect == "go_to_jail":
            self._send_to_jail(p, ev)
        elif effect == "collect_if_worth_at_most" and self.total_worth(p) <= card.limit:
            self._pay(BANK, p, card.amount)
            ev.append(Event("collected", {"player": p, "amount": card.amount}))

    def _owned_buildings(self, p: int) -> list[int]:
        return [self.buildings[s] for s in self.edition.property_squares if self.owner[s] == p]

    # ----- income tax (S11) --------------------------------------------------------------------
    def _tax_decision(self, top: TaxChoice) -> Decision:
        sq = self.edition.squares[top.square]
        return Decision(
            top.player,
            "tax_choice",
            {"square": top.square, "flat": sq.tax, "percent": self.edition.income_tax_percent},
        )

    def _tax_answers(self, p: int, top: TaxChoice) -> list[Action]:
        return [shared(ChooseTax, p, False), shared(ChooseTax, p, True)]

    def _tax_problem(self, action: Action, top: TaxChoice) -> str | None:
        if isinstance(action, ChooseTax):
            return None
        return E_("{who} must choose how to pay the tax", who=self.names[action.player])

    def _do_choose_tax(self, action: ChooseTax, top: Frame, ev: list[Event]) -> None:
        assert isinstance(top, TaxChoice)
        p = action.player
        self.frames.pop()
        flat = self.edition.squares[top.square].tax
        amount = (
            self.total_worth(p) * self.edition.income_tax_percent // 100 if action.percent else flat
        )
        ev.append(Event("tax_chosen", {"player": p, "percent": action.percent, "amount": amount}))
        self._charge(p, self._fee_sink(), amount, "tax", ev)


HANDLERS: dict[type[Action], Handler] = {
    RollDice: TurnRules._do_roll,
    EndTurn: TurnRules._do_end_turn,
    PayJailFine: TurnRules._do_pay_jail_fine,
    UseJailCard: TurnRules._do_use_jail_card,
    ChooseTax: TurnRules._do_choose_tax,
}
FRAMES: dict[type[Frame], FrameRules] = {
    Turn: FrameRules(TurnRules._turn_decision, TurnRules._turn_answers, TurnRules._turn_problem),
    TaxChoice: FrameRules(TurnRules._tax_decision, TurnRules._tax_answers, TurnRules._tax_problem),
}

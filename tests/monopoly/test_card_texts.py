"""Every card and deck of every edition in each language Parlor speaks (issue 18: "Every word in
the player's language"), and texts that say what the card does: the same money as the card's
amount fields, in every language."""

from __future__ import annotations

import re

import pytest

from parlor import monopoly
from parlor.bots.registry import make_bot
from parlor.i18n import LANGUAGES
from parlor.monopoly.edition import EDITION_IDS, Card, Edition, load_edition

# The card effects that move a token, so may pay the salary for passing Go on the way (the text
# says "If you pass Go, collect $200"), and going to jail ("do not collect $200").
PASSES_GO = ("move_to", "move_nearest", "move_relative", "go_to_jail")
# A number grouped in thousands by "," (English) or "." (Danish, Spanish), or not grouped.
NUMBER = r"\d{1,3}(?:[.,]\d{3})+(?!\d)|\d+"
STEPS = {3: {"en": "three", "es": "tres", "da": "tre"}}


def money_in(text: str, edition: Edition) -> list[int]:
    """The amounts of money a text names, in the edition's currency on either side of the number
    ("$200", "200 $", "4.000 kr.", and the Danish cards' "kr. 4.000")."""
    cur = re.escape(edition.currency)
    found = re.findall(rf"{cur}\s?({NUMBER})|({NUMBER})\s?{cur}", text)
    amounts = [int(re.sub(r"[.,]", "", before or after)) for before, after in found]
    # no currency sign is left without its number (a misspelt amount: "$ two hundred")
    assert len(re.findall(cur, text)) == len(amounts), text
    return amounts


def amount_fields(card: Card) -> set[int]:
    return {v for v in (card.amount, card.per_house, card.per_hotel, card.limit) if v}


def test_every_card_and_deck_has_a_text_in_every_language() -> None:
    assert LANGUAGES == ("en", "es", "da")
    for edition_id in EDITION_IDS:
        ed = load_edition(edition_id)
        for deck, names in ed.decks.items():
            for lang in LANGUAGES:
                assert names.get(lang, "").strip(), f"{edition_id}: deck {deck} has no {lang} name"
                assert ed.deck_name(deck, lang) == names[lang]
        for card in ed.cards:
            for lang in LANGUAGES:
                text = card.text.get(lang, "")
                assert text.strip() == text and text, f"{edition_id}: card {card.id} in {lang}"
                assert ed.card_text(card.id, lang) == text
            # a translation, not a copy of another language's words
            if edition_id != "matco" or card.effect != "move_to" or card.target != 39:
                assert len({card.text[lang] for lang in LANGUAGES}) == 3, card.text


@pytest.mark.parametrize("edition_id", EDITION_IDS)
def test_the_money_in_every_text_is_the_cards_own(edition_id: str) -> None:
    ed = load_edition(edition_id)
    for card in ed.cards:
        fields = amount_fields(card)
        allowed = fields | ({ed.salary} if card.effect in PASSES_GO else set())
        # the edition's own language: the text the card was made from (rulebook or CSV)
        first = money_in(card.text[ed.language], ed)
        assert fields <= set(first), (card.text[ed.language], fields)
        for lang in LANGUAGES:
            said = money_in(card.text[lang], ed)
            assert set(said) <= allowed, (lang, card.text[lang], allowed)
            # every language names the same amounts, as often, as the edition's own text
            assert sorted(said) == sorted(first), (lang, card.text[lang], card.text[ed.language])


@pytest.mark.parametrize("edition_id", EDITION_IDS)
def test_the_places_and_steps_in_every_translation_are_the_cards_own(edition_id: str) -> None:
    ed = load_edition(edition_id)
    for card in ed.cards:
        # (the edition's own language keeps its source's words: classic's "Illinois Ave.")
        for lang in (lang for lang in LANGUAGES if lang != ed.language):
            text = card.text[lang]
            if card.effect == "move_to" and card.target != ed.go_square:
                # the square as that language's board names it (the edition's proper nouns)
                assert ed.square_name(card.target, lang) in text, (lang, text)
            if card.effect == "move_relative":
                n = abs(card.steps)
                assert re.search(rf"\b({n}|{STEPS[n][lang]})\b", text), (lang, text)


def test_the_translations_are_in_their_language() -> None:
    """No English sentence left in a Spanish or Danish card (the square names, proper nouns of
    the edition, aside), and no Spanish or Danish in an English one."""
    english = re.compile(r"\b(the|and|pay|collect|advance|you|your|go to)\b", re.I)
    other = re.compile(r"\b(pague|cobre|avance|usted|su|betal|modtag|ryk|De|Deres)\b")
    for edition_id in EDITION_IDS:
        ed = load_edition(edition_id)
        names = sorted({ed.square_name(i, "en") for i in range(40)}, key=len, reverse=True)
        for card in ed.cards:
            for lang in ("es", "da"):
                rest = card.text[lang]
                for name in names:
                    rest = rest.replace(name, "")
                assert not english.search(rest), (edition_id, lang, card.text[lang])
            assert not other.search(card.text["en"]), (edition_id, card.text["en"])


def test_a_drawn_card_is_said_in_each_language() -> None:
    """The "card" event's words (what the server sends each seat, see tests/server) quote the
    card in the language asked for, whatever the edition's own language."""
    for edition_id, seed in (("classic", 5), ("latam", 5), ("matador", 5)):
        game = monopoly.new_game(edition_id, ["Ann", "Bo"], seed=seed)
        players = [make_bot("monopoly", "random", seed + p) for p in range(2)]
        drawn = None
        while drawn is None and not game.is_over:
            p = game.pending.player  # type: ignore[union-attr]
            for event in game.apply(players[p].choose(game, p)):
                if event.kind == "card":
                    drawn = event
        assert drawn is not None, edition_id
        for lang in LANGUAGES:
            said = game.describe_event(drawn, lang)
            assert game.edition.card_text(drawn.data["card"], lang) in said, (lang, said)

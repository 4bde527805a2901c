"""Round 17 of the offline answerer: a weekend holds its Saturday, a kind listed with its ages is cut to the age
asked about (a memory's: "and my daughter?"), and a place's premises are the place itself ("where's your shop?")."""

from __future__ import annotations

from avatar_service.adapters.dialogue import OfflineGroundedDialogue
from avatar_service.adapters.dialogue.amounts import amount_fit, amounts
from avatar_service.adapters.dialogue.listed_kinds import one_kind
from avatar_service.adapters.dialogue.terms import terms
from avatar_service.ports.dialogue import DialogueRequest, Persona, Turn

engine = OfflineGroundedDialogue()
BOWLING = "A game costs £6.50 per person before 5pm on weekdays and £8 per person after 5pm and all weekend."
SWIM = ("A casual swim costs £5.20 for adults, £3.10 for juniors aged 4 to 16 and £3.80 for over-65s, and children "
        "under 4 swim free with a paying adult.")


def test_a_weekend_holds_its_saturday() -> None:
    asked = "how much is it on a saturday afternoon?"
    assert one_kind(BOWLING, set(terms(asked)), asked, ["price"]) == "It's £8 per person after 5pm and all weekend."
    asked = "how much is it on a tuesday?"
    assert "£6.50" in one_kind(BOWLING, set(terms(asked)), asked, ["price"])


def test_the_kind_whose_ages_include_the_one_asked_about() -> None:
    assert one_kind(SWIM, {"daughter"}, "and my daughter?", ["price"], [6]) == "It's £3.10 for juniors aged 4 to 16."
    assert one_kind(SWIM, {"son"}, "and my son?", ["price"], [2]) == "Children under 4 swim free with a paying adult."
    assert one_kind(SWIM, set(), "how much is it?", ["price"]) == SWIM  # no age, no kind named: all of them
    assert one_kind(SWIM, {"son"}, "and my son?", ["price"], [30]) == SWIM  # no one kind has that age


def test_the_premises_are_the_place_itself() -> None:
    persona = Persona("Freya", "", "The owner of Wild Meadow Flowers, a wedding florist in Ludlow.", {"verbosity": 0.3})
    knowledge = ["Most of our flowers are grown on our own field at Bromfield, three miles outside Ludlow.",
                 "Wild Meadow Flowers is at 9 Broad Street, Ludlow SY8 1NG, between the Buttercross and Broad Gate."]
    reply = engine.compose(DialogueRequest(persona, [Turn("user", "where's your shop?")], knowledge=knowledge,
                                           knowledge_relevance=[0.21, 0.16]))
    assert "Broad Street" in reply, reply


def test_a_bank_holiday_is_its_monday_and_a_share_of_the_price_is_a_price() -> None:
    persona = Persona("Gemma", "", "The manager of Bridport Community Pool.", {"verbosity": 0.3})
    knowledge = ["We close for two weeks of maintenance every year from the last Monday in August.",
                 "A non-refundable deposit of 25% secures your date, and the balance is due four weeks before."]
    reply = engine.compose(DialogueRequest(persona, [Turn("user", "will you be open over the august bank holiday?")],
                                           knowledge=knowledge, knowledge_relevance=[0.4, 0.2]))
    assert "maintenance" in reply, reply
    reply = engine.compose(DialogueRequest(persona, [Turn("user", "how much do i need to put down to hold the date?")],
                                           knowledge=knowledge, knowledge_relevance=[0.2, 0.5]))
    assert "25%" in reply, reply


DELIVERY = ("We deliver and set up at venues within 25 miles of Ludlow for £60, and between 25 and 50 miles away for "
            "£110; we don't do weddings more than 50 miles away.")


def test_the_kind_whose_bounds_hold_the_amount_asked_about() -> None:
    def cut(question: str) -> str:
        return one_kind(DELIVERY, set(terms(question)), question, ["price"])

    assert cut("what would you charge to deliver to a venue about 20 miles away?") == \
        "We deliver and set up at venues within 25 miles of Ludlow for £60."
    assert cut("and to a venue 40 miles away?") == "It's between 25 and 50 miles away for £110."
    assert cut("and 60 miles?") == DELIVERY  # no kind holds it: the whole sentence says they don't go that far
    assert amount_fit("£40 a night for stays of up to 6 nights", amounts("how much a night for 3 nights?"))
    assert not amount_fit("£35 a night for stays of a week or more", amounts("how much a night for 3 nights?"))

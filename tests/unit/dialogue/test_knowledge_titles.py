"""Round 16 of the offline answerer: a knowledge item's name says what its sentences are about ("Pick-up" for "our
desk is in the arrivals hall"), and a reduction is a price ("sold at half price")."""

from __future__ import annotations

from avatar_service.adapters.dialogue import OfflineGroundedDialogue
from avatar_service.adapters.dialogue.answer_types import holds
from avatar_service.ports.dialogue import DialogueRequest, Persona, Turn

KNOWLEDGE = [
    "We rent small city cars, estate cars, seven-seat vans and electric cars. A small car costs 39 euros per day.",
    "Our desk is in the arrivals hall of Eindhoven Airport, next to the bakery. The desk is staffed daily from 6am "
    "to 11pm.",
]
engine = OfflineGroundedDialogue()


def ask(question: str, titles: list[str]) -> str:
    persona = Persona("Sanne", "", "The desk agent of a car rental at Eindhoven Airport.", {"verbosity": 0.3})
    return engine.compose(DialogueRequest(persona, [Turn("user", question)], knowledge=KNOWLEDGE,
                                          knowledge_relevance=[0.3, 0.24], knowledge_titles=titles))


def test_the_items_name_says_what_its_sentences_are_about() -> None:
    assert "arrivals hall" in ask("Where do I pick the car up?", ["Fleet and prices", "Pick-up"])
    # without the name nothing known says "pick up": an honest "I don't know", not a guess
    assert "arrivals hall" not in ask("Where do I pick the car up?", ["", ""])


def test_a_reduction_is_a_price() -> None:
    assert holds("Any bread left at 3pm is sold at half price.", ["price"])
    assert holds("Students get 10% off every course.", ["price"])
    assert not holds("Half of our students are beginners.", ["price"])

"""Round 16 of the offline answerer: a knowledge item's name says what its sentences are about ("Pick-up" for "our
desk is in the arrivals hall"), a reduction is a price ("sold at half price"), irregular verbs meet their verb
("seen" / "see") and a first appointment is an initial assessment."""

from __future__ import annotations

from avatar_service.adapters.dialogue import OfflineGroundedDialogue
from avatar_service.adapters.dialogue.answer_types import holds
from avatar_service.adapters.dialogue.terms import terms
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


def test_irregular_verbs_meet_their_verb() -> None:
    assert terms("Children under 16 are seen by Dr Vos") == terms("children under 16 are see by Dr Vos")
    assert terms("we took the boat") == terms("we take the boat")
    assert terms("Sat 3 May")[0] != terms("sit")[0]  # a Saturday, not sitting
    assert "bite" not in terms("a bit cheaper")
    assert terms("our hardest room, a cheaper ticket") == terms("our hard room, a cheap ticket")  # degrees
    assert terms("who drove") == terms("who drive") != terms("who eat")  # each verb its own (lines are not joined)
    assert terms("what happens if we get totally stuck?") == terms("what if we get stuck?")  # how it is said


def test_a_first_appointment_is_the_initial_assessment() -> None:
    persona = Persona("Leon", "", "The receptionist at Northgate Physiotherapy.", {"verbosity": 0.3})
    prices = ["An initial assessment with a physiotherapist lasts 45 minutes and costs £65, and follow-up "
              "appointments last 30 minutes and cost £50."]
    reply = engine.compose(DialogueRequest(persona, [Turn("user", "how much is a first appointment?")],
                                           knowledge=prices, knowledge_relevance=[0.5]))
    assert "£65" in reply and "£50" not in reply, reply


def test_the_place_asked_for_by_another_word_for_it() -> None:
    persona = Persona("Kai", "", "A coach at Riverside Fitness.", {"verbosity": 0.3})
    knowledge = ["The gym has a 25-metre swimming pool, a sauna and free lockers. Riverside Fitness is at Kanaalweg 3 "
                 "in Utrecht, above the supermarket."]
    reply = engine.compose(DialogueRequest(persona, [Turn("user", "Where is the gym?")], knowledge=knowledge,
                                           knowledge_relevance=[0.6]))
    assert "Kanaalweg" in reply, reply


def test_what_covers_the_user_is_their_insurance() -> None:
    persona = Persona("Aoife", "", "The receptionist at Northgate Physiotherapy.", {"verbosity": 0.3})
    reply = engine.compose(DialogueRequest(
        persona, [Turn("user", "which insurance am i with again?")],
        knowledge=["We are registered with Bupa, AXA Health and Vitality."], knowledge_relevance=[0.3],
        memories=["User's physio for his torn hamstring is covered by Bupa", "User works as a bus driver"],
        memory_relevance=[0.2, 0.1]))
    assert "Bupa" in reply and reply.startswith("Your"), reply


FARM_SHOP = ["The family meat box costs £45 and feeds four people for a week. All our beef and lamb is reared here on "
             "the farm.", "We sell TENS machines and foam rollers at reception. Colour printing costs 50 cents a page."]


def shop(question: str) -> str:
    persona = Persona("Helen", "", "The manager of Ashby Farm Shop.", {"verbosity": 0.3})
    return engine.compose(DialogueRequest(persona, [Turn("user", question)], knowledge=FARM_SHOP,
                                          knowledge_relevance=[0.4, 0.3]))


def test_a_thing_asked_whether_with_a_word_nothing_known_holds_is_not_known() -> None:
    assert "don't know" in shop("do you sell halal meat?") or "not sure" in shop("do you sell halal meat?")
    assert "£45" in shop("how much is the family meat box?")


def test_a_price_asked_is_said_when_given_or_not_known() -> None:
    assert "50 cents" in shop("how much is colour printing?")
    reply = shop("how much is a TENS machine?")
    assert "TENS machines" not in reply and ("don't know" in reply or "not sure" in reply), reply

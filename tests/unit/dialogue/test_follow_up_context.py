"""Follow-ups that need more than the previous user turn's words: a chain of follow-ups, the subject the last reply
named, a question that names only the kind of answer, a noun that points back, and a sentence of parallel cases
cut to the case asked about."""

from __future__ import annotations

from avatar_service.adapters.dialogue import OfflineGroundedDialogue
from avatar_service.adapters.dialogue.answer_types import holds
from avatar_service.adapters.dialogue.follow_up_context import (
    answered_someone,
    asks_another,
    kind_only,
    pointing_nouns,
    points_back,
    reply_terms,
    topic_turns,
)
from avatar_service.adapters.dialogue.narrowing import one_case
from avatar_service.adapters.dialogue.terms import terms
from avatar_service.ports.dialogue import DialogueRequest, Persona, Turn

GROOMER = [
    "A full groom for a small dog (up to 10 kg) costs £38, for a medium dog (10 to 25 kg) £48 and for a large dog "
    "(over 25 kg) £62. A full groom includes a bath, a blow-dry, a haircut, a nail clip and an ear clean, and takes "
    "about two and a half hours. A nail clip on its own costs £8 and needs no appointment.",
    "We groom cats on Thursdays only, when the salon is quiet, and a cat groom costs £55. We never sedate animals.",
    "Our hand-stripping specialist, Marek Nowak, works Wednesday to Saturday. Hand-stripping for wire-haired breeds "
    "such as terriers costs £20 on top of the groom price. Please give us at least 48 hours' notice if you cancel, "
    "or we charge half the price of the groom.",
    "The salon is open Tuesday to Saturday from 8:30am to 5pm. Muddy Paws was opened in 2015 by Rachel Dunn.",
]
OPTICIAN = [
    "We are open Monday to Friday from 9am to 5:30pm and on Saturday from 9am to 4pm, and closed on Sunday.",
    "Contact lens fittings are done by Lucy Marsh, our contact lens optician, on Tuesdays and Thursdays.",
]
PLUMBER = [
    "A standard visit during working hours costs £65 and includes the first 30 minutes of work.",
    "Our emergency line, 0117 496 0382, is answered 24 hours a day. An emergency visit in the evening, at night or at "
    "the weekend costs £120.",
]
engine = OfflineGroundedDialogue()


def converse(knowledge: list[str], questions: list[str], memories: tuple[str, ...] = ()) -> list[str]:
    """Each question asked in turn, with the replies before it as the history."""
    persona = Persona("Niamh", "", "Works at a shop.", {"verbosity": 0.3})
    history: list[Turn] = []
    replies = []
    for question in questions:
        history.append(Turn("user", question))
        reply = engine.compose(DialogueRequest(persona, list(history), knowledge=knowledge, memories=list(memories)))
        history.append(Turn("assistant", reply))
        replies.append(reply)
    return replies


def test_a_sentence_of_parallel_cases_is_cut_to_the_case_asked_about() -> None:
    groom = GROOMER[0].split(". ")[0] + "."
    assert one_case(groom, set(terms("a full groom on a big dog")), set(), ["price"]) == \
        "A full groom for a large dog (over 25 kg) costs £62."  # the verb the first case said it with, given back
    assert one_case(groom, set(terms("a little one")), set(), ["price"]) == \
        "A full groom for a small dog (up to 10 kg) costs £38."
    assert one_case(groom, set(terms("a full groom")), set(), ["price"]) == groom  # no case named
    # a follow-up naming no case is about the case the turn before named; what a case goes on to say is left out
    assert one_case(OPTICIAN[0], set(terms("close that day")), set(terms("Are you open on Saturdays?")),
                    ["clock"]) == "We are open on Saturday from 9am to 4pm."
    assert one_case(OPTICIAN[0], set(), set(), ["clock"]) == OPTICIAN[0]


def test_the_case_asked_about_answers_and_its_follow_up() -> None:
    big, small = converse(GROOMER, ["how much for a full groom on a big dog?", "and a little one?"])
    assert "£62" in big and "£38" not in big, big
    assert "£38" in small and "£62" not in small, small


def test_a_follow_up_of_a_follow_up_keeps_the_first_ones_subject() -> None:
    chain = ["how much for a full groom on a big dog?", "and a little one?", "how long does it take?"]
    assert topic_turns(chain[:2]) == ["and a little one?", "how much for a full groom on a big dog?"]
    assert topic_turns(["What time do you open?", "how much is a groom?"]) == ["how much is a groom?"]
    assert holds("It takes about two and a half hours.", ["duration"])
    assert "two and a half hours" in converse(GROOMER, chain)[-1]


def test_pointing_back_borrows_the_subject_the_reply_named() -> None:
    said = "Hand-stripping for wire-haired breeds such as terriers costs £20 on top of the groom price."
    subject, echoed = reply_terms(said, GROOMER[2].split(". "))
    assert {"hand", "strip", "terrier"} <= subject.keys() and "20" not in subject and len(echoed) == 1
    assert reply_terms("I don't know about that. I can help with prices.", GROOMER[2].split(". ")) == ({}, frozenset())
    assert "Marek" in converse(GROOMER, ["How much is hand-stripping for a terrier?", "who does that?"])[-1]


def test_a_question_of_only_a_kind_is_a_follow_up() -> None:
    assert kind_only("which day?", {}, ["time"]) and kind_only("who does that?", {}, ["person"])
    assert not kind_only("where are you?", {}, ["place"])  # asked anew of the place
    assert not kind_only("which day is the cat groom?", {"cat": 1.0, "groom": 1.0}, ["time"])
    assert "Thursday" in converse(GROOMER, ["Do you groom cats as well?", "which day?"])[-1]


def test_a_noun_after_that_points_back() -> None:
    assert pointing_nouns("how much is a call-out at that hour?") == {"hour"}
    assert pointing_nouns("what time do you close that day?") == {"day"}
    assert pointing_nouns("is that free?") == set()  # said of it, not pointing at it
    reply = converse(PLUMBER, ["Is your emergency line answered in the middle of the night?",
                               "how much is a visit at that hour?"])[-1]
    assert "£120" in reply and "£65" not in reply, reply


def test_it_points_back_only_without_a_subject_of_its_own() -> None:
    assert points_back("how long does it take?", {"take": 0.3})
    assert not points_back("How much is it to get a plumber out?", {"plumber": 1.0})
    assert points_back("how much does that cost?", {})
    assert asks_another("can I leave later than that?") and not asks_another("what time is that?")
    assert "Who'll" not in " ".join(terms("Who'll be doing it?")) and terms("Who'll be doing it?") == []


def test_she_after_an_answer_naming_someone_is_that_person() -> None:
    assert answered_someone("My wife wears contacts, who does the fittings?", OPTICIAN[1])
    assert not answered_someone("How much is a fitting?", "A fitting costs £35.")
    reply = converse(OPTICIAN, ["My wife wears contacts, who does the fittings?", "which days is she in?"],
                     memories=("User's wife Margaret wears daily contact lenses",))[-1]
    assert "Tuesday" in reply and "Margaret" not in reply, reply

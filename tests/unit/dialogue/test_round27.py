"""Round 27 of the offline answerer: a list of priced kinds ends where a clause of its own begins ("..., and children
under 4 swim free with a paying adult" names no adult's price); "what number do I ring?" asks for a contact, and "the number for that?" after "by WhatsApp"
is the WhatsApp number, though the memory the last reply said holds none."""

from __future__ import annotations

from avatar_service.adapters.dialogue.answer_types import wanted
from avatar_service.adapters.dialogue.narrowing import one_contact, one_kind

from .test_round24 import ask

SWIM = ("A casual swim costs £5.20 for adults, £3.10 for juniors aged 4 to 16 and £3.80 for over-65s, and children "
        "under 4 swim free with a paying adult.")


def test_a_list_of_kinds_ends_where_a_clause_of_its_own_begins() -> None:
    assert one_kind(SWIM, {"adult", "swim"}, "how much is it for a grown-up to go swimming?", ["price"]) == \
        "A casual swim costs £5.20 for adults."
    assert one_kind(SWIM, {"junior", "swim"}, "how much is it for a junior?", ["price"]) == \
        "It's £3.10 for juniors aged 4 to 16."
    # the clause after the list is still a case of its own, found by the age asked about
    assert one_kind(SWIM, {"child"}, "how much is it for my 3 year old?", ["price"], [3]) == \
        "Children under 4 swim free with a paying adult."


def test_a_threshold_inside_the_list_still_keeps_the_sentence_whole() -> None:
    sentence = ("Our units range from 10 square feet for £18 a week, up to 200 square feet for £62 a week, and our "
                "most popular 50 square foot unit costs £29 a week.")
    assert one_kind(sentence, {"unit"}, "how much is a unit?", ["price"]) == sentence


PLUMBER = [
    "An emergency call-out in the evening, at night or at the weekend costs £120. Our emergency line, 0117 496 0382, "
    "is answered 24 hours a day, every day of the year.",
    "The office number is 0117 496 0215. We aim to reach homes in Bristol within 2 hours.",
]


def test_the_number_to_ring_asks_for_a_contact() -> None:
    assert wanted("what number do I ring?") == ["contact"]
    assert wanted("whats the number for that?") == ["contact"]
    assert "contact" not in wanted("what's the number of people allowed?")
    reply = ask("A plumber.", PLUMBER, [0.4, 0.3], "what number do I ring in an emergency?")
    assert "0382" in reply, reply


def test_the_contact_whose_way_of_use_was_named() -> None:
    sentence = "You can book on 01524 380 412 or by WhatsApp on 07700 914 233."
    assert one_contact(sentence, {"whatsapp"}) == "You can book by WhatsApp on 07700 914 233."
    assert one_contact(sentence, {"book"}) == sentence  # (names no one way)
    memories = ["Fiona prefers to be contacted by WhatsApp", "Fiona lives in Morecambe"]
    reply = ask("The owner of a pest control firm.", [sentence, "Treating a wasp nest costs £60."], [0.3, 0.2],
                "how did i say i like to be contacted?", "whats the number for that?",
                memories=(memories, [0.5, 0.1]))
    assert "07700" in reply and "01524" not in reply, reply


STORAGE = [
    "We take in deliveries for business customers during office hours, but we don't accept parcels for household "
    "customers. We sell boxes from £2.50 each, tape, bubble wrap and mattress covers in the office.",
    "Our partner, Swindon Man and Van, collects your things from £45 an hour for a van and two people.",
]


def test_what_the_user_told_weighs_little_beside_what_they_ask() -> None:
    reply = ask("The manager of a self-storage centre.", STORAGE, [0.4, 0.3],
                "my husband needs somewhere for his tools and stock, do you do anything for businesses?")
    assert "business customers" in reply, reply

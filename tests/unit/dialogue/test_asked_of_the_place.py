"""Round 19 of the offline answerer: questions asked of the place although they say "I" or "my" ("is there anyone
to shift my stuff?", "do I actually have to insure it?"), "what's the address?" asked anew after another topic, a
phone that is a device, not a number, and words for the same thing (a warranty is a guarantee, shutting is closing)."""

from __future__ import annotations

from avatar_service.adapters.dialogue.answer_types import wanted
from avatar_service.adapters.dialogue.terms import terms
from avatar_service.adapters.dialogue.user_facts import about_user, asks_permission
from avatar_service.ports.dialogue import Persona

from .conversation import last_reply

STORAGE = [
    "Keepsafe Self Storage is at Unit 4, Kembrey Park, Swindon SN2 8UY. Amazon parcels can be sent to us for business "
    "customers, and we take deliveries during office hours.",
    "Our partner, Swindon Man and Van, run by Lee Parsons, collects your things from £45 an hour. Everything you store "
    "must be insured, either by your own policy or by our cover from £2.50 a week.",
    "Every repair comes with a 12-month warranty on parts and labour.",
]


def ask(*questions: str) -> str:
    persona = Persona("Joy", "", "The manager of Keepsafe Self Storage in Swindon.", {"verbosity": 0.3})
    return last_reply(persona, questions, STORAGE, [0.3, 0.3, 0.2], ["User rents a 50 square foot unit, number 112"],
                      [0.2])


def test_asked_of_the_place_though_it_says_my() -> None:
    assert about_user("is there anyone you'd recommend to shift my stuff?") == 0.0
    assert asks_permission("do i actually have to insure what i put in there?")
    assert about_user("what phone did i say i've got again?") == 1.0


def test_the_address_is_asked_anew_after_another_topic() -> None:
    reply = ask("can amazon send parcels to you?", "what's the address?")
    assert "Kembrey Park" in reply and "unit, number 112" not in reply, reply


def test_a_phone_asked_about_is_a_device_not_a_number() -> None:
    assert wanted("what phone did i say i've got again?") == []
    assert wanted("which phone models do you fix?") == []
    assert wanted("what's your phone number?") == ["contact"]


def test_words_for_the_same_thing() -> None:
    assert "12-month" in ask("and is there a guarantee on the repair?")
    assert terms("when do you shut?") == terms("when do you close?")

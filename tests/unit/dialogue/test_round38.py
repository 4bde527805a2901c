"""Round 38 of the offline answerer: what a blind split (heldout40: a butcher, a milk round, a carpet cleaner) found
wrong, tested here on a business of its own: a number one can ring asks for it (not whether there is one), "how close"
asks a distance (not a closing time), a thing the user has described in several words is still the thing ("a brown
leather corner sofa" for "my sofa"), and what a thing is said to be without is no "no"."""

from __future__ import annotations

from avatar_service.adapters.dialogue.answer_types import is_yes_no, wanted

from .test_round24 import ask

GUTTERS = [
    "Clearflow Gutters is run by Mo Aziz from Unit 2, Canal Wharf, Stone. Ring Mo on 01785 330 214 from 8am to 5pm.",
    "We clear gutters with a vacuum pole from the ground, with no ladders against your walls.",
    "The van has to park within 25 metres of the house, because of the length of our hoses.",
    "We don't work on thatched roofs, conservatory roofs or anything above three storeys.",
    "Gutter clearing is £60 for a terraced house and £85 for a detached house.",
]


def ask_the_gutter_firm(*questions: str) -> str:
    memories = ["User has a big old four-storey Victorian townhouse", "User's dog Mabel barks at vans"]
    return ask("A gutter cleaning firm.", GUTTERS, [0.3, 0.4, 0.3, 0.3, 0.3], *questions,
               memories=(memories, [0.2, 0.2]))


def test_a_number_one_can_ring_is_asked_for() -> None:
    assert wanted("is there a number i can ring?") == ["contact"]
    assert not is_yes_no("is there a number i can ring?") and not is_yes_no("have you got an email address?")
    reply = ask_the_gutter_firm("is there a number i can ring?")
    assert "01785 330 214" in reply, reply


def test_how_close_asks_a_distance_not_a_closing_time() -> None:
    assert wanted("how close do you need to park?") == ["distance"]
    assert wanted("when do you close?") == ["clock"]
    reply = ask_the_gutter_firm("how close do you need to park?")
    assert "25 metres" in reply, reply


def test_a_thing_the_user_has_described_in_several_words() -> None:
    reply = ask_the_gutter_firm("could you do my townhouse?")
    assert reply.startswith("No, ") and "three storeys" in reply, reply


def test_what_a_thing_is_without_is_no_no() -> None:
    reply = ask_the_gutter_firm("do you clear gutters from the ground?")
    assert not reply.startswith("No"), reply

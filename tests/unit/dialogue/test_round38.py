"""Round 38 of the offline answerer: what a blind split (heldout40: a butcher, a milk round, a carpet cleaner) found
wrong, tested here on a business of its own: a number one can ring asks for it (not whether there is one), "how close"
asks a distance (not a closing time), a thing the user has described in several words is still the thing ("a brown
leather corner sofa" for "my sofa"), what a thing is said to be without is no "no", delivering to someone is covering
where they live, plant-based is what a vegan has, "how do i stop ..." asks the place, quid are pounds and spending is
ordering."""

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


VEG_BOXES = [
    "Green Lane Boxes delivers organic veg boxes on Tuesdays from our farm at Wetton.",
    "We cover Leek, Cheddleton and Ipstones; we don't go out to Buxton or Ashbourne.",
    "A small veg box is £14 and a large one £21. We also sell soya milk and plant-based cheese.",
    "If you're away, pause your boxes in your account at least 3 days before.",
    "Delivery is free on orders over £30; under £30 it's £3.",
]


def ask_the_veg_box_scheme(*questions: str) -> str:
    memories = ["User's brother Sam lives in Buxton", "User's wife Jo is vegan", "User lives in Leek"]
    return ask("An organic veg box scheme.", VEG_BOXES, [0.4, 0.3, 0.3, 0.3, 0.3], *questions,
               memories=(memories, [0.2, 0.2, 0.2]))


def test_delivering_to_someone_is_covering_where_they_live() -> None:
    reply = ask_the_veg_box_scheme("what about my brother, could you deliver to him?")
    assert "Buxton" in reply, reply


def test_plant_based_is_what_a_vegan_has() -> None:
    reply = ask_the_veg_box_scheme("have you got anything my wife could have as well?")
    assert "soya milk" in reply, reply


def test_how_do_i_stop_something_asks_the_place() -> None:
    reply = ask_the_veg_box_scheme("we're off to spain, how do i stop the boxes?")
    assert "pause" in reply, reply


def test_quid_are_pounds_and_spending_is_ordering() -> None:
    reply = ask_the_veg_box_scheme("is delivery free?")
    assert reply.startswith("Yes, delivery is free"), reply  # (a word of English keeps no capital after "Yes, ")
    reply = ask_the_veg_box_scheme("is delivery free?", "and if i only spend about 20 quid?")
    assert "£3" in reply, reply

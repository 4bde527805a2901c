"""Round 34 of the offline answerer: what a blind split (heldout35: a mobile bicycle repair van, a children's
swimming school, a marquee hire firm) found wrong, tested here on businesses of their own: a person named with a
possessive ("priya's mower"), a battery's charge that is no price, a thing told of someone before the question
("her battery isn't holding its charge, can you sort that?"), the user's area as their home, the age a memory gives
someone weighed against ranges ("children aged 3 and 4"), and everyday words of the round."""

from __future__ import annotations

from avatar_service.adapters.dialogue.age_limits import age_fit
from avatar_service.adapters.dialogue.answer_types import wanted
from avatar_service.adapters.dialogue.told_cases import memories_named
from avatar_service.adapters.dialogue.user_facts import asked_part
from avatar_service.adapters.dialogue.yes_or_no import lower_first

from .test_round24 import ask

MOWERS = [
    "Greenblade is a mobile mower repair service run by Tom Price from a workshop van, so we fix your mower on your "
    "drive. We cover all of Leeds within the LS1 to LS8 postcodes at no extra charge. Villages up to eight miles out, "
    "such as Otley and Wetherby, carry a £12 call-out fee.",
    "A basic service costs £55 and covers sharpening the blade and changing the oil. A full service costs £95 and adds "
    "a strip-down and clean of the engine and the deck. We service cordless mowers too, but we can't repair their "
    "batteries, so those go back to the maker. Ride-on mowers are fine, but they need a longer slot.",
    "Before we quote for a big garden, we'll do a free site visit to measure up. The balance is due on the day, and "
    "we don't take cash. We don't sell grass seed or compost, but we can pass on the details of a local garden centre.",
    "Fitting parts you've bought yourself is charged at £40 an hour. Fancy something simpler? Our blade-only "
    "sharpening costs £20.",
]
MOWER_MEMORIES = [
    "User lives on Harehills Lane in Leeds, LS8 4DT",
    "User's neighbour Priya has a cordless mower with a 36-volt battery",
    "User's dad Ken lives in Otley and has a ride-on mower",
]


def ask_the_mower_man(*questions: str) -> str:
    return ask("The owner of a mobile mower repair service.", MOWERS, [0.3, 0.3, 0.3, 0.3], *questions,
               memories=(MOWER_MEMORIES, [0.2, 0.2, 0.2]))


def test_a_person_named_with_a_possessive_is_the_memory_naming_them() -> None:
    assert memories_named("can you do priya's mower then?", MOWER_MEMORIES, frozenset())[0] == [1]
    reply = ask_the_mower_man("do you service cordless mowers?", "can you do priya's mower then?")
    assert "cordless" in reply, reply


def test_a_battery_holding_its_charge_is_no_price() -> None:
    assert "price" not in wanted("her battery isn't holding its charge")
    assert "price" not in wanted("how long does a full charge last?")
    assert "price" in wanted("do you charge for that?") and "price" in wanted("is there a charge for parking?")


def test_told_of_someone_then_asked_is_the_question() -> None:
    assert asked_part("her battery isn't holding its charge, can you sort that?") == "can you sort that?"
    assert asked_part("oscar was sick last night, can he still come today?") == "can he still come today?"
    reply = ask_the_mower_man("can you do priya's mower then?", "her battery isn't holding its charge, can you sort "
                                                                  "that?")
    assert "batteries" in reply, reply


def test_the_users_area_is_their_home() -> None:
    reply = ask_the_mower_man("do you come out to my area?")
    assert "LS1 to LS8" in reply, reply


def test_what_about_someones_place_is_asked_for_them() -> None:
    reply = ask_the_mower_man("where do you cover?", "what about my dad's place, would that cost extra?")
    assert "£12" in reply, reply


def test_a_question_the_text_asks_its_reader_is_no_answer() -> None:
    reply = ask_the_mower_man("fancy anything simpler?")
    assert "Fancy something simpler?" not in reply, reply


def test_a_difference_asks_about_what_it_names() -> None:
    reply = ask_the_mower_man("how much is a service?", "what's the difference with the full one?")
    assert "£95" in reply, reply


def test_everyday_words_of_the_round() -> None:
    assert "site visit" in ask_the_mower_man("do you come and look at the garden first?")
    assert "balance" in ask_the_mower_man("when do we pay the rest?")
    reply = ask_the_mower_man("do you sell compost as well?")
    assert reply.startswith("No"), reply


def test_a_yes_or_no_question_with_words_of_its_own_borrows_no_kind() -> None:
    reply = ask_the_mower_man("what about my dad's place, would that cost extra?", "and can you work on his ride-on?")
    assert "Ride-on" in reply or "ride-on" in reply, reply
    assert wanted("what's included in that?") == ["list"]


SWIMMING = [
    "Children aged 3 and 4 go into Tadpoles, which has four children per teacher and lasts 30 minutes.",
    "From age 5 up to 11, children join our Stage 1 to 7 group lessons, with up to six children per teacher.",
    "One-to-one lessons are available for ages 4 to 11 and last 20 minutes.",
    "We don't teach anyone aged 12 or over.",
    "The pool is kept at 31 degrees, and children who have been sick must stay out of the pool for 48 hours.",
    "For children who find noise hard, we run a quiet class on Saturdays at 8:30am with the music turned off.",
]
SWIM_MEMORIES = ["User's son Oscar is 4", "User's nephew Jack is 13", "User's daughter Isla is autistic"]


def ask_the_swim_school(*questions: str) -> str:
    return ask("The owner of a swimming school.", SWIMMING, [0.3] * 6, *questions,
               memories=(SWIM_MEMORIES, [0.2, 0.2, 0.2]))


def test_an_age_range_that_names_the_age_fits_best() -> None:
    assert age_fit("From age 5 up to 11, children join our group lessons.", [13]) == -1.0
    assert age_fit(SWIMMING[0], [4]) > age_fit(SWIMMING[2], [4]) > age_fit("Our under-12 team plays on Sundays.", [4])
    assert "Tadpoles" in ask_the_swim_school("which class would oscar go in?")
    reply = ask_the_swim_school("my nephew wants lessons too, could he join?")
    assert reply.startswith("No"), reply


def test_told_of_a_child_then_asked_of_him() -> None:
    assert "48 hours" in ask_the_swim_school("oscar was sick last night, can he still come today?")
    assert "31 degrees" in ask_the_swim_school("how warm is the pool?")
    assert "quiet" in ask_the_swim_school("is there anything for isla that isn't so loud?")


BIKES = [
    "A standard service costs £65, and a full service costs £120.",
    "Children's bikes with wheels of 20 inches or smaller get our kids' service for £35.",
]


def test_a_sentence_for_children_answers_for_a_child_whose_age_a_memory_gives() -> None:
    reply = ask("The owner of a bike repair van.", BIKES, [0.3, 0.3], "what would it cost to service ella's bike?",
                memories=(["User's daughter Ella is 7 and rides a bike with 16-inch wheels"], [0.2]))
    assert "£35" in reply, reply


def test_after_yes_or_no_a_plural_or_a_doing_is_no_name() -> None:
    assert lower_first("Villages up to 10 miles out carry a £12 call-out fee.") == \
        "villages up to 10 miles out carry a £12 call-out fee."
    assert lower_first("Smoking isn't allowed anywhere on site.").startswith("smoking")
    assert lower_first("Chair covers only fit the folding chairs.", "We hire chairs.").startswith("chair")
    assert lower_first("James runs the workshop.").startswith("James")
    assert lower_first("King Street is a short walk away.").startswith("King")
    assert lower_first("Reading is 10 miles away.", "We cover Reading and Woking.").startswith("Reading")
    reply = ask_the_mower_man("where do you cover?", "what about my dad's place, would that cost extra?")
    assert reply.startswith("Yes, villages"), reply


def test_a_part_standing_in_the_water_and_a_problem() -> None:
    reply = ask("The owner of a bike repair van.", [*BIKES, "Fitting parts you've bought yourself is charged at £40 an "
                                                            "hour."], [0.3, 0.3, 0.3],
                "i bought a new saddle online, can you fit it for me?")
    assert "£40" in reply, reply
    assert "can't touch the bottom" in ask("The owner of a swimming school.", [
        "The pool is 1.2 metres deep all the way along, so most children under 8 can't touch the bottom.",
        "Lessons run on Saturdays."], [0.3, 0.3], "will oscar be able to stand up in it?",
        memories=(["User's son Oscar is 4"], [0.2]))
    reply = ask("The owner of a marquee hire firm.", [
        "Please tell us about any septic tanks, because our stakes go nearly a metre into the ground.",
        "We need a flat, level lawn."], [0.3, 0.3], "is the septic tank going to be a problem?",
        memories=(["User's parents' farm has a septic tank under the main lawn"], [0.4]))
    assert "stakes" in reply, reply

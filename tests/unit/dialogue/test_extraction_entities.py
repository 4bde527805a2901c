"""Memory extraction as people type, and one memory per person or change (core/memory/normalise.py,
entities.py, background.py): sentences written for these tests, none taken from the eval splits."""

from __future__ import annotations

import pytest

from avatar_service.core.memory.dedup import Candidate, decide
from avatar_service.core.memory.normalise import normalise, sentences_of

from .extracted import facts


@pytest.mark.parametrize(("typed", "read"), [
    ("i wanna learn to swim", "I want to learn to swim"),
    ("my dog's 9 yrs old", "my dog's 9 years old"),
    ("a 3 yr old spaniel", "a 3-year-old spaniel"),
    ("my husbands a plumber", "my husband's a plumber"),
    ("her name's Tilly", "her name is Tilly"),
    ("we don't really eat meat", "we don't eat meat"),
    ("cant do mondays u see", "can't do Mondays you see"),
])
def test_text_is_normalised_before_the_rules_read_it(typed: str, read: str) -> None:
    assert normalise(typed) == read


def test_a_sentence_that_goes_on_in_lower_case_is_cut_but_not_after_a_short_form() -> None:
    assert sentences_of("i walk everywhere now. do you sell rain covers?") == [
        "i walk everywhere now.", "do you sell rain covers?"]
    assert sentences_of("I live on Park Rd. near the school") == ["I live on Park Rd. near the school"]


def test_everything_said_about_one_person_or_pet_is_one_memory() -> None:
    assert facts("can I bring my rabbit? he's called Bun, 6 years old and a bit shy") == [
        ("User's rabbit Bun is 6 years old and a bit shy", "relationship")]
    assert facts("i need a helmet for my son", "he's 9, small for his age, his name's Arlo") == [
        ("User's son Arlo is 9 years old and small for his age", "relationship")]
    assert facts("My gran's 91 and uses a wheelchair, is there step-free access?") == [
        ("User's gran is 91 years old and uses a wheelchair", "relationship")]
    assert facts("we always bring our spaniel, Maple") == [("User always brings their spaniel Maple", "relationship")]
    assert facts("For me and my three kids, Noah (12), Ivy (8) and Max (5)") == [
        ("User's three kids Noah, Ivy and Max are 12, 8 and 5 years old", "relationship")]


def test_a_wish_about_this_visit_is_no_fact_but_the_age_said_with_it_is() -> None:
    assert facts("my cousin Ben wants to join the climbing class with me, he's 15 is that ok?") == [
        ("User's cousin Ben is 15 years old", "relationship")]


@pytest.mark.parametrize(("said", "expected"), [
    ("i work from home as a data analyst, any evening slots?", ("User works from home as a data analyst", "personal")),
    ("We're coming to Bath 3-5 May for my birthday, any rooms left?",
     ("User is coming to Bath 3-5 May for their birthday", "schedule")),
    ("I'll be coming in my Skoda, is there parking?", ("User drives a Skoda", "context")),
    ("budget's about 300 quid", ("User's budget is about 300 quid", "context")),
    ("My physio referred me for a scan", ("User was referred by their physio", "context")),
    ("i live just off the High St, do you deliver?", ("User lives just off the High St", "location")),
    ("Fridays are choir so not friday please", ("User has choir on Fridays", "schedule")),
    ("i speak spanish and a little italian", ("User speaks Spanish and a little Italian", "personal")),
    ("do you fix road bikes? mine's a Trek and the gears slip", ("User's road bike is a Trek", "personal")),
    ("my husband and I are both coeliac", ("User is coeliac", "personal")),
    ("my partner's Danish so we go to Copenhagen a lot", ("User's partner is Danish", "relationship")),
])
def test_facts_told_as_background_to_a_request(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


def test_a_change_said_with_what_it_replaces_is_one_memory_that_revises_the_old_one() -> None:
    assert facts("i left the bank in june, i'm a driving instructor now") == [
        ("User is now a driving instructor, having left the bank in June", "personal")]
    assert decide("User is now a driving instructor, having left the bank in June",
                  [Candidate("m1", "User works as a cashier at the bank", 0.3)]).action == "update"
    assert facts("sold the van last month, i walk everywhere now") == [
        ("User now walks everywhere, having sold the van last month", "personal")]
    assert decide("User now walks everywhere, having sold the van last month",
                  [Candidate("m2", "User drives a Ford van", 0.3)]).action == "update"
    assert facts("weekends don't suit me anymore, weekdays are much better") == [
        ("User now prefers weekdays to weekends", "schedule")]
    assert decide("User now prefers weekdays to weekends",
                  [Candidate("m3", "User prefers weekend sessions", 0.3)]).action == "update"


def test_a_pet_that_died_revises_the_memory_that_names_it() -> None:
    assert facts("sadly Pepper died last month so we won't need the dog room this time") == [
        ("User lost Pepper last month", "relationship")]
    assert decide("User lost Pepper last month", [Candidate("m1", "User has a dog named Pepper", 0.3)]).action == \
        "update"


@pytest.mark.parametrize("said", [
    "wanna grab a table for 2 at 7?", "is the pool heated? my kids wanna know lol", "i'm just browsing tbh",
    "My friend's daughter is 10, can she join?", "I'm 5 minutes away", "we'd like two rooms for the 14th please",
    "my train is delayed so i'll be 20 mins late", "she's 4, does she need a ticket?", "I'm calling about my order",
    "I'll be driving so no wine for me tonight", "my husband will pick it up on Sunday", "We'll be there around 6",
])
def test_chit_chat_typed_fast_states_nothing(said: str) -> None:
    assert facts(said) == []


def test_what_a_question_says_of_the_asker() -> None:
    assert facts("could we move to evenings from now on? mornings don't suit me anymore") == [
        ("User now prefers evenings to mornings", "schedule")]
    assert facts("how much are the beginner japanese classes?") == [("User wants to learn Japanese", "context")]
    assert facts("Is the tour in English?", "Do you have staff who speak Polish?") == []


def test_a_but_that_qualifies_stays_with_what_it_qualifies() -> None:
    assert facts("I'm vegan but I eat honey") == [("User is vegan but eats honey", "preference")]
    assert facts("I live in Leeds but work in York") == [("User lives in Leeds", "location"),
                                                          ("User works in York", "personal")]


def test_a_new_age_said_later_replaces_the_old_one_and_a_name_alone_can_say_it() -> None:
    assert facts("My son Jack is 6.", "Jack turned 7 today, can he move up?") == [
        ("User's son Jack is 7 years old", "relationship")]
    assert decide("User's Rory turned 5 on Sunday", [Candidate("m1", "User's son Rory is 4", 0.4)]).action == "update"
    assert facts("I have a fish tank with three goldfish") == [
        ("User has a fish tank with three goldfish", "relationship")]


def test_more_background_and_changes() -> None:
    assert facts("i teach art at a primary school so only after 4 for me please") == [
        ("User teaches art at a primary school", "personal"), ("User can only come after 4", "schedule")]
    assert facts("gone veggie since new year") == [("User is now veggie", "preference")]
    assert decide("User is now veggie", [Candidate("m1", "User is vegan", 0.4)]).action == "update"
    assert facts("sold my van, i get the bus in now") == [
        ("User now gets the bus in, having sold their van", "personal")]
    assert decide("User now gets the bus in, having sold their van",
                  [Candidate("m2", "User drives a white Transit van", 0.3)]).action == "update"
    assert decide("User is now a student, having quit their job at the garage in May",
                  [Candidate("m3", "User works at a garage", 0.3)]).action == "update"
    assert facts("its for my 90 yr old nan, she has arthritis") == [
        ("User's 90-year-old nan has arthritis", "relationship")]
    assert facts("my driving test's on the 4th of May") == [("User has their driving test on the 4th of May",
                                                             "schedule")]
    assert facts("mondays are impossible now with work") == [("User can't do Mondays", "schedule")]
    assert facts("I left my keys at home, can you let me in?") == []


def test_a_second_probe_of_new_phrasings() -> None:
    assert facts("do you take rabbits?", "she's a lop, 3 years old, called Daisy, and she's deaf") == [
        ("User's rabbit Daisy is a lop, 3 years old and deaf", "relationship")]
    assert facts("my youngest Alfie starts school in September") == [
        ("User's youngest child Alfie starts school in September", "relationship")]
    assert facts("i got a new job at Boots, i start next week") == [
        ("User works at Boots, starting next week", "personal")]
    assert decide("User works at Boots, starting next week", [Candidate("m1", "User works at Asda", 0.3)]).action == \
        "update"
    assert facts("i drive a cab at night so mornings are best") == [
        ("User works as a cab driver at night", "personal"), ("User prefers mornings", "schedule")]
    assert facts("my boss is sending me to Oslo on the 3rd, can I pause?") == [
        ("User is going to Oslo on the 3rd", "schedule")]
    assert facts("we split up last month") == [("User split up with their partner last month", "relationship")]
    assert decide("User split up with their partner last month",
                  [Candidate("m2", "User's girlfriend is named Amy", 0.3)]).action == "update"
    assert facts("I'm not vegan anymore btw") == [("User is no longer vegan", "preference")]
    assert facts("hi, it's Tom, can I book a lesson?") == [("User's name is Tom", "personal")]
    assert facts("the kids are 5 and 8 now") == [("User's kids are 5 and 8", "relationship")]

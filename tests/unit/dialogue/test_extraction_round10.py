"""Memory extraction, round 10: everyday idioms put the way the rules read them (core/memory/idioms.py): a name in
lower case before who they are in brackets, "X and I broke up", "been seeing a guy called X", "packed in" a job,
a pet "picked up", news after "found out", "nothing beats X", a trip booked with friends, a job "on the tills at X",
an activity taken up with its days, a home rented just outside a place typed in lower case."""

from __future__ import annotations

import pytest

from avatar_service.core.memory.dedup import Candidate, decide
from avatar_service.core.memory.idioms import rewrite

from .extracted import facts


@pytest.mark.parametrize(("said", "expected"), [
    ("lily (my niece) is 6", ("User's niece Lily is 6 years old", "relationship")),
    ("omar (my youngest) has just started nursery", ("User's youngest child Omar has just started nursery",
                                                     "relationship")),
])
def test_a_lower_case_name_before_who_they_are_in_brackets_is_their_name(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


def test_a_pronoun_before_brackets_is_no_name() -> None:
    assert facts("she (my daughter) is 5") == [("User's daughter is 5 years old", "relationship")]


@pytest.mark.parametrize(("said", "expected"), [
    ("sam and i split up", ("User split up with Sam", "relationship")),
    ("priya and i broke up in march, 3 years together",
     ("User broke up with Priya in March, 3 years together", "relationship")),
])
def test_a_couple_said_as_x_and_i_breaking_up_keeps_the_partners_name(said: str, expected: tuple[str, str]) -> None:
    assert facts(said) == [expected]


def test_a_break_up_takes_back_the_partners_name() -> None:
    decision = decide("User broke up with Priya in March", [Candidate("m1", "User's girlfriend is called Priya", 0.4)])
    assert decision.action == "update"


def test_someone_being_seen_is_a_partner_and_what_follows_is_about_them() -> None:
    assert facts("been dating a girl called Niamh for a few weeks, she's a nurse at the royal") == [
        ("User's girlfriend Niamh is a nurse at the royal", "relationship")]


@pytest.mark.parametrize(("said", "expected"), [
    ("packed in my job at the bank", "quit my job at the bank"),
    ("jacked in nursing last year", "quit nursing last year"),
    ("we brought home a rescue greyhound called Dot", "we got a rescue greyhound called Dot"),
    ("found out today my dad is diabetic", "my dad is diabetic"),
    ("nothing beats a cold pint after a long walk", "I love a cold pint after a long walk"),
    ("going tues and thurs", "going Tuesdays and Thursdays"),
])
def test_idioms_are_put_in_the_words_the_rules_read(said: str, expected: str) -> None:
    assert rewrite(said) == expected


@pytest.mark.parametrize("said", ["picked up a cold off the kids", "me and the girls are going out tonight",
                                  "I left work early", "spent a week in bed with flu", "found out my results"])
def test_everyday_words_after_the_cues_stay_as_they_are(said: str) -> None:
    assert rewrite(said) == said


@pytest.mark.parametrize(("said", "place"), [
    ("we finally left leeds!", "Leeds"),
    ("renting a flat just outside york", "York"),
    ("booked a long weekend in lisbon", "Lisbon"),
])
def test_a_lower_case_place_after_a_word_that_says_a_place_follows_is_capitalised(said: str, place: str) -> None:
    assert place in rewrite(said)


def test_a_home_rented_near_a_place_after_leaving_another_is_one_move() -> None:
    assert facts("we left leeds in march", "renting a flat near york now") == [
        ("User is renting a flat near York, having left Leeds in March", "location")]


def test_a_home_rented_revises_where_the_user_lived() -> None:
    assert decide("User is renting a flat near York", [Candidate("m1", "User lives in Leeds", 0.4)]).action == "update"


def test_a_trip_booked_with_friends_is_the_users_plan_with_its_date() -> None:
    assert facts("me and 2 of my mates have booked a week in ibiza, flying out 9th august") == [
        ("User has booked a week in Ibiza, flying out 9th August", "schedule")]


def test_a_job_said_with_what_one_does_there_is_the_users_job() -> None:
    assert facts("i work on the tills at a garden centre, mostly weekends") == [
        ("User works on the tills at a garden centre", "personal")]


def test_an_activity_taken_up_with_its_days_is_on_the_schedule() -> None:
    assert facts("took up swimming at the leisure centre, going mondays before work") == [
        ("User has taken up swimming at the leisure centre, going Mondays before work", "schedule")]


@pytest.mark.parametrize(("new", "old"), [
    ("User is now a postwoman, having given up nursing in June", "User is a nurse"),
    ("User is now a baker, having quit teaching", "User works as a secondary school teacher"),
])
def test_a_doing_given_up_takes_back_the_job_of_its_doer(new: str, old: str) -> None:
    assert decide(new, [Candidate("m1", old, 0.3)]).action == "update"


@pytest.mark.parametrize(("said", "expected"), [
    ("we rescued a scruffy little terrier last week, my daughter named her Moss",
     ("User has a scruffy little terrier named Moss", "relationship")),
    ("we got a puppy, the kids called him Biscuit", ("User has a puppy named Biscuit", "relationship")),
])
def test_a_pet_named_by_one_of_the_family_is_named_not_the_namer(said: str, expected: tuple[str, str]) -> None:
    assert facts(said) == [expected]


def test_a_name_or_place_written_with_capitals_is_left_as_written() -> None:
    assert rewrite("i left KPMG in may") == "i left KPMG in may"
    assert rewrite("ana (my sister) lives in Leeds") == "Ana (my sister) lives in Leeds"


def test_nothing_beats_for_me_is_the_users_own_taste() -> None:
    assert facts("nothing beats a bacon sandwich for me") == [("User loves a bacon sandwich", "preference")]


@pytest.mark.parametrize("said", ["i left feeling sick", "we left quickly", "I left school when I was 16",
                                  "we left it to the last minute"])
def test_how_or_what_was_left_is_no_place(said: str) -> None:
    assert rewrite(said) == said


def test_a_couple_split_up_said_as_me_and_x_names_the_partner() -> None:
    assert facts("me and Callum split up in the spring") == [
        ("User split up with Callum in the spring", "relationship")]


def test_someone_new_being_seen_is_a_new_partner_named_next() -> None:
    assert facts("I'm seeing someone new, his name's Ravi and he's a pharmacist") == [
        ("User's new partner Ravi is a pharmacist", "relationship")]


def test_seeing_someone_about_something_is_no_partner() -> None:
    assert facts("I'm seeing someone about my back") == []


def test_something_taken_up_instead_with_its_days_is_on_the_schedule() -> None:
    assert facts("took up pickleball instead, friday mornings at the sports hall") == [
        ("User has taken up pickleball, Friday mornings at the sports hall", "schedule")]


@pytest.mark.parametrize(("said", "expected"), [
    ("I've packed in golf, my back can't take it", "I've quit golf, my back can't take it"),
    ("we were packed in like sardines", "we were packed in like sardines"),
])
def test_packed_in_before_what_one_did_is_quit(said: str, expected: str) -> None:
    assert rewrite(said) == expected


@pytest.mark.parametrize(("new", "old"), [
    ("User has quit golf", "User plays golf every Sunday"),
    ("User gave up the gym", "User goes to the gym on Mondays"),
])
def test_a_pastime_quit_takes_back_the_habit(new: str, old: str) -> None:
    assert decide(new, [Candidate("m1", old, 0.3)]).action == "update"

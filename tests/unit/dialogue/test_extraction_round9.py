"""Memory extraction, round 9: comparisons are no facts, a home moved into or got the keys to is where the user
lives now, a job about to start replaces the old one, a diet said with "fully" revises the old diet, an aside
after a comma is cut off, a clause that leaves out what it is about joins the fact before, and what the user does
as a consequence ("so I ...") is not kept as said (core/memory: open_clauses, rules, dedup, clauses, asides)."""

from __future__ import annotations

import pytest

from avatar_service.core.memory.dedup import Candidate, decide, slot_of

from .extracted import facts


@pytest.mark.parametrize("said", [
    "honestly I'm more excited than the kids are",
    "I'm fitter than I was at 30",
    "my daughter is keener than her brother",
])
def test_a_comparison_with_someone_or_with_before_is_no_fact(said: str) -> None:
    assert facts(said) == []


def test_more_than_a_number_is_a_quantity_not_a_comparison() -> None:
    assert facts("I've lived in Hove for more than ten years") != []


@pytest.mark.parametrize(("said", "expected"), [
    ("we moved into a two-bed flat in Headingley last month",
     ("User moved into a two-bed flat in Headingley", "location")),
    ("finally collected the keys to our first house in Stockport",
     ("User collected the keys to their first house in Stockport", "location")),
])
def test_a_home_moved_into_or_got_the_keys_to_is_where_the_user_lives(said: str, expected: tuple[str, str]) -> None:
    assert facts(said) == [expected]


@pytest.mark.parametrize(("new", "old"), [
    ("User moved into a two-bed flat in Headingley", "User lives with their flatmates in Leeds"),
    ("User got the keys to their own flat in Walthamstow", "User lives in Leyton"),
    ("User starts as an apprentice plumber next week", "User works as a barista at Costa"),
    ("User is starting as a junior designer on Monday", "User is a waiter"),
    ("User is now completely vegan", "User is vegetarian"),
    ("User is strictly pescatarian", "User is vegan"),
])
def test_the_new_home_job_or_diet_revises_the_old(new: str, old: str) -> None:
    assert decide(new, [Candidate("m1", old, 0.4)]).action == "update"


def test_a_job_about_to_start_is_the_job_slot_without_its_date() -> None:
    assert slot_of("User starts as a trainee electrician on Monday") == ("job", "trainee electrician")


@pytest.mark.parametrize(("said", "expected"), [
    ("we live down near Falmouth, the ferry only runs in summer", ("User lives near Falmouth", "location")),
    ("I live in a flat above a chip shop, the smell never goes away",
     ("User lives in a flat above a chip shop", "location")),
])
def test_an_aside_about_a_thing_after_a_comma_is_cut_off(said: str, expected: tuple[str, str]) -> None:
    assert facts(said) == [expected]


@pytest.mark.parametrize(("said", "expected"), [
    ("we're off to Krakow for my sister's hen do, flying back on the 9th",
     ("User is off to Krakow for their sister's hen do, flying back on the 9th", "schedule")),
    ("I'm heading to Glasgow for a wedding, back on Sunday night",
     ("User is heading to Glasgow for a wedding, back on Sunday night", "schedule")),
    ("we're going to Seville for our anniversary, we fly out on 3 May",
     ("User is going to Seville for their anniversary, they fly out on 3 May", "schedule")),
])
def test_a_leg_of_the_journey_without_where_to_is_the_trips(said: str, expected: tuple[str, str]) -> None:
    assert facts(said) == [expected]


def test_a_leg_said_after_another_plan_joins_it() -> None:
    assert [content for content, _ in facts("I've booked a cottage in Skye for October, we're setting off early on "
                                             "the 3rd")] == \
        ["User has booked a cottage in Skye for October and is setting off early on the 3rd"]


@pytest.mark.parametrize(("said", "expected"), [
    ("I'm obsessed with audiobooks, I listen in the car most days",
     ("User is obsessed with audiobooks and listens in the car most days", "preference")),
    ("I love snooker, I watch every Sunday night", ("User loves snooker and watches every Sunday night", "preference")),
])
def test_a_verb_without_its_object_joins_the_thing_said_before(said: str, expected: tuple[str, str]) -> None:
    assert facts(said) == [expected]


def test_said_alone_a_leg_or_a_habit_is_read_as_it_is() -> None:
    assert facts("I'm flying out on Friday") == [("User is flying out on Friday", "schedule")]
    assert facts("I listen to jazz every evening") == [("User listens to jazz every evening", "schedule")]


@pytest.mark.parametrize(("said", "expected"), [
    ("I'm a baker so I get up at 4", [("User is a baker", "personal")]),
    ("I work from home so I walk the dog at lunch", [("User works from home", "schedule")]),
    ("I'm vegan so I don't eat honey", [("User is vegan", "preference"), ("User does not eat honey", "preference")]),
])
def test_what_the_user_does_as_a_consequence_is_not_kept_as_said(said: str, expected: list[tuple[str, str]]) -> None:
    assert facts(said) == expected


def test_a_state_or_someone_else_after_so_is_still_a_fact() -> None:
    assert facts("my wife's a midwife so she only works nights") != [("User's wife is a midwife", "relationship")]
    assert facts("I've stopped eating meat so vegetarian now")[0][0].startswith("User is now vegetarian")


@pytest.mark.parametrize(("turns", "expected"), [
    (["resigned from Boots, I start as a trainee paramedic in March"],
     "User starts as a trainee paramedic in March, having handed in their notice at Boots"),
    (["I've finally handed my notice in at the council", "I start as a park ranger next month"],
     "User starts as a park ranger next month, having handed in their notice at the council"),
])
def test_a_job_left_and_the_one_starting_are_one_memory(turns: list[str], expected: str) -> None:
    assert [content for content, _ in facts(*turns)] == [expected]


@pytest.mark.parametrize("new", [
    "User starts as a trainee paramedic in March, having handed in their notice at Boots",
    "User has become a teacher",
    "User starts their new job as a sous chef on Monday",
    "User handed in their notice at Boots",
])
def test_a_new_job_or_notice_handed_in_revises_the_old_job(new: str) -> None:
    assert decide(new, [Candidate("m1", "User works as a pharmacist at Boots", 0.4)]).action == "update"

"""Memory extraction, round 13: a move said with both places (which revises the old home), a wedding planned with a
named partner (the plan and its date apart from who the partner is), a part of the body that gives trouble, a fact
said before "so please ..." or "so nothing ...", a workplace joined in a role (which revises the old job), and a
booking made "for us" with no date (an errand, not a memory)."""

from __future__ import annotations

import pytest

from avatar_service.core.memory.dedup import Candidate, decide

from .extracted import facts


@pytest.mark.parametrize(("said", "expected"), [
    ("we've moved from stroud to bath now", ("User moved to Bath from Stroud", "location")),
    ("I moved from Derby to Nottingham last year", ("User moved to Nottingham from Derby last year", "location")),
    ("we've just moved down to exeter from bristol for my wife's job",
     ("User moved to Exeter from Bristol for their wife's job", "location")),
])
def test_a_move_said_with_both_places(said: str, expected: tuple[str, str]) -> None:
    assert facts(said) == [expected]


@pytest.mark.parametrize("said", ["i moved from nights to days", "i moved from the sales team to marketing"])
def test_what_is_moved_between_at_work_is_no_home(said: str) -> None:
    assert not [f for f in facts(said) if f[1] == "location"]


@pytest.mark.parametrize(("new", "old"), [
    ("User moved to Bath from Stroud", "User lives in Stroud"),  # a move revises the old home
    ("User moved to Exeter from Bristol for their wife's job", "User lives in Bristol"),
    ("User moved to Nottingham from Derby last year", "User moved to Derby"),
    # a job joined revises the old job
    ("User now works as a tester at a software company, having left nursing", "User works as a nurse"),
    ("User works as a cashier at Barclays", "User works as a trainee plumber"),
])
def test_a_move_or_a_new_job_revises_the_old_memory(new: str, old: str) -> None:
    decision = decide(new, [Candidate("m1", old, 0.3)])
    assert (decision.action, decision.memory_id) == ("update", "m1")


def test_a_wedding_with_a_named_partner_is_a_plan_and_a_name() -> None:
    assert facts("me and my partner Priya are getting married at the town hall in ludlow on 12 june and we need a "
                 "cake") == [
        ("User's partner is named Priya", "relationship"),
        ("User and their partner Priya are getting married at the town hall in ludlow on 12 June", "schedule"),
    ]


def test_a_plan_with_an_unnamed_partner_still_says_who_they_are() -> None:
    assert facts("me and my wife are celebrating our 30th next month") == [
        ("User and their wife are celebrating their 30th next month", "relationship")]


@pytest.mark.parametrize(("said", "expected"), [
    ("i've got a bad back from years of gardening so nothing too heavy please",
     ("User has got a bad back from years of gardening", "personal")),
    ("I have a weak ankle", ("User has a weak ankle", "personal")),
    ("i have got two bad knees, what's the best bike for me?", ("User has got two bad knees", "personal")),
])
def test_a_part_of_the_body_that_gives_trouble(said: str, expected: tuple[str, str]) -> None:
    assert facts(said) == [expected]


def test_a_passing_illness_is_no_memory() -> None:
    assert facts("I have a sore throat") == []


@pytest.mark.parametrize(("said", "expected"), [
    ("i'm allergic to latex so please use the other gloves", ("User is allergic to latex", "personal")),
    ("I'm coeliac so nothing with gluten please", ("User is coeliac", "personal")),
    ("i'm vegan so no honey in mine", ("User is vegan", "preference")),
])
def test_a_fact_said_before_a_request_after_so(said: str, expected: tuple[str, str]) -> None:
    assert facts(said) == [expected]


@pytest.mark.parametrize(("said", "expected"), [
    ("i've left nursing and joined a software company as a tester",
     ("User now works as a tester at a software company, having left nursing", "personal")),
    ("I joined Barclays as a cashier", ("User works as a cashier at Barclays", "personal")),
    ("I've gone to a start-up as a product designer", ("User works as a product designer at a start-up", "personal")),
])
def test_a_workplace_joined_in_a_role(said: str, expected: tuple[str, str]) -> None:
    assert facts(said) == [expected]


@pytest.mark.parametrize("said", ["I've joined a gym as a member", "i joined the council as a volunteer",
                                  "i joined the choir as a tenor"])
def test_joining_as_a_member_or_volunteer_is_no_job(said: str) -> None:
    assert not [f for f in facts(said) if f[0].startswith("User works as")]


def test_a_table_booked_for_us_is_an_errand_beside_the_birthday() -> None:
    assert facts("my husband Tom turns 50 on friday and i've booked us a table at the harbour inn") == [
        ("User's husband Tom turns 50 on Friday", "relationship")]


@pytest.mark.parametrize(("said", "expected"), [
    ("I've booked a table", []),
    ("I've ordered us a new sofa", []),
    # a booking with when it is stays: a plan
    ("I've booked a cottage in Skye for October", [("User has booked a cottage in Skye for October", "schedule")]),
])
def test_a_booking_without_a_date_is_an_errand(said: str, expected: list[tuple[str, str]]) -> None:
    assert facts(said) == expected

"""Memory extraction, round 14: a home bought near a place (and what it has, said after the place), a home said as
the kind of place it is ("we're in a little village near ...", which revises the old home), work done for the user
on a date, an age said with what else the named one just did (which revises the old age), and what the user's days
are like in their work, said after "so" (part of the job, not a time to plan around)."""

from __future__ import annotations

import pytest

from avatar_service.core.memory.dedup import Candidate, decide

from .extracted import facts


@pytest.mark.parametrize(("said", "expected"), [
    ("we've bought a stone farmhouse near Hexham with a leaking roof",
     ("User bought a stone farmhouse near Hexham", "location")),
    ("I just rented a flat just outside Bath and it's tiny", ("User rented a flat just outside Bath", "location")),
    ("we finally bought a smallholding in Powys", ("User bought a smallholding in Powys", "location")),
])
def test_a_home_bought_near_a_place_is_where_the_user_lives(said: str, expected: tuple[str, str]) -> None:
    assert facts(said) == [expected]


@pytest.mark.parametrize("said", ["I got a place in the squad", "I finally got a place on the course"])
def test_a_place_in_a_team_is_no_home(said: str) -> None:
    assert not [f for f in facts(said) if f[1] == "location"]


def test_a_home_near_a_place_revises_the_old_home() -> None:
    decision = decide("User bought a stone farmhouse near Hexham", [Candidate("m1", "User lives in Newcastle", 0.3)])
    assert (decision.action, decision.memory_id) == ("update", "m1")


@pytest.mark.parametrize(("said", "expected"), [
    ("we're getting a heat pump installed on 3 march", ("User is having a heat pump installed on 3 March", "schedule")),
    ("I'm having my back garden landscaped next month",
     ("User is having their back garden landscaped next month", "schedule")),
    ("i'm having two teeth taken out on friday", ("User is having two teeth taken out on Friday", "schedule")),
])
def test_work_done_for_the_user_on_a_date_is_a_plan(said: str, expected: tuple[str, str]) -> None:
    assert facts(said) == [expected]


@pytest.mark.parametrize("said", ["I'm having a new bathroom fitted", "we're getting the windows replaced"])
def test_work_without_a_date_is_an_errand(said: str) -> None:
    assert facts(said) == []


@pytest.mark.parametrize(("said", "expected"), [
    ("maya's just turned 8 and joined the brownies", ("User's Maya turned 8 and joined the brownies", "relationship")),
    ("otis has just turned 3 and loves tractors", ("User's Otis turned 3 and loves tractors", "relationship")),
])
def test_an_age_said_with_what_else_the_named_one_did(said: str, expected: tuple[str, str]) -> None:
    assert facts(said) == [expected]


def test_the_new_age_revises_the_old_one() -> None:
    decision = decide("User's Maya turned 8 and joined the brownies",
                      [Candidate("m1", "User's daughter Maya is 7", 0.4)])
    assert (decision.action, decision.memory_id) == ("update", "m1")


def test_a_word_that_turns_is_nobody() -> None:
    assert facts("it's just turned 6 and got dark") == []


@pytest.mark.parametrize(("said", "expected"), [
    ("i'm a postie so i'm on my bike all day", ("User is a postie and is on their bike all day", "personal")),
    ("I work at the bakery so I'm up at 4 most mornings",
     ("User works at the bakery and is up at 4 most mornings", "personal")),
])
def test_what_the_days_are_like_at_work_is_part_of_the_job(said: str, expected: tuple[str, str]) -> None:
    assert facts(said) == [expected]


def test_a_pain_said_beside_the_job_is_no_memory() -> None:
    assert facts("i'm a plasterer so i'm on a ladder all day and my neck is killing me") == [
        ("User is a plasterer and is on a ladder all day", "personal")]


@pytest.mark.parametrize(("said", "expected"), [
    ("we're in a tiny hamlet outside whitby now", ("User lives in a tiny hamlet outside Whitby", "location")),
    ("I'm in a terrace in Roath", ("User lives in a terrace in Roath", "location")),
])
def test_home_said_as_the_kind_of_place_it_is(said: str, expected: tuple[str, str]) -> None:
    assert facts(said) == [expected]


@pytest.mark.parametrize("said", ["I'm in Cardiff", "I'm in a meeting in town", "I'm in a hotel near the station"])
def test_being_somewhere_is_no_home(said: str) -> None:
    assert not [f for f in facts(said) if f[1] == "location"]


def test_a_home_said_as_a_village_revises_the_old_home() -> None:
    decision = decide("User lives in a tiny hamlet outside Whitby", [Candidate("m1", "User lives in Leeds", 0.3)])
    assert (decision.action, decision.memory_id) == ("update", "m1")

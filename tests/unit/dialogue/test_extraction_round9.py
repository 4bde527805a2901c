"""Memory extraction, round 9: comparisons are no facts, a home moved into or got the keys to is where the user
lives now, a job about to start replaces the old one, a diet said with "fully" revises the old diet
(core/memory: open_clauses, rules, dedup)."""

from __future__ import annotations

import pytest

from avatar_service.core.memory.dedup import Candidate, decide, slot_of
from avatar_service.core.memory.extraction import extract_facts


def facts(*turns: str) -> list[tuple[str, str]]:
    return [(f.content, f.category) for f in extract_facts(turns)]


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

"""Memory extraction, round 11: a move said as going back home, typed in lower case ("moved back home to derry");
eating again what a diet leaves out, which takes the diet back."""

from __future__ import annotations

import pytest

from avatar_service.core.memory.dedup import Candidate, decide
from avatar_service.core.memory.extraction import extract_facts


def facts(*turns: str) -> list[tuple[str, str]]:
    return [(f.content, f.category) for f in extract_facts(turns)]


@pytest.mark.parametrize(("said", "expected"), [
    ("we moved back home to derry last spring", ("User moved to Derry", "location")),
    ("I've moved back to glasgow, renting with two mates", ("User moved to Glasgow", "location")),
    ("moved home to Swansea in the autumn", ("User moved to Swansea", "location")),
])
def test_a_move_back_home_is_where_the_user_lives_now(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


def test_a_move_back_home_takes_the_old_home_back() -> None:
    assert decide("User moved to Derry", [Candidate("m1", "User lives in Cardiff", 0.4)]).action == "update"


@pytest.mark.parametrize("said", ["we moved back to nights at work", "I moved back to days last month"])
def test_shifts_moved_to_are_no_place(said: str) -> None:
    assert not [f for f in facts(said) if f[1] == "location"]


@pytest.mark.parametrize(("new", "old"), [
    ("User has started eating meat again", "User is vegetarian"),
    ("User eats fish again after 3 years vegan", "User is vegan"),
    ("User has gone back to eating chicken", "User is a strict vegetarian"),
])
def test_eating_again_what_a_diet_leaves_out_revises_the_diet(new: str, old: str) -> None:
    assert decide(new, [Candidate("m1", old, 0.3)]).action == "update"


@pytest.mark.parametrize(("new", "old"), [
    ("User does not eat fish", "User is vegan"),  # the diet said again, not broken
    ("User eats cheese", "User is vegetarian"),  # cheese is no meat
    ("User eats fish again", "User is no longer vegan"),
])
def test_eating_what_a_diet_allows_leaves_it(new: str, old: str) -> None:
    assert decide(new, [Candidate("m1", old, 0.3)]).action == "new"

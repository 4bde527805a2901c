"""Memory extraction of what changes in a user's life: a friend or relative named with what is happening to them,
a pet gone and a new one, an activity taken up, a move said as the place left and the home got, and a diet that
revises a liked food (core/memory: vocabulary, clauses, frames, everyday, entities, dedup)."""

from __future__ import annotations

import pytest

from avatar_service.core.memory.dedup import Candidate, decide

from .extracted import facts


@pytest.mark.parametrize(("said", "expected"), [
    ("my best mate Callum is getting married in Galway on 12 June",
     ("User's best mate Callum is getting married in Galway on 12 June", "relationship")),
    ("my old flatmate Priya is moving to Toronto next month",
     ("User's old flatmate Priya is moving to Toronto next month", "relationship")),
    ("my mate Jonno is running the Berlin marathon in September",
     ("User's mate Jonno is running the Berlin marathon in September", "relationship")),
])
def test_a_friend_named_with_what_is_happening_to_them(said: str, expected: tuple[str, str]) -> None:
    assert facts(said) == [expected]


def test_a_pet_named_first_then_said_whose_after_an_opening_word() -> None:
    assert facts("sadly Biscuit, our old beagle, passed away in March", "we've adopted a greyhound now, Dot, she's 4") \
        == [("User's old beagle Biscuit passed away in March", "relationship"),
            ("User's greyhound Dot is 4 years old", "relationship")]
    assert facts("Rolo, my elderly cat, died last week") == [("User's elderly cat Rolo died last week", "relationship")]


def test_what_a_relative_means_to_study_is_kept_and_a_closing_question_is_not() -> None:
    assert facts("my daughter Hana is 15", "she wants to do engineering, are maths and physics enough?") == [
        ("User's daughter Hana is 15 years old and wants to do engineering", "relationship")]
    assert facts("my husband wants to do the wine tasting with me") == []  # an errand of this visit


@pytest.mark.parametrize(("turns", "expected"), [
    (["started going to a pottery class on thursday nights, really enjoying it"],
     ("User has started going to a pottery class on Thursday nights", "schedule")),
    (["I've recently taken up bouldering"], ("User has taken up bouldering", "context")),
    (["I'm 41 and I've only just started learning the cello, bit embarrassing really"],
     ("User has started learning the cello", "context")),
    (["took up sea swimming last summer and I'm hooked"], ("User has taken up sea swimming last summer", "context")),
])
def test_an_activity_taken_up_is_kept_without_the_afterthought(turns: list[str], expected: tuple[str, str]) -> None:
    assert expected in facts(*turns)


@pytest.mark.parametrize(("turns", "expected"), [
    (["we've moved out of Leeds", "got a tiny house in Harrogate now"],
     "User got a tiny house in Harrogate, having left Leeds"),
    (["I left Glasgow in March", "bought a little cottage in Fife, moved in a fortnight ago"],
     "User bought a little cottage in Fife, having left Glasgow in March"),
])
def test_a_move_said_as_the_place_left_and_the_home_got_is_one_memory(turns: list[str], expected: str) -> None:
    assert facts(*turns) == [(expected, "location")]


@pytest.mark.parametrize(("new", "old"), [
    ("User got a tiny house in Harrogate, having left Leeds", "User lives in Leeds"),
    ("User bought a little cottage in Fife", "User lives in Glasgow"),
    ("User left Glasgow in March", "User lives in Glasgow"),
    ("User is vegetarian", "User's favourite food is steak"),
    ("User is vegan", "User loves bacon sandwiches"),
    ("User is vegan", "User loves cheese"),
    ("User is pescatarian", "User's favorite meal is roast chicken"),
    ("User's old beagle Biscuit passed away in March", "User has a beagle named Biscuit"),
])
def test_a_change_revises_the_memory_it_replaces(new: str, old: str) -> None:
    assert decide(new, [Candidate("m1", old, 0.4)]).action == "update"


@pytest.mark.parametrize(("new", "old"), [
    ("User is vegetarian", "User loves cheese"),
    ("User is pescatarian", "User loves sushi"),
    ("User is no longer vegetarian", "User's favourite food is steak"),
])
def test_a_diet_leaves_the_foods_it_allows(new: str, old: str) -> None:
    assert decide(new, [Candidate("m1", old, 0.4)]).action == "new"

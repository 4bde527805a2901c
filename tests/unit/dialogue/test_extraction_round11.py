"""Memory extraction, round 11: a move said as going back home, typed in lower case ("moved back home to derry");
eating again what a diet leaves out, which takes the diet back; a job begun, said as "started as"; a season ticket
or membership held for years."""

from __future__ import annotations

import pytest

from avatar_service.core.memory.dedup import Candidate, decide

from .extracted import facts


@pytest.mark.parametrize(("said", "expected"), [
    ("we moved back home to derry last spring", ("User moved to Derry", "location")),
    ("I've moved back to glasgow, renting with two mates", ("User moved to Glasgow", "location")),
    ("moved home to Swansea in the autumn", ("User moved to Swansea", "location")),
    ("we moved back down to cornwall in the spring", ("User moved to Cornwall", "location")),
])
def test_a_move_back_home_is_where_the_user_lives_now(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


def test_a_move_back_home_takes_the_old_home_back() -> None:
    assert decide("User moved to Derry", [Candidate("m1", "User lives in Cardiff", 0.4)]).action == "update"


@pytest.mark.parametrize("said", ["we moved back to nights at work", "I moved back to days last month",
                                  "I moved up to a size 10"])
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


@pytest.mark.parametrize(("said", "expected"), [
    ("only just started as a junior copywriter at an agency last week",
     ("User works as a junior copywriter at an agency", "personal")),
    ("I've started work as a receptionist at the vets", ("User works as a receptionist at the vets", "personal")),
    ("began as a trainee plumber on monday, knackered already", ("User works as a trainee plumber", "personal")),
    ("started as a teaching assistant in september", ("User works as a teaching assistant", "personal")),
])
def test_a_job_begun_said_as_started_as_is_the_users_job(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


def test_a_job_begun_takes_back_the_old_one() -> None:
    decision = decide("User works as a junior copywriter at an agency",
                      [Candidate("m1", "User works as a barista", 0.3)])
    assert decision.action == "update"


@pytest.mark.parametrize("said", ["it just started as a joke", "I started as a bit of a laugh", "started as a kid"])
def test_what_something_began_as_is_no_job(said: str) -> None:
    assert not [f for f in facts(said) if "works as" in f[0]]


@pytest.mark.parametrize(("said", "expected"), [
    ("we've had season tickets at Old Trafford since 1998",
     ("User has had season tickets at Old Trafford since 1998", "personal")),
    ("I've had a gym membership for years but never go", ("User has had a gym membership for years", "personal")),
    ("had our allotment for 6 years now", ("User has had their allotment for 6 years", "personal")),
])
def test_a_season_ticket_or_membership_held_for_years_is_kept(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


@pytest.mark.parametrize("said", ["I've had a cold for a week", "I've had this headache since Monday",
                                  "I've had a pass for ages"])
def test_other_things_had_for_a_while_are_no_membership(said: str) -> None:
    assert facts(said) == []


@pytest.mark.parametrize(("said", "expected"), [
    ("finally booked my theory test, its on 4 march at the leeds centre",
     ("User has their theory test on 4 March at the leeds centre", "schedule")),
    ("got my scan booked, it's next tuesday", ("User has their scan next Tuesday", "schedule")),
    ("I've booked my MOT, it's on Friday", ("User's MOT is on Friday", "schedule")),
])
def test_what_was_booked_then_when_it_is_is_one_date(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


def test_what_was_booked_and_when_it_is_said_as_two_sentences_is_one_date() -> None:
    assert facts("finally got my smear test booked!! it's on the 3rd of may") == [
        ("User has their smear test on the 3rd of May", "schedule")]


@pytest.mark.parametrize("said", ["booked my haircut, it was rubbish", "booked my test, it's so stressful",
                                  "booked my holiday! it was a nightmare"])
def test_what_was_booked_said_without_when_is_no_date(said: str) -> None:
    assert not [f for f in facts(said) if f[1] == "schedule"]


@pytest.mark.parametrize(("said", "expected"), [
    ("my sister emma's just had a baby", ("User's sister Emma has just had a baby", "relationship")),
    ("my son josh has autism", ("User's son Josh has autism", "relationship")),
    ("my old boss dave turned 60 last week", ("User's old boss Dave is 60 years old", "relationship")),
])
def test_a_lower_case_name_after_someone_of_the_users_is_their_name(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


@pytest.mark.parametrize("said", ["my mum always says that", "my friend really likes it",
                                  "my brother in law is a chef", "my cat flap is broken",
                                  "my friend group is really small", "my mum even has a tablet",
                                  "my uncle somehow got lost"])
def test_a_word_after_a_relation_that_is_no_name_names_nobody(said: str) -> None:
    assert not [f for f in facts(said) if " named " in f[0] or any(w[0].isupper() for w in f[0].split()[2:3])]


@pytest.mark.parametrize(("said", "expected"), [
    ("my cousin Priya is getting married in Goa in december and I'm one of the bridesmaids",
     "User is one of the bridesmaids at their cousin Priya's wedding in Goa in December"),
    ("my sister is getting married in Kendal on 3 August and I'm the maid of honour",
     "User is the maid of honour at their sister's wedding in Kendal on 3 August"),
    ("my sister's getting married next year and I'm maid of honour",
     "User is maid of honour at their sister's wedding next year"),
])
def test_the_users_part_in_a_wedding_just_said_is_read_with_it(said: str, expected: str) -> None:
    made = facts(said)
    assert (expected, "context") in made
    assert made[0][1] == "relationship"  # the wedding is still theirs
    assert not [f for f in made if f[0].startswith("User is") and " wedding " not in f[0]]


def test_a_part_said_without_a_wedding_is_read_as_said() -> None:
    assert facts("I'm the best man") == [("User is the best man", "personal")]


def test_the_users_part_and_someones_wedding_are_two_memories() -> None:
    decision = decide("User is the best man at their brother Tom's wedding in Lisbon in May",
                      [Candidate("m1", "User's brother Tom is getting married in Lisbon in May", 0.93)])
    assert decision.action == "new"


@pytest.mark.parametrize(("said", "expected"), [
    ("been learning the violin since the spring, I practise most mornings before work",
     ("User has been learning the violin since the spring and practises most mornings before work", "schedule")),
    ("I'm learning Spanish, I practise on the train", ("User is learning Spanish and practises on the train",
                                                       "context")),
])
def test_practice_said_without_what_is_practised_joins_what_is_learnt(said: str, expected: tuple[str, str]) -> None:
    assert facts(said) == [expected]


@pytest.mark.parametrize(("said", "expected"), [
    ("my daughter talked me into two rabbits, they've called them Salt and Pepper",
     ("User has two rabbits named Salt and Pepper", "relationship")),
    ("I got talked into a kitten, we named her Pixel", ("User has a kitten named Pixel", "relationship")),
    ("my wife persuaded me into getting a puppy", ("User has a puppy", "relationship")),
])
def test_a_pet_the_user_was_talked_into_is_theirs_with_the_names_given(said: str, expected: tuple[str, str]) -> None:
    assert facts(said) == [expected]


@pytest.mark.parametrize("said", ["they talked me into a new phone", "my mate talked me into a pint"])
def test_other_things_talked_into_are_no_pet(said: str) -> None:
    assert not [f for f in facts(said) if f[0].startswith("User has")]


def test_what_the_user_avoids_for_their_own_sake_is_kept() -> None:
    assert ("User does not eat bread", "preference") in facts("bread makes me bloated so I never eat bread")


@pytest.mark.parametrize(("said", "kept"), [
    ("my son is coeliac so we always buy gluten free bread", "User's son is coeliac"),
    ("my girlfriend is vegan so I never cook meat at home", "User's girlfriend is vegan"),
    ("my dad lives in Leeds so I can't visit much", "User's dad lives in Leeds"),
])
def test_what_the_user_does_for_someone_elses_sake_is_not_kept(said: str, kept: str) -> None:
    assert [f[0] for f in facts(said)] == [kept]


@pytest.mark.parametrize(("said", "expected"), [
    ("I'm coeliac so I never eat bread", ("User does not eat bread", "preference")),
    ("my wife's Brazilian so I want to learn Portuguese", ("User wants to learn Portuguese", "context")),
])
def test_what_the_user_does_for_their_own_reasons_or_wants_is_kept(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


@pytest.mark.parametrize(("said", "expected"), [
    ("my dad turns 65 on 2 april, we're taking him to the races at Aintree",
     "User is taking their dad to the races at Aintree on 2 April"),
    ("my nan turns 90 next week, we're having her over for tea", "User is having their nan over for tea next week"),
    ("my sister graduates in July and we're treating her to a spa day",
     "User is treating their sister to a spa day in July"),
])
def test_a_plan_with_someone_on_their_day_is_on_the_schedule(said: str, expected: str) -> None:
    made = facts(said)
    assert (expected, "schedule") in made
    assert made[0][1] == "relationship"


@pytest.mark.parametrize("said", ["my son is 5, we're taking him to the zoo", "we're taking her for lunch on Friday"])
def test_a_plan_with_someone_without_their_day_is_no_plan_for_it(said: str) -> None:
    assert not [f for f in facts(said) if f[0].startswith("User is taking their")]

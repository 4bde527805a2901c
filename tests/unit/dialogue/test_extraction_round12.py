"""Memory extraction, round 12: news that revises an older memory instead of standing beside it (a workplace the
user is no longer at, an occasion moved to a new date, the new age of someone named in lower case); a party for
one of theirs; what the user does for a goal they are training for; a team's name is not the user's."""

from __future__ import annotations

import pytest

from avatar_service.core.memory.dedup import Candidate, decide

from .extracted import facts


@pytest.mark.parametrize(("turns", "expected"), [
    (["I'm no longer at Tesco, I'm a postman now"], ("User is now a postman, no longer at Tesco", "personal")),
    (["i'm not at the library any more, gone freelance as a copy editor"],
     ("User has now gone freelance as a copy editor, no longer at the library", "personal")),
    (["I'm not at the garage anymore!! got a job as a bus driver"],
     ("User works as a bus driver, no longer at the garage", "personal")),
    (["I'm not with Deloitte anymore", "now I run a bakery in Hove"],
     ("User runs a bakery in Hove, no longer at Deloitte", "personal")),
])
def test_a_workplace_left_goes_with_what_the_user_does_now(turns: list[str], expected: tuple[str, str]) -> None:
    assert facts(*turns) == [expected]


@pytest.mark.parametrize("said", ["I'm not at home anymore", "I'm not at work at the moment",
                                  "I'm not at the station any more"])
def test_where_the_user_is_for_the_moment_is_no_workplace_left(said: str) -> None:
    assert not [f for f in facts(said) if "no longer" in f[0]]


@pytest.mark.parametrize(("new", "old"), [
    ("User is no longer at Deloitte", "User works at Deloitte"),
    ("User is now a postman, no longer at Tesco", "User works at Tesco"),
    ("User has now gone freelance as a copy editor, no longer at the library", "User works for the library"),
])
def test_a_workplace_left_revises_the_old_job(new: str, old: str) -> None:
    assert decide(new, [Candidate("m1", old, 0.3)]).action == "update"


@pytest.mark.parametrize(("said", "expected"), [
    ("we've had to push the christening back to june", ("User's christening has been moved to June", "schedule")),
    ("our hen do has been moved to the 3rd of may, the venue flooded",
     ("User's hen do has been moved to the 3rd of May", "schedule")),
    ("I've postponed my op until next spring", ("User's op has been moved to next spring", "schedule")),
])
def test_an_occasion_moved_to_a_new_date(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


@pytest.mark.parametrize("said", ["we've moved the party to the garden", "we moved the wedding to a bigger venue"])
def test_an_occasion_moved_to_another_place_is_no_new_date(said: str) -> None:
    assert not [f for f in facts(said) if "has been moved to" in f[0]]


@pytest.mark.parametrize(("new", "old", "action"), [
    ("User's wedding has been moved to 20 September", "User is getting married on 14 June", "update"),
    ("User's wedding has been moved to May", "User's wedding is on 2 August", "update"),
    ("User's op has been moved to next spring", "User is having an operation on 4 March", "update"),
    # someone else's wedding, and an occasion of another kind, are not the one moved
    ("User's wedding has been moved to 20 September", "User's sister is getting married in June", "new"),
    ("User's party has been moved to next Saturday", "User is getting married on 14 June", "new"),
])
def test_an_occasion_moved_revises_its_old_date(new: str, old: str, action: str) -> None:
    assert decide(new, [Candidate("m1", old, 0.3)]).action == action


@pytest.mark.parametrize(("said", "expected"), [
    ("rory's just turned 4, he's mad about dinosaurs", ("User's Rory turned 4", "relationship")),
    ("Isla's turning 8 next week", ("User's Isla is turning 8 next week", "relationship")),
])
def test_the_new_age_of_someone_named_in_lower_case(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


@pytest.mark.parametrize("said", ["it's just turned 6", "she's just turned 6", "time's just turned 9"])
def test_what_turns_an_hour_is_no_one(said: str) -> None:
    assert facts(said) == []


def test_a_new_age_said_by_name_revises_the_old_one() -> None:
    assert decide("User's Rory turned 4", [Candidate("m1", "User's son Rory is 3", 0.4)]).action == "update"


def test_a_party_for_one_of_theirs() -> None:
    assert ("User is having their daughter Isla's 8th birthday party at the trampoline park on Saturday",
            "schedule") in facts("we're having my daughter Isla's 8th at the trampoline park on saturday")


def test_a_party_for_someone_without_which_birthday_is_no_birthday() -> None:
    assert not [f for f in facts("we're having a party for my mum") if "birthday" in f[0]]


def test_what_the_user_does_for_a_goal_joins_it() -> None:
    assert facts("i'm training for a 10k so i run every morning") == [
        ("User is training for a 10k and runs every morning", "schedule")]


def test_what_the_user_needs_for_a_goal_does_not() -> None:
    assert facts("i'm training for a 10k so i need new trainers") == [("User is training for a 10k", "context")]


@pytest.mark.parametrize("said", ["we're called the Sharks", "we play five-a-side on sundays, we're called the Sharks",
                                  "we are named the Lions"])
def test_a_teams_name_is_not_the_users(said: str) -> None:
    assert not [f for f in facts(said) if "called" in f[0] or "named" in f[0] or "name" in f[0]]


def test_the_user_saying_their_own_name_still_is() -> None:
    assert ("User is called Ana", "personal") in facts("I'm called Ana")

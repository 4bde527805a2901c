"""Memory extraction's clause reader (core/memory/clauses.py): facts said in passing inside questions and
requests, several to a sentence, without a subject or after a name said first; and the updates they make
(core/memory/dedup.py)."""

from __future__ import annotations

import pytest

from avatar_service.core.memory.clauses import pieces, tidy
from avatar_service.core.memory.dedup import Candidate, decide, naming_of, slot_of

from .extracted import facts


def statements(sentence: str) -> list[str]:
    return [p.text for p in pieces(sentence) if p.kind == "statement"]


@pytest.mark.parametrize(("sentence", "expected"), [
    ("I'm vegan - do any of your cakes have egg in them?", ["I'm vegan"]),
    ("I live in Clapham, do you deliver there?", ["I live in Clapham"]),
    ("I'm off to Lisbon next Friday so can we move my session?", ["I'm off to Lisbon next Friday"]),
    ("I've been learning Italian for a year, any tips?", ["I've been learning Italian for a year"]),
    ("My husband's a teacher and finishes at 4", ["My husband is a teacher", "My husband finishes at 4"]),
    ("I do pottery on Mondays and play tennis on Sundays", ["I do pottery on Mondays", "I play tennis on Sundays"]),
    ("hate mushrooms, can you swap them for peppers?", ["I hate mushrooms"]),
    ("Moved to Glasgow last spring, started a new job", ["I moved to Glasgow last spring", "I started a new job"]),
    ("I've been running a lot, training for a marathon", ["I've been running a lot", "I'm training for a marathon"]),
    ("Our cat is 14 and a bit deaf", ["Our cat is 14", "Our cat is a bit deaf"]),
    ("I started eating meat again, so no longer vegan", ["I started eating meat again", "I'm no longer vegan"]),
    ("I hate early mornings, anything after 10 is fine", ["I hate early mornings", "anything after 10 is fine"]),
])
def test_a_sentence_is_cut_into_statements_with_their_subjects(sentence: str, expected: list[str]) -> None:
    assert statements(sentence) == expected


@pytest.mark.parametrize("sentence", [
    "I like hiking, cycling and swimming", "I live and work in Leeds", "I was born and raised in Leeds",
    "My husband Marco and I are coming on Saturday", "I'm so tired", "I love it so much",
])
def test_lists_shared_verbs_and_compound_subjects_stay_one_clause(sentence: str) -> None:
    assert statements(sentence) == [sentence]


def test_questions_wishes_and_what_follows_a_condition_are_no_statements() -> None:
    assert [p.kind for p in pieces("Is it ok to come late?")] == ["question"]
    assert [p.kind for p in pieces("So I live in Leeds?")] == ["question"]
    assert [p.kind for p in pieces("If I move to Paris, I will need a flat")] == ["unreal", "unreal"]
    assert [p.kind for p in pieces("My mum's 80th is in June and I'd like a table")] == ["statement", "unreal"]
    assert [p.kind for p in pieces("I've got asthma, is it ok if I bring my inhaler?")] == ["statement", "unreal"]


@pytest.mark.parametrize(("said", "tidied"), [
    ("Bruno, my dog, got neutered", "my dog Bruno got neutered"),
    ("Sadie, my eldest, starts in May", "my eldest Sadie starts in May"),
    ("My twins, Ella and Finn, are in year 3", "My twins Ella and Finn are in year 3"),
    ("We have two dogs, Max and Ruby, and a cat", "We have two dogs named Max and Ruby, and a cat"),
    ("Dr. Okafor is my GP", "my GP is Dr. Okafor"),
    ("my wife's a vet", "my wife is a vet"),
    ("Our dog Pepper's 11 now", "Our dog Pepper is 11 now"),
    ("my cousin's wedding is in May", "my cousin's wedding is in May"),  # a possessive stays one
])
def test_appositions_and_contractions_are_put_the_way_the_rules_read(said: str, tidied: str) -> None:
    assert tidy(said) == tidied


@pytest.mark.parametrize(("said", "expected"), [
    ("I'm vegan - do any of your cakes have egg in them?", ("User is vegan", "preference")),
    ("I live in Clapham, do you deliver there?", ("User lives in Clapham", "location")),
    ("My daughter Priya is 9, can she join the junior class?", ("User's daughter Priya is 9 years old",
                                                                "relationship")),
    ("I don't drive, is there a bus stop nearby?", ("User does not drive", "personal")),
    ("My husband's a teacher and finishes at 4", ("User's husband is a teacher and finishes at 4", "relationship")),
    ("btw I just started working at Tesco so evenings are better for me", ("User works at Tesco", "personal")),
    ("btw I just started working at Tesco so evenings are better for me", ("User prefers evenings", "schedule")),
    ("We've just bought a house in Harrogate!", ("User bought a house in Harrogate", "location")),
    ("I can only make it on Tuesdays after 6", ("User can only make it on Tuesdays after 6", "schedule")),
    ("Weekends don't work for me any more", ("User can't do weekends", "schedule")),
    ("We have two dogs, Max and Ruby, and a cat", ("User has two dogs named Max and Ruby", "relationship")),
    ("Sadie, my eldest, starts university in September",
     ("User's eldest child Sadie starts university in September", "relationship")),
    ("I've been swimming every morning before work", ("User has been swimming every morning before work",
                                                      "schedule")),
])
def test_facts_said_in_passing_are_kept(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


@pytest.mark.parametrize(("said", "expected"), [
    ("Since my knee op I can't run, can I do the swim only?", ("User can't run since their knee op", "personal")),
    ("I'm new to the area, just moved from Cardiff", ("User moved from Cardiff", "location")),
    ("I can't do Wednesdays because of choir", ("User can't do Wednesdays because of choir", "schedule")),
    ("I prefer morning appointments if possible", ("User prefers morning appointments", "preference")),
    ("Grandma turns 90 on Saturday!", ("User's grandma turns 90 on Saturday", "relationship")),
    ("My son's got a nut allergy, is everything labelled?", ("User's son has got a nut allergy", "relationship")),
    ("Our kids are 3 and 5, is the soft play suitable?", ("User's kids are 3 and 5", "relationship")),
    ("I've just adopted a rescue greyhound called Pip!", ("User has a rescue greyhound named Pip", "relationship")),
])
def test_more_everyday_phrasings(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


@pytest.mark.parametrize(("said", "expected"), [
    ("im allergic to penicillin", ("User is allergic to penicillin", "personal")),
    ("my wifes name is Sarah", ("User's wife is named Sarah", "relationship")),
    ("My son (he's 7) wants to try climbing", ("User's son is 7 years old and wants to try climbing", "relationship")),
    ("As a wheelchair user, I need step-free access", ("User is a wheelchair user", "personal")),
    ("I've been vegetarian for 10 years", ("User is vegetarian", "preference")),
    ("I'm on a low sodium diet for my heart", ("User is on a low sodium diet for their heart", "personal")),
    ("I'm doing a PhD in chemistry", ("User is doing a PhD in chemistry", "context")),
    ("My mother-in-law lives with us", ("User's mother-in-law lives with them", "relationship")),
    ("I'm partially sighted so large print would help", ("User is partially sighted", "personal")),
    ("Not a big coffee drinker, do you have herbal tea?", ("User is not a big coffee drinker", "preference")),
])
def test_typed_as_people_type(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


@pytest.mark.parametrize("said", [
    "i booked online yesterday", "I booked last week", "My husband will drop it off", "im just wondering about prices",
    "My friend's son is 6, can he come?", "I'm looking for a birthday present for my sister",
])
def test_errands_and_asking_around_state_nothing(said: str) -> None:
    assert facts(said) == []


def test_a_name_given_earlier_in_the_conversation_stands_for_its_person() -> None:
    assert facts("My daughter Mia is 7.", "Mia's allergic to eggs, is the cake ok?") == [
        ("User's daughter Mia is 7 years old and allergic to eggs", "relationship")]
    assert facts("Messi scored twice last night") == []


def test_what_the_user_cannot_do_for_a_while_passes() -> None:
    assert facts("I've broken my wrist so I can't drive for six weeks") == [("User has broken their wrist", "personal")]


def test_a_named_relation_keeps_its_name_in_what_is_said_of_them() -> None:
    assert facts("My son Jack, he's 4, loves trains") == [("User's son Jack is 4 years old and loves trains",
                                                           "relationship")]
    assert facts("It's for my niece Zara. She's turning 7 on the 9th.") == [
        ("User's niece Zara is turning 7 on the 9th", "relationship")]


@pytest.mark.parametrize("said", [
    "Can I bring my dog?", "My friend said you do good coffee, is that true?", "If I book now, can I cancel later?",
    "I was wondering, do you have gift cards?", "Sounds good, see you then", "Love it, thanks!",
    "Ok great, I'll book for Saturday then", "My order hasn't arrived yet, can you check?",
    "Is it ok if I come a bit late?", "My phone died so I couldn't call", "Hmm, not sure, let me think about it",
    "My boss wants me to work late tonight so I might be late", "Got it, makes sense",
    "Can my son come too? He's really excited", "Went there last year, it was great",
    "My neighbour's dog barks all night.", "My boss is driving me crazy this week.", "I'm outside now",
    "My kids loved it last time", "We're thinking of coming on Friday", "My wife says hi",
    "I'm so sorry, I completely forgot about the booking", "I've got a quick question about the membership",
    "My friend recommended you", "My husband can't make it so it'll just be me",
])
def test_chit_chat_and_requests_around_the_clauses_state_nothing(said: str) -> None:
    assert facts(said) == []


def test_updates_a_name_a_diet_an_age_and_a_taste_said_the_other_way_round() -> None:
    assert naming_of("User's cat is named Luna") == naming_of("User has a cat named Luna") == ("cat", "luna")
    assert decide("User's cat is named Luna", [Candidate("m1", "User has a cat named Luna", 0.7)]).action == "skip"
    assert slot_of("User is no longer veggie") == ("diet", "no longer veggie")
    assert decide("User is no longer veggie", [Candidate("m2", "User is vegetarian", 0.6)]).action == "update"
    assert decide("User's son Rory is 5 years old", [Candidate("m3", "User's son Rory is 4", 0.8)]).action == "update"
    assert decide("User's son Rory is 5 years old", [Candidate("m4", "User's son Theo is 4", 0.8)]).action != "update"
    known = [Candidate("m5", "User prefers morning appointments", 0.5)]
    assert decide("User can't do mornings", known) == decide("User can't do mornings", known)
    assert decide("User can't do mornings", known).action == "update"
    assert decide("User can't do mornings", [Candidate("m6", "User loves hiking", 0.5)]).action == "new"


def test_what_is_given_up_lost_or_taken_up_instead_revises_the_older_memory() -> None:
    assert facts("I quit nursing and now I drive a taxi.") == [
        ("User now works as a taxi driver, having given up nursing", "personal")]
    assert decide("User now works as a taxi driver, having given up nursing",
                  [Candidate("m0", "User works as a nurse", 0.4)]).action == "update"
    assert facts("I drive a Tesla") == [("User drives a Tesla", "context")]
    assert facts("Sadly we lost Rex last month") == [("User lost Rex last month", "relationship")]
    rex = [Candidate("m1", "User has a dog named Rex", 0.4)]
    assert decide("User lost Rex last month", rex).action == "update"
    assert decide("User's dog Rex got neutered", rex).action != "update"
    running = [Candidate("m2", "User likes running", 0.4)]
    assert decide("User gave up running after their knee op", running).action == "update"
    assert decide("User got engaged last month", [Candidate("m3", "User is single", 0.4)]).action == "update"


@pytest.mark.parametrize(("turns", "expected"), [
    (("Do you do kids' parties?", "It's for my son, he'll be 6 next month"),
     ("User's son will be 6 next month", "relationship")),
    (("I'd like to book a table", "It's my husband's 40th so something nice please"),
     ("User's husband is turning 40", "relationship")),
    (("Can I bring my dog?", "She's a golden retriever called Honey"),
     ("User's dog is a golden retriever called Honey", "relationship")),
    (("My boyfriend's called Dev and he's a chef",), ("User's boyfriend Dev is a chef", "relationship")),
    (("My dad's just had a hip replacement so he'll need a wheelchair",),
     ("User's dad has just had a hip replacement", "relationship")),
    (("Me and my wife are celebrating our 25th anniversary next week",),
     ("User and their wife are celebrating their 25th anniversary next week", "relationship")),
    (("I've just started uni in Sheffield, do you do student membership?",),
     ("User started uni in Sheffield", "context")),
    (("Not sure if it matters but I'm pregnant",), ("User is pregnant", "personal")),
    (("I'm allergic to both cats and dogs unfortunately",), ("User is allergic to both cats and dogs", "personal")),
])
def test_pronouns_contractions_and_whether(turns: tuple[str, ...], expected: tuple[str, str]) -> None:
    assert expected in facts(*turns)

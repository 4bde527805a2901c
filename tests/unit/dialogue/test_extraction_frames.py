"""Memory extraction's second pass (core/memory/frames.py): clauses read again in the rules' word order (a time
said first, a closing "now", "we" for the household, two doings of one subject), the general frames, and
revisions said as a switch (dedup.given_up)."""

from __future__ import annotations

import pytest

from avatar_service.core.memory.dedup import Candidate, decide, given_up
from avatar_service.core.memory.extraction import extract_facts
from avatar_service.core.memory.frames import variants

from .extracted import facts


def test_variants_put_a_leading_time_last_and_drop_a_closing_now() -> None:
    assert "I moved to Marseille last month" in list(variants("Last month I moved to Marseille"))
    assert next(variants("Green is my favourite colour now")) == "Green is my favourite colour"
    assert "i'm renovating our kitchen" in list(variants("We're renovating our kitchen"))
    assert "we moved to York in the summer" in list(variants("we packed up and moved to York in the summer"))


@pytest.mark.parametrize(("said", "expected"), [
    ("Last month I moved to Marseille.", ("User moved to Marseille", "location")),
    ("I've lived in Dublin for five years.", ("User lives in Dublin", "location")),
    ("I've been living in Rotterdam for about ten years now.", ("User lives in Rotterdam", "location")),
    ("I live with my two cats in a tiny flat in Lyon.", ("User lives in Lyon", "location")),
    ("I'm getting married next June!", ("User is getting married next June", "relationship")),
    ("We're expecting a baby in March.", ("User is expecting a baby in March", "relationship")),
    ("I have a peanut allergy.", ("User is allergic to peanut", "personal")),
    ("I was diagnosed with diabetes a few years ago.", ("User has diabetes a few years ago", "personal")),
    ("I get really nervous on planes.", ("User gets nervous on planes", "personal")),
    ("My grandfather was a fisherman in Norway.", ("User's grandfather was a fisherman in Norway", "relationship")),
    ("My mum turns 70 next week.", ("User's mum turns 70 next week", "relationship")),
    ("I retired in 2019 after forty years as an engineer.",
     ("User retired in 2019 after forty years as an engineer", "personal")),
    ("Scary films are really not my thing.", ("User does not like Scary films", "preference")),
    ("I stopped eating meat last year.", ("User stopped eating meat last year", "preference")),
    ("Our eldest, Leo, just started at university.",
     ("User's eldest child Leo just started at university", "relationship")),
    ("We adopted two rescue cats last winter.", ("User has two rescue cats", "relationship")),
    ("Coffee makes me jittery so I stick to decaf.", ("User sticks to decaf", "preference")),
    ("My daughter just turned three.", ("User's daughter just turned three", "relationship")),
    ("We finally moved out of Berlin and into a house in Potsdam.", ("User moved to Potsdam", "location")),
    ("Since January I've been working at a bike shop.", ("User works at a bike shop since January", "personal")),
    ("I hate the cold, summer is my favourite season.", ("User's favorite season is summer", "preference")),
    ("Next Saturday I'm going to my cousin's wedding in Porto.",
     ("User is going to their cousin's wedding in Porto next Saturday", "schedule")),
])
def test_everyday_phrasings_become_facts(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)


def test_pets_named_in_a_list_keep_their_names() -> None:
    assert facts("I have two cats, Felix and Tiger.") == [("User has two cats named Felix and Tiger", "relationship")]


def test_a_name_said_in_a_fragment_names_the_pet_just_mentioned() -> None:
    assert facts("We just got a puppy! A beagle called Biscuit.") == [
        ("User has a puppy named Biscuit", "relationship")]


def test_after_and_now_a_new_clause_starts() -> None:
    assert ("User is a food writer", "personal") in facts("I used to be a chef, now I'm a food writer.")


@pytest.mark.parametrize("said", [
    "Last week the shop was closed.", "Yesterday it rained all day.", "Now I see what you mean.",
    "I'm afraid I don't understand.", "I get it now.", "I was diagnosed with nothing, thankfully.",
    "I retired the old laptop.", "On Monday the museum is closed.", "In 2019 the museum reopened.",
    "I have a question about the tickets.", "Our conversation was fun.",
])
def test_chit_chat_in_the_same_shapes_states_nothing(said: str) -> None:
    assert facts(said) == []


def test_a_switch_revises_the_taste_it_leaves() -> None:
    assert given_up("User now prefers green tea to coffee") == {"coffee"}
    assert given_up("User stopped eating meat") == {"meat"}
    assert given_up("User likes tea") is None
    known = [Candidate("mem_1", "User's favourite drink is coffee", 0.6), Candidate("mem_2", "User lives in Oslo", 0.2)]
    assert decide("User now prefers green tea to coffee", known).memory_id == "mem_1"
    assert decide("User now prefers green tea to coffee", known).action == "update"
    assert decide("User stopped eating meat", [Candidate("mem_3", "User plays chess", 0.3)]).action == "new"


@pytest.mark.parametrize(("said", "expected"), [
    ("I'm pretty short-sighted.", ("User is pretty short-sighted", "personal")),
    ("I wear glasses.", ("User wears glasses", "personal")),
    ("Mornings are not my best time, I'm a night owl.", ("User is a night owl", "personal")),
    ("I turned forty in May.", ("User turned forty in May", "personal")),
    ("I got promoted to restaurant manager last month.",
     ("User got promoted to restaurant manager last month", "personal")),
])
def test_a_statement_no_rule_reads_is_kept_as_said(said: str, expected: tuple[str, str]) -> None:
    assert expected in facts(said)
    assert all(f.confidence <= 0.6 for f in extract_facts([said]) if (f.content, f.category) == expected)


@pytest.mark.parametrize("said", [
    "I see what you mean.", "I think so.", "I'm fine, thanks.", "I'm so tired today.", "I'm just browsing.",
    "I have a question about the tickets.", "I need a ticket for Saturday.", "I want to know the price.",
    "I'm looking for the toilets.", "I love that!", "I agree with you.", "I'm going home now.",
    "I went to the shop earlier.", "I booked a table for two.", "I lost my keys yesterday.", "I'm not sure.",
    "I'm having a great time.", "I'm in a hurry.", "I'm with my friend.", "I live in fear of spiders, haha.",
    "I prefer not to say.", "I'm the one who asked yesterday.", "I'm allergic to cats but I still have one.",
])
def test_talk_about_the_conversation_or_the_moment_is_no_memory(said: str) -> None:
    kept = [f.content for f in extract_facts([said]) if f.confidence <= 0.6]
    assert kept == []


def test_a_promotion_updates_the_job() -> None:
    known = [Candidate("mem_1", "User works as a waiter", 0.5)]
    decision = decide("User got promoted to restaurant manager last month", known)
    assert (decision.action, decision.memory_id) == ("update", "mem_1")

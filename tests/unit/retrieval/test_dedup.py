"""Near-duplicate decisions: skip, update or new, by slot, words and similarity."""

from __future__ import annotations

from typing import Any

import pytest

from avatar_service.core.memory.dedup import (
    LEXICAL_THRESHOLDS,
    MODEL_THRESHOLDS,
    Candidate,
    Decision,
    decide,
    slot_of,
    thresholds_for,
)


def c(content: str, similarity: float, memory_id: str = "mem_1") -> Candidate:
    return Candidate(memory_id, content, similarity)


def test_no_candidates_is_new() -> None:
    assert decide("User likes tea", []) == Decision("new")


def test_same_text_is_skipped_whatever_the_score() -> None:
    assert decide("User likes tea.", [c("user likes tea", 0.2)]).action == "skip"


def test_a_new_value_of_a_one_valued_slot_updates() -> None:
    decision = decide("User lives in Porto", [c("User likes tea", 0.5, "m0"), c("User lives in Lisbon", 0.8)])
    assert decision == Decision("update", "mem_1", 0.8)
    assert decide("User's name is Ana Silva", [c("User's name is Ana", 0.75)]).action == "update"
    assert decide("User is 35 years old", [c("User is 34 years old", 0.97)]).action == "update"
    assert decide("User's favorite band is Muse", [c("User's favorite band is Radiohead", 0.58)]).action == "update"


def test_the_same_value_of_a_slot_is_skipped() -> None:
    assert decide("User lives in lisbon!", [c("The user lives in Lisbon", 0.95)]).action == "skip"


def test_different_slots_never_merge() -> None:
    # "lives in" and "is from" the same city score 0.91 with MiniLM: still two facts.
    assert decide("User is from Lisbon", [c("User lives in Lisbon", 0.91)]).action == "new"
    assert decide("User's favorite food is ramen", [c("User's favorite band is Muse", 0.31)]).action == "new"
    assert decide("User's sister is named Maria", [c("User's brother is named Luis", 0.59)]).action == "new"


def test_close_restatement_with_nothing_new_is_skipped() -> None:
    assert decide("User loves hiking", [c("User loves hiking in the mountains", 0.91)]).action == "skip"
    assert decide("User goes swimming on Mondays", [c("User goes swimming every Monday", 0.94)]).action == "skip"


def test_close_statement_that_says_more_or_differs_updates() -> None:
    assert decide("User likes jazz music", [c("User likes jazz", 0.96)]) == Decision("update", "mem_1", 0.96)
    assert decide("User hates hiking", [c("User loves hiking", 0.85)]).action == "update"


def test_negation_and_quantity_are_not_glue() -> None:
    # dedup leaves out the words every fact is built with, not every function word: "not" and "more" say something
    assert decide("User is not vegan", [c("User is vegan", 0.9)]).action == "update"
    assert decide("User wants to travel more", [c("User wants to travel", 0.93)]).action == "update"


def test_distant_facts_are_new() -> None:
    assert decide("User likes swimming", [c("User likes hiking", 0.54)]).action == "new"
    assert decide("User is learning Japanese", [c("User is learning Korean", 0.79)]).action == "new"


def test_thresholds_per_embedder() -> None:
    assert thresholds_for("minilm-l6-v2-int8") is MODEL_THRESHOLDS
    assert thresholds_for("lexical-hash") is LEXICAL_THRESHOLDS
    assert decide("User likes jazz music", [c("User likes jazz", 0.8)], LEXICAL_THRESHOLDS).action == "update"
    assert decide("User likes jazz music", [c("User likes jazz", 0.8)], MODEL_THRESHOLDS).action == "new"


@pytest.mark.parametrize(
    ("content", "slot"),
    [
        ("User's name is Ana", ("name", "ana")),
        ("User lives just outside Toronto", ("home", "toronto")),
        ("User's wife is named Sofia", ("wife name", "sofia")),
        ("User's favourite colour is green", ("favorite colour", "green")),
        ("User's daughter is named Clara", None),  # a person may have several daughters
        ("User likes tea", None),
    ],
)
def test_slots(content: str, slot: tuple[str, str] | None) -> None:
    assert slot_of(content) == slot


@pytest.mark.parametrize(
    ("new", "old", "action"),
    [
        ("User lives in Lisbon, Portugal", "User lives in Lisbon", "update"),
        ("User loves hiking", "User hates hiking", "update"),
        ("User is vegetarian", "User is vegan", "update"),
        ("User likes jazz music", "User likes jazz", "update"),
        ("User is a nurse", "User works as a nurse", "skip"),
        ("User goes swimming on Mondays", "User goes swimming every Monday", "skip"),
        ("User likes swimming", "User likes hiking", "new"),
        ("User has a cat named Miso", "User has a dog named Max", "new"),
        ("User is learning Japanese", "User is learning Korean", "new"),
    ],
)
def test_decisions_with_real_minilm_scores(minilm: Any, new: str, old: str, action: str) -> None:
    a, b = minilm.embed([new, old])
    decision = decide(new, [Candidate("mem_1", old, float(a @ b))], thresholds_for(minilm.name))
    assert decision.action == action

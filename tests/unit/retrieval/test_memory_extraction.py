"""Memory extraction: the labelled quality check (precision >= 0.9) and the rules' contract."""

from __future__ import annotations

from typing import Any

import pytest

from avatar_service.core.memory.extraction import extract_facts
from avatar_service.core.memory.facts import CATEGORIES, Fact


def matches(fact: Fact, expected: dict[str, Any]) -> bool:
    return fact.category == expected["category"] and all(
        word.casefold() in fact.content.casefold() for word in expected["contains"]
    )


def score(items: list[dict[str, Any]]) -> tuple[int, int, int, list[str]]:
    """(true positives, false positives, false negatives, notes) with each turn extracted on its own."""
    tp = fp = fn = 0
    notes = []
    for item in items:
        expected = list(item["facts"])
        for fact in extract_facts([item["turn"]]):
            hit = next((e for e in expected if matches(fact, e)), None)
            if hit is None:
                fp += 1
                notes.append(f"FP {item['turn']!r} -> {fact.content!r} ({fact.category})")
            else:
                expected.remove(hit)
                tp += 1
        fn += len(expected)
        notes.extend(f"FN {item['turn']!r}: {e}" for e in expected)
    return tp, fp, fn, notes


def test_extraction_quality(extraction_set: dict[str, Any]) -> None:
    items = extraction_set["items"]
    assert len(items) >= 100
    assert sum(1 for i in items if not i["facts"]) >= 40  # plenty of turns that must yield nothing
    report = []
    for split in ("dev", "holdout", "all"):
        chosen = [i for i in items if split in ("all", i["split"])]
        tp, fp, fn, notes = score(chosen)
        precision, recall = tp / max(tp + fp, 1), tp / max(tp + fn, 1)
        report.append(f"{split:8} turns={len(chosen):3} precision={precision:.3f} recall={recall:.3f}")
    print("\nmemory extraction\n  " + "\n  ".join(report) + "\n  " + "\n  ".join(notes))
    tp, fp, fn, notes = score(items)
    assert tp / (tp + fp) >= 0.9, notes
    # Measured 0.90 (dev 0.94, holdout 0.72); a floor so recall cannot silently fall.
    assert tp / (tp + fn) >= 0.85, notes


def test_facts_are_third_person_with_a_category_and_confidence_below_one() -> None:
    facts = extract_facts(
        [
            "Hi! My name is Ana and I live in Lisbon with my husband.",
            "I love cooking for my kids. Every Monday I go swimming.",
        ]
    )
    assert [f.content for f in facts] == [
        "User's name is Ana",
        "User lives in Lisbon with their husband",
        "User loves cooking for their kids",
        "User goes swimming every Monday",
    ]
    assert [f.category for f in facts] == ["personal", "location", "preference", "schedule"]
    assert all(f.category in CATEGORIES and 0 < f.confidence < 1 for f in facts)
    assert facts[0].extracted_from == "My name is Ana and I live in Lisbon with my husband."  # the sentence
    assert facts[3].extracted_from == "Every Monday I go swimming."


def test_only_user_turns_matter_and_repeats_come_once() -> None:
    facts = extract_facts(["I live in Lisbon.", "As I said, I live in Lisbon!", "i live in Lisbon"])
    assert [f.content for f in facts] == ["User lives in Lisbon"]


def test_hedged_statements_are_less_certain() -> None:
    [plain] = extract_facts(["I work at the harbour."])
    [hedged] = extract_facts(["I think I work at the harbour."])
    assert hedged.content == plain.content and hedged.confidence < plain.confidence


@pytest.mark.parametrize(
    "turn",
    [
        "Where do I live?",
        "do you think my name is pretty",
        "If I were rich I would live in Monaco.",
        "I'd love to live by the sea.",
        "I wish my name was Zeus.",
        "I don't live there anymore.",
        "My friend says I live in the past.",
        "I love that!",
        "I like your answer.",
        "I live in Atlantis, just kidding.",
        "Let's role play: I'm a knight called Arthur.",
        "",
    ],
)
def test_no_fact_from_questions_wishes_jokes_or_small_talk(turn: str) -> None:
    assert extract_facts([turn]) == []


def test_negation_that_is_itself_the_fact() -> None:
    [fact] = extract_facts(["I don't eat meat."])
    assert (fact.content, fact.category) == ("User does not eat meat", "preference")

"""The one sentence splitter (core.text.sentences): abbreviations, initials, numbers and list items."""

from __future__ import annotations

import pytest

from avatar_service.core.memory.extraction import extract_facts
from avatar_service.core.text.sentences import sentence_spans, split_sentences


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("I work at St. Mary's hospital. It is busy.", ["I work at St. Mary's hospital.", "It is busy."]),
        ("Dr. Vos leads the tour. Mr. and Mrs. Smith come too.", ["Dr. Vos leads the tour.",
                                                                  "Mr. and Mrs. Smith come too."]),
        ("We bake bread, e.g. sourdough and rye. Come by!", ["We bake bread, e.g. sourdough and rye.", "Come by!"]),
        ("A ticket costs 22.50 euros. Kids enter free.", ["A ticket costs 22.50 euros.", "Kids enter free."]),
        ("J. R. R. Tolkien wrote it. Read it.", ["J. R. R. Tolkien wrote it.", "Read it."]),
        ("It closes at 5 p.m. on Main St. in summer. The cafe too.", ["It closes at 5 p.m. on Main St. in summer.",
                                                                      "The cafe too."]),
        ("I said no. Then I left.", ["I said no.", "Then I left."]),
        ("See No. 5 on the list.\nSecond line", ["See No. 5 on the list.", "Second line"]),
        ("Really?! Yes.", ["Really?!", "Yes."]),
    ],
)
def test_sentences_split_at_their_ends_only(text: str, sentences: list[str]) -> None:
    assert split_sentences(text) == sentences
    assert [text[s:e] for s, e in sentence_spans(text)] == sentences


def test_extraction_keeps_an_abbreviation_inside_its_fact() -> None:
    [fact] = extract_facts(["I work as a pediatric nurse at St. Mary's hospital."])
    assert fact.content == "User works as a pediatric nurse at St. Mary's hospital" and fact.category == "personal"
    facts = extract_facts(["I have an appointment with Dr. Patel on Friday at 10am."])
    assert [f.content for f in facts] == ["User has an appointment with Dr. Patel on Friday at 10am"]


def test_one_sentence_may_state_several_facts_and_he_means_the_relation_before() -> None:
    facts = extract_facts(["My wife Sarah and I are going to Lisbon in August.", "My husband's name is Tom.",
                           "He works as a pilot."])
    assert [(f.content, f.category) for f in facts] == [
        ("User's wife is named Sarah", "relationship"), ("User is going to Lisbon in August", "schedule"),
        ("User's husband Tom works as a pilot", "relationship")]  # one memory per person (core/memory/entities.py)


def test_chit_chat_questions_and_opinions_about_other_things_give_nothing() -> None:
    assert extract_facts(["What time is it in Tokyo?", "The weather is terrible today.",
                          "I think the new iPhone is overpriced.", "lol that's funny"]) == []

"""What a yes-or-no question counts against what a sentence counts: "is that just the one visit?" / "covers three
visits" (no), "can we do just the one night?" / "the minimum stay is two nights" (no), "is that for both boots?" /
"£30 per boot" (no), "do the seniors pay per session?" / "Seniors is paid by the term" (no)."""

from __future__ import annotations

import re

from avatar_service.adapters.dialogue.answer_types import HOLDS, NUMBER_WORD, wanted

_COUNTED = re.compile(rf"\b(\d+|{NUMBER_WORD})(?:\s+|-)([a-z]{{3,}})\b", re.I)  # ("a two-hour lesson")
COUNT_WORDS = {w: i for i, w in enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                                            "nine", "ten", "eleven", "twelve"))}
_BOUNDED = re.compile(r"(?:within|up to|under|less than|fewer than|no more than|over|more than|above|at least|"
                      r"at most|maximum(?: of)?|minimum(?: of)?|from)\s+$", re.I)


def _counts(text: str, bounded_too: bool = True) -> dict[str, set[int]]:
    """What a text counts ("three visits" -> {"visit": {3}}), by the counted word without its plural."""
    out: dict[str, set[int]] = {}
    for m in _COUNTED.finditer(text):
        number = m.group(1).lower()
        value = int(number) if number.isdigit() else COUNT_WORDS.get(number)
        if value is None or (not bounded_too and _BOUNDED.search(text[:m.start()])):
            continue
        out.setdefault(m.group(2).lower().removesuffix("s"), set()).add(value)
    return out


def over_the_minimum(question: str, sentence: str) -> bool | None:
    """Whether the number a yes-or-no question puts on a thing ("can we do just the one night?") reaches the minimum
    a sentence sets on it ("the minimum stay is two nights"); None when the sentence sets none on what it counts."""
    asked = _counts(question)
    for m in _MINIMUM.finditer(sentence):
        for thing, minimum in _counts(m.group(1)).items():
            if thing in asked:
                return all(value >= min(minimum) for value in asked[thing])
    return None


# "the minimum stay is two nights", "a minimum of 10 children", "at least two nights"
_MINIMUM = re.compile(rf"\b(?:minimum(?: \w+)? (?:is|of)|at least) ((?:\d+|{NUMBER_WORD})\s+[a-z]{{3,}})", re.I)


def priced_each(question: str, sentence: str) -> bool:
    """Whether a question asks if a price covers both or all of a thing ("is that for both boots?") that the sentence
    prices one at a time ("£30 per boot"): then it does not."""
    m = _BOTH.search(question)
    if m is None:
        return False
    thing = m.group(1).lower().removesuffix("s")
    return any(w.lower().removesuffix("s") == thing for w in _PER.findall(sentence))


_BOTH = re.compile(r"\b(?:both|all(?: the)?|the two|the pair of)\s+([a-z]{3,})\b", re.I)
_PER = re.compile(r"\bper ([a-z]{3,})\b", re.I)


def in_the_count(question: str, sentence: str) -> bool | None:
    """Whether the number a yes-or-no question puts on a thing ("is that just the one visit?") is the one a sentence
    gives it ("covers three visits over three weeks"); None when they count nothing in common, or the sentence
    only bounds it ("up to four passengers": amount_fit's)."""
    asked, given = _counts(question), _counts(sentence, bounded_too=False)
    common = asked.keys() & given.keys()
    if not common:
        return None
    return all(asked[thing] & given[thing] for thing in common)


def counts_the_same(question: str, clause: str) -> bool:
    """Whether a clause counts a thing as the question does: "two cats in one chalet?" / "two cats sharing cost £22"."""
    asked = _counts(question)
    return any(values & asked.get(thing, set()) for thing, values in _counts(clause).items())


# what a price is counted by ("per session", "by the term", "£6 a class")
_PER_UNIT = re.compile(r"\b(?:per|by the|each|a|an|every) (session|lesson|class|term|month|week|day|hour|night|year|"
                       r"visit|person|head|job|item)s?\b", re.I)


def by_the_unit(question: str, sentence: str) -> bool | None:
    """Whether a price asked by one unit ("do you charge per session?") is the one the sentence's price is counted
    by; None when either names none, or the question asks no price."""
    asked = {m.group(1).lower() for m in _PER_UNIT.finditer(question)}
    # ("paid by the term, not per session" counts by the term)
    given = {m.group(1).lower() for m in _PER_UNIT.finditer(sentence) if not _DENIED.search(sentence[:m.start()])}
    if not (asked and given and "price" in wanted(question) and HOLDS["price"].search(sentence)):
        return None
    return bool(asked & given)


_DENIED = re.compile(r"\b(?:not|rather than|instead of)\s+$", re.I)

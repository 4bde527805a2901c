"""Answers cut to the part asked about.

A sentence that pairs lists item by item ("lessons last 30, 45 or 60 minutes and cost £22, £31 and £40"),
narrowed to the one item the question names: "how much is an hour lesson?" is answered "lessons last 60 minutes
and cost £40", not with every price. Only figures are paired (durations, prices, sizes), and only lists of the
same length, and of three items or more unless the sentence says "respectively" ("open at 9 and 10 and closed at 5
and 6" pairs nothing). A question that names no item, or one found in no list or in two places, leaves the
sentence whole.

A sentence of two clauses, each stating the kind of answer asked for ("our white sourdough loaf costs £4.20 and
the seeded rye costs £4.80"), is cut to the clause that holds more of the question's words ("how much is a
sourdough loaf?" -> "our white sourdough loaf costs £4.20"); a tie keeps both.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from avatar_service.adapters.dialogue.answer_types import holds
from avatar_service.adapters.dialogue.terms import terms

_ITEM = r"(?:[£$€]\s?)?\d+(?:[.:]\d+)?%?"
_LIST = re.compile(rf"(?<![\w£$€.,]){_ITEM}(?:,\s*{_ITEM})*,?\s+(?:and|or)\s+{_ITEM}(?![\w.]*\d)")
_NUMBER = re.compile(r"\d+(?:[.:]\d+)?")
_RESPECTIVELY = re.compile(r",?\s+respectively\b", re.I)
# durations said in words, in minutes: "an hour lesson", "a half-hour one", "an hour and a half"
_DURATIONS = [
    (re.compile(r"\b(?:an?|one) hour and a half\b|\b(?:1\.5|one and a half) hours?\b", re.I), 90.0),
    (re.compile(r"\bhalf[ -](?:an[ -])?hour\b", re.I), 30.0),
    (re.compile(r"\bquarter[ -](?:of[ -]an[ -])?hour\b", re.I), 15.0),
    (re.compile(r"\b(?:two|2)[ -]hours?\b", re.I), 120.0),
    (re.compile(r"\b(?:an?|one|1)[ -]hour\b|\bhour[ -]long\b", re.I), 60.0),
]
_MINUTES = re.compile(r"\s*(?:minutes?|mins?)\b", re.I)


def _value(item: str) -> float:
    number = _NUMBER.search(item)
    return float(number.group(0).replace(":", ".")) if number else float("nan")


def _named(question: str) -> tuple[set[float], set[float]]:
    """The figures a question names: as said, and durations said in words (in minutes)."""
    durations: set[float] = set()
    for pattern, minutes in _DURATIONS:
        if pattern.search(question):
            durations.add(minutes)
            question = pattern.sub(" ", question)
    return {float(n.replace(":", ".")) for n in _NUMBER.findall(question)}, durations


def narrowed(sentence: str, question: str) -> str:
    """`sentence` with each of its paired lists cut to the item `question` names; else as it is."""
    lists = list(_LIST.finditer(sentence))
    if len(lists) < 2:
        return sentence
    items = [re.findall(_ITEM, m.group(0)) for m in lists]
    figures, durations = _named(question)
    if not figures and not durations:
        return sentence
    picks = set()
    for m, listed in zip(lists, items, strict=True):
        in_minutes = bool(_MINUTES.match(sentence, m.end()))
        wanted = figures | (durations if in_minutes else set())
        picks |= {(len(listed), i) for i, item in enumerate(listed) if _value(item) in wanted}
    if len(picks) != 1:
        return sentence
    size, index = picks.pop()
    paired = [(m, listed) for m, listed in zip(lists, items, strict=True) if len(listed) == size]
    if len(paired) < 2 or (size < 3 and not _RESPECTIVELY.search(sentence)):
        return sentence
    out, last = [], 0
    for m, listed in paired:
        out += [sentence[last:m.start()], listed[index]]
        last = m.end()
    return _RESPECTIVELY.sub("", "".join([*out, sentence[last:]]))


# where one clause ends and the next begins: ", and a 9-inch cake...", " and the seeded rye..."
_CLAUSES = re.compile(r",?\s+(?:and|while|whereas)\s+(?=(?:the|a|an|our|each|every|all)\b)|;\s+", re.I)


def one_clause(sentence: str, question: str, kinds: Sequence[str]) -> str:
    """`sentence` cut to its one clause that holds the kind asked for and most of the question's terms."""
    question_terms = set(terms(question))
    if not kinds or not question_terms:
        return sentence
    clauses = [c.strip() for c in _CLAUSES.split(sentence.rstrip(".!?")) if c.strip()]
    if len(clauses) < 2 or not all(len(c.split()) >= 3 and holds(c, kinds) for c in clauses):
        return sentence
    shared = [len(question_terms & set(terms(c))) for c in clauses]
    best = max(shared)
    if best == 0 or shared.count(best) > 1:
        return sentence
    chosen = clauses[shared.index(best)]
    return chosen[:1].upper() + chosen[1:] + "."

"""The case a comparing word asks for among a sentence's clauses: "the bigger size" (a size word's case, or the last,
as cases go from small to large), "which night do you stay open late?" (the clause with the latest hour)."""

from __future__ import annotations

import re
from collections.abc import Sequence

_LARGER = re.compile(r"\b(?:(bigger|biggest|larger|largest|longer|longest)|smaller|smallest|shorter|shortest)\b", re.I)
_BIG = re.compile(r"\b(?:large|larger|big|bigger|biggest|largest|tall|long)\b", re.I)
_SMALL = re.compile(r"\b(?:small|smaller|smallest|little|mini|short)\b", re.I)
_EXTREME = re.compile(r"\b(?:(late|later|latest)|early|earlier|earliest)\b", re.I)
_CLOCK = re.compile(r"\b(\d{1,2})(?:[:.](\d\d))?\s?(am|pm)\b", re.I)
_MORNING = re.compile(r"\bmornings?\b", re.I)
_EVENING = re.compile(r"\b(?:evenings?|nights?|afternoons?)\b", re.I)


def sized(clauses: Sequence[str], question: str) -> list[str]:
    """"on the bigger size?": the one clause a size word names ("£9 for a small"), or, when none says a size, the last
    (or for a smaller one the first), as cases go from small to large ("£30 extra for A4 and £45 extra for A3"); []
    when the question compares no size or the size words leave it open."""
    larger = _LARGER.search(question)
    if larger is None:
        return []
    named = [c for c in clauses if (_BIG if larger.group(1) else _SMALL).search(c)]
    if len(named) == 1:
        return named
    if any(_BIG.search(c) or _SMALL.search(c) for c in clauses):
        return []
    return [clauses[-1] if larger.group(1) else clauses[0]]


def at_the_extreme_hour(clauses: Sequence[str], question: str) -> str | None:
    """"how late ...?", "the earliest ...": the one clause with the latest (or earliest) hour, of the morning or the
    evening when the question says; None when the question asks neither or two clauses tie."""
    extreme = _EXTREME.search(question)
    if extreme is None:
        return None
    pick = max if extreme.group(1) else min
    hours = [_hours(c, question) for c in clauses]
    known = [pick(h) for h in hours if h]
    if len(known) < 2 or known.count(pick(known)) != 1:
        return None
    return clauses[[pick(h) if h else None for h in hours].index(pick(known))]


def _hours(clause: str, question: str) -> list[int]:
    """The clause's times of day, in minutes after midnight (in the morning or the evening, when the question says)."""
    times = [(int(h) % 12 + (12 if ampm.lower() == "pm" else 0)) * 60 + int(m or 0)
             for h, m, ampm in _CLOCK.findall(clause)]
    if _MORNING.search(question):
        return [t for t in times if t < 12 * 60]
    return [t for t in times if t >= 12 * 60] if _EVENING.search(question) else times

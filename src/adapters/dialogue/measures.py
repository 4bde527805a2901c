"""Whether a size or a distance the user told is within the place's limit: "is my socket close enough?" / "Your patio
is about 10 metres from the nearest outdoor socket" / "It must be within 15 metres of a standard 13-amp socket" says
yes; "will it fit in my garden?" / "... a flat lawn about 20ft by 25ft" / "... needs a flat area of at least 15ft by
15ft" says yes too. Only a measure in the same unit and as many dimensions, after "within", "up to", "at least"...,
in a sentence that shares a word with the memory (the socket, a flat area), is compared."""

from __future__ import annotations

import re

from avatar_service.adapters.dialogue.ranked import Candidate, Ranking
from avatar_service.adapters.dialogue.terms import terms

# asks whether a thing is within a limit ("close enough", "will it fit", "enough room")
_ENOUGH = re.compile(r"\b(?:close|near|big|large|long|wide|tall|high) enough\b|\bfits?\b|\benough (?:room|space)\b",
                     re.I)
_UNITS = {"m": "m", "metre": "m", "metres": "m", "meter": "m", "meters": "m", "ft": "ft", "feet": "ft", "foot": "ft",
          "yard": "yd", "yards": "yd", "yd": "yd", "cm": "cm", "km": "km", "mile": "mi", "miles": "mi"}
_UNIT = "|".join(sorted(_UNITS, key=len, reverse=True))
_MEASURE = re.compile(rf"(\d+(?:\.\d+)?)\s?-?({_UNIT})\b(?:\s*(?:by|x|×)\s*(\d+(?:\.\d+)?)\s?-?({_UNIT})\b)?", re.I)
_AT_MOST = re.compile(r"\b(?:within|up to|no more than|less than|under|at most|maximum(?: of)?)\s+$", re.I)
_AT_LEAST = re.compile(r"\b(?:at least|minimum(?: of)?|more than|over|no less than)\s+$", re.I)
_LOOK = 6  # the place's best-ranked sentences read for a limit


def within_limit(question: str, ranking: Ranking) -> tuple[bool, str] | None:
    """Whether the measure a memory gives is within the limit of one of the best-ranked known sentences, and that
    sentence; None when the question asks no such thing or nothing compares."""
    if not (ranking.yes_no and _ENOUGH.search(question)):
        return None
    told = [s.candidate for s in ranking.ranked if s.candidate.kind == "memory" and _MEASURE.search(s.candidate.text)]
    asked = set(terms(question))
    told = [c for c in told if asked & set(terms(c.text))] or (told if len(told) == 1 else [])
    if len(told) != 1:
        return None
    mine = _measure(_MEASURE.search(told[0].text))
    their = set(terms(_MEASURE.sub(" ", told[0].text)))
    for scored in [s for s in ranking.ranked if s.candidate.kind == "knowledge"][:_LOOK]:
        if verdict := _compared(mine, scored.candidate, their):
            return verdict
    return None


def _compared(mine: tuple[str, list[float]], candidate: Candidate, told: set[str]) -> tuple[bool, str] | None:
    text = candidate.text
    if not told & set(terms(_MEASURE.sub(" ", text))):
        return None
    for m in _MEASURE.finditer(text):
        unit, limit = _measure(m)
        most, least = _AT_MOST.search(text[:m.start()]), _AT_LEAST.search(text[:m.start()])
        if unit != mine[0] or len(limit) != len(mine[1]) or not (most or least):
            continue
        pairs = list(zip(mine[1], limit, strict=True))
        return (all(a <= b for a, b in pairs) if most else all(a >= b for a, b in pairs)), text
    return None


def _measure(m: re.Match[str] | None) -> tuple[str, list[float]]:
    """The unit and the dimensions, largest first ("20ft by 25ft": ft, [25, 20])."""
    if m is None:
        return "", []
    dims = [float(m.group(1))] + ([float(m.group(3))] if m.group(3) else [])
    return _UNITS[m.group(2).lower()], sorted(dims, reverse=True)

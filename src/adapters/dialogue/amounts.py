"""Amounts a question names and the bounds a sentence sets on them: "a venue about 20 miles away" is within "we
travel up to 25 miles", not within "between 25 and 50 miles"."""

from __future__ import annotations

import re
from collections.abc import Sequence

# an amount of something countable: "about 20 miles away", "600 pages", "3 nights" (a week is 7 days)
_UNITS = {"mile": "mile", "km": "km", "kilometre": "km", "kilometer": "km", "page": "page", "side": "page",
          "copy": "copy", "copie": "copy", "night": "day", "day": "day", "people": "person", "person": "person",
          "guest": "person", "kg": "kg", "kilo": "kg", "hour": "hour"}
_AMOUNT = re.compile(r"\b(\d[\d,]*|an?)\s?(miles?|km|kilometres?|kilometers?|pages?|sides?|cop(?:y|ies)|nights?|days?|"
                     r"people|persons?|guests?|kgs?|kilos?|hours?|weeks?)\b", re.I)
_BOUND = re.compile(r"(within|up to|under|less than|fewer than|no more than|over|more than|above)\s+$|"
                    r"^\s*or (more|over|less|fewer)\b", re.I)
_SPAN = re.compile(r"\b(?:between\s+)?(\d[\d,]*)\s?(?:and|to|-|–)\s?(\d[\d,]*)\s?([a-z]+)", re.I)


def _amounts(text: str) -> list[tuple[float, str, re.Match[str]]]:
    out = []
    for m in _AMOUNT.finditer(text):
        number, unit = m.group(1).lower().replace(",", ""), m.group(2).lower().rstrip("s")
        if number in ("a", "an") and unit != "week":
            continue  # "£40 a night" is a rate, "for a week" an amount
        value = 1.0 if number in ("a", "an") else float(number)
        if unit == "week":
            value, unit = 7 * value, "day"
        if unit in _UNITS:
            out.append((value, _UNITS[unit], m))
    return out


def amounts(question: str) -> list[tuple[float, str]]:
    """The countable amounts a question names ("a venue about 20 miles away" -> [(20, "mile")])."""
    return [(value, unit) for value, unit, _ in _amounts(question)]


def amount_fit(piece: str, asked: Sequence[tuple[float, str]]) -> bool:
    """Whether a bound or span in `piece` includes an asked amount ("within 25 miles" holds 20 miles; "between 25
    and 50 miles" does not; "stays of a week or more" does not hold 3 nights)."""
    for value, unit in asked:
        spans = [(float(m.group(1).replace(",", "")), float(m.group(2).replace(",", "")))
                 for m in _SPAN.finditer(piece) if _UNITS.get(m.group(3).lower().rstrip("s")) == unit]
        if any(low <= value <= high for low, high in spans):
            return True
        for limit, limit_unit, m in _amounts(piece):
            before, after = _BOUND.search(piece[:m.start()]), _BOUND.search(piece[m.end():])
            word = (before.group(1) if before else f"or {after.group(2)}" if after else "").lower()
            if limit_unit == unit and word and _BOUNDS[word](value, limit):
                return True
    return False


def bounds_amount(piece: str, asked: Sequence[tuple[float, str]]) -> bool:
    """Whether `piece` sets a bound or a span on the unit of an asked amount ("for stays of a week or more")."""
    units = {unit for _, unit in asked}
    return any(_UNITS.get(m.group(3).lower().rstrip("s")) in units for m in _SPAN.finditer(piece)) or any(
        unit in units and (_BOUND.search(piece[:m.start()]) or _BOUND.search(piece[m.end():]))
        for _, unit, m in _amounts(piece))


_BOUNDS = {"within": float.__le__, "up to": float.__le__, "no more than": float.__le__, "or less": float.__le__,
           "or fewer": float.__le__, "under": float.__lt__, "less than": float.__lt__, "fewer than": float.__lt__,
           "over": float.__gt__, "more than": float.__gt__, "above": float.__gt__, "or more": float.__ge__,
           "or over": float.__ge__}

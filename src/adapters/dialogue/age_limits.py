"""The ages a question is about ("my 12 year old son", "can under 13s go?") and the age limits a sentence states
("visitors under 18 enter free", "children aged 4 to 15"): whether a limit includes or bars an asked age."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

# "12 year old", "12-year-old", "aged 12", "age 12", "is turning 10", "is two and a half" (two); a baby's months
# ("8 months old") are age 0, not 8
_AGE_WORDS = {w: n for n, w in enumerate(["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                                          "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
                                          "eighteen", "nineteen", "twenty"], 1)}
_AGE_WORD = rf"(?:{'|'.join(_AGE_WORDS)})"
_AGE = re.compile(rf"\b(\d{{1,3}}|{_AGE_WORD})[ -]years?[ -]old\b|\b(?:aged?|age of) (\d{{1,3}})\b|"
                  rf"\b(?:is|turning) (\d{{1,2}})\b(?![ -]months?\b)|"
                  rf"\bis ({_AGE_WORD})(?= and an? half\b|\s*(?:[.,;!?]|$))|"
                  rf"\b(\d{{1,2}}|{_AGE_WORD})[ -]months?[ -]old\b", re.I)
ADULT_AGE = 18  # (the age from which one is a grown-up)
# an age limit: a number that is not a time, a price or a count of something else ("under 18", "under-18s")
_LIMIT = re.compile(r"\b(under|below|younger than|over|above|older than)[\s-](\d{1,3})s?\b(?![.:]?\d|\s?(?:am|pm|"
                    r"euros?|guests|people|persons|minutes|hours|weeks|months|km|kg|%))|\b(\d{1,3})\s(?:and|or)\s(over|under|older|"
                    r"younger|up)\b", re.I)  # (... "for ages 16 and up")
# ("the lads", "the girls": friends, grown-up ones)
_CHILD = re.compile(r"\b(?:sons?|daughters?|kids?|child|children|bab(?:y|ies)|toddlers?|"
                    r"(?<!\bthe )(?:boys|girls|lads)|boy|girl|lad|lass|"
                    r"teen\w*|twins|grandsons?|granddaughters?|grandchild|grandchildren|grandkids?)\b", re.I)


def age_bars(sentence: str) -> list[int]:
    """The ages below which the sentence bars one ("children under 12 aren't allowed in the canoes", "children under 8
    can't take part", "no under-16s")."""
    return [int(next(g for g in m.groups() if g)) for m in _AGE_BAR.finditer(sentence)]


_AGE_BAR = re.compile(r"\bunder[- ](\d{1,2})s?\b(?![.:]?\d|\s?(?:am|pm|%|minutes|hours|months|weeks|kg|km|cm))"
                      r"[^.;,]{0,40}?\b(?:aren't|are not|isn't|is not|can't|cannot|can not|not) (?:allowed|permitted|"
                      r"able to|take part|join|come|go)\b|\bno (?:one |children |kids )?under[- ](\d{1,2})s\b|"
                      r"\bfor ages? (\d{1,2}) and (?:over|up|older) only\b", re.I)  # ("for ages 13 and over only")


def ages(text: str) -> list[int]:
    # (a baby's months are its years: "18 months old" is 1)
    return [_age_number(m.group(5)) // 12 if m.group(5) else _age_number(next(g for g in m.groups() if g))
            for m in _AGE.finditer(text)]


def _age_number(said: str) -> int:
    return int(said) if said.isdigit() else _AGE_WORDS[said.lower()]


TODDLER_AGE, _TODDLER = 2, re.compile(r"\btoddlers?\b", re.I)
TEEN_AGE, _TEEN = 15, re.compile(r"\bteen(?:s|agers?)?\b", re.I)


_GROUP_ASKED = re.compile(r"\b(under|over)[- ](\d{1,2})s\b(?![.:]?\d)", re.I)


def group_asked(question: str) -> list[int]:
    """The age a question asks of with a group's name: "can under 13s go?" is 12, "do over 60s pay less?" 60."""
    return [int(m.group(2)) - (m.group(1).lower() == "under") for m in _GROUP_ASKED.finditer(question)][:1]


def ages_meant(text: str) -> list[int]:
    """The ages a question says, or means: a toddler is about 2, a teenager about 15."""
    return ages(text) or ([TODDLER_AGE] if _TODDLER.search(text) else [TEEN_AGE] if _TEEN.search(text) else [])


# an age range: "children aged 4 to 15", "ages 8 to 14", "for 5-11 year olds", "from age 5 up to 11"
_RANGE = re.compile(r"\b(?:aged?s?|for|between|from (?:the )?age(?: of)?)\s+(\d{1,2})\s?(?:-|–|to|and|up to)\s?"
                    r"(\d{1,2})\b(?![.:]?\d|\s?(?:am|pm|euros?|pounds?|minutes|hours|km|kg|%))", re.I)


# "16- and 17-year-olds"; a youngest age: "riders can start at 4", "from the age of 7"
_YEAR_OLDS = re.compile(r"\b(\d{1,2})-?\s?(?:and|to|or|-|–)\s?(\d{1,2})[ -]years?[ -]olds\b", re.I)
_YOUNGEST = re.compile(r"\b(?:(?:start|begin|join)s?|starting) (?:at|from) (?:the age of )?(\d{1,2})\b"
                       r"(?![.:]?\d|\s?(?:am|pm|o'clock))|"
                       r"\bfrom (?:the )?age (?:of )?(\d{1,2})\b(?!\s?(?:-|–|to|up to) ?\d)", re.I)  # (not a range's)


def age_fit(sentence: str, asked: Sequence[int]) -> float:
    """Above 0 when an age limit or range in the sentence includes an asked age (the more it says of it, the more),
    below 0 when it excludes it, 0 otherwise."""
    if not asked:
        return 0.0
    if ANY_AGE.search(sentence):  # ("adult beginners are welcome at any age")
        return _NAMED_RANGE
    # "can start at 4" says more of a 4-year-old than "under 14" does
    youngest = [all(age >= int(m.group(1) or m.group(2)) for age in asked) for m in _YOUNGEST.finditer(sentence)]
    fit = 1.0 if any(youngest) else _limits_fit(sentence, asked)
    return fit if fit > 0 else -1.0 if youngest else fit


ANY_AGE = re.compile(r"\b(?:at|of) any age\b|\bof all ages\b|\bno (?:upper )?age limit\b", re.I)


# how well what includes the age says it: "children aged 3 and 4" names those ages (two years apart at most),
# "Juniors, aged 6 to 9" is their group, "under 4s" only bars older ones, "our under-12 team" them and a 4-year-old's
_NAMED_RANGE, _RANGE_FIT, _LIMIT_FIT, _FAR_LIMIT_FIT, _FAR_LIMIT_BAR, _NARROW = 1.0, 0.95, 0.9, 0.75, -0.5, 2


def _limits_fit(sentence: str, asked: Sequence[int]) -> float:
    verdict = 0.0
    for m in [*_RANGE.finditer(sentence), *_YEAR_OLDS.finditer(sentence)]:
        low, high = int(m.group(1)), int(m.group(2))
        if low < high:
            if all(low <= age <= high for age in asked):
                return _NAMED_RANGE if high - low <= _NARROW else _RANGE_FIT
            verdict = -1.0
    for m in _LIMIT.finditer(sentence):
        if m.group(1):
            word, limit = m.group(1).lower(), int(m.group(2))
        else:
            word, limit = m.group(4).lower(), int(m.group(3))
        below = word in ("under", "below", "younger than", "younger")
        inside = all(age < limit for age in asked) if below else all(age >= limit for age in asked)
        near = all(abs(limit - age) <= _NARROW + 1 for age in asked)
        if inside:
            return _LIMIT_FIT if near else _FAR_LIMIT_FIT
        verdict = min(verdict, -1.0 if near else _FAR_LIMIT_BAR)  # ("over-65s pay £11" bars a toddler by the way)
    return verdict


def child_range(sentence: str) -> bool:
    """Children of some ages: "children aged 4 to 15", "classes for ages 8 to 14"."""
    return any(int(m.group(1)) < int(m.group(2)) <= 18 for m in _RANGE.finditer(sentence))


# the user's people whose age a limit may be about beside their children (a mum's is not)
KIN_WORDS = ("niece", "nephew", "sister", "brother", "cousin", "mum", "mom", "mother", "dad", "father", "nan", "gran",
             "grandma", "grandad", "grandpa", "grandmother", "grandfather")


def mentions_child(text: str) -> bool:
    return bool(_CHILD.search(text))


_GROUP = re.compile(r"\b(?:children|child|kids|students|seniors|visitors under|under[- ]\d+|over[- ]\d+)s?\b", re.I)


@functools.lru_cache(maxsize=16384)  # (read of every candidate in every ranking)
def limits_group(sentence: str) -> bool:
    """A sentence about one group of people ("children under 6 eat breakfast free"), not a price list that names
    adults' price too ("Tickets cost £22 for adults, £15 for under-18s and £18 for over-65s")."""
    return bool(_GROUP.search(sentence)) and not _ADULTS_PRICED.search(sentence)


_ADULTS_PRICED = re.compile(r"[£$€]\s?\d[\d.,]*\s+(?:for|per)\s+(?:an?\s+)?adults?\b|"
                            r"\badults?\s+(?:pay|costs?)\s+[£$€]", re.I)


def for_minors(sentence: str) -> bool:
    """A limit that only minors meet ("visitors under 18", "children under 10")."""
    return any(m.group(1) and m.group(1).lower() in ("under", "below", "younger than") and int(m.group(2)) <= 18
               for m in _LIMIT.finditer(sentence))

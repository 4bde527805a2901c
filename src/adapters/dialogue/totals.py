"""A price asked for several of a thing that the answer prices one at a time: "how much extra for both my mattresses?"
/ "Old mattresses are fine but cost an extra £25 each" comes to £50 for the two, said after the sentence. Only when
the question counts one thing and the sentence prices that thing alone ("£25 each", "£60 per night"): a sum of
different prices ("me and my son" at £25 and £20) is left to the user. And the price of a group the user told of
("what would that come to for all of us?" / "User's stag group is 16 people" / "£35 per person")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from avatar_service.adapters.dialogue.counted import COUNT_WORDS
from avatar_service.adapters.dialogue.party_prices import party_total
from avatar_service.adapters.dialogue.ranked import Ranking
from avatar_service.adapters.dialogue.terms import stem, terms


def with_total(question: str, answer: str, kinds: Sequence[str], previous_reply: str, memories: Sequence[str],
               ranking: Ranking) -> list[str]:
    """The answer, and the sum a price asked for several comes to: "That's £50 for two mattresses." after it, or
    instead of it the price of a group the user told of, or of the party the question lists (party_prices)."""
    if "price" in kinds and (total := total_for(question, answer, kinds)):
        return [answer, total]
    return [group_total(question, answer, previous_reply, memories) or
            ("price" in kinds and party_total(question, ranking, memories)) or answer]


_NUMBERS = {**{w: n for w, n in COUNT_WORDS.items() if n >= 2}, "both": 2}  # (several: "one" counts nothing up)
_SAID = {n: w for w, n in COUNT_WORDS.items()}
# "both my mattresses", "two old chairs", "3 nights", "all four tyres"
_COUNTED = re.compile(rf"\b({'|'.join(_NUMBERS)}|\d{{1,2}})\s+(?:of\s+)?(?:(?:my|our|the|your|his|her|their|these|"
                      r"those)\s+)?(?:([a-z]{3,})\s+)?([a-z]{3,})\b", re.I)
# a price for one: "£25 each", "£60 per night", "£7 a session"
_EACH = re.compile(r"([£$€])\s?(\d+(?:\.\d\d)?)\s+(?:each|apiece|per ([a-z]+)|an? ([a-z]+))\b", re.I)


def total_for(question: str, answer: str, kinds: Sequence[str]) -> str | None:
    """"That's £50 for two mattresses." when the question asks the price of a counted thing the answer prices each."""
    if "price" not in kinds:
        return None
    counted = [(m, _NUMBERS[m.group(1).lower()] if m.group(1).isalpha() else int(m.group(1)))
               for m in _COUNTED.finditer(question)]
    counted = [(m, n) for m, n in counted if n >= 2]
    priced = list(_EACH.finditer(answer))
    if len(counted) != 1 or len(priced) != 1:
        return None
    (count, n), (price,) = counted[0], priced
    # (the counted word is the thing, or the word before it when it is no thing: "both old mattresses")
    things = {stem(count.group(3).lower())} | ({stem(count.group(2).lower())} if count.group(2) else set())
    unit = price.group(3) or price.group(4)
    if not (things & {stem(unit.lower())} if unit else things & set(terms(answer))):
        return None
    total = n * float(price.group(2))
    amount = f"{total:.2f}".removesuffix(".00")
    return f"That's {price.group(1)}{amount} for {_SAID.get(n, str(n))} {count.group(3).lower()}."


# the whole of a group the user told of, asked for ("for all of us", "for the lot", "for noah's party", "in total")
_GROUP_ASKED = re.compile(r"\b(?:all of us|the lot|every(?:one|body)|the whole (?:group|lot|party|family)|in total|"
                          r"altogether|the total|come to|(?:my|our|the|\w+'s) (?:group|party|stag(?: do)?|hen(?: do)?|"
                          r"team|guests))\b", re.I)
# a number of people a memory gives ("16 people including himself", "with 10 children", "about 70 guests")
_HEADCOUNT = re.compile(rf"\b(\d{{1,3}}|{'|'.join(_NUMBERS)})\s+(people|persons|guests|adults|players|friends|"
                        r"children|kids|girls|boys)\b", re.I)
_OF_US = re.compile(rf"\b(?:\d{{1,3}}|{'|'.join(_NUMBERS)}) of (?:us|them)\b", re.I)  # ("for the 3 of us": counted)
_CHILDREN = frozenset(("children", "kids", "girls", "boys"))
_FOR_CHILDREN = frozenset(("child", "kid", "children", "kids"))
_FOR_ANYONE = frozenset(("person", "head", "guest", "player", "people", "adult", "driver", "rider", "visitor",
                         "participant", "member", "diner"))


def group_total(question: str, answer: str, previous_reply: str, memories: Sequence[str]) -> str | None:
    """"At £35 per person, that's £560 for 16 people.": the price of one (in the answer, or else in the last reply,
    which "that" points back to) times the number of people a memory gives the group asked about; None when the
    question counts for itself, asks of no group, or the memories give no one number of such people."""
    if not _GROUP_ASKED.search(question) or _COUNTED.search(question) or _HEADCOUNT.search(question) or \
            _OF_US.search(question):
        return None
    for said in (answer, previous_reply):
        priced = [m for m in _EACH.finditer(said) if (m.group(3) or m.group(4) or "").lower() in
                  _FOR_CHILDREN | _FOR_ANYONE]
        if priced:
            break
    else:
        return None
    if len(priced) != 1:
        return None
    price = priced[0]
    unit = (price.group(3) or price.group(4)).lower()
    asked = set(terms(question))
    # (the memory naming what the question names, "noah's party"; and a count of people for a price per person, of
    # children for one per child)
    counts = [((len(asked & set(terms(m))), (people.lower() in _CHILDREN) == (unit in _FOR_CHILDREN)), n,
               people.lower()) for m in memories for n, people in _HEADCOUNT.findall(m)
              if unit in _FOR_ANYONE or people.lower() in _CHILDREN]
    best = max((fit for fit, _, _ in counts), default=None)
    counts = [c for c in counts if c[0] == best]
    if len({(n, people) for _, n, people in counts}) != 1:
        return None
    _, number, people = counts[0]
    n = int(number) if number.isdigit() else _NUMBERS[number.lower()]
    amount = f"{n * float(price.group(2)):.2f}".removesuffix(".00")
    return f"At {price.group(0)}, that's {price.group(1)}{amount} for {n} {people}."

"""A price asked for several of a thing that the answer prices one at a time: "how much extra for both my mattresses?"
/ "Old mattresses are fine but cost an extra £25 each" comes to £50 for the two, said after the sentence. Only when
the question counts one thing and the sentence prices that thing alone ("£25 each", "£60 per night"): a sum of
different prices ("me and my son" at £25 and £20) is left to the user."""

from __future__ import annotations

import re
from collections.abc import Sequence

from avatar_service.adapters.dialogue.counted import COUNT_WORDS
from avatar_service.adapters.dialogue.terms import stem, terms

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

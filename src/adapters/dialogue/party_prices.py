"""The price of a party of people the question lists, each at the price the place gives their age: "how much will it
be for me and jake?" / "They cost £25 per person, or £20 for under-16s" and "User's son Jake is 12": "That's £45:
£25 for you and £20 for Jake." The prices are those of one item of knowledge (the one the answer comes from), read
clause by clause: a clause that names a group of people ("Adults £8.50", "£20 for under-16s", "Under-2s go free")
prices those its ages include, and the first clause that names none ("A day ticket is £10") prices everyone else. A
person whose age nothing tells (but the user, a grown-up), or a party no clause prices, gets no sum: the answer alone
is said."""

from __future__ import annotations

import re
from collections.abc import Sequence

from avatar_service.adapters.dialogue.age_limits import ADULT_AGE, age_fit, ages, ages_meant
from avatar_service.adapters.dialogue.my_people import ages_of_named, ages_of_relatives, named_ages
from avatar_service.adapters.dialogue.ranked import Ranking

ADULT = 30  # the user, whose age no memory gives: a grown-up
_SENIOR = 65
# "for me and jake", "for me, mum and the two kids", "for me and both my kids"
_PARTY = re.compile(r"\bfor (?:me|myself|us)\s*(?:,|and)\s+(.+?)\s*[?.!]*$", re.I)
_ONE = re.compile(r"\s*(?:,\s*(?:and\s+)?|\band\b)\s*", re.I)
_KIDS = re.compile(r"^(?:both |all )?(?:my |our |the )?(?:(two|three|2|3) )?(?:kids|children|boys|girls)$", re.I)
_COUNTS = {"two": 2, "three": 3, "2": 2, "3": 3}
_MONEY = re.compile(r"£\s?(\d+(?:\.\d\d)?)")
_FREE = re.compile(r"\b(?:go|goes|come|comes|are|is|enter|get in) free\b|\bfree of charge\b", re.I)
_CLAUSES = re.compile(r"(?<=[.;])\s+|,\s+(?:or\s+|and\s+)?|\s+(?:or|and)\s+(?=£)")
# the people a clause prices: "Adults £8.50", "Seniors aged 65 and over £7", "£20 for under-16s", "Juniors under 16"
_PEOPLE = r"(?:adults?|children|kids|juniors?|seniors?|concessions?|students?|infants?|toddlers?|babies|over-?\d+s|" \
          r"under-?\d+s)"
_GROUP = re.compile(rf"^{_PEOPLE}\b|\bfor {_PEOPLE}\b", re.I)
_ADULTS = re.compile(r"^adults?\b|\bfor adults\b", re.I)
_SENIORS = re.compile(r"^seniors?\b|\bfor seniors\b", re.I)
# what prices more than one person, or something else than coming ("a family ticket for 2 adults and 2 children")
_NOT_ONE = re.compile(r"\bfamil(?:y|ies)\b|\bgroups?\b|\bper (?:hour|bag|ride)\b|\bdeposit\b|\beach extra\b", re.I)


def party_total(question: str, ranking: Ranking, memories: Sequence[str]) -> str | None:
    """"That's £45: £25 for you and £20 for Jake." for a question listing the user and others, from the sentences
    of the item of knowledge the best priced sentence of `ranking` comes from and the memories that give the others'
    ages; None when anything is unknown."""
    party = _PARTY.search(question)
    priced = next((s.candidate for s in ranking.ranked if s.candidate.kind == "knowledge" and
                   _MONEY.search(s.candidate.text)), None)
    if not party or priced is None:
        return None
    item = [c.text for c in sorted((s.candidate for s in ranking.ranked), key=lambda c: c.position)
            if c.kind == "knowledge" and c.group == priced.group]
    people: list[tuple[str, list[int]]] = [("you", [_own_age(memories)])]
    for said in (s.strip() for s in _ONE.split(party.group(1)) if s.strip()):
        if kids_said := _KIDS.match(said):
            # each by name where the memory of the children names them ("£9.95 for Noah and nothing for Isla")
            named = [(name, [age]) for m in memories if ages_of_relatives("my son and my daughter", [m])
                     for name, age in named_ages(m)]
            count = kids_said.group(1)
            if named and (not count or len(named) == _COUNTS[count.lower()]):
                people.extend(named)
                continue
            kids = ages_of_relatives("my son and my daughter", memories)
            people.append((f"your {_count_word(len(kids))} kids" if len(kids) > 1 else "your child", kids))
        else:
            found = ages_of_named(said, memories) or ages_of_relatives(f"my {said.removeprefix('my ')}", memories) \
                or ages_meant(said)
            people.append((_whom(said), found))
    if any(not found for _, found in people):
        return None
    prices = _prices(item)
    if not prices:
        return None
    shares: list[tuple[str, float]] = []
    for whom, found in people:
        each = [_price_for(age, prices) for age in found]
        if any(p is None for p in each):
            return None
        shares.append((whom, sum(p for p in each if p is not None)))
    total = sum(share for _, share in shares)
    said = [f"{_money(share)} for {whom}" if share else f"nothing for {whom}" for whom, share in shares]
    return f"That's {_money(total)}: {', '.join(said[:-1])} and {said[-1]}."


def _prices(item: Sequence[str]) -> list[tuple[str, float]]:
    """Each clause of the item that prices one person, and its price (0 for "go free")."""
    out = []
    for sentence in item:
        for clause in _CLAUSES.split(sentence):
            if _NOT_ONE.search(clause):
                continue
            money = _MONEY.search(clause)
            if money or _FREE.search(clause):
                out.append((clause, float(money.group(1)) if money else 0.0))
    return out


def _price_for(age: int, prices: list[tuple[str, float]]) -> float | None:
    grouped = [(c, p) for c, p in prices if _GROUP.search(c)]
    fitting = [(age_fit(c, [age]), p) for c, p in grouped if age_fit(c, [age]) > 0]
    if fitting:
        return max(fitting)[1]  # (the group that names the age most closely)
    if age >= ADULT_AGE:
        named = _SENIORS if age >= _SENIOR else _ADULTS
        for clause, price in grouped:
            if named.search(clause) and not ages(clause):
                return price  # "Adults £8.50" (and "Seniors £7" with no age said)
    # the price that names no one is everyone else's: a grown-up's, or a minor's whom every group bars ("£25 per
    # person, or £20 for under-16s" for a 17-year-old), not one of an age a group leaves out ("Children aged 2 to 15")
    general = [p for c, p in prices if not _GROUP.search(c)]
    return general[0] if general and (age >= ADULT_AGE or all(age_fit(c, [age]) < 0 for c, _ in grouped)) else None


def _own_age(memories: Sequence[str]) -> int:
    own = [a for m in memories if re.match(r"^User is (?:aged )?\d", m) for a in ages(m)]
    return own[0] if own else ADULT


def _whom(said: str) -> str:
    word = said.removeprefix("my ").removeprefix("the ")
    return word.capitalize() if " " not in word and word.isalpha() and not ages_meant(word) and \
        word not in _KIN else f"your {word}"


_KIN = frozenset(("mum", "mam", "mom", "dad", "nan", "nana", "gran", "granny", "grandma", "grandad", "grandpa",
                  "son", "daughter", "wife", "husband", "partner", "brother", "sister", "boy", "girl"))


def _count_word(n: int) -> str:
    return {2: "two", 3: "three", 4: "four"}.get(n, str(n))


def _money(amount: float) -> str:
    return f"£{amount:.2f}".removesuffix(".00")

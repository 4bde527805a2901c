"""The case a question puts beside what it asks: the user's own place ("can you collect her from my house?"), the
place a thing is asked of ("are there showers in the changing rooms?"), what it would be instead of ("in silver
instead of gold?"), an age limit asked for someone ("is she old
enough to do a course?"). Their words say where or for whom, not what the question is about."""

from __future__ import annotations

import re

from avatar_service.adapters.dialogue.answer_types import is_yes_no
from avatar_service.adapters.dialogue.terms import WEEKDAY_TERMS, terms, words
from avatar_service.adapters.dialogue.user_facts import about_user, asked_part

# (but "have a look at my boiler": what is looked at is what is asked about)
_CASE_OF_MINE = re.compile(r"(?<!\blook )(?<!\blooks )(?<!\blooking )"
                           r"\b(?:from|to|at|in|near|outside|under|behind|beside|inside|round|around) (?:my|our) "
                           r"((?:\w+ ){0,1}\w+)", re.I)
_THERE_IN = re.compile(r"\b(?:is|are) there (?:a |an |any |some )?\w+(?: \w+)? (?:in|at|on|inside|outside|near|by) "
                       r"(?:the |your )?((?:\w+ ){0,1}\w+)", re.I)
# "are there lessons in the evening?" asks when, which is what it is about
_WHEN_WORDS = WEEKDAY_TERMS | frozenset(terms("morning mornings afternoon evening evenings night weekend weekends week "
                                              "day days summer winter spring autumn holidays"))
_OLD_ENOUGH = re.compile(r"\b(?:old enough|too (?:young|old)|what age|how old do (?:you|they|kids|children) have to|"
                         r"(?:at|for) (?:that|this|his|her|their|our|my) age|(?:the )?right age)\b",
                         re.I)


def users_place(question: str) -> frozenset[str]:
    """The terms of the user's own place ("from my house")."""
    return frozenset(t for m in _CASE_OF_MINE.finditer(question) for t in terms(m.group(1)))


def where_asked(question: str) -> frozenset[str]:
    """The terms of the place a thing is asked of ("the changing rooms" of "are there showers in the changing
    rooms?"), unless it is a time ("in the evening")."""
    return frozenset(t for m in _THERE_IN.finditer(question) if not _WHEN_WORDS & set(terms(m.group(1)))
                     for t in terms(m.group(1)))


# "in silver instead of gold?": gold is what it would be instead; "the same day if we're desperate?": how they are
_ASIDE = re.compile(r"\b(?:instead of|rather than) (?:the |a |an )?((?:\w+ ){0,1}\w+)|"
                    # ("a vegan cake for my dad's birthday?", "for my nan's 90th": the occasion, not what is asked)
                    r"\bfor (?:my|our|his|her|their) (?:\w+'s )?(birthday|\d+(?:st|nd|rd|th)|anniversary|retirement|"
                    r"christening)\b|"
                    r"\bif (?:i'm|i am|we're|we are|it's|it is) ((?:\w+ ){0,2}\w+)\W*$", re.I)


def aside(question: str) -> frozenset[str]:
    """The terms of what a question names only beside what it asks: what it would be instead of, the user's state."""
    return frozenset(t for m in _ASIDE.finditer(question) for t in terms(next(g for g in m.groups() if g)))


# "my dad's in a wheelchair, can he still play?": whom it is for, not what is asked
_RELATIVE = re.compile(r"\b(?:my|our) (dad|mum|mom|mother|father|parents?|son|daughter|kids?|children|child|wife|"
                       r"husband|partner|brother|sister|nan|gran|grandad|grandma|grandpa|granddad|grandparents?|uncle|"
                       r"aunt|auntie|friend|mate|boyfriend|girlfriend|fianc[eé]e?|colleague|boss|neighbour)(?:'s)?\b",
                       re.I)


def relatives(question: str) -> frozenset[str]:
    """The terms of the user's people a question names ("my dad"): whom it asks for."""
    return frozenset(t for m in _RELATIVE.finditer(question) for t in terms(m.group(1)))


def asks_age_limit(question: str) -> bool:
    """"is she old enough to do a course?", "is he too young for it?": the place's age limit, for someone's age."""
    return bool(_OLD_ENOUGH.search(question))


def the_place_named(question: str, itself: frozenset[str]) -> frozenset[str]:
    """The place's own kind named as the one asked whether ("is the club ok with arjun's condition?", "does your
    studio ..."): the place itself, which is no topic of the question (but "who started the firm?" asks its story)."""
    if not is_yes_no(question):
        return frozenset()
    return frozenset(t for m in _THE_PLACE.finditer(question) for t in terms(m.group(1)) if t in itself)


def doers_named(question: str, description: str) -> frozenset[str]:
    """The terms of those a question names by what they do, whose work names the place ("the engraver" of "an engraving
    shop"): someone there, not the place; but not the place's own word ("water" of "a water park")."""
    own = set(words(description))
    return frozenset(t for m in _DOER.finditer(question) if m.group(0).lower() not in own for t in terms(m.group(0)))


_DOER = re.compile(r"\b[a-z]{3,}ers?\b", re.I)
_THE_PLACE = re.compile(r"\b(?:the|your|this) (club|studio|shop|school|centre|center|company|firm|business|practice|"
                        r"clinic|salon|academy|team)\b", re.I)


def put_beside(question: str) -> tuple[frozenset[str], bool]:
    """The terms of what a question puts beside what it asks, and whether it names where or instead of what: its
    words weigh little and are never what an "I don't know" names ("are there showers in the changing rooms?", "can
    you collect her from my house?", "my dad's in a wheelchair, can he still play?"); the user's people only when
    the place is asked ("what's my dad called?" is about him)."""
    where = where_asked(question) | aside(question)
    people = relatives(question) if not about_user(asked_part(question)) else frozenset()
    return users_place(question) | where | people, bool(where)

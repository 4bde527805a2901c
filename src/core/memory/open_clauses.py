"""Memory extraction, last resort: a statement the user makes about themselves that no rule or frame reads is
kept as said, in the third person ("I run a small bakery with my husband" -> "User runs a small bakery with
their husband"), with a category guessed from its words.

Rules and frames know the phrasings they were written for; people find others. This reads any clause whose
subject is the user ("I", "I'm", "I've", "I was", "my husband and I") and keeps it unless it is about the
conversation rather than the user: a verb of talking or thinking ("I see", "I think...", "I mean", "I wonder"),
a passing state ("I'm fine", "I'm so tired today", "I'm just browsing"), something asked of the personality
("I'd like to book", "I need a ticket"), anything said to or about "you", or a clause too short or too long to
be one fact. Its confidence is lower than a rule's (0.6).
"""

from __future__ import annotations

import re

from avatar_service.core.memory.vocabulary import CHAT_OBJECTS, RELATIONS, TIME_WORDS, at_most_words
from avatar_service.core.memory.wording import clean, predicate, third_person, word_set

_SUBJECT = re.compile(
    rf"^(?P<subject>i(?:'m|’m| am)|i(?:'ve|’ve| have)|i was|i|my (?:\w+ )?(?P<rel>{RELATIONS}) and i)\s+(?P<rest>.+)$",
    re.I)
# the first word of what follows the subject, when the clause is about the conversation or a passing moment
_CHAT_VERBS = word_set(
    """see think thought guess mean meant know knew want wanted need needed wonder wondered wondering hope hoped
    agree disagree understand understood suppose believe feel felt guess bet promise swear reckon forgot forget
    remember recall heard hear saw read found find like love hate would could should will can can't cannot
    might may must shall did do does don't didn't doesn't just also only really actually literally totally
    go went come came say said tell told ask asked call called try tried look looked wait waited
    appreciate apologize apologise am was were had have has been being let made make take took give gave
    bring brought put keep kept use used"""
)
_PASSING_STATES = word_set(
    """fine ok okay good great well alright sure sorry glad happy sad here there back done ready confused curious
    lost afraid busy tired exhausted excited interested looking asking wondering trying hoping thinking waiting
    not just also still always never bored hungry thirsty late early new unsure certain right wrong joking
    kidding serious with in on at by near off out up about over into for to from"""
)
_CHAT_NOUNS = word_set("question questions idea problem doubt suggestion request complaint minute moment feeling")
_IRREGULAR_PAST = word_set(
    """got went came lost found made took gave bought sold left met ran began won grew became had did said told
    thought brought caught taught kept slept felt fell drove rode wrote broke spoke chose flew knew saw sent spent
    built paid put quit set hit cut read"""
)
# a time that makes a past event part of the user's story ("in May", "last year", "two years ago")
_LASTING_TIME = re.compile(r"\b(?:last (?:week|month|year|spring|summer|autumn|fall|winter)|in \d{4}|"
                           r"in (?:january|february|march|april|may|june|july|august|september|october|november|"
                           r"december)|(?:\w+) (?:weeks|months|years) ago|since)\b", re.I)
_PASSING_TIME = re.compile(r"\b(?:yesterday|today|tonight|earlier|this morning|just now)\b", re.I)
# what it is about was said elsewhere ("I drink way too much of it", "I still have one")
_POINTS_AWAY = re.compile(r"\b(?:it|one|them|that|this|those|these|so)$", re.I)
_NOTHING = re.compile(r"\b(?:nothing|anything|nobody|none|no one)\b", re.I)
_INTENSIFIERS = re.compile(r"^(?:(?:so|very|really|pretty|quite|a bit|a little|kind of|kinda|super|extremely)\s+)+")
_ABOUT_YOU = re.compile(r"\b(?:you|your|yours|yourself)\b", re.I)
_NOW = re.compile(r"\b(?:today|tonight|right now|at the moment|this morning|this afternoon|this evening)\b", re.I)
_PLAN = re.compile(r"^(?:i(?:'m|’m| am)) \w+ing\b|\bgoing to\b|\bwill\b", re.I)
_TASTE = re.compile(r"\b(?:like|likes|love|loves|enjoy|enjoys|prefer|prefers|hate|hates|fan of|into|favou?rite)\b",
                    re.I)
_WHERE = re.compile(r"^(?:i )?(?:live|lived|moved|grew up|was born|am from|'m from|come from)\b", re.I)
_ONGOING = re.compile(r"^(?:i(?:'m|’m| am)|i(?:'ve|’ve| have) been) \w+ing\b", re.I)
_SUBJECT_WORDS = {"i'm": "User is", "i’m": "User is", "i am": "User is", "i've": "User has", "i’ve": "User has",
                  "i have": "User has", "i was": "User was", "i": "User"}


def open_fact(clause: str) -> tuple[str, str, float] | None:
    """(content, category, confidence) for a statement about the user, or None (see the module docstring)."""
    text = clean(clause).rstrip(" .!")
    m = _SUBJECT.match(text)
    if not m or _ABOUT_YOU.search(text) or not at_most_words(text, 16):
        return None
    subject, rest = m.group("subject").lower().replace("’", "'"), m.group("rest")
    words = re.findall(r"[\w'-]+", _INTENSIFIERS.sub("", rest.lower().replace("’", "'")))
    if len(words) < 2 and not (subject in ("i'm", "i am") and words and len(words[0]) > 3):
        return None
    first = words[0] if words else ""
    if CHAT_OBJECTS.match(" ".join(words[1:])) and len(words) <= 3:
        return None  # "I get it", "I love that"
    if subject in ("i'm", "i am", "i was"):
        if first.endswith("ing"):
            if not TIME_WORDS.search(rest):
                return None  # "I'm taking notes": a passing doing, unless it is a plan ("... camping next month")
        elif first in _PASSING_STATES:
            return None
    elif first in _CHAT_VERBS:
        return None
    if subject in ("i've", "i have") and set(words[:3]) & _CHAT_NOUNS:
        return None  # "I have a question about the tickets"
    if _PASSING_TIME.search(rest) or _POINTS_AWAY.search(rest) or _NOTHING.search(rest):
        return None  # "the one who asked yesterday", "I still have one", "I was diagnosed with nothing"
    past = subject == "i" and (first in _IRREGULAR_PAST or first.endswith("ed"))
    if past and not _LASTING_TIME.search(rest):
        return None  # "I booked a table", "I lost my keys": events; "I turned forty in May" stays
    if _NOW.search(rest) and not _PLAN.match(text):
        return None  # "I have a headache today"
    if m.group("rel"):
        content = f"User and their {m.group('rel').lower()} {_plural(third_person(rest))}"
    elif subject in ("i've", "i have") and words[0] in ("a", "an", "two", "three"):
        content = f"User has {third_person(rest)}"
    elif past:
        content = f"User {third_person(rest)}"
    elif subject == "i":
        content = f"User {predicate(rest)}"
    else:
        content = f"{_SUBJECT_WORDS[subject]} {third_person(rest)}"
    return content, _category(text, bool(m.group("rel"))), 0.6


def _plural(phrase: str) -> str:
    return phrase  # "run a bakery" already agrees with "User and their husband"


def _category(text: str, with_relative: bool) -> str:
    if with_relative or re.search(rf"\b(?:my|our) (?:\w+ )?(?:{RELATIONS})\b", text, re.I):
        return "relationship"
    if TIME_WORDS.search(text) and _PLAN.match(text):
        return "schedule"
    if _TASTE.search(text):
        return "preference"
    if _WHERE.match(re.sub(r"^i(?:'ve|’ve| have) ", "i ", text, flags=re.I)):
        return "location"
    if _ONGOING.match(text):
        return "context"
    return "personal"

"""Memory extraction's rules about the people and animals in the user's life: their names, ages and facts."""

from __future__ import annotations

import re

from avatar_service.core.memory.vocabulary import (
    CHAT_OBJECTS,
    NATIONALITIES,
    NOT_NAMES,
    REL_MOD,
    RELATIONS,
    WHEN,
    at_most_words,
)
from avatar_service.core.memory.wording import clean, third_person

Made = tuple[str, str, float] | None  # (content, category, confidence), or None when the match is junk


def clean_name(m: re.Match[str]) -> str | None:
    name = clean(m.group("name") or "")
    first = name.split()[0].lower() if name else ""
    if not name or first in NOT_NAMES or not at_most_words(name, 3):
        return None
    return " ".join(w if w[:1].isupper() else w.capitalize() for w in name.split())


def relation_named(m: re.Match[str]) -> Made:
    name = clean_name(m)
    if not name:
        return None
    relation = f"{(m.group('mod') or '').strip()} {m.group('rel')}".strip().lower()
    if name.lower() in NATIONALITIES:  # "my wife is Brazilian"
        return f"User's {relation} is {name}", "relationship", 0.85
    return f"User's {relation} is named {name}", "relationship", 0.9


def has_relation(m: re.Match[str]) -> Made:
    count, relation = m.group("count").lower(), m.group("rel").lower()
    mod = (m.group("mod") or "").strip().lower()
    text = f"User has {count} {mod + ' ' if mod else ''}{relation}"
    if m.group("name"):
        name = clean_name(m)
        if not name:
            return None
        text += f" named {name}"
    return text, "relationship", 0.9


def relation(m: re.Match[str]) -> str:
    """ "son", "younger sister", "son Leo": the relation as the user said it, with the name when given."""
    relation = f"{(m.group('mod') or '').strip()} {m.group('rel')}".strip().lower()
    name = m.groupdict().get("name")
    return f"{relation} {name.strip()}" if name else relation


def relation_fact(m: re.Match[str]) -> Made:
    value = clean(m.group("v"))
    if not at_most_words(value, 10) or CHAT_OBJECTS.match(value):
        return None
    return f"User's {relation(m)} {m.group('pred').lower()} {third_person(value)}", "relationship", 0.8


def relation_age(m: re.Match[str]) -> Made:
    age = int(m.group("age"))
    plural = re.search(r"(?<!s)s$|children$|in-laws$", m.group("rel"), re.I)
    return f"User's {relation(m)} {'are' if plural else 'is'} {age} years old", "relationship", 0.85


def pet(m: re.Match[str]) -> Made:
    """ "I just adopted a puppy, her name is Luna" -> "User has a puppy named Luna"."""
    text = f"User has {m.group('art').lower()} {m.group('what').lower()}"
    if m.group("name") and re.search(r",| and | & ", m.group("name")):  # "two cats named Felix and Tiger"
        return f"{text} named {m.group('name').replace(' & ', ' and ')}", "relationship", 0.85
    if m.group("name"):
        name = clean_name(m)
        if not name:
            return None
        text += f" named {name}"
    return text, "relationship", 0.85


def status(m: re.Match[str]) -> Made:
    partner = clean_name(m) if m.group("name") else None
    return f"User is {m.group('v').lower()}" + (f" to {partner}" if partner else ""), "relationship", 0.9


def dating(m: re.Match[str]) -> Made:
    name = clean_name(m)
    return (f"User is in a relationship with {name}", "relationship", 0.85) if name else None


_AGED = r"\((?:aged? )?(?P<{0}>\d{{1,2}})\)"
# "my two kids, Ella (9) and Finn (6)": names with their ages in brackets
NAMES_WITH_AGES = re.compile(
    r"\b(?:my|our) (?P<who>(?:two |three |four |\d )?(?:[\w-]+ )?(?:kids|children|sons|daughters|boys|girls|twins|"
    r"grandkids|grandchildren|nieces|nephews|dogs|cats)),? (?P<list>(?-i:[A-Z])[\w'’-]+ \(\d{1,2}\)"
    r"(?:(?:,| and|,? &|, and) (?-i:[A-Z])[\w'’-]+ \(\d{1,2}\))+)", re.I)
_ONE_AGED = re.compile(r"(?P<name>(?-i:[A-Z])[\w'’-]+) " + _AGED.format("age"))


# "my son Noah (11)", "our dog Rex (aged 9)": one of them
_NAME_WITH_AGE = re.compile(r"\b(?:my|our) (?P<who>(?:[\w-]+ )?(?:" + RELATIONS + r")) (?P<name>(?-i:[A-Z])[\w'’-]+),? "
                            r"\((?:aged? )?(?P<age>\d{1,2})(?: years old)?\)", re.I)


def names_with_ages(text: str) -> tuple[str, str] | None:
    """("User's two kids Ella and Finn are 9 and 6 years old", the text without the names), or None."""
    m = NAMES_WITH_AGES.search(text)
    if not m and (one := _NAME_WITH_AGE.search(text)):
        content = f"User's {one.group('who').lower()} {one.group('name')} is {one.group('age')} years old"
        return content, f"{text[: one.end('name')]}{text[one.end():]}"
    if not m:
        return None
    pairs = _ONE_AGED.findall(m.group("list"))
    names = " and ".join(n for n, _ in pairs) if len(pairs) == 2 else \
        ", ".join(n for n, _ in pairs[:-1]) + f" and {pairs[-1][0]}"
    ages = " and ".join(a for _, a in pairs) if len(pairs) == 2 else \
        ", ".join(a for _, a in pairs[:-1]) + f" and {pairs[-1][1]}"
    content = f"User's {m.group('who').lower()} {names} are {ages} years old"
    return content, text[: m.start("list")].rstrip(" ,") + text[m.end("list"):]  # the names are said now


# a name said inside a sentence (not the capital that opens it), "Ishiguro", "Biscuit"
_INNER_NAME = re.compile(r"(?<=[\w,?] )(?-i:[A-Z][a-z][\w'’-]+)(?: (?-i:[A-Z][a-z][\w'’-]+))?")
# "he's my favourite author", "she's my 9-year-old beagle": who "he" or "she" is was said just before
_POINTED = re.compile(rf"^(?:he|she)(?:'s|’s| is) my (?P<rest>(?:absolute |all-time |very )?favou?rite "
                      rf"(?P<what>[\w-]+(?: [\w-]+)?)(?=$| by | of | ever| too| in | and )|"
                      rf"{REL_MOD}(?:{RELATIONS})$)", re.I)


def name_in(text: str) -> str:
    """The last name said inside `text` ("Ishiguro" in "got anything new by Ishiguro?"), or ""."""
    names = [n for n in _INNER_NAME.findall(text) if n.split()[0].lower() not in NOT_NAMES
             and not re.fullmatch(rf"(?:{RELATIONS})|(?:{WHEN})|(?:{_MONTH_OR_DAY})", n.split()[0], re.I)]
    return names[-1] if names else ""


_WHERE_I = re.compile(r"^that(?:'s|’s| is) where (?:i|we) (?P<v>live|work|grew up|was born|were born|am from|'m from)"
                      r"(?: now)?$", re.I)


def pointed(clause: str, name: str) -> str:
    """ "he's my favourite author" after "anything new by Ishiguro?" -> "my favourite author is Ishiguro";
    "that's where I live" after "how do I get to you from Stockport?" -> "I live in Stockport"."""
    if (where := _WHERE_I.match(clause.strip())) and name:
        verb = where.group("v").replace("'m from", "am from")
        return f"I {verb} {'' if verb.endswith('from') else 'in '}{name}"
    m = _POINTED.match(clause.strip())
    if not m or not name:
        return clause
    if m.group("what"):
        return f"my favourite {m.group('what')} is {name}"
    return f"my {m.group('rest')} is called {name}"


_MONTH_OR_DAY = (r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|"
                 r"july|august|september|october|november|december|christmas|easter")

"""Follow-up turns: "and on Sundays?", "how old is he?" only make sense with the turn before them.

The conversation retrieves with the previous user turn folded in when a turn is a follow-up, and the
offline answerer weighs the previous turn's words (less than the new turn's) when it ranks sentences.
"""

from __future__ import annotations

import re

from avatar_service.core.text.lexicon import STOPWORDS

_WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
# "and with wine?", "what about kids?", "how about on Sundays?"
# ("what if my dog gets sick?" is a question of its own)
_CONNECTIVE = re.compile(r"^\s*(and|also|or|but|so|then|what about|how about|same for|and what about)\b", re.I)
# the price of the thing just talked about, for one of those it is for: "how much per child?", "how much is it a head?"
_PER_ONE = re.compile(r"^\s*how much(?: is it| is that| does it cost| would it be| will it be)? "
                      r"(?:per|a|for each|each) (?:child|kid|person|head|adult|guest|player|dog|car)\s*\??\s*$", re.I)
# Words that point back at something named earlier. "it" also opens plenty of standalone questions
# ("how much does it cost to rent a bike?"), so it only counts in short turns.
_BACK = frozenset(["he", "she", "him", "his", "her", "hers", "they", "them", "their", "those", "that", "then",
                   "instead", "otherwise"])
_WEAK_BACK = frozenset(["it", "its"])
# "one" standing for a thing named before: "is she the right age for one?", "the family one" (not "can one person
# come?")
_ONE_BACK = re.compile(r"\b(?:for|of) one\s*\??\s*$|\bthe \w+ one\b", re.I)
# words that ask to be told again, not about what ("sorry, what time did you say it finishes?")
_ASKING_AGAIN = frozenset(["sorry", "say", "said", "again", "remind"])


def content_words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower().replace("’", "'")) if w not in STOPWORDS and len(w) > 1]


def is_follow_up(text: str) -> bool:
    """Whether `text` leans on the turn before it (see the module docstring)."""
    if _CONNECTIVE.match(text) or _PER_ONE.match(text):
        return True
    said = {w.split("'")[0] for w in _WORD.findall(text.lower().replace("’", "'"))}  # "she's": she
    content = len([w for w in content_words(text) if w not in _ASKING_AGAIN])
    back = bool(said & _BACK) or bool(_ONE_BACK.search(text))
    return bool(back and content <= 3) or bool(said & _WEAK_BACK and content <= 2)


def with_context(text: str, previous_user_turn: str) -> str:
    """The text to retrieve with: a follow-up carries the previous user turn in front of it."""
    if previous_user_turn.strip() and is_follow_up(text):
        return f"{previous_user_turn.strip()} {text.strip()}"
    return text


# whom "he", "she" or "they" stands for: a person or an animal the turn before called "my ..." ("what's my dog
# called?" / "can he come on board?"; "my 8 year old" / "does she need a ticket?")
_ONE_OF_MINE = re.compile(
    r"\b(?:my|our)\s+((?:\d{1,2}[ -]years?[ -]old|(?:(?:little|youngest|eldest|oldest|older|younger|baby|new|"
    r"old|elderly|teenage|two|three|\d{1,2}|\w+-year-old)\s+)?(?:son|daughter|child|kid|boy|girl|lad|lass|baby|toddler|"
    r"teenager|wife|husband|partner|mum|mom|mother|dad|father|parent|grandmother|grandfather|grandma|grandpa|"
    r"gran|nan|brother|sister|friend|boyfriend|girlfriend|colleague|boss|dog|puppy|cat|kitten|rabbit|horse|pony|"
    r"bird|parrot|hamster|guinea pig|pet|grandson|granddaughter|aunt|uncle|niece|nephew|cousin|neighbour|neighbor|"
    r"fiancée?)s?))\b", re.I)
_PERSONAL = re.compile(r"\b(he|she|him|they|them|his|her|their)\b(?:\s+([a-z]+))?", re.I)
_OWNER = frozenset(("his", "their"))


def resolved(text: str, previous_user_turn: str) -> str:
    """A follow-up with its pronoun replaced by whom it stands for: "can he come on board?" after "what's my dog
    called?" is "can my dog come on board?". Unchanged when it is no follow-up or the turn before named no one."""
    if not previous_user_turn.strip() or not is_follow_up(text) or _ONE_OF_MINE.search(text):
        return text
    named = _ONE_OF_MINE.findall(previous_user_turn)
    if len(set(n.lower() for n in named)) != 1:
        return text  # nobody, or two people: whom it stands for is not plain
    one = f"my {named[0]}"
    plural = named[0].lower().endswith("s") and not named[0].lower().endswith(("ss", "us"))

    def swap(m: re.Match[str]) -> str:
        word = m.group(1).lower()
        if plural != (word in ("they", "them", "their")):  # "they" for one dog, "he" for two kids
            return m.group(0)
        after = m.group(2) or ""
        owner = word in _OWNER or (word == "her" and bool(after) and after.lower() not in STOPWORDS)  # "her name"
        return f"{one}'s{m.group(0)[len(m.group(1)):]}" if owner else f"{one}{m.group(0)[len(m.group(1)):]}"

    out = _PERSONAL.sub(swap, text, count=1)
    return out

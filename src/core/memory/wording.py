"""Memory extraction's wording: the user's own words turned into the third person ("my son" -> "their son",
"I go swimming" -> "User goes swimming"), and trimmed of filler."""

from __future__ import annotations

import re


def word_set(text: str, separator: str | None = None) -> frozenset[str]:
    return frozenset(w.strip() for w in text.split(separator) if w.strip())


PRONOUNS = {
    "my": "their", "mine": "theirs", "me": "them", "myself": "themselves", "i": "they",
    "i'm": "they're", "i’m": "they're", "i've": "they've", "i'll": "they'll", "our": "their",
    "ours": "theirs", "us": "them", "we": "they",
}  # fmt: skip
PRONOUNS |= {"i was": "they were", "i am": "they are", "i’m": "they're", "i was not": "they were not"}
# Longest first, so "i was" wins over "i".
PRONOUN = re.compile(
    r"\b(?:" + "|".join(re.escape(p) for p in sorted(PRONOUNS, key=len, reverse=True)) + r")\b", re.I
)
TRAILING_FILLER = re.compile(
    r"(?:[\s,]+(?:too|as well|lol|haha+|tbh|honestly|actually|anyway|anymore|any more|really|though|now|btw|:\)|"
    r"if possible|if poss|if (?:that|it) (?:matters|helps)|if relevant|please|pls|by the way|unfortunately|sadly|"
    r"luckily|thankfully|promise|I promise|"
    r"I guess|I think|I suppose|I reckon|I believe|haha|lol|"
    r":d|xd))+$",
    re.I,
)
IRREGULAR = {
    "am": "is", "have": "has", "do": "does", "go": "goes", "be": "is", "'m": "is", "don't": "does not",
}  # fmt: skip
ADVERBS = word_set(
    """never usually always often sometimes normally also still just really generally typically mostly
regularly actually"""
)
UNCHANGED = {"can", "can't", "could", "will", "won't", "must", "might", "may", "should"} | ADVERBS
# past forms that do not end in "-ed": "I left the house at 8" is no "User lefts"
PAST_FORMS = word_set(
    """got went came lost found made took gave bought sold left met ran began won grew became had did said told
    thought brought caught taught kept slept felt fell drove rode wrote broke spoke chose flew knew saw sent spent
    built paid put quit set hit cut read swam tore wore woke shook stole froze hurt sang sat stood lent"""
)


def third_person(phrase: str) -> str:
    return PRONOUN.sub(lambda m: PRONOUNS[m.group().lower()], phrase)


def conjugate(verb: str) -> str:
    """I-form to he-form: go -> goes, watch -> watches, study -> studies; past and modal forms unchanged."""
    low = verb.lower()
    if low in IRREGULAR:
        return IRREGULAR[low]
    if re.fullmatch(r"[a-z]+-[a-z]+", low) and not low.endswith(("ed", "s")):
        return verb + "s"  # "video-call" -> "video-calls"
    if low in UNCHANGED or low in PAST_FORMS or low.endswith(("ed", "s")) or not low.isalpha():
        return verb
    if low.endswith(("sh", "ch", "x", "z", "o")):
        return verb + "es"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def predicate(phrase: str) -> str:
    """'usually go swimming with my son' -> 'usually goes swimming with their son'."""
    words = phrase.split()
    for i, word in enumerate(words):
        if word.lower() in ADVERBS or (word.lower().endswith("ly") and len(word) > 4 and i + 1 < len(words)):
            continue  # an adverb before the verb: conjugate the word after it
        words[i] = conjugate(word)
        break
    return third_person(" ".join(words))


def clean(value: str) -> str:
    value = TRAILING_FILLER.sub("", value.strip(" \t,.!;:-\"'“”"))
    return value.strip(" \t,.!;:-\"'“”")

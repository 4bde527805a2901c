"""Renders the offline responder's own words in a persona's register: traits to wording choices."""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

Bank = Mapping[str, Sequence[str]]  # register ("formal" | "neutral" | "casual") -> variants

_PAIRS = [
    ("I am", "I'm"),
    ("I have", "I've"),
    ("I will", "I'll"),
    ("I would", "I'd"),
    ("you are", "you're"),
    ("you have", "you've"),
    ("you will", "you'll"),
    ("you would", "you'd"),
    ("it is", "it's"),
    ("that is", "that's"),
    ("there is", "there's"),
    ("what is", "what's"),
    ("let us", "let's"),
    ("we are", "we're"),
    ("they are", "they're"),
    ("do not", "don't"),
    ("does not", "doesn't"),
    ("did not", "didn't"),
    ("is not", "isn't"),
    ("are not", "aren't"),
    ("was not", "wasn't"),
    ("cannot", "can't"),
    ("will not", "won't"),
    ("would not", "wouldn't"),
    ("could not", "couldn't"),
    ("should not", "shouldn't"),
    ("have not", "haven't"),
    ("has not", "hasn't"),
    ("here is", "here's"),
]


def _case_like(source: str, target: str) -> str:
    return target[:1].upper() + target[1:] if source[:1].isupper() else target


# a pronoun and its verb contract only before what follows them ("where we're." is no English), though a "not" may
# end a clause contracted ("we don't.")
_NOT_AT_CLAUSE_END = r"(?!\s*(?:[.,;:!?)]|$))"


def _compile(pairs: list[tuple[str, str]], contracting: bool = False) -> list[tuple[re.Pattern[str], str]]:
    # "I" stays capital either way, so only the first letter's case needs carrying over.
    return [
        (
            re.compile(
                (rf"\b{re.escape(a[:1])}(?i:{re.escape(a[1:])})\b" if a[0] == "I" else rf"\b(?i:{re.escape(a)})\b")
                + (_NOT_AT_CLAUSE_END if contracting and not b.endswith("n't") else "")
            ),
            b,
        )
        for a, b in pairs
    ]


_CONTRACT = _compile(_PAIRS, contracting=True)
_EXPAND = _compile([(b, a) for a, b in _PAIRS])
CONTRACTION = re.compile(r"\b\w+'(?:m|re|ve|ll|d|t|s)\b", re.I)


def _replace_all(text: str, table: list[tuple[re.Pattern[str], str]]) -> str:
    for pattern, replacement in table:
        text = pattern.sub(functools.partial(_swap, replacement), text)
    return text


def _swap(replacement: str, match: re.Match[str]) -> str:
    return _case_like(match.group(0), replacement)


def contract(text: str) -> str:
    return _replace_all(text, _CONTRACT)


def expand(text: str) -> str:
    return _replace_all(text, _EXPAND)


def _level(traits: Mapping[str, float], key: str) -> float:
    try:
        value = float(traits.get(key, 0.5))
    except (TypeError, ValueError):
        return 0.5
    return min(1.0, max(0.0, value)) if value == value else 0.5


@dataclass(slots=True)
class Style:
    warmth: float
    humor: float
    formality: float
    verbosity: float
    empathy: float
    rng: random.Random

    @classmethod
    def from_traits(cls, traits: Mapping[str, float], rng: random.Random) -> Style:
        return cls(
            warmth=_level(traits, "warmth"),
            humor=_level(traits, "humor"),
            formality=_level(traits, "formality"),
            verbosity=_level(traits, "verbosity"),
            empathy=_level(traits, "empathy"),
            rng=rng,
        )

    @property
    def register(self) -> str:
        if self.formality >= 0.67:
            return "formal"
        return "casual" if self.formality <= 0.33 else "neutral"

    def pick(self, bank: Bank | Sequence[str], **values: str) -> str:
        variants = bank if isinstance(bank, Sequence) else bank.get(self.register) or bank["neutral"]
        return self.rng.choice(list(variants)).format(**values)

    def chance(self, p: float) -> bool:
        """A seeded coin: the same request always lands the same way."""
        return self.rng.random() < p

    def own(self, text: str) -> str:
        """The responder's own words (never quoted knowledge) put into the persona's register."""
        text = expand(text) if self.formality >= 0.5 else contract(text)
        if self.warmth < 0.3 or self.formality >= 0.8:
            # Exclamation marks read as friendliness; cool or very formal personas do without them.
            text = text.replace("!", ".")
        return text

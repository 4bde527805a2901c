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
# Words that point back at something named earlier. "it" also opens plenty of standalone questions
# ("how much does it cost to rent a bike?"), so it only counts in short turns.
_BACK = frozenset(["he", "she", "him", "his", "her", "hers", "they", "them", "their", "those", "that", "then"])
_WEAK_BACK = frozenset(["it", "its"])


def content_words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower().replace("’", "'")) if w not in STOPWORDS and len(w) > 1]


def is_follow_up(text: str) -> bool:
    """Whether `text` leans on the turn before it (see the module docstring)."""
    if _CONNECTIVE.match(text):
        return True
    said = set(_WORD.findall(text.lower().replace("’", "'")))
    content = len(content_words(text))
    return bool(said & _BACK and content <= 3) or bool(said & _WEAK_BACK and content <= 2)


def with_context(text: str, previous_user_turn: str) -> str:
    """The text to retrieve with: a follow-up carries the previous user turn in front of it."""
    if previous_user_turn.strip() and is_follow_up(text):
        return f"{previous_user_turn.strip()} {text.strip()}"
    return text

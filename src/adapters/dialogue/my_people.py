"""The user's people in a question: a child whose age a memory gives ("a ticket for my son"), and several of them at
once ("how old are my kids?", "what are my two called?"), answered with what the user said of each, not of the first
one found, nor with the place's rules for children."""

from __future__ import annotations

import re
from collections.abc import Sequence

from avatar_service.adapters.dialogue.answer_types import KIN_WORDS, ages, mentions_child
from avatar_service.adapters.dialogue.ranking import Ranking, Scored
from avatar_service.adapters.dialogue.terms import terms, words

# "my kids", "my two boys", and "my two" alone (which means the children as often as not)
_SEVERAL = re.compile(r"\bmy (?:(?:two|three|four) )?(?:kids|children|sons|daughters|boys|girls|grandchildren|"
                      r"grandkids|twins|little ones)\b|\bmy (?:two|three|four)\b", re.I)
# what the user's memories call their children, which the question's "kids" or "two" stands for
CHILD_TERMS = frozenset(terms("son daughter child children kid"))
_AT_MOST = 4


def ages_of_relatives(text: str, memories: Sequence[str]) -> list[int]:
    """"a ticket for my son", "can my niece come?": their age, when a memory gives it ("... a son named Tom who is
    12", "User's niece Ruby is 16")."""
    relatives = {w.split("'")[0] for w in words(text) if mentions_child(w) or w.split("'")[0] in _KIN}
    return [age for m in memories if relatives & {w.split("'")[0] for w in words(m)} for age in ages(m)]


def mentions_kin(text: str) -> bool:
    """Names one of the user's people whose age may matter to a rule: a child, or a niece, a sister..."""
    return mentions_child(text) or bool(_KIN.intersection(w.split("'")[0] for w in words(text)))


_KIN = frozenset(KIN_WORDS)


def asks_of_several(question: str, kinds: Sequence[str]) -> bool:
    """Asks the age or the name of several of the user's children: what only their memories know."""
    return bool({"age", "name"} & set(kinds)) and bool(_SEVERAL.search(question))


def each_of_them(ranking: Ranking, best: Scored) -> list[Scored]:
    """Every memory about one of the user's children that holds the kind asked for, best first; or the best alone
    when none does."""
    chosen = [s for s in ranking.ranked if s.candidate.kind == "memory" and s.fits and _A_CHILD.match(s.candidate.text)]
    return chosen[:_AT_MOST] or [best]


# a memory, as spoken, whose subject is a child of the user's ("Your son Theo is 11", "You have two children, ..."),
# not one that names them on the way ("your mum Sandra sometimes collects the children")
_A_CHILD = re.compile(r"\W*(?:your|you have)\b[^,.;]{0,30}?\b(?:sons?|daughters?|child|children|kids?|boys?|girls?|"
                      r"twins|grandchildren|grandsons?|granddaughters?)\b", re.I)

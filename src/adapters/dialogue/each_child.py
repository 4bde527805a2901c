"""Whether each of the user's children may come, when a question asks it of several ("could both my kids come?"):
their names and ages from the memories, against the place's age rule, said child by child before the rule
("Alfie (10) can, but Rosa (6) can't: children under 8 can't take part in any of our classes.")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from avatar_service.adapters.dialogue.age_limits import age_bars, age_fit, mentions_child
from avatar_service.adapters.dialogue.answer_types import HOLDS
from avatar_service.adapters.dialogue.answering import as_sentence
from avatar_service.adapters.dialogue.my_people import SEVERAL, named_ages
from avatar_service.adapters.dialogue.ranked import Ranking
from avatar_service.adapters.dialogue.yes_or_no import lower_first

# whether they may come or take part (not "is there any discount with both my kids going?")
_MAY = re.compile(r"\b(?:come|go|join|do it|take part|attend|play|be (?:ok|okay|allowed|able))\b", re.I)
_PRICED = re.compile(r"\b(?:discount|deal|price|cost|costs|pay|charge|how much|offer)\b", re.I)
_ACCOMPANIED = re.compile(r"\b(?:accompanied|supervised)\b|\bwith (?:an|a paying|a parent or) (?:adult|guardian)\b",
                          re.I)
_RULES_READ = 6  # the ranked knowledge sentences read for an age rule


def each_child_may(question: str, memories: Sequence[str], ranking: Ranking) -> str | None:
    """The verdict for each child and the rule, or None when the question is not of several children, the memories
    give fewer than two of them an age, or no sentence near the top has an age rule that decides for every one."""
    if not SEVERAL.search(question) or not _MAY.search(question) or _PRICED.search(question):
        return None
    children = [pair for memory in memories if mentions_child(memory) for pair in named_ages(memory)]
    children = list(dict.fromkeys(children))  # (two memories may say the same child's age)
    if len(children) < 2:
        return None
    knowledge = [s.candidate.text for s in ranking.ranked if s.candidate.kind == "knowledge"][:_RULES_READ]
    # (a price's ages say who pays what, and "under 12s must be accompanied" who comes with whom: not who may come)
    for sentence in (k for k in knowledge if not HOLDS["price"].search(k) and not _ACCOMPANIED.search(k)):
        verdicts = [_may(sentence, age) for _, age in children]
        if None not in verdicts:
            return _said(children, [v for v in verdicts if v is not None], sentence)
    return None


def _may(sentence: str, age: int) -> bool | None:
    """Whether a child of this age may, by the sentence's rule: a bar ("under 8 can't"), or a range or limit it is
    for ("our club for 8 to 14 year olds"); None when the sentence has no rule for it."""
    if bars := age_bars(sentence):
        return age >= bars[0]
    fit = age_fit(sentence, [age])
    return None if fit == 0 else fit > 0


def _said(children: list[tuple[str, int]], verdicts: list[bool], sentence: str) -> str:
    may = [f"{name} ({age})" for (name, age), v in zip(children, verdicts, strict=True) if v]
    may_not = [f"{name} ({age})" for (name, age), v in zip(children, verdicts, strict=True) if not v]
    if not may_not:
        lead = f"Yes, {_listed(may)} can"
    elif not may:
        lead = f"No, {_listed(may_not)} can't"
    else:
        lead = f"{_listed(may)} can, but {_listed(may_not)} can't"
    return f"{lead}: {lower_first(as_sentence(sentence))}"


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

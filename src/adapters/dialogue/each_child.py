"""Whether each of the user's children may come, when a question asks it of several ("could both my kids come?"):
their names and ages from the memories, against the place's age rule, said child by child before the rule
("Alfie (10) can, but Rosa (6) can't: children under 8 can't take part in any of our classes.")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from avatar_service.adapters.dialogue.answer_types import age_fit
from avatar_service.adapters.dialogue.answering import as_sentence
from avatar_service.adapters.dialogue.ranking import Ranking
from avatar_service.adapters.dialogue.yes_or_no import lower_first

# "both my kids", "my two", "the children" of a user who has said whose they are
_SEVERAL = re.compile(r"\b(?:both|all) (?:of )?(?:my|our|the) (?:kids|children|boys|girls|two|three)\b|"
                      r"\b(?:my|our) (?:two|three|four) (?:kids|children|boys|girls)?\b|"
                      r"\b(?:my|our) (?:kids|children)\b", re.I)
# whether they may come or take part (not "is there any discount with both my kids going?")
_MAY = re.compile(r"\b(?:come|go|join|do it|take part|attend|play|be (?:ok|okay|allowed|able))\b", re.I)
_PRICED = re.compile(r"\b(?:discount|deal|price|cost|costs|pay|charge|how much|offer)\b", re.I)
# a memory about the user's children ("User's son Alfie is 10", "User's children are Ffion, who is 10, and ...")
_CHILDREN = re.compile(r"\b(?:sons?|daughters?|child|children|kids?|boys?|girls?|twins|grandchildren|grandsons?|"
                       r"granddaughters?)\b", re.I)
# a name and the age said right after it ("Alfie is 10", "Ffion, who is 10", "Ellie, 9")
_NAMED_AGE = re.compile(r"(?<!^)\b((?-i:[A-Z][a-z]{2,}))(?:,\s*|\s+)(?:who(?:'s|\s+is)\s+|is\s+|aged\s+|\()?"
                        r"(\d{1,2})\b(?!\s*(?:am|pm|%|:|\.\d|years? ago|months?|weeks?|days?))")
# an age below which one may not take part ("children under 8 can't take part", "under-12s aren't allowed")
_BAR = re.compile(r"\bunder[- ](\d{1,2})s?\b(?![.:]?\d|\s?(?:am|pm|%|minutes|hours|months|weeks|kg|km|cm))"
                  r"[^.;]{0,40}?\b(?:aren't|are not|isn't|is not|can't|cannot|can not|not) (?:allowed|permitted|"
                  r"able to|take part|join|come|go)\b", re.I)
_RULES_READ = 6  # the ranked knowledge sentences read for an age rule


def each_child_may(question: str, memories: Sequence[str], ranking: Ranking) -> str | None:
    """The verdict for each child and the rule, or None when the question is not of several children, the memories
    give fewer than two of them an age, or no sentence near the top has an age rule that decides for every one."""
    if not _SEVERAL.search(question) or not _MAY.search(question) or _PRICED.search(question):
        return None
    children = [(m.group(1), int(m.group(2))) for memory in memories if _CHILDREN.search(memory)
                for m in _NAMED_AGE.finditer(memory)]
    children = list(dict.fromkeys(children))  # (two memories may say the same child's age)
    if len(children) < 2:
        return None
    knowledge = [s.candidate.text for s in ranking.ranked if s.candidate.kind == "knowledge"][:_RULES_READ]
    for sentence in knowledge:
        verdicts = [_may(sentence, age) for _, age in children]
        if None not in verdicts:
            return _said(children, [v for v in verdicts if v is not None], sentence)
    return None


def _may(sentence: str, age: int) -> bool | None:
    """Whether a child of this age may, by the sentence's rule: a bar ("under 8 can't"), or a range or limit it is
    for ("our club for 8 to 14 year olds"); None when the sentence has no rule for it."""
    if bar := _BAR.search(sentence):
        return age >= int(bar.group(1))
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

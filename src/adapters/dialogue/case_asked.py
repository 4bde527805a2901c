"""The one case of a sentence that a question asks about: "a big dog" is the large dog's price of "for a small dog
£38, for a medium dog £48 and for a large dog £62"; "how much is that?" after "the trousers on my suit" is the hems'
of "taking up trouser hems costs £11, replacing a zip costs from £15, ...". Cut before "Yes,"/"No," is chosen: the
case asked about says which. And an answer that opens with "It" said after the sentence it leans on."""

from __future__ import annotations

import dataclasses
import re

from avatar_service.adapters.dialogue.answering import CATEGORY_WEIGHT, HINT_TERMS, as_sentence, clause_terms
from avatar_service.adapters.dialogue.listed_kinds import one_kind
from avatar_service.adapters.dialogue.narrowing import narrowed, one_case
from avatar_service.adapters.dialogue.ranked import Query, Ranking, Scored
from avatar_service.adapters.dialogue.ranking import PRONOUN_START
from avatar_service.adapters.dialogue.terms import GENERIC_TERMS, RELATED, terms

_ALL_OF = re.compile(r"\b(?:both|all|each|every|together|altogether)\b", re.I)


def the_case_asked(sentence: str, said: str, query: Query, context: set[str], previous_reply: str,
                   previous_user: str) -> str:
    """`sentence` cut to the case `said` (the turn as the user said it) asks about; `context`: the terms of the turns
    a follow-up leans on (empty for a turn of its own)."""
    cut = narrowed(sentence, said)  # "an hour lesson": the 60 minutes of "30, 45 or 60 minutes"
    own = {t for t in query.own if query.weights.get(t, 0.0) >= CATEGORY_WEIGHT}
    # ("what time do those kick off?" after "you prefer the Wednesday evening races": the case the reply named)
    pointed = set(terms(previous_reply)) - own if context else set()
    whole = cut
    cut = one_case(cut, own, context - own, query.kinds, pointed)
    if cut == whole:  # "the whole family": the family's of "adult membership £240, family membership £380, ..."
        cut = one_kind(cut, own, said, query.kinds, query.ages)
    # (not a hint: "how long's that one?" reads "one" as "single")
    named = {t for t in query.own if query.weights.get(t, 0.0) >= 0.3} - GENERIC_TERMS - HINT_TERMS
    if cut == whole and not named and context and not _ALL_OF.search(said):
        # "how long would that take?" after the price of a wedding dress: the wedding dress's (what the last reply
        # named, or else the turn before)
        for before in (previous_reply, previous_user):
            # (a reply that said all the cases names none, "Yes, " and a lower-cased first word or not)
            if cut == whole and whole.rstrip(".").lower() not in before.lower():
                cut = one_kind(cut, set(terms(before)), said, query.kinds, query.ages)
    if query.yes_no and not query.kinds:
        cut = _the_clause_asked(cut, query)
    return cut


def _the_clause_asked(sentence: str, query: Query) -> str:
    """"Is there a minimum I'd have to spend?": "We have a minimum spend of £450 for weddings", not ", and most of our
    couples spend between £900 and £1,800" after it: the one clause that holds every main word asked."""
    main = {t for t in query.own if query.weights.get(t, 0.0) >= 1.0}
    clauses = _AND.split(sentence.rstrip(".!?"))
    if len(clauses) < 2 or not main:
        return sentence
    holding = [c for c, have in zip(clauses, clause_terms(clauses), strict=True) if main <= have]
    if len(holding) != 1 or (holding[0] is clauses[0] and _FRAME.match(holding[0])):
        return sentence  # ("On Friday and Saturday nights, and every night in August, the minimum stay is ...": when)
    return holding[0][:1].upper() + holding[0][1:] + "."


# a sentence that opens with when or where what it says holds, not with a clause of its own
_FRAME = re.compile(r"(?:on|in|at|for|from|during|between|before|after|until|throughout)\b", re.I)


_AND = re.compile(r",\s+and\s+(?=\w+\s+\w+)", re.I)


_PERSONAL = re.compile(r"^(?:It|They|He|She)\b")  # (not "This summer...": a determiner, not a pronoun)
_POINTING = re.compile(r"\b(?:it|its|that|this|they|them|their|those|these|he|him|his|she|her)\b", re.I)


def with_antecedent(best: Scored, ranking: Ranking, asked: list[str], previous_reply: str, said: str = "",
                    place: frozenset[str] = frozenset()) -> Scored:
    """"It costs 23 euros." is said after the sentence "it" stands for when that is where the question's own
    words are ("how much is the theory test?"), or when the question (`said`) points at nothing itself and "it" is
    not the place (`place`: its terms) ("do you run anything for kids?" / "It runs every Tuesday morning...": what
    runs?), unless the last reply just said it."""
    c = best.candidate
    if c.kind != "knowledge" or not PRONOUN_START.match(c.text):
        return best
    before = next((s.candidate for s in ranking.ranked if s.candidate.kind == "knowledge" and
                   s.candidate.group == c.group and s.candidate.position == c.position - 1), None)
    own = set(terms(c.text))
    missing = {t for t in asked if t not in own and not RELATED.get(t, frozenset()) & own}
    if before is None or before.text.lower().rstrip(".!?") in previous_reply.lower() or \
            not (missing & set(terms(before.text)) or (
                said and not _POINTING.search(said) and _PERSONAL.match(c.text) and
                not place & set(terms(" ".join(before.text.split()[:4]))))):
        return best
    return dataclasses.replace(best, candidate=dataclasses.replace(c, text=f"{as_sentence(before.text)} {c.text}"))

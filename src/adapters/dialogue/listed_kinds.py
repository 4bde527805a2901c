"""Sentences that list priced (or timed, or staffed) kinds of one thing, cut to the kind a question names: "Adult
membership costs £240 a year, family membership £380 and junior membership, for under-18s, £60" is "Family membership
costs £380." for "the whole family"; the kind whose ages include the one asked about, or whose bound holds the amount
asked ("a venue 20 miles away"), is chosen the same way. A question that names none, or two, leaves the sentence whole.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from avatar_service.adapters.dialogue.age_limits import age_fit
from avatar_service.adapters.dialogue.amounts import amount_fit, amounts, bounds_amount
from avatar_service.adapters.dialogue.answer_types import ADDRESS, HOLDS
from avatar_service.adapters.dialogue.counted import counts_the_same
from avatar_service.adapters.dialogue.narrowing import (
    DAY_WORD,
    LINKING,
    REST,
    THRESHOLD,
    case_terms,
    pick_case,
    with_verb,
)
from avatar_service.adapters.dialogue.terms import terms

# A sentence listing priced kinds of one thing, one after another: "Adult membership costs £240 a year, family
# membership £380 and junior membership, for under-18s, £60". A kind ends at the first comma or "and" after its
# figure, or at the last ", and" before the next one (what comes between is its own: "Ravi Patel, who specialises
# in hybrid cars, and Jordan Hughes"); each names itself before its figure (a figure that opens a piece is
# one_clause's "£18 for jeans").
_PREPOSITION = re.compile(r"(?:between|within|for|from|over|up to|at|on|in|under)\s", re.I)
_AND_OR = re.compile(r"\s(?:and|or)\s", re.I)
_SEPARATOR = re.compile(r",\s+(?:and\s+|or\s+)?|\s+(?:and|or)\s+", re.I)
# "for just me", "on my own": the one-person kind
_SEVERAL = re.compile(r"\b(?:kids|children|sons|daughters|grandchildren|grandkids|cats|dogs|pets|horses|names|"
                      r"twins|boys|girls|parents)\b", re.I)
JUST_ME = re.compile(r"\b(?:(?:just|only) (?:for )?|for )(?:me|myself)\b(?! and\b)|\bon my own\b", re.I)
ONE_PERSON = frozenset(terms("adult individual single"))
# the price of one person or of one kind of them is asked ("for an adult", "for kids"), not a family's
_FOR_ONE = re.compile(r"\b(?:a|an|one|single) (?:adult|grown[- ]?up|person|visitor|guest)\b|"
                      r"\bfor (?:the )?(?:kids|children|adults|grown[- ]?ups|seniors|students)\b(?!\s+and\b)", re.I)


def asked_for_one(question: str) -> bool:
    return bool(_FOR_ONE.search(question) or JUST_ME.search(question))


def _of_the_count(pieces: Sequence[str], question: str) -> list[int]:
    """The kinds that are as many as the question asks for, when the kinds differ in how many they are (the one that
    counts the thing asked as the question does: "two cats in one chalet?" / "two cats sharing cost £22")."""
    if len(same := [i for i, p in enumerate(pieces) if counts_the_same(question, p)]) == 1:
        return same
    asked = _count(question)
    counts = [_count(p) for p in pieces]
    return [i for i, n in enumerate(counts) if asked and n == asked] if len(set(counts) - {0}) > 1 else []


def _count(text: str) -> int:
    return 1 if _ONE.search(text) else 2 if _TWO.search(text) else 0


_ONE = re.compile(r"\b(?:one|single)\b", re.I)
_TWO = re.compile(r"\b(?:two|both|pair|couple)\b", re.I)


_MINIMUM = re.compile(r"(?:with |and )?(?:an? |the )?minimum (?:charge|spend|fee|order|price|cost)\b", re.I)


def one_kind(sentence: str, own: set[str], question: str, kinds: Sequence[str], ages: Sequence[int] = ()) -> str:
    """`sentence` cut to the one listed kind the question names ("the whole family" -> "family membership costs
    £380"), or whose ages include the one asked about (`ages`: "and my daughter?", whom a memory says is 6); as it
    is when it lists none or the question names none."""
    if (kinds[:1] == ["name"] and _SEVERAL.search(question)) or kinds[:1] == ["list"]:
        return sentence  # "what are my kids called?": every name (and a list is what is asked, not one of its cases)
    body = sentence.rstrip(".!?")
    # one address (its street and postcode), however many place words lead to it ("... beside Mill Lock on the Leeds and
    # Liverpool Canal, at 4 Wharf Street, Skipton BD23 1LE"), not two ("at 4 King Street and at 10 Mill Lane")
    if kinds[:1] == ["place"] and (found := list(ADDRESS.finditer(body))) and \
            not _AND_OR.search(body, found[0].start(), found[-1].end()):
        return sentence
    values = [m for kind in kinds[:1] for m in HOLDS[kind].finditer(body)]
    if len(values) < 2 or not kinds:
        return sentence
    cuts = []
    for before, after in itertools.pairwise(values):
        # the first separator after a kind, unless a ", and" comes later: then what comes before it is the kind's
        # own ("Ravi Patel, who specialises in hybrid and electric cars, and Jordan Hughes"; "£8 for tea and
        # cake, and £12 for lunch"; but "family membership £380 and junior membership, for under-18s, £60")
        # (but "5pm on weekdays and Saturdays and 3:30pm on Sundays": days listed together are one kind's)
        # (nor is an "and" between capitals one: "the Kennet and Avon Canal")
        separators = [s for s in _SEPARATOR.finditer(body, before.end(), after.start())
                      if not (DAY_WORD.fullmatch(body[:s.start()].rsplit(None, 1)[-1]) and
                              DAY_WORD.match(body, s.end())) and not (
                          s.group(0).strip() in ("and", "or") and body[:s.start()].rsplit(None, 1)[-1][:1].isupper()
                          and body[s.end():s.end() + 1].isupper())]
        listing = [s for s in separators if s.group(0).startswith(",") and s.group(0).rstrip() != ","]
        cut = listing[-1] if listing else next(iter(separators), None)
        if cut is None:
            return sentence
        cuts.append(cut)
    starts = [0, *(c.end() for c in cuts)]
    ends = [*(c.start() for c in cuts), len(body)]
    pieces = [body[a:b] for a, b in zip(starts, ends, strict=True)]
    if any(_MINIMUM.match(piece.strip()) for piece in pieces[1:]):
        return sentence  # "£2 per appliance, with a minimum charge of £60": one price and its minimum, not two kinds
    # the later kinds say their figure first ("cost £12 for A2, £18 for A1 and £25 for A0") or after their name; one
    # clause of its own after ", and" ends such a list ("..., and children under 4 swim free with a paying adult")
    listed = next((i for i in range(1, len(pieces)) if values[i].start() != starts[i]), len(pieces))
    if listed < 2 or listed != len(pieces) - 1 or cuts[listed - 1].group(0).replace(" ", "").lower() != ",and":
        listed = len(pieces)
    # "orders over £25" is a condition, not a kind (though "under 4" may be the age asked about)
    threshold, asked_amounts = THRESHOLD.search(body, 0, ends[listed - 1]) is not None, amounts(question)
    if threshold and not ages and not asked_amounts:
        return sentence
    # (or the amount asked about: "a venue 20 miles away" is within 25 miles, "3 nights" no stay of a week or more)
    fitting = [i for i, piece in enumerate(pieces) if ages and age_fit(piece, ages) > 0] or \
        [i for i, piece in enumerate(pieces) if asked_amounts and amount_fit(piece.split(";")[0], asked_amounts)] or \
        [i for i, piece in enumerate(pieces) if asked_amounts and not bounds_amount(piece.split(";")[0], asked_amounts)
         and any(bounds_amount(p, asked_amounts) for p in pieces)] or \
        _of_the_count(pieces, question)  # "just the one ear": "£45 for one ear", not "£65 for both ears"
    if len(fitting) == 1:  # "£3.10 for juniors aged 4 to 16", "children under 4 swim free"
        i = fitting[0]
        piece = pieces[i].split(";")[0]
        said_on = i and (values[i].start() == starts[i] or _PREPOSITION.match(piece))  # "between 25 and 50 miles..."
        piece = LINKING.sub("", piece)  # ("while students and anyone over 70 can join for £110")
        return f"It's {piece}." if said_on else f"{piece[:1].upper()}{piece[1:]}."
    if threshold or (ages and THRESHOLD.search(body)):  # (an age no kind's bounds hold: none of them)
        return sentence
    if listed < len(pieces):  # "..., and a season pass costs £95": the clause after the list, when only it is named
        tail = pieces[listed]
        shared = case_terms(pieces[0][:values[0].start()])  # what all the kinds share ("Tickets cost"), and its kin
        listed_terms = set().union(*(case_terms(p) for p in [pieces[0][values[0].start():], *pieces[1:listed]]))
        # (and the list holds no word asked that it lacks: "a 50 square foot unit" is the list's "£29 for 50 square
        # feet", not "a 100 square foot unit costs £48")
        if (own - listed_terms - shared) & case_terms(tail) and not (own & listed_terms) - case_terms(tail):
            return f"{tail[:1].upper()}{tail[1:]}."
    pieces, values, starts = pieces[:listed], values[:listed], starts[:listed]
    verbless = all(v.start() == a for v, a in zip(values[1:], starts[1:], strict=True))
    if not verbless and any(v.start() - a < 3 for v, a in zip(values, starts, strict=True)):
        return sentence
    asked = set(own) | (ONE_PERSON if JUST_ME.search(question) else set())
    if verbless:  # what all the kinds share ("posters on satin paper cost") tells none apart
        asked -= set(terms(body[:values[0].start()]))
    elif kinds[0] == "day" and asked and asked <= set(terms(body[:values[0].start()])):
        return sentence  # "what days do you do the tours?": "Our tours run on Fridays at 6pm and on Saturdays at ..."
    # (each kind without what the sentence goes on to say after it: "..., and children under 4 swim free with a
    # paying adult" names no adult's price)
    # (and the first kind without what all of them share: "a day ticket costs £9 for adults" is not the adults' for
    # holding the ticket)
    head = values[0].start() if verbless and kinds[0] == "price" else 0  # (not "closed on Sundays, Mondays and ...")
    chosen = pick_case([REST.split(p, 1)[0] for p in [pieces[0][head:], *pieces[1:]]], asked)
    if chosen < 0:
        return sentence
    if verbless and chosen:
        return f"It's {pieces[chosen]}."
    piece = with_verb(pieces[chosen], pieces[0], kinds) if chosen else pieces[0]
    return f"{piece[:1].upper()}{piece[1:]}."

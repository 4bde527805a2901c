"""Sentence ranking for the offline answerer: knowledge sentences and memories in one ranking.

Each candidate is one sentence of a knowledge chunk, or one memory (in the second person). Its score blends

- lexical evidence: BM25 over the candidate sentences (Snowball stems, idf over this set, sentence-length
  normalisation), where a related word ("pictures" for "photography"), a word of the same family ("members" for
  "membership") or a word of the sentence an "It ..." sentence points back to counts 0.6 of the word itself;
- embedding similarity: the MiniLM cosine to the turn of the candidate itself (a memory, a knowledge sentence
  the embedder's cache holds) or else of its chunk, as retrieval measured it;
- answer type: a time for "when", a price for "how much", a place for "where", a person for "who"...; a name,
  an age or a contact asked for weighs down sentences without one twice;
- who the question is about: memories gain when it asks about the user ("where do I live"), knowledge when it
  asks about the place's rules ("can I take pictures"); an age asked about ("my 12 year old") favours the
  sentence whose age limit includes it.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Sequence

from avatar_service.adapters.dialogue import age_limits, amounts, answer_types
from avatar_service.adapters.dialogue.ranked import Candidate, Query, Ranking, Scored
from avatar_service.adapters.dialogue.terms import RELATED, WEEKDAY_TERMS, related_in, said_together, terms

AGE_COVERAGE, CHILDRENS = 0.5, 0.5  # (CHILDRENS: a sentence for children, asked for a child of an age it does not name)
_K1, _B = 1.2, 0.25  # BM25: sentences are short, so length matters less than for documents
_RELATED_MATCH, _TITLE_MATCH, _CASE_RELATED = 0.6, 0.4, 0.6
LEXICAL_WEIGHT, SENTENCE_WEIGHT, CHUNK_WEIGHT, FIT_WEIGHT, UNFIT_LEXICAL = 0.45, 0.6, 0.25, 0.25, 0.6


def rank(query: Query, candidates: Sequence[Candidate]) -> Ranking:
    term_sets = [set(terms(c.text)) for c in candidates]
    weights = query.weights
    n = len(candidates)
    df = {t: sum(1 for s in term_sets if t in s) for t in weights}
    idf = {t: math.log(1.0 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in weights}
    average = sum(len(s) for s in term_sets) / n if n else 1.0
    ages = [_age(query, c.text, c.kind == "knowledge") for c in candidates]
    # an age limit answers whether someone's age gets a discount, or needs a ticket, only where it states a price (read
    # once a candidate, and only when such a thing is asked)
    discount = bool(weights.keys() & _PAYING_TERMS)
    priced = [answer_types.HOLDS["price"].search(c.text) is not None for c in candidates] if discount else [False] * n
    asked_amounts = amounts.amounts(query.text)
    need_asked = query.yes_no and _NEED_ASKED.search(query.text) is not None
    # (and what the user told of whom it is asked for: one pass over the sorted vocabulary for both)
    related = related_in(weights.keys() | query.case_terms, set().union(*term_sets))
    inherited = _antecedents(candidates, term_sets)
    # a chunk's title ("Pick-up") says what all its sentences are about, in words they may not use themselves
    titled = [c.title & weights.keys() for c in candidates]
    titles = set().union(*titled)
    reachable = {t for t in weights if df[t] or any(related[t] & s for s in term_sets) or t in titles}
    if any(a > 0 for a in ages):  # "my son" is covered by "visitors under 18"
        reachable |= {t for t in weights
                      if any(_by_age(t, p) for p, a in zip(priced, ages, strict=True) if a > 0)}
    # "on Sundays?" is answered by the days it is open ("Tuesday to Saturday", "on weekdays"), yes or no
    if weights.keys() & WEEKDAY_TERMS and any(answer_types.names_weekday(c.text) for c in candidates):
        reachable |= weights.keys() & WEEKDAY_TERMS
    # (a span holds the day asked when it includes it, or, asked yes or no, when it leaves it out: "on weekdays")
    days = [answer_types.spans_days(c.text) and (query.yes_no or bool(answer_types.on_the_day(query.text, c.text)))
            for c in candidates] if query.own & WEEKDAY_TERMS else []
    total = sum(idf[t] * w for t, w in weights.items()) or 1.0
    # a word of everyday English that nothing known holds ("per head", "you guys", "at least") is how the question
    # is said, not what it asks about, as is the place's own trade: it is left out, never what makes the question
    # unanswerable (though the shares of the question's weight below still count it, so the other words weigh no
    # more for its absence)
    if query.incidental & (weights.keys() - reachable):
        weights = {t: w for t, w in weights.items() if t in reachable or t not in query.incidental}
    # only the question's own main words make it unanswerable when nothing holds them
    unmatched = sum(idf[t] * w for t, w in weights.items() if t not in reachable and w >= 1.0) / total
    # "can I pay in instalments?" asks whether, so the kind its words suggest (a price) matters less
    fit_weight = FIT_WEIGHT / 2 if query.yes_no else FIT_WEIGHT
    contact = list(query.kinds) == ["contact"]  # a phone number or an address to write to, and nothing else
    where_are_you = _WHERE_ARE_YOU.search(query.text) is not None  # (asked nothing but where the place is)
    scored, own_main = [], []  # (and how many of the question's own main words each holds)
    main = [t for t, w in weights.items() if w >= 1.0 and t in reachable]
    topic = {t for t in main if not _kin(t)}  # what is asked of the child, if one is named
    for i, (candidate, have, age, before, title) in enumerate(zip(candidates, term_sets, ages, inherited, titled,
                                                                  strict=True)):
        held, main_held, topic_held, own_held = 0.0, 0, False, 0
        echo = candidate.text in query.echoed
        for t, w in weights.items():
            if echo and t in query.from_reply:
                continue
            if t in have:
                held += idf[t] * w
            elif age > 0 and _by_age(t, priced[i]):  # "can kids come?" / "under-16s walk for half price"
                main_held += w >= 1.0 and t in reachable
                topic_held = topic_held or (w >= 1.0 and t in topic)  # ("does the baby need a ticket?" / "go free")
                continue
            elif related[t] & have or t in before or (days and days[i] and t in WEEKDAY_TERMS & query.own):
                held += _RELATED_MATCH * idf[t] * w
            elif t in title:  # "where do I collect the car?" in the item named "Pick-up"
                held += _TITLE_MATCH * idf[t] * w
            else:
                continue
            main_held += w >= 1.0 and t in reachable
            own_held += w >= 1.0 and t in have and t not in query.incidental  # (in so many words)
            topic_held = topic_held or (w >= 1.0 and t in topic)
        coverage = held / total if weights else 0.0
        # an age found in what the user told counts where the sentence is about what is asked ("does my daughter
        # have to be a good swimmer?" is not answered by "junior membership, for under-18s, £60")
        if age > 0 and (not (query.kinds or query.ages_said or not topic or topic_held) or
                        (discount and "price" in query.kinds and not priced[i])):
            age = 0.0  # (nor does a limit that states no price answer "does my mum get a discount?")
        length = min(1.1, (1 + _K1) / (1 + _K1 * (1 - _B + _B * len(have) / max(average, 1.0))))
        lexical = min(1.0, coverage * length)
        if query.ages and age > 0 and age_limits.age_fit(candidate.text, query.ages) > 0:
            # a limit that includes the asked age holds what "does my 2 year old need a ticket?" asks about
            lexical = max(lexical, min(1.0, AGE_COVERAGE * length))
        # a time, a price... counts where the sentence is about the question at all ("Belem Tower" is no
        # answer to "who led the rebuilding of the Baixa?" for holding two capitalised words)
        # (what the user told is about them: asked "when do I normally come in?", their Thursdays fit; and a phone
        # number is one whatever the sentence says around it: "you can book on 023 8049 6115")
        fits = bool(query.kinds) and (not weights or coverage > 0 or candidate.relevance >= 0.2 or (
            candidate.kind == "memory" and query.about_user >= 1.0) or (candidate.kind == "knowledge" and contact)) \
            and _holds(candidate.text, query) and not (list(query.kinds) == ["list"] and main and not main_held)
        if query.kinds and not fits:  # about the topic, but not holding what is asked for (no age for "how old")
            lexical *= UNFIT_LEXICAL if not query.yes_no else (1 + UNFIT_LEXICAL) / 2
            if not query.yes_no and _LITERAL.issuperset(query.kinds):
                lexical *= UNFIT_LEXICAL  # a name or an age is said when given ("your dog has sensitive skin" is none)
        semantic = SENTENCE_WEIGHT if candidate.own else CHUNK_WEIGHT
        score = LEXICAL_WEIGHT * lexical + semantic * candidate.relevance + (fit_weight if fits else 0.0)
        if age > 0:  # "visitors under 18" holds what "my 12 year old son" asks about, in other words
            coverage = max(coverage, AGE_COVERAGE)
        score += _who(query, candidate.kind) + 0.2 * age
        if query.to_place and fits and _PLACE_KINDS & set(query.kinds):
            # "where are you?": the sentence naming the place, not its car park (and its name more than its town)
            score += NAMES_THE_PLACE * min(2, len(query.place_names & set(_CAPITALISED.findall(candidate.text)))) / 2
        # (asked nothing but where: "where are you based?", "where's the boathouse?" / "... Frome Road, ... BA15 1LE")
        if fits and where_are_you and (query.to_place or main_held) and answer_types.ADDRESS.search(candidate.text):
            score += ADDRESS_ASKED  # (and the address says where in other words: "where do you train?")
            coverage = max(coverage, AGE_COVERAGE)
        if query.child and _ADULT.search(candidate.text) and not age_limits.mentions_child(candidate.text) and \
                not age_limits.for_minors(candidate.text):  # ("under-3s go free with a paying adult" is for one)
            score -= 0.15  # "an adult ticket costs 22.50 euros" is not the price for a child
        if need_asked and NEED.search(candidate.text):
            score += NEED_SAID  # "do I need to book?": "you don't need an appointment", not "Bea takes the bookings"
        if asked_amounts and amounts.amount_fit(candidate.text, asked_amounts):
            score += AMOUNT_FITS  # "600 pages, is it any cheaper?": "for orders of more than 500 sides"
        if (query.one_person or len(query.ages) == 1) and (several := _FOR_SEVERAL.search(candidate.text)) and \
                not _of_one(query, candidate.text[:several.start()] + candidate.text[several.end():]):
            score -= 0.15  # "a family swim for two adults and two juniors" is not the price for a grown-up (or a kid)
        if not query.child and age_limits.limits_group(candidate.text):
            score -= 0.1  # "children under 6 eat free" does not answer "how much is breakfast?"
        if (case := _CASE.match(candidate.text)) and not _asked(case.group(1), weights):
            score -= 0.08  # "On Fridays it stays open until 10pm" answers "when do you open?" only on Fridays
        if candidate.kind == "memory" and query.about_user >= 1.0 and (other := _SOMEONE_ELSES.match(candidate.text)) \
                and not set(terms(other.group(1))) & query.own:
            score -= SOMEONE_ELSE  # "what car do I drive?" is not answered by "your wife drives an electric car"
        if candidate.kind == "memory" and query.ages and not query.ages_said and query.about_user < 1.0 and \
                not _ASKS_WHO_THEY_ARE & set(query.kinds) and age_limits.ages(candidate.text) and \
                all(_kin(t) or weights[t] < 1.0 for t in have & weights.keys()):
            score -= SOMEONE_ELSE  # "which room would my son be in?": his age is what the question is asked with
        case_held = min(1.0, sum(1.0 if t in have else _CASE_RELATED if related[t] & have else 0.0
                                 for t in query.case_terms)) if candidate.kind == "knowledge" else 0.0
        if candidate.kind == "memory" and candidate.group in query.cases:
            score -= 1.0  # "can Bramble come along?" is never answered by "You have a spaniel called Bramble."
        elif candidate.kind == "memory" and query.told and not query.about_user and have & weights.keys() <= query.told:
            score -= TOLD_AGAIN
        if candidate.kind == "memory" and query.yes_no and query.about_user < 1.0 and \
                _plain(candidate.text) in query.last_reply:
            score -= SAID_AGAIN  # "can he ride at that age?" after "Your son Finn is 4.": not that said again
        if fits and candidate.text in query.listed_before and query.own & weights.keys() <= have:
            score += LISTED_AGAIN  # (not "On Saturdays we close for lunch between 1pm and 1.30pm")
        if query.said and _plain(candidate.text) in query.said:
            if fits or not query.kinds:
                score += SAID_BEFORE  # "where can I park?" ... "how much does that cost?": what that reply says
            elif not query.yes_no and candidate.kind == "knowledge":  # (a memory's "with Kai" is someone too)
                score -= SAID_BEFORE  # "who would fit it?" after a boiler's price: not that price again
        # the chunk retrieval put first, and a chunk's opening sentences (which state its main facts) win ties
        score += 0.01 / (1 + candidate.group) + max(0.0, 0.02 - 0.01 * candidate.position)
        # (a sentence that opens with its case, "On Saturdays we close for lunch", opens with no subject)
        if fits and main and not query.yes_no and not case:  # "A Full Valet is £85", not "... in the Full Valet"
            opening = set(terms(" ".join(candidate.text.split()[:_OPENING_WORDS])))
            score += SUBJECT_HELD * len(opening & set(main)) / len(main)
        scored.append(Scored(candidate, score, coverage, fits, main_held / len(main) if main else 1.0, case_held))
        own_main.append(own_held)
    if query.case_terms:
        # what the user told of whom it is asked for ranks the place's sentences ("Dogs are welcome" for their spaniel);
        # named for what is asked, only those that hold as many of the question's own words as any does ("is there
        # parking for my car?" is still asked of the parking, not the charger their electric car would use)
        most = max((n for s, n in zip(scored, own_main, strict=True) if s.candidate.kind == "knowledge"),
                   default=0) if query.case_aside else 0
        # (asked with no word of its own, "can bramble come with us?", what they tell is all there is to ask about)
        held_weight = CASE_HELD if main else 2 * CASE_HELD
        scored = [dataclasses.replace(s, score=s.score + held_weight * s.case_held) if n >= most else
                  dataclasses.replace(s, case_held=0.0) for s, n in zip(scored, own_main, strict=True)]
    scored.sort(key=lambda s: -s.score)
    main_words = [t for t, w in weights.items() if w >= 1.0 and t in query.own]
    topical = [t for t in main_words if t not in query.case] or main_words
    focus = topical[-1] if topical else ""
    # (an everyday phrase said for several words is known when one of them is: "come out as far as" is "cover area")
    reachable = reachable | {t for g in said_together(query.text) if g & reachable for t in g}
    unknown = frozenset(t for t, w in weights.items() if t not in reachable and w >= 1.0)
    return Ranking(scored, unmatched, len(weights), frozenset(main_words), bool(query.kinds) and not query.yes_no,
                   bool(focus) and focus not in reachable,
                   bool(query.kinds) and (not query.yes_no or (  # ("is there an age limit?": an age)
                       list(query.kinds) == ["age"] and not query.kind_borrowed)) and (
                       _LITERAL.issuperset(query.kinds) or (
                       _HOW_MUCH.search(query.text) is not None and set(query.kinds) == {"price"}) or (
                       _HOW_MANY.search(query.text) is not None and set(query.kinds) == {"number"})),
                   query.aside_named, query.yes_no,
                   unknown,
                   contact and not query.yes_no, query.kind_borrowed, focus,
                   query.yes_no and bool(unknown) and _qualified(query.text, focus, unknown), query.ages,
                   bool(focus) and df[focus] == 1 and all(df[t] for t in main_words))


def _qualified(text: str, focus: str, unknown: frozenset[str]) -> bool:
    """Whether the word right before the question's focus is one nothing known holds ("my guide dog"); only a
    yes-or-no question's refusal (answering._refuses) asks."""
    stems = [next(iter(terms(w)), "") for w in re.findall(r"[A-Za-z][\w'-]*", text)]
    return any(s == focus and i and stems[i - 1] in unknown for i, s in enumerate(stems))


# a sentence that opens by pointing back at the one before it: "It costs 23 euros." after "...the theory test..."
PRONOUN_START = re.compile(r"^(It|Its|They|Their|This|These|He|She|His|Her)\b")


def _antecedents(candidates: Sequence[Candidate], term_sets: Sequence[set[str]]) -> list[frozenset[str]]:
    """For a knowledge sentence that opens with a pronoun, the terms of the sentence before it in its chunk:
    what "it" stands for, which counts as a related word would."""
    where = {(c.kind, c.group, c.position): i for i, c in enumerate(candidates)}
    out = []
    for c, have in zip(candidates, term_sets, strict=True):
        before = where.get((c.kind, c.group, c.position - 1)) if c.kind == "knowledge" else None
        out.append(frozenset(term_sets[before] - have) if before is not None and PRONOUN_START.match(c.text)
                   else frozenset())
    return out


def _age(query: Query, text: str, known: bool) -> float:
    if query.ages:
        fit = age_limits.age_fit(text, query.ages)
        # "can my 14 year old use the gym?" is answered by "gym users must be 16 or over" as much as by a yes
        # (a limit that includes them says more: "children under 4 travel free" for "does my 2 year old pay?")
        if fit == 0 and known and query.child and age_limits.mentions_child(text) and not _ADULT.search(text):
            return CHILDRENS  # "what would it cost to service ella's bike?" (7): "children's bikes ... kids' service"
        return (fit if fit > 0 else 0.7 * abs(fit)) if query.yes_no else fit
    # "and for kids?": a limit only minors meet, or children of some ages ("7 euros for children aged 4 to 15")
    return 1.0 if query.child and (age_limits.for_minors(text) or age_limits.child_range(text)) else 0.0


NAMES_THE_PLACE, ADDRESS_ASKED, _PLACE_KINDS = 0.08, 0.12, frozenset(("place", "time", "day"))
_WHERE_ARE_YOU = re.compile(r"\bwhere(?:abouts)?(?: in [a-z ]{2,30}?)?(?:'s| (?:are|r|is)) "
                            r"(?:you|u|it|the \w+|your \w+)\b|\baddress\b|"
                            # ("where do you train?": where the classes are, not the town the club is from)
                            r"\bwhere (?:do|does) (?:you|u|we|they|the \w+) (?:train|meet|practi[cs]e|play|rehearse|"
                            r"take place)\b", re.I)
# kinds of answer that an answer always states in so many words (a time may be "closed", a price "included")
_LITERAL = frozenset(("name", "age", "contact", "temperature"))
_HOW_MANY = re.compile(r"\bhow many\b", re.I)  # (a count, said when given)
_HOW_MUCH = re.compile(r"\bhow much (?:is|are|does|do|would|will|for)\b", re.I)  # (a price, said when given)
_CAPITALISED = re.compile(r"\b[A-Z][\w'-]{3,}")
# a sentence that opens by narrowing itself to one case: "On Fridays ...", "For emergencies ..."
_ADULT = re.compile(r"\badults?\b", re.I)
_NEED_ASKED = re.compile(r"\b(?:do|does|will|would) (?:i|we|you|he|she|they) (?:need|have) to\b|\bmust (?:i|we)\b",
                         re.I)
# words of need, asked ("do I need to book?", answering) or said ("you don't need an appointment")
NEED = re.compile(r"\b(?:needs?|needed|necessary|required|requires|compulsory|have to|has to|must)\b", re.I)
NEED_SAID, AMOUNT_FITS = 0.1, 0.2
SUBJECT_HELD, _OPENING_WORDS = 0.03, 4  # what a sentence opens with is what its answer is about
_FOR_SEVERAL = re.compile(r"\bfor (?:two|three|four|five|six|[2-6]) (?:adults|people|persons|guests|visitors)\b"
                          r"(?: and (?:up to )?(?:one|two|three|four|[1-4]) (?:child|children|kids|juniors)\b)?", re.I)
_CASE = re.compile(r"^(?:On|For|During|Outside|After|Before|Except|At)\s+(?:the\s+)?(\w+)")


SAID_BEFORE, SOMEONE_ELSE, TOLD_AGAIN, SAID_AGAIN, LISTED_AGAIN, CASE_HELD = 0.12, 0.15, 0.1, 0.3, 0.3, 0.3
_SOMEONE_ELSES = re.compile(r"^Your (wife|husband|partner|son|daughter|sons|daughters|child|children|kids?|mum|mom|"
                            r"mother|dad|father|parents|brother|sister|friend|boyfriend|girlfriend|boss|dog|cat)\b")


def _plain(sentence: str) -> str:
    return sentence.strip().rstrip(".!?").lower()


def said_sentences(reply: str) -> frozenset[str]:
    """A reply's sentences as `Query.said` compares them (without the "Yes, " a yes-or-no question put before one)."""
    return frozenset(_ANSWER_WORD.sub("", _plain(s)) for s in re.split(r"(?<=[.!?])\s+", reply) if s.strip())


_ANSWER_WORD = re.compile(r"^(?:yes|no),\s+")


def _asked(word: str, weights: dict[str, float]) -> bool:
    t = terms(word)
    return bool(t) and (t[0] in weights or bool(RELATED.get(t[0], frozenset()) & weights.keys()))


def _holds(text: str, query: Query) -> bool:
    """Holds the kind asked for; a name made of the question's own words is not one ("who does the science
    show?" is not answered by "The Big Science Show is two hours of experiments"); closed on the day asked is the
    hours of that day ("and mondays?" after "what time do you open on sundays?" / "we're closed on Mondays")."""
    if _HOURS & set(query.kinds) and _CLOSED.search(text) and answer_types.on_the_day(query.text, text):
        return True
    return any(kind not in _NAMED or not set(terms(m.group(m.lastindex or 0))) & query.own
               for kind in query.kinds
               for m in answer_types.HOLDS[kind].finditer(answer_types.read_for(kind, text)))


_NAMED = frozenset(("person", "name"))
_HOURS, _CLOSED = frozenset(("clock", "time")), re.compile(r"\bclosed\b", re.I)
_ASKS_WHO_THEY_ARE = frozenset(("name", "age", "person"))


def _of_one(query: Query, rest: str) -> bool:
    """Whether what a sentence says besides its price for several ("..., and a family ticket for two adults and two
    children is £45") is about the one person, or the one kind of them, asked about ("Over-65s pay £11")."""
    if query.ages:
        return age_limits.age_fit(rest, query.ages) > 0
    if query.child:
        return age_limits.mentions_child(rest) or age_limits.for_minors(rest)
    return bool(set(terms(rest)) & _ONE_KIND & query.weights.keys())


_ONE_KIND = frozenset(terms("adult adults person people senior seniors student students visitor visitors guest guests"))


def _kin(term: str) -> bool:
    """A question's term for one of the user's people whose age a limit may be about: a child, a niece..."""
    return age_limits.mentions_child(term) or term in _KIN_TERMS


def _by_age(term: str, priced: bool) -> bool:
    """A term an age limit answers: one of the user's people, or the discount their age may give in a sentence that
    states a price (`priced`: "does my mum (67) get a discount?" / "over-65s pay £11", not "the taster is for ages 5
    and over only"), or the ticket they may need ("under-2s go free")."""
    return _kin(term) or (priced and term in _PAYING_TERMS)


_PAYING_TERMS = frozenset(terms("discount discounts concession concessions reduction reduced ticket tickets"))
_KIN_TERMS = frozenset(terms(" ".join(("granddaughter granddaughters grandson grandsons baby", *age_limits.KIN_WORDS))))


def _who(query: Query, kind: str) -> float:
    """Memories for questions about the user, knowledge for questions about the place."""
    place = query.permission or query.to_place
    if kind == "memory":  # "where is the gym?" is not answered by "you go to the gym before work"
        stranger = 0.0 if query.mentions_user else 0.15
        return 0.3 * query.about_user - (0.2 if place else 0.0) - (0.1 if query.ages else 0.0) - stranger
    return (0.1 if place else 0.0) - 0.1 * query.about_user

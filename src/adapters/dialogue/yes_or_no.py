"""Whether the best sentence answers a yes-or-no question yes or no, said in front of it ("No, we don't cut keys."),
and how the sentence then reads ("Yes, her business partner ...": its first word in lower case unless a name)."""

from __future__ import annotations

import re

from wordfreq import zipf_frequency

from avatar_service.adapters.dialogue import age_limits, answer_types, counted
from avatar_service.adapters.dialogue.answering import AVAILABLE, NEGATIVE, OFFERING, PARTS, as_sentence, clause_terms
from avatar_service.adapters.dialogue.everyday_phrases import FREE_OF
from avatar_service.adapters.dialogue.measures import within_limit
from avatar_service.adapters.dialogue.ranked import Ranking, Scored
from avatar_service.adapters.dialogue.ranking import NEED
from avatar_service.adapters.dialogue.terms import OPENING_TERMS, RELATED, terms
from avatar_service.core.text.lexicon import words_of

# light verbs and words of asking that a yes needs not find in the answer ("can I *bring* my dog")
_LIGHT = frozenset(terms("bring take get go come use make need put leave allow allowed possible there"))
# sentence openers that are not names, so "Yes, " may put them in lower case
_LOWER_STARTERS = words_of("""The A An It This That These Those There In On At For Most Many Some Each Every Its
    Their Our When If During After Before Since As By With Unlike Although While Today Now All Several Visitors
    Children Tables Pets Dogs Cats We Photography Food Apart Besides Also Please Brothers Sisters Parents Adults
    Students Members Guests Customers Her His They Babies Nappies Lunch Breakfast Dinner Tea Coffee Drinks Meals
    Everyone Everybody Anyone Anybody Nobody Players Riders Tenants Juniors Patients Clients Pupils Lessons Classes
    Bookings Appointments Prices Repairs Over Outside Throughout From Between Until Under Above Below Only
    Delivery Deliveries Collection Parking Entry Admission Payment Postage Tickets Refunds Deposits""")



def _with_related(stems: set[str]) -> set[str]:
    return stems.union(*(RELATED.get(s, frozenset()) for s in stems))


_SAYS_WHICH = re.compile(r"(?:yes|no)\b", re.I)
# a minimum age one must be to come ("you must be 18 or over"), not who pays what ("children under 3 go free") nor who
# must be with an adult ("under-14s must be accompanied"): the age asked is over it or not
_AGE_RULE = re.compile(r"\b(?:must|need to|needs to|have to|has to) be (?:at least |aged? )?\d{1,2}(?: years old)?"
                       r"(?: or (?:over|older)|\+)|\bminimum age (?:is|of) \d|"
                       r"\bcan (?:start|begin|join)\b[^.;]{0,20}\bfrom (?:the )?age\b", re.I)
_PREVENTS = re.compile(r"\b(?:stop|stops|prevent|prevents|protect|protects|block|blocks)\b", re.I)
_EXCEPT = re.compile(r"\b(?:except|other than|but not)\b([^,;.]*)", re.I)  # ("apart from" is "besides" as often)
# a thing spared the refusal that follows it ("Apart from birthday cakes, we don't allow outside food")
_SPARED = re.compile(r"^\W*(?:apart from|except for|other than|with the exception of)\b([^,;.]*),", re.I)
_NO_NEED_OF_IT = re.compile(r"\b(?:do|does|will)(?: not|n't) need (?:one|it|them|any)\b|"
                            r"\bno need for (?:one|it|them)\b", re.I)
_NO_NEED = re.compile(r"\b(?:needs? no|(?:do|does)(?: not|n't) need(?: to book)?(?: an?)?|no need (?:for|to)|"
                      r"no (?:\w+ ){1,2}(?:is )?(?:needed|required|necessary))\b", re.I)  # ("no appointment needed")
# (not "can I bring my own?")
_NEED_OWN = re.compile(r"\b(?:need|have|got) to (?:bring|buy|get|have|take|send|pack)\b", re.I)
_PROVIDED = re.compile(r"\b(?:we|they) (?:provide|supply|lend|loan)\b|\b(?:are|is) (?:provided|supplied|included)\b|"
                       r"\b(?:including|includes) (?:the |your |all )?\w+", re.I)  # ("£60, including needles")
_NOT_PROVIDED = re.compile(r"\b(?:we|they) (?:do not|don't) (?:provide|supply|lend|loan)\b|"
                           r"\b(?:are|is) not (?:provided|supplied|included)\b|"
                           r"\b(?:aren't|isn't) (?:provided|supplied)\b", re.I)


# the case a sentence opens with, whose "not" says when, not no ("If you can't leave a skip outside, our wait and load
# service costs £150")
_CONDITION = re.compile(r"^\W*(?:if|when|unless|where)\b[^,;:]*,\s*(?=\S)", re.I)


# one's own thing asked about, which what must be bought from the place refuses
_OWN_ASKED = re.compile(r"\b(?:bring|use|take|have) (?:in )?(?:my|our|their|his|her) own\b", re.I)
_OUTSIDE = frozenset(terms("outside"))  # (the everyday phrases read "bring my own" as "bring outside")
_BOUGHT_HERE = re.compile(r"\b(?:must|have to|has to|need to|needs to) be (?:bought|purchased|hired|rented)\b|"
                          r"\b(?:must|have to|need to) (?:buy|use|hire) (?:ours|our|them from us)\b", re.I)


# a list set aside between dashes ("– no power, a burning smell, sparking sockets –"): examples, not what is said
_ASIDE = re.compile(r"\s[–—]\s[^–—]*,[^–—]*\s[–—]\s")


# whether something costs ("is there a charge for that?", "is that extra?"), which a price stated answers yes
_CHARGE_ASKED = re.compile(r"\b(?:is|are) there (?:a |an |any )?(?:extra )?(?:charge|fee|cost)s?\b|"
                           r"\b(?:is|are) (?:it|that|this|they) extra\b|"
                           r"\b(?:does|do|will|would) (?:it|that|this|they|those) cost (?:extra|more|anything|money)\b|"
                           r"\b(?:do|does|will|would) (?:you|they) charge\b",
                           re.I)
_PAY_ASKED = re.compile(r"\b(?:have|need) to pay\b|\bpay (?:for|extra for) (?:it|that|this|them|those)\b", re.I)
_AMOUNT = re.compile(r"[£$€]\s?\d|\b\d+(?:[.,]\d\d)? (?:pounds?|euros?|dollars?)\b", re.I)
_PAYING = frozenset(terms("pay charge cost fee extra"))
_TICKET_ASKED = re.compile(r"\bneeds? (?:a|an|her own|his own|their own) (?:ticket|pass|place)\b", re.I)
_OPEN_ASKED = re.compile(r"\bopen\b", re.I)
_CLOSED = re.compile(r"\b(?:close|closed|shut)\b", re.I)
_COST_ASKED = re.compile(r"\b(?:cost|costs|charge|charged|charges|pay|paid|price|extra|fee|fees)\b|(?<!-)\bfree\b",
                         re.I)  # (not "fragrance-free", nor "gluten free": everyday_phrases.FREE_OF)
_FREE_ASKED = re.compile(r"^\W*(?:is|are)\b[^?]*?(?<!-)\b(?:free|complimentary)\b", re.I)
_FREE = frozenset(terms("free complimentary"))
_NO_COST = re.compile(r"\b(?:at|for|with) no (?:extra |additional )?(?:charge|cost|fee)\b", re.I)
_NO_CHARGE = re.compile(r"\bfree\b|\bno (?:extra )?(?:charge|fee|cost)\b|\bincluded\b|\bat no\b", re.I)


def with_answer_word(best: Scored, question: str, ranking: Ranking) -> str:
    """The best sentence, with "Yes," or "No," in front when it plainly answers a yes/no question."""
    said = _said_whether(best, question, ranking)
    if _TOO.search(question) and said.startswith(("Yes, ", "No, ")):
        # "am I too old to start?" asks whether it is barred: "welcome at any age" says no
        return ("No, " if said.startswith("Yes, ") else "Yes, ") + said.split(", ", 1)[1]
    return said


def measured(question: str, ranking: Ranking) -> str | None:
    """"Yes, it must be within 15 metres of ..." when a size or distance the user told is within the place's limit (or
    "No, ..." when it is not: measures.py); None when nothing compares."""
    verdict = within_limit(question, ranking)
    return _answered(verdict[0], verdict[1], ranking) if verdict else None


# booking asked for, and a sentence that says there is none to make ("first come, first served")
_BOOKING_ASKED = re.compile(r"\b(?:need|have|got|able) to (?:pre-?)?(?:book|reserve|make an? (?:appointment|booking))"
                            r"\b|"
                            r"\b(?:can|could|should|do|must) (?:i|we|you) (?:pre-?)?(?:book|reserve)\b", re.I)
_NO_BOOKING = re.compile(r"\bwalk[- ]ins? only\b|\bfirst come,? first served\b|"
                         r"\bno (?:booking|appointment)s? (?:is |are )?(?:needed|required|necessary|taken)\b", re.I)
_BY_APPOINTMENT = re.compile(r"\bby appointment\b", re.I)  # ("walk-ins on Saturdays, everything else by appointment")
_TOO = re.compile(r"\btoo (?:old|young|little|small|big|tall|short|heavy)\b", re.I)


def _said_whether(best: Scored, question: str, ranking: Ranking) -> str:
    text = as_sentence(best.candidate.text)
    # (the question asked after what the user told: "there's a fox under our shed, can you get rid of it?")
    if not (ranking.yes_no or answer_types.is_yes_no(question)) or _SAYS_WHICH.match(text):  # (not "No, No")
        return text
    if NEGATIVE.search(question):
        return text  # "isn't it open?": a yes or no would be ambiguous
    if counted.over_the_minimum(question, text) is False or counted.priced_each(question, text):
        # "just the one night on a Saturday?" / "... the minimum stay is two nights", whatever the day; "is that for
        # both boots?" / "£30 per boot"
        return _answered(False, text, ranking)
    parts = [p for p in PARTS.split(text) if p.strip()]  # (the parts that may say yes or no each)
    if NEED.search(question) and any(_NO_NEED_OF_IT.search(p) for p in parts[1:]):
        return _answered(False, text, ranking)  # "need a uniform straight away?" / "..., but you don't need one yet"
    if ranking.ages and age_limits.ANY_AGE.search(text) and not NEGATIVE.search(text):
        return _answered(True, text, ranking)  # "can my nan (84) join?" / "welcome at any age"
    if ranking.ages and len(bars := age_limits.age_bars(text)) == 1:
        # "is gethin (13) old enough to go in a canoe?" / "children under 12 aren't allowed in the canoes"
        return _answered(all(age >= bars[0] for age in ranking.ages), text, ranking)
    # "can my granddaughter come?" (17) / "you must be 18 or over"; of the part that says it ("can rory (6) do it?" /
    # "children can start from the age of 8, and under-12s must have an adult with them")
    if ranking.ages and (ruled := next((p for p in parts if _AGE_RULE.search(p)), "")) and \
            (fit := age_limits.age_fit(ruled, ranking.ages)):
        return _answered(fit > 0, text, ranking)
    if ranking.ages and age_limits.child_range(text) and (fit := age_limits.age_fit(text, ranking.ages)):
        # "can bea (1) go?" / "Little Racquets is for children aged 4 to 7"; but "does maisie (1) need a ticket?" /
        # "..., and under-2s come in free": her group pays nothing
        goes_free = bool(_PAY_ASKED.search(question) or _TICKET_ASKED.search(question)) and any(
            age_limits.age_fit(p, ranking.ages) > 0 and _NO_CHARGE.search(p) for p in parts)
        return _answered(fit > 0 and not goes_free, text, ranking)
    if _BOOKING_ASKED.search(question) and _NO_BOOKING.search(text) and not _BY_APPOINTMENT.search(text):
        return _answered(False, text, ranking)  # "do i need to book on saturdays?" / "Saturdays are walk-in only"
    if (same_unit := counted.by_the_unit(question, text)) is not None:
        return _answered(same_unit, text, ranking)  # "pay per session?" / "paid by the term, not per session"
    on_the_day = answer_types.on_the_day(question, _day_part(question, parts) or text)
    if on_the_day is None:  # "in October?" / "only sold from May to September"
        on_the_day = answer_types.in_the_months(question, text)
    if on_the_day is None:  # "is that just the one visit?" / "covers three visits"
        on_the_day = counted.in_the_count(question, text)
    if on_the_day is not None and not NEGATIVE.search(text):  # "on a Tuesday?" / "from Wednesday to Sunday"
        return _answered(on_the_day, text, ranking)
    if _NEED_OWN.search(question) and (provided := _PROVIDED.search(text) or _NOT_PROVIDED.search(text)):
        # "do we need to bring our own mats?" / "we provide mats"; "do I need to send nappies?" / "... not provided"
        return _answered(provided.re is _NOT_PROVIDED, text, ranking)
    own_asked = _OWN_ASKED.search(question)
    # ("can I bring my own pellets?": the pellets are what is asked, not that they come from outside)
    asked = {t for t in terms(question) if t not in _LIGHT and not (own_asked and t in _OUTSIDE)}
    # "a birthday cake?" / "apart from birthday cakes, we don't allow outside food" (what else is asked is where), but
    # not "a drink?" / "apart from drinks bought at our bar, we don't allow drinks": what sets the spared apart is asked
    if (spared := _SPARED.match(text)) and NEGATIVE.search(refused := text[spared.end():]) and \
            asked & (set(terms(spared.group(1))) - set(terms(refused))) and \
            asked <= _with_related(set(terms(text))):  # (the spared thing's words are the sentence's too)
        return _answered(True, text, ranking)
    if (excepted := _EXCEPT.search(text)) and asked and asked <= _with_related(set(terms(excepted.group(1)))):
        return _answered(False, text, ranking)  # "do you take amex?" / "all cards except American Express"
    charge = _CHARGE_ASKED.search(question)
    if charge and answer_types.HOLDS["price"].search(text) and not _NO_CHARGE.search(text):
        return _answered(True, text, ranking)  # "is there a charge for that?" / "..., with a £40 call-out charge"
    if (charge or _PAY_ASKED.search(question)) and _NO_CHARGE.search(text) and \
            not _AMOUNT.search(text) and asked - _PAYING <= _with_related(set(terms(text))):
        return _answered(False, text, ranking)  # "do i have to pay for that?" / "Carers come free of charge"
    if _FREE_ASKED.search(question) and _NO_CHARGE.search(text) and \
            asked - _PAYING - _FREE <= _with_related(set(terms(text))):
        return _answered(True, text, ranking)  # "is oat milk free?" / "... and oat milk at no extra charge"
    if _OPEN_ASKED.search(question) and _CLOSED.search(text) and not _OPEN_ASKED.search(text) and asked and \
            asked - OPENING_TERMS <= _with_related(set(terms(text))):
        return _answered(False, text, ranking)  # "are you open on boxing day?" / "we close on ... Boxing Day"
    # ("can I just pop in?" / "a nail clip needs no appointment": no need of a thing says yes to doing without it)
    # (nor is a "no" in an aside: "for emergencies – no power, a burning smell – we run an out-of-hours service")
    negated = NEGATIVE.search if NEED.search(question) else lambda p: NEGATIVE.search(_NO_NEED.sub("", p))
    # (nor is what costs nothing a "no" unless paying is asked: "can biscuit come?" / "dogs are welcome at no extra
    # charge")
    free = _NO_COST if not (charge or _COST_ASKED.search(FREE_OF.sub(r"\1-free", question))) else None

    def said_no(part: str) -> re.Match[str] | None:
        part = _without_what_it_lacks(_CONDITION.sub("", part), asked)
        # ("can I bring my own pellets?" / "pellets must be bought from our hut")
        return negated(_ASIDE.sub(" ", free.sub(" ", part) if free else part)) or (
            _BOUGHT_HERE.search(part) if own_asked else None) or _only_others(part, asked)

    # "Coffee and tea are free; lunch is not included": the part that holds what is asked says yes or no
    part_terms = dict(zip(parts, clause_terms(parts), strict=True))  # ("..., and they must never ...": the boats)
    concerned = [p for p in parts if asked & _with_related(part_terms[p])] if len(parts) > 1 else []
    if concerned:
        # ("glass that stops the sun fading it?" / "so pictures don't fade": the "not" is what was asked for)
        verdicts = {bool(said_no(p)) and not _PREVENTS.search(question) for p in concerned}
        if len(verdicts) > 1:
            # "covered by insurance; whitening is not": it depends, the sentence says how; unless one part holds more
            # of what is asked than any other ("a pack of strings I've opened?" / "..., but strings cannot be returned
            # once opened")
            # (level on those, every word asked decides, light ones too: "can I use my own generator?" / "if you have
            # no power, we can hire you one; you can't use your own generator")
            every = set(terms(question))
            held = [(len(asked & part_terms[p]), len(every & part_terms[p])) for p in concerned]  # (in so many words)
            if held.count(max(held)) > 1:
                return text
            concerned = [concerned[held.index(max(held))]]
            verdicts = {bool(said_no(concerned[0])) and not _PREVENTS.search(question)}
        if verdicts == {True}:
            return _answered(False, text, ranking)
        text_terms = set().union(*(part_terms[p] for p in concerned))
        if all(t in text_terms or RELATED.get(t, frozenset()) & text_terms for t in asked):
            return _answered(True, text, ranking)
        return text
    negative = bool(said_no(text)) and (not re.search(r"\b(but|except|only)\b", text, re.I) or
                                        _only_others(text, asked) is not None) and not _PREVENTS.search(question)
    if negative:
        return _answered(False, text, ranking)
    have = set(terms(text))
    # ("do you sell gift vouchers?" / "gift vouchers are available for ...": what is available is sold)
    if AVAILABLE.search(text):
        asked -= OFFERING
    if asked and all(t in have or RELATED.get(t, frozenset()) & have for t in asked):
        return _answered(True, text, ranking)
    return text



# a thing allowed only of one kind ("only assistance dogs are allowed inside")
_ONLY = re.compile(r"\bonly ((?:[\w-]+ ){1,2}?)([\w-]+) (?:are|is|can|may|get|go)\b", re.I)


def _day_part(question: str, parts: list[str]) -> str:
    """Of a sentence's parts that each name days, the one about what is asked ("can i park in your yard on a
    saturday?" / "you can park in the yard on weekdays, but at weekends you'll need the car park"); "" if none."""
    days = [p for p in parts if answer_types.names_weekday(p)]
    if len(days) < 2 or any(answer_types.opens_with_a_day(p) for p in days):
        return ""  # ("open Monday to Friday 8am to 5pm, and Saturday 9am to 12pm": one list of days, not two clauses)
    asked = set(terms(question)) - _LIGHT
    shared = [len(asked & set(terms(p))) for p in days]
    return days[shared.index(max(shared))] if shared.count(max(shared)) == 1 else ""




# what a thing is said to be without ("eco-friendly solutions that are safe for pets, with no strong perfume"): no "no"
# to it, unless it is what is asked ("a shop with no parking")
_WITH_NO = re.compile(r"\bwith no\b[^,;.]*", re.I)


def _without_what_it_lacks(part: str, asked: set[str]) -> str:
    return _WITH_NO.sub(lambda m: m.group() if asked & _with_related(set(terms(m.group()))) else " ", part)


def _only_others(part: str, asked: set[str]) -> re.Match[str] | None:
    """"can dogs come inside?" / "only assistance dogs are allowed inside": the thing asked, allowed only of a kind
    the question does not name."""
    return next((m for m in _ONLY.finditer(part) if set(terms(m.group(2))) & asked and
                 (kind := set(terms(m.group(1)))) and not kind & _with_related(asked)), None)


def _answered(yes: bool, text: str, ranking: Ranking) -> str:
    """"Yes, " or "No, " and the sentence, whose first word keeps its capital only if it is a name."""
    return ("Yes, " if yes else "No, ") + lower_first(text, " ".join(s.candidate.text for s in ranking.ranked))


def lower_first(sentence: str, known: str = "") -> str:
    """The sentence as it reads after "Yes, ": its first word in lower case unless it is a name. `known`: the text it
    was chosen among, where a word that is no name is also written in lower case ("Range balls ..." / "on the range";
    "Ray does ..." keeps its capital)."""
    first = sentence.split(" ", 1)[0].removesuffix("'s")  # ("Children's bowling parties ...")
    common = first in _LOWER_STARTERS or re.split("['’]", first)[0] in ("You", "Your", "We", "It") or (
        first.isalpha() and first[1:].islower() and  # ("Pony rides ..." / "our ponies")
        re.search(rf"\b(?:{first.lower()}(?:e?s)?|{first.lower()[:-1]}ies)\b", known) is not None) or (
        "-" in first and first.replace("-", "").isalpha() and first[1:].islower()) or (  # ("Well-behaved dogs ...")
        # a plural of a word of English ("Villages up to 10 miles out ..."; not "James", "Charles"), or a doing
        # ("Smoking isn't allowed ..."), that is no name where the text writes it (not "King Street", "Reading" of
        # "... near Reading")
        first.isalpha() and first[1:].islower() and first.endswith(("s", "ing")) and
        zipf_frequency(first.lower().removesuffix("s"), "en", wordlist="small") >= _A_WORD and
        not re.match(rf"{first} [A-Z]", sentence) and not re.search(rf"(?<=[a-z0-9,;:] ){first}\b", known))
    return sentence[:1].lower() + sentence[1:] if common and not _CALENDAR.match(first) else sentence


_CALENDAR = re.compile(r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?$|(?:january|february|march|april|may|june|july|"
                       r"august|september|october|november|december)$", re.I)  # ("No, Saturdays are walk-in only")
_A_WORD = 3.0  # Zipf frequency: a word of everyday English

"""Answers cut to the part asked about.

A sentence that pairs lists item by item ("lessons last 30, 45 or 60 minutes and cost £22, £31 and £40"),
narrowed to the one item the question names: "how much is an hour lesson?" is answered "lessons last 60 minutes
and cost £40", not with every price. Only figures are paired (durations, prices, sizes), and only lists of the
same length, and of three items or more unless the sentence says "respectively" ("open at 9 and 10 and closed at 5
and 6" pairs nothing). A question that names no item, or one found in no list or in two places, leaves the
sentence whole.

A sentence of two clauses, each stating the kind of answer asked for ("our white sourdough loaf costs £4.20 and
the seeded rye costs £4.80"), is cut to the clause that holds more of the question's words ("how much is a
sourdough loaf?" -> "our white sourdough loaf costs £4.20"); a tie keeps both.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from avatar_service.adapters.dialogue.age_limits import age_fit, ages_meant
from avatar_service.adapters.dialogue.answer_types import HOLDS, holds, on_the_day
from avatar_service.adapters.dialogue.comparisons import at_the_extreme_hour, sized
from avatar_service.adapters.dialogue.terms import OPENING_TERMS, RELATED, WEEKDAY_TERMS, terms
from avatar_service.adapters.dialogue.yes_or_no import lower_first
from avatar_service.core.text.lexicon import STOPWORDS

_ITEM = r"(?:[£$€]\s?)?\d+(?:[.:]\d+)?%?"
_LIST = re.compile(rf"(?<![\w£$€.,]){_ITEM}(?:,\s*{_ITEM})*,?\s+(?:and|or)\s+{_ITEM}(?![\w.]*\d)")
_NUMBER = re.compile(r"\d+(?:[.:]\d+)?")
_RESPECTIVELY = re.compile(r",?\s+respectively\b", re.I)
# durations said in words, in minutes: "an hour lesson", "a half-hour one", "an hour and a half"
_DURATIONS = [
    (re.compile(r"\b(?:an?|one) hour and a half\b|\b(?:1\.5|one and a half) hours?\b", re.I), 90.0),
    (re.compile(r"\bhalf[ -](?:an[ -])?hour\b", re.I), 30.0),
    (re.compile(r"\bquarter[ -](?:of[ -]an[ -])?hour\b", re.I), 15.0),
    (re.compile(r"\b(?:two|2)[ -]hours?\b", re.I), 120.0),
    (re.compile(r"\b(?:an?|one|1)[ -]hour\b|\bhour[ -]long\b", re.I), 60.0),
]
_MINUTES = re.compile(r"\s*(?:minutes?|mins?)\b", re.I)


def _value(item: str) -> float:
    number = _NUMBER.search(item)
    return float(number.group(0).replace(":", ".")) if number else float("nan")


def _named(question: str) -> tuple[set[float], set[float]]:
    """The figures a question names: as said, and durations said in words (in minutes)."""
    durations: set[float] = set()
    for pattern, minutes in _DURATIONS:
        if pattern.search(question):
            durations.add(minutes)
            question = pattern.sub(" ", question)
    return {float(n.replace(":", ".")) for n in _NUMBER.findall(question)}, durations


def narrowed(sentence: str, question: str) -> str:
    """`sentence` with each of its paired lists cut to the item `question` names; else as it is."""
    lists = list(_LIST.finditer(sentence))
    if len(lists) < 2:
        return sentence
    items = [re.findall(_ITEM, m.group(0)) for m in lists]
    figures, durations = _named(question)
    if not figures and not durations:
        return sentence
    picks = set()
    for m, listed in zip(lists, items, strict=True):
        in_minutes = bool(_MINUTES.match(sentence, m.end()))
        wanted = figures | (durations if in_minutes else set())
        picks |= {(len(listed), i) for i, item in enumerate(listed) if _value(item) in wanted}
    if len(picks) != 1:
        return sentence
    size, index = picks.pop()
    paired = [(m, listed) for m, listed in zip(lists, items, strict=True) if len(listed) == size]
    if len(paired) < 2 or (size < 3 and not _RESPECTIVELY.search(sentence)):
        return sentence
    out, last = [], 0
    for m, listed in paired:
        out += [sentence[last:m.start()], listed[index]]
        last = m.end()
    return _RESPECTIVELY.sub("", "".join([*out, sentence[last:]]))


# where one clause ends and the next begins: ", and a 9-inch cake...", " and the seeded rye...", ", and lined
# curtains cost...", ", or £18 for jeans" (a comma before the conjunction ends a clause whatever follows)
_CLAUSES = re.compile(r",\s+(?:and|or|while|whereas)\s+|\s+and\s+(?=[£$€]\s?\d)|"
                      r"\s+(?:and|while|whereas)\s+(?=(?:the|a|an|our|each|every|all)\b)|;\s+|"
                      # a clause of its own after a bare comma: "..., charging ports take about two hours"
                      r",\s+(?=(?-i:[a-z])[a-z -]{0,30}\b(?:take|cost|last|run)s?\b)", re.I)


_COMMA_CLAUSES = re.compile(r";\s+|,\s+(?:and|or|while|whereas)\b", re.I)  # (not "two and a half hours")
_LONG_LIST = re.compile(rf"{_ITEM}(?:,\s*{_ITEM})+,?\s+(?:and|or)\s+{_ITEM}")  # "£22, £31 and £40": narrowed()'s


def one_clause(sentence: str, question: str, kinds: Sequence[str], follow_up: bool = False, pointed: str = "") -> str:
    """`sentence` cut to its one clause that holds the kind asked for and most of the question's terms (or, when
    they tie, of `pointed`: the last reply, which "that" in "what's that cost?" points back to)."""
    if _MORE_THAN_ONE.search(question) and _EACH_EXTRA.search(sentence):
        return sentence  # "and if there's two of them?": one's price and each extra one's ("..., and each extra nest")
    cut = with_subject(LINKING.sub("", _one_clause(sentence, question, kinds, follow_up, pointed)), sentence)
    # a later clause keeps the when its sentence opens with ("From November to Easter we close on Mondays, and the
    # takeaway shuts at 7pm": "From November to Easter, the takeaway shuts at 7pm.")
    if (frame := _FRAMED.match(sentence)) and cut != sentence and not sentence.startswith(cut.rstrip(".")):
        cut = f"{frame.group(1)}, {lower_first(cut, sentence)}"
    cut = cut[:1].upper() + cut[1:]  # ("With last admission at 4pm" cut from "..., with last admission at 4pm")
    if {"time", "clock", "day"} & set(kinds):
        cut = _one_timed(cut, set(terms(question)))
    if "person" not in kinds:
        return cut
    # "who does the science show?": the one person of "Uncle Barney does our magic, Professor Fizz runs the Big
    # Science Show" that it names
    people = [p for p in _NEXT_PERSON.split(cut.rstrip(".!?")) if p.strip()]
    if len(people) < 2 or any(len(p.split()) < 4 for p in people):  # "The manager, Ms. Vos, ...": one person
        return cut
    if any(_BY_SOMEONE.search(p) and set(terms(question)) & set(terms(p)) for p in people[1:]):
        return cut  # "who runs the farm?": "Clover Hill ... is a family-run farm on ..., run by Jenny and Rob Holloway"
    return _most_shared(people, set(terms(question)), set()) or cut


_FRAMED = re.compile(r"^((?:from|in|during|between|throughout|outside|over) [^,;]{3,40}?),?\s+(?=(?:we|the|our|you|it|"
                     r"they|all|every)\b)", re.I)


def with_subject(clause: str, sentence: str) -> str:
    """A clause that shares its sentence's subject given it back ("Gradings are held four times a year, and cost £30
    each": "Gradings cost £30 each.", not "Cost £30 each.")."""
    if not _SUBJECTLESS.match(clause) or sentence.startswith(clause) or not (subject := _SUBJECT.match(sentence)):
        return clause
    return f"{subject.group(1)} {clause[:1].lower()}{clause[1:]}"


# (a verb no order opens with: "Take the 42 bus" is no clause of "... and take the 42 bus")
_VERB = r"(?:is|are|was|were|has|have|costs?|runs?|takes|must|can|will|opens?|closes?|starts|includes?|lasts?|needs)"
_SUBJECTLESS = re.compile(rf"^{_VERB}\b", re.I)
_SUBJECT = re.compile(rf"^(?:if [^,]{{3,60}}, )?([\w'&-]+(?: [\w'&-]+){{0,8}}?) {_VERB}\b", re.I)


# the word that linked a clause or a listed piece to what went before ("..., with last admission at 4pm", "...,
# while students ... can join for £110"): cut from its sentence, it links to nothing
LINKING = re.compile(r"^\s*(?:with|and|but|while|whereas)\s+(?=\w)", re.I)
_MORE_THAN_ONE = re.compile(r"\b(?:two|three|four|five|both|several|\d+) of (?:them|those|these|us)\b|"
                            r"\bthere(?:'s| is| are) (?:two|three|four|five|several)\b", re.I)
_EACH_EXTRA = re.compile(r"\b(?:each|every|per) (?:extra|additional|further|other)\b", re.I)


# "serves breakfast until 11:30am and lunch from 12 noon until 2:30pm": things served or open, each with its hours
_TIMED = re.compile(r"\s+and\s+(?=([a-z]+)\s+(?:from|until|till|between)\b)", re.I)


def _one_timed(sentence: str, asked: set[str]) -> str:
    """`sentence` cut to the one thing with its hours that the question names ("till when do you do lunch?": "Lunch is
    from 12 noon until 2:30pm."); as it is when it names none or both."""
    parts = _TIMED.split(sentence.rstrip(".!?"), maxsplit=1)
    if len(parts) != 3:
        return sentence
    left, thing, right = parts
    first = _THING.search(left)  # the first thing: the word before its hours ("breakfast until 11:30am")
    if first is None or not (holds(left, ["time"]) and holds(right, ["time"])):
        return sentence
    first_named, thing_named = bool(asked & set(terms(first.group(1)))), bool(asked & set(terms(thing)))
    if thing_named and not first_named:
        return f"{thing[:1].upper()}{thing[1:]} is {right[len(thing):].strip()}."
    if first_named and not thing_named:
        return f"{left}."
    return sentence


_THING = re.compile(r"\b([a-z]+)\s+(?:from|until|till|between)\b", re.I)


def _own_terms(clause: str, clauses: Sequence[str]) -> set[str]:
    """The clause's terms that no other clause of its sentence holds."""
    return set(terms(clause)).difference(*(terms(c) for c in clauses if c is not clause))


_NEXT_PERSON = re.compile(r",\s+(?:and\s+)?(?=[A-Z])")


def _one_clause(sentence: str, question: str, kinds: Sequence[str], follow_up: bool, pointed: str) -> str:
    question_terms = set(terms(question))
    if not kinds or not question_terms:
        return sentence
    clauses = [c.strip() for c in _CLAUSES.split(sentence.rstrip(".!?")) if c.strip()]
    if len(clauses) < 2 or not all(len(c.split()) >= 3 or _verbless(c) for c in clauses) or \
            _LONG_LIST.search(sentence):
        return sentence
    stating = [c for c in clauses if _states(c, kinds)]
    # "two main sessions every day: the afternoon session at 1.30pm and the evening session at 7.30pm": the items of
    # a list announced by a colon go together, unless the question names one
    items = [clauses[0].split(": ", 1)[-1], *clauses[1:]]
    if ": " in clauses[0] and not any(question_terms & _own_terms(c, items) for c in items):
        return sentence
    if any(THRESHOLD.search(c) and c not in stating for c in clauses):
        return sentence  # "we deliver on orders over £25, and delivery costs £4": the condition goes with it
    if len(stating) == 1 and len(clauses) == 2 and _COMMA_CLAUSES.search(sentence):
        # "hardback binding costs £18 and takes 3 working days, and comb binding costs £4 and is done while you
        # wait": the clause that says how long, or for a follow-up ("and comb binding?") the one it names
        if not follow_up:
            return stating[0][:1].upper() + stating[0][1:] + "."
        return _most_shared(clauses, question_terms, set()) or sentence
    if len(stating) < 2:
        return sentence
    clauses = stating  # "..., and everything in it is grown on the farm": not what is asked
    # an age asked about picks the clause whose ages include it ("£8.50 for children aged 4 to 11 and £6 for children
    # aged 1 to 3" for "a 5 year old"); a toddler is about 2
    asked_ages = ages_meant(question)
    fitting = [c for c in clauses if asked_ages and age_fit(c, asked_ages) > 0]
    # a case said without its verb ("..., or £18 for jeans") shares what the first clause says: it is the answer
    # when the question names it, and only then
    # (by a word of its own: "£110 per hour, or £130 per hour with our guest artists" is not named by "per hour")
    named = fitting if len(fitting) == 1 else \
        [c for c in clauses[1:] if _verbless(c) and question_terms & _own_terms(c, clauses)]
    if not named and _verbless(clauses[-1]):
        named = sized(clauses, question)  # "on the bigger size?"
    if named and named[0] is clauses[0]:
        return named[0][:1].upper() + named[0][1:] + "."
    if len(named) == 1:
        return f"It's {named[0]}."
    whole = [c for c in clauses if not _verbless(c)]
    # a later clause of its own that the question names ("..., and a charging port repair costs £45") is the
    # answer, whatever cases the first one lists
    shared = [len(question_terms & set(terms(c))) for c in whole]
    best = max(shared, default=0)
    if best and shared.count(best) == 1 and shared.index(best):
        chosen = whole[shared.index(best)]
        return chosen[:1].upper() + chosen[1:] + "."
    # "which night do you stay open late?": the clause with the latest hour ("..., and until 8pm on Thursdays"), among
    # those the question names when it names some ("how late is the pool open?"), unless it names a day
    named_by = [c for c in clauses if (question_terms - OPENING_TERMS) & set(terms(c))]
    if not WEEKDAY_TERMS & question_terms and len(named_by) != 1 and \
            (chosen := at_the_extreme_hour(named_by or clauses, question)):
        return chosen[:1].upper() + chosen[1:] + "."
    price = _PRICE.search(clauses[0])
    if any(map(_verbless, clauses[1:])) and price and terms(clauses[0][price.end():]):
        return sentence  # "costs £8.50 for children aged 4 to 11 and £6 for ...": cases after the price, none asked
    return _most_shared(whole, question_terms, set(terms(pointed))) or sentence


_BY_SOMEONE = re.compile(r"\bby (?-i:[A-Z])[a-z]+\b")  # who does what a clause says ("run by Jenny")


def _most_shared(clauses: Sequence[str], asked: set[str], context: set[str]) -> str:
    """The one clause sharing the most of the asked terms, or when they tie, of the context's; "" if none."""
    for wanted in (asked, context):
        shared = [len(wanted & set(terms(c))) for c in clauses]
        best = max(shared, default=0)
        if best and shared.count(best) == 1:
            chosen = clauses[shared.index(best)]
            return chosen[:1].upper() + chosen[1:] + "."
    return ""


def _verbless(clause: str) -> bool:
    """A case said by its price alone, without the verb of the clause before it ("£18 for jeans")."""
    return clause[:1] in "£$€"


_PRICE = re.compile(r"[£$€]\s?\d+(?:[.,]\d+)*")


# a figure said as a threshold ("on orders over £25") is a condition, not what something costs
THRESHOLD = re.compile(r"\b(?:over|under|above|below|up to|more than|less than|at least)\s+[£$€]?\s?\d", re.I)


def _states(clause: str, kinds: Sequence[str]) -> bool:
    """The clause states the kind asked for, beyond a threshold ("delivery costs £4", not "orders over £25"); a
    clause opening with a name names a person ("Suki Tanaka does fine-line pieces", cut from its sentence)."""
    return holds(" " + THRESHOLD.sub(" ", clause), kinds)


# A sentence of parallel cases, each with its own figure: "A full groom for a small dog costs £38, for a medium
# dog £48 and for a large dog £62"; "We are open Monday to Friday from 9am to 5:30pm and on Saturday from 9am to
# 4pm". A case begins after a comma or an "and" with a preposition.
_CASE_START = re.compile(r"(?:,\s+|,?\s+and\s+)(?=(?:for|on|at|in|during|from|with|by|after|before|until|outside)\s)",
                         re.I)
REST = re.compile(r",\s+and\s+")  # what a case goes on to say that is not asked about
DAY_WORD = re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(?:weekdays?|weekends?)\b", re.I)


def case_terms(text: str) -> set[str]:
    own = set(terms(text))
    related = own.union(*(RELATED.get(t, frozenset()) for t in own))
    # a weekday is held where the text names it or a range holds it ("Monday to Thursday" holds no Friday), not
    # because "weekday" relates them all
    held = {t for t in related if t not in WEEKDAY_TERMS or t in own or on_the_day(t, text)}
    return held | _WEEKEND_DAYS if _WEEKEND in own else held  # "all weekend" holds a Saturday


_WEEKEND, _WEEKEND_DAYS = terms("weekend")[0], frozenset(terms("saturday sunday"))


def _head(first: str, case: str) -> int:
    """Where the first case begins inside the first piece, which also holds what all cases share ("A full groom
    for a small dog", "We are open Monday to Friday"): at the word the next case opens with, or at its first day."""
    opener = case.split(None, 1)[0]
    day = DAY_WORD.search(first)
    if day and len(first[:day.start()].split()) <= 1:
        day = None  # "At weekends we are open from..., and from ... on Sunday": the frame of every case, not the first
    found = [m.start() for m in (re.search(rf"(?<=\s){re.escape(opener)}\s", first), day) if m]
    return min(found) if found else -1


def pick_case(pieces: Sequence[str], asked: set[str]) -> int:
    """The one piece that alone holds the most of the asked terms that tell the pieces apart; -1 if none or a tie."""
    held = [case_terms(p) for p in pieces]
    telling = {t for t in asked if 0 < sum(t in h for h in held) < len(held)}
    counts = [len(telling & h) for h in held]
    best = max(counts, default=0)
    return counts.index(best) if best and counts.count(best) == 1 else -1




def one_case(sentence: str, own: set[str], borrowed: set[str], kinds: Sequence[str],
             pointed: set[str] | frozenset[str] = frozenset()) -> str:
    """`sentence` cut to the one case that the question's own terms name ("a big dog" is the large one's), or,
    when they name none, the case its context named ("what time do you close that day?" after Saturdays), or
    else the one the last reply named (`pointed`: "what time do those start?" after "the Wednesday races")."""
    if not kinds:
        return sentence
    body = sentence.rstrip(".!?")
    pieces = [p for p in _CASE_START.split(body) if p.strip()]
    head_end = _head(pieces[0], pieces[1]) if len(pieces) > 1 else -1
    if head_end <= 0:
        return sentence
    head, pieces[0] = pieces[0][:head_end], pieces[0][head_end:]
    # each case without what it goes on to say ("on Saturday from 9am to 4pm, and closed on Sunday")
    cores = [REST.split(p, 1)[0] for p in pieces]
    valued = [i for i, core in enumerate(cores) if holds(core, kinds)]
    if len(valued) < 2:
        return sentence
    candidates = [cores[i] for i in valued]
    asked = own - set(terms(head))
    # opening and closing say what time is asked, not which case ("what time do you close?" is not "late opening"),
    # but a case that says them in so many words may be the one ("shut on a wednesday?" / "we close early at 2pm on
    # Wednesdays")
    chosen = pick_case(candidates, asked - OPENING_TERMS)
    if chosen < 0 and len(said := [i for i, c in enumerate(candidates) if asked & OPENING_TERMS & set(terms(c))]) == 1:
        chosen = said[0]
    if chosen < 0 and (asked - OPENING_TERMS) & set().union(*(case_terms(p[len(c):]) if i in valued else case_terms(p)
                                            for i, (p, c) in enumerate(zip(pieces, cores, strict=True)))):
        return sentence  # "and sundays?" names a case without a value ("..., and never on Sundays"), not the last one
    for fallback in (borrowed, pointed):
        if chosen < 0:
            asked = set(fallback) - set(terms(head))
            chosen = pick_case(candidates, asked)
    if chosen < 0:
        return sentence
    case, whole = candidates[chosen], pieces[valued[chosen]]
    if asked & case_terms(whole[len(case):]):  # what it goes on to say is asked about too ("last entry" / "latest")
        case = whole
    case = with_verb(case, pieces[0], kinds)
    if head.split()[-1:] == case.split()[:1]:  # "Club racing is on" + "on Wednesday evenings"
        case = case.split(None, 1)[1]
    return f"{head}{case}."


def with_verb(case: str, first: str, kinds: Sequence[str]) -> str:
    """A later case says its figure without the verb the first one used ("for a large dog (over 25 kg) £62"): it
    gets it back ("... costs £62")."""
    value, first_value = _value_at(case, kinds), _value_at(first, kinds)
    if value < 0 or first_value <= 0:
        return case
    before = first[:first_value].split()
    verb = before[-1] if before else ""
    said = case[:value].split()
    if not verb.isalpha() or verb.lower() in STOPWORDS or re.search(rf"\b{verb}\b", case) or \
            (said and said[-1].lower() in _SAYS_ITS_FIGURE) or _MODAL.search(case[:value]):
        return case  # ("our soup of the day is £6.50", "teams should arrive 15 minutes early" have their verbs)
    return f"{case[:value]}{verb} {case[value:]}"


_MODAL = re.compile(r"\b(?:should|must|can|could|will|would|may|need to|needs to|have to|has to)\b", re.I)
_SAYS_ITS_FIGURE = frozenset(("is", "are", "was", "were", "costs", "cost", "pays", "pay", "charge", "charges", "at",
                              "from", "until", "till", "by"))


def _value_at(text: str, kinds: Sequence[str]) -> int:
    found = [m.start() for kind in kinds if (m := HOLDS[kind].search(text))]
    return min(found) if found else -1

"""How the offline answerer decides its answer: the question's weighted terms, whether the best candidate answers
at all, and the words of an honest "I don't know" ("Yes,"/"No," in front of an answer: yes_or_no.py)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from avatar_service.adapters.dialogue import answer_types
from avatar_service.adapters.dialogue.age_limits import age_fit
from avatar_service.adapters.dialogue.ranked import Ranking, Scored
from avatar_service.adapters.dialogue.ranking import PRONOUN_START
from avatar_service.adapters.dialogue.terms import GENERIC_TERMS, is_common, terms

NEGATIVE = re.compile(r"\b(not|no|never|closed|cannot|can't|don't|doesn't|isn't|aren't|won't|non-refundable|prohibited|"
                      r"forbidden|banned|kept (?:off|out of))\b", re.I)
# what a place has for its customers, said as available, and the verbs of having it ("do you sell...?", "offer")
AVAILABLE = re.compile(r"\b(?:are|is) (?:also )?available\b|\bin stock\b|\bon offer\b", re.I)
OFFERING = frozenset(terms("sell offer stock provide do have hire rent"))
# the parts of a sentence that may say yes or no each ("coffee is free; lunch is not included")
PARTS = re.compile(r"\s*;\s*|:\s+(?=(?-i:[a-z]))|,\s*(?:but|while|whereas|and)\s+|\s+but\s+", re.I)
_PRONOUN_OPENS, _SUBJECT_WORDS = re.compile(r"^\W*(?:it|they|he|she)\b", re.I), 3


def clause_terms(clauses: Sequence[str]) -> list[set[str]]:
    """The terms of each clause of a sentence; one that opens with "they" or "it" also holds what the first opens with
    ("Club boats may only be paddled ..., and they must never be taken through a lock": the boats)."""
    subject = set(terms(" ".join(clauses[0].split()[:_SUBJECT_WORDS]))) if clauses else set()
    return [set(terms(c)) | (subject if i and _PRONOUN_OPENS.match(c) else set()) for i, c in enumerate(clauses)]


_PHRASES = [(re.compile(r"\bfor a living\b", re.I), "for work"), (re.compile(r"\b(?:is|are) called\b", re.I), "name"),
            (re.compile(r"\b(do|did) (i|we) (?:like|love|enjoy)\b", re.I), r"\1 \2 love"),
            # "how does settling in work?" asks how the thing goes: "work" is how it is asked, not what about
            (re.compile(r"^(\W*(?:and |so |but )?how (?:does|do|did|will|would)\b.+?)\s+work(?:s)?(?=\W*$)", re.I),
             r"\1"),
            # "how much is one lesson?" asks about a single one ("a single lesson costs..."), not "two-hour lessons"
            # (but "two cats in one chalet" is one shared)
            # (nor "that one", which points back)
            (re.compile(r"(?<!\bin )(?<!\binto )(?<!\bthat )(?<!\bthis )(?<!\bwhich )(?<!\bthe )\b(?:just |only )?one "
                        r"(?!of\b|or\b|and\b|more\b|another\b|other\b)(?=[a-z])", re.I),
             "single ")]
# words a phrase above brings in: they tip a balance, and nothing lacks them
HINT_TERMS = frozenset(terms("single"))  # words that only tip a balance
# words that only say which kind of answer is wanted: the kind itself is matched instead ("when can we get there?":
# arriving is when the place lets one in)
_KIND_WORDS = {"name": set(terms("name names called call")),
               "place": set(terms("address location located based situated held")),
               "time": set(terms("time hours deadline latest earliest arrive")),
               "clock": set(terms("time times hours")), "day": set(terms("day days")),
               "age": set(terms("old age aged years year range limit minimum restriction restrictions")),
               "number": set(terms("big large far")), "distance": set(terms("far distance away close near")),
               "frequency": set(terms("often regularly times")),
               "duration": set(terms("long last lasts")), "list": set(terms("kind kinds sort sorts type types")),
               "occupation": set(terms("job work living occupation profession")),
               "price": set(terms("charge charges")),
               "temperature": set(terms("hot warm cold temperature")), "size": set(terms("room space")),
               "contact": set(terms("number")),  # ("is there a number i can ring?")
               "person": set(terms("person talk speak"))}  # "who's the person to talk to about a party?"


_SINGLE_VISIT = re.compile(r"\b(?:single|one[- ]off) (?:class|session|lesson|visit|swim|game|ticket)\b", re.I)
_DROP_IN = terms("drop-in")[0]  # (the everyday phrases read "drop-in" as a visit)
_KIND_HINTS = {"duration": terms("lasts")}
# words that say which end of a time is asked ("what time does it finish?"), which a time range holds in its figures
# ("from 8am to 1pm"): they count as little as generic ones
_KIND_LIGHT = {"clock": set(terms("start starts begin begins finish finishes end ends")),
               "duration": set(terms("notice warning")),  # ("how much notice?" / "at least 7 days before")
               "contact": set(terms("ring"))}  # (a number to ring, however the place says it)


def question_weights(text: str, kinds: Sequence[str], ages: Sequence[int]) -> dict[str, float]:
    """The question's terms and their weights: generic words count little, words of the kind asked for
    ("name", "address") and of an age ("12 year old") not at all."""
    for pattern, replacement in _PHRASES:
        text = pattern.sub(replacement, text)
    skip = {str(age) for age in ages} | (set(terms("year years old")) if ages else set())
    light = HINT_TERMS | {t for w in _COMPARING.findall(text) for t in terms(w)} | \
        {t for m in _WHO_WANTS.finditer(text) for t in terms(m.group(0))}
    for kind in kinds:
        skip |= _KIND_WORDS.get(kind, set())
        light |= _KIND_LIGHT.get(kind, set())
    category = {t for m in _CATEGORY.finditer(text) for t in terms(m.group(1))} | _SOFT_TERMS | (
        {t for m in _PER_WHOM.finditer(text) for t in terms(m.group(1))} if "price" in kinds else set())
    weights = {t: (0.3 if t in GENERIC_TERMS or t in light else CATEGORY_WEIGHT if t in category or t[:1].isdigit()
                   else 1.0) for t in terms(text) if t not in skip}
    if _SINGLE_VISIT.search(text):  # "a single class" is what "a drop-in class" names (never missing where it is not)
        weights.setdefault(_DROP_IN, CATEGORY_WEIGHT)
    for kind in kinds if weights else ():  # "how long are classes?" is answered by what "lasts 60 minutes"
        for t in _KIND_HINTS.get(kind, ()):
            weights.setdefault(t, 0.3)
    return weights


# what the everyday phrases read as a trial ("can I have a go?", "before I commit") weighs as a category: a place
# without tasters still answers whether one can have a go at what it runs
_SOFT_TERMS = frozenset(terms("trial"))
# "what race am I training for?", "which hand do I use?": the noun after what/which names the kind of thing the
# answer is ("the Leeds half marathon"), which the answer may not say ("what surgery did my dog have?" may): it
# counts less, and its absence from everything known never makes the question unanswerable
CATEGORY_WEIGHT = 0.6
# sizes and distances compared ("the biggest screen", "the nearest car park") ask about what the text states as
# plain figures ("Screen 1 has 220 seats"): the comparing word counts as little as a generic one
_COMPARING = re.compile(r"\b(?:bigger|biggest|larger|largest|smaller|smallest|longer|longest|shorter|shortest|"
                        r"cheaper|cheapest|dearer|dearest|pricier|priciest|easier|easiest|harder|hardest|"
                        r"closer|closest|nearer|nearest|newer|newest|older|oldest)\b|"
                        r"\bfits?(?= (?:in|on|into|onto|through|under)\b)", re.I)  # ("will it fit in my garden?")
# who wants a thing is not what is asked about it ("the lads want to bring a few cans, is that alright?")
_WHO_WANTS = re.compile(r"\b(?:the|my|our|his|her)\s+(friends?|mates?|lads|guests?|colleagues?|team|group|family)\s+"
                        r"(?:want|wants|wanna|would like|'d like|are keen|are hoping|plan|are planning)\b", re.I)
# whom a price is for, each ("how much is it per kid?"), is how it is counted, not what is priced
_PER_WHOM = re.compile(r"\bper (kid|child|person|head|adult|guest|player)\b", re.I)
_CATEGORY = re.compile(r"\b(?:what|which)\s+(?!(?:is|are|was|were|do|does|did|can|could|will|would|should|about|if)\b)"
                       r"([a-z]+)\b", re.I)


# An answer's own embedding similarity to the question above which it answers even when some of the question's
# words appear nowhere in what is known. Questions nothing answers reached at most 0.44 on the evaluation's
# tuning splits (an unrelated sentence of the same domain: "do you sell dog food?" / "vaccinations for dogs").
SURE_SIMILARITY = 0.47


CLOSE_SIMILARITY, CLEAR_MARGIN = 0.4, 0.08
# A best that holds less than PARTIAL of the question's known words needs PARTIAL_MARGIN more similarity to answer
# by meaning; one far in meaning (below FAR_SIMILARITY) that holds at most half of them does not answer.
PARTIAL, PARTIAL_MARGIN, FAR_SIMILARITY = 0.7, 0.03, 0.4
# ...as does one of a question half of whose weight is in words nowhere in what is known ("motorbike lessons")
UNKNOWN_HALF = 0.45
# candidates after the best, at most this many and this close in score to it, may answer by the words instead
RUNNERS_UP, LEVEL_SCORE = 2, 0.05


def _clearly_closest(best: Scored, ranked: Sequence[Scored]) -> bool:
    """The best is the sentence nearest the question by a clear margin: one sentence stands out (unrelated
    questions come out nearly level with two or three sentences of the same domain)."""
    others = sorted((s.candidate.relevance for s in ranked if s.candidate.own and s is not best), reverse=True)
    runner_up = others[0] if others else 0.0
    return best.candidate.relevance >= CLOSE_SIMILARITY and best.candidate.relevance - runner_up >= CLEAR_MARGIN


def best_answer(ranking: Ranking, more: bool, asking: bool, about_user: float, to_place: bool,
                asked: frozenset[str] = frozenset()) -> Scored | None:
    """The best candidate when it answers the question (`asked`: the terms of its asked part, without what the user
    told before asking); None when nothing does (say so honestly)."""
    ranked = ranking.ranked
    if about_user >= 1.0:  # "where do I live?" is answered by what the user said, or not at all
        ranked = [s for s in ranked if s.candidate.kind == "memory"]
    elif to_place and not about_user:  # "do you have any?" asks what the place has, never what the user said
        ranked = [s for s in ranked if s.candidate.kind == "knowledge"]
    if not ranked:
        return None
    best = ranked[0]
    if more:
        return best if best.coverage > 0 or best.candidate.kind == "knowledge" else None
    if ranking.terms == 0 and ranking.yes_no and ranking.ages and age_fit(best.candidate.text, ranking.ages):
        return best  # "am I too old to start?" (58): "adults are welcome at any age", the age alone chooses
    if ranking.terms == 0 or (not ranking.main and ranking.wants_kind and best.coverage == 0):
        # "where are you?", "what's my job?", "how much is that one?": only the kind of answer can choose
        mine = best.candidate.kind == "memory" and about_user >= 0.6
        theirs = best.candidate.kind == "knowledge" and ranking.contact  # ("is there a number i can ring?")
        return best if best.fits and (best.candidate.relevance >= 0.2 or to_place or mine or theirs) else None
    if not ranking.main and ranking.wants_kind and best.fits and best.candidate.relevance >= 0.2:
        return best  # "how long does it take?" after a price: the kind chooses among what the turns before were about
    if ranking.literal and (not best.fits or (best.coverage == 0 and best.main_held == 0 and ranking.main and (
            best.candidate.kind == "memory" or (ranking.unknown and not ranking.contact)))):
        # "what's your phone number?" is not answered by "the number 17 bus stops at the gate", nor "how much is it to
        # enter the championships?" by the gradings' price, nor "what's my daughter's name?" by where the user lives:
        # they hold no word asked
        return None
    if about_user >= 1.0 and not ranking.main and best.fits:
        return best  # "when do I normally come in?": no word but the kind asked for, and a memory holds one
    if ranking.contact and best.fits and best.candidate.kind == "knowledge":
        return best  # "what number can I ring you on?": "you can book on 023 8049 6115"
    # a sentence nearly level with the best that holds every main word asked, where the best holds none, answers
    # instead ("would biscuit need to be neutered for that?" / "any dog over a year old must be neutered", not the
    # day care the turn before was about); but not instead of one that holds what the user told of whom it is asked
    # for ("will my dad be alright getting up to the studio?" / "There's no lift, ... one flight of stairs")
    if ranking.yes_no and ranking.main and best.main_held == 0.0 and not ranking.ages and not best.case_held:
        best = next((s for s in ranked[1:1 + RUNNERS_UP] if s.main_held >= 1.0 and s.coverage > best.coverage and (
            (s.candidate.kind == best.candidate.kind and best.score - s.score <= LEVEL_SCORE and
             s.candidate.relevance >= best.candidate.relevance - LEVEL_SCORE) or
            # (or any that does, where the best is a memory of what the turns before were about: "could you post it to
            # me instead?" / "you painted a mug for your mum ...", not "we can post finished pieces ...")
            (best.candidate.kind == "memory" and s.candidate.kind == "knowledge" and not about_user))), best)
    # asked about the user's wedding, a memory about their wedding, not of their wedding consultation, the word asked
    # naming only the kind of another thing
    if about_user >= 1.0 and best.candidate.kind == "memory" and _names_a_kind_of(best.candidate.text, ranking.focus):
        best = next((s for s in ranked[1:1 + RUNNERS_UP] if s.candidate.kind == "memory" and s.fits == best.fits and
                     s.main_held >= best.main_held and best.score - s.score <= KIND_OF_MARGIN and
                     not _names_a_kind_of(s.candidate.text, ranking.focus)), best)
    # what the user told is short and said in their words: asked about themselves, a lower similarity will do
    sure = SURE_SIMILARITY - (0.2 * about_user if best.candidate.kind == "memory" else 0.0)
    # the share of what is known of the question's words that the best holds: a sentence holding one word of
    # "do you teach motorbike lessons?" ("Dev teaches in our automatic cars") is the domain, not the answer
    held = best.coverage / max(1.0 - ranking.unmatched, 1e-9)
    if (held < PARTIAL or ranking.unmatched >= UNKNOWN_HALF) and 0 < ranking.unmatched < 1.0:
        sure += PARTIAL_MARGIN  # (when none of its words is known anywhere, meaning alone decides as ever)
    # ...and when what the question is about, its last main word, is nowhere ("do you teach the saxophone?"), only a
    # knowledge sentence clearly nearer than the others may say it in other words ("is there wifi?" / "Free
    # Wi-Fi..."), or one that holds the kind asked for ("what time can we arrive?" / "Check-in is from 2pm")
    unsure = ranking.focus_unknown and best.candidate.kind == "knowledge" and not best.fits
    # (asked whether, a word nowhere known is not said in other words by a sentence merely near in meaning: "is there
    # a lift up to the studios?" / "our two studios are at 18 Friar Gate"; a number is an amount, not a thing)
    near = best.candidate.relevance >= sure and not unsure and not (
        ranking.yes_no and best.candidate.kind == "knowledge" and
        {t for t in ranking.unknown & asked if not answer_types.HOLDS["number"].fullmatch(t)})
    # ("are there showers in the changing rooms?" is not answered by what else is in the changing rooms, nor "in
    # silver instead of gold?" by the gold)
    if best.candidate.own and (near or (_clearly_closest(best, ranked) and not (unsure and ranking.aside_named))):
        return best  # it says what was asked in other words ("hire a van" / "a van costs 89 euros per day")
    # "do you sell halal meat?" is not answered yes or no by the meat boxes: "halal" is nowhere (but "can I put bunting
    # up with blu tack?" is, by "please don't use Blu Tack on the walls": a no holding all the words asked that are
    # known, two or more)
    # (nor "can you cut me a spare front door key?" by "we don't cut keys": a no that holds what is asked about)
    # (nor "could you fix the split on my sofa?" by "we don't do leather" when the sofa is leather: a no to what the
    # user told of it)
    refused = NEGATIVE.search(best.candidate.text) is not None
    # ("do you sell gift vouchers?" / "gift vouchers are available ...": what is available is sold, said or not)
    unknown = ranking.unknown & asked - (OFFERING if AVAILABLE.search(best.candidate.text) else frozenset())
    if ranking.yes_no and unknown and best.candidate.kind == "knowledge" and not (
            (len(ranking.main - ranking.unknown) >= 2 and best.main_held >= 1.0 and refused) or
            _refuses(best, ranking) or (best.case_held >= 1.0 and refused)):
        return None
    if best.case_held >= 1.0 and refused and ranking.yes_no:
        return best
    # by the words: the best, or one nearly level with it that holds them ("what if my dog gets sick at night?":
    # "for emergencies outside these hours..." came just behind "bring your pet's vaccination booklet")
    if _holds_the_answer(best, ranking, asking) or _alone_of_its_kind(best, ranking):
        return best
    # the place's rule for what the user told of whom it is asked ("... one flight of stairs"); and one that holds all
    # of it and every main word known, whatever else nothing holds ("do you come out as far as where i live?" /
    # "... covering Kendal, Oxenholme, Burneside and Staveley")
    if best.case_held > 0 and (ranking.unmatched < UNKNOWN_HALF or (best.case_held >= 1.0 and best.main_held >= 1.0)):
        return best
    # asked about themselves, the one thing the user told that holds a word asked, well ahead of the rest ("which part
    # of the site do I like to be in?" / "you prefer pitches close to the river")
    runner_up = ranked[1].score if len(ranked) > 1 else 0.0
    if about_user >= 1.0 and best.candidate.kind == "memory" and best.main_held > 0 and \
            best.score - runner_up >= MINE_MARGIN:
        return best
    # ...and holds the kind asked for when one is ("until what time can I get food?" is not answered by
    # "outside food is not allowed")
    # (unless the kind is the turn before's and the best holds none of the words: "what about christmas day?" after
    # "from what time?" is answered by "on Christmas Day fares are double", not by a time)
    level = [s for s in ranked[1:RUNNERS_UP + 1] if s.score >= best.score - LEVEL_SCORE and
             (s.fits or not ranking.wants_kind or (ranking.kind_borrowed and best.coverage == 0 and
                                                   s.main_held >= 1.0)) and _holds_the_answer(s, ranking, asking)]
    return max(level, key=lambda s: s.coverage, default=None)


# how far ahead of every other candidate a sentence that alone holds the kind asked for must be
ALONE_MARGIN = 0.3
MINE_MARGIN = 0.15  # ...and a memory that alone holds a word of a question about the user


def _alone_of_its_kind(best: Scored, ranking: Ranking) -> bool:
    """"How tall are the walls?" / "40 rope lines up to 15 metres high": the one sentence with the kind asked for
    and the question's words that are known, far ahead of the rest, though a word ("walls") is nowhere."""
    runner_up = ranking.ranked[1].score if len(ranking.ranked) > 1 else 0.0
    return ranking.wants_kind and best.fits and best.main_held >= 1.0 and best.coverage > 0 and \
        best.score - runner_up >= ALONE_MARGIN


KIND_OF_MARGIN = 0.2


def _names_a_kind_of(text: str, focus: str) -> bool:
    """Whether `text` says the word `focus` stands for only before another noun ("your wedding consultation", "your
    wedding dress fitting" for "wedding"), never on its own."""
    words = re.findall(r"[A-Za-z][\w'-]*", text)
    at = [i for i, w in enumerate(words) if focus and next(iter(terms(w)), "") == focus]
    return bool(at) and all(i + 1 < len(words) and words[i + 1].islower() and terms(words[i + 1]) for i in at)


def _refuses(best: Scored, ranking: Ranking) -> bool:
    """A no that names what the question is about ("we don't cut keys" for "a spare front door key?"): what else the
    question names ("spare", "front door") is of no matter to a no. (The no of the part that names it in so many
    words: "an arcade with 30 machines, but we do not have pool tables" refuses no cash machine, and "swimming is not
    allowed" no fishing permit.)"""
    known = ranking.main - ranking.unknown
    return bool(ranking.focus) and any(
        ranking.focus in (have := set(terms(part))) and NEGATIVE.search(part) and
        (not ranking.focus_qualified or len(known & have) >= 2)  # "my guide dog?" / "dogs are not allowed": unsaid
        for part in PARTS.split(best.candidate.text))


def _holds_the_answer(scored: Scored, ranking: Ranking, asking: bool) -> bool:
    """Whether a candidate answers by the question's words (rather than by its similarity)."""
    c = scored.candidate
    if ranking.unmatched >= UNKNOWN_HALF and scored.coverage < 0.6 and not (ranking.yes_no and
                                                                          _refuses(scored, ranking)):
        return False  # the question's main words are nowhere in what is known ("do you sell skateboards?")
    if c.own and c.kind == "knowledge" and not scored.fits and scored.main_held <= 0.5 and scored.coverage < 0.5 and \
            c.relevance < FAR_SIMILARITY and not _names_the_focus(scored, ranking):
        return False  # "what's your pass rate?" / "...runs Pass Plus courses": a word shared, the meaning far
    needed = 0.3 if asking else 0.5
    # ("could you drop a parcel off?" / "we don't deliver parcels": every main word asked whether, held in a no)
    whether = ranking.yes_no and ranking.main and scored.main_held >= 1.0 and bool(NEGATIVE.search(c.text))
    return scored.coverage >= needed or (scored.coverage >= 0.2 and (scored.fits or c.relevance >= 0.5 or whether))


def _names_the_focus(scored: Scored, ranking: Ranking) -> bool:
    """The one sentence that names what the question is about ("do i need to send nappies in?" / "fees include all
    meals, snacks, nappies and wipes"): near in meaning or not, it is about that thing, when every word asked is
    said somewhere in so many words and it holds half of them (not "do you do home visits?" / "...for your first
    visit", where only a word related to "home" is known)."""
    return ranking.focus_once and scored.main_held >= 0.5 and ranking.focus in terms(scored.candidate.text)


def as_sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text[-1:] in ".!?\"')" else text + "."


def lower_name(topic: str) -> str:
    """"Opening hours" -> "opening hours"; "Belem Tower" and "FAQ" keep their capitals."""
    topic = topic.strip()
    if topic[1:2].isupper() or any(w[:1].isupper() for w in topic.split()[1:]):
        return topic
    return topic[:1].lower() + topic[1:]


def unknown_topic(text: str, ranking: Ranking) -> str | None:
    """The question's words that nothing known holds, as the user said them: the last run of them, where English
    puts what is asked about ("do you sell skateboards?" -> "skateboards"; "can I keep a kayak?" -> "kayak")."""
    known = {t for s in ranking.ranked for t in terms(s.candidate.text)}
    spans: list[list[str]] = [[]]
    for word in re.findall(r"[A-Za-z][\w'-]*", text):
        stems = terms(word)
        if stems and ((ranking.main and stems[0] not in ranking.main) or is_common(word.lower())):
            if spans[-1]:  # "email address" goes on; "how long", "what time" (the kind asked for) start nothing
                spans[-1].append(word)
            continue
        if stems and stems[0] not in known:
            spans[-1].append(word)
        elif spans[-1]:
            spans.append([])
    span = next((s for s in reversed(spans) if s), [])
    swap = {"my": "your", "i": "you", "me": "you", "mine": "yours"}
    span = [swap.get(w.lower(), w) for w in span]
    return " ".join(span) if 0 < len(span) <= 4 else None


def indirect(question: str) -> str:
    """"Where do I live?" -> "where you live"; "What's my favourite colour?" -> "your favourite colour"."""
    q = question.strip().rstrip("?!. ").lower().replace("’", "'")
    m = re.match(r"^(where|what|when|who|how \w+|which \w+)\s+(?:do|did|does)\s+i\s+(.+)$", q)
    if m:
        rest = re.sub(r"\bmy\b", "your", m.group(2))
        return f"{m.group(1)} you {rest}"
    m = re.match(r"^(?:what|who|when|where)(?:'s| is| are)\s+(my|our)\s+(.+?)(?: (called|named))?$", q)
    if m:
        return f"what your {m.group(2)} is {m.group(3)}" if m.group(3) else f"your {m.group(2)}"
    return "that"


def chosen_sentences(ranking: Ranking, best: Scored, verbosity: float) -> list[Scored]:
    """The best sentence, then (as verbosity allows) others that answer nearly as well, or follow it."""
    v = verbosity
    wanted = 1 if v < 0.34 else 2 if v < 0.67 else 3 if v < 0.9 else 4
    chosen = [best]
    taken = {(best.candidate.kind, best.candidate.group, best.candidate.position)}
    for other in ranking.ranked:
        if len(chosen) >= wanted:
            break
        c = other.candidate
        key = (c.kind, c.group, c.position)
        if key in taken or other.coverage <= 0 or other.score < 0.7 * best.score:
            continue
        if PRONOUN_START.match(c.text) and (c.kind, c.group, c.position - 1) not in taken:
            continue  # "It opened in 2019" only makes sense after the sentence it refers to
        chosen.append(other)
        taken.add(key)
    if v >= 0.67:  # elaborating: the sentences that follow the best one in its chunk
        for other in ranking.ranked:
            c = other.candidate
            if len(chosen) >= wanted:
                break
            if c.kind == best.candidate.kind == "knowledge" and c.group == best.candidate.group and \
                    (c.kind, c.group, c.position) not in taken and c.position > best.candidate.position:
                chosen.append(other)
                taken.add((c.kind, c.group, c.position))
    return chosen

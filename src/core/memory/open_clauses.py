"""Memory extraction, last resort: a statement the user makes about themselves that no rule or frame reads is
kept as said, in the third person ("I run a small bakery with my husband" -> "User runs a small bakery with
their husband"), with a category guessed from its words.

Rules and frames know the phrasings they were written for; people find others. This reads any clause whose
subject is the user ("I", "I'm", "I've", "I was", "my husband and I") and keeps it unless it is about the
conversation rather than the user: a verb of talking or thinking ("I see", "I think...", "I mean", "I wonder"),
a passing state ("I'm fine", "I'm so tired today", "I'm just browsing"), something asked of the personality
("I'd like to book", "I need a ticket"), anything said to or about "you", or a clause too short or too long to
be one fact. Its confidence is lower than a rule's (0.6).

The same holds for one of the user's people ("my wife works Saturdays", "our dog Pepper is a bit stiff"):
kept as said unless it is what they say or ask, where they are or how they feel for the moment, or a passing
doing ("my son is watching TV").
"""

from __future__ import annotations

import re

from avatar_service.core.memory.vocabulary import CHAT_OBJECTS, HABIT_WHEN, RELATIONS, TIME_WORDS, WHEN, at_most_words
from avatar_service.core.memory.wording import clean, predicate, third_person, word_set

_SUBJECT = re.compile(
    rf"^(?P<subject>i(?:'m|’m| am)|i(?:'ve|’ve| have)|i was|i|"
    rf"my (?P<rel>(?:\w+ )?(?:{RELATIONS})(?: (?-i:[A-Z])[\w'’-]+)?) and i)\s+(?P<rest>.+)$",
    re.I)
# the first word of what follows the subject, when the clause is about the conversation or a passing moment
_CHAT_VERBS = word_set(
    """see think thought guess mean meant know knew want wanted need needed wonder wondered wondering hope hoped
    won't wouldn't shall shan't
    agree disagree understand understood suppose believe feel felt guess bet promise swear reckon forgot forget
    remember recall heard hear saw read found find like love hate would could should will can can't cannot
    might may must shall did do does don't didn't doesn't just also only really actually literally totally
    go went come came say said tell told ask asked call called try tried look looked wait waited
    appreciate apologize apologise am was were had have has been being let made make take took give gave
    bring brought put keep kept used couldn't"""
)
_PASSING_STATES = word_set(
    """fine ok okay good great well alright sure sorry glad happy sad here there back done ready confused curious
    lost afraid busy tired exhausted knackered used after shattered worn stressed excited interested looking asking
    wondering
    trying hoping thinking waiting meaning talking reading chatting outside inside downstairs upstairs nearby
    around home parked queueing queuing
    not just also still always never bored hungry thirsty late early new unsure certain right wrong joking
    kidding serious with in on at by near off out up about over into for to from"""
)
# how often or for how long: what makes "I've been swimming" a habit rather than a moment
_HABITUAL = re.compile(rf"\b(?:every|each|for (?:a |the past |the last )?(?:\w+ )?(?:weeks?|months?|years?)|since|"
                       rf"lately|recently|a lot|(?:once|twice|\w+ times) a|{WHEN})\b", re.I)
_DO_CHAT = word_set("""not too so think agree like love hope understand know mean remember wonder apologise apologize
    appreciate see want need feel believe it that this""")
# "I finally have time for painting" reads as "I have time for painting"
_SETTLED = re.compile(r"^i (?:(?:finally|now|recently|currently|also|still) )+(?=have\b|am\b)", re.I)
_CHAT_NOUNS = word_set("question questions idea problem doubt suggestion request complaint minute moment feeling")
# what the user did with this business: a booking, an order, a call, a visit (not a fact about them)
_ERRANDS = word_set("booked ordered called rang emailed paid came visited bought booking ordering calling")
_IRREGULAR_PAST = word_set(
    """got went came lost found made took gave bought sold left met ran began won grew became had did said told
    thought brought caught taught kept slept felt fell drove rode wrote broke spoke chose flew knew saw sent spent
    built paid put quit set hit cut read"""
)
# a time that makes a past event part of the user's story ("in May", "last year", "two years ago")
_LASTING_TIME = re.compile(r"\b(?:last (?:week|month|year|spring|summer|autumn|fall|winter)|in \d{4}|"
                           r"in (?:january|february|march|april|may|june|july|august|september|october|november|"
                           r"december)|(?:\w+) (?:weeks|months|years) ago|since|"
                           r"for (?:\d+|a few|many|\w+) (?:years|decades)|all (?:my|their) life)\b", re.I)
_RECURRING = re.compile(rf"\b(?:{HABIT_WHEN})\b", re.I)
# "I've got a bad back so a firm mattress please": what follows "so" is the request, not the fact
_REQUEST_TAIL = re.compile(r",?\s+(?:so|because) (?:a|an|the|any|some|please|pls|maybe|ideally|nothing)\b.*$", re.I)
_PASSING_ILL = re.compile(r"\b(?:a (?:bad |heavy |stinking )?(?:cold|headache|hangover|sore throat|temperature|fever|"
                          r"cough|migraine|tummy bug|stomach bug)|the flu|flu|a bug)$", re.I)
_PLACES_ON = word_set("at on in with by near off out up over into")
# what must be done, and how much time there is: "I have to be careful", "I've got loads of time"
_OBLIGED = re.compile(r"^(?:(?:got |had )?to\b|(?:got )?(?:loads|lots|plenty|heaps|tons|a lot|no|some|more|enough) "
                      r"(?:of )?time\b)", re.I)
_PASSING_TIME = re.compile(r"\b(?:yesterday|today|tonight|earlier|this morning|just now|this time|next time|"
                           r"last time|(?:minutes?|mins?|hours?|hrs?) (?:away|late|early|out))\b", re.I)
# what it is about was said elsewhere ("I drink way too much of it", "I still have one")
_POINTS_AWAY = re.compile(r"\b(?:it|one|them|that|this|those|these|so)$|\bto (?:try|do|go|come|know|ask|see)$", re.I)
_NOTHING = re.compile(r"\b(?:nothing|anything|nobody|none|no one)\b", re.I)
_INTENSIFIERS = re.compile(r"^(?:(?:so|very|really|pretty|quite|a bit|a little|kind of|kinda|super|extremely)\s+)+")
_ABOUT_YOU = re.compile(r"\b(?:you|your|yours|yourself)\b", re.I)
_NOW = re.compile(r"\b(?:today|tonight|right now|at the moment|this morning|this afternoon|this evening)\b", re.I)
_PLAN = re.compile(r"^(?:i(?:'m|’m| am)) \w+ing\b|\bgoing to\b|\bwill\b", re.I)
_TASTE = re.compile(r"\b(?:like|likes|love|loves|enjoy|enjoys|prefer|prefers|hate|hates|fan of|fan|into|favou?rite)\b",
                    re.I)
_WHERE = re.compile(r"^(?:i )?(?:live|lived|moved|grew up|was born|am from|'m from|come from)\b", re.I)
_LIVES_AT = re.compile(r"\b(?:tenant|resident|neighbou?r|living) (?:at|in|on) ", re.I)  # "the new tenant at number 12"
_ONGOING = re.compile(r"^(?:i(?:'m|’m| am)|i(?:'ve|’ve| have) been) \w+ing\b", re.I)
# "more nervous than they are", "busier than ever", "less fit than I was": how the user compares with someone else
# or with before, a remark of the moment; "more than 10 years" and "rather than" are no comparison
_COMPARED = re.compile(r"\b(?:more|less|\w{3,}er) (?:\w+ )?than (?!\d|a |an |one |two |three |four |five |ten |"
                       r"twenty |half |a few |a dozen |a couple )", re.I)
_NOT_COMPARATIVES = word_set("rather other never ever over under after either neither whether together summer winter")
_SUBJECT_WORDS = {"i'm": "User is", "i’m": "User is", "i am": "User is", "i've": "User has", "i’ve": "User has",
                  "i have": "User has", "i was": "User was", "i": "User"}


def open_fact(clause: str) -> tuple[str, str, float] | None:
    """(content, category, confidence) for a statement about the user, or None (see the module docstring)."""
    text = _SETTLED.sub("i ", clean(clause).rstrip(" .!"))
    m = _SUBJECT.match(text)
    if not m or _ABOUT_YOU.search(text) or not at_most_words(text, 16):
        return None
    subject, rest = m.group("subject").lower().replace("’", "'"), _REQUEST_TAIL.sub("", m.group("rest"))
    words = re.findall(r"[\w'-]+", _INTENSIFIERS.sub("", rest.lower().replace("’", "'")))
    said = [w for w in words if w not in ("never", "always", "just", "really", "also", "still", "often", "sometimes")]
    if subject == "i" and len(said) < 2:
        return None  # "(I) never learned": what it is about was said before
    if len(words) < 2 and not (subject in ("i'm", "i am") and words and len(words[0]) > 2
                               and words[0] not in ("bad", "hot", "cold", "wet", "off", "in", "out", "mad", "fab")):
        return None
    while len(words) > 1 and words[0].endswith("ly") and len(words[0]) > 4:
        words = words[1:]  # "I completely forgot": the verb is what tells
    first = words[0] if words else ""
    if CHAT_OBJECTS.match(" ".join(words[1:])) and len(words) <= 3:
        return None  # "I get it", "I love that"
    if _OBLIGED.match(rest) or (first == "got" and _OBLIGED.match(" ".join(words[1:]))):
        return None  # "I have to be really careful", "I've got loads of time"
    if subject in ("i'm", "i am") and first in _PLACES_ON and _RECURRING.search(rest) and len(words) > 2:
        pass  # "I'm at the clinic all day on Wednesdays", "I'm on night shifts": where they are, as a habit
    elif subject in ("i'm", "i am", "i was"):
        if first.endswith("ing"):
            if first in _PASSING_STATES or not TIME_WORDS.search(rest):
                return None  # "I'm taking notes": a passing doing, unless it is a plan ("... camping next month")
        elif first in _PASSING_STATES:
            return None
    elif first == "been" and len(words) > 1 and words[1].endswith("ing"):
        if words[1] in _PASSING_STATES or words[1] in _CHAT_VERBS or not _HABITUAL.search(rest):
            return None  # "I've been waiting for ages"; "I've been swimming every morning" stays
    elif first in _CHAT_VERBS and not (first == "do" and len(words) > 1 and words[1] not in _DO_CHAT) \
            and words[:2] != ["look", "after"] \
            and not (first == "keep" and len(words) > 1 and not words[1].endswith("ing")
                     and words[1] not in ("it", "that", "this", "them", "in", "up", "on", "going", "forgetting")):
        # "I look after my grandson on Fridays", "I keep bees": what they do
        return None  # "I do think so", but "I do 12 hour shifts"
    if subject in ("i've", "i have") and set(words[:5]) & _CHAT_NOUNS:
        return None  # "I have a question about the tickets"
    if re.match(r"(?:(?:still|just|really) )*(?:don't|do not|haven't|have not) (?:have|got)\b|have no\b", rest, re.I):
        return None  # "I still don't have a GP": what they have not is left unsaid (tests/data/extraction_set.json)
    if _PASSING_ILL.search(rest):
        return None  # "I've got a cold": it will pass
    if _PASSING_TIME.search(rest) or _POINTS_AWAY.search(rest) or _NOTHING.search(rest):
        return None  # "the one who asked yesterday", "I still have one", "I was diagnosed with nothing"
    if subject == "i" and first in _ERRANDS:
        return None  # "I booked last week"
    if subject in ("i've", "i have") and first in _ERRANDS and not TIME_WORDS.search(rest):
        return None  # "I've booked us a table at the Ivy": an errand done, as "I booked a table" is
    past = subject == "i" and (first in _IRREGULAR_PAST or first.endswith("ed"))
    if past and re.match(r"^\w+ (?:(?:\d+|a few|a couple of|two|three|\w+) (?:days|weeks|months|years) ago|"
                         r"in \d{4}|last \w+)$", rest, re.I):
        return None  # "(I'm an ex-smoker,) quit 10 years ago": what it is about was said before
    if past and not _LASTING_TIME.search(rest):
        return None  # "I booked a table", "I lost my keys": events; "I turned forty in May" stays
    if _NOW.search(rest) and not _PLAN.match(text):
        return None  # "I have a headache today"
    if _compares(rest):
        return None  # "I'm more nervous than they are"
    if m.group("rel"):
        content = f"User and their {_relation_words(m.group('rel'))} {third_person(rest)}"
    elif subject in ("i've", "i have") and words[0] in ("a", "an", "two", "three"):
        content = f"User has {third_person(rest)}"
    elif past:
        content = f"User {third_person(rest)}"
    elif subject == "i":
        content = f"User {predicate(rest)}"
    else:
        content = f"{_SUBJECT_WORDS[subject]} {third_person(rest)}"
    return content, _category(text, bool(m.group("rel"))), 0.6


def _compares(said: str) -> bool:
    return any(m.group().split()[0].lower() not in _NOT_COMPARATIVES for m in _COMPARED.finditer(said))


def _relation_words(said: str) -> str:
    """ "husband Marco" as said: the relation in lower case, a name as written."""
    return " ".join(w if w[:1].isupper() and i else w.lower() for i, w in enumerate(said.split()))


# a relative and what the user says of them: "my wife works Saturdays", "our dog Pepper is a bit stiff",
# "my mum's 80th is on the 22nd of June"
_RELATIVE = re.compile(
    rf"^(?:my|our) (?P<who>(?:(?:[\w-]+ )?(?:{RELATIONS})s?(?: (?:and|&) (?:my )?(?:{RELATIONS}))?|eldest|youngest|"
    r"oldest|firstborn|little one|middle one)"
    r"(?: (?-i:[A-Z])[\w'’-]+(?: (?:and|&) (?-i:[A-Z])[\w'’-]+)?)?"
    r"(?:(?:'s|’s) (?:\d+(?:st|nd|rd|th)|birthday|wedding|anniversary|graduation|retirement|funeral|party))?) "
    r"(?P<rest>.+)$", re.I)
_RELATIVE_VERB = re.compile(
    r"^(?:(?:just|also|still|now|usually|always|often|never|really|finally|only|mostly|mainly|sometimes|both) )*"
    r"(?P<verb>is|are|was|were|has|have|had|can|can't|cannot|doesn't|does not|don't|won't|will|turned|turns|"
    r"[a-z]+s|[a-z]+ed|got|went|began|became|grew|left|met|broke|fell|"
    r"start|go|live|love|like|hate|play|attend|need|do|work|study|visit|come|stay|share|both)\b(?P<after>.*)$", re.I)
# what others say or ask, and where they are for the moment: not facts about them
_REPORTS = word_set("says said thinks thought told tells asks asked wonders wondered reckons believes suggested "
                    "recommended mentioned")
_THEIR_MOMENT = re.compile(
    r"^\s*(?:(?:so|very|really|pretty|quite|a bit|a little|super|extremely|just)\s+)*"
    r"(?:here|there|back|fine|ok|okay|good|great|well|alright|busy|tired|exhausted|sick|ill|waiting|outside|coming|"
    r"going|with|in the|on (?:the|her|his|their) way|late|away|not sure|unsure|asleep|at work|excited|happy|glad|sad|"
    r"sorry|bored|hungry|thirsty|ready|done|confused|curious|nervous|upset|annoyed|off|out|up|over|about(?! \d))\b",
    re.I)
_AHEAD = re.compile(r"\b(?:next|tomorrow|(?:for|over) (?:christmas|easter|new year|the holidays|the summer)|"
                    r"(?:in|for) (?:january|february|march|april|may|june|july|august|september|"
                    r"october|november|december)|on (?:the \d+|monday|tuesday|wednesday|thursday|friday|saturday|"
                    r"sunday))", re.I)
# "do" is an errand with what is done said as one thing ("wants to do the tasting"); with a field alone it is what
# they mean to study or be ("she wants to do medicine"), which is theirs to keep
_ERRAND = re.compile(r"^(?:(?:also|really|just) )?(?:wants?|wanted|needs?|needed|would like|hopes?|is hoping|asked|"
                     r"is asking|is trying) to (?:come|join|go|book|bring|know|ask|see|visit|"
                     r"do(?! (?!(?:the|this|that|these|those|it|a|an|some|something|anything|one|my|our|his|her|"
                     r"their|your)\b)[a-z]+(?:$| at | for | in |,))|have|get|sign|"
                     r"borrow|use|stay|attend|take|play|check|pop|drop|pick|collect|speak|talk|meet|change|cancel|"
                     r"move)\b", re.I)
_ONGOING_FACT = word_set("learning studying training preparing starting recovering expecting visiting moving "
                         "turning retiring")


def relative_fact(clause: str) -> tuple[str, str, float] | None:
    """(content, category, confidence) for a statement about one of the user's people that no rule reads
    ("my wife works Saturdays" -> "User's wife works Saturdays"), or None: what they say, want or ask, where
    they are for the moment and anything about "you" are no memory of the user's."""
    text = clean(clause).rstrip(" .!")
    m = _RELATIVE.match(text)
    if not m or _ABOUT_YOU.search(text) or not at_most_words(text, 18):
        return None
    rest = m.group("rest")
    verb = _RELATIVE_VERB.match(rest)
    if not verb or verb.group("verb").lower() in _REPORTS or re.match(r"^\w+ to (?:know|ask)\b", rest):
        return None
    if _ERRAND.match(rest):
        return None  # "my brother wants to come to the session with me": a wish about this visit
    after = verb.group("after")
    if _PASSING_TIME.search(rest) or _POINTS_AWAY.search(rest) or _NOTHING.search(rest):
        return None
    visit = re.match(r"\s*(?:coming|going|flying|moving|travell?ing)\b", after) and _AHEAD.search(rest)
    if verb.group("verb").lower() in ("is", "are", "was", "were") and _THEIR_MOMENT.match(after) and not visit:
        return None
    if _compares(rest):
        return None  # "my son is more excited than I am"
    if re.match(r"\s*(?:it|that|this|them|those|these|one)\b", after, re.I):
        return None  # "my kids loved it last time": about what was said before
    if verb.group("verb").lower() == "will" and not re.match(r"\s*be\b", after):
        return None  # "my husband will drop it off": a one-off errand; "my son will be 6" stays
    first = after.split()[0].lower() if after.split() else ""
    if first.endswith("ing") and first not in _ONGOING_FACT and not _AHEAD.search(rest):
        return None  # "my son is watching TV", "my boss is driving me crazy this week": a passing doing
    return f"User's {_relation_words(m.group('who'))} {third_person(rest)}", "relationship", 0.6


_HOW_OFTEN = re.compile(r"\b(?:\d+|once|twice|three|four|five|six) times? a (?:day|week|month)\b", re.I)


# a relation word that names someone, not a kind of thing: "a dog" but not "a dog grooming business"
_PERSON_ENDS = (r"(?=$|[,.;!?]|\s+(?:named|called|and|or|who|which|that|is|are|was|were|has|had|with|in|at|from|for|"
                r"to|of|on|under|over|aged|as|too|both|each|now|still|just|living|but|so|(?-i:[A-Z])|\w+s\b))")


def _category(text: str, with_relative: bool) -> str:
    if with_relative or re.search(rf"\b(?:my|our|an?|two|three|four|five|six|seven|eight|nine|ten|\d+) (?:[\w-]+ )?"
                                  rf"(?:{RELATIONS})s?\b{_PERSON_ENDS}",
                                  text, re.I):
        return "relationship"
    if (TIME_WORDS.search(text) and _PLAN.match(text)) or _HOW_OFTEN.search(text) or _RECURRING.search(text):
        return "schedule"
    if _TASTE.search(text):
        return "preference"
    if re.match(r"^i live (?:alone|on my own|by myself)\b", text, re.I):
        return "personal"  # how, not where
    if _WHERE.match(re.sub(r"^i(?:'ve|’ve| have) ", "i ", text, flags=re.I)) or _LIVES_AT.search(text):
        return "location"
    if _ONGOING.match(text):
        return "context"
    return "personal"

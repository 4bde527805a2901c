"""Rule-based memory extraction: first-person facts in user turns, restated in the third person.

Content is normalised to the third person with "User" as the subject ("User's name is Ana", "User lives in
Lisbon", "User likes hiking with their dog"), so memories read the same whichever turn they came from and
whoever reads them (a prompt, a dashboard). `extracted_from` is the user's sentence the fact came from.

Precision first: a rule fires only on a clause that starts with the user speaking about themselves
("I live in", "my sister is called"), after a few discourse markers are stripped. Questions,
conditionals and wishes ("if I...", "I'd love to..."), jokes and small talk about the conversation itself
("I like that", "I love you") produce nothing; a negated statement produces nothing unless the negation
is itself the fact ("I don't eat meat", "I don't like horror films").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

CATEGORIES = ("personal", "location", "preference", "relationship", "schedule", "context", "custom")


@dataclass(frozen=True, slots=True)
class Fact:
    content: str
    category: str
    confidence: float  # always below 1: 1.0 is kept for memories a person entered by hand
    extracted_from: str


# ---------------------------------------------------------------------------------------------------------
# Sentences and clauses


def _set(text: str, separator: str | None = None) -> frozenset[str]:
    return frozenset(w.strip() for w in text.split(separator) if w.strip())


_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+|$)")
_CLAUSE_SPLIT = re.compile(
    r"\s*;\s*|\s*,?\s+(?:and|but|so|plus|although|though|while|whereas)\s+(?=(?:i|i'm|i’m|i've|my)\b)|"
    r"\s*,\s+(?=(?:i|i'm|i’m|my)\s)",
    re.I,
)
_LEADING = re.compile(
    r"^(?:(?:well|so|oh|ah|yeah|yes|yep|yup|ok|okay|actually|honestly|btw|by the way|also|and|but|anyway|"
    r"hey|hi|hello|um|uh|hmm|fun fact|just so you know|for the record|in fact|as you know|you know|"
    r"for context|fyi|right|sure|cool|nice|great|oh and)\b[\s,!:.-]*)+",
    re.I,
)
_HEDGE = re.compile(r"^(?:i think|i guess|i believe|i suppose|probably|pretty sure)\b[\s,]*", re.I)
_NOT_A_STATEMENT = re.compile(
    r"^(?:if|when|whenever|suppose|supposing|imagine|what if|let's say|lets say|pretend|assuming|unless|"
    r"maybe|perhaps|in a world|once upon|in my dreams?|hypothetically|do|does|did|can|could|would|should|"
    r"will|is|are|am|what|where|who|why|how|which)\b",
    re.I,
)
# Anywhere in a sentence these make it a wish, a hypothetical, a role play or a report of someone else's
# words, none of which is a fact about the user.
_UNREAL = re.compile(
    r"\b(?:would|wouldn't|i'd|i’d|wish|hypothetically|pretend|imagine|role ?play|in the game|my character|"
    r"if i|someday|some day|one day|dream of|dreaming of|(?:said|says|thinks|told me|asked) (?:that )?i)\b",
    re.I,
)
_JOKE = re.compile(r"\b(?:jk|j/k|just kidding|kidding|joking)\b|/s\b", re.I)


def _sentences(turn: str) -> list[str]:
    return [m.group().strip() for m in _SENTENCE.finditer(turn) if m.group().strip()]


# ---------------------------------------------------------------------------------------------------------
# Rewriting the user's words in the third person

_PRONOUNS = {
    "my": "their", "mine": "theirs", "me": "them", "myself": "themselves", "i": "they",
    "i'm": "they're", "i’m": "they're", "i've": "they've", "i'll": "they'll", "our": "their",
    "ours": "theirs", "us": "them", "we": "they",
}  # fmt: skip
_PRONOUNS |= {"i was": "they were", "i am": "they are", "i’m": "they're", "i was not": "they were not"}
# Longest first, so "i was" wins over "i".
_PRONOUN = re.compile(
    r"\b(?:" + "|".join(re.escape(p) for p in sorted(_PRONOUNS, key=len, reverse=True)) + r")\b", re.I
)
_TRAILING_FILLER = re.compile(
    r"(?:[\s,]+(?:too|as well|lol|haha+|tbh|honestly|actually|anyway|really|though|now|btw|:\)|:d|xd))+$",
    re.I,
)
_IRREGULAR = {
    "am": "is", "have": "has", "do": "does", "go": "goes", "be": "is", "'m": "is", "don't": "does not",
}  # fmt: skip
_ADVERBS = _set(
    """never usually always often sometimes normally also still just really generally typically mostly
regularly actually"""
)
_UNCHANGED = {"can", "can't", "could", "will", "won't", "must", "might", "may", "should"} | _ADVERBS


def _third_person(phrase: str) -> str:
    return _PRONOUN.sub(lambda m: _PRONOUNS[m.group().lower()], phrase)


def _conjugate(verb: str) -> str:
    """I-form to he-form: go -> goes, watch -> watches, study -> studies; past and modal forms unchanged."""
    low = verb.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low in _UNCHANGED or low.endswith(("ed", "s")) or not low.isalpha():
        return verb
    if low.endswith(("sh", "ch", "x", "z", "o")):
        return verb + "es"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _predicate(phrase: str) -> str:
    """'usually go swimming with my son' -> 'usually goes swimming with their son'."""
    words = phrase.split()
    for i, word in enumerate(words):
        if word.lower() in _ADVERBS:
            continue  # an adverb before the verb: conjugate the word after it
        words[i] = _conjugate(word)
        break
    return _third_person(" ".join(words))


def _clean(value: str) -> str:
    value = _TRAILING_FILLER.sub("", value.strip(" \t,.!;:-\"'“”"))
    return value.strip(" \t,.!;:-\"'“”")


# ---------------------------------------------------------------------------------------------------------
# Vocabulary

# A name is one word, then up to two more only when capitalised ("ana" and "Ana Maria Silva", not "ana but").
_NAME = r"(?P<name>[^\W\d_][\w'’-]*(?:\s+(?-i:[A-Z])[\w'’-]*){0,2})"
_NOT_NAMES = _set(
    """not a an the secret private unknown none nothing irrelevant too so very here there back fine
good ok okay sorry tired just going trying really also still sure glad happy new from in at on
with called named what whatever anything something nobody when if later tomorrow anytime maybe
whenever now soon again please"""
)
_RELATIONS = (
    r"wife|husband|partner|spouse|boyfriend|girlfriend|fianc[eé]e?|son|daughter|kids?|children|child|baby|"
    r"mom|mum|mother|dad|father|parents|brother|sister|siblings?|twin|grandma|grandmother|grandpa|"
    r"grandfather|grandparents|grandson|granddaughter|grandkids|aunt|uncle|cousin|niece|nephew|best friend|"
    r"friend|roommate|flatmate|housemate|boss|manager|colleague|coworker|co-worker|neighbou?r|dog|cat|puppy|"
    r"kitten|pet|parrot|hamster|rabbit|bunny|horse|turtle|fish"
)
_REL_MOD = r"(?P<mod>(?:older|younger|little|big|baby|twin|eldest|youngest|oldest|step|step-|new|late)\s?)?"
_OCCUPATIONS = (
    r"teacher|nurse|doctor|physician|surgeon|dentist|vet|veterinarian|engineer|developer|programmer|"
    r"designer|lawyer|attorney|accountant|chef|cook|baker|barista|waiter|waitress|bartender|student|"
    r"farmer|architect|pilot|firefighter|police officer|cop|soldier|journalist|writer|author|artist|"
    r"musician|photographer|electrician|plumber|carpenter|mechanic|driver|scientist|researcher|professor|"
    r"lecturer|pharmacist|therapist|psychologist|paramedic|librarian|cashier|consultant|analyst|"
    r"manager|entrepreneur|freelancer|translator|data scientist|product manager|project manager|"
    r"salesperson|realtor|real estate agent|social worker|hairdresser|tailor|economist|biologist|chemist|"
    r"physicist|mathematician|historian|editor|actor|actress|dancer|singer|coach|trainer|personal trainer|"
    r"caregiver|nanny|secretary|receptionist|clerk|banker|investor|miner|fisherman|retiree|intern|"
    r"stay-at-home (?:mom|dad|parent)|homemaker|veteran"
)
_DAYS = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_WHEN = (
    rf"(?:every (?:single )?(?:day|morning|afternoon|evening|night|weekend|week|month|year|summer|winter|"
    rf"(?:other )?(?:{_DAYS})(?: (?:morning|afternoon|evening|night))?|weekday)|"
    rf"each (?:day|morning|week|(?:{_DAYS}))|on (?:(?:{_DAYS})s|weekends|"
    rf"weekdays|(?:{_DAYS}) (?:mornings|afternoons|evenings|nights))|on (?:the )?weekends?|"
    rf"(?:once|twice|three times) a (?:day|week|month|year)|daily|weekly|at \d{{1,2}}(?::\d\d)?\s?(?:am|pm)?"
    rf"(?: every \w+)?)"
)
_EVENTS = (
    r"(?:[\w'’-]+ )?(?:appointment|interview|meeting|exam|test|flight|class|"
    r"lesson|practice|training|shift|deadline|presentation|date|wedding|trip|surgery|operation|recital|"
    r"concert|match|game|checkup|check-up)"
)
_TIME_WORDS = re.compile(
    rf"\b(?:today|tonight|tomorrow|next|this (?:week|weekend|month|year|\w+day)|on (?:{_DAYS})|"
    r"on the \d+(?:st|nd|rd|th)?|"
    r"in (?:january|february|march|april|may|june|july|august|september|october|november|december)|"
    r"at \d|every|in \d+ (?:days|weeks|months))\b",
    re.I,
)
_MONTH_OR_DATE = re.compile(
    r"\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|\d{1,2}(?:st|nd|rd|th)?)\b",
    re.I,
)
_NOT_PLACES = _set(
    """fear|hope|denial|the moment|the past|the present|a bubble|my head|peace|sin|luxury|poverty|
misery|the now|my dreams|a dream""",
    "|",
)
_CHAT_OBJECTS = re.compile(
    r"^(?:it|this|that|these|those|you|your|yours|him|her|them|how|what|when|where|why|which|who|not|"
    r"the idea|"
    r"the way|about|talking|chatting|our|here|there|so|too|very|a lot|one|both|neither|either|more|less|"
    r"to think|to say|to know|to ask|to see|to hear|the answer|the question|the sound of that|that one)\b",
    re.I,
)
_LANGUAGES = (
    r"english|spanish|portuguese|french|german|italian|dutch|russian|polish|ukrainian|chinese|mandarin|"
    r"cantonese|japanese|korean|arabic|hindi|urdu|bengali|turkish|greek|swedish|norwegian|danish|finnish|"
    r"hebrew|persian|farsi|vietnamese|thai|indonesian|malay|tagalog|swahili|czech|romanian|hungarian|catalan"
)
_DIETS = r"(?:a )?(?:vegetarian|vegan|pescatarian)|gluten[- ]free|lactose intolerant|teetotal|kosher|halal"


def _words(value: str, most: int) -> bool:
    return 0 < len(value.split()) <= most


# ---------------------------------------------------------------------------------------------------------
# Rules: a pattern anchored at the start of a clause, and a function from its match to (content, category,
# confidence), or None when the match turns out to be junk.

Made = tuple[str, str, float] | None


def _clean_name(m: re.Match[str]) -> str | None:
    name = _clean(m.group("name") or "")
    first = name.split()[0].lower() if name else ""
    if not name or first in _NOT_NAMES or not _words(name, 3):
        return None
    return " ".join(w if w[:1].isupper() else w.capitalize() for w in name.split())


def _name(m: re.Match[str]) -> Made:
    name = _clean_name(m)
    return (f"User's name is {name}", "personal", 0.95) if name else None


def _nickname(m: re.Match[str]) -> Made:
    name = _clean_name(m)
    return (f"User likes to be called {name}", "personal", 0.9) if name else None


def _age(m: re.Match[str]) -> Made:
    age = int(m.group("age"))
    return (f"User is {age} years old", "personal", 0.9) if 5 <= age <= 110 else None


def _birthday(m: re.Match[str]) -> Made:
    when = _clean(m.group("v"))
    if not _MONTH_OR_DATE.search(when) or not _words(when, 5):
        return None
    return f"User's birthday is {when}", "personal", 0.9


def _phrase(
    template: str, category: str, confidence: float, most: int = 10, places: bool = False, chat: bool = False
) -> Callable[[re.Match[str]], Made]:
    """A rule whose content is `template` with the third-person object of the match in place of {v}."""

    def make(m: re.Match[str]) -> Made:
        value = _clean(m.group("v"))
        if not _words(value, most):
            return None
        if places and (value.lower() in _NOT_PLACES or value.lower().startswith(("the moment", "fear of"))):
            return None
        if chat and _CHAT_OBJECTS.match(value):
            return None
        groups = {k: (v or "") for k, v in m.groupdict().items()}
        return template.format(**{**groups, "v": _third_person(value)}), category, confidence

    return make


_PREFERENCE_VERBS = {
    "love": ("loves", 0.85),
    "like": ("likes", 0.8),
    "enjoy": ("enjoys", 0.85),
    "adore": ("adores", 0.85),
    "hate": ("hates", 0.85),
    "dislike": ("dislikes", 0.85),
    "detest": ("detests", 0.85),
    "can't stand": ("can't stand", 0.85),
    "cannot stand": ("can't stand", 0.85),
    "don't like": ("does not like", 0.8),
    "do not like": ("does not like", 0.8),
    "don't enjoy": ("does not enjoy", 0.8),
    "prefer": ("prefers", 0.85),
    "really like": ("likes", 0.8),
}


def _preference(m: re.Match[str]) -> Made:
    verb, confidence = _PREFERENCE_VERBS[re.sub(r"\s+", " ", m.group("verb").lower().replace("’", "'"))]
    value = _clean(m.group("v"))
    if not _words(value, 12) or _CHAT_OBJECTS.match(value):
        return None
    return f"User {verb} {_third_person(value)}", "preference", confidence


def _relation_named(m: re.Match[str]) -> Made:
    name = _clean_name(m)
    if not name:
        return None
    relation = f"{(m.group('mod') or '').strip()} {m.group('rel')}".strip().lower()
    return f"User's {relation} is named {name}", "relationship", 0.9


def _has_relation(m: re.Match[str]) -> Made:
    count, relation = m.group("count").lower(), m.group("rel").lower()
    mod = (m.group("mod") or "").strip().lower()
    text = f"User has {count} {mod + ' ' if mod else ''}{relation}"
    if m.group("name"):
        name = _clean_name(m)
        if not name:
            return None
        text += f" named {name}"
    return text, "relationship", 0.9


def _relation_fact(m: re.Match[str]) -> Made:
    value = _clean(m.group("v"))
    if not _words(value, 10) or _CHAT_OBJECTS.match(value):
        return None
    relation = f"{(m.group('mod') or '').strip()} {m.group('rel')}".strip().lower()
    return f"User's {relation} {m.group('pred').lower()} {_third_person(value)}", "relationship", 0.8


def _habit(m: re.Match[str]) -> Made:
    action, when = _clean(m.group("v")), _clean(m.group("when"))
    verbs = [w.lower() for w in action.split() if w.lower() not in _ADVERBS]
    if not _words(action, 10) or not verbs or verbs[0] in _NOT_HABITS:
        return None  # "I really enjoy X on weekends" is a taste: the preference rules read it
    when = when[0].lower() + when[1:]  # "Every Monday I swim" -> "... every Monday"
    return f"User {_predicate(action)} {when}", "schedule", 0.8


_NOT_HABITS = _set(
    """think guess hope wish was were will would could should might did said told asked want need feel
felt forgot remember am love like hate get got mean know see wonder enjoy adore prefer dislike
can't cannot don't"""
)


def _event(m: re.Match[str]) -> Made:
    rest = _clean(m.group("rest") or "")
    if not _TIME_WORDS.search(rest) or not _words(rest, 10):
        return None
    article = _third_person(m.group("art").lower())
    return f"User has {article} {m.group('ev').lower()} {_third_person(rest)}", "schedule", 0.8


_S = r"(?:'m|’m| am)"  # "I'm" and "I am"
_ADV = (
    r"(?:(?:really|absolutely|totally|just|also|do|truly|kind of|kinda|genuinely|honestly|actually|so|still)"
    r"\s+)*"
)
_V = r"(?P<v>[^,;.!?]+)"
_CAPITALISED = r"(?P<name>(?-i:[A-Z])[\w'’-]+(?:\s+(?-i:[A-Z])[\w'’-]+)?)"


def _own(m: re.Match[str]) -> Made:
    verb = "owns" if m.group("verb").lower() == "own" else "drives"
    return _phrase(f"User {verb} {{art}} {{v}}", "context", 0.8, 6)(m)


def _status(m: re.Match[str]) -> Made:
    partner = _clean_name(m) if m.group("name") else None
    return f"User is {m.group('v').lower()}" + (f" to {partner}" if partner else ""), "relationship", 0.9


def _dating(m: re.Match[str]) -> Made:
    name = _clean_name(m)
    return (f"User is in a relationship with {name}", "relationship", 0.85) if name else None


# Order matters where two rules could read one clause: the first that yields a fact wins.
_RULES: list[tuple[str, Callable[[re.Match[str]], Made]]] = [
    # who the user is
    (rf"^my (?:full |first |real )?name(?:'s|’s| is) {_NAME}", _name),
    (rf"^(?:you can |please |just )?call me {_NAME}", _nickname),
    (rf"^(?:people|everyone|my friends|friends) call me {_NAME}", _nickname),
    (rf"^i go by {_NAME}", _nickname),
    (rf"^i{_S} (?P<age>\d{{1,3}})(?: years? old| y/?o)?(?=$|[,;])", _age),
    (r"^i (?:just )?turned (?P<age>\d{1,3})(?: years old)?(?: (?:last|this) \w+)?(?=$|[,;])", _age),
    (r"^my birthday is (?:on )?(?P<v>[^,;.!?]+)", _birthday),
    (
        r"^i was born (?P<prep>on|in) (?P<v>[^,;.!?]+)",
        _phrase("User was born {prep} {v}", "personal", 0.85, 5),
    ),
    # where
    (
        rf"^(?:i|we) (?:currently |now |still )?live (?P<prep>in|near|close to|outside|just outside|by) {_V}",
        _phrase("User lives {prep} {v}", "location", 0.9, 10, places=True),
    ),
    (rf"^i{_S} (?:originally )?from {_V}", _phrase("User is from {v}", "location", 0.9, 6, places=True)),
    (
        rf"^i grew up (?P<prep>in|near|on) {_V}",
        _phrase("User grew up {prep} {v}", "location", 0.85, 8, places=True),
    ),
    (
        rf"^i (?:just |recently |finally )?moved to {_V}",
        _phrase("User moved to {v}", "location", 0.85, 8, places=True),
    ),
    (
        rf"^i{_S} (?:currently )?based (?:in|out of) {_V}",
        _phrase("User is based in {v}", "location", 0.9, 6, places=True),
    ),
    (
        rf"^my (?:home ?town|home city) is {_V}",
        _phrase("User's hometown is {v}", "location", 0.9, 6, places=True),
    ),
    (rf"^i used to live in {_V}", _phrase("User used to live in {v}", "location", 0.75, 6, places=True)),
    # when: habits, appointments, working hours, trips
    (rf"^i have (?P<art>an?|my) (?P<ev>{_EVENTS})(?P<rest>[^,;.!?]*)", _event),
    (rf"^(?P<when>{_WHEN}),? i (?P<v>[^,;.!?]+)", _habit),
    (rf"^i (?P<v>[^,;.!?]+?) (?P<when>{_WHEN}(?: [^,;.!?]{{1,30}})?)$", _habit),
    (
        r"^i work (?P<v>nights|night shifts|weekends|(?:from|on) weekdays|from home|remotely|part[- ]time|"
        r"full[- ]time|(?:from )?\d{1,2}(?::\d\d)?\s?(?:am|pm)? (?:to|till|until) "
        r"\d{1,2}(?::\d\d)?\s?(?:am|pm)?)",
        _phrase("User works {v}", "schedule", 0.8),
    ),
    (
        rf"^i{_S} (?P<verb>going|flying|travell?ing|heading|moving|driving) to (?P<v>[^,;.!?]+?) "
        r"(?P<when>next \w+|this \w+|in (?:\w+|\d+ \w+)|on \w+|tomorrow|tonight|soon)$",
        _phrase("User is {verb} to {v} {when}", "schedule", 0.75, 6),
    ),
    # what the user does, speaks, cannot eat
    (
        rf"^i{_S} (?:a )?(?:big |huge |massive |long-time |lifelong )?fan of {_V}",
        _phrase("User is a fan of {v}", "preference", 0.85, 8, chat=True),
    ),
    (rf"^i (?:currently )?work as (?P<art>an?) {_V}", _phrase("User works as {art} {v}", "personal", 0.9, 6)),
    (
        rf"^i{_S} (?:currently |now )?(?P<art>an?) (?!(?:bit|little|lot|fan|kind|sort)\b)"
        rf"(?P<v>(?:[\w-]+ ){{0,3}}?(?:{_OCCUPATIONS}))(?=$|[,;]| at | in | for | with )",
        _phrase("User is {art} {v}", "personal", 0.9, 6),
    ),
    (
        rf"^i{_S} (?P<v>retired|self-employed|unemployed|between jobs)\b",
        _phrase("User is {v}", "personal", 0.85),
    ),
    (
        rf"^i (?:currently )?work (?P<prep>at|for|in) {_V}",
        _phrase("User works {prep} {v}", "personal", 0.85, 6),
    ),
    (
        rf"^i (?:also )?speak (?P<v>(?:fluent )?(?:{_LANGUAGES})(?:(?:,| and| &) (?:{_LANGUAGES}))*)\b",
        _phrase("User speaks {v}", "personal", 0.85),
    ),
    (rf"^i{_S} allergic to {_V}", _phrase("User is allergic to {v}", "personal", 0.9, 6)),
    (rf"^i{_S} (?P<v>{_DIETS})$", _phrase("User is {v}", "preference", 0.9)),
    (
        r"^i (?:don't|do not|never) (?P<verb>eat|drink) (?P<v>[^,;.!?]+)",
        _phrase("User does not {verb} {v}", "preference", 0.85, 5),
    ),
    # the people (and animals) in the user's life
    (
        rf"^my {_REL_MOD}(?P<rel>{_RELATIONS})(?:'s|’s)? (?:name is|is called|is named|goes by) {_NAME}",
        _relation_named,
    ),
    (rf"^my {_REL_MOD}(?P<rel>{_RELATIONS}) is {_CAPITALISED}$", _relation_named),
    (
        rf"^(?:i have|i've got|i’ve got) (?P<count>an?|one|two|three|four|five|six|\d) {_REL_MOD}"
        rf"(?P<rel>(?:{_RELATIONS})s?)(?:,? (?:named|called) {_NAME})?(?=$|,| and )",
        _has_relation,
    ),
    (
        rf"^(?:i have|i've got|i’ve got) (?P<art>an?) (?P<what>[\w\s-]{{1,30}}?),? (?:named|called) {_NAME}",
        lambda m: (
            (
                f"User has {m.group('art').lower()} {m.group('what').lower()} named {name}",
                "relationship",
                0.85,
            )
            if (name := _clean_name(m))
            else None
        ),
    ),
    (rf"^i{_S} (?P<v>married|engaged|single|divorced|widowed)(?: to {_NAME})?$", _status),
    (rf"^i{_S} (?:dating|seeing|in a relationship with) {_NAME}", _dating),
    (
        rf"^my {_REL_MOD}(?P<rel>{_RELATIONS}) "
        r"(?P<pred>is an?|works as an?|works at|works for|works in|lives in|"
        rf"lives with|is from|loves|likes|hates|is allergic to|plays|studies|is studying|just turned|is \d+)"
        rf"\s?{_V}",
        _relation_fact,
    ),
    # tastes
    (
        rf"^my fav(?:ou?rite|e) (?P<what>[\w\s-]{{1,30}}?) (?:is|are) {_V}",
        _phrase("User's favorite {what} is {v}", "preference", 0.9, 8),
    ),
    (
        rf"^{_V} (?:is|are) my (?:absolute |all-time |very )?fav(?:ou?rite|e) (?P<what>[\w\s-]{{1,30}})$",
        _phrase("User's favorite {what} is {v}", "preference", 0.85, 6, chat=True),
    ),
    (
        rf"^i{_S} (?:really |very |so |totally )?"
        rf"(?P<how>into|passionate about|obsessed with|interested in) {_V}",
        _phrase("User is {how} {v}", "preference", 0.8, 8, chat=True),
    ),
    (
        rf"^i {_ADV}(?P<verb>love|like|enjoy|adore|hate|dislike|detest|can't stand|cannot stand|don't like|"
        rf"do not like|don't enjoy|prefer)\s+{_V}",
        _preference,
    ),
    (
        r"^i (?:play|practice|practise) "
        r"(?P<v>(?:the )?(?:guitar|piano|violin|drums|cello|bass|saxophone|flute|"
        r"football|soccer|basketball|tennis|volleyball|golf|chess|hockey|rugby|baseball|cricket|badminton|"
        r"squash|padel|yoga|pilates|video games|board games)[^,;.!?]*)",
        _phrase("User plays {v}", "preference", 0.8),
    ),
    # context: what the user is in the middle of
    (
        rf"^i{_S} (?:currently |now |still )?"
        r"(?P<verb>learning|studying|training for|preparing for|working on|"
        rf"writing|building|saving for|saving up for|recovering from|renovating|planning) {_V}",
        _phrase("User is {verb} {v}", "context", 0.75, 10, chat=True),
    ),
    (
        rf"^i(?:'ve|’ve| have) been "
        r"(?P<verb>learning|studying|playing|practicing|practising|working on|training|"
        rf"teaching|coding|painting|running|writing) {_V}",
        _phrase("User has been {verb} {v}", "context", 0.75, 10, chat=True),
    ),
    (r"^i study (?P<v>[^,;.!?]+)", _phrase("User studies {v}", "context", 0.8, 8, chat=True)),
    (r"^i (?P<verb>own|drive) (?P<art>an?|two|three) (?P<v>[^,;.!?]+)", _own),
]
_COMPILED = [(re.compile(pattern, re.I), make) for pattern, make in _RULES]
# "Hi, I'm Ana": a bare capitalised word after "I'm" is a name only in a greeting ("I'm Brazilian" is not).
_GREETING = re.compile(r"^(?:hi|hello|hey|hiya|good (?:morning|afternoon|evening))\b", re.I)
_INTRODUCTION = re.compile(rf"^i{_S} {_CAPITALISED}$", re.I)


def _clause_facts(clause: str, sentence: str, greeting: bool) -> list[Fact]:
    clause = _LEADING.sub("", clause.strip())
    hedged = bool(_HEDGE.match(clause))
    clause = _HEDGE.sub("", clause).rstrip(" .!")
    if not clause or _NOT_A_STATEMENT.match(clause):
        return []
    candidates = list(_COMPILED)
    if greeting:
        candidates.insert(0, (_INTRODUCTION, _name))
    for pattern, make in candidates:
        match = pattern.match(clause)
        made = make(match) if match else None
        if made is None:
            continue  # a rule whose object is junk ("I live in fear") leaves the clause to the next one
        content, category, confidence = made
        if hedged:
            confidence -= 0.15
        return [Fact(content[0].upper() + content[1:], category, round(min(confidence, 0.95), 2), sentence)]
    return []


def extract_facts(user_turns: Sequence[str]) -> list[Fact]:
    """Facts worth remembering in the user's own turns, in order, each content once."""
    facts: list[Fact] = []
    seen: set[str] = set()
    for turn in user_turns:
        if _JOKE.search(turn):
            continue
        greeting = bool(_GREETING.match(turn.strip()))
        for sentence in _sentences(turn):
            if sentence.endswith("?") or _UNREAL.search(sentence):
                continue
            for clause in _CLAUSE_SPLIT.split(sentence.rstrip(".!")):
                for fact in _clause_facts(clause, sentence, greeting):
                    key = fact.content.casefold()
                    if key not in seen:
                        seen.add(key)
                        facts.append(fact)
    return facts

"""Memory extraction's rules: a pattern anchored at the start of a clause, and a function from its match to
(content, category, confidence), or None when the match turns out to be junk. Order matters where two rules
could read one clause: the first that yields a fact wins."""

from __future__ import annotations

import re
from collections.abc import Callable

from avatar_service.core.memory.people import (
    Made,
    clean_name,
    dating,
    has_relation,
    pet,
    relation_age,
    relation_fact,
    relation_named,
    status,
)
from avatar_service.core.memory.vocabulary import (
    ADV,
    CAPITALISED,
    CHAT_OBJECTS,
    DIETS,
    EVENTS,
    HABIT_WHEN,
    HOMES,
    LANGUAGES,
    LIST,
    MONTH_OR_DATE,
    NAME,
    NOT_HABITS,
    NOT_PLACES,
    OCCUPATIONS,
    PETS,
    PLAN_WHEN,
    PREFERENCE_VERBS,
    REL_MOD,
    RELATIONS,
    TIME_WORDS,
    TITLED_NAME,
    TRAILING_TIME,
    WHEN,
    S,
    V,
    at_most_words,
)
from avatar_service.core.memory.wording import ADVERBS, PAST_FORMS, clean, predicate, third_person


def _name(m: re.Match[str]) -> Made:
    name = clean_name(m)
    return (f"User's name is {name}", "personal", 0.95) if name else None


def _nickname(m: re.Match[str]) -> Made:
    name = clean_name(m)
    return (f"User likes to be called {name}", "personal", 0.9) if name else None


def _age(m: re.Match[str]) -> Made:
    age = int(m.group("age"))
    return (f"User is {age} years old", "personal", 0.9) if 5 <= age <= 110 else None


def _birthday(m: re.Match[str]) -> Made:
    when = clean(m.group("v"))
    if not MONTH_OR_DATE.search(when) or not at_most_words(when, 5):
        return None
    return f"User's birthday is {when}", "personal", 0.9


def _phrase(
    template: str, category: str, confidence: float, most: int = 10, places: bool = False, chat: bool = False,
    untimed: bool = False,
) -> Callable[[re.Match[str]], Made]:
    """A rule whose content is `template` with the third-person object of the match in place of {v};
    `untimed` drops a time said after the object ("moved to Rotterdam last month")."""

    def make(m: re.Match[str]) -> Made:
        value = clean(m.group("v"))
        if places or untimed:
            value = TRAILING_TIME.sub("", value)
        if not at_most_words(value, most):
            return None
        if places and (value.lower() in NOT_PLACES or value.lower().split()[0] in NOT_PLACES  # "nights at work"
                       or value.lower().startswith("the moment")):
            return None
        if chat and CHAT_OBJECTS.match(value):
            return None
        groups = {k: third_person(v or "") for k, v in m.groupdict().items()}
        return template.format(**{**groups, "v": third_person(value)}), category, confidence

    return make


def _preference(m: re.Match[str]) -> Made:
    verb, confidence = PREFERENCE_VERBS[re.sub(r"\s+", " ", m.group("verb").lower().replace("’", "'"))]
    value = clean(m.group("v"))
    if not at_most_words(value, 12) or CHAT_OBJECTS.match(value):
        return None
    return f"User {verb} {third_person(value)}", "preference", confidence


def _plan(m: re.Match[str]) -> Made:
    """ "My wife and I are going to Lisbon in August" -> "User is going to Lisbon in August"."""
    rest = clean(m.group("rest") or "")
    text = f"User is {m.group('verb').lower()} to {m.group('place')} {m.group('when')}"
    if rest and at_most_words(rest, 6):
        text += f" {third_person(rest)}"
    return text, "schedule", 0.8


def _habit(m: re.Match[str]) -> Made:
    action, when = clean(m.group("v")), clean(m.group("when"))
    verbs = [w.lower() for w in action.split() if w.lower() not in ADVERBS]
    if not at_most_words(action, 10) or not verbs or verbs[0] in NOT_HABITS:
        return None  # "I really enjoy X on weekends" is a taste: the preference rules read it
    once = bool(re.match(r"(?:at|on the|on \w+day\b|this|last|yesterday|today|tonight)\b", when, re.I))
    if once and (verbs[0] in PAST_FORMS or verbs[0].endswith("ed") or re.match(r"(?:have|need|got) to\b", action)):
        return None  # "I left the house at 8", "I have to pick the kids up at 3": something that happens once
    if not re.match(r"(?:on )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)", when, re.I):
        when = when[0].lower() + when[1:]  # "Every Monday I swim" -> "... every Monday"
    return f"User {predicate(action)} {when}", "schedule", 0.8


def _event(m: re.Match[str]) -> Made:
    rest = clean(m.group("rest") or "")
    if not TIME_WORDS.search(rest) or not at_most_words(rest, 10):
        return None
    article = third_person(m.group("art").lower())
    return f"User has {article} {m.group('ev').lower()} {third_person(rest)}", "schedule", 0.8


# "a fish tank", "a dog bed": things for a pet, not a pet
_PET_THINGS = (r"(?:tanks?|bowls?|beds?|flaps?|food|cages?|hutch|sitters?|walkers?|toys?|houses?|doors?|carriers?|"
               r"leads?|collars?|insurance|allerg\w+|hair|fur|shows?|friendly)\b")
# how much of a language: "fluent French and a bit of German"
_SOME = r"(?:(?:fluent|basic|some|conversational|decent|good|native|a (?:bit|little) of|a little|a few words of) )?"
_DRIVEN_FOR_A_LIVING = re.compile(r"^(?:taxi|cab|bus|lorry|truck|van|uber|ambulance|forklift|tram|train)s?"
                                  r"(?=$| at | on | for | in | around )", re.I)


def _own(m: re.Match[str]) -> Made:
    if m.group("verb").lower() == "drive" and (job := _DRIVEN_FOR_A_LIVING.match(clean(m.group("v")))):
        rest = clean(m.group("v"))[job.end():]  # "now I drive a taxi", "I drive a taxi at night"
        return f"User works as a {job.group().lower()} driver{third_person(rest)}", "personal", 0.85
    if re.match(r"(?:lot|bit|little|fair bit|fair amount)\b", m.group("v"), re.I):
        return None  # "I drive a lot for work": how much, not what
    verb = "owns" if m.group("verb").lower() == "own" else "drives"
    return _phrase(f"User {verb} {{art}} {{v}}", "context", 0.8, 6)(m)


RULE_TEXTS: list[tuple[str, Callable[[re.Match[str]], Made]]] = [
    # who the user is
    (rf"^my (?:full |first |real )?name(?:'s|’s| is) {NAME}", _name),
    (rf"^(?:you can |please |just )?call me {NAME}", _nickname),
    (rf"^(?:people|everyone|my friends|friends) call me {NAME}", _nickname),
    (rf"^i go by {NAME}", _nickname),
    (rf"^i{S} (?P<age>\d{{1,3}})(?: years? old| y/?o)?(?=$|[,;]| and )", _age),
    (r"^i (?:just )?turned (?P<age>\d{1,3})(?: years old)?(?: (?:last|this) \w+)?(?=$|[,;])", _age),
    (r"^my birthday is (?:on )?(?P<v>[^,;.!?]+)", _birthday),
    (
        r"^i was born (?P<prep>on|in) (?P<v>[^,;.!?]+)",
        _phrase("User was born {prep} {v}", "personal", 0.85, 5),
    ),
    # where
    (
        r"^(?:i|we) (?:currently |now |still )?live (?:out |over |down |up )?"
        rf"(?P<prep>in|near|close to|outside|just outside|by) {V}",
        _phrase("User lives {prep} {v}", "location", 0.9, 10, places=True),
    ),
    (rf"^i{S} (?:originally )?from {V}", _phrase("User is from {v}", "location", 0.9, 6, places=True)),
    (
        rf"^i grew up (?P<prep>in|near|on) {V}",
        _phrase("User grew up {prep} {v}", "location", 0.85, 8, places=True),
    ),
    (
        rf"^(?:i|we) (?:just |recently |finally )?(?:moved|relocated|moved house)(?: back| home| back home)?"
        rf"(?:(?<=back|home) (?:up|down|over))? to {V}",
        _phrase("User moved to {v}", "location", 0.85, 8, places=True),
    ),
    (
        rf"^i{S} (?:currently )?based (?P<prep>in|out of|near|just outside|outside) {V}",
        _phrase("User is based {prep} {v}", "location", 0.9, 6, places=True),
    ),
    (
        rf"^my (?:home ?town|home city) is {V}",
        _phrase("User's hometown is {v}", "location", 0.9, 6, places=True),
    ),
    (rf"^i used to live in {V}", _phrase("User used to live in {v}", "location", 0.75, 6, places=True)),
    # when: habits, appointments, working hours, trips
    (rf"^i have (?P<art>an?|my) (?P<ev>{EVENTS})(?P<rest>[^,;!?]*)", _event),
    (rf"^(?P<when>{WHEN}),? i (?P<v>[^,;.!?]+)", _habit),
    (rf"^i (?P<v>[^,;.!?]+?) (?P<when>{HABIT_WHEN}(?: [^,;.!?]{{1,30}})?)$", _habit),
    (
        r"^i work (?P<when>nights|night shifts|weekends|evenings|mornings|part[- ]time|full[- ]time) "
        rf"(?P<prep>at|for|in) {V}",
        _phrase("User works {when} {prep} {v}", "personal", 0.85, 8),
    ),
    (r"^i (?:can't|cannot|can not) (?P<verb>eat|drink|have) (?!(?:the|this|that|these|those|it|your)\b)(?P<v>"
     r"[^,;!?]+?)(?= or | because | otherwise |$)", _phrase("User cannot {verb} {v}", "personal", 0.85, 5)),
    # a home got in a place is where the user lives now: "got a little flat in Cardiff Bay", "got the keys to...";
    # what it has, said after the place, is not the place ("near Ludlow with three chimneys"), nor is a team
    (r"^(?:i|we) (?:just |recently |finally )?(?P<verb>bought|rented|found|got|moved into|"
     r"(?:got|picked up|collected) the keys (?:to|for)) (?P<art>an?|our|my) (?P<adj>(?:[\w-]+ ){0,2}?)"
     rf"(?P<what>{HOMES}) (?P<prep>in|near|(?:just )?outside) (?!(?:the |a )?(?:team|squad|final|choir|band|"
     r"orchestra|class|course|queue|race|programme|scheme)\b)(?P<v>[^,;!?]+?)(?= with | and | which | that |$)",
     _phrase("User {verb} {art} {adj}{what} {prep} {v}", "location", 0.85, 6, places=True)),
    (rf"^i{S} (?:turning|going to be) (?P<v>\d{{1,3}}[^,;!?]*)", _phrase("User turns {v}", "personal", 0.8, 6)),
    (
        rf"^i{S} (?P<verb>visiting|seeing|meeting) (?P<who>[^,;!?]+?) in "
        rf"(?P<place>(?-i:[A-Z])[\w'’-]*(?: (?-i:[A-Z])[\w'’-]*)*) (?P<when>{PLAN_WHEN})$",
        lambda m: (f"User is {m.group('verb').lower()} {third_person(m.group('who'))} in {m.group('place')} "
                   f"{m.group('when')}", "schedule", 0.8),
    ),
    (
        r"^i (?:mostly |mainly |usually )?work (?P<how>from home|remotely|part[- ]time|full[- ]time|freelance|"
        rf"nights|shifts) as (?P<art>an?) {V}",
        _phrase("User works {how} as {art} {v}", "personal", 0.9, 6),
    ),
    (
        r"^i work (?P<v>nights|night shifts|weekends|(?:from|on) weekdays|from home|remotely|part[- ]time|"
        r"full[- ]time|(?:from )?\d{1,2}(?::\d\d)?\s?(?:am|pm)? (?:to|till|until) "
        r"\d{1,2}(?::\d\d)?\s?(?:am|pm)?)",
        _phrase("User works {v}", "schedule", 0.8),
    ),
    (
        rf"^(?:(?:my {REL_MOD}(?:{RELATIONS})(?: {TITLED_NAME})? and i|we|i)(?:'re|’re|'m|’m| are| am) )"
        r"(?P<verb>going|flying|travell?ing|heading|moving|driving|off) to "
        rf"(?P<place>(?-i:[A-Z])[\w'’-]*(?: (?-i:[A-Z])[\w'’-]*)*) (?P<when>{PLAN_WHEN})(?P<rest>[^,;!?]*)$",
        _plan,
    ),
    (
        r"^(?:i|we) (?:just |recently |finally )?(?:adopted|got|bought|rescued|have) "
        r"(?P<art>an?|a new|two|three|four|five|\d) (?P<what>(?:[\w-]+ ){0,2}?(?:pupp(?:y|ies)|kittens?|dogs?|cats?|"
        r"parrots?|hamsters?|rabbits?|bunn(?:y|ies)|horses?|turtles?|tortoises?|fish|guinea pigs?|birds?|budgies?|"
        r"ferrets?|"
        rf"geckos?|snakes?|pon(?:y|ies)|chickens?|(?:{PETS})s?))(?! {_PET_THINGS})"
        r"(?! (?:pupp(?:y|ies)|kittens?|dogs?|cats?|cross|mix)\b)"
        r"(?:,? (?:(?:her|his|its|their) names? (?:is|are)|named|called) "
        r"(?P<name>(?-i:[A-Z])[\w'’-]+(?:(?:,| and| &) (?-i:[A-Z])[\w'’-]+)*))?(?=$|[\s,])"
        r"(?!,? (?-i:[A-Z]))",  # "two cats, Felix and Tiger": the rule that names them reads it
        pet,
    ),
    (
        r"^i (?:just |recently |finally )?(?:started|got|have|took|began|landed) (?:a |my )?(?:new )?job as "
        rf"(?P<art>an?) {V}",
        _phrase("User works as {art} {v}", "personal", 0.9, 6, untimed=True),
    ),
    (
        rf"^i{S} (?P<verb>going|flying|travell?ing|heading|moving|driving) to (?P<v>[^,;.!?]+?) "
        r"(?P<when>next \w+|this \w+|in (?:\w+|\d+ \w+)|on \w+|tomorrow|tonight|soon)$",
        _phrase("User is {verb} to {v} {when}", "schedule", 0.75, 6),
    ),
    # what the user does, speaks, cannot eat
    (
        rf"^i{S} (?:a )?(?:big |huge |massive |long-time |lifelong )?fan of {V}",
        _phrase("User is a fan of {v}", "preference", 0.85, 8, chat=True),
    ),
    (rf"^i (?:currently )?work as (?P<art>an?) {V}", _phrase("User works as {art} {v}", "personal", 0.9, 6)),
    (
        rf"^i(?:{S}|'ve been|’ve been| have been) (?:currently |now )?(?P<art>an?) "
        r"(?!(?:bit|little|lot|fan|kind|sort)\b)"
        rf"(?P<v>(?:[\w-]+ ){{0,3}}?(?:{OCCUPATIONS})(?: (?:at|in|for) (?-i:[A-Z])[\w'’.-]*(?: [\w'’.-]+){{0,3}}?)?)"
        r"(?=$|[,;]| at | in | for | with | now| since | so | and | but )",
        _phrase("User is {art} {v}", "personal", 0.9, 10),
    ),
    (
        rf"^i{S} (?P<v>retired|self-employed|unemployed|between jobs)\b",
        _phrase("User is {v}", "personal", 0.85),
    ),
    (
        rf"^i (?:currently )?work (?P<prep>at|for|in) {V}",
        _phrase("User works {prep} {v}", "personal", 0.85, 10),
    ),
    (
        r"^i (?:currently )?teach (?P<v>[^,;!?]+)",
        _phrase("User teaches {v}", "personal", 0.85, 10, chat=True),
    ),
    (
        rf"^i (?:also )?speak (?P<v>{_SOME}(?:{LANGUAGES})(?:(?:,| and| &) {_SOME}(?:{LANGUAGES}))*)\b",
        _phrase("User speaks {v}", "personal", 0.85),
    ),
    (rf"^i{S} allergic to (?!(?:it|them|that|this|those|these|one)\b){V}",
     _phrase("User is allergic to {v}", "personal", 0.9, 6)),
    (rf"^i{S} (?P<v>coeliac|celiac|diabetic|(?:gluten|lactose|\w+) intolerant)(?=$|[,;]| and | so | but | \()",
     _phrase("User is {v}", "personal", 0.9)),  # a condition, not a taste
    (rf"^i{S} (?P<v>(?:(?:sort of|kind of|mostly|basically|pretty much|nearly|almost|mainly) )?(?:{DIETS})"
     r"(?: (?:apart from|except(?: for)?|other than) [^,;!?]+)?)"
     r"(?=$|[,;]| and | so | but | because | as | since )", _phrase("User is {v}", "preference", 0.9)),
    (
        r"^i (?:now |mostly |usually |only |always )?(?P<verb>drink|eat) (?P<v>[^,;!?]+)",
        _phrase("User {verb}s {v}", "preference", 0.8, 5),
    ),
    (
        r"^i (?:don't|do not|never|won't|will not) (?P<verb>eat|drink) (?P<v>[^,;.!?]+)",
        _phrase("User does not {verb} {v}", "preference", 0.85, 5),
    ),
    # the people (and animals) in the user's life
    (
        rf"^my {REL_MOD}(?P<rel>{RELATIONS})(?:'s|’s)? (?:name is|is called|is named|goes by) {NAME}",
        relation_named,
    ),
    (rf"^my {REL_MOD}(?P<rel>{RELATIONS}) is {CAPITALISED}$", relation_named),
    (
        rf"^(?:i have|i've got|i’ve got) (?P<count>two|three|four|five|six|\d) {REL_MOD}"
        rf"(?P<rel>(?:{RELATIONS})s?),? (?:named |called )?"
        r"(?P<names>(?-i:[A-Z])[\w'’-]+(?:(?:,| and) (?-i:[A-Z])[\w'’-]+)+)(?=$|,)",
        lambda m: (f"User has {m.group('count').lower()} {m.group('rel').lower()} named {m.group('names')}",
                   "relationship", 0.9),
    ),
    (
        rf"^(?:i have|i've got|i’ve got) (?P<count>an?|one|two|three|four|five|six|\d) {REL_MOD}"
        rf"(?P<rel>(?:{RELATIONS})s?)(?:,? (?:named|called) {NAME})?(?=$|,| and )",
        has_relation,
    ),
    (
        rf"^(?:i have|i've got|i’ve got|i (?:just |recently )?(?:adopted|rescued|got)) (?P<art>an?) "
        rf"(?P<what>[\w\s-]{{1,30}}?),? (?:named|called) {NAME}",
        lambda m: (
            (
                f"User has {m.group('art').lower()} {m.group('what').lower()} named {name}",
                "relationship",
                0.85,
            )
            if (name := clean_name(m))
            else None
        ),
    ),
    (rf"^i{S} (?:recently |newly |happily |just |now )?(?P<v>married|engaged|single|divorced|widowed)(?: to {NAME})?"
     r"(?=$| so | and | but )", status),
    (rf"^i{S} (?:dating|seeing|in a relationship with) {NAME}", dating),
    (
        rf"^my {REL_MOD}(?P<rel>(?:{RELATIONS})|twins|kids|boys|girls)(?: {TITLED_NAME})? "
        r"(?:is|are|just turned|turned) (?P<age>\d{1,2})(?: years? old)?"
        r"(?=$|[,;]| (?:today|yesterday|on \w+day|last \w+|this \w+)$)",
        relation_age,
    ),
    (
        rf"^(?:my|our) {REL_MOD}(?P<rel>{RELATIONS})(?: {TITLED_NAME})? "
        r"(?P<pred>is an?|works as an?|works at|works for|works in|lives in|lives with|is from|loves|likes|hates|"
        r"is allergic to|plays|studies|is studying|is crazy about|is into|is obsessed with|is getting married|"
        r"is getting|is moving to|is visiting|is starting|feeds|enjoys|adores|goes to|has)"
        rf"\b\s?{V}",  # "is a vet", never "is a|utistic"
        relation_fact,
    ),
    # tastes
    (
        rf"^my fav(?:ou?rite|e) (?P<what>[\w\s-]{{1,30}}?) (?:is|are) {V}",
        _phrase("User's favorite {what} is {v}", "preference", 0.9, 8),
    ),
    (
        rf"^{V} (?:is|are) my (?:absolute |all-time |very )?fav(?:ou?rite|e) (?P<what>[\w\s-]{{1,30}})$",
        _phrase("User's favorite {what} is {v}", "preference", 0.85, 6, chat=True),
    ),
    (
        rf"^i{S} (?:really |very |so |totally )?"
        rf"(?P<how>into|passionate about|obsessed with|interested in|partial to|keen on|fond of|a sucker for|"
        rf"crazy about|mad about|addicted to|hooked on) {V}",
        _phrase("User is {how} {v}", "preference", 0.8, 8, chat=True),
    ),
    (
        rf"^i {ADV}(?P<verb>love|like|enjoy|adore|hate|dislike|detest|can't stand|cannot stand|don't like|"
        rf"do not like|don't enjoy|prefer)\s+{LIST}",
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
        rf"^i{S} (?:currently |now |still )?"
        r"(?P<verb>learning|studying|training for|preparing for|working on|"
        r"writing|building|saving for|saving up for|recovering from|renovating|planning) "
        r"(?P<v>[^,;!?]+?)(?= for (?:a|my|our) (?:trip|holiday|move|visit)\b|$|[,;!?])",
        _phrase("User is {verb} {v}", "context", 0.75, 10, chat=True),
    ),
    (
        rf"^i(?:'ve|’ve| have) been "
        r"(?P<verb>learning|studying|playing|practicing|practising|working on|training|"
        rf"teaching|coding|painting|running|writing) {V}",
        _phrase("User has been {verb} {v}", "context", 0.75, 10, chat=True),
    ),
    (r"^i study (?P<v>[^,;.!?]+)", _phrase("User studies {v}", "context", 0.8, 8, chat=True)),
    (r"^i (?P<verb>own|drive) (?P<art>an?|two|three) (?P<v>[^,;.!?]+)", _own),
]
RULES = [(re.compile(pattern, re.I), make) for pattern, make in RULE_TEXTS]
# "Hi, I'm Ana": a bare capitalised word after "I'm" is a name only in a greeting ("I'm Brazilian" is not).
_INTRODUCTION = re.compile(rf"^(?:i{S}|it(?:'s|’s| is)|this is) {CAPITALISED}(?: here)?$", re.I)


def introduction() -> tuple[re.Pattern[str], Callable[[re.Match[str]], Made]]:
    """The rule for "I'm Ana" in a turn that opens with a greeting."""
    return _INTRODUCTION, _name

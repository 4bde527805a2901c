"""Memory extraction, facts told as background to a request: frames for what people say about themselves
while they ask for something.

"We're coming to Porto 12-15 August for our anniversary, any rooms left?", "I'll be driving down in my Prius,
is there a charging point?", "budget's around 600 euros", "Dr. Patel referred me", "I live just round the
corner on Elm St.", "sadly Mochi died in the spring", "Thursdays are rehearsal", "I wanna learn Portuguese
to talk to her parents". Each frame is a pattern anchored at the start of a clause and the fact it makes,
written the way rules.py and frames.py are; they are tried after those.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from avatar_service.core.memory.people import Made
from avatar_service.core.memory.vocabulary import CHAT_OBJECTS, LANGUAGES, NOT_NAMES, at_most_words
from avatar_service.core.memory.wording import clean, third_person
from avatar_service.core.text.lexicon import STOPWORDS, words_of

_MONTH = (r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|May|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
          r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?")
_DAY = r"mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?"
# a date or time a plan is set for: "12-15 August", "on Sat the 14th", "next week", "end of September"
_DATED = re.compile(
    rf"\b(?:(?:{_MONTH})\b\.?|(?-i:(?:Mon|Tue|Tues|Wed|Thu|Thurs|Fri|Sat|Sun))\b|(?:{_DAY})s?\b(?<!\bsun)|"
    r"\d{1,2}(?:st|nd|rd|th)\b|\d{1,2}\s?[-–]\s?\d{1,2}\b|\d{1,2}/\d{1,2}\b|"
    r"(?:next|this) (?:week|weekend|month|year|summer|winter|spring|autumn|term)\b|tomorrow|tonight|"
    r"(?:over|at|for) (?:easter|christmas|new year|half[- ]term|the holidays|the bank holiday)\b|"
    r"in (?:\d+|a few|a couple of) (?:days|weeks|months)\b)", re.I)
EVENTS_WORDS = (r"appointment|interview|exam|test|driving test|flight|surgery|operation|wedding|graduation|"
                r"recital|concert|match|race|marathon|scan|op|due date|birthday|court date|triathlon|half marathon|"
                r"competition|tournament|audition|gig|performance|exhibition|conference|viva|hearing|trial")
_I_OR_WE = r"(?:i(?:'m|’m| am)|we(?:'re|’re| are)|(?:my|our) (?P<who>[\w ]{2,25}?) and i are)"


# words that turn an hour or a number without being anyone: "it's just turned 6", "the clock turned 12"
_NOT_SOMEONE = NOT_NAMES | STOPWORDS | words_of("time clock weather temperature score tide wind everything he she")


def _a_name(word: str) -> bool:
    """Whether a word opening "... just turned 6" names someone ("Rory", "evie"), not a word that turns."""
    return word[:1].isupper() or word.lower() not in _NOT_SOMEONE


def _turned(m: re.Match[str]) -> Made:
    """ "Rory turned 5 on Sunday", "evie's just turned 6" -> "User's Evie turned 6"."""
    name, verb = m.group("name"), m.group("verb").lower()
    if not _a_name(name):
        return None
    verb = "is turning" if verb == "turning" else verb
    also = clean(m.group("also") or "")
    if also and not at_most_words(also, 8):
        return None
    return (f"User's {name[:1].upper()}{name[1:]} {verb} {m.group('age')}{m.group('v')}"
            f"{' ' + third_person(also) if also else ''}"), "relationship", 0.7


def _dated(template: str, category: str, confidence: float, most: int = 14) -> Callable[[re.Match[str]], Made]:
    """A plan: kept only when it says when ("... to Porto 12-15 August"), for it is then worth remembering."""

    def make(m: re.Match[str]) -> Made:
        value = clean(m.group("v"))
        if not _DATED.search(value) or not at_most_words(value, most) or CHAT_OBJECTS.match(value):
            return None
        groups = {k: " ".join(w if w[:1].isupper() and i else w.lower() for i, w in enumerate((g or "").split()))
                  for k, g in m.groupdict().items()}  # a name in "my husband Dev and I" keeps its capital
        content = template.format(**{**groups, "v": third_person(value)})
        if groups.get("who"):  # "me and my wife are celebrating our 25th next week"
            # named ("my fiancé Dan"), the person has their own memory ("User's fiancé is named Dan"), and this one is
            # the plan and its date: "me and my fiancé Dan are getting married at the old vicarage on 9 May"
            named = any(w[:1].isupper() for w in groups["who"].split()[1:])
            return content.replace("User is ", f"User and their {groups['who']} are ", 1), \
                category if named else "relationship", confidence
        return content, category, confidence

    return make


def _text(template: str, category: str, confidence: float, most: int = 10) -> Callable[[re.Match[str]], Made]:
    def make(m: re.Match[str]) -> Made:
        value = clean(m.group("v"))
        if not at_most_words(value, most) or CHAT_OBJECTS.match(value):
            return None
        groups = {k: (g or "") for k, g in m.groupdict().items()}
        return template.format(**{**groups, "v": third_person(value)}), category, confidence

    return make


_DAYS_PLURAL = (r"(?:(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday) (?:mornings|afternoons|evenings|"
                r"nights)|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekends)")
# "Thursdays are busy" is how a day is, not what happens on it
_NOT_AN_ACTIVITY = re.compile(r"^(?:\w+est|\w+er|good|bad|busy|hard|easy|fine|great|ideal|perfect|tricky|impossible|"
                              r"difficult|out|free|no good|ok|okay|quiet|full|mad|hectic|crazy|a nightmare|"
                              r"my|our|the|always|usually|never|not|so|too|very)\b", re.I)


def _on_days(m: re.Match[str]) -> Made:
    what = re.sub(r"^for (?:my |the )?", "", clean(m.group("v")), flags=re.I)  # "Sunday mornings are for mass"
    if _NOT_AN_ACTIVITY.match(what) or not at_most_words(what, 3):
        return None
    days = re.sub(r"\b\w+days?\b", lambda d: d.group().title(), m.group("days").lower())  # "Saturday mornings"
    return f"User has {what.lower()} on {days}", "schedule", 0.75


BACKGROUND_TEXTS: list[tuple[str, Callable[[re.Match[str]], Made]]] = [
    # a trip or visit with its dates: "We're coming to Porto 12-15 August", "I'm going to my cousin's wedding in
    # Galway on Sat the 14th", "We're staying 3 nights in July"
    (rf"^{_I_OR_WE} (?:(?:also|just|only) )?(?P<verb>going|coming|flying|travell?ing|heading|driving|off|visiting|"
     r"staying|arriving|moving|returning|sailing|cycling|getting married|celebrating) (?P<v>[^;!?]{2,90})$",
     _dated("User is {verb} {v}", "schedule", 0.75)),
    # arriving: "we'd arrive on the Friday", "I'll be there at 6"
    (r"^(?:i|we)(?:'d|’d| would|'ll|’ll| will|'re|’re| are|'m|’m| am)? (?:be )?(?:arriv(?:e|ing)|check(?:ing)? in|"
     r"get(?:ting)? there|get(?:ting)? in) (?P<v>(?:on|at|in|next|this|around|by|late|early|tomorrow|tonight)\b.*)$",
     _dated("User is arriving {v}", "schedule", 0.7)),
    # how they get about: "I'll be driving down in my Prius", "I come on my Brompton"
    (r"^i(?:'ll|’ll| will|'m|’m| am)? (?:be )?(?:usually |always |normally )?(?:driving|drive|coming|come|riding|"
     r"ride|cycling|cycle|travell?ing|travel)\b[^,;!?]*?\b(?:in|on) (?:my|our) "
     r"(?P<v>(?-i:[A-Z])[\w-]+(?: (?-i:[A-Z0-9])[\w-]+)?)",
     lambda m: (f"User {'rides' if re.search(r'rid|cycl|on my', m.group(0), re.I) else 'drives'} a {m.group('v')}",
                "context", 0.75)),
    # money to spend: "budget's around 600 euros", "my budget is up to £300"
    (r"^(?:my |our |the )?budget(?:'s|’s| is| of)? (?P<v>(?:(?:around|about|up to|max|maximum|roughly|under|below|"
     r"less than|no more than|between|approx|approximately) )?[£$€]?\s?\d[\d,.]*\s?(?:k|euros?|pounds?|dollars?|"
     r"quid|eur|gbp|usd|€|£)?(?: (?:and|to|or) [£$€]?\s?\d[\d,.]*\s?(?:k|euros?|pounds?|dollars?|quid)?)?)",
     lambda m: (f"User's budget is {clean(m.group('v'))}", "context", 0.75)),
    # who sent them: "Dr. Patel referred me", "my GP referred me to you"
    (r"^(?P<v>(?:(?:my|our) (?:gp|doctor|physio|dentist|therapist|consultant|midwife|vet|optician)(?: "
     r"(?-i:(?:Dr|Mr|Mrs|Ms|Prof)\.? )?(?-i:[A-Z])[\w'’-]+)?)|(?-i:(?:Dr|Mr|Mrs|Ms|Prof))\.? (?-i:[A-Z])[\w'’-]+)"
     r" (?:referred|sent) me\b",
     _text("User was referred by {v}", "context", 0.75)),
    # where they live, said with a landmark: "I live just round the corner on Elm St."
    (r"^(?:i|we) (?:currently )?live (?P<v>(?:just |right |literally )?(?:round|around|across|down|up|near|off|by|"
     r"next to|opposite|behind|on|in|at)\b[^,;!?]*?\b(?-i:[A-Z])[\w'’-]+(?:\.? (?-i:[A-Z])[\w'’-]*)*\.?)$",
     _text("User lives {v}", "location", 0.8, 12)),
    # a loss: "sadly Mochi died in the spring", "we lost our dog Rex last year"
    (r"^(?P<name>(?-i:[A-Z])[\w'’-]+) (?:sadly |recently |just |finally )?(?:died|passed away|passed on|"
     r"was put down|was put to sleep|crossed the rainbow bridge)(?P<v>(?: [^,;!?]*)?)$",
     lambda m: (f"User lost {m.group('name')}{' ' + clean(m.group('v')) if clean(m.group('v')) else ''}",
                "relationship", 0.8)),
    (r"^(?:i|we) (?:sadly |recently |just )?lost (?P<v>(?:(?:my|our) [\w ]{2,30}?|(?-i:[A-Z])[\w'’-]+)"
     r"(?: (?:last|this|in|on|a|two|three|over|at) [^,;!?]*)?)$",
     _text("User lost {v}", "relationship", 0.8)),
    # the age of someone named without saying who they are: "Rory turned 5 on Sunday" (dedup matches the name
    # against the memory that says who Rory is)
    # ("evie's just turned 6": a name typed in lower case, and "has" said short)
    (r"^(?P<name>[^\W\d_][\w-]*?)(?:'s|’s| has)? (?:just |finally )?"
     r"(?P<verb>turned|turns|is turning|turning|will be|is now) "
     r"(?P<age>\d{1,2})\b(?P<v>(?: (?:on|in|last|next|this|today|yesterday|tomorrow)\b[^,;!?]*?)?)"
     # what else they just did, said with the same subject left out: "leo's just turned 5 and started school" (the
     # clause reader knows no subject in a name typed in lower case, and leaves it on)
     r"(?P<also> and (?:has |is )?(?:just |also |now |finally )?(?:[a-z]{2,}ed|began|got|went|lost|became|"
     r"[a-z]{2,}[^s\W]s)\b[^,;!?]*)?$", _turned),
    # work done for them on a date: "i'm having a log burner fitted on 14 november", "we're getting the boiler
    # replaced next week" (a plan; without its date it is an errand)
    (rf"^{_I_OR_WE} (?:(?:also|just|finally) )?(?:having|getting) (?P<v>(?:an?|the|my|our|some|two|three|\d) "
     r"(?:[\w-]+ ){0,3}?[\w-]+ (?:fitted|refitted|installed|put in|replaced|delivered|built|done|redone|fixed|mended|"
     r"repaired|serviced|swept|removed|taken out|rewired|decorated|plastered|renovated|extended|converted|"
     r"landscaped|re-?roofed|tiled|laid|felled|cut down|knocked through|demolished|inspected|surveyed|valued|"
     r"upgraded)\b[^;!?]*)$",
     _dated("User is having {v}", "schedule", 0.75)),
    # a dated event of theirs: "my test's on the 3rd of March", "my interview is next Tuesday"
    (rf"^my (?P<ev>(?:[\w-]+ )?(?:{EVENTS_WORDS}))(?:'s|’s| is)"
     r"(?P<v> (?:on|at|in|next|this|tomorrow|tonight)\b[^,;!?]*)$",
     _dated("User has their {ev} {v}", "schedule", 0.75)),
    # a diet left: "I'm not vegan anymore btw"
    (r"^i(?:'m|’m| am) (?:not|no longer) (?:a )?(?P<v>vegan|vegetarian|veggie|pescatarian|teetotal)\b",
     lambda m: (f"User is no longer {m.group('v').lower()}", "preference", 0.8)),
    # a break-up: "we split up", "my boyfriend and I broke up"
    (r"^(?:we|i|my [\w ]{2,25}? and i) (?:just |recently |finally )?(?:split up|broke up|separated|got divorced|"
     r"called it off)\b(?P<v>[^,;!?]*)$",
     lambda m: (re.sub(r"^User split up with their partner with ", "User split up with ",  # "... with Sam": who
                       f"User split up with their partner{' ' + clean(m.group('v')) if clean(m.group('v')) else ''}"),
                "relationship", 0.75)),
    # a change of diet: "gone vegan since new year", "I've turned vegetarian"
    (r"^i(?:'ve|’ve| have)? (?:gone|went|turned|become|became) (?P<v>(?:fully |completely )?(?:vegan|vegetarian|veggie|"
     r"pescatarian|plant[- ]based|teetotal|sober|gluten[- ]free|dairy[- ]free))\b",
     lambda m: (f"User is now {clean(m.group('v')).lower()}", "preference", 0.8)),
    # what they gave up or left, said alone: "sold my motorbike", "left Deloitte in May" (entities.py joins it to
    # what they do now, said next)
    (r"^i (?:just |recently |finally )?(?P<verb>sold|left|quit|gave up) (?P<v>(?:my|our|the) (?:old )?(?:car|van|bike|"
     r"motorbike|motorcycle|scooter|house|flat|boat|caravan|job|position|company|firm|band|team|course|degree)\b"
     r"[^,;!?]*|(?-i:[A-Z])[\w&'’.-]+(?: (?-i:[A-Z])[\w&'’.-]+)*(?: (?:in|last|this|after|a|two|three) [^,;!?]*)?|"
     r"(?:my|our|the) (?:old )?[a-z][\w-]+)$",  # "sold the focus", "left the cafe": the thing, said short
     lambda m: (f"User {m.group('verb').lower()} {third_person(clean(m.group('v')))}", "personal", 0.7)),
    # what a day of the week is for: "Thursdays are rehearsal", "Wednesdays are choir night"
    (rf"^(?P<days>{_DAYS_PLURAL}(?: and {_DAYS_PLURAL})?) (?:are|is) (?:always |usually )?(?P<v>[\w' -]{{3,30}})$",
     _on_days),
    # a goal said as wanting: "I wanna learn Portuguese to talk to her parents"
    (r"^i (?:really )?(?:want|need|hope|plan|am planning|'m planning|am hoping|'m hoping|am trying|'m trying) to "
     r"(?P<verb>learn|improve|brush up on|get better at|take up|start learning|study|get back into) "
     r"(?P<v>[^,;!?]+?)(?: (?:to|so|because|for|before|as|since) [^,;!?]*)?$",
     _text("User wants to {verb} {v}", "context", 0.75, 5)),
]
BACKGROUND = [(re.compile(pattern, re.I), make) for pattern, make in BACKGROUND_TEXTS]


# what a question says of the asker: "can we switch to afternoons from now on?" (a changed preference), "which
# level should I start Dutch at?", "how much is the intensive Italian course?" (a language they want to learn)
_SWITCH_ASKED = re.compile(
    r"^(?:can|could) (?:we|i|you) (?:please )?(?:switch|move|change|swap)(?: me| us| my \w+)? (?:over )?to (?:the )?"
    r"(?P<when>(?:early |late )?(?:morning|afternoon|evening|weekend|weekday|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day)s?)(?: (?:group|class|slot|session|shift|appointment|lesson)s?)?\b",
    re.I)
_LANGUAGE_ASKED = re.compile(
    rf"\b(?P<language>{LANGUAGES})\b(?=[^?]*\b(?:course|class|classes|lessons?|level|tutor|teacher|exam)\b)|"
    rf"\b(?:course|class|classes|lessons?|level|start|learn|learning|tutor|teach)\b[^?]*?\b(?P<after>{LANGUAGES})\b",
    re.I)


def asked_facts(question: str) -> list[Made]:
    """Facts about the user that a question of theirs states (see above)."""
    out: list[Made] = []
    if m := _SWITCH_ASKED.search(question):
        when = m.group("when").lower()
        out.append((f"User prefers {when if when.endswith('s') else when + 's'}", "schedule", 0.7))
    if m := _LANGUAGE_ASKED.search(question):
        language = (m.group("language") or m.group("after")).capitalize()
        out.append((f"User wants to learn {language}", "context", 0.7))
    return out

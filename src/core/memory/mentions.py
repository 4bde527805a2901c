"""Memory extraction, facts mentioned in passing: what a sentence says of the user wherever it says it, even
inside a question or a request.

People ask for something and say who they are on the way: "can you look at my 2014 Golf?" (a car of theirs),
"any deals on flights to Accra for Christmas?" (a trip, with when), "the MOT's due in May" (a date of theirs),
"need flowers for my mum's 70th on Saturday" (a relative's day). These are searched for anywhere in the
sentence, by the shape of what is said (a possessive before a brand name, a travel word before a capitalised
place and a date), not by a clause's opening words, and each is kept once.
"""

from __future__ import annotations

import re

from avatar_service.core.memory.people import Made
from avatar_service.core.memory.vocabulary import LANGUAGES, NATIONALITIES, PETS, RELATIONS, at_most_words
from avatar_service.core.memory.wording import clean, third_person, word_set

_MONTHS = (r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
           r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?")
_DAYS = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_OCCASIONS = (r"christmas|easter|new year|half[- ]term|the holidays|the summer|the bank holiday|"
              r"(?:my|our|the|his|her|their) (?:[\w-]+ ){0,3}?(?:anniversary|birthday|honeymoon|wedding|"
              r"graduation|retirement|\d+(?:st|nd|rd|th))")
# when something happens: "on 12 March", "in October", "next week", "for Christmas", "for our anniversary"
WHEN_SAID = (rf"(?:(?:on|in|by|from|around|over|at|for|this|next|early|late|mid)[ -]){{0,2}}"
             rf"(?:(?:the )?(?:first|last|second|third|middle) (?:week|weekend|fortnight) (?:of|in) (?:{_MONTHS})\b|"
             rf"(?:the )?\d{{1,2}}(?:st|nd|rd|th)?(?: of)? (?:{_MONTHS})\b|"
             rf"(?:{_MONTHS})(?: \d{{1,2}}(?:st|nd|rd|th)?)?\b|(?:{_DAYS})s?\b|the \d{{1,2}}(?:st|nd|rd|th)\b|"
             rf"(?:week|weekend|month|year|summer|winter|spring|autumn)\b|"
             rf"(?:{_OCCASIONS})\b|tomorrow|tonight)")
_WHEN_AFTER = re.compile(rf"^(?:[\w'’-]+ ){{0,6}}?(?P<when>{WHEN_SAID}(?: \d{{1,2}}(?:st|nd|rd|th)?)?)", re.I)
# what a user's own thing is called by its maker's or model's name: "my Prius", "a used Toyota Yaris"
_BRAND = (r"(?P<thing>(?-i:(?:[A-Z]{2,4} )?(?:[A-Z][a-z]|i[A-Z])[\w-]*(?: (?!I\b)[A-Z0-9][\w-]*){0,2}|"
          r"[A-Z]{2,4}(?: [A-Z0-9][\w-]*){1,2}))")  # "Prius", "VW Polo", "BMW X3"
_THING_ADJ = (r"(?:(?:\d{4}|old|new|used|second[- ]hand|little|electric|hybrid|vintage|trusty|ancient|beloved|"
              r"ex-demo|red|blue|black|white|silver|grey|green)\b,? )*")
_NOT_THINGS = word_set(
    """mum mom dad nan gran grandma grandpa granny grandad auntie uncle mr mrs ms dr prof sir miss christmas easter
    monday tuesday wednesday thursday friday saturday sunday january february march april may june july august
    september october november december god lord instagram facebook twitter tiktok whatsapp uber year i spotify
    netflix amazon google gmail outlook zoom teams youtube linkedin snapchat ebay paypal deliveroo"""
)
_AFTER_MINE = (r"\b(?=\s*(?:$|[,.;:!?)]|-|is\b|was\b|has\b|needs\b|keeps\b|won't\b|isn't\b|makes\b|broke\b|"
               r"'s\b|’s\b|for\b|in\b|to\b|at\b|and\b|because\b|so\b|now\b|last\b|on\b|but\b|which\b|that\b))")
_POSSESSIONS = [
    re.compile(rf"\b(?:my|our) (?P<adj>{_THING_ADJ}){_BRAND}{_AFTER_MINE}", re.I),
    re.compile(rf"\b(?:bought|got|have|drive|ride|own|picked up|leased|getting|buying) (?:myself )?an? "
               rf"(?P<adj>{_THING_ADJ}){_BRAND}{_AFTER_MINE}", re.I),
    re.compile(rf"\bmine(?:'s|’s| is) an? (?P<adj>{_THING_ADJ}){_BRAND}", re.I),  # "mine's a Martin"
]
# how well they speak a language: "my Italian is pretty rusty", "my German's basic"
_LANGUAGE_LEVEL = re.compile(
    rf"\bmy (?P<what>{LANGUAGES})(?:'s|’s| is) (?P<how>(?:(?:pretty|a bit|quite|very|really|super|so|still|only) )?"
    r"(?:rusty|basic|ok|okay|decent|good|fluent|not great|not bad|poor|terrible|bad|limited|improving|"
    r"getting better|conversational|native|beginner level|intermediate))\b", re.I)


# how the user's body is: "my hair's really fine", "my skin is sensitive", "my knees are bad"
_BODY = re.compile(
    r"\bmy (?P<what>hair|skin|scalp|eyesight|eyes|hearing|back|knees?|hips?|feet|teeth|gums|nails|memory|"
    r"balance|joints)(?P<verb>'s|’s| is| are|n't| isn't| aren't| is not| are not) "
    r"(?P<how>(?:(?:really|very|quite|a bit|pretty|so|super|naturally|great|good|"
    r"getting|always been) )*(?!(?:a|an|the|my|in|at|on|not|fine now|ok|okay|done|here)\b)[a-z][\w-]+)\b", re.I)
# what a thing of theirs is: "my bike's a Specialized Allez", "my phone is an old iPhone"
_MINE_IS = re.compile(
    rf"\b(?:my|our) (?:other |old |new |first |second |main |work |family )?(?P<what>car|bike|van|motorbike|scooter|"
    rf"phone|laptop|guitar|camera|boiler|watch|piano|tv|telly|"
    rf"keyboard|console|printer|boat|caravan|washing machine|dishwasher|fridge|freezer|oven|cooker|tumble dryer|"
    rf"vacuum|hoover|mower|lawnmower|tablet|headphones|hearing aids?|wheelchair|pram|buggy|car seat|sewing machine|"
    rf"coffee machine)(?:'s|’s| is| are) an? (?P<adj>{_THING_ADJ}){_BRAND}{_AFTER_MINE}", re.I)


# "can my 15 year old come on her own?": a child said by their age
_CHILD_AGED = re.compile(
    r"\b(?:my|our) (?P<n>\d{1,2})[ -](?:year|yr)s?[ -]old(?: (?P<who>son|daughter|boy|girl|child|kid)\b)?"
    rf"(?!\s+(?:[\w-]+ )?(?:{RELATIONS}|laptop|phone|car|van|bike|boiler|house|flat|tv|fridge|sofa|bed|mattress|"
    r"computer|pc|printer|tree|roof|kitchen|bathroom|boat|caravan|watch|guitar|piano)s?\b)", re.I)


# "my 9 year old beagle is limping": a pet said by its age
_PET_AGED = re.compile(rf"\b(?:my|our) (?P<n>\d{{1,2}})[ -](?:year|yr)s?[ -]old (?P<who>(?:{PETS}|dog|cat|puppy|kitten|"
                       r"rabbit|horse|pony|parrot|hamster|tortoise|guinea pig))\b", re.I)


def _pet_aged(m: re.Match[str]) -> Made:
    return f"User has a {m.group('n')}-year-old {m.group('who').lower()}", "relationship", 0.7


def _child_aged(m: re.Match[str]) -> Made:
    return f"User has a {m.group('n')}-year-old {(m.group('who') or 'child').lower()}", "relationship", 0.7


def _body(m: re.Match[str]) -> Made:
    verb = "are" if re.search(r"(?:s|eyes|feet|teeth)$", m.group("what"), re.I) else "is"
    if re.search(r"n't|not", m.group("verb")):
        verb += " not"  # "my knees aren't great"
    return f"User's {m.group('what').lower()} {verb} {m.group('how').lower()}", "personal", 0.7


def _mine_is(m: re.Match[str]) -> Made:
    if (made := _possession(m)) is None:
        return None
    described = made[0].removeprefix("User has ")
    return f"User's {m.group('what').lower()} is {described}", "personal", 0.75


def _language(m: re.Match[str]) -> Made:
    return f"User's {m.group('what').capitalize()} is {m.group('how').lower()}", "personal", 0.75

_TRAVEL = re.compile(
    r"\b(?:flights?|fly(?:ing)?|flew|trip|road trip|holiday|vacation|honeymoon|getaway|break|travell?ing|"
    r"ferry|ferries|trains?|coach(?:es)?|tickets?|cruises?|(?:a |one |two )?(?:week|weeks|fortnight|few days|"
    r"couple of days|long weekend|nights?)(?: away)?|"
    r"going|heading|off|visiting|visit|tour(?:ing)?|cruise|weekend away) (?:to|round|around|in|across|through|"
    r"(?<=tickets )for|(?<=ticket )for) "
    r"(?P<place>(?-i:[A-Z])[\w'’-]+(?: (?:de |del |la |le )?(?-i:[A-Z])[\w'’-]+)*)(?P<rest>[^.;!?]*)", re.I)
_NOT_PLACES = word_set("I You Me My Our The A An It")
# "to go to Thailand in May": a plain "go" is a trip only with a month, a season or a holiday
_GO = re.compile(r"\b(?:(?:go|get|come|head|fly|move|drive) (?:out |over |back |down |up )?to|doing|visiting|seeing|"
                 r"booked|booking) (?P<place>(?-i:[A-Z])[\w'’-]+(?: (?-i:[A-Z])[\w'’-]+)*)(?P<rest> (?:in|for|over|at|"
                 rf"this|next|early|late|mid)[ -](?:(?:the )?(?:first|last|second|third|middle) "
                 rf"(?:week|weekend|fortnight) (?:of|in) )?(?:(?:{_MONTHS})\b|(?:spring|summer|autumn|winter|"
                 r"christmas|easter|new year|half[- ]term)\b)[^.;!?]*)", re.I)
# "needs an MOT, it's due on the 14th": what is due was named just before
_IT_DUE = re.compile(r"\b(?P<what>mot|service|check-?up|inspection|renewal|appointment|review)\b[^.;!?]*?"
                     r"\bit(?:'s|’s| is) (?P<how>due) (?P<when>(?:on|in|by|next|this) [^,;.!?]+)", re.I)
# "the MOT's due in May", "my passport is due for renewal in June", "our lease is up in March"
_DUE = re.compile(
    r"(?:\b(?:my|our|the) |^|(?<=, ))(?P<what>(?:[\w-]+ ){0,2}?[\w-]+)"
    r"(?P<how>(?:'s|’s| is| are) (?:due|booked|up|running out|"
    r"expiring|scheduled|on)| expires| runs out| ends| starts| renews|(?:'s|’s| is)(?= (?:on|in|at|next|this) ))"
    r"(?: for (?:renewal|a service|an? [\w-]+|"
    r"its [\w-]+))? "
    rf"(?P<when>(?:on |in |at |for |by |this |next |until )?(?:the )?(?:\d{{1,2}}(?:st|nd|rd|th)?(?: of)? )?"
    rf"(?:(?:{_MONTHS})\b|(?:{_DAYS})\b|next \w+|this \w+|the \d{{1,2}}(?:st|nd|rd|th)\b)[^,;.!?]*?)"
    r"(?=$|[,;.!?]| so | and | but | because | which )", re.I)
_DUE_THINGS = word_set(
    """mot service test exam appointment interview surgery operation scan op lease contract passport visa licence
    license insurance membership subscription rent deadline flight wedding anniversary birthday graduation
    party recital concert match race marathon review inspection check-up checkup renewal"""
)
# "for my mum's 70th on Saturday", "my son's birthday is next Thursday"
_RELATIVE_DAY = re.compile(
    rf"\b(?:my|our) (?P<who>(?:[\w-]+ )?(?:{RELATIONS})(?: (?-i:[A-Z])[\w-]+)?)(?:'s|’s) (?P<what>\d+(?:st|nd|rd|th)|"
    r"birthday|wedding|graduation|retirement|anniversary|christening|party)(?: (?:birthday|party))?"
    r"(?:(?: is| are)? (?P<when>(?:on|this|next|in) [^,;.!?]+?|the \d{1,2}(?:st|nd|rd|th)))"
    r"(?=$|[,;.!?]| and | so | but )", re.I)
# "the anniversary is 22 September", "our wedding is on June 14th"
_OCCASION_IS = re.compile(
    r"\b(?:my|our|the) (?P<what>(?:\d+(?:st|nd|rd|th) )?(?:wedding )?(?:anniversary|wedding|birthday|graduation|"
    r"due date|big day))(?:'s|’s| is) (?P<when>(?:on )?(?:the )?\d{1,2}(?:st|nd|rd|th)?(?: of)? "
    rf"(?:{_MONTHS})\b|(?:on |in )?(?:{_MONTHS})(?: \d{{1,2}}(?:st|nd|rd|th)?)?\b)", re.I)


def _possession(m: re.Match[str]) -> Made:
    thing = m.group("thing")
    first = thing.split()[0].lower()
    if first in _NOT_THINGS or re.fullmatch(rf"(?:{RELATIONS}|{LANGUAGES})", first, re.I) or first in NATIONALITIES:
        return None
    described = f"{m.group('adj').replace(',', '').strip()} {thing}".strip()
    article = "an" if re.match(r"[aeio]|u(?!s|ni|k)", described, re.I) else "a"
    return f"User has {article} {described}", "personal", 0.65


# "are you going to Paris?", "my sister is flying to Rome in May": someone else's trip
_OTHERS_TRIP = re.compile(r"\b(?:you|he|she|they|(?:my|our) [\w-]+(?: (?-i:[A-Z])\w+)?)"
                          r"(?:'re|’re|'s|’s| is| are| was| were)?"
                          r"(?: [\w'’-]+){0,2} $", re.I)


# "we're not going to Spain", "I read that flights to Tokyo are cheap": no plan of theirs
_NOT_PLANNED = re.compile(r"(?:\b(?:not|never|no longer)|n't|n’t)(?: [\w'’-]+){0,3} $|"
                          r"\b(?:read|heard|saw|seen|says|said|apparently|reckon)\b[^.;!?]*$", re.I)
_THEIR = re.compile(r"\b(?:your|his|her|their|(?:my|our) [\w-]+(?:'s|’s))(?: [\w-]+)? $", re.I)


def _trip(m: re.Match[str]) -> Made:
    place = m.group("place")
    before = m.string[: m.start()]
    noun = not re.match(r"(?:fly|flying|flew|travel|going|heading|off|visiting|visit|touring)\b", m.group(), re.I)
    if (_OTHERS_TRIP.search(before) and not noun) or (noun and _THEIR.search(before)) or _NOT_PLANNED.search(before) \
            or re.search(r"\b(?:was|were|went|had been)\b", m.group("rest")):
        return None
    if place.split()[0] in _NOT_PLACES or place.split()[0].lower() in _NOT_THINGS - {"easter", "christmas"}:
        return None
    when = _WHEN_AFTER.match(m.group("rest").strip())
    if not when:
        return None
    said = clean(when.group("when"))
    return f"User is planning a trip to {place} {third_person(said)}", "schedule", 0.65


def _it_due(m: re.Match[str]) -> Made:
    what = m.group("what")
    what = what.upper() if what.lower() == "mot" else what.lower()
    when = clean(m.group("when"))
    return (f"User's {what} is due {third_person(when)}", "schedule", 0.7) if at_most_words(when, 5) else None


def _due(m: re.Match[str]) -> Made:
    what = m.group("what").lower()
    if what.split()[-1] not in _DUE_THINGS:
        return None
    when = clean(m.group("when"))
    if not at_most_words(when, 6):
        return None
    thing = m.group("what")
    how = re.sub(r"^(?:'s|’s| is| are) ", "is ", m.group("how").strip()).lower()
    return f"User's {thing} {how} {third_person(when)}", "schedule", 0.7


def _relative_day(m: re.Match[str]) -> Made:
    when = clean(m.group("when"))
    if not at_most_words(when, 5):
        return None
    who = " ".join(w if w[:1].isupper() and i else w.lower() for i, w in enumerate(m.group("who").split()))
    return f"User's {who}'s {m.group('what').lower()} is {when}", "relationship", 0.7


def _occasion(m: re.Match[str]) -> Made:
    return f"User's {m.group('what').lower()} is {clean(m.group('when'))}", "schedule", 0.7


_SEARCHES = [(_MINE_IS, _mine_is), *((p, _possession) for p in _POSSESSIONS), (_LANGUAGE_LEVEL, _language),
             (_BODY, _body), (_CHILD_AGED, _child_aged),
             (_PET_AGED, _pet_aged), (_TRAVEL, _trip), (_GO, _trip), (_IT_DUE, _it_due),
             (_DUE, _due), (_RELATIVE_DAY, _relative_day), (_OCCASION_IS, _occasion)]


def mentioned(text: str) -> list[tuple[str, str, float, str]]:
    """The facts a sentence mentions in passing (see the module docstring), first said first, each with the
    words it is about ("Prius", "Osaka"): a fact a rule already made about them is not made again."""
    out: list[tuple[int, tuple[str, str, float, str]]] = []
    for pattern, make in _SEARCHES:
        for m in pattern.finditer(text):
            if _unreal_before(text, m.start()) or (pattern in _POSSESSIONS[1:] and _WANTED.search(text[: m.start()])):
                continue
            if made := make(m):
                about = next(m.group(g) for g in ("thing", "place", "what", "who") if g in m.groupdict())
                if not any(about in said[3] for _, said in out):  # "my bike's a Trek" is not also "has a Trek"
                    out.append((m.start(), (*made, about)))
    return [made for _, made in sorted(out, key=lambda pair: pair[0])]


# "if I had a Tesla", "my friend's Golf", "you said my Prius": not the user's
_UNREAL = re.compile(r"\b(?:if|imagine|suppose|pretend|wish|dream|would|someday|one day|friend's|friend’s|"
                     r"neighbour's|neighbor's)\b[^.;!?]*$", re.I)


# "I'd love to have a Tesla", "thinking of getting a Mini": not theirs yet
_WANTED = re.compile(r"\b(?:i'd|i’d|we'd|we’d|want|wants|wanted|hope|hoping|thinking of|considering|might|maybe|"
                     r"looking (?:at|for)|need|saving (?:up )?for)\b[^.;!?]*$", re.I)


def _unreal_before(text: str, at: int) -> bool:
    return bool(_UNREAL.search(text[:at]))

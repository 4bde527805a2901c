"""What kind of answer a question asks for, and whether a sentence holds one: a time for "when", a price
for "how much", a place for "where", a person for "who", a number for "how many", a phone number or an
email for "how do I reach you"; and whether a sentence's days or months are the ones asked of ("on Sundays?").
The ages a question is about, and the age limits a sentence states, are `age_limits`."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from avatar_service.adapters.dialogue.everyday_phrases import COST_IDIOMS

_WEEKDAYS = ("mon", "tues", "wednes", "thurs", "fri", "satur", "sun")
_DAY = rf"(?:{'|'.join(_WEEKDAYS)})days?"
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
_MONTH = rf"(?:{'|'.join(_MONTHS)})"
_HOLIDAY = r"(?:New Year|Christmas|Easter|Boxing Day|Good Friday)\b"  # (no place: "to New Year's Day")
NUMBER_WORD = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred)"

# the second word of a place's name, which no person's has ("Eaton Park", "Hewett Academy")
_PLACE_NOUN = (r"(?-i:Park|Road|Street|Lane|Avenue|Academy|School|College|University|Centre|Center|Hall|Farm|Estate|"
               r"Square|Station|Church|Bridge|Hill|Green|Way|Close|Drive|Court|House|Market|Council|League|Club|"
               r"Hospital|Library|Museum|Gardens?|Common|Castle|Abbey|Cathedral|Leisure|Sports)")
_POSTCODE = r"(?-i:\b[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}\b)"  # ("HG1 4LG", "SN2 1DZ")
# a postal address: a postcode or a number on a street ("14 Skipton Road")
ADDRESS = re.compile(rf"{_POSTCODE}|\b\d+[a-z]? (?:[A-Z][a-z]+ )+"
                     r"(?:Road|Street|Lane|Avenue|Way|Close|Drive|Place|Row|Square|Terrace|Gate|Parade)\b")
HOLDS = {
    # a time of day: "5pm", "18:30", "midnight" (what "what time do you close?" asks, not "closed on 25 December")
    "clock": re.compile(r"\b\d{1,2}(?::\d\d)?\s?(?:am|pm|a\.m\.|p\.m\.)|(?<![£$€])\b\d{1,2}[:.]\d\d\b|"
                        r"\b(?:midnight|noon|midday)\b", re.I),
    # a day: "on Tuesdays", "at weekends", "every day", "on 12 June" (what "which day does it run?" asks)
    "day": re.compile(rf"\b(?:{_DAY}|weekdays?|weekends?|daily|every day|bank holidays?|(?:seven|7) days a week)\b|"
                      rf"\b\d{{1,2}}(?:st|nd|rd|th)? (?:of )?{_MONTH}\b", re.I),
    "time": re.compile(
        rf"\b\d{{1,2}}(?::\d\d)?\s?(?:am|pm|a\.m\.|p\.m\.)|\b\d{{1,2}}:\d\d\b|\b(?:midnight|noon|daily|weekdays?|"
        rf"weekends?|mornings?|evenings?|{_DAY}|{_MONTH}|today|tomorrow)\b|\b\d{{1,2}}(?:st|nd|rd|th)\b|"
        rf"\b(?:\d+|{NUMBER_WORD})\s(?:minutes?|hours?|days?|weeks?)\b|"
        r"\b(?:in|since|from|until|of) (?:1[89]|20)\d\d\b|\b(?:due|payable|paid) (?:when|on|before|after|at)\b|"
        r"\bon (?:arrival|collection|booking|departure)\b|\bwhen (?:we|you|they) (?!can\b|may\b)[a-z]+\b",
        re.I),
    "price": re.compile(rf"\b(?:\d+(?:[.,]\d\d)?|{NUMBER_WORD})\s?(?:euros?|eur|dollars?|pounds?|usd|gbp|francs?)\b|"
                        r"[€$£]\s?\d|\b\d{1,3}p\b|\bfree\b|\bno charge\b|"  # (and pence: "10p per side")
                        r"\bhalf[- ]price\b|\b\d+ ?(?:cents?|pence)\b|"
                        # ("fares are time and a half", "on Christmas Day fares are double")
                        r"\btime and a half\b|\b(?:double|triple) (?:the )?(?:fare|price|rate)s?\b|"
                        r"\b(?:fares?|prices?|rates?|charges?|fees?) (?:are|is) double\b|"
                        r"\b\d+ ?%(?! of\b)|"  # ("a deposit of 25%", "50% extra"; "90% of students" is none)
                        # an amount in another price ("a holding deposit of one week's rent", "30 times the rent")
                        rf"\b(?:\d+|{NUMBER_WORD}|an?) (?:week|month|night|day|year)s?['’]s? (?:rent|fee|pay|wages?)\b|"
                        r"\b\d+ times the (?:\w+ )?(?:rent|fee|price)\b", re.I),
    # a preposition and a name that is not a day or a month ("at Birch Lane", not "to Friday"), or a place word
    "place": re.compile(rf"(?<!^)\b(?:at|on|in|to|near) (?!{_DAY}\b|{_MONTH}\b|{_HOLIDAY})(?-i:[A-Z])\w+|"
                        r"\b(?:street|road|lane|avenue|square|piazza|row|yard|quay|"
                        r"via|plaza|floor|station|next to|behind|opposite|in front of|located|corner|above|below|"
                        r"beside)\b|\b\d+[a-z]? (?-i:[A-Z])[a-z]+ (?-i:[A-Z])[a-z]+|"
                        # an address: a unit, an estate, a postcode ("Unit 4, Hawksworth Trading Estate, SN2 1DZ")
                        rf"\b(?:unit \d|trading estate|industrial estate|business park|retail park)|{_POSTCODE}|"
                        # ("you work night shifts at the hospital"; not "at the weekend")
                        r"\bat the (?!(?:time|end|start|moment|weekend|same|latest|earliest|least|most|beginning)\b)"
                        r"[a-z]+", re.I),
    "person": re.compile(r"\b(?:Dr|Mr|Mrs|Ms|Prof)\.? (?-i:[A-Z])|"
                         r"\b(?:wife|husband|partner|son|daughter|sister|brother|mum|mother|dad|father|friend|"
                         r"colleague|boss|grandson|granddaughter|niece|nephew|aunt|uncle|cousin|fianc[eé]e?|boyfriend|"
                         r"girlfriend) (?:is (?:called|named) )?(?-i:[A-Z])[a-z]+|(?<!^)(?<![.!?] )\b(?-i:[A-Z][a-z]+) "
                         rf"(?!{_PLACE_NOUN}\b)(?-i:[A-Z][a-z]+)|\b(?:chef|manager|curator|mechanic|surgeon|owner|director|doctor|vet|"
                         r"nurse|attendant|receptionist|pharmacist|instructor|coach|teacher|dispenser),? "
                         r"((?-i:[A-Z])[a-z]*)|"  # ("our chef, Andy": the name, the group)
                         # a sentence that opens with someone who does something ("Alex Kerr does all repairs")
                         r"^(?-i:[A-Z][a-z]+) (?-i:[A-Z][a-z]+)(?= (?:does|do|runs|teaches|takes|looks|handles|owns|"
                         r"leads|works|covers|sees|manages|gives|fits|trains|coaches|is our|is the)\b)"),
    "number": re.compile(rf"\b\d+(?:[.,]\d+)?\b|\b{NUMBER_WORD}\b", re.I),
    # how often: "every four weeks", "twice a year", "weekly"
    "frequency": re.compile(rf"\bevery (?:(?:\d+|{NUMBER_WORD}|other|few|couple of) )?(?:days?|weeks?|fortnights?|"
                            r"months?|years?|mornings?|evenings?|nights?)\b|"
                            r"\b(?:once|twice|\w+ times) (?:a|an|per|each)\b|"
                            r"\b(?:daily|weekly|fortnightly|monthly|yearly|annually)\b", re.I),
    # an age or an age limit: "21 years old", "aged 3", "under 18", "over 65", "18+"
    "age": re.compile(r"\b\d{1,3}[ -]years?[ -]olds?\b|\bage[ds]? \d|\b(?:under|over|below|above|from|at least)[ -]"
                      r"\d{1,2}(?:s\b|\b(?![.:]\d|\s?(?:am|pm|euros?|minutes|hours|km|%)))|\b\d{1,2}\+|"
                      r"\b(?:is|are|turned|turns|turning) \d{1,3}\b(?!\s?(?:am|pm|euros?|pounds?|minutes|hours|km|%))|"
                      rf"\bis {NUMBER_WORD}(?= and an? half\b|\s*(?:[.,;!?]|$))|\b\d{{1,2}}[ -]months?[ -]old\b|"
                      r"\b(?:start|begin|join)s? (?:at|from) \d{1,2}\b(?![.:]?\d|\s?(?:am|pm|o'clock))|"
                      r"\d-year-olds\b|"
                      r"\b(?-i:[A-Z])[a-z]+, \d{1,2}(?=,| and\b|\.?$)", re.I),  # "Ellie, 9, and Oscar, 14"
    # (or a length: "how long is the pool?" / "25 metres long"; "two and a half hours", "an hour and a quarter")
    "duration": re.compile(rf"\b(?:\d+|{NUMBER_WORD}|a|an|half an?)(?: and an? (?:half|quarter))?[ -]"
                           r"(?:(?:working|business|school|full|clear) )?(?:minutes?|"
                           r"hours?|days?|weeks?|months?|"
                           r"years?|metres?|meters?|km|kilometres?|miles?|feet|foot|yards?)\b", re.I),
    # a size: "a 6-yard skip", "a 30-litre bag", "size 10", "king-size", "a large veg box" (not "small groups")
    "size": re.compile(r"\b\d+(?:[.,]\d+)?[ -]?(?:yards?|yd|metres?|meters?|m|cm|mm|inch(?:es)?|ft|foot|feet|litres?|"
                       r"liters?|seaters?|berths?|tonnes?|gallons?)\b|\bsize \d|"
                       r"\b(?:king|queen|double|single)[ -]size\b|"
                       r"\b(?:extra[ -])?(?:small|medium|large|regular)\b(?! (?:groups?|numbers?|amounts?)\b)", re.I),
    # a distance: "about 8 miles", "20 km", "a 10-minute walk", "two miles away"
    "distance": re.compile(rf"\b(?:\d+(?:[.,]\d+)?|{NUMBER_WORD}|a|half a)[ -]?(?:miles?|km|kilomet(?:re|er)s?|"
                           r"metres?|meters?|m|feet|foot|ft|yards?|minutes?'?s? (?:walk|drive|ride))\b", re.I),
    "temperature": re.compile(r"\b\d+(?:[.,]\d+)?\s?(?:°\s?[CF]?|degrees?)(?!\w)", re.I),  # ("capped at 40°C")
    "contact": re.compile(r"\+?\d[\d ()-]{6,}\d|\b[\w.+-]+@[\w-]+\.[\w.]+", re.I),
    "name": re.compile(rf"(?<!^)\b(?!{_DAY}\b|{_MONTH}\b)(?-i:[A-Z])[a-z]+", re.I),  # (a day or a month is no name)
    # a job: "works as a nurse", "you are a freelance illustrator", "a teacher at..." (a name is none: "is a Vaillant")
    "occupation": re.compile(r"\b(?:work|works|worked|working|job)\b[\w -]{0,20}? as an? \w+|"
                             r"\b(?:am|are|is|was|were) (?:an?|the) (?:[\w-]+ ){0,2}"
                             r"(?:(?-i:[a-z])\w*(?:er|or|ist|ian|ant|ent|eon|ic|man|woman)|"
                             r"nurse|midwife|chef|cook|doctor|lawyer|pilot|clerk|engineer|medic|vet|GP|architect|barista|nanny|vicar)\b|"
                             r"\b(?:teach|teaches|taught|run|runs|own|owns) (?:an? |the |their |your )?\w+", re.I),
    # an enumeration of three or more short items: "small city cars, estate cars, vans and electric cars"
    # (or what a thing includes: "tickets are £25 and include a festival glass and three drinks tokens")
    "list": re.compile(r"\b(?:[\w-]+ ){0,2}[\w-]+, (?:[\w-]+ ){0,2}[\w-]+,? (?:and|or) [\w-]+|"
                       r"\binclude[sd]? (?:an? |the |your )?[\w-]+(?: [\w-]+)? and\b", re.I),
}

# (a battery's charge is no price: "it isn't holding its charge", "how long does a full charge last?")
_CHARGE = r"(?<!\bits )(?<!\bhold a )(?<!\bholding a )(?<!\bholds a )(?<!\bfull )charges?"
_PRICE_NOUNS = r"(?:money|cash|more|extra|altogether|overall|in total|each|per|for|it|that|this|they|these|those)"
_WANTS = [
    # (not "what phone have I got?", "which phone do you fix?": the device)
    ("contact", re.compile(r"\b(?<!what )(?<!which )(?:phone|telephone|call|email|e-mail|contact|reach)\b|"
                           r"\bring (?:you|us)\b|\bnumber to (?:ring|call|phone|text)\b|"
                           r"\b(?:what|which|a|the|any) number (?:(?:do|should|can|could|would) (?:i|we)|"
                           # ("is there a number i can ring?")
                           r"(?:i|we) (?:can|could|should)) (?:ring|call|phone|text)\b|"
                           # "what's your number?", "what's hannah's number?" (not "my number", "the number of")
                           r"\b(?:your|their|(?!my\b|our\b)\w+'s) (?:mobile |landline |office )?number\b(?! of\b)|"
                           r"\b(?:mobile|landline) number\b|(?<!you to )\bget (?:hold of|in touch with) (?:you|us)\b",
                           re.I)),
    # "how much notice/clay/time" asks for an amount of something else ("how much to do..." a price); "per month"
    # asks what it costs a month
    ("price", re.compile(rf"\bhow much\b(?!\s+(?:room|space)\b)"
                         rf"(?!\s+(?!{_PRICE_NOUNS}\b|to\b)[a-z]+\s+(?:do|does|did|is|are|will|would|can|"
                         rf"should|must|have|has|of|in|to)\b)|\b(?:cost|costs|price|prices|fee|fees|{_CHARGE}|"
                         rf"pay|cheaper|cheapest|pricier|dearer|dearest|expensive|discounts?)\b|{COST_IDIOMS}|"
                         r"\b(?:what|which) (?:sort|kind) of money\b|"
                         r"\b(?:is there|do (?:you|i|we) (?:take|need|have to pay|pay|ask for)) an? (?:\w+ )?deposit\b|"
                         r"\b(?:is|are|would|will) (?:that|it|this|they|those) (?:be )?extra\b",
                         re.I)),
    # ("when do you shut?" asks the hour, not "closed on Mondays")
    ("clock", re.compile(r"\bwhat time\b|\buntil when\b|\bwhat (?:are )?(?:your |the )?(?:opening )?"
                         r"hours\b|\bopening hours\b|\bwhat times\b|"
                         r"\bwhen (?:do|does|will) (?:you|they|it|the \w+) (?:open|close|shut)\b", re.I)),
    # ("when" opens the question or a clause of it, or asks indirectly: "do you know when..."; "how do I like to be
    # told when he's ready?" asks how, "when he's ready" only says in which case)
    ("time", re.compile(r"(?:^\W*|[,;:.!?]\s*|\b(?:and|so|but|then|okay|ok|right|know|tell me|remind me|idea|sure|"
                        r"say|said|ask|wondering|wonder|find out|check)\s+)when\b|\bwhat time\b|"
                        r"\bhow (?:late|early)\b|\b(?:until|till|til) when\b|\bwhat hours\b|"
                        r"\bthe (?:latest|earliest)\b|\bopening hours\b|\b(?:open|(?<!how )close|closes|opens)\b|"
                        r"\bdeadline\b|"
                        r"\b(?:what|which) (?:days?|dates?|months?|nights?|evenings?|mornings?)\b|"
                        r"\bhow long have (?:you|they|it|the \w+) been\b", re.I)),  # ("since 1962")
    ("day", re.compile(r"\b(?:what|which) days?\b(?! (?:time|and time))", re.I)),
    ("place", re.compile(r"\bwhere(?:abouts)?\b|\baddress\b|\blocated\b|\bbased\b|\bsituated\b", re.I)),
    ("person", re.compile(r"\bwho\b|\bwhose\b", re.I)),
    ("age", re.compile(r"\bhow old\b|\b(?:what|which) ages?\b|\bminimum age\b|\bage limit\b", re.I)),
    # ("how quickly can someone get to me?" / "within 45 minutes")
    ("duration", re.compile(r"\bhow (?:long|quick|quickly|soon|fast)\b|\bfor how many (?:days|weeks|months|hours)\b|"
                            r"\bhow much (?:notice|warning|time)\b", re.I)),  # ("a full month's notice")
    ("frequency", re.compile(r"\bhow (?:often|regularly)\b|\bhow many times\b", re.I)),
    ("size", re.compile(r"\b(?:what|which) sizes?\b|\bhow much (?:room|space)\b", re.I)),  # ("15ft by 15ft")
    ("temperature", re.compile(r"\bhow (?:hot|warm|cold)\b|\bwhat temperature\b", re.I)),
    # (not "how far ahead should I book?", "how far along am I?": a time)
    ("distance", re.compile(r"\bhow far\b(?! ahead\b| in advance\b| along (?:did|do|are|am|is|was|were|will|would)\b|"
                            r" (?:are|is|am|was) (?:you|i|she|he|they|we) along\b)|\bhow (?:close|near)\b", re.I)),
    ("number", re.compile(r"\bhow (?:many|far|big|tall|much)\b|\bthe (?:furthest|farthest)\b", re.I)),
    # (and which one of its kind a thing of the user's is: "what car have I got?" / "you drive a Vauxhall Astra")
    ("name", re.compile(r"\bname\b|\bcalled\b|\b(?:what|which) (?:make of |model of |kind of |breed of )?"
                        r"(?:car|van|bike|phone|laptop|boat|caravan|dog|cat|horse) (?:have|do|did) i "
                        r"(?:got|have|drive|own|ride)\b", re.I)),
    ("occupation", re.compile(r"\bfor a living\b|\bmy (?:job|occupation|profession|line of work)\b|"
                              r"\bwhat (?:(?:do|did) )?i do (?:for work|for my job)\b|\bwhat do i work as\b", re.I)),
    ("list", re.compile(r"\b(?:what|which) (?:kinds?|sorts?|types?) of\b(?! (?:money|price|cost)\b)|"  # (a price)
                        r"\bwhat(?:'s| does| do| is) (?:.{1,40}? )?"
                        r"(?:include|included|cover)\b|"
                        r"\bwhat (?:\w+ )?(?:do|can) you (?:offer|sell|teach|rent|serve|treat|stock)\b|"
                        r"\bwhat (?!(?:time|day|hour|size|age|price|date)s?\b)\w+s (?:do|can) you "
                        r"(?:do|make|cook|bake)\b|"
                        r"\bwhat (?:do|does|would|will) (?:i|we|you|they|he|she|it) get (?:for|with)\b", re.I)),
]
_PER_UNIT = re.compile(r"\bper (?:month|week|day|night|hour|year|person|head|session|lesson|class)\b", re.I)
_PAY_HOW = re.compile(r"\bpay(?:ing)? (?:(?:for \w+(?: \w+){0,3}? )?(?:by|with|in|using|via|through|over|online|"
                      r"monthly|upfront|up front|later|cash|card|contactless))\b|"
                      r"\bhow (?:do|can|could|should|would|will) (?:i|we) pay\b", re.I)  # "how do I pay you?": by what
_PRICE_ASKED = re.compile(rf"\bhow much\b|\bcosts?\b|\bprices?\b|\bfees?\b|\b{_CHARGE}\b", re.I)
_HOW_MANY = re.compile(r"\bhow (?:many|far|big|tall|often)\b", re.I)
_CONTACT_ASKED = re.compile(r"\b(?:number|email|e-mail|address)\b", re.I)
_YES_NO = re.compile(r"^\s*(?:and\s+)?(?:is|are|am|was|were|do|does|did|can|could|may|will|would|should|have|has)\b",
                     re.I)


def wanted(question: str) -> list[str]:
    """The kinds of answer the question asks for, most specific first (may be empty)."""
    kinds = [kind for kind, pattern in _WANTS if pattern.search(question)]
    if _PER_UNIT.search(question) and not kinds:  # "what's the membership per month?"
        kinds.append("price")
    if "time" in kinds and ("day" in kinds or "clock" in kinds):
        kinds.remove("time")  # "which day?", "what time do you close?": a day, an hour, not "closed on 25 December"
    if "price" in kinds and (_PAY_HOW.search(question) or {"duration", "time"} & set(kinds)) and \
            not _PRICE_ASKED.search(question):
        kinds.remove("price")  # "can I pay by card?", "how long have I got to pay?", "when do I pay?" ask how or when
    if "number" in kinds and ({"contact", "size", "duration", "distance"} & set(kinds) or
                              ("price" in kinds and not _HOW_MANY.search(question))):
        kinds.remove("number")  # "how much is it?" asks a price, not any number; "how much room?" a size
    if "contact" in kinds and ("time" in kinds or "clock" in kinds) and not _CONTACT_ASKED.search(question):
        kinds.remove("contact")  # "when can I ring you?" asks the hours of the line, not its number
    return kinds


def is_yes_no(question: str) -> bool:
    return bool(_YES_NO.match(question)) and not _ASKS_FOR_CONTACT.match(question)


# "is there a number i can ring?", "have you got an email address?": asks for it, not whether there is one
_ASKS_FOR_CONTACT = re.compile(r"^\W*(?:is there|have you got|do you have|has \w+ got) (?:a|an|any) (?:phone |mobile |"
                               r"landline |contact )?(?:number|email|e-mail)\b", re.I)


def holds(sentence: str, kinds: Sequence[str]) -> bool:
    return any(HOLDS[kind].search(read_for(kind, sentence)) for kind in kinds)


def read_for(kind: str, sentence: str) -> str:
    """The sentence as a kind of answer is read in it: a count in its numbers that count things (`counts_only`)."""
    return counts_only(sentence) if kind == "number" else sentence


@functools.lru_cache(maxsize=16384)  # (read of every candidate in a ranking that asks how many)
def counts_only(sentence: str) -> str:
    """The sentence without the numbers that count no things: times of day, prices, ages, dates ("how many kids are
    in each class?" is not answered by "our class for 4 to 6 year olds, on Saturdays from 9am")."""
    return _NO_COUNT.sub(" ", sentence)


_NO_COUNT = re.compile(rf"{HOLDS['clock'].pattern}|{HOLDS['price'].pattern}|"
                       rf"\b\d{{1,2}}\s?(?:-|–|to|and)\s?\d{{1,2}}[ -]years?[ -]olds?\b|"
                       r"\b\d{1,3}[ -]years?[ -]olds?\b|\baged? \d{1,2}(?:\s?(?:-|–|to|and)\s?\d{1,2})?\b|"
                       r"\b(?:under|over)[ -]\d{1,2}s?\b(?! (?:[a-z]+s|people|guests)\b)|"
                       rf"\b\d{{1,2}}(?:st|nd|rd|th)? (?:of )?{_MONTH}\b|\b(?:19|20)\d\d\b", re.I)


_WEEKDAY = re.compile(rf"\b({'|'.join(_WEEKDAYS)})days?\b", re.I)
_DAY_RANGE = re.compile(rf"\b({'|'.join(_WEEKDAYS)})days? ?(?:to|till|until|through|-|–) ?"
                        rf"({'|'.join(_WEEKDAYS)})days?\b", re.I)


_WEEK_PARTS = re.compile(r"\b(?:on |at |during (?:the )?)(week ?days?|week ?ends?)\b", re.I)


def names_weekday(sentence: str) -> bool:
    return bool(_WEEKDAY.search(sentence) or _WEEK_PARTS.search(sentence))


def opens_with_a_day(part: str) -> bool:
    """A part of a sentence that is only more days of a list ("..., and Saturday 9am to 12pm")."""
    return bool(_OPENS_WITH_A_DAY.match(part))


_OPENS_WITH_A_DAY = re.compile(rf"^\W*(?:on |from )?{_DAY}\b", re.I)


def spans_days(sentence: str) -> bool:
    """Days given as a span ("Tuesday to Saturday", "on weekdays"), which hold the days inside them unnamed."""
    return bool(_DAY_RANGE.search(sentence) or _WEEK_PARTS.search(sentence))


def on_the_day(question: str, sentence: str) -> bool | None:
    """Whether the one weekday a question names ("do you run games on a Tuesday?") is among the days the sentence
    gives, one by one or as ranges ("from Wednesday to Sunday", ranges that wrap the week too): None when either
    names none."""
    asked = {m.group(1).lower() for m in _WEEKDAY.finditer(question)}
    named = {m.group(1).lower() for m in _WEEKDAY.finditer(sentence)}
    for part in _WEEK_PARTS.findall(sentence):  # "on weekdays" is Monday to Friday, "at weekends" the other two
        named |= set(_WEEKDAYS[5:] if "end" in part.lower() else _WEEKDAYS[:5])
    if len(asked) != 1 or not named:
        return None
    day = _WEEKDAYS.index(next(iter(asked)))
    ranges = list(_DAY_RANGE.finditer(sentence))
    for m in ranges:
        start, end = _WEEKDAYS.index(m.group(1).lower()), _WEEKDAYS.index(m.group(2).lower())
        if (day - start) % 7 <= (end - start) % 7:
            return True
    if any(_ONLY.search(sentence, max(0, m.start() - 30), m.start()) for m in ranges):
        return False  # "can only be booked Monday to Thursday, because Friday is show day": not on a Friday
    return asked <= named


_ONLY = re.compile(r"\bonly\b", re.I)
_MONTH_NAME = re.compile(rf"\b({_MONTH})\b", re.I)
# ("may" is a month only beside another: "from May to September", not "you may bring"; with the days or not)
_DATE = r"(?:(\d{1,2})(?:st|nd|rd|th)? )?"
_MONTH_RANGE = re.compile(rf"\b(?:from |between )?{_DATE}({_MONTH}) (?:to|till|until|through|and|-|–) (?:the end of )?"
                          rf"{_DATE}({_MONTH})\b", re.I)


def in_the_months(question: str, sentence: str) -> bool | None:
    """Whether the one month a question names ("could I get a bbq box in October?") is inside the month range a
    sentence gives ("only sold from May to September", ranges that wrap the year too): None when either names
    none."""
    asked = {m.group(1).lower() for m in _MONTH_NAME.finditer(question)} - {"may"}
    ranges = _MONTH_RANGE.findall(sentence)
    if len(asked) != 1 or not ranges:
        return None
    month = _MONTHS.index(next(iter(asked)))
    # (a month a range starts or ends in part of, "from 15 March to 2 November", is neither in it nor out of it)
    if any((month == _MONTHS.index(a.lower()) and start not in ("", "1")) or
           (month == _MONTHS.index(b.lower()) and end and int(end) < 28) for start, a, end, b in ranges):
        return None
    return any((month - _MONTHS.index(a.lower())) % 12 <= (_MONTHS.index(b.lower()) - _MONTHS.index(a.lower())) % 12
               for _, a, _, b in ranges)

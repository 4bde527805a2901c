"""Memory extraction, second pass: a clause said in everyday word order is read again in the order the rules
expect, and a few general frames cover what people say about themselves in other ways.

Variants of a clause, tried in turn until a rule yields a fact (the clause as said comes first):

- a time said first goes last: "Last month I moved to Marseille" -> "I moved to Marseille last month";
  "On Tuesday evenings I play the violin" -> "I play the violin on Tuesday evenings";
- a time or "now" said last that no rule expects is dropped: "Green is my favourite colour now";
- so is a short afterthought: "I started a pottery class, really enjoying it";
- "we" speaks for the user's household: "We're renovating our kitchen" -> "I'm renovating our kitchen";
- two things done by one subject: "We packed up and moved to York" -> "I moved to York".

Frames: relation frames anchored at the user ("I ..."), each a pattern and the fact it makes, the way the
rules in rules.py are written: having lived somewhere for a while, health and allergies said as nouns,
fears, life events (getting married, expecting a baby, retiring, passing a test), giving something up or
switching, things that are or are not "my thing", and relatives in the past tense ("my grandfather was a
fisherman").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from avatar_service.core.memory.people import Made, relation
from avatar_service.core.memory.vocabulary import (
    CHAT_OBJECTS,
    HOMES,
    NOT_PLACES,
    REL_MOD,
    RELATIONS,
    TIME_WORDS,
    TITLED_NAME,
    V,
    at_most_words,
)
from avatar_service.core.memory.wording import clean, predicate, third_person

_MONTHS = r"january|february|march|april|may|june|july|august|september|october|november|december"
_DAYS = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_PERIOD = rf"week|weekend|month|year|spring|summer|autumn|fall|winter|{_DAYS}|{_MONTHS}"
# a time phrase as people open a sentence with it
_TIME = (rf"(?:last|next|this|every) (?:{_PERIOD})|(?:yesterday|tomorrow|today|tonight)|"
         rf"on (?:(?:{_DAYS})s?|weekends?)(?: (?:mornings?|afternoons?|evenings?|nights?))?|"
         rf"in (?:\d{{4}}|{_MONTHS}|the (?:spring|summer|autumn|fall|winter))|"
         r"(?:a|one|two|three|a few|some) (?:days|weeks|months|years) ago|(?:these days|nowadays|lately)|"
         rf"since (?:\d{{4}}|{_MONTHS}|last (?:{_PERIOD})|the (?:spring|summer|autumn|fall|winter)|"
         r"(?:my|our|the) [\w'’-]+(?: [\w'’-]+){0,3}?)")
_LEADING_TIME = re.compile(rf"^(?P<time>{_TIME}),?\s+(?P<rest>(?:i|i'm|i’m|i've|i’ve|we|we're|we’re|my|our)\b.*)$",
                           re.I)
_TRAILING_NOW = re.compile(r",?\s+(?:now|these days|nowadays|at the moment|right now|anymore|any more)$", re.I)
_WE = [(re.compile(r"^(?:my|our) [\w ]{2,30}? and i(?= )", re.I), "we"),  # "my husband Mark and I just moved"
       # (not "we're called the Pin Pals": the name of a team or a band is not the user's)
       (re.compile(r"^we(?:'re|’re| are)\b(?! (?:called|named|known as)\b)", re.I), "i'm"),
       (re.compile(r"^we(?:'ve|’ve| have)\b", re.I), "i've"),
       (re.compile(r"^we\b(?!'re|’re| are\b)", re.I), "i")]
# "I've just moved to Leeds" -> "I just moved to Leeds", "I've got two kids" -> "I have two kids"; "our" -> "my"
_PERFECT = re.compile(r"^i(?:'ve|’ve| have) (?P<adv>(?:only |just |recently |finally |now |also )*)"
                      r"(?P<verb>(?!need|feed|bleed|seed)\w{2,}ed|got|had|bought|broken|begun|become|found|made|taken|left|"
                      r"quit|given up)\b", re.I)
_OUR = re.compile(r"^our\b", re.I)
# a few words of how the user feels about it, after a comma: "started a pottery class, really enjoying it", "only
# just learning to swim, bit embarrassing". No subject, name, number or preposition of its own: it adds nothing a
# rule reads, and kept on the end it stops the rules that read to the end of the clause
_AFTERTHOUGHT = re.compile(r"(?<=\w{2}),\s+(?!(?:and|but|or|so|in|at|on|near|with|from|to|for|by|of|the|a|an|my|our|"
                           r"i|we|he|she|they|it|which|who|because|since|as|if|when|then|where|not|no|both|all|"
                           r"especially|except|apart|plus|also|though)\b)(?:[a-z'’-]+ ){0,3}[a-z'’-]+$")
# "I've been vegetarian for 10 years" -> "I'm vegetarian"
_BEEN_FOR = re.compile(r"^i(?:'ve|’ve| have) been (?P<state>(?!\w+ing\b)[^,;!?]+?) (?:(?:for|since) [^,;!?]+|"
                       r"(?:\d+|a few|a couple of|two|three|four|five|ten) (?:years|months|weeks|days)(?: now)?)$",
                       re.I)
# "we packed up and moved to York", "I quit my job and started a bakery": the second doing, same subject
_TWO_DOINGS = re.compile(r"^(?P<subject>i|we) (?:just |finally |recently )?[\w'’]+(?: [\w'’]+){0,2}? and "
                         r"(?P<rest>(?:then |now |just |finally )?\w+ed\b.*)$", re.I)


def variants(clause: str) -> Iterator[str]:
    """The clause as said, then the same clause in the word order the rules read (see the module doc)."""
    seen: set[str] = set()
    # a closing "now" only says the fact is current ("I'm a bank manager now"): read without it first
    queue = [_TRAILING_NOW.sub("", clause), clause]
    while queue:
        text = queue.pop(0).strip()
        key = text.casefold()
        if not text or key in seen:
            continue
        seen.add(key)
        yield text
        if m := _LEADING_TIME.match(text):
            time = m.group("time")
            queue.append(f"{m.group('rest')} {time[:1].lower()}{time[1:]}")
        if (trimmed := _TRAILING_NOW.sub("", text)) != text:
            queue.append(trimmed)
        if (said := _AFTERTHOUGHT.sub("", text)) != text and len(said.split()) >= 3:
            queue.append(said)
        for pattern, replacement in _WE:
            if pattern.match(text):
                queue.append(pattern.sub(replacement, text, count=1))
                if replacement != "we":
                    break
        if m := _PERFECT.match(text):
            verb = "have" if m.group("verb").lower() == "got" else m.group("verb")
            queue.append(f"i {m.group('adv')}{verb}{text[m.end():]}")
        if m := _BEEN_FOR.match(text):
            queue.append(f"i'm {m.group('state')}")
        if _OUR.match(text):
            queue.append(_OUR.sub("my", text, count=1))
        if m := _TWO_DOINGS.match(text):
            queue.append(f"{m.group('subject')} {m.group('rest')}")


_NOTHING = re.compile(r"^(?:nothing|anything|something|everything|none|no one|nobody)\b", re.I)


def _text(template: str, category: str, confidence: float, most: int = 8) -> Callable[[re.Match[str]], Made]:
    def make(m: re.Match[str]) -> Made:
        value = clean(m.group("v")) if "v" in m.groupdict() else ""
        if "v" in m.groupdict() and (not at_most_words(value, most) or CHAT_OBJECTS.match(value) or
                                     _NOTHING.match(value)):
            return None
        groups = {k: (third_person(clean(g)) if g else "") for k, g in m.groupdict().items()}
        return " ".join(template.format(**{**groups, "v": third_person(value)}).split()), category, confidence

    return make


_TIMES_OF_DAY = rf"mornings|afternoons|evenings|nights|weekends|weekdays|lunchtimes|(?:{_DAYS})s"


def _can_not_do(m: re.Match[str]) -> Made:
    """ "I can't do mornings", "Mornings don't work for me": a time of day or week that suits the user no more."""
    said = m.group(0).lower()
    if not said.startswith("i ") and "me" not in said.split() and not re.search(r" (?:are|is) ", said):
        return None  # a bare "Mornings" says nothing
    why = clean(m.group("why") or "")
    when = m.group("v") if re.match(rf"(?:{_DAYS})", m.group("v"), re.I) else m.group("v").lower()
    return f"User can't do {when}{' ' + third_person(why) if why else ''}", "schedule", 0.8


def _does_not(m: re.Match[str]) -> Made:
    value = clean(m.group("v"))
    if value and (not at_most_words(value, 6) or CHAT_OBJECTS.match(value)):
        return None
    text = f"User does not {m.group('verb').lower()}{' ' + third_person(value) if value else ''}"
    return text, "schedule" if TIME_WORDS.search(text) or re.search(r"\bon \w+days?\b", text) else "personal", 0.8


def _retired(m: re.Match[str]) -> Made:
    """ "I retired in 2019 after forty years as an engineer": when, and what they were, in one memory."""
    when = clean(m.group("when") or "")
    if not at_most_words(when or "x", 12):
        return None
    return f"User retired{' ' + third_person(when) if when else ''}", "personal", 0.85


def _relative_was(m: re.Match[str]) -> Made:
    value = clean(m.group("v"))
    if not at_most_words(value, 8) and not (not value and m.group("pred").lower().startswith("is ")):
        return None
    return " ".join(f"User's {relation(m)} {m.group('pred').lower()} {third_person(value)}".split()), \
        "relationship", 0.8


# what is moved between that is no home: "moved from nights to days", "moved from the sales team to marketing"
_NOT_MOVED_BETWEEN = re.compile(r"\b(?:team|department|dept|role|job|position|shifts?|class|group|set|year|level|grade|"
                                r"ward|office|desk|plan|tariff|contract|account|phone|android|iphone|windows|mac|"
                                r"days|nights|mornings|evenings|weekends|part[- ]time|full[- ]time)\b", re.I)


def _moved_between(m: re.Match[str]) -> Made:
    """ "we've moved from Droitwich to Malvern", "moved up to Hexham from Leeds for my husband's job": where home is
    now, said with where it was (the slot of "User moved to Malvern", which revises the old home: dedup.py)."""
    new, old = clean(m.group("v")), clean(m.group("old"))
    if any(p.lower() in NOT_PLACES or p.lower().split()[0] in NOT_PLACES or _NOT_MOVED_BETWEEN.search(p)
           or not at_most_words(p, 5) for p in (new, old)):
        return None
    rest = clean(m.group("rest") or "")
    return " ".join(f"User moved to {third_person(new)} from {third_person(old)} {third_person(rest)}".split()), \
        "location", 0.85


_I = r"i(?:'m|’m| am)"
# "we've just moved up", "I relocated": a move, before where from and where to
_MOVED = (r"^(?:i|we) (?:just |finally |recently |only )?(?:moved|relocated)(?: house| home)?"
          r"(?: (?:back|up|down|over|across))?")
# a place one works, said as what it is or by its name: "a law firm", "the council", "Deloitte"
_WORKPLACE = (r"(?:(?:an?|the|my|our) (?:[\w&'’-]+ ){0,3}?(?:firm|company|practice|partnership|bank|school|academy|"
              r"hospital|trust|agency|council|surgery|clinic|charity|studio|start-?up|consultancy|shop|store|"
              r"supermarket|restaurant|caf[eé]|hotel|pub|garage|factory|warehouse|lab|laboratory|business|police|"
              r"army|navy|raf|fire service|civil service|nhs|university|college|nursery|salon|pharmacy|airline|"
              r"newspaper|magazine|publisher|department|ministry|office|brewery|bakery)|"
              r"(?-i:[A-Z])[\w&'’.-]*(?: (?-i:[A-Z&])[\w&'’.-]*){0,3})")
# the parts of the body that give people lasting trouble
_BODY = (r"(?:knee|back|lower back|hip|shoulder|ankle|wrist|neck|elbow|foot|feet|hamstring|achilles|heart|hand|"
         r"thumb|toe|leg|arm|spine|disc|pelvis|jaw|ear|eye)")
_I_HAVE = r"i(?:'ve|’ve| have)"
_CAPITAL_PLACE = r"(?P<place>(?-i:[A-Z])[\w'’-]+(?: (?-i:[A-Z])[\w'’-]+)*)"

FRAME_TEXTS: list[tuple[str, Callable[[re.Match[str]], Made]]] = [
    # where: "I've lived in Dublin for five years", "I've been living in Rotterdam", "I live with my cats in Lyon"
    (rf"^{_I_HAVE} been in {_CAPITAL_PLACE}(?: for)? (?:\d+|a few|many|two|three|four|five|ten|twenty) (?:years|yrs)",
     _text("User lives in {place}", "location", 0.85)),  # "I've been in Bristol 20 years"
    (rf"^{_I_HAVE} (?:been living|lived|been based) in {_CAPITAL_PLACE}",
     _text("User lives in {place}", "location", 0.9)),
    (rf"^i (?:currently |still )?live with [^,;]{{1,40}}? in (?:an? [\w\s-]{{1,25}}? in )?{_CAPITAL_PLACE}$",
     _text("User lives in {place}", "location", 0.85)),
    # where home is, said as the kind of place it is: "we're in a little village near Kendal now", "I'm in a flat in
    # Leith" (not "I'm in Leeds", which may be a visit)
    (rf"^{_I} (?:now |currently )?in (?P<v>an? (?:[\w-]+ ){{0,2}}?(?:village|town|hamlet|suburb|{HOMES}) "
     r"(?:in|near|(?:just )?outside|on the edge of|on the outskirts of) (?!the (?:morning|evening|afternoon|day)\b)"
     r"[^,;!?]+)$", _text("User lives in {v}", "location", 0.8)),
    # a move from one place to another: "we've moved from Droitwich to Malvern", "moved up to Hexham from Leeds"
    (rf"{_MOVED} from (?P<old>[^,;!?]+?) (?:(?:back|up|down|over|across) )?to (?P<v>[^,;!?]+?)"
     rf"(?P<rest> (?:{_TIME}))?$",
     _moved_between),
    (rf"{_MOVED} to (?P<v>[^,;!?]+?) from (?P<old>[^,;!?]+?)"
     r"(?P<rest> (?:for|because|after|when|with|to be|in|last|this|a|\d+) [^,;!?]+)?$",
     _moved_between),
    # moving, said with where from: "we moved out of Berlin and into a house in Potsdam"
    (rf"^(?:i|we) (?:just |finally |recently )?moved\b[^,;!?]*?\b(?:to|into|in) (?:an? [\w\s-]{{1,25}}? in )?"
     rf"{_CAPITAL_PLACE}(?P<when>(?: [a-z][^,;!?]*)?)$",
     _text("User moved to {place}", "location", 0.85)),
    # work: "I've been working at a bike shop", "I've been working as a courier"
    (rf"^{_I_HAVE} been working (?P<prep>at|for|in) (?P<v>[^,;!?]+)",
     _text("User works {prep} {v}", "personal", 0.85, 8)),
    (rf"^{_I_HAVE} been working as (?P<art>an?) (?P<v>[^,;!?]+)",
     _text("User works as {art} {v}", "personal", 0.85, 6)),
    # habits of taste: "I stick to decaf", "I always go for the vegetarian option"
    (r"^i (?:always |usually |only |mostly )?(?P<verb>stick to|stick with|go for|opt for|always order|usually order) "
     r"(?P<v>[^,;!?]+)",
     lambda m: _text(f"User {predicate(m.group('verb').lower())} {{v}}", "preference", 0.8, 6)(m)),
    # relatives' ages in words: "my daughter just turned three"
    (rf"^(?:my|our) {REL_MOD}(?P<rel>{RELATIONS})(?: {TITLED_NAME})? (?P<pred>just turned|turned|is turning) "
     r"(?P<v>(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
     r"seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[ -]\w+)?)$",
     _relative_was),
    # health: "I have a peanut allergy", "I was diagnosed with diabetes", "I suffer from migraines"
    (r"^i (?:have|'ve got|’ve got) (?:an? |a severe |a bad )?(?P<v>[\w-]+(?: [\w-]+)?) allergy$",
     _text("User is allergic to {v}", "personal", 0.9, 3)),
    (r"^i (?:was|got|have been|'ve been|’ve been) diagnosed with (?P<v>[^,;!?]+)",
     _text("User has {v}", "personal", 0.85, 5)),
    (r"^i (?:suffer from|live with|struggle with) (?P<v>(?!my |our |a friend|friends|roommates)[^,;!?]+)",
     _text("User has {v}", "personal", 0.75, 4)),
    # a part of the body that gives trouble: "I've got a dodgy knee from years of netball", "I have a bad back"
    (r"^i(?: have|'ve|’ve)(?P<got> got)?(?<!'ve)(?<!’ve) (?P<art>an?|two) (?P<how>(?:(?:really|very|slightly|"
     r"bit of an?) )?(?:dodgy|bad|weak|sore|gammy|dicky|knackered|arthritic|wonky|stiff|iffy|dislocated|injured|"
     rf"damaged|bust(?:ed)?|problem|replacement|new|false)) (?P<part>{_BODY}s?)"
     r"(?P<rest>(?: (?:from|after|since|because of|due to|thanks to) [^,;!?]+?)?)(?=$| so | and | but )",
     _text("User has {got} {art} {how} {part} {rest}", "personal", 0.85, 12)),
    # fears: "I'm afraid of spiders", "I get really nervous on planes"
    (rf"^{_I} (?:really |so |very |a bit |terribly )?(?P<how>afraid|scared|terrified|frightened) of {V}",
     _text("User is {how} of {v}", "personal", 0.85, 6)),
    (r"^i (?:always |often |really )?get (?:really |very |so |quite |a bit )?(?P<how>nervous|anxious|scared|sick)"
     r" (?P<prep>on|in|about|before|during) (?P<v>[^,;!?]+)",
     _text("User gets {how} {prep} {v}", "personal", 0.8, 5)),
    # life events: "I'm getting married next June", "We're expecting a baby in March", "I retired in 2019"
    (rf"^{_I} (?:(?:finally )?getting married|engaged|(?:finally )?tying the knot)"
     r"(?P<v>(?: to [^,;!?]+| (?:next|this|in|on) [^,;!?]+)*)$",
     lambda m: (f"User is getting married{' ' + clean(m.group('v')) if m.group('v') else ''}",
                "relationship", 0.85)),
    (r"^i (?:just |recently |finally )?(?P<v>had (?:a|our|my) (?:first |second |third )?(?:baby|little)(?: girl| boy)?|"
     r"had (?:twins|triplets)|"
     r"got (?:married|engaged|divorced))(?P<when>(?: [^,;!?]+)?)(?:, (?:a|an|two|both|one) [^;!?]{1,30})?$",
     lambda m: (f"User {third_person(m.group('v').lower())}{clean(m.group('when')) and ' ' + clean(m.group('when'))}",
                "relationship", 0.85)),
    (rf"^{_I} (?:expecting|having) (?P<v>(?:(?:a|our \w+) (?:baby|child|son|daughter|twins)|"
     r"our (?:first|second|third|fourth|fifth))(?: [^,;!?]+)?)$",
     _text("User is expecting {v}", "relationship", 0.85)),
    (r"^i (?:just |finally |recently )?retired(?P<when>(?: (?:in|at|on|last|this|after|from|early|\d|a |two|three)"
     r"[^,;!?]*)?)$", _retired),
    (r"^i (?:just |finally )?(?P<verb>passed|failed|finished|graduated from|completed) (?P<v>(?:my|the) [^,;!?]+)",
     _text("User {verb} {v}", "context", 0.8, 8)),
    (rf"^{_I} (?:starting|beginning) (?P<v>(?:a|my) (?:new )?(?:job|course|degree|school|university)[^,;!?]*)",
     _text("User is starting {v}", "context", 0.8, 8)),
    (r"^i (?:just |recently |finally )?(?:started|began) (?P<v>(?:a |my |the )?(?:new )?(?:course|degree|school|uni|"
     r"university|college|apprenticeship|phd|masters|training|sixth form)\b[^,;!?]*)",
     _text("User started {v}", "context", 0.8, 8)),
    # a relative's day: "It's my husband's 40th", "it's for my son's birthday on Saturday"
    (rf"^it(?:'s|’s| is) (?:for )?(?:my|our) {REL_MOD}(?P<rel>{RELATIONS})(?:'s|’s) (?P<age>\d+)(?:st|nd|rd|th)\b"
     r"(?P<v>(?: (?:birthday )?(?:on|next|this|in) [^,;!?]+)?)",
     lambda m: (f"User's {relation(m)} is turning {m.group('age')}{clean(m.group('v')) and ' ' + clean(m.group('v'))}",
                "relationship", 0.8)),
    (rf"^it(?:'s|’s| is) (?:for )?(?:my|our) {REL_MOD}(?P<rel>{RELATIONS})(?:'s|’s) (?P<what>birthday|wedding|"
     r"graduation|anniversary|retirement) (?P<v>(?:on|next|this|in) [^,;!?]+)",
     lambda m: (f"User's {relation(m)}'s {m.group('what')} is {clean(m.group('v'))}", "relationship", 0.8)),
    (r"^(?P<v>[^,;!?]+?) (?:is|are) (?:really |totally |very much )?my (?:thing|jam|passion|obsession|"
     r"guilty pleasure|weakness|go-to|comfort food|happy place)$",
     _text("User loves {v}", "preference", 0.8, 4)),
    # giving things up, switching: "I stopped eating meat", "I've switched from coffee to green tea"
    (rf"^(?:i|{_I_HAVE}) (?:(?:finally|just|actually|recently) )*(?:stopped|quit|gave up|given up|cut out) "
     r"(?P<v>(?:eating|drinking|smoking|vaping)[^,;!?]*)",
     _text("User stopped {v}", "preference", 0.85, 6)),
    (rf"^(?:i|{_I_HAVE}) (?:had to )?(?:stopped|quit|gave up|given up|give up|stop) (?P<v>(?!talking|asking|"
     r"waiting|thinking|worrying)\w+ing\b[^,;!?]*)", _text("User gave up {v}", "preference", 0.8, 6)),
    (rf"^(?:i|{_I_HAVE}) switched from (?P<old>[^,;!?]+?) to (?P<v>[^,;!?]+)",
     _text("User now prefers {v} to {old}", "preference", 0.85, 5)),
    (r"^i (?:just |recently |now )?(?:switched|changed|moved) (?:over )?to (?P<v>(?:the |a |an )[^,;!?]+|"
     r"(?!the\b)[a-z][^,;!?]*)$", _text("User switched to {v}", "personal", 0.8, 8)),
    # a job left: "handed my notice in at Tesco", "I resigned from the council" (revises "works at Tesco", dedup.py)
    (r"^i (?:(?:just|finally|actually) )?(?:handed (?:in )?(?:my|in my) notice(?: in)?|resigned|quit my job|"
     r"left my job) (?:at|from|with) (?P<v>[^,;!?]+)", _text("User handed in their notice at {v}", "personal", 0.8, 5)),
    # a new job said as starting one: "I started a new job at Halden Logistics"
    (r"^i (?:just |recently |finally )?(?:(?:started|got|began|landed|took) (?:a |my |the )?(?:new )?job|"
     r"started working|began working) (?P<prep>at|with|in|for) (?P<v>[^,;!?]+)",
     _text("User works {prep} {v}", "personal", 0.85, 8)),
    (r"^i (?:just |recently |finally )?(?:started|began) (?P<prep>at|with) (?P<v>(?-i:[A-Z])[^,;!?]+)",
     _text("User works {prep} {v}", "personal", 0.8, 8)),  # "I've just started at Deloitte as a graduate"
    # a workplace joined in a role: "joined a law firm as a paralegal", "I've gone to Aldi as an assistant manager"
    (r"^i(?:'ve|’ve| have)? (?:just |recently |finally |now )?(?:joined|went to|gone to|"
     rf"got taken on (?:at|by)|moved to) (?P<where>{_WORKPLACE}) as (?P<art>an?) (?!(?:member|volunteer|guest|beginner|"
     r"student|trial|customer|patient|client|regular|favour|treat|joke|bit|kid|child)\b)(?P<v>[^,;!?]+?)"
     rf"(?P<when> (?:{_TIME}))?$",
     _text("User works as {art} {v} at {where} {when}", "personal", 0.85, 6)),
    (r"^i (?:just |recently |finally )?(?:started|began) working as (?P<art>an?) (?P<v>[^,;!?]+)",
     _text("User works as {art} {v}", "personal", 0.85, 6)),
    # what the user does not do: "I don't drive", "I don't work on Fridays", "I never fly"
    (r"^i (?:don't|do not|never|no longer) (?P<verb>drive|smoke|work|cook|swim|fly|travel|own|ride|cycle) ?"
     r"(?P<v>[^,;!?]*)$", lambda m: _does_not(m)),
    # where they live said as an address: "I'm at 18 Park Rd., flat 2, in Headingley"
    (rf"^(?:{_I}|i live|i(?:'ve|’ve| have) moved|i moved|we(?:'re|’re| are)|we live) (?:at|to) "
     r"(?P<v>\d+[a-z]? (?-i:[A-Z])[^;!?]+)$", _text("User lives at {v}", "location", 0.85, 12)),
    # when they can come: "I can only come after 5", "mornings don't work for me", "anything after 10 is great"
    (r"^i (?:can|could) only (?P<v>(?:come|do|make it|get there|get in|visit|attend|meet|train|talk|go|be there)"
     r"(?: in)? (?:after|before|on|at|from|between|during|in the|weekends|evenings|mornings|afternoons)[^,;!?]*)",
     _text("User can only {v}", "schedule", 0.8)),
    (rf"^(?:i (?:can't|cannot|can not) (?:do|make) |)(?P<v>(?:early |late )?(?:{_TIMES_OF_DAY})(?: (?:or|and) "
     rf"(?:{_TIMES_OF_DAY}))?)(?P<why> (?:because|as) [^,;!?]+)?(?:$| (?:don't|do not|doesn't|does not|no longer) "
     r"(?:really )?(?:work|suit)(?: for)? me\b| (?:are|is) (?:now |just |totally |basically )?(?:impossible|no good|"
     r"out|a no-go|tricky|difficult|hard)\b)", _can_not_do),
    # health and study said with "on" and "doing": "I'm on a low sodium diet", "I'm doing a PhD in chemistry"
    (rf"^{_I} on (?P<v>(?:an? |the )?[\w -]{{0,25}}?(?:diet|medication|meds|tablets|insulin|blood thinners|"
     r"warfarin|chemo|dialysis)\b[^,;!?]*)", _text("User is on {v}", "personal", 0.8)),
    (rf"^{_I} (?:currently )?doing (?P<v>(?:a|an|my) (?:[\w-]+ ){{0,2}}(?:phd|degree|masters|master's|course|"
     r"apprenticeship|diploma|mba|a-levels|gcses|internship|placement)\b[^,;!?]*)",
     _text("User is doing {v}", "context", 0.8)),
    (rf"^{_I} not (?:a |an )?(?:big |huge |great |much of a )?(?P<v>(?:[\w-]+ )?(?:drinker|eater|person))\b",
     _text("User is not a big {v}", "preference", 0.8)),
    # what the user can no longer do: "I can't run", "I can't drive for six weeks"
    (r"^i (?:can't|cannot|can not|can no longer) (?P<v>(?:run|walk|drive|swim|climb|lift|kneel|stand|hear|see|cycle|"
     r"ride|bend|jump|fly|work)\b(?![^,;!?]* for (?:a |\w+ )?(?:days?|weeks?|months?)\b)[^,;!?]*)",
     _text("User can't {v}", "personal", 0.75)),  # not "for six weeks": that passes
    # moved, said with where from: "just moved from Cardiff"
    (rf"^(?:i|we) (?:just |recently )?moved (?:here |over )?from {_CAPITAL_PLACE}",
     _text("User moved from {place}", "location", 0.8)),
    (rf"^(?P<v>(?:early |late )?(?:{_TIMES_OF_DAY})(?: (?:or|and) (?:{_TIMES_OF_DAY}))?) (?:are|is|work|suit) "
     r"(?:me )?(?:much |usually |always |way |a lot |far |so much )?(?:better|best|easier|easiest|ideal|good|great|"
     r"perfect)(?: for me)?$",
     lambda m: (f"User prefers {m.group('v').lower()}", "schedule", 0.8)),
    (r"^(?:anything|any ?time|whenever|any day) (?P<v>(?:after|before|from|past) [^,;!?]+?) "
     r"(?:is|works|suits me|would be)\b(?: \w+)*$", _text("User prefers anything {v}", "schedule", 0.75, 5)),
    # tastes said the other way round: "Scary films are really not my thing", "Jazz is my favourite kind of music"
    (r"^(?P<v>[^,;!?]+?) (?:is|are) (?:really |just |definitely |honestly )?not (?:really )?my (?:thing|cup of tea)",
     _text("User does not like {v}", "preference", 0.8, 5)),
    (r"^(?P<v>[^,;!?]+?) (?:is|are) my (?:absolute |all-time )?fav(?:ou?rite|e) (?P<what>[\w\s-]{1,30}?)(?=,|$)",
     _text("User's favorite {what} is {v}", "preference", 0.85, 5)),
    (rf"^{_I} (?:not (?:a (?:big |huge )?fan of|into|keen on|fond of|big on|much into)|no fan of) {V}",
     _text("User does not like {v}", "preference", 0.8, 6)),
    # relatives in the past tense, and other states: "my grandfather was a fisherman", "my wife is pregnant"
    (rf"^(?:my|our) {REL_MOD}(?P<rel>(?:{RELATIONS})s?)(?: {TITLED_NAME})? "
     r"(?P<pred>was an?|used to be an?|worked as an?|is pregnant|turns|turn|will be|is going to be)\s?(?P<v>[^,;!?]*)",
     _relative_was),
]
FRAMES = [(re.compile(pattern, re.I), make) for pattern, make in FRAME_TEXTS]
# "our eldest, Leo, ...": a child named by their place among the children
ELDEST = re.compile(r"\b(?:my|our) (?P<rank>eldest|oldest|youngest|firstborn|middle child|middle one),? "
                    r"(?P<name>(?-i:[A-Z])[\w'’-]+)\b", re.I)
# "A beagle called Biscuit." after "we got a puppy": the name of the one just mentioned
NAMING_FRAGMENT = re.compile(r"^(?:an?|the|our|my) (?:[\w-]+ ){0,2}(?:called|named) (?P<name>(?-i:[A-Z])[\w'’-]+)$",
                             re.I)

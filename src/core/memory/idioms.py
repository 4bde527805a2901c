"""Memory extraction, everyday idioms: the ways people say a change in their life that the rules' textbook shapes
miss, put in the words the rules read, and names and places typed in lower case where the words around them say
one is there.

Rewritten before the rules read a sentence (normalise.py calls `rewrite`):

- a name typed in lower case before who they are in brackets: "freya (my eldest)" -> "Freya (my eldest)", or after
  them, before what is said of them: "my best mate nadia is getting married" -> "my best mate Nadia is ...";
- a couple said as "X and I" or "me and X": "jamie and i broke up" -> "I broke up with Jamie";
- a new partner said as who one is seeing: "been seeing a guy called Mateo" -> "my boyfriend is called Mateo",
  "I'm seeing someone new, her name's Ines" -> "I have a new partner, her name's Ines";
- a job or habit given up in slang: "packed in teaching", "jacked in my job" -> "quit ...";
- a pet brought home: "picked up a beagle puppy called Pip" -> "got a beagle puppy called Pip", or talked into:
  "the kids talked me into 2 guinea pigs" -> "we got 2 guinea pigs";
- what was just learnt, said as news: "found out this week my son is allergic to sesame" -> "my son is ...";
- a love said as a verdict: "nothing beats a Sunday roast" -> "I love a Sunday roast";
- a trip with friends: "me and 3 of the girls have booked" -> "we have booked";
- what was booked, then when it is: "booked my driving test, its on 19 november" -> "my driving test is on ..."
  (said as two sentences, "booked my driving test!! it's on ...", `one_booking` makes them one first);
- a pet named by one of the family: "the kids named him Marmalade", "they've called them Mochi and Waffle" ->
  "we named him Marmalade", "we named them Mochi and Waffle";
- a place in lower case after a word that says a place follows: "left manchester!", "a cottage just outside
  ludlow", "a week in crete", "moved back home to belfast". The word after must not be an everyday word ("left
  work", "a week in bed").

Rules for what these become (tried after all the others, before a clause is kept as said): a break-up
(dedup.py takes back the partner), a home rented somewhere (where the user lives: dedup.py), a job at a place
said with what one does there ("on the phones at a call centre"), a trip booked to a place with its first leg,
an activity taken up with the days it is done ("started bouldering, going Tuesdays and Thursdays"), a job begun
said as "started as a lab technician" (the job the user does now), and a season ticket, membership or allotment
held for years.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from avatar_service.core.memory.people import Made
from avatar_service.core.memory.vocabulary import (
    DAYS,
    HOMES,
    NATIONALITIES,
    NOT_NAMES,
    PETS,
    RELATIONS,
    TRAILING_TIME,
    WHEN,
)
from avatar_service.core.memory.wording import clean, third_person, word_set
from avatar_service.core.text.lexicon import STOPWORDS

# words that follow "left", "outside" or "a week in" and are no place ("left work", "a week in bed")
_NOT_A_PLACE = word_set(
    """work|school|home|uni|university|college|town|it|them|him|her|me|us|you|early|late|the|a|an|my|our|your|his|
their|this|that|there|here|hospital|church|prison|office|nursery|bed|advance|total|all|now|today|tonight|
yesterday|after|before|with|for|on|at|in|to|and|but|so|because|just|job|jobs|everything|nothing|something|
behind|again|too|alone|together|paradise|heaven|hell|lockdown|isolation|quarantine|rehab|bits|pieces|ages|
months|weeks|years|days|hours|mind|sight|view|line|charge|touch|love|time|one|two|three|four|five|six|seven|
eight|nine|ten|general|particular|a|half|only|first|last|next|bad|good|work's|tears|shock|pain|hand|shape|
nights|lates|earlies|shifts|mornings|evenings|weekends""",
    "|",
)
# when, said after a place or a job begun: "belfast in the summer", "started as a teaching assistant in september"
_WHEN_SAID = "spring|summer|autumn|winter|january|february|march|april|may|june|july|august|september|october|" \
             "november|december"
# typed in lower case only: a place the user wrote with capitals ("KPMG", "St Ives") is left as written
_PLACE_SHAPE = r"(?-i:[a-z][a-z'’-]{2,}(?: (?:upon|on|under|le|in|by|de|del|la) [a-z][a-z'’-]+)?)(?![\w'’-])"
_PLACE_WORD = rf"(?P<place>{_PLACE_SHAPE})"
# what says a place follows: a place left, a home just outside one, so long spent in one
_PLACE_CUES = (
    rf"(?:\b(?:we|i|we've|i've|have|finally|just|recently) (?:left|moved away from|moved out of) (?={_PLACE_SHAPE}"
    r"(?:$|[!.,;)]| (?:and|for|after|last|this|in|on|to|when|because|so|but|back|behind|years|months|weeks)\b)))|"
    rf"(?:\b(?:{HOMES}|village|town|hamlet|suburb) (?:just |right )?"
    r"(?:outside|near|on the edge of|on the outskirts of) )|"
    r"(?:\bmoved (?:back|home|back home)(?: up| down| over)? to )|"
    r"(?:\b(?:a|an|the|our) (?:week|fortnight|weekend|long weekend|holiday|few days|couple of weeks|\d+ nights?|"
    r"girls' trip|lads' trip|trip|break) (?:away )?in )"
)
_CUED_PLACE = re.compile(rf"(?P<cue>{_PLACE_CUES}){_PLACE_WORD}\b", re.I)
_NAME = r"(?P<name>[a-z][a-z'’-]{1,20})"
_PRONOUNS = word_set("i me you he she it we they him her us them his its our their this that")
_BRACKETED = re.compile(rf"(?:^|(?<=\s)){_NAME}(?= \((?:my|our) [a-z ]{{2,20}}\))")
# a person of the user's, then their name in lower case, then what is said of them: "my best mate nadia is getting
# married" (people only: "my cat flap is broken" names no cat)
_PEOPLE = (r"(?:best |old |little |big |older |younger |twin |baby |eldest |youngest |oldest )?(?:wife|husband|partner|"
           r"boyfriend|girlfriend|fianc[eé]e?|son|daughter|mum|mom|mother|dad|father|brother|sister|cousin|niece|"
           r"nephew|aunt|auntie|uncle|grandson|granddaughter|nan|gran|grandma|grandad|friend|mate|bestie|flatmate|"
           r"housemate|colleague|boss|neighbou?r|stepson|stepdaughter|stepdad|stepmum|godson|goddaughter)")
_LOWER_NAME = re.compile(rf"\b(?:my|our) {_PEOPLE} {_NAME}(?=(?:'s|’s) | (?:is|was|has|had|turns|turned|just|got|"
                         r"gets|will|and (?:i|me))\b)", re.I)
_NOT_NAMED = STOPWORDS | word_set("always never still really also finally recently only often sometimes usually "
                                  "already actually literally basically definitely seriously totally apparently "
                                  "obviously who which that from in law group circle list side request chat zone "
                                  "code joke bless even anyway anyways though meanwhile somehow kinda sorta "
                                  "honestly tbh lol haha")
_COUPLE = re.compile(rf"^(?:{_NAME} and (?:i|me)|me and {_NAME.replace('name>', 'name2>')}) "
                     r"(?P<verb>broke up|split up|split|separated|divorced|called it quits)\b",
                     re.I)
_SEEING = re.compile(r"^(?:(?:i've|i’ve|i have|we've|i'm|i’m|i am) )?(?:been |started )?"
                     r"(?:seeing|dating|going out with) (?:a|this|some) "
                     r"(?P<who>guy|man|bloke|lad|boy|girl|woman|lady|lass|person|someone) (?:called|named) "
                     r"(?P<name>[A-Za-z][\w'’-]+)(?: for [^,;!?]+?)?(?=$|[,;!?])", re.I)
# "I'm seeing someone new now, her name's Ines": a new partner, named next ("seeing someone about my knee" is not)
_SOMEONE_NEW = re.compile(r"^(?:i'm|i’m|i am|i've been|i’ve been|been) (?:now )?seeing someone(?: new)?(?: now)?"
                          r"(?=$|,)", re.I)
_PARTNERS = {"guy": "boyfriend", "man": "boyfriend", "bloke": "boyfriend", "lad": "boyfriend", "boy": "boyfriend",
             "girl": "girlfriend", "woman": "girlfriend", "lady": "girlfriend", "lass": "girlfriend"}
# "packed in" is "quit" before what one did ("packed in tennis", "packed in my job"), but not when things are packed
# into somewhere ("we were packed in like sardines", "packed in a hurry")
_PACKED_IN = re.compile(r"\b(?:packed in|jacked in|chucked in|packed up|jacked)(?= (?:my|the|(?!(?:like|to|with|tight|"
                        r"together|a|an|there|here|too|so|and|for|at|in|on|by|boxes|bags)\b)[a-z]\w+)\b)", re.I)
_PETS = rf"(?:[\w-]+ ){{0,2}}(?:pupp(?:y|ies)|kittens?|dogs?|cats?|rabbits?|(?:{PETS}))"
_PICKED_UP = re.compile(rf"\b(?:picked up|brought home|collected|took home|welcomed)(?= (?:an?|our|two|\d) {_PETS}\b)",
                        re.I)
# a pet the user was talked into: "the kids talked me into 2 guinea pigs", "I got talked into a puppy" -> "we got"
_TALKED_INTO = re.compile(r"^(?:(?:(?:my|our) (?:[\w-]+ ){0,2}?[\w-]+|they|he|she) (?:talked|persuaded|convinced) "
                          r"(?:me|us)|(?:i|we) (?:got|was|were|have been|'ve been|’ve been) (?:talked|persuaded)) into "
                          rf"(?:getting |adopting |buying )?(?=(?:an?|two|three|\d+|some) {_PETS}s?\b)", re.I)
_FOUND_OUT = re.compile(r"^(?:(?:i|we) )?(?:just |only |recently )?(?:found out|learned|learnt|discovered|heard)"
                        r"(?: (?:this|last) \w+| today| yesterday| recently)?(?: that)? "
                        r"(?=(?:my|our) (?:[\w'’-]+ ){1,3}?(?:is|are|has|have|was|were|had|needs|can't)\b|"
                        r"i(?:'m|’m| am|'ve|’ve| have)\b)",
                        re.I)
_NOTHING_BEATS = re.compile(r"^(?:nothing beats|nothing quite beats|you can't beat|you can’t beat|can't beat|"
                            r"can’t beat|there's nothing like|there’s nothing like|nothing like) (?=an?\b|the\b|my\b|"
                            r"\w)", re.I)
# "me and 3 of the girls have booked", "me and a few mates are going": the user is one of them
_ME_AND_FRIENDS = re.compile(r"^(?:me|myself) and (?:(?:\d+|two|three|four|five|six|a few|some|a couple) of )?"
                             r"(?:the|my) (?:girls|lads|boys|mates|friends|pals|gang|crew|team)"
                             r"(?= (?:(?:have |'ve |’ve )?(?:just )?booked|(?:are|'re|’re) (?:going|off|flying) to)\b)",
                             re.I)
# "tues and thurs" are days it happens on; "Tues to Fri" is a span, read as said elsewhere
# "the kids named him Marmalade": the name of the one just brought home, whoever gave it (normalise.py has already
# read "kids named" as "kid's named", an apostrophe left out)
_NAMED_BY = re.compile(rf"^(?:(?:my|our) (?:[\w-]+ )?(?:{RELATIONS})(?:s|'s|’s)?(?: (?-i:[A-Z])[\w'’-]+)?|"
                       r"they(?:'ve|’ve| have)?) (?:named|called) "
                       r"(?=(?:him|her|it|them) (?-i:[A-Z])[\w'’-]+(?: (?:and|&) (?-i:[A-Z])[\w'’-]+)?$)", re.I)
# what was booked ("booked my driving test"), then when it is ("it's on 19 november")
_BOOKED = r"(?:booked|got|arranged|scheduled|sorted)"
_ITS_THING = r"(?:my|our) (?:[\w'’-]+ ){0,3}?[\w'’-]+"
_DONE = r"(?: booked| sorted| in)?"
_IT_IS_WHEN = (r"(?:it(?:'s|’s| is)|its|it'll be|it’ll be|they(?:'re|’re| are)) "
               r"(?=(?:on|at|for|next|this|tomorrow|in)\b)")
# "finally booked my driving test, its on 19 november": said as one
_BOOKED_WHEN = re.compile(rf"^(?:(?:i|we)(?:'ve|’ve| have)? )?(?:(?:finally|just|only just|already) )?{_BOOKED} "
                          rf"(?P<what>{_ITS_THING}){_DONE}, {_IT_IS_WHEN}", re.I)
# the same, said as two sentences: "booked my driving test!! it's on the 17th of feb"
_BOOKED_THEN = re.compile(rf"(\b{_BOOKED} {_ITS_THING}{_DONE})\s*[!.]+\s+(?={_IT_IS_WHEN})", re.I)
_SHORT_DAYS = re.compile(r"(?<!to )(?<!till )(?<!-)\b(?:tues|thurs)\b(?!\s*(?:to|till|until|-|–)(?:\s|$))", re.I)


def _capitalised(m: re.Match[str], group: str) -> str:
    return m.group(group)[:1].upper() + m.group(group)[1:]


def _capital_place(place: str) -> str:
    """A place typed in lower case, capitalised; as typed when its first word is no place."""
    words = place.split()
    if not place.islower() or words[0].lower() in _NOT_A_PLACE or re.search(r"(?:ing|ly|ed)$", words[0]) or \
            re.fullmatch(rf"(?:{RELATIONS})s?(?:'s|’s)?", words[0], re.I):  # "moved back home to mum's"
        return place  # "left feeling sick", "left quickly", "left disappointed": how, not where
    if len(words) == 3 and (words[2].lower() in _NOT_A_PLACE or re.fullmatch(_WHEN_SAID, words[2], re.I)):
        return words[0].capitalize() + place[len(words[0]):]  # "york in june"
    return " ".join(w if w in ("upon", "on", "under", "in", "by") else w.capitalize() for w in words)


def _place(m: re.Match[str]) -> str:
    return m.group("cue") + _capital_place(m.group("place"))


# a move said with both places: "moved from droitwich to malvern", "moved up to hexham from leeds"
_ANY_PLACE = rf"(?:{_PLACE_SHAPE}|(?-i:[A-Z])[\w'’-]+(?: (?-i:[A-Z])[\w'’-]+)*)"
_MOVED_BETWEEN = re.compile(rf"\b(?P<cue>moved (?:house |home )?(?:(?:back|up|down|over|across) )?(?P<one>from|to) )"
                            rf"(?P<a>{_ANY_PLACE}) (?P<cue2>(?:(?:back|up|down|over|across) )?(?P<two>to|from) )"
                            rf"(?P<b>{_ANY_PLACE})(?![\w'’-])", re.I)


def _moved_between(m: re.Match[str]) -> str:
    if m.group("one").lower() == m.group("two").lower():
        return m.group()
    return f"{m.group('cue')}{_capital_place(m.group('a'))} {m.group('cue2')}{_capital_place(m.group('b'))}"


def _named(m: re.Match[str]) -> str:
    name = m.group("name")
    if name.lower() in NOT_NAMES | _NOT_A_PLACE | _PRONOUNS | _NOT_NAMED | NATIONALITIES or \
            re.search(r"(?:ly|ing|ed)$", name, re.I) or not name.islower():
        return m.group()
    return m.group()[: m.start("name") - m.start()] + _capitalised(m, "name")


def _couple(m: re.Match[str]) -> str:
    name = m.group("name") or m.group("name2")
    if name.lower() in NOT_NAMES | _NOT_A_PLACE | _PRONOUNS:
        return m.group()
    return f"I {m.group('verb').lower()} with {name[:1].upper()}{name[1:]}"


def rewrite(text: str) -> str:
    """The sentence with the idioms of the module docstring put the way the rules read them."""
    text = _BRACKETED.sub(lambda m: m.group() if m.group("name").lower() in NOT_NAMES | _NOT_A_PLACE | _PRONOUNS
                          else _capitalised(m, "name"), text)
    text = _LOWER_NAME.sub(_named, text)
    text = _COUPLE.sub(_couple, text)
    text = _SEEING.sub(lambda m: f"my {_PARTNERS.get(m.group('who').lower(), 'partner')} is called "
                                 f"{_capitalised(m, 'name')}", text)
    text = _SOMEONE_NEW.sub("I have a new partner", text)
    text = _PACKED_IN.sub("quit", text)
    text = _PICKED_UP.sub("got", text)
    text = _TALKED_INTO.sub("we got ", text)
    text = _FOUND_OUT.sub("", text)
    if _NOTHING_BEATS.match(text):  # "nothing beats a good thriller for me": "for me" is who says it, the user
        text = re.sub(r",? for me(?=[.!]*$)", "", _NOTHING_BEATS.sub("I love ", text))
    text = _ME_AND_FRIENDS.sub("we", text)
    text = _BOOKED_WHEN.sub(lambda m: f"{m.group('what')} {'are' if re.search(r'[^s]s$', m.group('what')) else 'is'} ",
                            text)
    text = ", ".join(_NAMED_BY.sub("we named ", clause) for clause in text.split(", "))
    text = _SHORT_DAYS.sub(lambda m: {"tues": "Tuesdays", "thurs": "Thursdays"}[m.group().lower()], text)
    return _CUED_PLACE.sub(_place, _MOVED_BETWEEN.sub(_moved_between, text))


def one_booking(turn: str) -> str:
    """A turn whose booking and its date are two sentences ("booked my driving test!! it's on the 17th") with them
    said as one, the way `rewrite` reads them."""
    return _BOOKED_THEN.sub(r"\1, ", turn)


def _said(template: str, category: str, confidence: float) -> Callable[[re.Match[str]], Made]:
    def make(m: re.Match[str]) -> Made:
        groups = {k: third_person(clean(v)) if v else "" for k, v in m.groupdict().items()}
        return template.format(**groups), category, confidence
    return make


def _taken_up(m: re.Match[str]) -> Made:
    what = re.sub(r" (?:instead|too|as well)$", "", clean(m.group("doing") or m.group("thing")))  # "padel instead"
    return f"User has taken up {third_person(what)}, {third_person(clean(m.group('when')))}", "schedule", 0.75


_I = r"(?:i|we)"
IDIOM_TEXTS: list[tuple[str, Callable[[re.Match[str]], Made]]] = [
    # a break-up is about the partner (dedup.py takes the partner's memory back): "I split up with Sam last week"
    (rf"^{_I} (?:just |recently |finally )?(?:broke up|split up|split|separated|called it quits) (?:with|from) "
     r"(?P<v>(?:my |our )?[\w'’-]+(?: (?-i:[A-Z])[\w'’-]+)?)(?P<rest>[^;!?]*)$",
     lambda m: (f"User broke up with {third_person(clean(m.group('v')))} {clean(m.group('rest'))}".rstrip(),
                "relationship", 0.8)),
    # a home rented somewhere is where the user lives: "we're renting a flat near Didsbury now"
    (rf"^(?:{_I}(?:'re|’re|'m|’m| are| am)? )?(?:now |currently )?renting (?P<art>an?|our|my) "
     rf"(?P<adj>(?:[\w-]+ ){{0,2}}?)(?P<what>{HOMES}) (?P<prep>(?:just |right )?(?:in|outside|near|on the edge of)) "
     r"(?P<v>[^,;!?]+?)"
     r"(?: now)?$",
     lambda m: (f"User is renting {m.group('art').lower()} {m.group('adj')}{m.group('what')} {m.group('prep')} "
                f"{TRAILING_TIME.sub('', clean(m.group('v')))}", "location", 0.85)),
    # a job at a place, said with what one does there: "I work on the phones at a call centre"
    (r"^i (?:mostly |mainly )?work (?P<what>on (?:the )?(?:phones|tills?|checkouts?|reception|the desk|the wards?|"
     r"the floor|the line|the counter|the bar|the door|site)) (?P<prep>at|in|for) (?P<v>[^,;!?]+?)"
     r"(?:, (?:mostly|usually|normally) [^,;!?]+)?$",
     _said("User works {what} {prep} {v}", "personal", 0.8)),
    # a trip booked to a place, with when: "we've booked a week in Crete, flying out 3rd July"
    (rf"^{_I}(?:'ve|’ve| have)? (?:just |finally )?booked (?P<v>(?:a|an) (?:[\w-]+ ){{0,2}}in (?-i:[A-Z])[\w'’-]+"
     r"(?: [A-Z][\w'’-]+)*)(?P<when>(?: for| in| on| from)? [^,;!?]+)?(?P<leg>, (?:flying|leaving|going|setting off|"
     r"travelling) (?:out )?[^,;!?]+)?$",
     lambda m: (f"User has booked {clean(m.group('v'))}{(m.group('when') or '').rstrip()}"
                f"{', ' + clean(m.group('leg')) if m.group('leg') else ''}", "schedule", 0.8)),
    # an activity taken up, with when it is done after a comma: "took up swimming, going on Mondays before work",
    # "took up padel instead, wednesday evenings" ("started" needs a doing after it: "started a new job" is none)
    (r"^i (?:(?:only|just|recently|finally) )*(?:(?:started|began|got into) (?P<doing>(?!work\b|eating\b|drinking\b|"
     r"smoking\b)(?:[\w-]+ )?\w+ing(?: [^,;!?]+?)?)|(?:took|taken) up (?P<thing>[\w-]+(?: [^,;!?]+?)?))"
     r"(?: instead| too| as well)?, "
     rf"(?P<when>(?:(?:going|usually|mostly|normally) )?[^,;!?]*\b(?:{WHEN}|(?:{DAYS})s?(?: (?:mornings?|afternoons?|"
     r"evenings?|nights?))?)\b[^,;!?]*)$",
     _taken_up),
    # a job begun, said with "started as": "just started as a lab technician at a brewery this week" is the job the
    # user does now (one that starts later, "I start as head chef on Monday", is read as said)
    (r"^i(?:'ve|’ve| have)? (?:(?:only|just|recently|finally) )*(?:started|began|begun) (?:work |working |"
     r"(?:a|my) (?:new )?job )?as (?P<art>an?) (?!(?:joke|hobby|favour|bit|side|way|kid|child|teen|teenager|"
     r"beginner|trial|laugh|dare|experiment|gift|present|treat|distraction|one-off)\b)(?P<v>[^,;!?]+?)"
     rf"(?: (?:this|last) (?:week|month)| today| yesterday| on \w+day| in (?:the )?(?:{_WHEN_SAID}))?$",
     _said("User works as {art} {v}", "personal", 0.85)),
    # a place held at a club or ground for years: "I've had an everton season ticket for 20 years now", "we've had
    # an allotment since 2015" (what is held long says who the user is; "had a cold for a week" is no place held)
    (rf"^{_I}(?:'ve|’ve| have)? (?:had|held|kept) (?P<v>(?:(?:an?|my|our) )?(?:[\w'’-]+ ){{0,3}}?(?:season tickets?|"
     r"memberships?|allotment(?: plot)?)(?: (?:at|for|with|in) [^,;!?]+?)?) "
     r"(?P<long>(?:for|since) [^,;!?]+?)(?: now)?(?: (?:but|and|so) [^;!?]*)?$",
     _said("User has had {v} {long}", "personal", 0.8)),
]
IDIOMS = [(re.compile(pattern, re.I), make) for pattern, make in IDIOM_TEXTS]

"""Memory extraction's clause reader: a sentence cut into the clauses a fact can be read from, each with its
subject.

People state facts in passing, and rarely one to a sentence: inside a question ("I'm allergic to shellfish -
is the paella safe?", "I live in Didsbury, is there a branch closer?"), two to a clause ("My wife's a vet and
works Saturdays"), without a subject ("can't stand coriander", "Stopped drinking coffee, switched to green
tea") or after a name said first ("Bruno, my dog, got neutered"). So a sentence is

- tidied: "Bruno, my dog, ..." -> "my dog Bruno ...", "my twins, Ella and Finn, are" -> "my twins Ella and
  Finn are", "my wife's a vet" -> "my wife is a vet", "Dr. Okafor is my GP" -> "my GP is Dr. Okafor";
- cut at dashes, semicolons and colons, and at a comma or conjunction ("and", "but", "so", "because"...)
  that starts a new subject, a question, or a verb whose subject was left out;
- sorted: a piece that asks (starts like a question, or ends with "?") or wishes ("I'd like", "would") is no
  statement; from "if", "imagine", "pretend" or a report of someone's words ("says I") on, nothing is;
- given its subject back: "works Saturdays" after "my wife is a vet" -> "my wife works Saturdays",
  "training for the half marathon" after "I've been running" -> "I'm training for the half marathon",
  "can't stand coriander" opening a turn -> "I can't stand coriander".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from avatar_service.core.memory.vocabulary import DIETS, REL_MOD, RELATIONS, TITLED_NAME
from avatar_service.core.memory.wording import word_set


def _plain(pattern: str) -> str:
    """A vocabulary pattern without its named groups, to be used twice in one expression."""
    return re.sub(r"\(\?P<\w+>", "(?:", pattern)


_REL = rf"(?:{_plain(REL_MOD)}(?:{RELATIONS})|eldest|youngest|oldest|firstborn|middle one|little one)"
_NAME = _plain(TITLED_NAME)
_NAMES = r"(?-i:[A-Z])[\w'’-]+(?:,? (?:and |& )?(?-i:[A-Z])[\w'’-]+)*"
# who a clause is about, when it says so: "I", "we", "my wife", "our son Theo", "he"
_SUBJECT = re.compile(
    rf"^(?P<subject>i(?:'m|’m| am|'ve|’ve| have|'d|’d)?|we(?:'re|’re| are|'ve|’ve| have)?|"
    rf"(?:my|our) {_REL}s?(?: {_NAMES})?|he|she|they)(?=[\s,']|$)", re.I)
_FIRST_PERSON = re.compile(r"^(?:i|we)\b", re.I)
Kind = Literal["statement", "question", "unreal"]


@dataclass(frozen=True, slots=True)
class Piece:
    text: str
    kind: Kind
    after: str = ""  # the conjunction it follows, if any: "but" in "I'm vegetarian but I eat fish"


_LEADING_WORDS = (
    r"(?:(?:well|so|oh|ah|yeah|yes|yep|yup|ok|okay|actually|honestly|btw|by the way|also|and|but|anyway|"
    r"hey|hi|hiya|hello|um|uh|hmm|fun fact|just so you know|for the record|in fact|as you know|you know|"
    r"for context|fyi|right|sure|cool|nice|great|oh and|these days|nowadays|lately|at the moment|right now|now|"
    r"thanks|thank you|cheers|good news|great news|sorry|haha|lol|sadly|unfortunately|luckily|thankfully|"
    r"happily|basically|anyhow|fwiw)"
    r"\b[\s,!:.-]*)+"
)
LEADING = re.compile(rf"^{_LEADING_WORDS}", re.I)

# --- tidying ---------------------------------------------------------------------------------------------------
_TIDY = [
    # "Bruno, my dog, got neutered" -> "my dog Bruno got neutered"; also after a word that opens the sentence and
    # with a word that describes ("sadly Pepper, our old collie, died"): between the commas it can only be who
    (re.compile(rf"^(?P<lead>{_LEADING_WORDS})?(?P<name>(?:(?-i:Mr|Mrs|Ms|Dr|Prof)\.? )?(?-i:[A-Z])[\w'’-]+), "
                rf"(?P<my>my|our) (?P<rel>(?:[a-z-]+ )?{_REL}),\s+", re.I),
     lambda m: f"{m.group('lead') or ''}{m.group('my')} {m.group('rel')} {m.group('name')} "),
    # "My twins, Ella and Finn, are in year 3" -> "My twins Ella and Finn are in year 3"; "with our beagle, Biscuit"
    (re.compile(rf"\b(?P<my>my|our) (?P<rel>{_REL}s?), (?P<names>{_NAMES})(?:,\s+(?=[a-z])|\s*$)", re.I),
     lambda m: f"{m.group('my')} {m.group('rel')} {m.group('names').replace(', and', ' and')} "),
    # "two dogs, Max and Ruby, and a cat" -> "two dogs named Max and Ruby, and a cat"; "a baby girl, Isla,"
    (re.compile(rf"\b(?P<what>(?:a|an|two|three|four|five|\d) (?:[\w-]+ )?(?:{RELATIONS}|girl|boy)s?), "
                rf"(?P<names>{_NAMES})(?=,|$)", re.I),
     lambda m: f"{m.group('what')} named {m.group('names').replace(', and', ' and')}"),
    # "Dr. Okafor is my GP" -> "my GP is Dr. Okafor"
    (re.compile(rf"^(?P<name>{_NAME}) is (?P<my>my|our) (?P<rel>{_REL})(?=$|[,;.!?]|\s+-)", re.I),
     lambda m: f"{m.group('my')} {m.group('rel')} is {m.group('name')}"),
]
# "my wife's a vet", "Pepper's 11 now": "'s" is "is" before what can only follow "is"
_IS_AFTER = (r"\d+(?!\w)|a |an |not |now |still |just |very |really |so |quite |pretty |always |also |in an? |"
             r"at (?:uni|university|college|school|boarding school|nursery)\b|"
             r"(?:called|named|allergic|obsessed|interested|based|originally) |"
             r"(?:coeliac|celiac|vegan|vegetarian|pregnant|retired|married|engaged|single|diabetic)\b|"
             r"(?-i:[A-Z])[a-z]+(?:ian|an|ish|ese|i|ch|ic)(?=\s*(?:$|[,.;!]|and\b|so\b|but\b|too\b))|"  # "Brazilian"
             r"(?!(?:wedding|morning|evening|building|thing|ring|king|spring|ceiling|meeting|feeling|painting|"
             r"clothing|pudding|sibling|darling|wing|birthday)\b)\w+ing\b")
# "Grandma turns 90 on Saturday": a parent or grandparent called by what they are
_FAMILY_AS_NAME = re.compile(r"^(?P<rel>mum|mom|dad|grandma|grandpa|nan|nana|granny|gran|grandad|granddad)\b"
                             r"(?=(?:'s|’s)?\s+(?:is|has|had|was|turns|turned|just|will|loves|lives|works|got|can't|"
                             r"\d|a |an |not |now |still ))", re.I)
_POSSESSIVE_IS = re.compile(rf"\b(?P<who>(?:my|our) {_REL}(?: (?-i:[A-Z])[\w'’-]+)?)(?:'s|’s) (?=(?:{_IS_AFTER}))",
                            re.I)
# "'s" before a participle is "has" ("my dad's just had a hip replacement"), but not before the participles that
# say what someone is ("my boyfriend's called Dev", "my wife's retired")
_BEING = (r"called|named|married|engaged|retired|divorced|widowed|allergic|interested|obsessed|scared|excited|tired|"
          r"based")
_POSSESSIVE_HAS = re.compile(rf"\b(?P<who>(?:my|our) {_REL}(?: (?-i:[A-Z])[\w'’-]+)?)(?:'s|’s) "
                             rf"(?=(?:(?:just|recently|already|finally|never|always) )?(?:got|been|had|gone|done|"
                             rf"(?!(?:{_BEING})\b)\w+ed)\b)", re.I)
_WILL = re.compile(rf"\b(?P<who>(?:my|our) {_REL}(?: (?-i:[A-Z])[\w'’-]+)?)(?:'ll|’ll) ", re.I)
# "me and my wife are..." is "my wife and I are..."
_ME_AND = re.compile(rf"^(?:me|myself) and (?P<who>(?:my|our) {_REL}(?: (?-i:[A-Z])[\w'’-]+)?)\b", re.I)


_RELATIVE_NAME_S = re.compile(rf"\b(?P<who>(?:my|our) {_REL})s (?=name\b|birthday\b)", re.I)
# "My son (he's 7) wants..." reads as "My son, he's 7, wants..."; "As a wheelchair user, I..." as "I'm a
# wheelchair user, I..."
_BRACKETS = re.compile(r"\s*\((?P<inside>[^()]{1,60})\)\s*")
_AS_A = re.compile(r"^(?:as|being) (?P<what>an? [\w -]{1,30}?),? (?=i\b|what|how|can|could|do|does|is|are|any|which)",
                   re.I)
# "since I work nights, is there ...": the reason is the user speaking about themselves
_BECAUSE = re.compile(r"^(?:since|seeing as|given that|now that|because|cos|as) (?=(?:i|i'm|i’m|i've|i’ve|we|we're|"
                      r"we’re)\b)", re.I)  # not "since my knee op, I ...": that is a time


def tidy(sentence: str) -> str:
    """The sentence with appositions and contractions of "is" put the way the rules read them."""
    text = sentence.strip()
    text = re.sub(r"^i\b", "I", text)
    text = _RELATIVE_NAME_S.sub(lambda m: f"{m.group('who')}'s ", text)
    text = _BRACKETS.sub(lambda m: f", {m.group('inside')}, ", text).strip(" ,")
    text = _AS_A.sub(lambda m: f"I'm {m.group('what')}, ", text)
    text = _BECAUSE.sub("", text)
    for pattern, replace in _TIDY:
        text = pattern.sub(replace, text)
    text = _FAMILY_AS_NAME.sub(lambda m: f"my {m.group('rel').lower()}", text)
    text = _ME_AND.sub(lambda m: f"{m.group('who')} and I", text)
    text = _WILL.sub(lambda m: f"{m.group('who')} will ", text)
    text = _POSSESSIVE_HAS.sub(lambda m: f"{m.group('who')} has ", text)  # "my son's got a nut allergy"
    return _POSSESSIVE_IS.sub(lambda m: f"{m.group('who')} is ", text)


# --- cutting ---------------------------------------------------------------------------------------------------
_AUX = (r"is|are|was|were|do|does|did|can|could|would|will|should|shall|may|might|must|have|has|had|am|isn't|"
        r"aren't|don't|doesn't|didn't|can't|couldn't|won't|wouldn't|shouldn't|haven't|hasn't")
_ASKED = (r"i|you|we|they|he|she|it|there|the|this|that|these|those|my|your|our|his|her|their|a|an|any|anyone|"
          r"someone|somebody|anybody|one|u")
_QUESTION = re.compile(rf"^(?:(?:{_AUX})\s+(?:{_ASKED})\b|(?:what|what's|whats|where|where's|when|who|who's|why|"
                       r"how|how's|which|whose|any chance|is it|are there|is there)\b)", re.I)
_CONNECTIVE = re.compile(r"^(?:(?:and|but|so|plus|also|btw|fyi|though|although|because|cause|cos|as|while|whereas|"
                         r"then|now|and now|and then|oh|which means)\b[\s,]*)+", re.I)
_SUBJECT_START = (r"(?:i|i'm|i’m|i've|i’ve|i'd|i’d|my|we|we're|we’re|we've|we’ve|our|he|she|he's|she's|it|it's|it’s|"
                  r"(?:his|her|its|their) names?|"
                  r"they)")
_HARD = re.compile(r"\s+[-–—]+\s+|\s*;\s*|:\s+(?=[A-Za-z])")
_SOFT = re.compile(r",\s+(?:(?:and|but|so|plus|though|because|cos|also|btw|now that)\s+)?|"
                   r"\s+(?:and|but|so|plus|although|though|while|whereas|because|cos|now that)\s+", re.I)
# "so" that means "very" ("I'm so tired", "love it so much") cuts nothing
_SO_BEFORE = re.compile(r"(?:\b(?:am|is|are|was|were|be|feel|felt|get|got|not|and|or)|'m|’m)\s*$", re.I)
_SO_AFTER = re.compile(r"^(?:much|many|far|long|often|glad|happy|excited|tired|sorry|good|bad|lucky|busy|keen|close|"
                       r"nice|well|that)\b", re.I)
_ADVERBS = r"(?:(?:just|also|now|then|recently|finally|usually|always|never|still|really|mostly|often|only) )*"
_PLAIN_VERBS = word_set(
    """love like hate enjoy adore prefer work live play teach study speak drive own run swim cycle walk train
    volunteer cook bake paint sing dance eat drink have do travel commute visit wear use collect ride need want"""
)
_PAST = word_set(
    """got went came lost found made took gave bought sold left met ran began won grew became had did thought
    brought caught taught kept slept felt fell drove rode wrote broke spoke chose flew knew saw sent spent built
    paid put quit set hit cut read swam gone"""
)
_THIRD = word_set("is has does was loves likes hates works lives plays wants needs goes teaches studies speaks "
                  "drives owns runs swims enjoys adores prefers gets keeps uses eats drinks attends")
_THIRD_SAID = re.compile(r"^[a-z]{2,}[^s\W]s (?:at|on|in|every|from|to|for|with|\d)\b")
_NEGATION = re.compile(r"^(?:can't|cannot|can not|don't|do not|never|no longer|won't|doesn't|does not)\b", re.I)
_NOUN_AFTER = re.compile(r"^\S+\s+(?:is|are|was|were|has|'s|’s|makes|made|gives|gave|keeps|seems|feels|looks|"
                         r"sounds|gets)\b", re.I)  # "work is busy": a noun, not a verb
_SHARED_AUX = re.compile(r"\b(?:was|were|been|is|are|am|'m|’m|get|got)\s+\w+(?:ed|en|wn)$|\bborn$", re.I)
_COPULA = re.compile(r"^(?P<subject>.+?)(?P<copula>'m|’m| am| is| are|'re|’re|(?<=^he)'s|(?<=^she)'s|(?<=^he)’s|"
                     r"(?<=^she)’s)\s+\S+(?:\s+\S+){0,3}$", re.I)
_COMPLEMENT = re.compile(r"^(?:(?:about|around|nearly|almost|roughly) )?\d|^(?:a|an|a bit|very|really|quite|pretty|"
                         r"also|still|not|no longer|fully|totally|retired|married|single|allergic|vegan|vegetarian|"
                         r"pregnant)\b", re.I)
# "he's 9, small for his age": a few words that describe, after a comma
_DESCRIPTION = re.compile(r"^(?!(?:the|my|our|your|his|her|their|and|but|so|or|then|which|who|that|this|it|there|"
                          r"please|thanks|thank|lol|haha|promise|sorry|any|is|are|can|do|does|will|would)\b)"
                          r"[a-z][\w'-]*(?: [\w'-]+){0,3}$", re.I)
_PLACED = re.compile(r"(?:'s|’s| is| are)\s+(?:at|in|on|from|near|by)\b", re.I)
_PROGRESSIVE = re.compile(r"^(?:i|we)(?:'m|’m| am|'re|’re| are|'ve been|’ve been| have been)\s", re.I)
# a question closing a statement: ", any tips?", ", right?", ", is that ok?", ", are biology and chemistry
# enough?" (a verb that asks, opening the last part of a sentence that ends with "?", asks whatever follows it)
_TAG = re.compile(r",\s+(?P<tag>(?:[\w'’-]+\s+){0,4}[\w'’-]+\?|(?:any|anything|anywhere|is|are|do|does|"
                  r"can|could|would|will|should|what|when|where|how|which|who)\b[^,;]*\?)$", re.I)
_BARE_TAG = re.compile(r"(?<=\w)(?<!\bso)(?<!\band)(?<!\bbut)(?<!\bor)\s+"
                       r"(?P<tag>(?:is|would|will|does|can|could|are) (?:that|it|this|they|he|she|we)\b"
                       r"[^?,]{0,30}\?)$", re.I)  # "he's 16 is that ok?"
# from here on nothing is said as a fact: a condition, a game, a report of someone's words
_UNREAL_ON = re.compile(
    r"(?<!sure )(?<!know )(?<!wonder )(?<!wondering )(?<!ask )(?<!asking )(?<!see )(?<!check )(?<!idea )"
    r"\b(?:if(?! (?:possible|poss|that's ok|that is ok|that's okay|you can|you don't mind|that works|so|"
    r"(?:it|that) (?:matters|helps|makes a difference|is relevant|'s relevant|’s relevant))\b)|"
    r"unless|suppose|supposing|imagine|what if|assuming|pretend|hypothetically|in my dreams?|let'?s say|"
    r"role ?play|in the game|my character|someday|some day|one day|dream of|dreaming of|"
    r"(?:said|says|thinks|told me|asked) (?:that )?i)\b", re.I)
# a wish or something asked for, in this piece only
_WISH = re.compile(r"\b(?:would|wouldn't|i'd|i’d|it'd|it’d|he'd|he’d|she'd|she’d|we'd|we’d|they'd|they’d|wish|"
                   r"want to know)\b(?! (?:be )?(?:arriv|check in|checking in|get there|getting in)\w*)", re.I)
# "we'd arrive on the Friday" is the plan of a booking, not a wish


def _verb_kind(word: str) -> str:
    """ "first" for a verb "I" could have said ("work", "stopped"), "third" for one "she" could ("works"), else ""."""
    low = word.lower().replace("’", "'")
    if low in _PLAIN_VERBS or low in _PAST or (low.endswith("ed") and len(low) > 4):
        return "first"
    if low in _THIRD:
        return "third"
    return ""


def _bare(subject: str) -> str:
    return re.sub(r"(?:'m|’m| am|'ve|’ve| have|'re|’re| are|'d|’d)$", "", subject, flags=re.I)


_TIME_OF_WEEK = re.compile(r"^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|morning|"
                           r"afternoon|evening)s?$", re.I)
# a state said without its "I'm": "so pescatarian now", "and retired since May"
_STATE = re.compile(rf"^(?:(?:now|also|still|fully) )?(?:{DIETS}|retired|married|engaged|single|divorced|pregnant|"
                    r"self-employed|unemployed|allergic to|based (?:in|near|out of|just outside))\b", re.I)


def _dropped_subject(rest: str, subject: str) -> str | None:
    """ `rest` with the subject it leaves out, taken from the clause before ("my wife works Saturdays" for
    "works Saturdays"), or None when `rest` is no clause of its own ("cycling" in "I like hiking, cycling")."""
    if not subject or _NOUN_AFTER.match(rest):
        return None
    body = re.sub(rf"^{_ADVERBS}", "", rest, flags=re.I)
    words = body.split()
    if not words:
        return None
    first_person = bool(_FIRST_PERSON.match(subject))
    bare = _bare(subject)
    if words[0].lower() in ("been", "gone") and bare.lower() == "i":
        return f"I've {rest}"  # "been a midwife for a decade now", "gone self-employed"
    state = re.match(r"^(?:no longer|not)\s+(?P<next>\S+)", body, re.I)
    if state and _TIME_OF_WEEK.match(state.group("next")) and bare.lower() == "i":
        day = state.group("next").rstrip(",.")
        return f"I can't do {day if day.endswith('s') else day + 's'}"  # "so not Thursday please"
    if _STATE.match(body) and bare.lower() in ("i", "we") and not re.search(r"\b(?:please|pls|only)\b", body, re.I):
        return f"I'm {body}" if bare.lower() == "i" else f"we are {body}"
    if state and not _verb_kind(state.group("next")):  # "so no longer veggie": a state, said with "is"
        copula = "'m" if bare.lower() == "i" else " are" if bare.lower() == "we" else " is"
        return f"{bare}{copula} {rest[:1].lower()}{rest[1:]}"
    kind = _verb_kind(words[0])
    if not kind and not first_person and len(words) > 1 and _THIRD_SAID.match(body):
        kind = "third"  # "(my husband) finishes at 4"
    if _NEGATION.match(body) or kind == "first" or (kind == "third" and not first_person):
        return f"{bare} {rest[:1].lower()}{rest[1:]}"
    return None


def _subject_of(piece: str) -> str:
    m = _SUBJECT.match(_CONNECTIVE.sub("", LEADING.sub("", piece)))
    return m.group("subject") if m else ""


_CLAUSE_CONJUNCTIONS = frozenset(["so", "but", "because", "cos", "though", "although"])
_DETERMINER = re.compile(r"^(?:the|this|that|these|those|there|it)\b", re.I)
_BARE_RELATION = re.compile(rf"^(?:my|our) {_REL}s?(?: {_NAMES})?$", re.I)
# a clause of its own after a comma: a few words and a verb of being ("I hate the cold, summer is my favourite
# season", "I hate early mornings, anything after 10 is great"); "I like hiking, cycling and swimming" has none
_OWN_CLAUSE = re.compile(r"^(?:[\w'’-]+ ){1,4}?(?:is|are|was|were|works|suits|would|will|can|could|should|might|"
                         r"must)\b", re.I)

# a thing that does something, after a comma: "I live near Hexham, the bus only comes twice a day" (an aside about
# the place, not the user's habit); "I like cats, the dogs too" names a second object and goes on
_THING_DOES = re.compile(r"^(?:the|this|that|there|it) (?:[\w'’-]+ ){0,2}?(?:(?:only|just|never|always|usually|"
                         r"still|also|often|rarely|hardly) )?(?-i:[a-z]{2,}[^s\W'’]s) (?!too\b|and\b|or\b|as well\b)\w",
                         re.I)
# "so wednesdays and fridays suit me best"
_SUITS = re.compile(r"^(?:[\w'’-]+ ){1,3}?(?:suit|suits|work|works) (?:for )?me\b", re.I)
_ONLY_WHEN = re.compile(r"^(?:only |just )(?P<when>(?:after|before|from|between|on|at) [^,;]+?)(?: for me)?"
                        r"(?: (?:please|pls|thanks|if possible|ideally))?$", re.I)
_SHORT_OWN_CLAUSE = re.compile(r"^(?:[\w'’-]+ ){1,2}?(?:is|are|was|were)\b", re.I)

# a leg of a journey said without where to, after a trip to a place: "..., flying out on 12 March", "..., back on
# the 20th", "..., we fly out on the 3rd"
_LEG = re.compile(r"^(?:(?:i|we)(?:'m|’m| am|'re|’re| are)? )?(?:fly(?:ing)?|leav(?:e|ing)|set(?:ting)? off|"
                  r"head(?:ing)? (?:off|out)|(?:coming|come|getting|get) back|back|return(?:ing)?|depart(?:ing)?|"
                  r"driv(?:e|ing) (?:down|up))(?: out| back| home)? (?:on|next|this|in|at|the|from|of|tomorrow|"
                  r"early|late)\b(?!.*\bto (?-i:[A-Z]))", re.I)
# what is asked for because of the fact before "so": a request ("so please ...") or what is ruled out ("so nothing too
# spicy for me", "so no nuts please"); the fact is said before it, whole
_ASKED_FOR = re.compile(r"^(?:please|pls|plz|nothing|no (?!longer\b|one\b|more\b)\w+|none)\b", re.I)
_TRIP = re.compile(r"\b(?:going|off|heading|flying|travell?ing|driving|coming|over) to (?-i:[A-Z])", re.I)


def _next_clause(left: str, rest: str, word: str, subject: str, comma: bool) -> str | None:
    """What follows a comma or conjunction as a clause of its own (its subject restored), or None when the
    sentence goes on with the same clause there."""
    bare = _CONNECTIVE.sub("", rest)
    if not bare:
        return None
    if comma and not word and _LEG.match(bare) and _TRIP.search(left):
        return None  # "going to Lisbon for my 40th, flying out on 12 March": the trip's date, one plan
    if word == "so" and not comma and (_SO_BEFORE.search(left) or _SO_AFTER.match(bare)):
        return None
    if word == "so" and _ASKED_FOR.match(bare):
        return rest  # "I'm allergic to perfume so please don't ...", "... so nothing with jumping for me"
    if (word == "so" or comma) and (when := _ONLY_WHEN.match(bare)):  # "so only after 4 for me please"
        return f"I can only come {when.group('when')}"
    if word == "and" and _BARE_RELATION.match(left.strip()):
        return None  # "My husband Marco and I are coming": one subject
    if word in ("and", "but", "plus") and _QUESTION.match(bare) and not re.split(r"[,;]", bare)[0].endswith("?") \
            and (restored := _dropped_subject(bare, subject)):
        return restored  # "my dad's 75 and has a bad hip, do you...": a statement, not a question
    if re.match(rf"^{_SUBJECT_START}\b", bare, re.I) or _QUESTION.match(bare):
        return rest
    if ((comma or word in _CLAUSE_CONJUNCTIONS) and (_OWN_CLAUSE.match(bare) or _SUITS.match(bare)
                                                      or _THING_DOES.match(bare))) or \
            (word == "and" and len(left.split()) > 3 and _SHORT_OWN_CLAUSE.match(bare)):
        return rest  # "..., summer is my favourite season", "... and thursdays are rehearsal"
    if word == "and" and (_SHARED_AUX.search(left) or len(left.split()) - len(subject.split()) < 2) \
            and not re.match(r"^i(?:'m|’m| am) \d{1,3}$", left.strip(), re.I):  # "I'm 29 and just started running"
        return None  # "I was born and raised", "I live and work in Leeds"
    if (comma or word in ("and", "but", "so", "plus")) and (restored := _dropped_subject(bare, subject)):
        return restored
    if (comma and word in _CLAUSE_CONJUNCTIONS) or (word in _CLAUSE_CONJUNCTIONS and _DETERMINER.match(bare)):
        return rest  # ", so mornings don't work for me", "so those days are easiest"
    doing = re.sub(rf"^{_ADVERBS}", "", bare, flags=re.I).split()
    if (comma or word == "and") and doing and doing[0].lower().endswith("ing") and _PROGRESSIVE.match(left.strip()):
        return f"I'm {bare}"  # "I've been running every morning, training for the Leeds half marathon"
    if comma and not word and re.match(rf"^\d+ (?:{RELATIONS})s?\b", bare) and re.match(r"^(?:i|we)\b", left, re.I):
        return f"I have {bare}"  # "we're a family of five, 3 kids under 10"
    if (word in ("and", "so") or (comma and not word)) and (m := _COPULA.match(left.strip())) \
            and (_COMPLEMENT.match(bare) or (comma and not word and _DESCRIPTION.match(bare.split(",")[0])
                                             and _verb_kind(bare.split()[0]) != "first"
                                             and not re.match(r"^(?:i|we)$", m.group("subject").strip(), re.I)
                                             and not _PLACED.search(left))) \
            and not (word == "and" and re.match(r"^\d+\b(?! years old| months old)", bare.strip())):
        # "our kids are 3 and 5" stays one
        return f"{m.group('subject')}{m.group('copula')} {bare}"  # "Pepper is 11 now and a bit stiff"
    return None


def _cut(part: str, subject: str) -> tuple[list[tuple[str, str]], str]:
    """The clauses of one stretch between dashes or semicolons, each with the conjunction before it, and the
    subject the stretch ends with."""
    pieces: list[tuple[str, str]] = []
    text, before = part, ""
    for _ in range(40):  # each round cuts one clause off; the bound only guards against a pathological sentence
        subject = _subject_of(text) or subject
        for m in _SOFT.finditer(text):
            left, rest = text[: m.start()], text[m.end():]
            word = m.group().strip(" ,").split()[-1].lower() if m.group().strip(" ,") else ""
            following = _next_clause(left, rest, word, subject, comma=m.group().lstrip().startswith(","))
            if following is not None:
                pieces.append((left, before))
                text, before = following, word
                break
        else:
            break
    pieces.append((text, before))
    return pieces, subject


def _kind(piece: str) -> Kind:
    bare = _CONNECTIVE.sub("", LEADING.sub("", piece)).strip()
    if piece.rstrip().endswith("?") or _QUESTION.match(bare):
        return "question"
    return "unreal" if _WISH.search(piece) else "statement"


def pieces(sentence: str) -> list[Piece]:
    """The clauses of a sentence in order, each a statement, a question or unreal (see the module docstring)."""
    text = tidy(sentence).rstrip(".!")
    head = LEADING.sub("", text)
    opening = head.split()[0].lower() if head.split() else ""
    if opening not in ("have", "do") and not _subject_of(head) and (restored := _dropped_subject(head, "I")):
        text = restored  # "can't stand coriander": the user speaking, the "I" left out
    if text.endswith("?") and (tag := _BARE_TAG.search(text) or _TAG.search(text)):
        text = f"{text[: tag.start()]}; {tag.group('tag')}"  # "I've been learning Italian for a year, any tips?"
    out: list[Piece] = []
    subject = ""
    unreal = False
    for part in _HARD.split(text):
        cut, subject = _cut(part, subject)
        for piece, after in ((p.strip(" ,"), w) for p, w in cut):
            if not piece:
                continue
            unreal = unreal or bool(_UNREAL_ON.search(piece))
            out.append(Piece(piece, "unreal" if unreal else _kind(piece), after))
    return out

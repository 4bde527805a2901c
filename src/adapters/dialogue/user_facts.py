"""The user in a conversation: whether a question is about them, their name, and their memories spoken to
them in the second person ("User lives in Lisbon" -> "you live in Lisbon")."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Sequence

from avatar_service.adapters.dialogue.terms import RELATED, terms
from avatar_service.core.text.lexicon import STOPWORDS, words_of
from avatar_service.ports.dialogue import Turn

# "where do I live", "what painter do I like", "am I allergic", "what can't I eat"
_I_ASKS = re.compile(r"\b(?:do|did|does|am|was|have|had|can't|cannot|should)\s+i\s+(?:usually\s+|always\s+|really\s+|"
                     r"actually\s+|still\s+)?"
                     r"(\w+)|\bam i\b|\bcan't i\b|\bcannot i\b", re.I)
# verbs of doing something at the place ("how do I get there", "do I have to book"): questions for the place
_PROCEDURE = words_of("get book find reach contact cancel order reserve go come bring need take leave park have "
                      "pick collect drop return pay sign register apply make join use buy rent hire check change "
                      "arrange borrow talk speak ask call ring phone text dial email see arrive turn show "
                      "report request submit complain claim renew upgrade send post log give notify inform tell let "
                      "sort organise organize stop pause suspend skip restart start switch swap update "
                      "allowed permitted able supposed meant ok okay alright fine "  # "am I allowed to...": a rule
                      "tied locked bound charged covered insured")  # "am I tied into a contract?": the place's terms
_TO = re.compile(r"\s+to\b", re.I)
# "what should I do if I get a toothache?" asks what to do in a case; "what do I do for a living?" asks about them
_IN_CASE = re.compile(r"\b(?:if|in case|when|whenever)\b", re.I)
# "if I cancel three weeks before, do I lose the deposit?": what follows a case the user puts is the place's rule
_IF_I = re.compile(r"\b(?:if|in case|unless)\s+(?:i|we|my|our)\b", re.I)
# "my" after these is the one a service is for ("a ticket for my son", "bring my dog", "a charge for adding my
# husband as a driver"), not what is asked about
# ("what if my dog gets sick?": a condition, the question is what the place does then)
_SERVED = re.compile(r"\b(?:for|with|bring|take|brings|to|about|if|when|from|\w+ing)\s+(?:my|our)\b|"
                     r"\bon (?:my|our) own\b", re.I)  # ("can I bring them both on my own?": unaccompanied)
# "my wife drives an electric car, can you service it?": a request of the place about what is theirs
_ASKS_YOU = re.compile(r"\b(?:can|could|will|would|do) you\b|"
                       r"\b(?:can|could|may|should) (?:i|we) \w+(?: up| in| off| away)? (?:my|our)\b", re.I)
_MINE = re.compile(r"\b(?:my|our)\b|(?<!\bof )\bmine\b", re.I)  # "a mate of mine" is someone else
_REMEMBER = re.compile(r"\b(?:do you (?:know|remember|recall)|what (?:do|did) you (?:know|remember)|"
                       r"what have i told you|tell me about (?:me|myself)|remind me|did i (?:say|tell you|mention)|"
                       r"have i (?:said|told you|mentioned))\b", re.I)
_PERMISSION = re.compile(r"^\s*(?:and\s+)?(?:can|could|may|must|should)\s+(?:i|we|(?:my|our)(?:\s+\w+){1,3}?\s+(?:"
                         r"come|go|join|rent|hire|book|bring|stay|use|have|take|get|do|try|learn|sit|collect|pick|"
                         r"drop|visit|watch|attend|ride|drive|swim|play|skate))\b|"
                         r"^\s*(?:(?:what|which|when|where|how much|how many)\s+)?(?:does|do|will)\s+(?:my|our)"
                         r"(?:\s+\w+){1,2}?\s+(?:have|need)\s+to\b|^\s*what if\b|"
                         r"\bwhat (?:should|do|can) (?:i|we) do\b|"
                         r"^\s*(?:when|where|what time|how (?:late|early))\s+(?:can|could|may)\s+(?:i|we)\b|"
                         r"\b(?:do|will)\s+i\s+(?:actually\s+|really\s+|still\s+)?(?:have|need)\s+to\b|"
                         # ("is the septic tank going to be a problem?": for the place to say, not the user)
                         r"\b(?:be|cause|pose) (?:a |an |any )?(?:problem|issue)s?\b|"
                         r"\b(?:will|would) (?:that|it) matter\b|"
                         r"\bhow (?:do|can|should) (?:i|we) (?:get|book|find|reach|pay|contact|order|reserve|go)\b",
                         re.I)


# "is there anything I can't eat?", "what am I allergic to?": what the user can't have is about them
_I_CANT = re.compile(r"\b(?:anything|something|what|which \w+)\s+(?:that\s+)?i (?:can't|cannot|can not|mustn't|"
                     r"shouldn't|don't|do not) (?:eat|drink|have|stand|tolerate)\b", re.I)


def about_user(question: str) -> float:
    """How surely the question asks about the user themselves: 1 sure, 0.6 likely, 0 not at all."""
    if _REMEMBER.search(question) or _I_CANT.search(question) or _AGAIN_MINE.search(question) or \
            _WHAT_I_DID.search(question):
        return 1.0  # ("when's our shoot again?", "which size did i go for?": what the user booked)
    for m in _I_ASKS.finditer(question):
        verb = (m.group(1) or "").lower()
        # "what coffee do I usually have?" is about them, "do I have to book?" about the place; "what should I
        # do?" asks what to do there, "what do I do for a living?" about them
        to = bool(_TO.match(question, m.end()))
        # ("how long have I got to pay?": a rule)
        procedure = (verb in _PROCEDURE and not (verb == "have" and not to)) or (verb == "got" and to)
        if verb == "do":
            procedure = bool(_IN_CASE.search(question)) or m.group(0).lower().startswith(("should", "can"))
        elif m.group(0).lower().startswith("should") or _IF_I.search(question, 0, m.start()):
            procedure = True  # "how early should I arrive?" asks what the place expects, whatever the verb
        if not procedure:
            return 1.0
    mine = len(_MINE.findall(question)) - len(_SERVED.findall(question)) - len(_ASKS_YOU.findall(question)) + \
        len(_HOW_OLD_THEY.findall(question))  # ("how old is he?" after the user's son: his age, which they told)
    # "can my kid rent a violin?", "does my little girl have to pay?": a rule; "is there anyone to shift my stuff?"
    if _PERMISSION.match(question) or _THERE_IS.match(question):
        mine -= 1
    return 0.6 if mine > 0 else 0.0


_YOU = re.compile(r"\b(?:you|your|yours|here)\b", re.I)
_ME = re.compile(r"\b(?:i|my|me|mine|our|we)\b", re.I)
_MYSELF = re.compile(r"\b(?:i|my|me|mine)\b", re.I)  # ("what room would we need?" asks for the party: the place's)


# "which size did i go for?", "what did we order?": what the user did, which only they told (not "what did I need to
# bring?")
_WHAT_I_DID = re.compile(r"^\W*(?:what|which|when|where|how much|how many)\b[^?]*?\bdid (?:i|we)\b"
                         r"(?! (?:need|have) to| say| talk| agree| discuss)",  # (not "what did we say about dogs?")
                         re.I)
_HOW_OLD_THEY = re.compile(r"\bhow old (?:is|are|was|'s) (?:he|she|they|him|her)\b(?! (?:have|need|got) to)", re.I)
_AGAIN_MINE = re.compile(r"^\W*(?:when|what time|what day|which day|where)(?:'s|\s+is|\s+was|\s+are)\s+(?:my|our)\b"
                         r"[^?]*\bagain\W*$", re.I)  # (not "how much is a day pass for my friend again?")
# (and "is it wheelchair friendly?": the place itself, what the user says of theirs is told after it)
_THERE_IS = re.compile(r"^\s*(?:and\s+)?(?:is|are) there\b|^\s*(?:and\s+)?is it\b", re.I)
_WHO = re.compile(r"^\W*(?:(?:and|so|but)\s+)?who\b", re.I)
_AGAIN = re.compile(r"\b(?:again|remind)\b", re.I)


# "My son is 3, is there something for him?": what the user says of themselves, then the question they ask
# ("a mate of mine wants to bring his jet ski, is that ok?"), or of someone named before ("her battery isn't holding
# its charge, can you sort that?")
_THEN_ASKS = re.compile(r"^(?P<said>.*?\b(?:i|i'm|my|we|our|mine|us)\b.*?|(?:he|he's|his|she|she's|her)\b[^?]*?)"
                        r"[,.;!?]\s+(?P<asked>(?:and\s+)?(?:is|are|can|"
                        r"could|do|does|will|would|should|what|where|when|how|who|which|have|has)\b[^,.;]*\??)\s*$",
                        re.I)
# "thinking of joining, what would it cost for just me?": what the user has in mind, then the question
_HAVING_IN_MIND = re.compile(r"^(?:just\s+)?(?:thinking|planning|looking|hoping|wondering)\s+(?:of|about|to|into|at)\b"
                             r"[^,.;?]*[,.;]\s+(?P<asked>(?:and\s+)?(?:is|are|can|could|do|does|will|would|what|"
                             r"where|when|how|who|which)\b.*)$", re.I)
# "how much is it going to cost? he wants about 20 friends there": the question, then what the user adds
_ASKS_THEN = re.compile(r"^(?P<asked>[^?]+\?)\s+(?P<said>[^?]+[.!]?)$")


# "if we can't make leo's taster can we get our money back?": the case, then the question, said without a comma
_IF_THEN = re.compile(r"^\W*if (?P<said>[^,?]+?)\s+(?P<asked>(?:can|could|do|does|will|would|should|is|are)\s+"
                      r"(?:i|we|you|they)\b[^,.;]*\??)\s*$", re.I)


# "what car have I got, do you remember?": the question is what comes before
_JUST_RECALL = re.compile(r"^(?:and\s+)?(?:do|can|could|would) you (?:remember|recall|know)\s*\??$", re.I)


def asked_part(turn: str) -> str:
    """The question a turn asks after telling something about the user ("my wife can't eat gluten, is that a
    problem?" asks "is that a problem?"); the whole turn when it is said in one go."""
    m = _THEN_ASKS.match(turn.strip())
    if m and not _MYSELF.search(m.group("asked")) and not _JUST_RECALL.match(m.group("asked")):
        return m.group("asked")
    m = _HAVING_IN_MIND.match(turn.strip()) or _ASKS_THEN.match(turn.strip()) or _OF_THEM.match(turn.strip()) or \
        _IF_THEN.match(turn.strip())
    return m.group("asked") if m else turn


# "oscar was sick last night, can he still come today?": told of someone, then asked of "he" or "she"
_OF_THEM = re.compile(r"^(?P<said>[^?]+?)[,.;!]\s+(?P<asked>(?:and\s+)?(?:is|are|can|could|do|does|will|would|should|"
                      r"has|have)\s+(?:he|she|they)\b[^,.;?]*\??)\s*$", re.I)


# the question's object, said last, is a pronoun: what the user told ("..., can you get rid of it for me?", "if i
# need them back the same day, can you do that?")
_ENDS_ON_IT = re.compile(
    r"\b(?:it|them|that|this)(?:\s+(?:too|as well|for me|for us|please|today|out|off|away|up))?\s*\??\s*$", re.I)


def asks_about_the_told(asked: str, before: str = "") -> bool:
    """"there's a fox under our shed, can you get rid of it?": the question asked is about what was told. And when
    what came `before` is a question too, a pointer asks about it: "could he have a bath? what's that cost?"."""
    return bool(_ENDS_ON_IT.search(asked)) or (before.rstrip().endswith("?") and bool(_POINTER.search(asked)))


_POINTER = re.compile(r"\b(?:it|that|this|them|those)\b", re.I)


def has_in_mind(turn: str) -> bool:
    """"thinking of joining, what would it cost?": the turn opens with what the user has in mind, then asks."""
    return bool(_HAVING_IN_MIND.match(turn.strip()))


def addresses_the_place(question: str) -> bool:
    """"Where are you?", "What is your address?", "Is there food?": asked of the personality (the place), not of
    the user (nor "what time are you coming?", which asks when the visit the user booked is)."""
    return (bool(_YOU.search(question)) or bool(_THERE_IS.match(question))) and not _ME.search(question) and \
        not _VISIT.search(question)


def asks_visit_time(question: str) -> bool:
    """"what time will you turn up?": when the place's visit to the user is, which the user booked."""
    return bool(_VISIT.search(question))


_VISIT = re.compile(r"\b(?:what time|when) (?:are|will|is|would) (?:you|he|she|they|someone|somebody) (?:be )?"
                    r"(?:coming|arriving|getting here|turning up|here|come|arrive|get here|turn up)\b", re.I)


def asks_who_here(question: str) -> bool:
    """"Who does the piercings?", "who takes those classes?": one of the place's people, whom what the user told
    does not name (not "who's it with again?", which asks what was told)."""
    return bool(_WHO.match(question)) and not _ME.search(question) and not _AGAIN.search(question)


# what a place's own premises are called, whatever its trade: "where's your shop?" of a florist's studio
_PREMISES = frozenset(terms("shop store studio office premises building venue centre center branch unit workshop"))


@functools.lru_cache(maxsize=1024)
def the_place_itself(description: str) -> frozenset[str]:
    """The terms that name the place itself: its description's ("an independent cinema"), words related to them ("the
    gym" of Riverside Fitness) and what any place's premises are called ("your shop")."""
    own = terms(description)
    return frozenset(own).union(*(RELATED.get(t, ()) for t in own)) | _PREMISES


# "The receptionist at Shear Bliss, a hair salon." names the place: capitalised words after the first, 4+ letters
_NAME_WORD = re.compile(r"(?<!^)(?<![.!?] )\b[A-Z][\w'-]{3,}")


def place_names(description: str) -> frozenset[str]:
    """The words of the place's own name (and its town) as the personality's description gives them."""
    return frozenset(_NAME_WORD.findall(description.strip()))


def mentions_user(question: str) -> bool:
    """"I", "my", "we"...: the question involves the user, so what they told may answer it."""
    return bool(_ME.search(question))


def asks_permission(question: str) -> bool:
    """"Can I take pictures?", "Do I have to leave a deposit?": questions about the place's rules."""
    return bool(_PERMISSION.search(question)) and about_user(question) < 1.0


_NAME_IN_MEMORY = [
    re.compile(r"\bname is ([A-Z][\w'-]+(?: [A-Z][\w'-]+)?)"),
    re.compile(r"\b(?:prefers to be called|likes to be called|goes by) ([A-Z][\w'-]+)"),
]
_NAME_IN_TURN = re.compile(r"\b(?:my name is|my name's|call me|i'm called|i am called)\s+([A-Za-z][\w'-]+)", re.I)
_NAMED = re.compile(r"\b(?:named|called|name is|is|was)\s+([A-Z][\w'-]+)|\b(?:[a-z]+)\s+([A-Z][\w'-]+)")
_LEADING_NAME = re.compile(r"^([A-Z][a-z][\w-]*)(?:'s|’s)?\s+[a-z]")
_NOT_NAMES = words_of("User The A An My Our They He She It This That There You I")


def name_in_turn(text: str) -> str | None:
    m = _NAME_IN_TURN.search(text)
    if not m or m.group(1).lower() in STOPWORDS:
        return None
    return m.group(1)[:1].upper() + m.group(1)[1:]


def user_name_in(memories: Sequence[str]) -> str | None:
    """The user's name as the memories give it: "User's name is Ana", or the name most memories start with
    ("Alice loves Vermeer", "Alice has a son named Tom") that no memory names as someone else ("a dog
    named Bruno", "their wife Mei")."""
    for memory in memories:
        for pattern in _NAME_IN_MEMORY:
            if m := pattern.search(memory):
                return m.group(1)
    others = {g for memory in memories for m in _NAMED.finditer(memory) for g in m.groups() if g}
    leading = Counter(m.group(1) for memory in memories if (m := _LEADING_NAME.match(memory.strip())))
    for name, _ in leading.most_common():
        if name not in _NOT_NAMES and name not in others:
            return name
    return None


_SUBJECT = re.compile(r"^(?:the user's|user's|users'|the user|user|they|he|she)\b\s*", re.I)
_FIRST_PERSON = [
    (re.compile(r"\bI am\b"), "you are"),
    (re.compile(r"\bI'm\b"), "you're"),
    (re.compile(r"\bI've\b"), "you've"),
    (re.compile(r"\bI\b"), "you"),
    (re.compile(r"\b[Mm]y\b"), "your"),
    (re.compile(r"\b[Mm]e\b"), "you"),
]
_USER_PRONOUNS = [
    (re.compile(r"\bthey were\b"), "you were"),
    (re.compile(r"\bthey are\b"), "you are"),
    (re.compile(r"\bthey're\b"), "you're"),
    (re.compile(r"\bthey\b"), "you"),
    (re.compile(r"\bthemselves\b"), "yourself"),
    (re.compile(r"\bthem\b"), "you"),
    (re.compile(r"\btheir\b"), "your"),
]
# "Raj wants to make mugs for his sister": "his" is the user's own unless someone else was named before it
_HIS_HER = re.compile(r"\b(?:his|her|himself|herself)\b")
_SOMEONE = re.compile(r"(?<!your )\b(?:[A-Z][a-z]+|wife|husband|partner|sons?|daughters?|child|children|kids?|"
                      r"mother|father|mum|mom|dad|parents?|brother|sister|friend|boss|girlfriend|boyfriend|baby|"
                      r"grand\w+|aunt|uncle|cousin|niece|nephew|colleague|neighbour|neighbor|dog|cat|horse)\b")
_OWN = {"his": "your", "her": "your", "himself": "yourself", "herself": "yourself"}


def _own_pronouns(text: str) -> str:
    out: list[str] = []
    start = 0
    for m in _HIS_HER.finditer(text):
        if _SOMEONE.search("".join(out) + text[start: m.start()]):
            break
        out += [text[start: m.start()], _OWN[m.group(0)]]
        start = m.end()
    return "".join(out) + text[start:]


_IRREGULAR = {"is": "are", "was": "were", "has": "have", "does": "do", "isn't": "aren't", "wasn't": "weren't",
              "hasn't": "haven't", "doesn't": "don't", "'s": "'re"}


def _base_verb(verb: str) -> str:
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith(("ches", "shes", "sses", "xes", "zes", "oes")):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


# (and the everyday verbs: "User is 41 and wants to start karate"; not a noun: "a cat and two dogs")
_SECOND_VERB = re.compile(r"\b(but|and|or) (is|was|has|does|(?:want|like|love|need|hope|plan|prefer|work|live|hate|"
                          r"enjoy|get|take|make|use|drive|own|keep|tr|walk|play|know|feel|find)(?:s|ies))\b")
_RELATIVE = re.compile(r"\b(?:who|that|which|whose|whom)\b", re.I)


def second_person(memory: str, user_name: str | None = None) -> str:
    """ "User lives in Lisbon" -> "you live in Lisbon"; "Alice's dog is Rex" -> "your dog is Rex".

    Extracted memories are in the third person with "User" (or the user's name, or "they") as the subject;
    first-person notes ("I live in Porto") and bare predicates ("Likes hiking") are turned around too. A
    memory about someone else ("Bruno is a beagle") is returned as it is.
    """
    text = memory.strip().rstrip(".")
    if user_name:
        text = re.sub(rf"^{re.escape(user_name)}(?=['’]s\b|\s)", "User", text)
    m = _SUBJECT.match(text)
    if m:
        subject = m.group(0).strip().lower()
        rest = text[m.end():]
        if subject.endswith(("'s", "'")):
            text = "your " + rest
        else:
            verb, _, tail = rest.partition(" ")
            if verb.endswith("ly") and tail:  # "usually calls their mum": the verb comes second
                second, _, tail = tail.partition(" ")
                verb = f"{verb} {_base_verb(second) if second.islower() else second}"
            elif verb.islower():
                verb = _base_verb(verb)
            text = f"you {verb} {tail}".rstrip()
        for pattern, repl in _USER_PRONOUNS:
            text = pattern.sub(repl, text)
        if not subject.endswith(("'s", "'")):
            text = _own_pronouns(text)
            # the user's second verb agrees too: "you would like to ride but are nervous" (not a son's: "you have a
            # son who is 8 and has asthma")
            if not _RELATIVE.search(text):
                text = _SECOND_VERB.sub(lambda v: f"{v.group(1)} {_base_verb(v.group(2))}", text)
    elif text.lower().startswith(("you ", "your ")):
        pass
    elif re.match(r"^(I|My|I'm)\b", text):
        for pattern, repl in _FIRST_PERSON:
            text = pattern.sub(repl, text)
    else:
        first, _, tail = text.partition(" ")
        if first.lower().endswith("s") and first[:1].isupper() and tail and first.isalpha() and first.lower() not in (
                "this", "his", "was", "is", "as"):
            return f"you {_base_verb(first.lower())} {tail}"  # a bare predicate: "Likes hiking"
        return text  # about someone or something else: quoted as it is
    return text[:1].lower() + text[1:]


def name_in_history(history: Sequence[Turn]) -> str | None:
    """The name the user last gave for themselves in the conversation ("my name is Ana")."""
    for turn in reversed(history):
        if turn.role == "user":
            name = name_in_turn(turn.content)
            if name:
                return name
    return None

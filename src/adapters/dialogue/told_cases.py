"""The user's own people and things a question names, read as the user told of them.

"can Bramble come along?" is asked for "a springer spaniel called Bramble", so the place's "Dogs are welcome as long
as they're kept on a lead" answers it; "could you fix the split on my sofa?" is asked for "a leather sofa with a split
in one arm", which "We don't do leather" answers. What the memory says is the question's case: the place's sentence
that holds some of it gains a little (it never makes a question more or less answerable), and the memory itself is no
answer (the user knows what they told)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from avatar_service.adapters.dialogue.age_limits import KIN_WORDS
from avatar_service.adapters.dialogue.my_people import NAME, SAME_PERSON
from avatar_service.adapters.dialogue.terms import NUMBER_WORDS, RELATED, common_terms, owners, stem, terms
from avatar_service.adapters.dialogue.user_facts import asks_about_the_told, has_in_mind

# "my sofa", "our dog", "my nan's chair", "my little boy": the word after the possessive, and its possessor's own noun
_POSSESSED = re.compile(r"\b(?:my|our)\s+(?:(?:little|old|new|own|youngest|eldest|oldest)\s+)?([a-z]+)"
                        r"(?:'s\s+([a-z]+))?|"
                        # "dad's watch", "nan's ring": the user's people need no "my"
                        r"\b(mum|mam|mom|dad|nan|nana|nanna|gran|granny|grandma|grandad|grandpa|wife|husband|hubby)"
                        r"'s\s+([a-z]+)", re.I)
# the words one person is told by ("my nan" is the memory's grandmother), and the user's home ("from mine")
_SAME = {**SAME_PERSON, **dict.fromkeys(("home", "house", "flat", "place", "lives", "live", "mine", "area"), "home")}
TOLD_WEIGHT = 0.3  # (a generic word's: answering.question_weights)
_FEELING = frozenset(terms("obsessed mad crazy keen love loves hate hates fond afraid scared frightened nervous"))
_TOPIC_WORDS = 6
_SHORTEST_PART = 4  # "chair" names an "armchair"; "car" does not name a "scar"
_GENERIC = frozenset(("own", "way", "time", "turn", "booking", "order", "appointment", "stuff", "things"))
_USERS_HOME = re.compile(r"^User (?:lives|has (?:a|an) (?:\w+ )?(?:house|flat|home))\b")
_THE_THING = re.compile(r"\b(?:the|that|this|those|these|both) (?:(?:old|new|two|three)\s+)?([a-z]+)(?:\s+([a-z]+))?",
                        re.I)
_USERS_THING = re.compile(r"^User (?:has|owns|bought|has bought|inherited)\b")
# "from mine", "where I live": the user's home
_MINE = re.compile(r"\b(?:at|from|to|for|round|outside|near) (mine)\b|\bwhere (?:i|we) (live)\b", re.I)


def the_cases(text: str, asked: str, memories: Sequence[str], known: frozenset[str], place: frozenset[str],
              weights: dict[str, float], aged: bool) -> tuple[list[int], frozenset[str]]:
    """The memories of whom or what a question (`text`, its question `asked`) asks the place for, and what they tell of
    them that it does not say; the words naming them weigh as a case in `weights`. `known`: the terms of the place's
    own sentences; `place`: those of the place's own name, which tell nothing of the user's ("a self-employed
    electrician" at "Keepsafe Self Storage"); `aged`: the question is asked at an age a memory gives."""
    if not (asks_the_place_for(asked) or _ABOUT_MINE.match(text)):
        return [], frozenset()
    # (named where the user tells of them before asking: "my mum does pickup sometimes, will she be ok getting up?")
    cases, naming = memories_named(text, memories, known)
    # (of what the question names of them: "arjun's condition" is the memory of his dyspraxia, not of his trial)
    asked_of = set(terms(asked)) - naming
    # (whether a thing is safe for them asks of what they need: "is the party food safe for noah?" of his peanut
    # allergy, not of his party)
    needing = [i for i in cases if _NEEDS.search(memories[i])] if _SAFE.search(asked) else []
    told_of = case_terms(text, memories, needing or [i for i in cases if asked_of & set(terms(memories[i]))] or
                         cases) - place
    if not told_of and not asks_you_to(asked) and not aged:
        return [], frozenset()  # ("would my nan be ok on the boat?" / "User's nan Pat is 92": nothing but her age)
    for t in (naming | (_SAFE_TERMS if needing else frozenset())) & weights.keys():  # (nor is "safe" what is asked)
        weights[t] = min(weights[t], TOLD_WEIGHT)
    for t in told_of if needing else ():  # (what they need, the place says in so many words, is asked: "no nuts")
        if t in known or RELATED.get(t, frozenset()) & known:
            weights.setdefault(t, 1.0)
    return cases, told_of


_SAFE = re.compile(r"\b(?:safe|ok|okay|alright|all right|fine|suitable|manage|cope|avoid)\b", re.I)
_SAFE_TERMS = frozenset(terms("safe fine suitable manage cope alright"))
# what someone needs or cannot have: their health, diet, body
_NEEDS = re.compile(r"\b(?:allerg\w*|intoleran\w*|coeliac|celiac|vegan|vegetarian|halal|kosher|diabet\w*|asthma\w*|"
                    r"epilep\w*|pregnan\w*|wheelchair|disab\w*|autis\w*|sensitive|condition|injur\w*|arthritis|"
                    r"blind|deaf|dementia|anxi\w*)\b", re.I)
# "in my condition", "with my allergy": the user's own needs, which the memories of the user tell
_MY_NEEDS = re.compile(r"\bmy (?:condition|health|allerg\w*|diet|dietary needs|needs|state)\b", re.I)
_USERS_OWN = re.compile(r"^User (?:is|has|was|gets|can't|cannot)\b")


def memories_named(text: str, memories: Sequence[str], known: frozenset[str]) -> tuple[list[int], frozenset[str]]:
    """The memories about a person or thing of the user's that the question names, by the name a memory gives it
    ("Bramble") or as "my X" when a memory speaks of one ("my sofa", "my brother", "my nan's chair"); and the terms
    of the question that name them. A name the place's own sentences hold (`known`: their terms) is not one of the
    user's ("Sunday", "Chester")."""
    asked = set(owners(text))  # ("hannah's bike": Hannah)
    owned = {w.lower(): _SAME.get(w.lower(), w.lower())
             for m in (*_POSSESSED.finditer(text), *_MINE.finditer(text)) for w in m.groups() if w}
    owned = {w: o for w, o in owned.items() if o not in _GENERIC and (o in _KIN or len(o) >= 3)}
    # "my son's bike": the bike of a memory that names the son ("User's son Arlo ... has a red BMX"), not every bike
    whose = {_SAME.get(thing.lower(), thing.lower()): _SAME.get(owner.lower(), owner.lower())
             for m in _POSSESSED.finditer(text) for owner, thing in (m.groups()[:2], m.groups()[2:]) if thing}
    common = common_terms(text)
    # "can the old fridge freezer go in?": a thing the user told they have, named with "the"
    those = {w for m in _THE_THING.finditer(text) for w in m.groups() if w and stem(w) not in common and len(w) >= 3}
    found: list[tuple[int, set[str], set[str]]] = []
    for i, memory in enumerate(memories):
        # (whom or what a memory is about comes early in it: "User has a leather sofa with ...", not "Neil would rather
        # wait at the garage than leave his car"; "User's son Oscar is ...", "... a spaniel called Bramble", not "...
        # booked for Tuesday 10 June at 2pm to talk about Oscar starting")
        opening = owners(memory)[:_TOPIC_WORDS + 2]
        names = {n for n in (n.lower() for n in NAME.findall(memory))
                 if n in asked and n in opening and stem(n) not in known}
        said = {_SAME.get(w, w) for w in opening[:_TOPIC_WORDS]} | _thing_had(memory)
        things = {w for w, o in owned.items()
                  if (o in said or (len(o) >= _SHORTEST_PART and any(s.endswith(o) for s in said))) and
                  (o != "home" or _USERS_HOME.match(memory)) and  # (the user's home: not "User's mum lives in ...")
                  (o not in whose or whose[o] in said)}
        if _USERS_THING.match(memory):
            things |= those & set(opening[:_TOPIC_WORDS])
        if names or things:
            found.append((i, names, things))
    # a thing more than one memory may be ("my piano": the upright or the digital one?) is no case; a name or a
    # person is one, whatever the memories tell of them
    if mine := _MY_NEEDS.search(text):
        found += [(i, {mine.group(0)}, set()) for i, m in enumerate(memories)
                  if _USERS_OWN.match(m) and _NEEDS.search(m)]
    counts = Counter(w for _, _, things in found for w in things if owned.get(w, w) not in _PEOPLE)
    named = [(i, names | things) for i, names, things in found if names or any(counts[w] <= 1 for w in things)]
    return [i for i, _ in named], frozenset(terms(" ".join(w for _, naming in named for w in naming)))


def _thing_had(memory: str) -> set[str]:
    """The name of what the user has, to its end however many words describe it ("User has a brown leather corner
    sofa, ...": sofa)."""
    m = _HAD.match(memory)
    return set(m.group(1).lower().split()) if m else set()


_HAD = re.compile(_USERS_THING.pattern.removesuffix(r"\b") + r" (?:an? |two |three |some )?"
                  r"((?:[a-z-]+ ){0,5}?[a-z-]+)(?=\s*(?:[,.;]|$|\b(?:with|and|that|which|who|called|named|from|in|on|"
                  r"at|for)\b))", re.I)


_KIN = frozenset(_SAME.get(w, w) for w in KIN_WORDS)
_PEOPLE = _KIN | frozenset(_SAME.values())  # (and the user's home: one, however many memories tell of it)


def case_terms(text: str, memories: Sequence[str], named: Sequence[int]) -> frozenset[str]:
    """The terms of the named memories that the question does not say itself, and no word of everyday English ("a
    petrol strimmer that won't start": the petrol, not the starting)."""
    own = set(terms(text)) | _NOT_TOLD_OF
    return frozenset(t for i in named for t in terms(memories[i]) if t not in own and not t[:1].isdigit() and
                     t not in common_terms(memories[i]) and t not in _their_name(memories[i]))


# how a memory names its subject, not what it tells of them: "User", naming ("a springer spaniel called Bramble": no
# phone call), kin ("User's son Oscar": no child's price), numbers ("two full days"); and their name (_their_name)
_NOT_TOLD_OF = frozenset(terms(" ".join(("user called named name child children kid kids", *_SAME,
                                         *NUMBER_WORDS))))


def asks_the_place_for(text: str) -> bool:
    """Asks the place something for one of the user's people or things: a request ("could you fix my sofa?"), a rule
    for them ("is it free for my mum?", "does that apply to my chair?"), their coming ("can Bramble come along?"); not
    what the user told of them ("does she eat meat?")."""
    return bool(_FOR_THEM.search(text))


# "what about my dad's place, would that cost extra?": the question before, asked for them
_ABOUT_MINE = re.compile(r"^\W*(?:and\s+)?(?:what|how) about (?:my|our)\b", re.I)


def asks_you_to(text: str) -> bool:
    """A request of the place ("could you collect my son's BMX?"): what the user told of it is never the answer."""
    return bool(_YOU_TO.search(text))


_YOU_TO = re.compile(r"\b(?:can|could|will|would|do) you\b(?! (?:tell|remind|remember|recall|say|know)\b)", re.I)
_FOR_THEM = re.compile(_YOU_TO.pattern + "|"
                       # ("what would it cost to service ella's bike?", "how much to fix my sofa?")
                       r"^\W*(?:what|how much)\b.*\bto\s+\w+\s+(?:my|our|[a-z]+'s)\b|"
                       r"^\W*(?:is|are|does|do|will|would)\b.*\b(?:for|to|with|on|at|in)\s+(?:my|our|mine)\b|"
                       # ("is it ok for hannah?", "is the club ok with arjun's condition?": whom a memory names)
                       r"^\W*(?:is|are|would|will) (?:it|that|this|they|the \w+(?: \w+)?|you) "
                       r"(?:ok|okay|alright|all right|"
                       r"safe|fine|suitable|happy) (?:for|with) (?!you\b|us\b|me\b)\w+|"
                       r"^\W*(?:and\s+)?(?:can|could|may|is|are|would|will)\s+(?:\w+|(?:my|our|the)(?:\s+\w+){1,3}?)\s+"
                       r"(?:come|go|join|bring|get|have|use|stay|board|fish|ride|swim|play|visit|do|try|"
                       r"be (?:ok|okay|allowed|able|welcome|alright|fine))\b|"
                       r"\b(?:anything|something) (?:my|our) (?:\w+ ){1,2}(?:can|could) (?:eat|drink|have|use|wear)\b",
                       re.I)  # ("is there anything my husband can eat?")


def weigh_the_told(weights: dict[str, float], text: str, asked: str, leans_back: bool) -> frozenset[str]:
    """What the user told before the question they asked (`asked`, the end of `text`), weighed down in `weights`.

    It is the case of a question with words of its own ("my friend's boy hates loud noise, is there a good time to
    bring him?"): it ranks, never refuses, and weighs as little as a generic word, so the sentence holding what is
    asked is not found short for lacking it ("my husband needs somewhere for his tools and stock, do you do anything
    for businesses?"); "..., is that a problem?" is about it (or when the question leans on the turn before,
    `leans_back`: "how much is it going to cost? he wants 20 friends there"); but "there's a fox under our shed, can
    you get rid of it?" asks about what was told: "it" is the fox."""
    told = frozenset(terms(text)) - frozenset(terms(asked))
    told_first = text[:len(text) - len(asked)]
    if asked != text and not asks_about_the_told(asked, told_first) and (
            {t for t in terms(asked) if weights.get(t, 0.0) >= 1.0} - common_terms(asked) or leans_back
            or has_in_mind(text)):
        for t in told & weights.keys():
            weights[t] = min(weights[t], TOLD_WEIGHT)
    for t in told & _FEELING & weights.keys():  # "my son's obsessed with breakdancing, ...": what, not how much
        weights[t] = min(weights[t], 0.3)
    return told


def named_aside(text: str) -> bool:
    """The user's own are named for what is asked ("is there parking for my car?", "a permit for mine?"), not as
    what is asked about ("is my dad ok to come?", "could you fix my sofa?")."""
    return bool(_ASIDE.search(text))


_ASIDE = re.compile(r"\b(?:for|with) (?:my|our|mine)\b", re.I)


def _their_name(memory: str) -> frozenset[str]:
    """The name of whom a memory is about ("User's nan Pat is 92", "a greyhound called Dash"), which tells nothing of
    them; not the places it names ("User's mum lives in Marlborough")."""
    return frozenset(terms(" ".join(n for m in _SUBJECT_NAME.finditer(memory) for n in m.groups() if n)))


_SUBJECT_NAME = re.compile(r"^User's (?:\w+ ){1,2}?([A-Z][a-z]+)\b|\b(?:called|named) ([A-Z][a-z]+)")

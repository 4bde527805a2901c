"""Whether a newly extracted fact repeats, revises or adds to the memories a user already has.

The caller embeds the new fact, searches the user's memories in the same personality scope (a handful of
nearest, e.g. k=5) and passes them here with their cosine similarities. The answer:

- "skip": the fact is already known (same text, or nothing in it that a close memory does not say);
- "update": it revises one memory (`memory_id`): a new value of a one-valued slot ("User lives in Porto"
  after "User lives in Lisbon") or a close restatement that says more or differs ("User hates hiking"
  after "User loves hiking"); the caller replaces that memory's content;
- "new": anything else.

Thresholds (cosine) were set on pairs of facts in the extractor's own phrasing:

- all-MiniLM-L6-v2 (int8): `near` 0.85. Revisions score 0.85-0.97 (loves/hates hiking 0.85, vegan/vegetarian
  0.89, "likes jazz"/"likes jazz music" 0.96); different facts that share a frame mostly score below
  (learning Korean/Japanese 0.79, likes hiking/swimming 0.54), except the same place in two slots
  ("lives in Lisbon"/"is from Lisbon" 0.91), which the slot check keeps apart.
- lexical-hash: `near` 0.75. Only rewordings with the same words reach it (0.78-0.81); its scores say
  nothing about meaning, so it revises less and adds more.

One-valued slots (name, preferred name, age, birthday, where the user lives or moved to, is from, hometown,
is based, job title, marital status, a favourite of each kind, the name of a spouse or parent) are recognised
from the extractor's templates and updated whatever the similarity: a person has one of each at a time. So is
how much they like one thing ("loves coffee", then "does not like coffee"), their diet ("is vegetarian", then
"is no longer veggie"; a diet also revises a liked food it leaves out, "is vegetarian" after "favourite food is
steak", and eating such a food again revises the diet, "has started eating fish again" after "is vegan") and
the age of someone they named ("User's son Rory is 4", then "... is 5 years old").
A negative fact takes back a taste it shares a word with ("can't do mornings" revises "prefers morning
appointments"), and a name said two ways ("User's cat is named Luna", "User has a cat named Luna") is one
fact. The subject may be "User" or a name ("Alice lives in Utrecht", as a person might write a memory by hand).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from avatar_service.core.memory.vocabulary import HOMES, OCCUPATIONS, RELATIONS
from avatar_service.core.text.lexicon import FACT_GLUE, words_of

Action = Literal["skip", "update", "new"]


@dataclass(frozen=True, slots=True)
class Candidate:
    memory_id: str
    content: str
    similarity: float  # cosine similarity of the two contents' embeddings


@dataclass(frozen=True, slots=True)
class Thresholds:
    near: float  # at or above: the two are the same fact, perhaps revised


@dataclass(frozen=True, slots=True)
class Decision:
    action: Action
    memory_id: str | None = None  # the memory to update, or the one that makes the fact redundant
    similarity: float = 0.0


MODEL_THRESHOLDS = Thresholds(near=0.85)
LEXICAL_THRESHOLDS = Thresholds(near=0.75)


def thresholds_for(embedder_name: str) -> Thresholds:
    return LEXICAL_THRESHOLDS if embedder_name.startswith("lexical") else MODEL_THRESHOLDS


# "User lives in Lisbon", and a memory someone wrote with the user's name: "Alice lives in Utrecht"
_SUBJECT = r"^(?:the )?(?:user|(?-i:[A-Z])[a-z]+)(?:'s|’s)?\s+"
_UNIQUE_RELATIONS = r"wife|husband|partner|spouse|boyfriend|girlfriend|fianc[eé]e?|mom|mum|mother|dad|father"
_SLOTS: list[tuple[str, re.Pattern[str]]] = [
    (name, re.compile(_SUBJECT + pattern, re.I))
    for name, pattern in [
        ("name", r"name is (?P<v>.+)"),
        ("diet", r"is (?P<v>(?:no longer |not |now )?(?:an? )?(?:(?:fully|completely|strictly|strict|totally|mostly) )?"
                 r"(?:vegetarian|veggie|vegan|pescatarian))\b.*"),
        ("nickname", r"likes to be called (?P<v>.+)"),
        ("age", r"is (?P<v>\d+) years old"),
        ("birthday", r"birthday is (?P<v>.+)"),
        # "lives with her parents in Croydon" says where as much as "lives in Croydon"
        ("home", r"(?:currently |now )?lives (?:with (?:[\w'’-]+ ){1,4}?)?(?:in|near|close to|outside|just outside|by) "
                 r"(?P<v>.+)"),
        ("home", r"(?:just |recently )?(?:moved|relocated) to (?P<v>.+)"),
        ("home", r"(?:has )?(?:bought|rented|is renting|found|got|moved into|(?:got|picked up|collected) the keys "
                 rf"(?:to|for)) (?:an?|their) (?:[\w-]+ ){{0,2}}?(?:{HOMES}) (?:in|near|(?:just )?outside) (?P<v>.+)"),
        ("origin", r"is (?:originally )?from (?P<v>.+)"),
        ("hometown", r"hometown is (?P<v>.+)"),
        ("base", r"is based in (?P<v>.+)"),
        ("job", r"works (?:from home |remotely |part[- ]time |full[- ]time |freelance |nights |shifts )?as an? "
                r"(?P<v>.+)"),
        ("job", r"(?:got |was |has been )?promoted to (?:an? )?(?P<v>.+?)(?: (?:last|this) \w+)?"),
        # a job about to start is the job from now on: "starts as a trainee electrician on Monday"
        ("job", r"(?:starts|is starting|will start|has started|started) (?:work |(?:a|their) new job )?as (?:an? )?"
                r"(?P<v>.+?)(?: (?:on|next|this|in|from|tomorrow)\b.*)?(?:, having .*)?$"),
        ("employer", r"works (?:at|for) (?P<v>.+)"),
        ("job", rf"(?:is|has become|became|is becoming) (?:now )?an? (?P<v>(?:[\w-]+ ){{0,3}}?(?:{OCCUPATIONS}))"
                r"(?: (?:at|in|for) [^,]+)?"
                r"(?:, having .*)?$"),
        ("car", r"(?:now )?drives an? (?P<v>.+)"),
        ("marital", r"(?:is|got|just got|recently got) (?P<v>married|engaged|single|divorced|widowed)\b.*"),
        ("favorite {kind}", r"favou?rite (?P<kind>[\w\s-]+?) (?:is|are) (?P<v>.+)"),
        ("{rel} name", rf"(?P<rel>{_UNIQUE_RELATIONS})(?:'s|’s)? (?:name is|is named|is called) (?P<v>.+)"),

    ]
]
# a person of the user's by name, and their age: "User's son Rory is 4", then "User's son Rory is 5 years old"
_RELATIVE_AGE = re.compile(r"^(?:the )?user(?:'s|’s) (?:[\w-]+ ){0,2}?(?P<who>(?-i:[A-Z])[\w'’-]+) "
                           r"(?:is|just turned|turned|is turning|turns) (?P<v>\d{1,3})\b", re.I)
_WORD = re.compile(r"[^\W_]+")
# "user" is the extractor's subject and "s" what is left of "user's"; FUNCTION_WORDS would also drop "not" and
# "more", and "User is not vegan" would then repeat "User is vegan" instead of revising it.
_STOP = FACT_GLUE | words_of("user users s")


def slot_of(content: str) -> tuple[str, str] | None:
    """(slot, value) when `content` states a one-valued attribute, e.g. ("home", "lisbon")."""
    text = re.sub(r"^((?:the )?user) now ", r"\1 ", content.strip().rstrip(".!"), flags=re.I)
    if m := _RELATIVE_AGE.match(text):
        return f"age of {m.group('who').casefold()}", m.group("v")
    for name, pattern in _SLOTS:
        match = pattern.match(text)
        if match:
            groups = {k: re.sub(r",? having .*$", "", v.casefold()) for k, v in match.groupdict().items()
                      if v is not None}  # "..., having left KPMG in May" says what came before
            if name == "home":  # "moved to Amsterdam from Utrecht" says where they live now
                groups["v"] = re.sub(r"\s+from\s.*$", "", groups["v"])
            return name.format(**groups), _normal(groups["v"])
    return None


# how much the user likes one thing: "loves coffee", then "does not like coffee" (the same thing, changed)
_TASTE = re.compile(_SUBJECT + r"(?P<how>loves|likes|enjoys|adores|hates|dislikes|detests|can't stand|does not like|"
                    r"does not enjoy|doesn't like|prefers) (?P<v>.+)", re.I)


def taste_of(content: str) -> tuple[str, str] | None:
    """(thing, how) when `content` says how much the user likes one thing, e.g. ("coffee", "loves")."""
    match = _TASTE.match(content.strip().rstrip(".!"))
    return (_normal(match.group("v")), match.group("how").casefold()) if match else None


# a fact that says what the user left behind: "now prefers green tea to coffee", "stopped eating meat"
# ("left Bristol" takes back "lives in Bristol", "left KPMG" takes back "works at KPMG")
_GIVEN_UP = re.compile(_SUBJECT + r"(?:now prefers .+? to|switched from|stopped|gave up|no longer \w+|"
                       r"is no longer (?:at|with)|moved (?:away )?"
                       r"from|(?:has )?(?:left|quit|moved out of|handed in their notice at)) (?P<old>.+?)"
                       r"(?: to .+)?$", re.I)

# what the user has, rides, works at or plays: a thing they can sell, leave or give up ("quit tennis" takes back
# "plays tennis every Saturday")
_HOLDS = re.compile(_SUBJECT + r"(?:drives|rides|owns|has|works (?:at|for|in)|plays|goes to)\b", re.I)
# "User is now a photographer, having left KPMG in May"
_HAVING = re.compile(r", (?:having (?:left|sold|quit|given up|stopped|retired from|moved (?:away )?from|moved out of|"
                     r"switched from|gone off|handed in their notice at)|no longer) (?P<old>.+?)$", re.I)


def given_up(content: str) -> set[str] | None:
    """The content words of what a fact says the user gave up or switched from ({"coffee"}), or None."""
    match = _GIVEN_UP.match(content.strip().rstrip(".!")) or _HAVING.search(content.strip().rstrip(".!"))
    if not match:
        return None
    old = re.sub(r"^(?:their |my |a )?(?:job|work|position|role|place)s? (?:at|with|for|in) (?:the )?", "",
                 match.group("old"), flags=re.I)  # "their job at the bank": what was left is the bank
    old = re.sub(r"\s+(?:after|since|because|when|as|last|this|in|on|at|for|a|an|two|three|\d+)\b.*$", "",
                 old, flags=re.I)  # "running after their knee op": what was given up is "running"
    words = _content_words(old) - {"eating", "drinking", "smoking", "job", "work", "position", "role", "their"}
    return words or None


# "User's cat is named Luna" and "User has a cat named Luna" say the same
_NAMING = re.compile(_SUBJECT + r"(?:(?:[\w-]+ )*?(?P<rel>[\w-]+) (?:is|are) (?:named|called)|has (?:[\w-]+ )+?"
                     r"(?P<had>[\w-]+) (?:named|called)) (?P<v>.+)$", re.I)
# a fact said the other way round: "User can't do mornings" after "User prefers morning appointments"
_NEGATIVE = re.compile(r"\b(?:not|can't|cannot|never|no longer|hates|dislikes|detests|doesn't|don't)\b", re.I)
_POSITIVE_TASTES = frozenset(["loves", "likes", "enjoys", "adores", "prefers"])


def naming_of(content: str) -> tuple[str, str] | None:
    """(who, name) when `content` says what someone or some pet of the user's is called: ("cat", "luna")."""
    match = _NAMING.match(content.strip().rstrip(".!"))
    if not match:
        return None
    return _stem((match.group("rel") or match.group("had")).casefold()), _normal(match.group("v"))


# a person or pet of the user's who is gone: "User lost Rex last month", "User's dog Rex passed away"
_GONE = re.compile(r"\b(?:died|passed away|passed on|put down|put to sleep|lost|no longer with (?:us|them))\b", re.I)
_CAPITALISED = re.compile(r"(?<!^)\b(?-i:[A-Z])[a-z]+\b")


# "User split up with their partner" revises "User's boyfriend is named Jake" and "User is married"
_SPLIT_UP = re.compile(r"\b(?:split up|broke up|separated|divorced|called it off)\b", re.I)
_PARTNER = re.compile(rf"\b(?:{_UNIQUE_RELATIONS})\b(?!'s)|\b(?:married|engaged)\b", re.I)


def _gone_from(new_content: str, old_content: str) -> bool:
    """Whether the new fact says that someone the old memory names is gone."""
    if not _GONE.search(new_content):
        return False
    return bool(set(_CAPITALISED.findall(new_content)) & set(_CAPITALISED.findall(old_content)))


def _reverses(new_content: str, old_content: str) -> bool:
    """Whether a negative fact takes back a taste the user stated ("can't do mornings" / "prefers mornings")."""
    taste = taste_of(old_content)
    if taste is None or taste[1] not in _POSITIVE_TASTES or not _NEGATIVE.search(new_content):
        return False
    return bool(_content_words(taste[0]) & _content_words(_NEGATIVE.sub(" ", new_content)))


# what each diet leaves out: "is vegetarian" takes back "favourite food is steak", "is vegan" also "loves cheese"
_MEAT = ("meat steak beef pork lamb mutton veal venison bacon ham gammon sausage chicken turkey duck burger meatball "
         "mince chorizo salami pepperoni pate kebab rib brisket")
_FISH = ("fish seafood salmon tuna cod haddock mackerel sardine anchovy prawn shrimp crab lobster mussel oyster "
         "scallop squid calamari sushi shellfish")
_ANIMAL = "cheese milk butter cream yoghurt yogurt egg honey dairy"
_LEAVES_OUT = {"pescatarian": frozenset(_MEAT.split()),
               "vegetarian": frozenset(f"{_MEAT} {_FISH}".split()),
               "veggie": frozenset(f"{_MEAT} {_FISH}".split()),
               "vegan": frozenset(f"{_MEAT} {_FISH} {_ANIMAL}".split())}


def _against_diet(new_content: str, old_content: str) -> bool:
    """Whether a diet the user now keeps rules out a food an older memory says they like or favour."""
    slot = slot_of(new_content)
    if slot is None or slot[0] != "diet" or slot[1].startswith(("no longer", "not")):
        return False
    left_out = next((words for diet, words in _LEAVES_OUT.items() if diet in slot[1].split()), frozenset())
    old_slot = slot_of(old_content)
    taste = taste_of(old_content)
    if taste is not None and taste[1] in _POSITIVE_TASTES:
        liked = taste[0]
    elif old_slot is not None and old_slot[0].startswith("favorite"):
        liked = old_slot[1]
    else:
        return False
    return bool(left_out & {_stem(w) for w in liked.split()})


# the user eating a food again: "has started eating fish again", "eats meat now"
_EATS = re.compile(_SUBJECT + r"(?:has |is |now )*(?:(?:started|begun|began|gone back to|went back to|back to) )?"
                   r"(?:eating|eats|ate) (?P<v>.+)$", re.I)


def _breaks_diet(new_content: str, old_content: str) -> bool:
    """Whether the user now eats a food the diet an older memory states leaves out ("User has started eating fish
    again" takes back "User is vegan")."""
    eats = _EATS.match(new_content.strip().rstrip(".!"))
    slot = slot_of(old_content)
    if eats is None or _NEGATIVE.search(new_content) or slot is None or slot[0] != "diet" or \
            slot[1].startswith(("no longer", "not")):
        return False
    left_out = next((words for diet, words in _LEAVES_OUT.items() if diet in slot[1].split()), frozenset())
    return bool(left_out & {_stem(w) for w in _WORD.findall(eats.group("v").casefold())})


# what the user is or does, and what someone of theirs is or does, are two facts however alike their words: "User is
# the best man at their brother's wedding in May" beside "User's brother is getting married in May" ("User has a
# son" is about the son too)
_OWN = re.compile(r"^User (?!has\b)\w+")
_THEIRS = re.compile(rf"^User(?:'s|’s) (?:[\w-]+ ){{0,2}}?(?:{RELATIONS})\b", re.I)


# an occasion moved to a new date ("User's wedding has been moved to 20 September") revises the memory that gave its
# date ("User is getting married on 14 June"), not what someone else of theirs has on ("User's brother is getting
# married in May")
_MOVED = re.compile(r"^User(?:'s|’s) (?:[\w-]+ )?(?P<ev>[\w-]+) has been moved to ", re.I)
_SAID_AS = {"wedding": {"wedding", "married", "marry", "marrying"}, "op": {"op", "operation", "surgery"},
            "operation": {"op", "operation", "surgery"}, "surgery": {"op", "operation", "surgery"}}
_DATE = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\b\d{1,2}(?:st|nd|rd|th)?\b|"
                   r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:next|this) \w+", re.I)


def _rescheduled(new_content: str, old_content: str) -> bool:
    """Whether the new fact moves the occasion whose date the old memory gives (see above)."""
    moved = _MOVED.match(new_content)
    if moved is None or _THEIRS.match(old_content) or not _DATE.search(old_content):
        return False
    occasion = moved.group("ev").casefold()
    return bool(_SAID_AS.get(occasion, {occasion}) & {w.casefold() for w in _WORD.findall(old_content)})


def _normal(text: str) -> str:
    return " ".join(_WORD.findall(text.casefold()))


def _stem(word: str) -> str:
    # Plurals only, by hand: the core imports stdlib and msgspec alone (no snowballstemmer), and a full stemmer
    # would also fold "hiking" into "hike" and change which restatements count as saying nothing new.
    if word.endswith("ies") and len(word) >= 6:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes")) and len(word) >= 6:
        return word[:-2]  # "classes", "dishes", "boxes"
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) >= 4:
        return word[:-1]  # "horses" and "horse" are one word; "class", "bus" and "tennis" are not plurals
    return word


def _doing(word: str) -> str:
    """A doing and its doer as one word: "teaching" given up takes back "works as a teacher" ("nursing", "nurse")."""
    return re.sub(r"(?:ing|er|e)$", "", word) if len(word) >= 5 else word


def _content_words(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text.casefold()) if w not in _STOP}


def decide(new_content: str, candidates: Sequence[Candidate], thresholds: Thresholds = MODEL_THRESHOLDS) -> Decision:
    """Skip, update one candidate, or add the fact as a new memory (see the module docstring)."""
    if not candidates:
        return Decision("new")
    ranked = sorted(candidates, key=lambda c: c.similarity, reverse=True)
    new_normal = _normal(new_content)
    for candidate in ranked:
        if _normal(candidate.content) == new_normal:
            return Decision("skip", candidate.memory_id, candidate.similarity)

    if (naming := naming_of(new_content)) is not None and any(naming_of(c.content) == naming for c in ranked):
        return Decision("skip", next(c.memory_id for c in ranked if naming_of(c.content) == naming))

    new_taste = taste_of(new_content)
    if new_taste is not None:
        for candidate in ranked:
            taste = taste_of(candidate.content)
            if taste is not None and taste[0] == new_taste[0]:  # the same thing: liked the same, or changed
                return Decision("skip" if taste[1] == new_taste[1] else "update", candidate.memory_id,
                                candidate.similarity)

    if (old := given_up(new_content)) is not None:  # "now prefers green tea to coffee" revises "loves coffee"
        for candidate in ranked:
            if {_doing(w) for w in old} <= {_doing(w) for w in _content_words(candidate.content)} and (
                    taste_of(candidate.content) is not None or slot_of(candidate.content) is not None
                    or _HOLDS.match(candidate.content)):
                return Decision("update", candidate.memory_id, candidate.similarity)

    for candidate in ranked:
        if _reverses(new_content, candidate.content) or _gone_from(new_content, candidate.content) or \
                _against_diet(new_content, candidate.content) or _breaks_diet(new_content, candidate.content) or \
                _rescheduled(new_content, candidate.content) or (
                _SPLIT_UP.search(new_content) and _PARTNER.search(candidate.content)):
            return Decision("update", candidate.memory_id, candidate.similarity)

    new_slot = slot_of(new_content)
    if new_slot is not None:
        for candidate in ranked:
            slot = slot_of(candidate.content)
            if slot is not None and slot[0] == new_slot[0]:
                same = slot[1] == new_slot[1]
                return Decision("skip" if same else "update", candidate.memory_id, candidate.similarity)

    best = ranked[0]
    if best.similarity < thresholds.near or (_OWN.match(new_content) and _THEIRS.match(best.content)):
        return Decision("new")
    if new_slot is not None and slot_of(best.content) is not None:
        return Decision("new")  # two different one-valued slots ("lives in X", "is from X") never merge
    if _content_words(new_content) <= _content_words(best.content):
        return Decision("skip", best.memory_id, best.similarity)
    return Decision("update", best.memory_id, best.similarity)

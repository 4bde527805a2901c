"""Rule-based memory extraction: first-person facts in user turns, restated in the third person.

Content is normalised to the third person with "User" as the subject ("User's name is Ana", "User lives in
Lisbon", "User likes hiking with their dog"), so memories read the same whichever turn they came from and
whoever reads them (a prompt, a dashboard). `extracted_from` is the user's sentence the fact came from.

A sentence is first cut into clauses (clauses.py): a fact said in passing inside a question or request
("I'm allergic to shellfish - is the paella safe?"), several to a sentence ("My wife's a vet and works
Saturdays") or without a subject ("can't stand coriander") is read from its own clause, with its subject
given back; the question, the request and whatever follows "if" are not. A relation named once keeps its name
in what follows ("my son Theo, he's 6" -> "User's son Theo is 6 years old", and no separate naming memory).

Precision first: a rule fires only on a clause that starts with the user speaking about themselves
("I live in", "my sister is called"), after a few discourse markers are stripped. Questions,
conditionals and wishes ("if I...", "I'd love to..."), jokes and small talk about the conversation itself
("I like that", "I love you") produce nothing; a negated statement produces nothing unless the negation
is itself the fact ("I don't eat meat", "I don't like horror films"). A clause no rule reads as said is read
again in the rules' word order and by general frames (frames.py); a statement about the user or one of their
people that nothing reads is kept as said, with a lower confidence (open_clauses.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from avatar_service.core.memory.asides import (
    at_work,
    consequence,
    joined,
    leans_back,
    on_their_account,
    part_in,
    plan_with,
    qualify,
    trains_for,
)
from avatar_service.core.memory.background import BACKGROUND, EVENTS_WORDS, asked_facts
from avatar_service.core.memory.clauses import LEADING, pieces, tidy
from avatar_service.core.memory.entities import by_entity, who_of
from avatar_service.core.memory.everyday import EVERYDAY
from avatar_service.core.memory.facts import Fact
from avatar_service.core.memory.frames import ELDEST, FRAMES, NAMING_FRAGMENT, variants
from avatar_service.core.memory.idioms import IDIOMS, one_booking
from avatar_service.core.memory.mentions import mentioned
from avatar_service.core.memory.news import NEWS
from avatar_service.core.memory.normalise import normalise, proper, sentences_of
from avatar_service.core.memory.open_clauses import open_fact, relative_fact
from avatar_service.core.memory.people import name_in, names_with_ages, pointed
from avatar_service.core.memory.rules import RULES, introduction
from avatar_service.core.memory.vocabulary import (
    CONDITIONS,
    NOT_NAMES,
    REL_MOD,
    RELATIONS,
    TIME_WORDS,
    TITLED_NAME,
    WHEN,
)
from avatar_service.core.memory.wording import clean, third_person
from avatar_service.core.text.sentences import split_sentences

_HEDGE = re.compile(r"^(?:i think|i guess|i believe|i suppose|probably|pretty sure)\b[\s,]*", re.I)
_NOT_A_STATEMENT = re.compile(
    r"^(?:if|when|whenever|suppose|supposing|imagine|what if|let's say|lets say|pretend|assuming|unless|"
    r"maybe|perhaps|in a world|once upon|in my dreams?|hypothetically|do|does|did|can|could|would|should|"
    r"will|is|are|am|what|where|who|why|how|which)\b",
    re.I,
)
_LAUGH = re.compile(r"(?:\s+(?:lol|haha+|hehe+|lmao|xx+|:\)|:d|!+))+$", re.I)  # "been vegan 5 years now lol"
_JOKE = re.compile(r"\b(?:jk|j/k|just kidding|kidding|joking)\b|/s\b", re.I)
_GREETING = re.compile(r"^(?:hi|hello|hey|hiya|good (?:morning|afternoon|evening))\b", re.I)
# "my wife Sarah", "our neighbour Mrs. Jansen": a relation and their name, wherever the sentence says it
_NAMED_RELATION = re.compile(rf"\b(?:my|our) {REL_MOD}(?P<rel>{RELATIONS})(?:,)? {TITLED_NAME}", re.I)
# "my twins, Noor and Sami,": several people of one relation
_NAMED_RELATIONS = re.compile(rf"\b(?:my|our) (?:(?:two|three|four|five|\d) )?{REL_MOD}(?P<rel>(?:{RELATIONS})s?),? "
                              r"(?:named |called )?(?P<names>(?-i:[A-Z])[\w'’-]+"
                              r"(?:,? (?:and )?(?-i:[A-Z])[\w'’-]+)*,? and (?-i:[A-Z])[\w'’-]+)", re.I)
# the relation a clause is about, with the name it is given: "my son Theo", "our dog", "a puppy" (not "she's a
# doctor": a relation said after "is" is what someone is, not who)
_RELATION = re.compile(
    rf"(?:\b(?:my|our)|(?<!is )(?<!'s )(?<!’s )(?<!am )(?<!'m )(?<!’m )(?<!as )(?<!be )\b(?:a|an)) {REL_MOD}"
    rf"(?:(?:guide|assistance|service|rescue|foster|family|pet) )?(?P<rel>{RELATIONS})\b"
    r"(?:,? (?P<name>(?-i:[A-Z])[\w'’-]+(?: and (?-i:[A-Z])[\w'’-]+)?))?", re.I)
# "we named him Pixel", "her name is Luna": the name of the one just mentioned
_NAMING = re.compile(r"^(?:(?:we|i) (?:named|called|call) (?:him|her|it|them)|(?:his|her|its) name is|"
                     r"(?:he|she|it)(?:'s|’s| is) (?:called|named)) "
                     r"(?P<name>(?-i:[A-Z])[\w'’-]+(?: and (?-i:[A-Z])[\w'’-]+)?)$", re.I)
# "I'm 62 and retired": two short things said of oneself
# (not "I'm allergic to cats and dogs": a preposition before "and" joins two of its objects)
_TWO_STATES = re.compile(r"^(?P<subject>i(?:'m|’m| am)) (?P<a>(?![^,]*\b(?:to|of|with|in|at|for|about|from|by)\b)"
                         r"[^,]{1,25}?) and (?P<b>[^,]{1,25})$", re.I)
# "a little boy named Arlo", "our new puppy called Mo": one of theirs, named, said alone
_ONE_NAMED = re.compile(rf"(?:^|, )(?:an?|our|my) (?P<rel>(?:[\w-]+ )?(?:{RELATIONS}|girl|boy)) (?:called|named) "
                        r"(?P<name>(?-i:[A-Z])[\w'’-]+)$", re.I)
# "he works as a pilot" after "my husband's name is Tom": he is the husband
_PRONOUN_SUBJECT = re.compile(r"^(?:he|she)(?=\s)|^(?:his|her)(?=\s)", re.I)
# "..., Nacho and Churro haha": the names of what the clause just brought in
_TRAILING_NAMES = re.compile(r",\s+(?P<names>(?-i:[A-Z])[\w'’-]+(?:,? (?:and|&) (?-i:[A-Z])[\w'’-]+)*)"
                             r"(?:\s+(?:haha+|lol|:\)))*\s*$")
_PRONOUN = re.compile(r"^(?:he|she)(?=['’]|\s)", re.I)  # "she's a graphic designer", "he'll be 6"


def _named_relations(sentence: str) -> list[tuple[str, str]]:
    out = []
    for m in _NAMED_RELATIONS.finditer(sentence):
        relation = f"{(m.group('mod') or '').strip()} {m.group('rel')}".strip().lower()
        out.append((relation, m.group("names").replace(", and", " and")))
    if out:
        return out
    for m in _NAMED_RELATION.finditer(sentence):
        name = re.sub(r"['’]s$", "", m.group("name").strip())  # "my partner Jordan's birthday"
        if name.split()[-1].lower() in ("and", "is", "i"):
            continue
        relation = f"{(m.group('mod') or '').strip()} {m.group('rel')}".strip().lower()
        out.append((relation, name))
    return out


# "my girlfriend Nina and I are both vegan": the same said of each
_BOTH = re.compile(rf"^(?P<who>(?:my|our) {REL_MOD}(?:{RELATIONS})(?: (?-i:[A-Z])[\w'’-]+)?) and I (?:are|were) "
                   r"(?:both|also) (?P<rest>.+)$", re.I)


def _two_states(clause: str) -> list[str]:
    if m := _TWO_STATES.match(clause.strip()):
        return [f"{m.group('subject')} {m.group('a')}", f"{m.group('subject')} {m.group('b')}"]
    if (m := _BOTH.match(clause.strip())) and re.search(r"(?<![su])s$", m.group("rest")):
        return [clause]  # "my wife and I are both retired teachers": one fact of the two of them
    if m := _BOTH.match(clause.strip()):
        return [f"I'm {m.group('rest')}", f"{m.group('who')} is {m.group('rest')}"]
    return [clause]


def _last_relation(text: str) -> str:
    """The relation the text names last, with its name when it has one ("son Theo"), or ""."""
    found = list(_RELATION.finditer(text))
    if not found:
        return ""
    m = found[-1]
    name = m.group("name") or ""
    if name and (name.split()[0].lower() in NOT_NAMES or name == "I"):
        name = ""
    return " ".join(p for p in ((m.group("mod") or "").strip().lower(), m.group("rel").lower(), name) if p)


def _name_the_last(facts: list[Fact], seen: set[str], relation: str, name: str, sentence: str) -> None:
    """"we named him Pixel" after "I got a kitten": "User has a kitten" becomes "... a kitten named Pixel"."""
    relation = relation.split()[-1]
    for i, fact in enumerate(facts):
        if fact.content.startswith("User has ") and fact.content.endswith(f" {relation}"):
            seen.discard(fact.content.casefold())
            facts[i] = Fact(f"{fact.content} named {name}", fact.category, fact.confidence, fact.extracted_from)
            seen.add(facts[i].content.casefold())
            return
    content = f"User's {relation} is named {name}"
    if content.casefold() not in seen:
        seen.add(content.casefold())
        facts.append(Fact(content, "relationship", 0.85, sentence))


def _clause_facts(clause: str, sentence: str, greeting: bool, kept_as_said: bool = True) -> list[Fact]:
    clause = LEADING.sub("", clause.strip())
    hedged = bool(_HEDGE.match(clause))
    clause = _LAUGH.sub("", _HEDGE.sub("", clause)).rstrip(" .!")
    if not clause or _NOT_A_STATEMENT.match(clause):
        return []
    candidates = [*NEWS, *RULES, *FRAMES, *BACKGROUND, *EVERYDAY, *IDIOMS]
    if greeting:
        candidates.insert(0, introduction())
    rejected = False  # a rule read the clause's shape and found its object junk ("I live in fear")
    for said in variants(clause):  # as said first, then in the word order the rules read (frames.py)
        for pattern, make in candidates:
            match = pattern.match(said)
            made = make(match) if match else None
            rejected = rejected or (match is not None and made is None)
            if made is None:
                continue  # a rule whose object is junk leaves the clause to the next one
            content, category, confidence = made
            if hedged:
                confidence -= 0.15
            return [Fact(proper(content[0].upper() + content[1:]), _timed(content, category),
                         round(min(confidence, 0.95), 2), sentence)]
    for said in variants(clause) if kept_as_said and not rejected else ():  # kept as said, if it is about the user
        if made := open_fact(said) or relative_fact(said):
            content, category, confidence = made
            return [Fact(proper(content), _timed(content, category),
                         round(confidence - (0.15 if hedged else 0.0), 2), sentence)]
    return []


_RECURRING = re.compile(rf"\b(?:{WHEN})\b", re.I)


def _timed(content: str, category: str) -> str:
    """What the user is in the middle of, said with when it happens, is on their schedule: "User has been
    running every morning", "User is training for the Leeds half marathon in October"."""
    return "schedule" if category == "context" and (_RECURRING.search(content) or TIME_WORDS.search(content)) \
        else category


def extract_facts(user_turns: Sequence[str]) -> list[Fact]:
    """Facts worth remembering in the user's own turns, in order, each content once.

    Sentences are split by the one abbreviation-safe splitter ("St. Mary's" stays whole); a sentence may
    state several facts ("my wife Sarah and I are going to Lisbon in August": her name, and the trip), and
    "he" or "she" opening a clause stands for the relation named just before ("My husband is Tom. He works
    as a pilot.").
    """
    facts: list[Fact] = []
    seen: set[str] = set()
    last_relation = ""
    people: dict[str, str] = {}  # the names the user gave, and whose they are: {"Zara": "niece Zara"}
    asked = ""  # what the user last asked about: "e-bike" in "do you service e-bikes?"
    asked_free = ""  # what the user asked to be without: "wheat" in "any wheat free bread?"
    asked_condition = ""  # a condition asked about: "hay fever" in "do you have anything for hay fever?"
    last_name = ""  # the last name said in the turn: "Ishiguro" in "got anything new by Ishiguro?"

    def add(fact: Fact) -> None:
        key = fact.content.casefold()
        if key not in seen:
            seen.add(key)
            facts.append(fact)
        if m := _HAS_NAMED.match(fact.content):  # "a Labrador called Bramble": "Bramble is 3" is about her
            people.setdefault(m.group("name"), f"{m.group('who').lower()} {m.group('name')}")

    for turn in user_turns:
        if _JOKE.search(turn):
            continue
        greeting = bool(_GREETING.match(turn.strip()))
        last_name = ""
        for sentence, text in ((s, t) for s in split_sentences(one_booking(turn)) for t in sentences_of(normalise(s))):
            if aged := names_with_ages(text):  # "my two kids, Ella (9) and Finn (6)"
                add(Fact(aged[0], "relationship", 0.85, sentence))
                text = aged[1]
            parts = pieces(text)
            # a question may name someone too, and so may a report: "Mr. Jansen, my landlord, said you..."
            said = ". ".join(p.text for p in parts if p.kind != "unreal")
            for relation, name in _named_relations(said):
                verb = "are" if " and " in name else "is"
                add(Fact(f"User's {relation} {verb} named {name}", "relationship", 0.85, sentence))
            for m in ELDEST.finditer(said):
                rank = m.group("rank").lower().replace(" one", " child").replace("child child", "child")
                rank = rank if rank.endswith("child") else f"{rank} child"
                add(Fact(f"User's {rank} is named {m.group('name')}", "relationship", 0.85, sentence))
            fragment = NAMING_FRAGMENT.match(text.strip().rstrip(".!"))
            if fragment and last_relation:  # "We got a puppy! A beagle called Biscuit."
                _name_the_last(facts, seen, last_relation, fragment.group("name"), sentence)
                continue
            for part in parts:
                if part.kind == "question":
                    for content, category, confidence in (f for f in asked_facts(part.text) if f):
                        add(Fact(proper(content), category, confidence, sentence))
                if part.kind == "question" and (condition := _CONDITION_ASKED.search(part.text)):
                    asked_condition = condition.group()  # "anything for hay fever? I get it really bad"
                if part.kind == "statement" and asked_condition:
                    part = replace(part, text=_IT_IS.sub(rf"\1 {asked_condition}", part.text))
                if part.kind == "question" and (free := _FREE_ASKED.search(part.text)):
                    asked_free = free.group("thing").lower()  # "any wheat free bread? I'm intolerant"
                if part.kind == "statement" and asked_free and _BARE_CONDITION.match(part.text.strip()):
                    part = replace(part, text=f"{part.text.strip()} to {asked_free}")
                if part.kind == "question" and (event := _EVENT_ASKED.search(part.text)):
                    asked = event.group("thing").lower()  # "any tips for a first marathon? mine's London in April"
                if part.kind == "question" and (thing := _ASKED_ABOUT.search(part.text)):
                    asked = thing.group("thing").lower()
                    if not last_relation and re.fullmatch(rf"(?:{RELATIONS})", asked, re.I):
                        last_relation = asked  # "do you take cats? she's a ragdoll": she is the user's cat
                elif part.kind == "statement" and asked and (mine := _MINE.match(part.text.strip())):
                    add(_mine(asked, mine.group("v"), sentence))  # "do you service e-bikes? mine's a Gazelle"
                    continue
                if part.kind == "statement":
                    had = len(facts)
                    for clause in _two_states(pointed(part.text, last_name)):
                        if not _leaning(clause, sentence, greeting, facts, seen, part.after):  # "I listen on..."
                            _read(_by_name(clause, people), sentence, greeting, last_relation, facts, seen, add,
                                  kept_as_said=not (part.after == "so" and consequence(clause)))
                    if part.after == "but" and len(facts) == had + 1 and had:
                        qualify(facts, seen)
                last_name = name_in(part.text) or last_name
                if part.kind != "unreal" and (named := _last_relation(part.text)):
                    last_relation = named
                    if named.split()[-1][:1].isupper():
                        people[named.split()[-1]] = named
            for content, category, confidence, about in mentioned(text):  # "can you look at my Prius?"
                said_before = [f for f in facts if about.casefold() in f.content.casefold()]
                if all(f.confidence <= 0.6 and f.extracted_from == sentence for f in said_before):
                    facts[:] = [f for f in facts if f not in said_before]  # kept as said: the mention says it better
                    seen.difference_update(f.content.casefold() for f in said_before)
                    add(Fact(proper(content), category, confidence, sentence))
    return by_entity(_without_subsumed(facts))


def _leaning(clause: str, sentence: str, greeting: bool, facts: list[Fact], seen: set[str], after: str = "") -> bool:
    """Whether the clause leans on the fact the sentence made just before (asides.py): joined to it, the user's
    part in it ("..., and I'm a bridesmaid"), said as a fact of its own, or done on its account (and dropped)."""
    if not facts or facts[-1].extracted_from != sentence:
        return False
    if after == "so" and on_their_account(facts[-1], clause):
        return True
    if (part := part_in(facts[-1], clause) or plan_with(facts[-1], clause)) is not None:
        seen.add(part.content.casefold())
        facts.append(part)
        return True
    # "training for a triathlon so I swim three mornings a week", "a midwife so I'm on my feet all day"
    how = after == "so" and (trains_for(facts[-1], clause) or at_work(facts[-1], clause))
    made = _clause_facts(clause, sentence, greeting) if leans_back(clause) or how else []
    if not made or (both := joined(facts[-1], made[0])) is None:
        return False
    if both.category == "context" and made[0].category == "schedule":  # "... and practises most evenings"
        both = replace(both, category="schedule")
    seen.discard(facts[-1].content.casefold())
    facts[-1] = both
    seen.add(both.content.casefold())
    return True


def _by_name(clause: str, people: dict[str, str]) -> str:
    """ "Zara's turning 7" after "my niece Zara": the clause about her, said the way the rules read it."""
    m = _OPENING_NAME.match(clause.strip())
    if not m or m.group("name") not in people:
        return clause
    return tidy(f"my {people[m.group('name')]}{clause.strip()[m.end('name'):]}")


def _read(clause: str, sentence: str, greeting: bool, last_relation: str, facts: list[Fact], seen: set[str],
          add: Callable[[Fact], None], kept_as_said: bool = True) -> None:
    """The facts of one statement: a name for the one just mentioned, or what the clause says."""
    if one := _ONE_NAMED.search(clause.strip().rstrip(".!")):  # "we had our first baby, a little boy, Arlo"
        add(Fact(f"User's {one.group('rel').lower()} is named {one.group('name')}", "relationship", 0.8, sentence))
        clause = clause.strip().rstrip(".!")[: one.start()]
        if not clause:
            return
    naming = _NAMING.match(clause.strip().rstrip(".!"))
    if naming and not last_relation and facts and facts[-1].content.startswith("User has "):
        last_relation = facts[-1].content.split()[-1]  # "we adopted a retired greyhound, she's called Pearl"
    if naming and last_relation:
        _name_the_last(facts, seen, last_relation, naming.group("name"), sentence)
        return
    names = _TRAILING_NAMES.search(clause)
    if names and re.search(r"\b(?:named|called) (?-i:[A-Z])[\w'’-]+$", clause[: names.start()]):
        names = None  # "three dogs named Rex, Bella and Max": the names go on, the rules read them whole
    if names:  # "We just got two guinea pigs for the kids, Nacho and Churro"
        clause = clause[: names.start()]
    if last_relation and (pronoun := _PRONOUN.match(clause.strip())):  # "she's 4", "he'll be 6", "she loves it"
        clause = tidy(f"my {last_relation}{clause.strip()[pronoun.end():]}")
        clause = re.sub(rf"^(my {re.escape(last_relation)})(?:'s|’s) ", r"\1 is ", clause)  # "he's" is never "his"
    elif last_relation and _PRONOUN_SUBJECT.match(clause.strip()):
        clause = _PRONOUN_SUBJECT.sub(f"my {last_relation}", clause.strip(), count=1)
    made = _clause_facts(clause, sentence, greeting, kept_as_said)
    for fact in made:
        add(fact)
    if names and made and made[-1].content.startswith("User has "):
        _name_the_last(facts, seen, made[-1].content.split()[-1], names.group("names"), sentence)
    elif names and made and (who := who_of(made[-1].content)):  # "my twins are 6, Lily and Jack"
        verb = "are" if " and " in names.group("names") else "is"
        add(Fact(f"User's {who} {verb} named {names.group('names')}", "relationship", 0.85, sentence))


# "do you service e-bikes?", "can you fix old iPhones?": the kind of thing asked about, as one
_ASKED_ABOUT = re.compile(r"\b(?:service|fix|repair|take|accept|allow|sell|stock|clean|groom|treat|insure|store|charge|"
                          r"look after|work on|tune|cater for|cut|colou?r|style|dye|trim|fit|handle|deal with|"
                          r"speciali[sz]e in)\s+(?:(?:a|an|the|any|old|older|electric|vintage|small|"
                          r"large|big) )?(?P<thing>(?:[\w-]+ )?[\w-]{2,20}?)s?(?=\?|$| for\b| on\b| here\b)", re.I)
# "mine's a Gazelle": what the user's own one is
_MINE = re.compile(r"^mine(?:'s|’s| is) (?P<v>[^,;]{2,40}?)(?= and | but | so |,|$)", re.I)


def _mine(thing: str, what: str, sentence: str) -> Fact:
    category = "relationship" if re.fullmatch(rf"(?:{RELATIONS})", thing, re.I) else \
        "schedule" if re.fullmatch(rf"(?:{EVENTS_WORDS})", thing, re.I) else "personal"
    return Fact(f"User's {thing} is {third_person(clean(what))}", category, 0.75, sentence)


_HAS_NAMED = re.compile(rf"^User has an? (?P<who>(?:[\w-]+ )?(?:{RELATIONS})) named (?P<name>(?-i:[A-Z])[\w'’-]+)$",
                        re.I)
_FREE_ASKED = re.compile(r"\b(?P<thing>[a-z]+)[ -]free\b", re.I)
_BARE_CONDITION = re.compile(r"^i(?:'m|’m| am) (?:(?:really|very|a bit|quite|badly|severely) )?"
                             r"(?:allergic|intolerant)$", re.I)
_EVENT_ASKED = re.compile(rf"\b(?P<thing>{EVENTS_WORDS})s?\b", re.I)
_CONDITION_ASKED = re.compile(rf"\b(?:{CONDITIONS})\b", re.I)
# "I get it really bad", "I've had it for years": "it" is the condition just asked about
_IT_IS = re.compile(r"^(i (?:get|have|suffer (?:from|with)|'ve had|’ve had|have had|had)) (?:it|them)\b", re.I)
_OPENING_NAME = re.compile(r"^(?P<name>(?-i:[A-Z])[\w-]+)(?=['’]s\s|\s)")
# "User's son is named Theo" says nothing "User's son Theo is 6 years old" does not
_NAMING_FACT = re.compile(r"^User's (?P<who>.+?) (?:is|are) named (?P<name>.+)$")


def _without_subsumed(facts: list[Fact]) -> list[Fact]:
    out = []
    for fact in facts:
        m = _NAMING_FACT.match(fact.content)
        said = re.compile(rf"^User\b.*?\b{re.escape(m.group('who'))} {re.escape(m.group('name'))}\b"
                          if m else "^$")
        if m and any(other is not fact and other.category == "relationship" and said.search(other.content)
                     for other in facts):
            continue
        out.append(fact)
    return out

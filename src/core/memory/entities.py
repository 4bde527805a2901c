"""Memory extraction's last step: what one conversation says about one person or pet becomes one memory, and a
change said with what it replaces is one memory.

People give a relative's or pet's details a piece at a time, across clauses and turns: "is it ok to bring my
cat? she's called Pixel, 14 years old and very quiet"; "for my daughter / she's 13, about 160cm, her name's
Maya". Each clause is read alone (extraction.py), then the facts about one of them are put together: its name,
age, breed, job and traits, "User's cat Pixel is 14 years old and very quiet". A fact about someone unnamed
joins the one named of that relation ("my son" and "my son Leo" are one person when the user named only one).

A move is said the same way, often a turn apart: "we've left Bristol / got a little flat in Cardiff Bay now" ->
"User got a little flat in Cardiff Bay, having left Bristol", one memory that says where home is now (and so
revises the old one, dedup.py) instead of one that says only where it is not.

A change is said as what was left and what is now: "i left KPMG in May, i'm a freelance photographer now"
-> "User left KPMG in May and is now a freelance photographer" (and "handed in my notice at Marlow's / I start as
head chef on Monday", a turn apart, is the new job's memory); "mornings don't suit me anymore, evenings are
way better" -> "User now prefers evenings to mornings". Kept apart, the first half would be a memory that
says only what is gone.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from avatar_service.core.memory.vocabulary import RELATIONS

if TYPE_CHECKING:
    from avatar_service.core.memory.facts import Fact

_NAME = r"(?-i:[A-Z])[\w'’-]+(?:\.? (?-i:[A-Z])[\w'’-]+)?"
# "User's little brother Sam is 16 years old", "User's cat is named Pixel"
_ABOUT = re.compile(rf"^User's (?P<who>(?:[\w-]+ ){{0,2}}?(?:{RELATIONS})s?|eldest|youngest|oldest|middle one)"
                    rf"(?: (?P<name>{_NAME}(?: and {_NAME})?))? (?P<pred>(?!'s)(?-i:[a-z]).+)$")
# "User has a golden retriever puppy named Bear"
_HAS = re.compile(rf"^User has (?:an?|one) (?P<who>(?:[\w-]+ ){{0,3}}?(?:{RELATIONS}))"
                  rf"(?: named (?P<name>{_NAME}))?$")
_NAMED = re.compile(rf"^(?:(?:is|are) )?(?:named|called) (?P<name>{_NAME}(?: and {_NAME})?)$")
_AGE = re.compile(r"^(?:is|are|just turned|turned|turns|is turning) \d{1,3}(?: years old)?$")
_SAME_VERB = ("is", "are", "has", "was", "can", "will", "works", "loves")


class _Entity:
    def __init__(self, head: str) -> None:
        self.head, self.who, self.name = head, head, ""
        self.preds: list[str] = []
        self.facts: list[Fact] = []
        self.has = False

    def take(self, fact: Fact, who: str, name: str, pred: str) -> None:
        self.facts.append(fact)
        if len(who.split()) > len(self.who.split()):
            self.who = who
        self.name = self.name or name
        if pred and _AGE.match(pred):  # "turned 7 today" after "is 6": the age said last is the age
            self.preds = [p for p in self.preds if not _AGE.match(p)]
        if pred and pred not in self.preds:
            self.preds.append(pred)

    def content(self) -> str:
        who = f"{self.who} {self.name}".strip()
        if not self.preds:
            if self.has:
                article = "an" if self.who[:1] in "aeiou" else "a"
                return f"User has {article} {self.who}" + (f" named {self.name}" if self.name else "")
            return f"User's {self.who} is named {self.name}"
        return f"User's {who} {_joined(self.preds)}"


def _joined(preds: list[str]) -> str:
    """ "is 14 years old", "is very quiet", "uses a walker" -> "is 14 years old, very quiet and uses a walker"."""
    out: list[str] = []
    previous = ""
    for pred in preds:
        verb = pred.split()[0]
        if verb == previous and verb in _SAME_VERB:
            pred = pred[len(verb) + 1:]
        previous = verb
        out.append(pred)
    return out[0] if len(out) == 1 else f"{', '.join(out[:-1])} and {out[-1]}"


def who_of(content: str) -> str | None:
    """The unnamed person or pet a fact is about ("twins" in "User's twins are 6"), or None."""
    m = _ABOUT.match(content)
    return m.group("who") if m and not m.group("name") else None


def _head(who: str) -> str:
    if who in ("eldest", "youngest", "oldest", "middle one"):
        return "child"
    word = who.split()[-1].lower()
    return {"mom": "mum", "mother": "mum", "father": "dad", "kitten": "cat", "puppy": "dog"}.get(word, word)


def by_entity(facts: list[Fact]) -> list[Fact]:
    """The facts with all that was said about each person or pet in one memory (see the module docstring)."""
    entities: list[_Entity] = []
    slots: list[Fact | _Entity] = []

    def entity_for(head: str, name: str) -> _Entity:
        same = [e for e in entities if e.head == head]
        named = [e for e in same if e.name]
        for e in same:
            if name and e.name == name:
                return e
        if not name and len(named) == 1 and len(same) == 1:
            return named[0]
        if name and not named and len(same) == 1:
            return same[0]
        if not name and same and not named:
            return same[0]
        e = _Entity(head)
        entities.append(e)
        slots.append(e)
        return e

    for fact in facts:
        if fact.category != "relationship":
            slots.append(fact)
        elif m := _ABOUT.match(fact.content):
            named = _NAMED.match(m.group("pred"))
            name = named.group("name") if named else (m.group("name") or "")
            entity_for(_head(m.group("who")), name).take(fact, m.group("who").lower(), name,
                                                         "" if named else m.group("pred"))
        elif m := _HAS.match(fact.content):
            entity = entity_for(_head(m.group("who")), m.group("name") or "")
            entity.take(fact, m.group("who").lower(), m.group("name") or "", "")
            entity.has = True
        else:
            slots.append(fact)
    out: list[Fact] = []
    for slot in slots:
        if not isinstance(slot, _Entity):
            out.append(slot)
        elif len(slot.facts) == 1:
            out.append(slot.facts[0])
        else:
            first = slot.facts[0]
            sources = " ".join(dict.fromkeys(f.extracted_from for f in slot.facts))
            out.append(replace(first, content=slot.content(), category="relationship",
                               confidence=max(f.confidence for f in slot.facts), extracted_from=sources))
    # "I'm allergic" with nothing it reacts to said beside it says too little to keep
    return [f for f in _moved(_job_left(_changes(out))) if f.content not in ("User is allergic", "User is intolerant")]


# what the user left behind or took up, said before what they are or do now
_CHANGE = re.compile(r"^User (?:has )?(?:(?:actually|just|recently|finally|also) )*(?P<verb>left|sold|quit|gave up|"
                     r"stopped|retired from|moved out of|started|began|switched from|gone off|went off|"
                     r"handed in their notice at)\b(?P<rest>.*)$")
_PARTICIPLE = {"gave up": "given up", "began": "begun", "went off": "gone off"}
# "codeine makes me sick, I'm allergic", "milk doesn't agree with me, I'm lactose intolerant": one condition
_NO_LONGER = re.compile(r"^User is no longer (?P<what>.+)$")
_REACTS = re.compile(r"^User (?:gets .+? from|can't tolerate|does not eat|does not drink|cannot eat|cannot have) "
                     r"(?:anything (?:with|containing) )?(?P<what>.+)$")
_CONDITION = re.compile(r"^User is (?:\w+ )?(?P<cond>allergic|[\w-]+ intolerant|coeliac|celiac|sensitive)(?P<rest>.*)$")
# (a job about to start is not "now": "User starts as an electrician on Monday, having handed in their notice")
_NOW = re.compile(r"^User (?P<aux>is|has|was) (?!now |no |not |starting )|"
                  r"^User (?!now |no |not |is |has |was |starts |will |\w+ed\b)")
# "i got a new job at Lidl, i start on Monday": when the new job starts is part of it
_JOB = re.compile(r"^User (?:now )?(?:works|is an? )")
_STARTS = re.compile(r"^User (?:starts|will start|is starting) (?P<when>(?:on|next|in|this|tomorrow|after)\b.*)$")
# "User can't do mornings" then "User prefers evenings": one switch
_NOT_WHEN = re.compile(r"^User can't do (?P<old>[\w ]+?)(?: because .*)?$")
_PREFERS_WHEN = re.compile(r"^User prefers (?P<new>(?:early |late )?(?:mornings|afternoons|evenings|nights|weekends|"
                           r"weekdays|\w+days))$")


def _changes(facts: list[Fact]) -> list[Fact]:
    """ "User left KPMG in May" then "User is a photographer" (one sentence) -> "User is now a photographer,
    having left KPMG in May": the new state first, so it is read (and revises) as the slot it fills."""
    out: list[Fact] = []
    for fact in facts:
        before = out[-1] if out else None
        if before is None or before.extracted_from != fact.extracted_from or not fact.content.startswith("User "):
            out.append(fact)
        elif (gone := _NO_LONGER.match(before.content)) and fact.category == before.category \
                and fact.content.startswith("User ") and not fact.content.startswith(("User's", "User is no")):
            now = fact.content[5:] if fact.content.startswith("User now ") else \
                re.sub(r"^(is|has) (?!now )", r"\1 now ", fact.content[5:]) if fact.content.startswith(
                    ("User is ", "User has ")) else f"now {fact.content[5:]}"  # "User is now a teacher"
            out[-1] = replace(fact, content=f"User {now}, no longer {gone.group('what')}",  # "not vegetarian any more,
                              confidence=max(fact.confidence, before.confidence))  # I eat chicken now": one change
        elif (react := _REACTS.match(before.content)) and (condition := _CONDITION.match(fact.content)):
            said = f"{fact.content} to {react.group('what')}" if condition.group("cond") == "allergic" and \
                not condition.group("rest") else f"{fact.content} and {before.content[5:]}"
            out[-1] = replace(fact, content=said, confidence=max(fact.confidence, before.confidence))
        elif (change := _CHANGE.match(before.content)) and not _CHANGE.match(fact.content) \
                and fact.content.startswith("User ") and not fact.content.startswith("User's"):
            now = _NOW.match(fact.content)
            said = f"{now.group()}now {fact.content[now.end():]}" if now and now.group("aux") else \
                f"User now {fact.content[5:]}" if now else fact.content
            said = re.sub(r"^User has now (?=(?:an?|the|two|three|some)\b)", "User now has ", said)
            verb = _PARTICIPLE.get(change.group("verb"), change.group("verb"))
            out[-1] = replace(fact, content=f"{said}, having {verb}{change.group('rest')}",
                              confidence=max(fact.confidence, before.confidence))
        elif _JOB.match(before.content) and (start := _STARTS.match(fact.content)):
            out[-1] = replace(before, content=f"{before.content}, starting {start.group('when')}")
        else:
            out.append(fact)
    return _switched_times(out)


# a job left, said a turn before the new one: "handed in my notice at Marlow's / I start as head chef on Monday"
_NOTICE = re.compile(r"^User handed in their notice at (?P<place>.+)$")
_NEW_JOB = re.compile(r"^User (?:now )?(?:starts|is starting|will start|works as|is an? )")
# a workplace the user is no longer at, said a turn before what they do now: "i'm not at the bank anymore / now I
# teach maths at a secondary school" -> "User teaches maths at a secondary school, no longer at the bank"
_NO_LONGER_AT = re.compile(r"^User is no longer at (?P<place>.+)$")
_NOW_DOES = re.compile(r"^User (?:now )?(?!is no |is not |has no |does not |can't |won't |'s )\w+ ")


def _job_left(facts: list[Fact]) -> list[Fact]:
    """ "User handed in their notice at X" (or "User is no longer at X") and the new job said after it: one memory of
    the new job, "..., having handed in their notice at X", which revises the old job (dedup.py)."""
    gone = next((f for f in facts if _NOTICE.match(f.content) or _NO_LONGER_AT.match(f.content)), None)
    if gone is None:
        return facts
    at = _NO_LONGER_AT.match(gone.content)
    new = next((f for f in facts[facts.index(gone) + 1:] if ", having " not in f.content and ", no longer " not in
                f.content and (_NOW_DOES.match(f.content) and f.category == "personal" if at else
                               _NEW_JOB.match(f.content))), None)
    if new is None:
        return facts
    said = f"{new.content}, no longer at {at.group('place')}" if at else f"{new.content}, having {gone.content[5:]}"
    sources = " ".join(dict.fromkeys([gone.extracted_from, new.extracted_from]))
    merged = replace(new, content=said, extracted_from=sources, confidence=max(new.confidence, gone.confidence))
    return [merged if f is new else f for f in facts if f is not gone]


def _switched_times(facts: list[Fact]) -> list[Fact]:
    """ "User can't do mornings" and "User prefers evenings" said in one conversation: "User now prefers evenings
    to mornings", where the first of them was."""
    old = next((f for f in facts if _NOT_WHEN.match(f.content)), None)
    new = next((f for f in facts if _PREFERS_WHEN.match(f.content)), None)
    if old is None or new is None:
        return facts
    old_when = _NOT_WHEN.match(old.content).group("old")  # type: ignore[union-attr]
    new_when = _PREFERS_WHEN.match(new.content).group("new")  # type: ignore[union-attr]
    switched = replace(new, content=f"User now prefers {new_when} to {old_when}", category="schedule")
    first = min(facts.index(old), facts.index(new))
    return [switched if i == first else f for i, f in enumerate(facts) if (f is not old and f is not new) or i == first]


# a place the user has left, said apart from where they went: "we've left Bristol", "moved out of Leeds in May"
_LEFT_PLACE = re.compile(r"^User (?:has )?(?:just |finally |recently )?(?:left|moved out of|moved away from) "
                         r"(?P<place>(?-i:[A-Z])[\w'’-]+(?: (?-i:[A-Z])[\w'’-]+)*)(?P<rest>(?: [a-z][^,]*)?)$")


def _moved(facts: list[Fact]) -> list[Fact]:
    """ "User left Bristol" and, anywhere in the conversation, where they live now: "User got a flat in Cardiff,
    having left Bristol", in the new place's memory."""
    gone = next((f for f in facts if _LEFT_PLACE.match(f.content)), None)
    home = next((f for f in facts if f.category == "location" and f is not gone and ", having " not in f.content
                 and not _LEFT_PLACE.match(f.content)), None)
    if gone is None or home is None:
        return facts
    left = _LEFT_PLACE.match(gone.content)
    said = f"{home.content}, having left {left.group('place')}{left.group('rest')}"  # type: ignore[union-attr]
    sources = " ".join(dict.fromkeys([gone.extracted_from, home.extracted_from]))
    merged = replace(home, content=said, extracted_from=sources, confidence=max(home.confidence, gone.confidence))
    return [merged if f is home else f for f in facts if f is not gone]

"""Memory extraction, clauses that lean on the one before: a verb that leaves out what it is about.

"i love a good true crime podcast, i listen on the train to work every day": what is listened to is the podcast
said just before, so "User listens on the train to work every day" alone says nothing (and is no habit to keep);
"I've booked a cottage in Skye for October, we're setting off on the 3rd": setting off for Skye. Such a clause
joins the fact the same sentence made just before it: "User loves a good true crime podcast and listens on the
train to work every day". Said alone ("I'm flying out on Friday"), it is read as it is. (A leg after a trip to a
place, "going to Lisbon for my 40th, flying out on 12 march", is never cut from it: clauses.py.)

What the user does as a consequence of what they just said ("I'm a nurse on nights so I sleep in the day") follows
from that fact and is not one of its own: a rule may still read one there ("so I don't eat honey"), but it is not
kept as said (open_clauses.py). A state is ("so pescatarian now", "so I'm off work"), and so is what someone else
does ("so he can only come on Mondays"). What the user does or avoids because of someone else ("my husband is
allergic to shellfish so I never cook prawns") is about them, and not kept at all.

What the user's days are like in their work, said after "so" ("I'm a midwife so I'm on my feet all day"), is read
with the job: "User is a midwife and is on their feet all day".

A "but" that qualifies what the user just said of themselves stays with it ("User is a vegetarian but eats fish
sometimes"). The user's part in a wedding said just before ("my brother is getting married in May and I'm the best
man") is read with that wedding: "User is the best man at their brother's wedding in May"; and what the user is doing
with someone on the day just said of them ("my mum turns 80 on 12 march, we're taking her for lunch") is a plan
for that day: "User is taking their mum for lunch on 12 March".
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from avatar_service.core.memory.vocabulary import RELATIONS

if TYPE_CHECKING:
    from avatar_service.core.memory.facts import Fact

_WHO = (r"^(?:i|we)(?:'m|’m| am|'re|’re| are|'ve been|’ve been| have been)? "
        r"(?:(?:just|also|usually|always|mostly|only) )*")
# "listen" needs "to" and what is listened to
_LISTEN = re.compile(_WHO + r"listen(?:s|ed|ing)?\b(?! to\b| out\b| back\b)", re.I)
# a verb said with when or where only: "I play every Sunday", "I read on the train", "I practise most evenings"
_WITHOUT_OBJECT = re.compile(
    _WHO + r"(?:(?:watch|read|play|go|do)(?:es|s|ing)?|practi[cs](?:e|es|ing)|rehears(?:e|es|ing)|train(?:s|ing)?) "
    r"(?:every|each|most|twice|once|daily|weekly|whenever|together|"
    r"on (?:\w+days?\b|the (?:train|bus|tube|way|commute)|my (?:commute|way))|in (?:the car|bed)|"
    r"at (?:weekends|the weekend|night))\b", re.I)
# a leg of a journey without where to: "flying out on 12 March", "back on the 20th", "setting off at 6"
_LEG = re.compile(
    _WHO + r"(?:fly|flying|leave|leaving|set(?:ting)? off|head(?:ing)? (?:off|out)|coming back|back|getting back|"
    r"returning|depart(?:ing)?|driving (?:down|up)|arriving|landing)(?: out| back| home)? "
    r"(?:on|next|this|in|at|the|from|of|tomorrow|early|late)\b(?!.*\bto (?-i:[A-Z]))", re.I)


def leans_back(clause: str) -> bool:
    """Whether the clause's verb leaves what it is about to the clause before (see the module docstring)."""
    text = clause.strip()
    return bool(_LISTEN.match(text) or _WITHOUT_OBJECT.match(text) or _LEG.match(text))


# the user doing something: "I sleep in the day", "we eat late"; not "I'm", "I've", "I was"
_DOING = re.compile(r"^(?:i|we) (?!(?:am|was|were|are|have|had|'m|’m|'ve|’ve)\b)(?:(?:just|usually|always|mostly|"
                    r"only|never|often) )*[a-z]+\b", re.I)


def consequence(clause: str) -> bool:
    """Whether a clause said after "so" is the user doing what follows from the fact before (module docstring)."""
    return bool(_DOING.match(clause.strip()))


# a goal the user is working towards: what they do "so" is how ("i'm training for my first triathlon so i swim at 6am
# three mornings a week": "User is training for their first triathlon and swims at 6am three mornings a week")
_TRAINING = re.compile(r"^User is (?:(?:now|currently|also) )?(?:training|preparing|in training|getting fit|revising|"
                       r"practi[sc]ing) for ")


def trains_for(before: Fact, clause: str) -> bool:
    """Whether a clause said after "so" is what the user does for the goal the fact before says (see above)."""
    return bool(_TRAINING.match(before.content)) and consequence(clause)


# what the user's days are like because of their work: "i'm a midwife so i'm on my feet all day", "I work at the port
# so I'm up at 4 most mornings". It is part of the job ("User is a midwife and is on their feet all day"), not a
# time of the week to plan around
_JOB = re.compile(r"^User (?:is (?:an?|self-employed)|works|teaches|runs)\b")
_DAYS_LIKE = re.compile(r"^i(?:'m|’m| am) (?!(?:not|no)\b)[^,;]*?\b(?:all (?:day|night|week)|"
                        r"every (?:day|morning|night|evening|weekend)|"
                        r"most (?:days|mornings|nights|evenings|weekends))\b", re.I)


def at_work(before: Fact, clause: str) -> bool:
    """Whether a clause said after "so" is what the user's days are like in the work the fact before says."""
    return before.category == "personal" and bool(_JOB.match(before.content) and _DAYS_LIKE.match(clause.strip()))


# what the user does or leaves undone for someone else's sake: "so I never cook prawns", "so we always check labels"
_FOR_THEM = re.compile(r"^(?:i|we) (?:(?:just|usually|mostly|now) )*(?:never|don't|don’t|do not|always|avoid|can't|"
                       r"can’t|cannot|won't|won’t|only|have to|had to)\b", re.I)
_SOMEONE_ELSES = re.compile(rf"^User(?:'s|’s) (?:[\w-]+ ){{0,2}}?(?:{RELATIONS})\b", re.I)


def on_their_account(before: Fact, clause: str) -> bool:
    """Whether a clause said after "so" is what the user does because of what someone of theirs is ("my husband is
    allergic to shellfish so I never cook prawns"): it says nothing of the user's own tastes, and is not kept."""
    return bool(_SOMEONE_ELSES.match(before.content) and _FOR_THEM.match(clause.strip()))


# what the user is doing with someone on the day just said of them: "my mum turns 80 on 12 march, we're taking her for
# lunch at the pump room" is a plan for 12 March
_WITH_THEM = re.compile(r"^(?:we|i)(?:'re|’re| are|'m|’m| am|'ll|’ll| will) (?:(?:probably|hopefully|just) )?"
                        r"(?P<verb>taking|bringing|treating|throwing|having|booking) (?P<whom>her|him|them)"
                        r"(?P<what> (?:for|to|out|away|over|round|a|an|somewhere|on) [^;!?]+)$", re.I)
_ON_A_DAY = re.compile(r"^User's (?P<who>(?:[\w-]+ ){1,3}?)(?:turns|is turning|is|will be|gets|is getting|retires|"
                       r"graduates)\b.*? (?P<when>(?:on|next|this) (?:the )?\w+(?: (?:of )?\w+)?|"
                       r"in (?-i:[A-Z])[a-z]+)$", re.I)


def plan_with(before: Fact, clause: str) -> Fact | None:
    """The user's plan with someone for the day the fact before gives them ("User is taking their mum for lunch at
    the Pump Room on 12 March"), or None."""
    plan, day = _WITH_THEM.match(clause.strip()), _ON_A_DAY.match(before.content)
    if plan is None or day is None:
        return None
    return replace(before, content=f"User is {plan.group('verb').lower()} their {day.group('who').strip()}"
                                   f"{plan.group('what')} {day.group('when')}", category="schedule")


def qualify(facts: list[Fact], seen: set[str]) -> None:
    """ "I'm a vegetarian but I eat fish sometimes": a "but" that qualifies what the user just said of themselves
    (the same kind of fact, the same sentence) stays with it, "User is a vegetarian but eats fish sometimes"."""
    before, fact = facts[-2], facts[-1]
    if before.extracted_from != fact.extracted_from or before.category != fact.category or \
            not before.content.startswith("User ") or not fact.content.startswith("User "):
        return
    seen.discard(before.content.casefold())
    seen.discard(fact.content.casefold())
    facts[-2:] = [replace(fact, content=f"{before.content} but {fact.content[5:]}",
                          confidence=max(before.confidence, fact.confidence))]
    seen.add(facts[-1].content.casefold())


def joined(before: Fact, after: Fact) -> Fact | None:
    """ "User loves podcasts" and "User listens on the train" -> "User loves podcasts and listens on the train",
    or None when either is not the user's own fact."""
    if not before.content.startswith("User ") or not after.content.startswith("User "):
        return None
    return replace(before, content=f"{before.content} and {after.content[5:]}")


# the user's part in a wedding just said: "my best mate nadia is getting married in porto and I'm a bridesmaid"
_ROLE = re.compile(r"^(?:and )?(?:i|we)(?:'m|’m| am|'re|’re| are)(?: going to be| gonna be| also)? "
                   r"(?P<role>(?:(?:a|the|one of the) )?(?:bridesmaids?|best man|maid of honou?r|matron of honou?r|"
                   r"ushers?|page ?boys?|flower girls?|witness|officiant|chief bridesmaid))[.!]*$", re.I)
_WEDDING = re.compile(r"^User's (?P<who>.+?) (?:is|are) (?:getting married|marrying \S+) (?P<rest>.+)$")


def part_in(before: Fact, clause: str) -> Fact | None:
    """The user's part in the wedding the fact before says ("User is a bridesmaid at their best mate Nadia's wedding
    in Porto on 6th June"), or None. It is what the user is part of (context), said with the wedding's where and
    when, and not who the user is ("User is a bridesmaid" alone says nothing to remember)."""
    role, wedding = _ROLE.match(clause.strip()), _WEDDING.match(before.content)
    if role is None or wedding is None:
        return None
    return replace(before, content=f"User is {role.group('role').lower()} at their {wedding.group('who')}'s wedding "
                                   f"{wedding.group('rest')}", category="context")

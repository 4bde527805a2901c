"""Memory extraction, news: what has changed since the user last said it, said so that it revises the older
memory (dedup.py) instead of standing beside it, and an occasion of theirs being held.

- a place of work or study left, said as where the user no longer is: "i'm not at the council anymore", "I'm no
  longer with Deloitte" -> "User is no longer at the council" (and with what they do now said next, one memory:
  "User is now a wedding photographer, no longer at the council", entities.py);
- an occasion moved to a new date: "we've had to move the wedding to 20 september", "my op's been pushed back to
  the 3rd of May" -> "User's wedding has been moved to 20 September" (which revises "User is getting married on
  14 June");
- a party for someone of theirs: "we're doing my son Jack's 10th at the bowling alley next month" -> "User is having
  their son Jack's 10th birthday party at the bowling alley next month".

Each is a pattern anchored at the start of a clause, written the way rules.py is; they are tried first.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from avatar_service.core.memory.people import Made
from avatar_service.core.memory.vocabulary import MONTH_OR_DATE, RELATIONS, at_most_words
from avatar_service.core.memory.wording import clean, third_person

# an occasion that has a date: "the wedding", "my op", "our hen do"
OCCASIONS = (r"wedding|party|hen do|hen party|stag do|stag party|christening|graduation|ceremony|reception|"
             r"appointment|interview|exam|test|driving test|surgery|operation|op|scan|holiday|trip|move|flight|"
             r"birthday party|anniversary party|leaving do|recital|concert|gig|match|race|marathon|due date|"
             r"court date|hearing")
# where one works or studies, not where one is for the moment ("I'm not at home any more": gone out)
_MOMENT = re.compile(r"^(?:home|work|my desk|the (?:moment|minute|house|office|shop|station|hospital|gym|pool)|"
                     r"this address|it|all|that|the same)\b", re.I)
# a new date: "20 september", "the 3rd", "next spring", "june", "the weekend after"
_NEW_DATE = re.compile(rf"{MONTH_OR_DATE.pattern}|\b(?:next|this|the following) \w+|"
                       r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:spring|summer|autumn|winter|new year)\b",
                       re.I)


def _left(m: re.Match[str]) -> Made:
    where = clean(m.group("v"))
    if _MOMENT.match(where) or not at_most_words(where, 5):
        return None
    return f"User is no longer at {third_person(where)}", "personal", 0.75


def _moved(m: re.Match[str]) -> Made:
    when = clean(m.group("v"))
    if not _NEW_DATE.search(when) or not at_most_words(when, 6):
        return None
    occasion = m.group("ev").lower()
    return f"User's {occasion} has been moved to {third_person(when)}", "schedule", 0.8


def _party(m: re.Match[str]) -> Made:
    who = m.group("who")
    rest = clean(m.group("v") or "")
    said = f"User is having their {who[:1].lower()}{who[1:]}'s {m.group('n').lower()} birthday party"
    return (f"{said} {third_person(rest)}" if rest else said), "context", 0.75


_OCCASION = rf"(?P<ev>(?:[\w-]+ )?(?:{OCCASIONS}))"
NEWS_TEXTS: list[tuple[str, Callable[[re.Match[str]], Made]]] = [
    # where they work or study no longer: "i'm not at the council anymore", "I'm no longer with Deloitte"
    (r"^i(?:'m|’m| am) (?:(?:not|no longer) (?:at|with|working at|working for|employed by)|"
     r"(?:not|no longer) (?:a student|studying) at) (?P<v>(?:the |my )?[\w&'’. -]{2,40}?)"
     r"(?: (?:anymore|any more))$", _left),
    (r"^i(?:'m|’m| am) no longer (?:at|with|working at|working for|employed by) (?P<v>(?:the |my )?[\w&'’. -]{2,40}?)"
     r"(?: (?:anymore|any more|now))?$", _left),
    (r"^i (?:don't|do not|no longer) work (?:at|for) (?P<v>(?:the |my )?[\w&'’. -]{2,40}?)(?: (?:anymore|any more))$",
     _left),
    # an occasion moved: "we've had to move the wedding to 20 september", "I've pushed my op back to June"
    (r"^(?:i|we)(?:'ve|’ve| have)? (?:(?:had|got) to |just |finally |now |also )*"
     r"(?:move|moved|moving|postpone|postponed|push|pushed|reschedule|rescheduled|bring|brought|put|change|changed) "
     rf"(?:back |forward )?(?:my|our|the) {_OCCASION}(?: back| forward)? (?:to|until|till|for) "
     r"(?P<v>[^,;!?]+)(?:, [^;!?]*)?$",
     _moved),
    # "the wedding's been moved to September", "my op has been pushed back to the 3rd"
    (rf"^(?:my|our|the) {_OCCASION}(?:'s|’s| has| is)? (?:now |just |had to be |been |got |being )*"
     r"(?:moved|postponed|pushed back|put back|brought forward|rescheduled|changed) (?:to|until|till|for) "
     r"(?P<v>[^,;!?]+)(?:, [^;!?]*)?$", _moved),
    # a party for one of theirs: "we're doing my son Jack's 10th at the bowling alley next month"
    (r"^(?:i|we)(?:'m|’m| am|'re|’re| are) (?:doing|having|throwing|holding|hosting|planning) (?:my|our) "
     rf"(?P<who>(?:[\w-]+ )?(?:{RELATIONS})(?: [\w-]+)?)(?:'s|’s) (?P<n>\d{{1,3}}(?:st|nd|rd|th))"
     r"(?: birthday)?(?: party| do| bash)?(?P<v> (?:at|in|on|next|this|for) [^,;!?]+)?$", _party),
]
NEWS = [(re.compile(pattern, re.I), make) for pattern, make in NEWS_TEXTS]

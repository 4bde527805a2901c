"""The user's people in a question: a child whose age a memory gives ("a ticket for my son"), and several of them at
once ("how old are my kids?", "what are my two called?"), answered with what the user said of each, not of the first
one found, nor with the place's rules for children."""

from __future__ import annotations

import re
from collections.abc import Sequence

from avatar_service.adapters.dialogue.age_limits import KIN_WORDS, ages, ages_meant, mentions_child
from avatar_service.adapters.dialogue.answering import question_weights
from avatar_service.adapters.dialogue.question_cases import asks_age_limit
from avatar_service.adapters.dialogue.ranked import Ranking, Scored
from avatar_service.adapters.dialogue.terms import owners, terms
from avatar_service.core.text.lexicon import words_of

# "my kids", "our two boys", "both my kids", "all of the children", and "my two" alone (which means the children as
# often as not)
SEVERAL = re.compile(r"\b(?:my|our) (?:(?:two|three|four) )?(?:kids|children|sons|daughters|boys|girls|grandchildren|"
                     r"grandkids|twins|little ones)\b|\b(?:my|our) (?:two|three|four)\b|"
                     r"\b(?:both|all) (?:of )?(?:my|our|the) (?:kids|children|boys|girls|two|three)\b", re.I)
# what the user's memories call their children, which the question's "kids" or "two" stands for
CHILD_TERMS = frozenset(terms("son daughter child children kid"))
_AT_MOST = 4


def ages_of_relatives(text: str, memories: Sequence[str]) -> list[int]:
    """"a ticket for my son", "can my niece come?": their age, when a memory gives it ("... a son named Tom who is
    12", "User's niece Ruby is 16")."""
    said = owners(text)
    # (a plural on its own is anyone's: "do you do anything just for girls?" asks of girls, not of my daughter)
    relatives = {SAME_PERSON.get(w, w) for i, w in enumerate(said) if (mentions_child(w) or w in _KIN) and
                 not (_ANYONES.match(w) and (i == 0 or said[i - 1] not in _WHOSE))}
    found = [age for m in memories if relatives & {SAME_PERSON.get(w, w) for w in owners(m)}
             for age in _ages_of(relatives, m)]
    if found or "baby" not in relatives:
        return found
    # "does the baby need a ticket?": the child whose age a memory gives in months ("Isla is 18 months old")
    return [a for m in memories for part in _PARTS.split(m) if _IN_MONTHS.search(part) for a in ages(part)]


def _ages_of(relatives: set[str], memory: str) -> list[int]:
    """The ages a memory gives the relatives: those of the parts naming them when it names others too ("User's son
    Noah is 5 and her daughter Isla is 18 months old": the son is 5), else all of its ages ("two sons, Tom (8) and Jack
    (5)")."""
    theirs = [a for part in _PARTS.split(memory) if relatives & {SAME_PERSON.get(w, w) for w in owners(part)}
              for a in ages(part)]
    return theirs or ages(memory)


_PARTS = re.compile(r",|;|\band\b")
_IN_MONTHS = re.compile(r"\b\w+[ -]months?[ -]old\b", re.I)


_ANYONES = re.compile(r"(?:kids|children|boys|girls|teenagers|teens|toddlers|babies|youngsters|lads|sons|daughters)$")
_WHOSE = frozenset(words_of("my our the both all two three four his her their these those"))


# the words for one of the user's people that stand for one another, each to the first of its group ("my little boy"
# is "User's son Finn is 2", "my nan" the memory's grandmother)
SAME_PERSON = {w: group.split()[0] for group in (
    "son sons boy boys lad lads", "daughter daughters girl girls lass",
    "grandmother nan nana nanna nanny gran granny grandma", "grandfather grandad granddad grandpa grampa",
    "mother mum mom mam mummy", "father dad daddy", "partner other half", "wife missus", "husband hubby")
    for w in group.split()}


def people_asked_of(text: str, context: str, memories: Sequence[str], kinds: Sequence[str], said_ages: list[int],
                    pointed_ages: list[int]) -> tuple[list[int], bool, bool]:
    """The ages a question asks about (`said_ages`: its own; `pointed_ages`: the last reply's, when it points back
    with "she"), whether it asks a place's age limit for them, and whether it asks again the limit the turn before
    (`context`) asked, of someone else ("and ffion?" after "is gethin old enough to go in a canoe?")."""
    limit_again = bool(context) and asks_age_limit(context) and bool(ages_of_named(text, memories))
    old_enough = asks_age_limit(text) or limit_again
    asked = said_ages
    # (a toddler is about 2; but "how old is my son?" asks his age, which is then no case of what is asked)
    if not asked and mentions_kin(text) and (old_enough or "age" not in kinds):
        asked = ages_of_relatives(text, memories) or ages_meant(text)
    # "is gethin old enough?", "and isla?" after a child's price, "can isla go on the ice on her own?": what the
    # place's rules say for the age a memory gives them
    if not asked and (old_enough or "price" in kinds or _AGE_RULED.search(text) or _SUPERVISED in terms(text)):
        asked = ages_of_named(text, memories)
    if not asked and _MY_AGE.search(text):  # "how much is membership for someone my age?": "User is 72"
        asked = [age for m in memories if (own := _OWN_AGE.match(m)) for age in ages(own.group(0))][:1]
    if old_enough and not asked:
        asked = pointed_ages  # "is she old enough?" after "Erin is 9"
    return asked, old_enough, limit_again


# what a place's rules say by age: being on one's own (which the everyday phrases read as supervision, "on her own",
# "unaccompanied"), taking part, a ticket
_SUPERVISED = terms("supervise")[0]
_AGE_RULED = re.compile(r"\balone\b|\bby (?:him|her)self\b|"
                        r"\b(?:able|allowed|old enough) to (?:go|come|join|take part|do it|ride)\b|\bhave a go\b|"
                        r"\bneed (?:a|an|her own|his own) ticket\b|\bgo(?:es)? free\b|"
                        # ("can mia come to an evening show?", "anika's desperate to help, can she come in the van?")
                        r"(?:^|[,.;!?]\s)\W*(?:can|could|may) \w+ (?:come|go|join|do|try)\b|"
                        # ("is there anything i could bring finn to?")
                        r"\b(?:anything|something) (?:\w+ )?(?:could|can|might) "
                        r"(?:bring \w+ to|take \w+ to|join|do)\b|"
                        # ("which class would oscar go in?")
                        r"\b(?:which|what) (?:class|group|level|stage|course|session|team|lesson)e?s? (?:would|should|"
                        r"could|will|can|does|do) \w+ (?:go|be|join|start|do)\b", re.I)
_MY_AGE = re.compile(r"\b(?:my age|someone like me|people like me|at my age|a (?:pensioner|senior) like me|"
                     r"(?:am i|i'm|im) (?:too (?:old|young)|old enough))\b", re.I)
_OWN_AGE = re.compile(r"^User is (?:\d{1,3}|aged \d{1,3})\b", re.I)


def ages_of_named(text: str, memories: Sequence[str]) -> list[int]:
    """"is gethin old enough to go in a canoe?": the age a memory gives right after the name ("... are Ffion, who is
    10, and Gethin, who is 13", "Maisie is 4", "Ellie, 9")."""
    return [age for _, age in _named_ages(text, memories)]


def named_in(text: str, memories: Sequence[str]) -> list[str]:
    """The names in the text whose age a memory gives."""
    return [name for name, _ in _named_ages(text, memories)]


def named_ages(memory: str) -> list[tuple[str, int]]:
    """The names a memory gives an age, and the ages ("... are Ffion, who is 10, and Gethin, who is 13"; a baby's
    months in years: "Maisie is 18 months old" is 1)."""
    return [(m.group(1), int(m.group(2)) // 12 if m.group(3) else int(m.group(2))) for m in _NAMED_AGE.finditer(memory)]


def _named_ages(text: str, memories: Sequence[str]) -> list[tuple[str, int]]:
    asked = set(owners(text))  # ("ella's bike": Ella)
    return [(name, age) for memory in memories for name, age in named_ages(memory) if name.lower() in asked]


# a name (capitalised, not the memory's opening "User") and the age said right after it, in years or a baby's months
_NAMED_AGE = re.compile(r"(?<!^)\b((?-i:[A-Z][a-z]{2,}))(?:,\s*|\s+)(?:who(?:'s|\s+is)\s+|is\s+|aged\s+|\()?"
                        r"(\d{1,2})\b(?:\s*(months?)\s+old\b|"
                        r"(?!\s*(?:am|pm|%|:|\.\d|years? ago|months?|weeks?|days?)))", re.I)


def mentions_kin(text: str) -> bool:
    """Names one of the user's people whose age may matter to a rule: a child, or a niece, a sister..."""
    return mentions_child(text) or bool(_KIN.intersection(owners(text)))


_KIN = frozenset(KIN_WORDS)


def asks_of_several(question: str, kinds: Sequence[str]) -> bool:
    """Asks the age or the name of several of the user's children: what only their memories know."""
    return bool({"age", "name"} & set(kinds)) and bool(SEVERAL.search(question))


def each_of_them(ranking: Ranking, best: Scored) -> list[Scored]:
    """Every memory about one of the user's children that holds the kind asked for, best first; or the best alone
    when none does."""
    chosen = [s for s in ranking.ranked if s.candidate.kind == "memory" and s.fits and _A_CHILD.match(s.candidate.text)]
    return chosen[:_AT_MOST] or [best]


# a memory, as spoken, whose subject is a child of the user's ("Your son Theo is 11", "You have two children, ..."),
# not one that names them on the way ("your mum Sandra sometimes collects the children")
_A_CHILD = re.compile(r"\W*(?:your|you have)\b[^,.;]{0,30}?\b(?:sons?|daughters?|child|children|kids?|boys?|girls?|"
                      r"twins|grandchildren|grandsons?|granddaughters?)\b", re.I)


def named_for(weights: dict[str, float], memories: Sequence[str], known: frozenset[str]) -> set[str]:
    """"would biscuit need to be neutered for that?": the terms of the user's own pet or person, named as the memories
    name them and nowhere in what the place knows (`known`: the terms of its sentences), in a question that asks
    something else of the place: whom it is for (its case), not what it asks."""
    names = {t for m in memories for name in NAME.findall(m) for t in terms(name)} & weights.keys()
    if not names or not {t for t, w in weights.items() if w >= 1.0} - names:
        return set()
    return names - known


NAME = re.compile(r"(?<![.!?] )(?<!^)\b[A-Z][a-z]+\b")  # a name: capitalised, not as a sentence's first word


def weigh_for_the_limit(weights: dict[str, float], text: str, said: str, again: str, memories: Sequence[str]) -> None:
    """"is she allowed at that age?": the place's age limit asked for someone, whose age stands for them: the words
    naming them (the name, the person "she" was resolved to in `text` from `said`) and the age words weigh as a case.
    Asked `again` of someone else ("and ffion?" after that question), the question before weighs as its own."""
    for t, w in (question_weights(again, (), ()) if again else {}).items():
        weights[t] = max(weights.get(t, 0.0), w)
    resolved_to = set(terms(text)) - set(terms(said))
    named = set(terms(" ".join(named_in(f"{text} {again}", memories))))
    for t in (resolved_to | named | _AGE_WORDS) & weights.keys():
        weights[t] = min(weights[t], 0.3)


# (and taking part, which any of the place's limits is for: "is maisie old enough to join?")
_TAKING_PART = frozenset(terms("join joining come go start take part bring"))
_AGE_WORDS = frozenset(terms("age old young enough")) | _TAKING_PART


def weigh_the_aged(weights: dict[str, float], text: str, memories: Sequence[str]) -> None:
    """"which class would oscar go in?", "anything i could bring finn to?": asked for the age a memory gives him, his
    name weighs as a case (the class for a 4-year-old is asked, not what the user told of Oscar), and so does taking
    part ("is there anything my grandson could join?")."""
    for t in (set(terms(" ".join(named_in(text, memories)))) | _TAKING_PART) & weights.keys():
        weights[t] = min(weights[t], 0.3)


# "what about mia?", "and oscar?": the question before, asked of someone else
_ABOUT_ANOTHER = re.compile(r"^\W*(?:and|what about|how about)\s+([a-z]+)\W*$", re.I)


def asked_again_of(text: str, previous_user: str, memories: Sequence[str]) -> str:
    """"what about mia?" after "can alfie have the kids meal?" is "can mia have the kids meal?" when a memory names
    both (whose age, say, then decides); "" when the turn is no such question."""
    if not (m := _ABOUT_ANOTHER.match(text)):
        return ""  # (most turns: no memory is read)
    names = {n.lower() for memory in memories for n in NAME.findall(memory)}
    if (new := m.group(1).lower()) not in names:
        return ""
    before = {w for w in re.findall(r"[a-z]+", previous_user.lower()) if w in names and w != new}
    return re.sub(rf"\b{before.pop()}\b", new, previous_user, flags=re.I) if len(before) == 1 else ""

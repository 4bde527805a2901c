"""What a follow-up borrows from the conversation before it, beyond the previous user turn's words.

"how long does it take?" after "and a little one?" after "how much for a full groom on a big dog?" is about the
full groom: a follow-up of a follow-up leans on the turn before that one too (`topic_turns`). "who does that?"
after an answer about hand-stripping asks who does the hand-stripping, a word only the answer said: a turn that
points back ("that", "it") borrows the subject of what the last reply said (`reply_terms`). "which day?" has no
word of its own but the kind it asks for, so it is about the turn before as well (`kind_only`). And the noun a
demonstrative ends a follow-up with ("at that hour?", "close that day?") names what was said before, not a new
topic (`pointing_nouns`). "which days is she in?" after "who does the fittings?" is about the person the answer
named, not about whoever the user called "my wife" (`answered_someone`). "later than that?" asks for another
sentence than the one the reply said, which then gains nothing from the reply's words (`asks_another`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from avatar_service.adapters.dialogue import age_limits, answer_types
from avatar_service.adapters.dialogue.answering import question_weights
from avatar_service.adapters.dialogue.ranked import Candidate
from avatar_service.adapters.dialogue.ranking import said_sentences
from avatar_service.adapters.dialogue.terms import terms, words
from avatar_service.adapters.dialogue.user_facts import addresses_the_place, asks_visit_time
from avatar_service.core.text.follow_ups import is_follow_up

# how many user turns before the previous one a chain of follow-ups may reach back to
CHAIN = 2
# the weight (before a follow-up's usual scaling) of what the turn before the previous said, and of what the last
# reply said: each is context for the context, so less than the previous question's own words
EARLIER_WEIGHT, REPLY_WEIGHT = 0.5, 0.3
# a reply sentence is what the conversation is about when nearly all its words are a known sentence's (not an
# "I don't know" naming the topics it can help with)
GROUNDED = 0.8
# (not "he", "she": they mostly stand for someone of the user's, "does she need her own helmet?", whom
# `core.text.follow_ups.resolved` names)
_BACK = re.compile(r"\b(?:that|this|these|those|there)\b", re.I)
# "it" opens questions of their own as well ("how much is it to get a plumber out?"): it points back only in a
# question without a main word of its own ("how long does it take?")
_IT = re.compile(r"\bit\b", re.I)
# "at that hour?", "close that day?", "that one?", "that kind of job?": a demonstrative and the last word of the
# question. After a copula the word says something about it instead ("is that free?", "is this included?").
_POINTING = re.compile(r"\b(?:that|this|those|these)\s+(?:(?:kind|sort|type)s?\s+of\s+)?([a-z]+)\s*[?.!]*\s*$", re.I)
_ANOTHER = re.compile(r"\b(?:\w+er|more|less) than (?:that|this|it|them)\b|\b(?:other|another|else|different)\b",
                      re.I)
_COPULA = frozenset(("is", "was", "are", "were", "be", "it's", "that's", "isn't", "wasn't"))
# words short enough to be nothing but the kind asked for and a pointer: "which day?", "who does that?"
_SHORT = 5


def topic_turns(user_turns: Sequence[str]) -> list[str]:
    """The previous user turn, then (while each is itself a follow-up, at most CHAIN of them) the ones before it:
    what the conversation is about. `user_turns` are the earlier user turns, oldest first."""
    chain: list[str] = []
    for turn in reversed(user_turns):
        chain.append(turn)
        if len(chain) > CHAIN or not leans_back(turn):
            break
    return chain


def leans_back(turn: str) -> bool:
    """A turn that only makes sense with the one before it: a follow-up, or one that names only a kind."""
    kinds = answer_types.wanted(turn)
    return is_follow_up(turn) or kind_only(turn, question_weights(turn, kinds, age_limits.ages(turn)), kinds)


def kind_only(text: str, own: dict[str, float], kinds: Sequence[str]) -> bool:
    """"which day?", "who does that?": a short question with no main word of its own beyond the kind it asks for
    (`own`: its terms and their weights, as `answering.question_weights` gives them)."""
    return bool(kinds) and all(w < 1.0 for w in own.values()) and (len(words(text)) <= _SHORT or
                                                                     asks_visit_time(text)) and \
        not addresses_the_place(text) and not _THE_ADDRESS.search(text)  # "what is your address?" asks it anew


_THE_ADDRESS = re.compile(r"\bthe (?:address|postcode|post code)\b", re.I)  # (the place's, whatever came before)


def compared_with(text: str, known: Sequence[Candidate]) -> tuple[frozenset[str], frozenset[str]]:
    """"is there anything cheaper than the full day?": the terms of the thing it is compared with, and the known
    sentences about that thing, which gain nothing from them (as `borrowed_terms` gives them for "later than that?")."""
    than = _THAN.search(text)
    named = frozenset(terms(than.group(1))) if than else frozenset()
    return (named, frozenset(c.text for c in known if c.kind == "knowledge" and named <= set(terms(c.text)))) \
        if named else (frozenset(), frozenset())


_THAN = re.compile(r"\b(?:anything|something|any\b[\w ]*?|one|ones|options?)\s+(?:\w+er|more \w+|less \w+) than "
                   r"(?:the |a |an |our |your )?((?!(?:that|this|it|them)\b)[a-z][\w' -]*?)\s*[?.!]*$", re.I)


def place_answered(previous_reply: str, known: Sequence[Candidate]) -> bool:
    """The last reply said a known sentence of the place and nothing of the user's: a follow-up asks on about the
    place ("which days?" after "does my dad get a discount?" and "Over-65s pay £13 ... on Tuesdays")."""
    said = said_sentences(previous_reply)
    return not any(s.startswith(("you ", "your ")) for s in said) and any(
        c.kind == "knowledge" and c.text.strip().rstrip(".!?").lower() in said for c in known)


def asks_another(text: str) -> bool:
    """"later than that?", "anything else?": the answer is another sentence than the one the last reply said."""
    return bool(_ANOTHER.search(text))


def new_attribute(kinds: Sequence[str], previous: str) -> bool:
    """The turn asks for a kind of answer the previous turn did not ("how long does it take?" after a price): another
    attribute of the same subject."""
    return bool(kinds) and not set(kinds) & set(answer_types.wanted(previous))


def points_back(text: str, weights: dict[str, float]) -> bool:
    """A question that points at what was said before: "who does that?", "how long does it take?"."""
    return bool(_BACK.search(text)) or (bool(_IT.search(text)) and all(w < 1.0 for w in weights.values()))


def pointing_nouns(text: str) -> set[str]:
    """The terms of a noun a question ends with after "that"/"this" ("at that hour?"): they name something said."""
    m = _POINTING.search(text)
    if not m:
        return set()
    before = words(text[:m.start()])
    if before and before[-1] in _COPULA:
        return set()
    return set(terms(m.group(1)))


def reply_terms(reply: str, known: Iterable[str]) -> tuple[dict[str, float], frozenset[str]]:
    """The terms of the last reply's sentences that said something known (a knowledge sentence or a memory as
    spoken), at REPLY_WEIGHT: the subject a pointing follow-up is about; and the known sentences it said. Numbers
    are left out: "£20" is the answer to the last question, not a topic."""
    known_terms = [(k, set(terms(k))) for k in known]
    out: dict[str, float] = {}
    echoed: set[str] = set()
    for sentence in re.split(r"(?<=[.!?])\s+", reply):
        said = [t for t in terms(sentence) if not t[:1].isdigit()]
        if not said:
            continue
        sources = [k for k, have in known_terms if sum(t in have for t in said) >= GROUNDED * len(said)]
        if sources:
            echoed.update(sources)
            for t in said:
                out.setdefault(t, REPLY_WEIGHT)
    return out, frozenset(echoed)


def borrowed_terms(text: str, more: bool, weights: dict[str, float], topic: Sequence[str], reply: str,
                   known: Callable[[], Iterable[str]]) -> tuple[dict[str, float], frozenset[str], frozenset[str]]:
    """The terms a follow-up borrows and their weights (before the follow-up's scaling): the previous user
    turn's, those of the turns before it in a chain of follow-ups (`topic`, from `topic_turns`), and, when it
    points back ("who does that?"), those of what the last reply said. With them, for `ranked.Query`, the terms
    only the reply gave and the known sentences it said when the turn asks for another ("later than that?"):
    those sentences gain nothing from their own words."""
    previous, *earlier = topic
    out = question_weights(previous, answer_types.wanted(previous), age_limits.ages(previous))
    # the turns before the previous one only when this one has no main word of its own: "how much is it to get a
    # plumber out?" names its subject, "how long does it take?" does not
    for turn in earlier if all(w < 1.0 for w in weights.values()) else ():
        for t, w in question_weights(turn, answer_types.wanted(turn), age_limits.ages(turn)).items():
            out.setdefault(t, w * EARLIER_WEIGHT)
    from_reply: frozenset[str] = frozenset()
    echoed: frozenset[str] = frozenset()
    if not more and (points_back(text, weights) or kind_only(text, weights, answer_types.wanted(text))):
        subject, said = reply_terms(reply, known())  # every sentence known: only for a turn that points back
        # ("is there a class for that?" after "You are 22 weeks pregnant.": what the reply said is what it is for,
        # and another sentence answers)
        # (but "is there a charge for that?" asks the price of what was said)
        purpose = asks_whether_there_is(text) and bool(_FOR_THAT.search(text)) and not answer_types.wanted(text)
        if asks_another(text) or purpose:
            from_reply, echoed = frozenset(subject.keys() - out.keys()), said
        for t, w in subject.items():
            out[t] = max(out.get(t, 0.0), 1.0) if purpose else out.get(t, w)
    return out, from_reply, echoed


CONNECTIVE = re.compile(r"^\s*(?:and|also|or|but|so|then|what about|how about)\b", re.I)
_BORROWS_KIND = 10  # words at most of a follow-up that asks the kind of answer the turn before asked


def kinds_borrowed(text: str, context: str, new_words: set[str], ages_asked: bool) -> list[str]:
    """The kinds of answer a follow-up with none of its own asks of the turn before (`context`): "and for kids?", "can
    I park there?" ask what it asked; "will my insurance cover it?" (two words of its own, `new_words`), "can my 8
    year old come on his own?" or "is there a class for that?" ask another thing, as "and can you work on his bike?"
    does after a price: whether, of a thing of its own. "does that include a wooden floor?" after "what's included?"
    asks whether, not for a list."""
    yes_no = answer_types.is_yes_no(CONNECTIVE.sub("", text))
    # ("could you post it to me instead?" after "when can I collect it?": another way, asked whether)
    if (yes_no and (len(new_words) >= 2 or _INSTEAD.search(text))) or not (CONNECTIVE.match(text) or (
            len(new_words) <= 1 and not ages_asked and not asks_whether_there_is(text) and
            len(text.split()) <= _BORROWS_KIND)):  # (not "what do i need to bring with me when i drop ...?")
        return []
    return [k for k in answer_types.wanted(context) if not (yes_no and k == "list")]


def asks_whether_there_is(text: str) -> bool:
    """"Is there a class for that?", "do you have anything for kids?": whether the place has something."""
    return bool(_EXISTS.match(text))


_INSTEAD = re.compile(r"\binstead\b", re.I)
_EXISTS = re.compile(r"^\s*(?:is|are) there\b|^\s*(?:do|does) (?:you|they|it) (?:have|do|offer|run)\b", re.I)
_FOR_THAT = re.compile(r"\bfor (?:that|this|it)\s*\??\s*$", re.I)


# "what did I say she's called?": the user's own words, so "she" is whom the user spoke of
_RECALLING = re.compile(r"\b(?:did|have) i (?:say|tell|mention|said|told)|\bi (?:said|told you|mentioned)\b", re.I)


def role_terms(text: str, kinds: Sequence[str], previous_reply: str, known: Callable[[], list[str]]) -> set[str]:
    """"who runs it?" asks who, of what was said before: the terms of what the person does, which say how they stand
    to it and weigh no more than a pointer's, when the last reply named someone or nothing `known` says them ("who
    teaches it?" may still find the teacher by the word). "who looks after kids?": what nothing known says of anyone
    is how the question is put ("children are seen by Dr Vos")."""
    if "person" not in kinds:
        return set()
    pointing = role_words(text)
    if pointing and answer_types.HOLDS["person"].search(previous_reply):
        return set(question_weights(pointing, (), ()))
    doing = pointing or ((m := _WHO_VERB.match(text)) and m.group(1))
    done = set(question_weights(doing, (), ())) if doing else set()
    said = [set(terms(k)) for k in known()] if done else []
    return {t for t in done if not any(t in s for s in said)}


def role_words(text: str) -> str:
    """"who runs it?", "who'd come and fit that?", "who looks after that kind of job?": the words of what the person
    does to what was said before; they say how the person stands to it, not what it is ("" when not so asked)."""
    m = _WHO_DOES.match(text)
    return m.group(1) if m else ""


# "who runs", "who'd come and fit", "who looks after": the verb right after "who" (and its particle)
_WHO = r"\W*who(?:'s|'d|'ll|\s+(?:would|will|can|could|does|do|did|is|should))?\s+"
_PARTICLE = r"(?:\s+(?:after|up|out|in|on|over|at|to|with))?"
_WHO_VERB = re.compile(rf"{_WHO}((?:be\s+)?[a-z]+{_PARTICLE})\b", re.I)
_WHO_DOES = re.compile(rf"{_WHO}((?:(?:be|come and|go and)\s+)?[a-z]+{_PARTICLE})\s+"
                       r"(?:it|that|this|them|those|these)\b", re.I)


def answered_someone(previous_user: str, previous_reply: str, text: str = "") -> bool:
    """The turn before asked who, and the reply named someone: "she" now stands for that person. Not when this
    turn asks what the user said, nor a name (the reply had just given that person's)."""
    if _RECALLING.search(text) or "name" in answer_types.wanted(text):
        return False
    return "person" in answer_types.wanted(previous_user) and bool(answer_types.HOLDS["person"].search(previous_reply))


# "why?", "how come?": the reason for what the last reply said
_WHY = re.compile(r"^\W*(?:(?:but|and|so|oh)\s+)?(?:why(?:\s+not|\s+is\s+that|'s\s+that|\s+so)?|how\s+come|how\s+so)"
                  r"\W*$", re.I)
_BECAUSE = re.compile(r"\b(?:because|due to)\s+([^.;!?]+)|,\s*(?:as|since)\s+([^.;!?]+)", re.I)


def reason_given(text: str, previous_reply: str) -> str:
    """"how come?" after "... we don't sharpen cylinder mowers, because they need a specialist grinding machine":
    "Because they need a specialist grinding machine."; "" when the turn asks no reason or the reply gave none."""
    if not _WHY.match(text) or not (m := _BECAUSE.search(previous_reply)):
        return ""
    return f"Because {(m.group(1) or m.group(2)).strip()}."

"""The offline default dialogue engine: answers the question asked from the knowledge and memories it is
handed, in one or two sentences whose wording follows the personality's traits."""

from __future__ import annotations

import dataclasses
import functools
import random
import re
import zlib
from collections.abc import AsyncIterator

from anyio.lowlevel import checkpoint

from avatar_service.adapters.dialogue import age_limits, answer_types
from avatar_service.adapters.dialogue import phrases as P
from avatar_service.adapters.dialogue import small_talk as talk
from avatar_service.adapters.dialogue.answering import (
    CATEGORY_WEIGHT,
    as_sentence,
    best_answer,
    chosen_sentences,
    question_weights,
    unknown_topic,
)
from avatar_service.adapters.dialogue.candidates import known_candidates
from avatar_service.adapters.dialogue.case_asked import the_case_asked, with_antecedent
from avatar_service.adapters.dialogue.each_child import each_child_may
from avatar_service.adapters.dialogue.feelings import Emotion, detect_emotion
from avatar_service.adapters.dialogue.follow_up_context import (
    CONNECTIVE,
    answered_someone,
    borrowed_terms,
    compared_with,
    kind_only,
    kinds_borrowed,
    new_attribute,
    place_answered,
    pointing_nouns,
    points_back,
    reason_given,
    reply_terms,
    role_terms,
    topic_turns,
)
from avatar_service.adapters.dialogue.listed_kinds import JUST_ME, ONE_PERSON, asked_for_one
from avatar_service.adapters.dialogue.my_people import (
    CHILD_TERMS,
    NAME,
    asked_again_of,
    asks_of_several,
    each_of_them,
    named_for,
    people_asked_of,
    weigh_for_the_limit,
    weigh_the_aged,
)
from avatar_service.adapters.dialogue.narrowing import one_clause
from avatar_service.adapters.dialogue.party_prices import party_total
from avatar_service.adapters.dialogue.question_cases import (
    asks_age_limit,
    doers_named,
    put_beside,
    the_place_named,
)
from avatar_service.adapters.dialogue.ranked import Candidate, Query
from avatar_service.adapters.dialogue.ranking import rank, said_sentences
from avatar_service.adapters.dialogue.small_talk import SmallTalk
from avatar_service.adapters.dialogue.style import Style
from avatar_service.adapters.dialogue.terms import (
    OPENING_TERMS,
    common_terms,
    is_question,
    of_the_family,
    spelled_out,
    terms,
    words,
)
from avatar_service.adapters.dialogue.told_cases import named_aside, the_cases, weigh_the_told
from avatar_service.adapters.dialogue.totals import with_total
from avatar_service.adapters.dialogue.user_facts import (
    about_user,
    addresses_the_place,
    asked_part,
    asks_permission,
    asks_visit_time,
    asks_who_here,
    mentions_user,
    name_in_history,
    name_in_turn,
    place_names,
    the_place_itself,
    user_name_in,
)
from avatar_service.adapters.dialogue.yes_or_no import measured, with_answer_word
from avatar_service.core.text.follow_ups import is_follow_up, resolved
from avatar_service.core.text.sentences import sentence_pieces
from avatar_service.ports.dialogue import DialogueRequest, Turn

_MORE = re.compile(r"\b(tell me more|go on(?! for\b)|more about (that|it|this)|what else|keep going|say more)\b")
_VISITING = frozenset(terms("arrive come turn get here"))
_POINTS_BACK = re.compile(r"\b(?:he|she|him|her|his|hers|they|them|their)\b", re.I)
# "do I need to book, or can we just turn up?": the other way is said for contrast, and needs no answer of its own
_ALTERNATIVE = re.compile(r",?\s+or\s+(?:can|could|do|does|should|shall|will|would|is|are|may|must)\b.*$", re.I)
_EXTRA = re.compile(r"\b(?:extra|on top|additional|more)\b", re.I)


class OfflineGroundedDialogue:
    """Offline default. NOT a language model: a retrieval-grounded answerer.

    It ranks the sentences of the knowledge chunks and the user's memories it is handed in one ranking
    (ranking.py: BM25 blended with the retrieval's embedding similarity, the kind of answer asked for and
    who the question is about) and says the best one or two, memories in the second person ("Your dog is
    called Rex."). Follow-ups ("and on Sundays?") borrow the words of the turn before; the same question
    gets the same answer; when nothing answers, it says so in one sentence and names what it can help with.
    It greets, thanks, says goodbye, handles small talk and acknowledges feelings. The system prompt is not
    followed as instructions (nothing here can); the name and description answer "who are you". Game
    commentary comes computed in the GameSituation and is said as it is.

    Traits shape the wording: formality (contractions, register), verbosity (how many sentences), warmth
    (the user's name, a friendly opener when verbose), humor (a rare quip, never the same in one
    conversation), empathy (acknowledging feelings). Deterministic; well under 5 ms a reply.
    """

    name = "offline-grounded"

    async def reply(self, request: DialogueRequest) -> str:
        return self.compose(request)

    async def stream(self, request: DialogueRequest) -> AsyncIterator[str]:
        """The reply sentence by sentence (the first can be spoken while the rest is sent)."""
        for piece in sentence_pieces(self.compose(request)):
            yield piece
            await checkpoint()  # give the room's audio tasks a turn between pieces

    def compose(self, request: DialogueRequest) -> str:
        if request.situation is not None:
            return request.situation.line
        return _Reply(request).text()


class _Reply(SmallTalk):
    """One reply under construction: parts in the persona's register, joined with spaces."""

    def __init__(self, request: DialogueRequest) -> None:
        self.request = request
        self.itself = the_place_itself(request.persona.description)  # the terms naming the place itself
        history = [Turn(t.role, spelled_out(t.content)) if t.role == "user" else t for t in request.history]
        self.user_text = history[-1].content.strip() if history and history[-1].role == "user" else ""
        self.lowered = " ".join(words(self.user_text))
        # Seeded by the persona and the words alone: the same question gets the same reply, however late.
        seed = zlib.crc32(f"{request.persona.name}\x00{self.user_text.lower()}".encode())
        self.style = Style.from_traits(request.persona.traits, random.Random(seed))
        self.earlier = history[:-1] if self.user_text else history
        self.previous_user = next((t.content for t in reversed(self.earlier) if t.role == "user"), "")
        self.previous_reply = next((t.content for t in reversed(self.earlier) if t.role == "assistant"), "")
        # the previous user turn, and the ones before it while each was a follow-up itself
        self.topic = topic_turns([t.content for t in self.earlier if t.role == "user"])
        self.said = " ".join(t.content for t in self.earlier if t.role == "assistant")
        self.user_name = request.user_name or name_in_history(history) or user_name_in(request.memories)
        self.emotion: Emotion | None = detect_emotion(self.user_text)
        self.parts: list[str] = []
        self.pronoun_resolved, self.said_text = False, ""
        self.context_terms: set[str] = set()  # what the turns a follow-up leans on said
        self.pointing = False  # the turn points back at what the last reply said ("what's that cost?")
        self.several = False  # asks about several of the user's children ("how old are my two?")
        self.cases: list[int] = []  # the memories of whom it asks the place for (told_cases)
        # the terms a follow-up borrows from the last reply alone, and the known sentences that reply said
        self.from_reply: frozenset[str] = frozenset()
        self.echoed: frozenset[str] = frozenset()

    def text(self) -> str:
        self.route()
        return " ".join(p.strip() for p in self.parts if p.strip())

    # --- routing ------------------------------------------------------------------------------------

    def route(self) -> None:
        if not self.user_text:
            return self.greeting(opening=True)
        t = self.lowered
        greeted = talk.GREETING.match(self.user_text)
        rest = self.user_text[greeted.end():] if greeted else self.user_text
        substantive = bool(terms(rest)) and (is_question(rest) or len(words(rest)) > 3)
        if greeted and substantive:
            self.say(P.GREETING, name_comma=f", {self.user_name}" if self.user_name else "")
        self.acknowledge_feeling()
        stated_name = name_in_turn(self.user_text)
        if stated_name:
            self.user_name = stated_name
            self.say(P.NICE_TO_MEET, name=stated_name)
            if not substantive or self.lowered.startswith(("my name", "call me", "i'm called", "i am called")):
                return self.say(P.OFFER_HELP)
        if greeted and not substantive and not talk.HOW_ARE_YOU.search(t):
            return self.greeting(opening=len(self.request.history) <= 1)
        if talk.BYE.search(t) and not is_question(rest):
            return self.goodbye()
        if talk.THANKS.search(t) and not is_question(rest):
            return self.thanks()
        if talk.HOW_ARE_YOU.search(t):
            return self.how_are_you(greeted is not None)
        if talk.WHO_ARE_YOU.search(t):
            return self.who_am_i()
        if talk.JOKE.search(t):
            return self.joke()
        if talk.MY_NAME.search(t):
            return self.your_name()
        if talk.ALL_ABOUT_ME.search(t):
            return self.all_about_you()
        if talk.ACK.match(t) and not self.emotion:
            self.say(P.ACK)
            return self.say(P.WHAT_NEXT)
        return self.answer(rest)

    # --- grounded answers -----------------------------------------------------------------------------

    def answer(self, text: str) -> None:
        if because := reason_given(text, self.previous_reply):  # "how come?"
            return self.parts.append(because)
        again = asked_again_of(text, self.previous_user, self.request.memories)  # ("what about mia?": its "her" too)
        said = text = again or text
        # "can he come on board?" after "what's my dog called?"; but "which days is she in?" after "who does the
        # fittings?" asks about the person the answer named
        if not again and not answered_someone(self.previous_user, self.previous_reply, text):
            text = resolved(text, " ".join(reversed(self.topic)))
        self.pronoun_resolved, self.said_text = text != said, said
        more = bool(_MORE.search(self.lowered))
        asking = is_question(text) or more
        query = self.query(text, more)
        ranking, asked = rank(query, self.candidates(exclude=self.previous_reply if more else "")), asked_part(text)
        if query.yes_no and (may := each_child_may(said, self.request.memories, ranking) or measured(text, ranking)):
            return self.parts.append(may)  # "could both my kids come?": Alfie can, Rosa can't; "close enough?"
        # ("am I too old to start?" asks the place's limit, at the user's age)
        mine = min(about_user(asked), query.about_user) if query.ages and query.permission else about_user(asked)
        best = best_answer(ranking, more, asking, mine, query.to_place or query.permission,
                           frozenset(terms(_ALTERNATIVE.sub("", asked))))
        if best is None:
            if self.follow_feeling():
                return None
            if not asking:
                self.say(P.STATEMENT_ACK)
                return self.say(P.TELL_ME_MORE, topic=unknown_topic(text, ranking) or "that")
            if "price" in query.kinds and (party := party_total(text, ranking, self.request.memories)):
                return self.parts.append(party)  # ("so how much for me and both my kids?": no one price answers)
            return self.dont_know(text, ranking)
        chosen = each_of_them(ranking, best) if self.several else chosen_sentences(ranking, best, self.style.verbosity)
        s = self.style
        # ("Sure!" before the answer to a yes-or-no question would say yes, whatever the answer says)
        if s.warmth >= 0.67 and s.verbosity >= 0.34 and asking and not self.negative and not query.yes_no:
            self.say(P.SURE, name_comma=self.name_comma(0.8))
        first = with_antecedent(chosen[0], ranking, terms(text), self.previous_reply, said, self.itself)
        cut = the_case_asked(first.candidate.text, said, query, self.context_terms, self.previous_reply,
                             self.previous_user)
        first = dataclasses.replace(first, candidate=dataclasses.replace(first.candidate, text=cut))
        lead = with_answer_word(first, text, ranking)
        # ("and comb binding?" borrows the kind and names its clause; "how much to post them?" asks a price of its own)
        if len(chosen) == 1 and not query.yes_no:  # "a sourdough loaf": not the rye's price beside it
            lead = one_clause(lead, said, query.kinds, bool(self.context_terms) and query.kind_borrowed,
                              self.previous_reply if self.pointing else "")
        # ("both my mattresses?" / "£25 each": "That's £50 ..."; "for all of us?" / "£35 per person": "... £560")
        self.parts.extend(with_total(text, lead, query.kinds, self.previous_reply, self.request.memories, ranking))
        self.parts.extend(as_sentence(c.candidate.text) for c in chosen[1:])
        self.quip("answer")

    def query(self, text: str, more: bool) -> Query:
        asked_ages = age_limits.ages(text) or age_limits.group_asked(text)
        kinds, borrowed_kinds = answer_types.wanted(text), []
        weights = question_weights(text, kinds, asked_ages)
        if asks_visit_time(text):  # "what time will you turn up?": when the visit booked is, a time and nothing else
            weights = {t: w for t, w in weights.items() if t not in _VISITING}
        weights.pop("more", None)
        # the turn's own terms: its words, and what its phrasing says in other words ("a single class": the drop-in)
        own_terms = frozenset(terms(text)) | {t for t, w in weights.items() if w >= CATEGORY_WEIGHT}
        case, aside_named = put_beside(text)  # where, instead of what, for whom: not what it is about
        for t in (case | the_place_named(text, self.itself)) & weights.keys():
            weights[t] = min(weights[t], 0.3)
        for t in role_terms(text, kinds, self.previous_reply, lambda: [c.text for c in self.known]) & \
                weights.keys():  # "who runs it?"
            weights[t] = min(weights[t], 0.5)
        # a question without words of its own leans on the one before, unless it asks for a kind of answer
        # ("can my 8 year old come on his own?" names whom it is about: "his" points back to no earlier turn)
        alone = kind_only(text, weights, kinds)  # "from what time?": a kind of answer and nothing else
        follow = more or (is_follow_up(text) and not asked_ages) or not (weights or kinds) or alone
        context = self.previous_user if follow else ""
        recalled, listed = False, frozenset[str]()
        pointing = self.pointing = points_back(text, weights)
        self.context_terms = {t for turn in self.topic for t in terms(turn)} if context else set()
        if context:
            for t in pointing_nouns(text) & weights.keys():  # "at that hour?" names no new topic
                weights[t] = min(weights[t], 0.3)
            borrowed, self.from_reply, self.echoed = borrowed_terms(  # the known sentences: read only if needed
                text, more, weights, self.topic, self.previous_reply, lambda: [c.text for c in self.known])
            # the turn's own words say what is new ("and on Saturday?"): the earlier ones together count at
            # most half as much as they do, however many there are; but a turn that asks another kind of answer
            # with no main word of its own ("how long does it take?", "which days is she in?") asks it of what
            # the earlier ones were about, which then counts at half its weight
            own = sum(weights.values())
            new_words = {t for t, w in weights.items() if w >= 1.0} - borrowed.keys()
            scale = 1.0 if more or not own else min(0.5, 0.5 * own / max(sum(borrowed.values()), 1e-9))
            if not more and own and max(weights.values()) < 1.0 and new_attribute(kinds, context):
                scale = max(scale, 0.5)
            for t, w in borrowed.items():
                weights.setdefault(t, w * scale)
            if _POINTS_BACK.search(text):  # "how old is he?" after "...named Bruno"
                for name in NAME.findall(self.previous_reply):
                    for t in terms(name):
                        weights.setdefault(t, 0.5)
            # a yes-or-no question with a word of its own after one the user asked about themselves asks the place,
            # not the kind asked before, nor about the user ("can she get up to the café?" after "who did I say uses a
            # wheelchair?")
            recalled = bool(new_words) and answer_types.is_yes_no(text) and about_user(context) >= 1.0
            if not kinds and not recalled:
                kinds = borrowed_kinds = kinds_borrowed(text, context, new_words, bool(asked_ages))
                if kinds and new_words:
                    listed = reply_terms(self.previous_reply, [c.text for c in self.known])[1]
        if not self.echoed:  # ("anything cheaper than the full day?": not the full day, nor is it what is asked)
            self.from_reply, self.echoed = compared_with(text, self.known)
            for t in self.from_reply & weights.keys():
                weights[t] = min(weights[t], 0.3)
        if self.pronoun_resolved and not context:  # "what is she frightened of?" after "...called Nala"
            for name in NAME.findall(self.previous_reply):
                for t in terms(name):
                    weights.setdefault(t, 0.5)
        asked_ages, old_enough, limit_again = people_asked_of(
            text, context, self.request.memories, kinds, asked_ages,
            age_limits.ages(self.previous_reply) if _POINTS_BACK.search(self.said_text) else [])
        if JUST_ME.search(text) and "price" in kinds:  # "what would it cost for just me?": the one-person kind
            for t in ONE_PERSON:
                weights.setdefault(t, 0.5)
        # "how much does that cost?" asks about what the last reply said ("how much is it to get a plumber out?" not),
        # as "from what time?" does; "do the kids cost extra on top?" after a price asks more than that price
        said = said_sentences(self.previous_reply) if (context and not more and (pointing or alone) and
                                                       not CONNECTIVE.match(text)) or (
            "price" in kinds and _EXTRA.search(text) and answer_types.HOLDS["price"].search(self.previous_reply)) \
            else frozenset()
        asked = asked_part(text)  # routing reads the question asked, the ranking every word said
        told = weigh_the_told(weights, text, asked, bool(context))  # what the user told before asking it
        told_first = text[:len(text) - len(asked)]  # (before the question asked: empty when it is all of it)
        # ("what about my son, how old is he now?": "he" is my son, as the user put him before asking)
        mine = max(about_user(resolved(asked, told_first) if asked != text else asked),
                   0.6 * about_user(context) if context and not recalled and
                   not place_answered(self.previous_reply, self.known) else 0.0)
        if (several := asks_of_several(asked, kinds)) and not asks_age_limit(text):
            mine = 1.0  # "how old are my kids?": each of them, as the user told
            for t in CHILD_TERMS:
                weights.setdefault(t, 0.5)
        self.several = several
        if old_enough and asked_ages:  # "is she allowed at that age?": the place's limit, for her age (16)
            mine = min(mine, 0.6)
            weigh_for_the_limit(weights, text, self.said_text, context if limit_again else "", self.request.memories)
        if mine < 0.6 and answer_types.is_yes_no(asked):  # ("would biscuit need to be neutered?": for Biscuit)
            for t in named_for(weights, self.request.memories, self.known_terms):
                weights[t] = min(weights[t], 0.3)
        if mine < 0.6 and asked_ages and not age_limits.ages(text):  # ("which class would oscar go in?")
            weigh_the_aged(weights, text, self.request.memories)
        to_place = addresses_the_place(asked) or asks_who_here(asked)
        names = place_names(self.request.persona.description)
        self.cases, told_of = the_cases(text, asked, self.request.memories, self.known_terms,
                                        frozenset(terms(" ".join(names))), weights,
                                        any(age < age_limits.ADULT_AGE for age in asked_ages)) \
            if mine < 1.0 else ([], frozenset())
        mine = 0.0 if self.cases else mine  # "can Bramble come along?": asked of the place, for whom the memories say
        common = common_terms(text)
        itself = self.itself - doers_named(text, self.request.persona.description)  # (the engraver: one of the shop)
        if {"place", "time", "day"} & set(kinds) and weights and not ((context and pointing) or mentions_user(text)) \
                and not {t for t, w in weights.items() if w >= 1.0} - itself - OPENING_TERMS - common:
            # "where is the cinema?" of "... a cinema": the place itself (not "which floor is it on?" of my flat)
            weights = {t: w for t, w in weights.items() if t not in itself}
            to_place = True
        return Query(text=text, weights=weights, kinds=kinds, yes_no=answer_types.is_yes_no(asked) or limit_again,
                     about_user=mine,
                     permission=asks_permission(asked) or old_enough, to_place=to_place, ages=asked_ages,
                     ages_said=bool(age_limits.ages(text)), place_names=names,
                     own=own_terms,
                     mentions_user=mentions_user(asked) or (bool(context) and mentions_user(context)),
                     child=age_limits.mentions_child(text) or any(a < age_limits.ADULT_AGE for a in asked_ages) or
                     any(age_limits.mentions_child(self.request.memories[i]) for i in self.cases), said=said,
                     case=case, aside_named=aside_named, from_reply=self.from_reply, echoed=self.echoed,
                     incidental=common | of_the_family(weights.keys(), self.itself), told=told,
                     last_reply=said_sentences(self.previous_reply), kind_borrowed=bool(borrowed_kinds),
                     one_person=asked_for_one(text), listed_before=listed,
                     cases=frozenset(self.cases), case_terms=told_of,
                     case_aside=named_aside(asked))

    def candidates(self, exclude: str = "") -> list[Candidate]:
        """The known sentences and memories but the knowledge `exclude` said ("tell me more" says nothing twice)."""
        said = exclude.lower()
        return [c for c in self.known if not (said and c.kind == "knowledge" and c.text.lower().rstrip(".!?") in said)]

    @functools.cached_property
    def known(self) -> list[Candidate]:
        """Every knowledge sentence and memory of the request, built once a turn (routing reads them several times)."""
        return known_candidates(self.request, self.user_name)

    @functools.cached_property
    def known_terms(self) -> frozenset[str]:
        """The terms of every knowledge sentence of the request."""
        return frozenset(t for c in self.known if c.kind == "knowledge" for t in terms(c.text))


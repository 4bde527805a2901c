"""What the offline answerer ranks and what the ranking says: a candidate sentence (knowledge or memory), the
question as the ranking reads it (`Query`), each candidate's score (`Scored`) and the ranking itself (`Ranking`),
with what best_answer needs to decide whether anything answers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Candidate:
    text: str  # as it would be said (memories already in the second person)
    kind: str  # "knowledge" | "memory"
    group: int  # index of its chunk (or memory) in the request
    position: int  # index of the sentence in its chunk
    relevance: float = 0.0  # embedding similarity of its chunk, or of the memory, to the turn (0: unknown)
    own: bool = False  # `relevance` is the sentence's own similarity (a memory, a cached knowledge sentence)
    title: frozenset[str] = frozenset()  # the terms of its knowledge item's name ("Pick-up", "Membership")


@dataclass(frozen=True, slots=True)
class Query:
    text: str  # the user's turn as said
    weights: dict[str, float]  # stem -> weight: the turn's own words 1.0, a follow-up's context less
    kinds: Sequence[str] = ()  # answer types asked for (answer_types.wanted)
    yes_no: bool = False
    about_user: float = 0.0  # 0..1 (user_facts.about_user)
    permission: bool = False  # asks about the place's rules (user_facts.asks_permission)
    to_place: bool = False  # asked of the personality itself: "where are you?" (user_facts.addresses_the_place)
    mentions_user: bool = True  # "I", "my", "we" in it: memories may answer (user_facts.mentions_user)
    place_names: frozenset[str] = frozenset()  # words of the place's own name ("Clay", "Corner"), for to_place
    own: frozenset[str] = frozenset()  # the turn's own terms (a follow-up's weights also hold the turn before's)
    ages: Sequence[int] = ()
    ages_said: bool = False  # the ages are the question's own ("my 5 year old"), not a memory's ("my daughter")
    child: bool = False  # asks about a child (a son, kids...)
    # the sentences of the last reply, when the question asks more about what it said ("how much does that cost?")
    said: frozenset[str] = frozenset()
    case: frozenset[str] = frozenset()  # the user's own place in the question ("from my house"): not its topic
    # names where a thing is asked of or what it would be instead ("are there showers in the changing rooms?", "in
    # silver instead of gold?"): a sentence about that says nothing of the thing asked
    aside_named: bool = False
    # a follow-up's terms taken from the last reply alone ("who does that?" after "Hand-stripping ... costs £20"),
    # and the sentences that reply said: they find another sentence about its subject, not the same one again
    from_reply: frozenset[str] = frozenset()
    echoed: frozenset[str] = frozenset()
    # the turn's terms that say how it is asked rather than what about: words of everyday English
    # (terms.common_terms) and the personality's own ("how much to get a plumber out?" of a plumber)
    incidental: frozenset[str] = frozenset()
    # what the user told before the question they asked ("my little girl's doing grade 1 ballet, who's her
    # teacher?"): a memory that holds nothing of the question beyond it says back what they just said, or nothing
    told: frozenset[str] = frozenset()
    last_reply: frozenset[str] = frozenset()  # the last reply's sentences (said_sentences), whatever is asked
    kind_borrowed: bool = False  # the kinds are the turn before's ("what about christmas day?" after "from what time?")
    one_person: bool = False  # asks for one person or one kind of them ("for a grown-up", "just for me", "for kids")
    # "and on Saturdays?" after the weekday hours: the known sentences the last reply was drawn from, when the turn
    # asks the same kind of answer of another case; the list that gave one case gives the next
    listed_before: frozenset[str] = frozenset()
    # the memories about the user's own people and things the question names for the place to answer ("can Bramble
    # come along?"): its case (told_cases), never its answer
    cases: frozenset[int] = frozenset()
    case_terms: frozenset[str] = frozenset()  # what those memories say, which the question does not
    case_aside: bool = False  # they are named for what is asked ("is there parking for my car?"), not asked about


@dataclass(frozen=True, slots=True)
class Scored:
    candidate: Candidate
    score: float
    coverage: float  # share of the question's weighted terms it holds, directly or by a related word
    fits: bool  # holds the kind of answer asked for
    main_held: float = 0.0  # share of the question's own main words found anywhere that it holds (or related)
    case_held: float = 0.0  # how much of what the user told of whom the question names it holds (Query.case_terms)


@dataclass(frozen=True, slots=True)
class Ranking:
    ranked: list[Scored]  # best first
    unmatched: float  # share of the question's weight that no candidate holds at all (what nothing covers)
    terms: int  # how many terms the question has
    main: frozenset[str] = frozenset()  # the question's own main terms (weight 1), what an "I don't know" names
    wants_kind: bool = False  # asks for a kind of answer (a time, a price...), and not only yes or no
    focus_unknown: bool = False  # the question's last main word, what it is about, is nowhere in what is known
    literal: bool = False  # asks what an answer states in so many words (a name, an age, a contact, "how much is X?")
    aside_named: bool = False  # (Query.aside_named)
    yes_no: bool = False  # asks whether (Query.yes_no)
    unknown: frozenset[str] = frozenset()  # the question's main words that nothing known holds
    contact: bool = False  # asks for a phone number or an address to write to, and nothing else
    kind_borrowed: bool = False  # (Query.kind_borrowed)
    focus: str = ""  # the question's last main word of its own: what English puts last is what it is about
    focus_qualified: bool = False  # a word nothing known holds qualifies it ("my guide dog", "a front door key")
    ages: Sequence[int] = ()  # (Query.ages)
    # one candidate alone says the focus in so many words, and every main word asked is said by some candidate
    focus_once: bool = False

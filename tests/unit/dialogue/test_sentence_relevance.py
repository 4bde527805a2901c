"""Sentence-level embedding similarity in the offline answerer: the per-process cache of knowledge sentence
vectors (warmed at ingestion, filled in the background after a miss) and how the ranking uses it, the kind of
answer a question asks for (an age for "how old"), follow-ups that weigh their own words first, and questions
about the user that are not feelings said."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import numpy as np

from avatar_service.adapters.dialogue import OfflineGroundedDialogue
from avatar_service.adapters.dialogue.answer_types import holds, wanted
from avatar_service.adapters.dialogue.feelings import detect_emotion
from avatar_service.adapters.dialogue.user_facts import about_user
from avatar_service.adapters.embedders.lexical import LexicalEmbedder
from avatar_service.core.services.sentence_vectors import SentenceVectors, sentence_vectors
from avatar_service.core.text.sentences import answer_sentences
from avatar_service.ports.dialogue import DialogueRequest, Persona, Turn

engine = OfflineGroundedDialogue()
PERSONA = Persona("Dev", "", "The desk agent of a car rental.", {"verbosity": 0.0})
FLEET = ("We rent small city cars, estate cars, seven-seat vans and electric cars. "
         "A small car costs 39 euros per day and a van 89 euros per day.")
RULES = "Drivers must be at least 21 years old and have held a licence for two years."
HOURS = ("The practice is open Monday to Thursday from 8am to 6pm and on Friday from 8am to 1pm. "
         "We are closed at weekends.")


class CountingSemantic:
    """The Semantic port's embed, on the lexical embedder, counting what it was asked to embed."""

    def __init__(self, embedder_name: str = "hashed-words-for-tests") -> None:
        self.embedder_name = embedder_name
        self.embedder = LexicalEmbedder()
        self.embedded: list[str] = []

    async def embed(self, texts: Sequence[str]) -> list[bytes]:
        self.embedded += texts
        return [np.asarray(v, dtype=np.float32).tobytes() for v in self.embedder.embed(list(texts))]


def reply(question: str, knowledge: Sequence[str], sentences: dict[str, float] | None = None,
          memories: Sequence[str] = (), memory_relevance: Sequence[float] = (),
          history: Sequence[Turn] = ()) -> str:
    return engine.compose(DialogueRequest(
        persona=PERSONA, history=[*history, Turn("user", question)], knowledge=knowledge,
        knowledge_relevance=[0.3] * len(knowledge), memories=memories, memory_relevance=memory_relevance,
        sentence_relevance=sentences or {}, topics=["fleet", "prices"]))


def test_answer_sentences_drop_bullets_and_headings() -> None:
    assert answer_sentences("## Prices\n- A van costs 89 euros per day.\n2) Vans seat seven people.") == [
        "A van costs 89 euros per day.", "Vans seat seven people."]


async def test_warmed_sentences_cost_a_turn_no_embedding() -> None:
    semantic = CountingSemantic()
    cache = SentenceVectors(semantic)  # type: ignore[arg-type]
    await cache.warm([FLEET, FLEET, RULES])
    assert len(semantic.embedded) == 3  # three distinct sentences, each embedded once
    [query] = await semantic.embed(["How much is a van per day?"])
    scores = cache.relevance(query, [FLEET, RULES])
    assert set(scores) == {*answer_sentences(FLEET), RULES}
    assert max(scores, key=scores.__getitem__) == answer_sentences(FLEET)[1]
    assert all(0.0 <= s <= 1.0 for s in scores.values())
    assert len(semantic.embedded) == 4  # only the question


async def test_a_missed_chunk_is_embedded_after_the_turn_not_during_it() -> None:
    semantic = CountingSemantic()
    cache = SentenceVectors(semantic)  # type: ignore[arg-type]
    [query] = await semantic.embed(["How old do I need to be?"])
    assert cache.relevance(query, [RULES]) == {}  # not cached: the turn goes on without it
    assert semantic.embedded == ["How old do I need to be?"]
    await cache.settled()
    assert RULES in cache.relevance(query, [RULES])


async def test_the_cache_keeps_the_most_recently_used_sentences() -> None:
    semantic = CountingSemantic()
    cache = SentenceVectors(semantic, capacity=2)  # type: ignore[arg-type]
    await cache.warm(["One two three four.", "Five six seven eight.", "Nine ten eleven twelve."])
    assert len(cache) == 2
    [query] = await semantic.embed(["five"])
    assert cache.relevance(query, ["Five six seven eight."])  # still there
    await asyncio.sleep(0)


async def test_the_lexical_fallback_embeds_no_sentences() -> None:
    semantic = CountingSemantic("lexical-hash")
    cache = SentenceVectors(semantic)  # type: ignore[arg-type]
    await cache.warm([FLEET])
    assert cache.relevance(b"\0" * 2048, [FLEET]) == {} and semantic.embedded == []


def test_one_cache_per_semantic() -> None:
    a, b = CountingSemantic(), CountingSemantic()
    assert sentence_vectors(a) is sentence_vectors(a)  # type: ignore[arg-type]
    assert sentence_vectors(a) is not sentence_vectors(b)  # type: ignore[arg-type]


def test_a_sentence_that_says_it_in_other_words_answers() -> None:
    question = "Is it possible to charter a van?"  # "charter" is in nothing known
    assert "about charter" in reply(question, [FLEET])  # by words alone
    sentences = {answer_sentences(FLEET)[0]: 0.42, answer_sentences(FLEET)[1]: 0.61}
    assert "89 euros" in reply(question, [FLEET], sentences)


def test_a_distant_sentence_does_not_pass_for_an_answer() -> None:
    sentences = {answer_sentences(FLEET)[0]: 0.39, answer_sentences(FLEET)[1]: 0.2}
    text = reply("Do you rent out snow chains?", [FLEET], sentences)
    assert "snow chains" in text and "vans" not in text  # "I don't know about snow chains"


def test_how_old_asks_for_an_age() -> None:
    assert wanted("How old do you need to be to rent a car?") == ["age"]
    assert holds(RULES, ["age"]) and not holds(answer_sentences(FLEET)[0], ["age"])
    sentences = {RULES: 0.62, answer_sentences(FLEET)[0]: 0.5, answer_sentences(FLEET)[1]: 0.27}
    assert "21 years old" in reply("How old do you need to be to rent a car?", [FLEET, RULES], sentences)


def test_a_follow_up_weighs_its_own_words_first() -> None:
    first = "When are you open on Fridays?"
    history = [Turn("user", first), Turn("assistant", reply(first, [HOURS]))]
    assert "1pm" in history[1].content
    assert "closed at weekends" in reply("And on Saturday?", [HOURS], history=history)


def test_a_question_about_a_feeling_asks_for_a_memory() -> None:
    assert detect_emotion("What am I scared of?") is None
    assert detect_emotion("I'm so scared of the dentist") is not None
    text = reply("What am I scared of?", [HOURS], memories=["Marek is afraid of needles", "User drinks coffee"],
                 memory_relevance=[0.31, 0.1])
    assert "needles" in text and "you" in text.lower()


def test_what_to_do_questions_are_about_the_place() -> None:
    assert about_user("What should I do if I get a toothache at night?") < 1.0
    assert about_user("Where do I pick the car up?") < 1.0
    assert about_user("What if my dog gets sick?") == 0.0
    assert about_user("Where do I live?") == 1.0
    assert about_user("What do I do for a living?") == 1.0


def test_yes_or_no_comes_from_the_part_that_holds_what_was_asked() -> None:
    facilities = "Coffee and tea are free; lunch is not included."
    assert reply("Is the coffee free?", [facilities]).startswith("Yes, ")
    assert reply("Do you provide lunch?", [facilities], {facilities: 0.5}).startswith("No, ")
    insurance = "Most treatments are covered by basic insurance; whitening is not."
    assert reply("Does insurance pay for whitening?", [insurance], {insurance: 0.7}) == insurance  # it depends
    assert not reply("Can I take pictures?", ["Photography without flash is allowed everywhere."]).startswith("No")

"""What a turn ranks: every knowledge sentence and memory of the request, each with its similarity to the turn."""

from __future__ import annotations

from avatar_service.adapters.dialogue.answering import as_sentence
from avatar_service.adapters.dialogue.ranked import Candidate
from avatar_service.adapters.dialogue.terms import terms
from avatar_service.adapters.dialogue.user_facts import second_person
from avatar_service.core.text.sentences import answer_sentences
from avatar_service.ports.dialogue import DialogueRequest


def known_candidates(request: DialogueRequest, user_name: str) -> list[Candidate]:
    """The request's knowledge sentences (with their chunk's title and similarity, or their own where the embedder
    gave one) and its memories as said to the user ("Your dog is called Rex.")."""
    out = []
    for ci, chunk in enumerate(request.knowledge):
        relevance = request.knowledge_relevance[ci] if ci < len(request.knowledge_relevance) else 0.0
        title = frozenset(terms(request.knowledge_titles[ci] if ci < len(request.knowledge_titles) else ""))
        for si, sentence in enumerate(answer_sentences(chunk)):
            if sentence.rstrip().endswith("?"):
                continue  # the text asking its reader ("Fancy something slower?") answers nothing
            own = request.sentence_relevance.get(sentence)  # "For emergencies outside these hours, ..."
            score = relevance if own is None else max(own, 0.5 * (own + relevance))  # means more with its chunk
            out.append(Candidate(sentence, "knowledge", ci, si, score, own is not None, title))
    for mi, memory in enumerate(request.memories):
        relevance = request.memory_relevance[mi] if mi < len(request.memory_relevance) else 0.0
        out.append(Candidate(as_sentence(second_person(memory, user_name)), "memory", mi, 0, relevance,
                             mi < len(request.memory_relevance)))
    return out

"""A text conversation with the offline answerer, turn by turn, each reply kept in the history."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from avatar_service.adapters.dialogue import OfflineGroundedDialogue
from avatar_service.ports.dialogue import DialogueRequest, Persona, Turn

engine = OfflineGroundedDialogue()


def last_reply(persona: Persona, questions: Sequence[str], knowledge: list[str], knowledge_relevance: list[float],
               memories: list[str], memory_relevance: list[float], sentence_relevance: Mapping[str, float] = {}) -> str:
    """The reply to the last of `questions`, asked in order in one conversation (`sentence_relevance`: knowledge
    sentences' own similarity to every turn, as the embedder's cache gives it)."""
    history: list[Turn] = []
    reply = ""
    for q in questions:
        history.append(Turn("user", q))
        reply = engine.compose(DialogueRequest(persona, list(history), knowledge=knowledge,
                                               knowledge_relevance=knowledge_relevance, memories=memories,
                                               memory_relevance=memory_relevance,
                                               sentence_relevance=sentence_relevance))
        history.append(Turn("assistant", reply))
    return reply

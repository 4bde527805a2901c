"""What a conversation turn is answered from: the personality's best knowledge chunks and the user's best
memories for the turn, with their embedding relevance, and the dialogue request built from them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from avatar_service.core.model import KnowledgeHit, KnowledgeRecord, MemoryRecord, TranscriptItem
from avatar_service.core.services.knowledge import Knowledge
from avatar_service.core.services.knowledge import namespace as knowledge_namespace
from avatar_service.core.services.memories import Memories
from avatar_service.core.services.sentence_vectors import sentence_vectors
from avatar_service.core.text.follow_ups import with_context
from avatar_service.ports.dialogue import DialogueRequest, Persona, Turn
from avatar_service.ports.storage import UnitOfWork

# The nearest chunks and memories whatever their similarity: a short question can score near zero against
# the paragraph that answers it; the answerer ranks their sentences again and decides what answers.
KNOWLEDGE_CHUNKS, KNOWLEDGE_MIN = 6, 0.0
MEMORIES, MEMORIES_MIN = 8, 0.0
USED = 0.2  # a memory this close to the turn counts as used by the reply (its last_used_at is set)
HISTORY_TURNS = 20
TOPICS = 6


@dataclass(frozen=True, slots=True)
class Grounding:
    knowledge: list[KnowledgeHit]
    memories: list[tuple[MemoryRecord, float]]
    topics: list[str]
    sentences: dict[str, float]  # knowledge sentence -> embedding similarity to the turn (those cached)
    titles: list[str]  # the name of each knowledge chunk's item, in the order of `knowledge` ("" for none)

    def used_memories(self) -> list[MemoryRecord]:
        """The memories close enough to the turn to count as used (all nearest ones go to the engine)."""
        return [memory for memory, score in self.memories if score >= USED]

    def request(self, persona: Persona, history: Sequence[TranscriptItem], content: str) -> DialogueRequest:
        return DialogueRequest(
            persona=persona,
            history=[*(Turn(t.role, t.content) for t in history[-HISTORY_TURNS:] if t.role != "tool"),
                     Turn("user", content)],
            knowledge=[k.content for k in self.knowledge], memories=[m.content for m, _ in self.memories],
            knowledge_relevance=[k.relevance for k in self.knowledge],
            memory_relevance=[score for _, score in self.memories], topics=self.topics,
            sentence_relevance=self.sentences, knowledge_titles=self.titles)


class TurnGrounding:
    def __init__(self, knowledge: Knowledge, memories: Memories) -> None:
        self.knowledge, self.memories = knowledge, memories
        self.sentences = sentence_vectors(knowledge.semantic)
        # personality -> (knowledge version, the names of its first items, every named item's name by id)
        self._names: dict[str, tuple[int | None, list[str], dict[str, str]]] = {}

    async def embed(self, content: str, history: Sequence[TranscriptItem]) -> bytes:
        """The turn's one embedding (a follow-up carries the previous user turn), made outside any unit of work:
        under load the embedding waits for a thread, and a pooled connection held meanwhile is one reads lack."""
        previous = next((t.content for t in reversed(history) if t.role == "user"), "")
        [vector] = await self.knowledge.semantic.embed([with_context(content, previous)])
        return vector

    async def fetch(self, uow: UnitOfWork, personality_id: str, user_id: str | None, vector: bytes) -> Grounding:
        """The turn's embedding ranks both stores."""
        knowledge = await self.knowledge.ranked_by_vector(uow, personality_id, vector, KNOWLEDGE_CHUNKS,
                                                          KNOWLEDGE_MIN)
        memories = []
        if user_id:
            memories = await self.memories.ranked_by_vector(uow, user_id, vector, personality_id, MEMORIES,
                                                            MEMORIES_MIN)
        sentences = self.sentences.relevance(vector, [k.content for k in knowledge])
        topics, titles = await self.names(uow, personality_id)
        return Grounding(knowledge, memories, topics, sentences,
                         [titles.get(k.knowledge_item_id, "") for k in knowledge])

    async def names(self, uow: UnitOfWork, personality_id: str) -> tuple[list[str], dict[str, str]]:
        """The names of the personality's first ready knowledge items, oldest first (what it can help with), and
        every ready item's name by its id (what each chunk is about: "Opening hours and finding us").

        Read again only when its knowledge changed (the vector cache's version, just brought up to date by
        the search): the items are whole rows, too much to read on every turn."""
        version = self.knowledge.semantic.version(knowledge_namespace(personality_id))
        cached = self._names.get(personality_id)
        if cached is None or cached[0] != version or version is None:
            items = await uow.knowledge.find(personality_id=personality_id, status="ready", limit=TOPICS)
            topics = [item.name.strip() for item in reversed(items) if _named(item)]
            unnamed = {item.id for item in items if not _named(item)}
            rows = await uow.knowledge.columns(("id", "name", "source_url"), personality_id=personality_id,
                                               status="ready")
            # (an item given no name is named after its address or its first words: no title for its chunks)
            titles = {ident: name.strip() for ident, name, url in rows
                      if name and name != url and ident not in unnamed and len(name) < 60}
            if len(self._names) > 10_000:
                self._names.clear()
            self._names[personality_id] = (version, topics, titles)
            return topics, titles
        return cached[1], cached[2]


def _named(item: KnowledgeRecord) -> bool:
    """Whether the item's name says what it is about: not one made of its first words or its address when it was
    given none ("I can help with The museum opens at 9am on Sundays and ..." is no topic)."""
    name = (item.name or "").strip()  # (services/knowledge.py names an unnamed item so)
    return bool(name) and name != item.source_url and name != (item.content or "")[:60].strip()

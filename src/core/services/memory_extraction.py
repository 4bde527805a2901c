"""The extraction job: facts mined from a finished conversation's user turns become memories."""

import array
from typing import Any

from avatar_service.core.memory.dedup import Candidate, decide, thresholds_for
from avatar_service.core.model import MemoryRecord, MemorySource, replace
from avatar_service.core.services.base import Deps
from avatar_service.core.services.memories import Memories, namespace
from avatar_service.ports.fact_extractor import FactExtractor

NEIGHBOURS = 3  # existing memories compared with each new fact


class MemoryExtractor:
    """A fact that repeats a memory of the same user and personality is not stored again; one that revises it
    (a move, a new job, a changed taste) updates that memory: content, category, confidence and the source
    conversation (core.memory.dedup decides which)."""

    def __init__(self, deps: Deps, memories: Memories, facts: FactExtractor) -> None:
        self.deps, self.memories, self.extractor = deps, memories, facts
        self.semantic = memories.semantic

    async def __call__(self, payload: dict[str, Any]) -> None:
        org = payload["organization_id"]
        async with self.deps.storage(org) as uow:
            conversation = await uow.conversations.get(payload["id"])
            if conversation is None or conversation.user_id is None:
                return
            user = await uow.users.get(conversation.user_id)
            # Never store anything for a user who turned memory off.
            if user is None or not user.settings.memory_enabled:
                return
            turns = [t.content for t in await uow.transcripts.for_conversation(conversation.id) if t.role == "user"]
        facts = await self.extractor.facts(turns)
        if not facts:
            return
        vectors = await self.semantic.embed([f.content for f in facts])
        thresholds = thresholds_for(self.semantic.embedder_name)
        now = self.deps.clock.now()
        created: list[MemoryRecord] = []
        updated: list[MemoryRecord] = []
        async with self.deps.storage(org) as uow:
            await self.memories.ensure_loaded(uow, user.id)
            for fact, vector in zip(facts, vectors, strict=True):
                hits = await self.semantic.search(namespace(user.id), vector, NEIGHBOURS, conversation.personality_id)
                known = {r.id: r for r in await uow.memories.find(id=[i for i, _ in hits])} if hits else {}
                pending = created + updated  # facts of this same conversation count as known too
                candidates = [Candidate(i, known[i].content, s) for i, s in hits if i in known] + [
                    Candidate(r.id, r.content, _cosine(r.embedding, vector)) for r in pending]
                decision = decide(fact.content, candidates, thresholds)
                source = MemorySource(type="conversation", conversation_id=conversation.id,
                                      extracted_from=fact.extracted_from)
                if decision.action == "new":
                    created.append(MemoryRecord(
                        id=self.deps.ids.new("memory"), user_id=user.id, personality_id=conversation.personality_id,
                        content=fact.content, created_at=now, updated_at=now, category=fact.category,  # type: ignore[arg-type]
                        confidence=fact.confidence, source=source, organization_id=org, embedding=vector,
                        embedder=self.semantic.embedder_name))
                elif decision.action == "update" and decision.memory_id in known:
                    updated.append(replace(known[decision.memory_id], content=fact.content, category=fact.category,
                                           confidence=fact.confidence, source=source, embedding=vector,
                                           updated_at=now))
            await self.memories.add_records(uow, created)
            for record in updated:
                await uow.memories.update(record)
            version = (await self.memories.bump(uow, user.id, [r.id for r in created + updated])
                       if created or updated else None)
            await uow.commit()
        if version is not None:
            await self.memories.publish(user.id, version, created + updated)


def _cosine(a: bytes, b: bytes) -> float:
    """Dot product of two float32 unit vectors given as bytes (stdlib only: the core has no numpy)."""
    x, y = array.array("f", a), array.array("f", b)
    return sum(p * q for p, q in zip(x, y, strict=False))

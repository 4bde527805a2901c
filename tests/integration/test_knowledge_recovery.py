"""Restarts and other processes: unfinished items are picked up again, and cached vectors never go stale."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from avatar_service.adapters.database_jobs import DatabaseJobQueue
from avatar_service.core.model import KnowledgeSearch, MemoryCreate, MemoryPatch, MemorySearch
from avatar_service.core.services.knowledge import Knowledge
from avatar_service.core.services.knowledge_processing import KnowledgeProcessor
from avatar_service.core.services.memories import Memories
from avatar_service.entrypoints import bootstrap
from avatar_service.entrypoints.settings import Settings
from avatar_service.ports.storage import Storage

from .helpers import Service, create_personality, create_user

FERRY = "The island ferry leaves the harbour every forty minutes from May to September."
TRAM = "Tram number 3 runs from the station to the zoo until midnight on weekends."


@pytest.fixture
def other(service: Service) -> Iterator[Any]:
    """A second process on the same database: its own container, cache, job queue and connections
    (a restarted server, another API process or `avatar worker`)."""
    container = bootstrap.embedded(service.container.resolve(Settings))
    yield container
    service.call(container.resolve(Storage).close)


def item_status(service: Service, item_id: str) -> str:
    async def read() -> str:
        async with service.container.resolve(Storage)(service.organization_id, read_only=True) as uow:
            record = await uow.knowledge.get(item_id)
            assert record is not None
            return record.status

    return service.call(read)


async def test_a_crash_mid_processing_is_picked_up_when_its_lease_ends(service: Service,
                                                                      client: AsyncTestClient[Any],
                                                                      other: Any) -> None:
    base = f"/v1/personalities/{(await create_personality(client))['id']}/knowledge"
    item = (await client.post(base, json={"type": "text", "content": FERRY})).json()
    lease = 2.0  # long enough for the first drain to come within it on a busy machine

    async def crash() -> None:
        # A worker claims the job and moves the item to processing, then dies before finishing.
        async with service.container.resolve(Storage)(None) as uow:
            [_job] = await uow.jobs.claim(datetime.now(UTC), lease, 10, ["knowledge.process"])
            await uow.knowledge.set(item["id"], status="processing")
            await uow.commit()

    service.call(crash)
    restarted: DatabaseJobQueue = other.resolve(DatabaseJobQueue)
    service.call(restarted.recover)  # what `avatar serve` does on start: it frees no live worker's job
    service.call(restarted.drain)  # within the lease the job is the dead worker's: nothing runs
    assert item_status(service, item["id"]) == "processing"

    await asyncio.sleep(lease + 0.2)
    service.call(restarted.drain)
    done = (await client.get(f"{base}/{item['id']}")).json()
    assert done["status"] == "ready" and done["chunk_count"] == 1


async def test_an_item_whose_job_was_lost_is_swept_up(service: Service, client: AsyncTestClient[Any],
                                                      other: Any) -> None:
    base = f"/v1/personalities/{(await create_personality(client))['id']}/knowledge"
    stuck = [(await client.post(base, json={"type": "text", "content": text})).json() for text in (FERRY, TRAM)]

    async def lose_jobs() -> None:
        async with service.container.resolve(Storage)(None) as uow:
            for job in await uow.jobs.queued("knowledge.process"):
                await uow.jobs.finish(job.id)
            await uow.knowledge.set(stuck[1]["id"], status="processing")
            await uow.commit()

    service.call(lose_jobs)
    await service.drain()
    assert {item_status(service, i["id"]) for i in stuck} == {"pending", "processing"}
    processor: KnowledgeProcessor = other.resolve(KnowledgeProcessor)
    assert service.call(processor.sweep) == 0  # too recent: a queue elsewhere may still hold their jobs
    assert service.call(processor.sweep, 0.0) == 2
    assert service.call(processor.sweep, 0.0) == 0  # queued now: never twice
    service.call(other.resolve(DatabaseJobQueue).drain)
    assert {item_status(service, i["id"]) for i in stuck} == {"ready"}


async def test_vectors_survive_a_restart_and_other_processes_writes(service: Service, client: AsyncTestClient[Any],
                                                                   other: Any) -> None:
    personality = await create_personality(client)
    base = f"/v1/personalities/{personality['id']}/knowledge"
    await client.post(base, json={"type": "text", "content": FERRY})
    await service.drain()
    org = service.organization_id
    here: Knowledge = service.container.resolve(Knowledge)
    there: Knowledge = other.resolve(Knowledge)
    query = KnowledgeSearch(query="how often does the ferry leave", limit=5)

    # a process that never saw the chunks (a restart) rebuilds its index from the stored vectors
    hits = service.call(there.search, org, personality["id"], query).data
    assert [h.content for h in hits] == [FERRY]
    assert [h.content for h in service.call(here.search, org, personality["id"], query).data] == [FERRY]

    # the other process indexes a new item; this process's cached namespace is stale and reloads
    await client.post(base, json={"type": "text", "content": TRAM})
    service.call(other.resolve(DatabaseJobQueue).drain)
    tram = KnowledgeSearch(query="tram to the zoo at night", limit=1)
    assert [h.content for h in service.call(here.search, org, personality["id"], tram).data] == [TRAM]

    # memories: written, re-embedded and deleted by the other process, searched here
    user = await create_user(client)
    mine: Memories = service.container.resolve(Memories)
    theirs: Memories = other.resolve(Memories)

    def search(text: str) -> list[str]:
        # min_relevance: a stale vector (the memory's old content) must not pass for the new one
        result = service.call(mine.search, org, user["id"], MemorySearch(query=text, limit=3, min_relevance=0.3))
        return [hit.content for hit in result.data]

    assert search("pets") == []  # loaded (empty) into this process's cache
    made = service.call(theirs.create, org, user["id"],
                        MemoryCreate(personality_id=personality["id"], content="User has a cat called Miso."))
    assert search("cat called Miso") == ["User has a cat called Miso."]
    service.call(theirs.update, org, user["id"], made.id, MemoryPatch(content="User rides a motorbike to work."))
    assert search("motorbike rides") == ["User rides a motorbike to work."]
    assert search("cat called Miso") == []
    service.call(theirs.delete, org, user["id"], made.id)
    assert search("motorbike rides") == []

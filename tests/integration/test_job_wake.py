"""The embedded worker wakes after a commit that added jobs or outbox events, and only then."""

import asyncio
import threading
from datetime import UTC, datetime

import anyio

from avatar_service.adapters.database_jobs import DatabaseJobQueue
from avatar_service.adapters.sqlalchemy import SqlStorage
from avatar_service.adapters.system_clock import RandomIds, SystemClock
from avatar_service.core.model import Event, Job, UserRecord

T0 = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
ORG = "org_aaaaaaaaaaaaaaaaaaaaaaaa"


async def test_a_commit_with_work_wakes_the_worker_and_others_do_not(database_url: str) -> None:
    storage = SqlStorage(database_url)
    queue = DatabaseJobQueue(storage, SystemClock(), RandomIds())
    queue._loop, queue._loop_thread = asyncio.get_running_loop(), threading.get_ident()  # as run() sets them
    try:
        queue._wake = anyio.Event()
        async with storage(ORG) as uow:
            await uow.users.add(UserRecord(id="user_1", created_at=T0, updated_at=T0, organization_id=ORG))
            await uow.commit()
        assert not queue._wake.is_set()

        async with storage(None) as uow:  # added, then left without committing: nothing to run
            await uow.jobs.add(Job(id="job_0", kind="memory.extract", payload={}, run_at=T0))
        assert not queue._wake.is_set()

        async with storage(None) as uow:
            await uow.jobs.add(Job(id="job_1", kind="memory.extract", payload={}, run_at=T0))
            await uow.commit()
        assert queue._wake.is_set()

        queue._wake = anyio.Event()
        async with storage(ORG) as uow:
            await uow.outbox.add(Event(id="event_1", organization_id=ORG, type="user.created", created_at=T0,
                                       data={}))
            await uow.commit()
        assert queue._wake.is_set()
    finally:
        await storage.close()


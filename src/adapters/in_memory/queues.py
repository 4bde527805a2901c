"""The few storage shapes that are not plain repositories: API keys by hash, transcripts, outbox, jobs."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import msgspec

from avatar_service.adapters.in_memory.repository import MemoryRepository, to_row
from avatar_service.core.model import ApiKeyRecord, Event, Job, TranscriptItem
from avatar_service.core.model.jobs import JobKind

if TYPE_CHECKING:
    from avatar_service.adapters.in_memory.storage import MemoryUnitOfWork


class MemoryApiKeys(MemoryRepository[ApiKeyRecord]):
    async def by_hash(self, secret_hash: str) -> ApiKeyRecord | None:
        # across organizations, as in SQL: authentication comes before the organization is known
        found = [r for r in self.uow.read(self.table).values() if r["secret_hash"] == secret_hash]
        return self._load(found[0]) if found else None


class MemoryTranscripts:
    def __init__(self, uow: MemoryUnitOfWork) -> None:
        self.uow = uow

    async def append(self, conversation_id: str, items: Sequence[TranscriptItem]) -> None:
        if items:
            await self.uow.lock()
            rows = dict(self.uow.read("transcripts"))
            for item in items:  # the key is the insertion sequence, like the SQL table's autoincrement
                rows[self.uow.storage.next_seq()] = {"conversation_id": conversation_id, **to_row(item)}
            self.uow.replace("transcripts", rows)

    async def for_conversation(self, conversation_id: str) -> list[TranscriptItem]:
        rows = self.uow.read("transcripts")
        return [
            msgspec.convert({k: v for k, v in rows[seq].items() if k != "conversation_id"}, TranscriptItem)
            for seq in sorted(rows)
            if rows[seq]["conversation_id"] == conversation_id
        ]

    async def recent(self, conversation_id: str, limit: int) -> list[TranscriptItem]:
        return (await self.for_conversation(conversation_id))[-limit:] if limit > 0 else []

    async def count(self, conversation_id: str) -> int:
        return sum(
            1 for row in self.uow.read("transcripts").values() if row["conversation_id"] == conversation_id
        )


class MemoryOutbox:
    def __init__(self, uow: MemoryUnitOfWork) -> None:
        self.uow = uow
        self.repo = MemoryRepository(uow, "outbox", Event, None)

    async def add(self, event: Event) -> None:
        await self.repo.add(event)

    async def pending(self, limit: int) -> list[Event]:
        rows = [r for r in self.uow.read("outbox").values() if not r["dispatched"]]
        rows.sort(key=lambda r: (r["created_at"], r["id"]))  # oldest first, as events happened
        return [self.repo._load(r) for r in rows[:limit]]

    async def mark_dispatched(self, event_ids: Sequence[str]) -> None:
        for ident in event_ids:
            await self.repo.set(ident, dispatched=True)

    async def get(self, event_id: str) -> Event | None:
        return await self.repo.get(event_id)


class MemoryJobs:
    def __init__(self, uow: MemoryUnitOfWork) -> None:
        self.uow = uow
        self.repo = MemoryRepository(uow, "jobs", Job, None)

    async def add(self, job: Job) -> None:
        await self.repo.add(job)

    async def any_due(self, now: datetime, kinds: Sequence[JobKind]) -> bool:
        return any(r["run_at"] <= now and r["kind"] in kinds and (r["locked_until"] is None or r["locked_until"] < now)
                   for r in self.uow.read("jobs").values())

    async def claim(self, now: datetime, lock_seconds: float, limit: int, kinds: Sequence[JobKind]) -> list[Job]:
        await self.uow.lock()  # claimed under the writer lock: two workers never claim one job
        rows = [
            r
            for r in self.uow.read("jobs").values()
            if r["run_at"] <= now
            and r["kind"] in kinds
            and (r["locked_until"] is None or r["locked_until"] < now)
        ]
        jobs = [self.repo._load(r) for r in sorted(rows, key=lambda r: r["run_at"])[:limit]]
        until = now + timedelta(seconds=lock_seconds)
        for job in jobs:
            await self.repo.set(job.id, locked_until=until, attempts=job.attempts + 1)
        # as the SQL adapter returns them: the new attempt count, the lock as it was read
        return [msgspec.structs.replace(j, attempts=j.attempts + 1) for j in jobs]

    async def finish(self, job_id: str) -> None:
        await self.repo.delete(job_id)

    async def retry(self, job_id: str, run_at: datetime, error: str) -> None:
        await self.repo.set(job_id, run_at=run_at, locked_until=None, last_error=error[:2000])

    async def queued(self, kind: JobKind) -> list[Job]:
        rows = sorted((r for r in self.uow.read("jobs").values() if r["kind"] == kind), key=lambda r: r["run_at"])
        return [self.repo._load(r) for r in rows]


class MemoryVectorVersions:
    def __init__(self, uow: MemoryUnitOfWork) -> None:
        self.uow = uow

    async def bump(self, namespace: str, changed: Sequence[str]) -> int:
        await self.uow.lock()
        rows = dict(self.uow.read("vector_versions"))
        version = rows.get(namespace, {"version": 0})["version"] + 1
        rows[namespace] = {"namespace": namespace, "version": version}
        self.uow.replace("vector_versions", rows)
        log = dict(self.uow.read("vector_changes"))
        log.update({(namespace, version, ident): {"version": version, "vector_id": ident} for ident in changed})
        self.uow.replace("vector_changes", log)
        return int(version)

    async def get(self, namespace: str) -> int:
        return int(self.uow.read("vector_versions").get(namespace, {"version": 0})["version"])

    async def state(self, namespace: str) -> tuple[int, int]:
        return await self.get(namespace), 0  # nothing is pruned in memory

    async def changed_since(self, namespace: str, version: int) -> list[str]:
        log = self.uow.read("vector_changes")
        return list(dict.fromkeys(row["vector_id"] for (ns, v, _), row in sorted(log.items()) if ns == namespace
                                  and v > version))

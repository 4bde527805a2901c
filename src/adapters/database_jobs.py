"""The embedded job queue: jobs are rows written with the change; an in-process anyio pool runs them."""

import logging
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import anyio
from sqlalchemy import update

from avatar_service.core.model import Job
from avatar_service.ports.clock import Clock, Ids
from avatar_service.ports.jobs import JobHandler
from avatar_service.ports.storage import Storage, UnitOfWork

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 5


@dataclass(slots=True)
class _Kind:
    handler: JobHandler
    concurrency: int
    lock_seconds: float
    running: int = 0


class DatabaseJobQueue:
    def __init__(self, storage: Storage, clock: Clock, ids: Ids, poll_interval: float = 0.5) -> None:
        self.storage, self.clock, self.ids = storage, clock, ids
        self.poll_interval = poll_interval
        self.kinds: dict[str, _Kind] = {}
        self.periodic: list[tuple[float, Callable[[], Awaitable[Any]]]] = []
        self._wake: anyio.Event | None = None

    async def enqueue(self, uow: UnitOfWork, kind: str, payload: dict[str, Any], *,
                      run_at: datetime | None = None) -> None:
        await uow.jobs.add(Job(id=self.ids.new("job"), kind=kind, payload=payload, run_at=run_at or self.clock.now()))

    def register(self, kind: str, handler: JobHandler, concurrency: int = 2, lock_seconds: float = 300.0) -> None:
        self.kinds[kind] = _Kind(handler, concurrency, lock_seconds)

    def every(self, seconds: float, task: Callable[[], Awaitable[Any]]) -> None:
        """A periodic task of the worker (e.g. the outbox dispatcher)."""
        self.periodic.append((seconds, task))

    def wake(self) -> None:
        if self._wake is not None:
            self._wake.set()

    async def recover(self) -> None:
        """Single-process profile only: jobs locked by a process that died run again at once."""
        from avatar_service.adapters.sqlalchemy import tables

        engine = getattr(self.storage, "engine", None)
        if engine is not None:
            async with engine.begin() as conn:
                await conn.execute(update(tables.jobs).values(locked_until=None))

    async def _claim(self, now: datetime) -> list[tuple[_Kind, Job]]:
        claimed: list[tuple[_Kind, Job]] = []
        async with self.storage(None) as uow:
            for name, kind in self.kinds.items():
                free = kind.concurrency - kind.running
                if free > 0:
                    for job in await uow.jobs.claim(now, kind.lock_seconds, free, [name]):
                        kind.running += 1
                        claimed.append((kind, job))
            await uow.commit()
        return claimed

    async def _run(self, kind: _Kind, job: Job) -> None:
        try:
            await kind.handler(job.payload)
        except Exception as error:
            log.exception("job %s (%s) failed on attempt %d", job.id, job.kind, job.attempts)
            async with self.storage(None) as uow:
                if job.attempts >= MAX_ATTEMPTS:
                    await uow.jobs.finish(job.id)
                else:
                    delay = timedelta(seconds=math.pow(4, job.attempts))
                    await uow.jobs.retry(job.id, self.clock.now() + delay, repr(error))
                await uow.commit()
        else:
            async with self.storage(None) as uow:
                await uow.jobs.finish(job.id)
                await uow.commit()
        finally:
            kind.running -= 1
            self.wake()

    async def run_due(self) -> int:
        """Claims and runs every due job once, waiting for them (tests and `avatar worker --once`)."""
        claimed = await self._claim(self.clock.now())
        async with anyio.create_task_group() as group:
            for kind, job in claimed:
                group.start_soon(self._run, kind, job)
        for _, task in self.periodic:
            await task()
        return len(claimed)

    async def drain(self, rounds: int = 50) -> None:
        """Runs due work until none is left (tests): jobs that enqueue jobs are followed."""
        for _ in range(rounds):
            if not await self.run_due():
                return

    async def _periodic(self, seconds: float, task: Callable[[], Awaitable[Any]]) -> None:
        while True:
            try:
                await task()
            except Exception:
                log.exception("periodic task failed")
            await anyio.sleep(seconds)

    async def run(self) -> None:
        """Runs until cancelled: claims due jobs whenever woken or every poll interval."""
        async with anyio.create_task_group() as group:
            for seconds, task in self.periodic:
                group.start_soon(self._periodic, seconds, task)
            while True:
                self._wake = anyio.Event()
                try:
                    for kind, job in await self._claim(self.clock.now()):
                        group.start_soon(self._run, kind, job)
                except Exception:
                    log.exception("claiming jobs failed")
                with anyio.move_on_after(self.poll_interval):
                    await self._wake.wait()

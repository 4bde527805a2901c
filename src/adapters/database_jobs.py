"""The embedded job queue: jobs are rows written with the change; an in-process anyio pool runs them.

Any number of processes may run it against one PostgreSQL database: a job is claimed with
`FOR UPDATE SKIP LOCKED` and a lock that expires, and the worker holding it renews the lock while the job
runs, so a worker that dies (even SIGKILL) lets the job run again elsewhere one lease later, while a long
render that is alive is never taken from it.

Idle workers wake at once after a commit that wrote jobs or outbox events, instead of at their next poll:
in-process through the storage's `work_listeners` (its units of work know when they added some), across
processes through PostgreSQL `NOTIFY avatar_work` (a statement trigger on `jobs` and `outbox`, migration 0003)
that every worker `LISTEN`s to.
"""

import asyncio
import logging
import math
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, get_args

import anyio
from sqlalchemy import and_, func, not_, select, update

from avatar_service.adapters.prometheus_metrics import observe_job
from avatar_service.core.model import Job
from avatar_service.core.model.jobs import JobKind
from avatar_service.ports.clock import Clock, Ids
from avatar_service.ports.jobs import JobHandler
from avatar_service.ports.metrics import QueueFigures
from avatar_service.ports.storage import Storage, UnitOfWork

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 5
CHANNEL = "avatar_work"


@dataclass(slots=True)
class _Kind:
    handler: JobHandler
    concurrency: int
    lock_seconds: float
    running: set[str] = field(default_factory=set)


@dataclass(slots=True)
class _Periodic:
    seconds: float
    task: Callable[[], Awaitable[Any]]
    on_wake: bool
    woken: anyio.Event | None = None


class DatabaseJobQueue:
    def __init__(self, storage: Storage, clock: Clock, ids: Ids, poll_interval: float = 0.5,
                 lease_seconds: float = 30.0) -> None:
        self.storage, self.clock, self.ids = storage, clock, ids
        self.poll_interval = poll_interval
        self.lease_seconds = lease_seconds
        self.kinds: dict[JobKind, _Kind] = {}
        self.periodic: list[_Periodic] = []
        self._wake: anyio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # run()'s loop, to wake it from any thread
        self._loop_thread = 0
        listeners = getattr(storage, "work_listeners", None)  # SqlStorage's; the in-memory one runs jobs itself
        if listeners is not None:
            listeners.append(self._wake_from_anywhere)

    async def enqueue(self, uow: UnitOfWork, kind: JobKind, payload: dict[str, Any], *,
                      run_at: datetime | None = None) -> None:
        await uow.jobs.add(Job(id=self.ids.new("job"), kind=kind, payload=payload, run_at=run_at or self.clock.now()))

    def register(self, kind: JobKind, handler: JobHandler, concurrency: int = 2, lock_seconds: float | None = None
                 ) -> None:
        self.kinds[kind] = _Kind(handler, concurrency, lock_seconds or self.lease_seconds)

    def every(self, seconds: float, task: Callable[[], Awaitable[Any]], *, on_wake: bool = False) -> None:
        """A periodic task of the worker; `on_wake` also runs it as soon as new work is committed."""
        self.periodic.append(_Periodic(seconds, task, on_wake))

    def wake(self) -> None:
        if self._wake is not None:
            self._wake.set()
        for periodic in self.periodic:
            if periodic.woken is not None:
                periodic.woken.set()

    def _wake_from_anywhere(self) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        if threading.get_ident() == self._loop_thread:
            self.wake()
        else:  # a unit of work of another thread's loop (the CLI, tests)
            loop.call_soon_threadsafe(self.wake)

    async def prepare(self) -> None:
        """Nothing to do: the jobs table is one of the service's own (migrations)."""

    async def recover(self) -> None:
        """Frees nothing: a dead process's job runs again when its lease ends (claims take expired locks).

        Clearing every lock at start handed the jobs of live workers (an `avatar worker`, another API
        process) to this one while they still ran them: two renders of one video at once, the second
        counting the first's work directory as a crashed attempt.
        """

    async def _claim(self, now: datetime) -> list[tuple[_Kind, Job]]:
        claimed: list[tuple[_Kind, Job]] = []
        free = {name: kind.concurrency - len(kind.running) for name, kind in self.kinds.items()}
        wanted = [name for name, n in free.items() if n > 0]
        if not wanted:
            return claimed
        # A reader asks first: the worker is woken by every commit that adds work and polls twice a second, and
        # on SQLite a claim that finds nothing still took the one write lock every writer queues for (under load
        # about a tenth of that lock's time went to claims)
        async with self.storage(None, read_only=True) as uow:
            if not await uow.jobs.any_due(now, wanted):
                return claimed
        async with self.storage(None) as uow:
            for name, kind in self.kinds.items():
                if free[name] > 0:
                    for job in await uow.jobs.claim(now, kind.lock_seconds, free[name], [name]):
                        kind.running.add(job.id)
                        claimed.append((kind, job))
            await uow.commit()
        return claimed

    async def _run(self, kind: _Kind, job: Job) -> None:
        started = time.perf_counter()
        try:
            await kind.handler(job.payload)
        except Exception as error:
            observe_job(job.kind, "failed", time.perf_counter() - started)
            log.exception("job %s (%s) failed on attempt %d", job.id, job.kind, job.attempts)
            async with self.storage(None) as uow:
                if job.attempts >= MAX_ATTEMPTS:
                    await uow.jobs.finish(job.id)
                else:
                    delay = timedelta(seconds=math.pow(4, job.attempts))
                    await uow.jobs.retry(job.id, self.clock.now() + delay, repr(error))
                await uow.commit()
        else:
            observe_job(job.kind, "succeeded", time.perf_counter() - started)
            async with self.storage(None) as uow:
                await uow.jobs.finish(job.id)
                await uow.commit()
        finally:
            kind.running.discard(job.id)
            self.wake()

    async def _renew_leases(self) -> None:
        """Extends the locks of the jobs this worker is running: alive work is never taken from it."""
        engine = getattr(self.storage, "engine", None)
        if engine is None:
            return
        while True:
            await anyio.sleep(max(0.2, min(kind.lock_seconds for kind in self.kinds.values()) / 3)
                              if self.kinds else 1.0)
            try:
                with anyio.CancelScope(shield=True):  # a stop lands between renewals, never mid-statement
                    await self._renew(engine, self.clock.now())
            except Exception:
                log.exception("renewing job leases failed")

    async def _renew(self, engine: Any, now: datetime) -> None:
        from avatar_service.adapters.sqlalchemy import tables

        async with engine.begin() as conn:
            for kind in self.kinds.values():
                if kind.running:
                    await conn.execute(update(tables.jobs).where(tables.jobs.c.id.in_(list(kind.running)))
                                       .values(locked_until=now + timedelta(seconds=kind.lock_seconds)))

    async def queue_figures(self, now: datetime) -> list[QueueFigures]:
        """Each kind's queued, running and scheduled jobs and the oldest queued one's wait (QueueStats):
        read from the jobs table, so every process sees every process's jobs."""
        engine = getattr(self.storage, "engine", None)
        found = await (self._figures_in_sql(engine, now) if engine is not None else self._figures_in_memory(now))
        return [found.get(kind) or QueueFigures(kind, 0, 0, 0, 0.0) for kind in get_args(JobKind)]

    @staticmethod
    async def _figures_in_sql(engine: Any, now: datetime) -> dict[str, QueueFigures]:
        from avatar_service.adapters.sqlalchemy import tables

        c = tables.jobs.c
        running = and_(c.locked_until.is_not(None), c.locked_until >= now)
        queued = and_(c.run_at <= now, not_(running))
        statement = (select(c.kind, func.count().filter(queued), func.count().filter(running),
                            func.count().filter(and_(c.run_at > now, not_(running))), func.min(c.run_at).filter(queued))
                     .group_by(c.kind))
        async with engine.connect() as conn:
            rows = (await conn.execute(statement)).all()
        return {kind: QueueFigures(kind, waiting, held, later, (now - oldest).total_seconds() if oldest else 0.0)
                for kind, waiting, held, later, oldest in rows}

    async def _figures_in_memory(self, now: datetime) -> dict[str, QueueFigures]:
        """Storage without an engine (the in-memory one of the unit tests)."""
        found: dict[str, QueueFigures] = {}
        async with self.storage(None) as uow:
            for kind in get_args(JobKind):
                jobs = await uow.jobs.queued(kind)
                held = [j for j in jobs if j.locked_until is not None and j.locked_until >= now]
                waiting = [j.run_at for j in jobs if j not in held and j.run_at <= now]
                found[kind] = QueueFigures(kind, len(waiting), len(held), len(jobs) - len(held) - len(waiting),
                                           (now - min(waiting)).total_seconds() if waiting else 0.0)
        return found

    async def _listen(self) -> None:
        """PostgreSQL only: wakes on `NOTIFY avatar_work` from any process's commit."""
        engine = getattr(self.storage, "engine", None)
        if engine is None or engine.dialect.name != "postgresql":
            return
        import asyncpg

        dsn = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while True:
            try:
                conn = await asyncpg.connect(dsn)
                try:
                    closed = anyio.Event()
                    conn.add_termination_listener(lambda *_, ended=closed: ended.set())
                    await conn.add_listener(CHANNEL, lambda *_: self.wake())
                    self.wake()  # anything committed while we were not listening
                    await closed.wait()
                finally:
                    with anyio.CancelScope(shield=True):
                        await conn.close()
            except Exception:
                log.warning("LISTEN %s failed; polling only until it reconnects", CHANNEL, exc_info=True)
                await anyio.sleep(5)

    async def run_due(self) -> int:
        """Claims and runs every due job once, waiting for them (tests and `avatar worker --once`)."""
        claimed = await self._claim(self.clock.now())
        async with anyio.create_task_group() as group:
            for kind, job in claimed:
                group.start_soon(self._run, kind, job)
        for periodic in self.periodic:
            await periodic.task()
        return len(claimed)

    async def drain(self, rounds: int = 50) -> None:
        """Runs due work until none is left (tests): jobs that enqueue jobs are followed."""
        for _ in range(rounds):
            if not await self.run_due():
                return

    async def _periodic(self, periodic: _Periodic) -> None:
        while True:
            periodic.woken = anyio.Event() if periodic.on_wake else None
            try:
                # Shielded: stopping the worker waits for this pass instead of cutting a statement in half
                # (a cancelled statement invalidates its connection, which then lingers at shutdown).
                with anyio.CancelScope(shield=True):
                    await periodic.task()
            except Exception:
                log.exception("periodic task failed")
            with anyio.move_on_after(periodic.seconds):
                if periodic.woken is not None:
                    await periodic.woken.wait()
                else:
                    await anyio.sleep_forever()

    async def run(self) -> None:
        """Runs until cancelled: claims due jobs whenever woken or every poll interval."""
        self._loop, self._loop_thread = asyncio.get_running_loop(), threading.get_ident()
        try:
            async with anyio.create_task_group() as group:
                for periodic in self.periodic:
                    group.start_soon(self._periodic, periodic)
                group.start_soon(self._renew_leases)
                group.start_soon(self._listen)
                while True:
                    self._wake = anyio.Event()
                    try:
                        with anyio.CancelScope(shield=True):
                            claimed = await self._claim(self.clock.now())
                        for kind, job in claimed:
                            group.start_soon(self._run, kind, job)
                    except Exception:
                        log.exception("claiming jobs failed")
                    with anyio.move_on_after(self.poll_interval):
                        await self._wake.wait()
        finally:
            self._loop = None

"""The distributed job queue: procrastinate on PostgreSQL, run by any number of `avatar worker` processes.

Enqueueing is transactional. procrastinate's connector owns its own psycopg pool and cannot join the
SQLAlchemy transaction of a use case, so `enqueue` runs the very statement procrastinate's
`JobManager.defer_job_async` runs (`procrastinate_defer_jobs_v1`, a versioned SQL function of its schema)
on the unit of work's own connection: the job exists exactly when the change commits, and a rollback
leaves none behind. No relay and no gap.

Workers: one procrastinate worker per queue (renders, knowledge, the rest) so each keeps its concurrency
cap; procrastinate's retries (exponential wait, 5 attempts); a `lock` per item (`kind:id`) so one item is
never processed by two jobs at once; worker heartbeats, and a loop here that re-queues the jobs of workers
whose heartbeat stopped (a SIGKILLed process) so another worker finishes them. The outbox dispatcher runs
in every worker too (its claims are safe across processes), woken by `NOTIFY avatar_work`.
"""

import logging
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, get_args

import anyio
from msgspec import json
from sqlalchemy import text
from sqlalchemy.engine import make_url

from avatar_service.adapters.database_jobs import DatabaseJobQueue
from avatar_service.adapters.prometheus_metrics import observe_job
from avatar_service.core.model.jobs import JobKind
from avatar_service.ports.clock import Clock, Ids
from avatar_service.ports.jobs import JobHandler
from avatar_service.ports.metrics import QueueFigures
from avatar_service.ports.storage import Storage, UnitOfWork

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 5
QUEUES: dict[JobKind, str] = {"video.render": "renders", "knowledge.process": "knowledge"}
DEFAULT_QUEUE = "avatar"
_DEFER = text(
    "SELECT unnest(procrastinate_defer_jobs_v1(ARRAY[ROW(:queue, :task, 0, :lock, NULL, CAST(:args AS jsonb), "
    ":scheduled_at)::procrastinate_job_to_defer_v1])) AS id")
_SCHEMA_LOCK = 7_341_501  # an advisory lock id: two workers starting together apply the schema once
# Per task: due, running and later jobs, and when the oldest due one became due (its scheduled time, else its
# `deferred` event: procrastinate_jobs keeps no creation time; the oldest unscheduled job is the lowest id).
_FIGURES = text("""
WITH due AS (SELECT *, status = 'todo' AND (scheduled_at IS NULL OR scheduled_at <= CAST(:now AS timestamptz)) AS ready
             FROM procrastinate_jobs WHERE status IN ('todo', 'doing')),
     figures AS (SELECT task_name, count(*) FILTER (WHERE ready) AS queued,
                        count(*) FILTER (WHERE status = 'doing') AS running,
                        count(*) FILTER (WHERE status = 'todo' AND NOT ready) AS scheduled,
                        min(scheduled_at) FILTER (WHERE ready) AS oldest_scheduled,
                        min(id) FILTER (WHERE ready AND scheduled_at IS NULL) AS oldest_id
                 FROM due GROUP BY task_name)
SELECT task_name, queued, running, scheduled,
       LEAST(oldest_scheduled, (SELECT min(at) FROM procrastinate_events
                                WHERE job_id = oldest_id AND type = 'deferred')) AS oldest
FROM figures""")


def queue_of(kind: JobKind) -> str:
    return QUEUES.get(kind, DEFAULT_QUEUE)


def lock_of(kind: JobKind, payload: dict[str, Any]) -> str | None:
    """Jobs about the same item share a procrastinate lock: they run one after another, never at once."""
    ident = payload.get("id")
    return f"{kind}:{ident}" if ident else None


class ProcrastinateJobQueue:
    def __init__(self, storage: Storage, clock: Clock, ids: Ids, *, stalled_after: float = 30.0,
                 default_concurrency: int = 8) -> None:
        import procrastinate

        self.storage, self.clock = storage, clock
        engine = getattr(storage, "engine", None)
        if engine is None or engine.dialect.name != "postgresql":
            raise SystemExit("AVATAR_JOBS=procrastinate needs AVATAR_DATABASE_URL=postgresql+asyncpg://...")
        self.engine = engine
        conninfo = make_url(str(engine.url.render_as_string(hide_password=False))).set(drivername="postgresql")
        self.app = procrastinate.App(connector=procrastinate.PsycopgConnector(
            conninfo=conninfo.render_as_string(hide_password=False), min_size=1, max_size=16))
        self.stalled_after = stalled_after
        self.concurrency: dict[str, int] = {DEFAULT_QUEUE: default_concurrency}
        # The outbox dispatcher and other periodic work, woken by commits and NOTIFY; it runs no jobs.
        self.local = DatabaseJobQueue(storage, clock, ids)

    async def enqueue(self, uow: UnitOfWork, kind: JobKind, payload: dict[str, Any], *,
                      run_at: datetime | None = None) -> None:
        conn = uow.jobs.conn  # type: ignore[attr-defined]  # the unit of work's own SQLAlchemy connection
        await conn.execute(_DEFER, {"queue": queue_of(kind), "task": kind, "lock": lock_of(kind, payload),
                                    "args": json.encode(payload).decode(), "scheduled_at": run_at})

    def register(self, kind: JobKind, handler: JobHandler, concurrency: int | None = None,
                 lock_seconds: float | None = None) -> None:
        """A procrastinate task named after the job kind; `lock_seconds` has no use here (heartbeats)."""
        import procrastinate

        async def task(**payload: Any) -> None:
            started = time.perf_counter()
            try:
                await handler(payload)
            except Exception:
                observe_job(kind, "failed", time.perf_counter() - started)
                raise
            observe_job(kind, "succeeded", time.perf_counter() - started)

        queue = queue_of(kind)
        if concurrency is not None and queue != DEFAULT_QUEUE:
            self.concurrency[queue] = concurrency
        self.concurrency.setdefault(queue, 2)
        self.app.task(name=kind, queue=queue, pass_context=False,
                      retry=procrastinate.RetryStrategy(max_attempts=MAX_ATTEMPTS, exponential_wait=4))(task)

    def every(self, seconds: float, task: Callable[[], Awaitable[Any]], *, on_wake: bool = False) -> None:
        self.local.every(seconds, task, on_wake=on_wake)

    def wake(self) -> None:
        self.local.wake()  # procrastinate's own workers hear of new jobs through its LISTEN/NOTIFY

    async def prepare(self) -> None:
        """Applies procrastinate's schema once (it keeps its own tables next to ours)."""
        async with self.engine.begin() as conn:
            await conn.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": _SCHEMA_LOCK})
            present = (await conn.execute(text("SELECT to_regclass('procrastinate_jobs')"))).scalar()
            if present is None:
                from procrastinate.schema import SchemaManager

                raw = await conn.get_raw_connection()
                await raw.driver_connection.execute(SchemaManager.get_schema())  # type: ignore[union-attr]

    async def recover(self) -> None:
        await self.retry_stalled()

    async def retry_stalled(self) -> int:
        """Jobs of workers whose heartbeat stopped go back to the queue for another worker. Returns how many."""
        import psycopg
        from procrastinate.exceptions import ConnectorException

        retried = 0
        for job in await self.app.job_manager.get_stalled_jobs(seconds_since_heartbeat=self.stalled_after):
            try:
                await self.app.job_manager.retry_job(job)
            except ConnectorException as error:
                # Every worker watches: another one queued it again (or it ended) since the list was read, and
                # procrastinate_retry_job RAISEs for a job no longer `doing`. The rest of the list still counts.
                if isinstance(error.__cause__, psycopg.errors.RaiseException):
                    continue
                raise
            log.warning("job %s (%s) was running on a worker that stopped; queued again", job.id, job.task_name)
            retried += 1
        return retried

    async def _watch_stalled(self) -> None:
        while True:
            await anyio.sleep(max(1.0, self.stalled_after / 3))
            try:
                await self.retry_stalled()
            except Exception:
                log.exception("retrying stalled jobs failed")

    def _worker_options(self, queue: str, wait: bool) -> dict[str, Any]:
        heartbeat = max(0.5, min(10.0, self.stalled_after / 4))
        return {"queues": [queue], "concurrency": self.concurrency[queue], "wait": wait, "name": f"avatar-{queue}",
                "install_signal_handlers": False, "delete_jobs": "successful", "listen_notify": wait,
                "fetch_job_polling_interval": 2.0, "update_heartbeat_interval": heartbeat,
                "stalled_worker_timeout": self.stalled_after}

    async def _work(self, queue: str) -> None:
        await self.app.run_worker_async(**self._worker_options(queue, True))

    async def run(self) -> None:
        async with self.app.open_async():
            await self.prepare()
            async with anyio.create_task_group() as group:
                for queue in self.concurrency:
                    group.start_soon(self._work, queue)
                group.start_soon(self._watch_stalled)
                group.start_soon(self.local.run)

    async def drain(self, rounds: int = 50) -> None:
        """Runs what is due until nothing is left: jobs, then the dispatcher, again while either did work."""
        async with self.app.open_async():
            for _ in range(rounds):
                before = await self._pending()
                for queue in self.concurrency:
                    await self.app.run_worker_async(**self._worker_options(queue, False))
                await self.local.run_due()
                if before == 0 and await self._pending() == 0:
                    return

    async def queue_figures(self, now: datetime) -> list[QueueFigures]:
        """QueueStats from procrastinate's own table (its task names are the job kinds)."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(_FIGURES, {"now": now})).all()
        found = {row.task_name: row for row in rows}
        figures = []
        for kind in get_args(JobKind):
            row = found.get(kind)
            figures.append(QueueFigures(kind, 0, 0, 0, 0.0) if row is None else QueueFigures(
                kind, row.queued, row.running, row.scheduled,
                max(0.0, (now - row.oldest).total_seconds()) if row.oldest is not None else 0.0))
        return figures

    async def _pending(self) -> int:
        async with self.engine.connect() as conn:
            return int((await conn.execute(text(
                "SELECT count(*) FROM procrastinate_jobs WHERE status = 'todo' "
                "AND (scheduled_at IS NULL OR scheduled_at <= now())"))).scalar_one())

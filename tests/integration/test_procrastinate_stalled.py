"""Re-queueing the jobs of a stopped procrastinate worker, when every worker's watcher does it at once.

Two watchers may both list the same stalled job; the one that comes second used to get procrastinate's
"invalid status to retry" error, which ended its pass (the jobs after it in the list waited for the next one)
and logged a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from avatar_service.adapters.procrastinate_jobs import ProcrastinateJobQueue
from avatar_service.entrypoints import bootstrap
from avatar_service.entrypoints.settings import load_settings
from avatar_service.ports.jobs import JobRunner
from avatar_service.ports.storage import Storage

from .conftest import _truncate_all


async def test_a_stalled_job_another_watcher_requeued_first_is_skipped(
        postgres_database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    await _truncate_all(postgres_database)
    settings = load_settings({}, database_url=postgres_database, data_dir=str(tmp_path), jobs="procrastinate",
                             embedder="lexical", job_lease_seconds=1)
    container = bootstrap.server(settings)
    queue: ProcrastinateJobQueue = container.resolve(JobRunner)
    engine: Any = container.resolve(Storage).engine  # type: ignore[attr-defined]
    try:
        await queue.prepare()
        async with queue.app.open_async():
            jobs = [await queue.app.tasks["knowledge.process"].defer_async(organization_id="org", id=f"kb_{n}")
                    for n in range(2)]
            async with engine.begin() as conn:  # both taken by a worker whose heartbeat stopped an hour ago
                worker = (await conn.execute(text(
                    "INSERT INTO procrastinate_workers (last_heartbeat) VALUES (now() - interval '1 hour') "
                    "RETURNING id"))).scalar_one()
                await conn.execute(text("UPDATE procrastinate_jobs SET status = 'doing', worker_id = :w "
                                        "WHERE id = ANY(:ids)"), {"w": worker, "ids": jobs})
            listed = list(await queue.app.job_manager.get_stalled_jobs(seconds_since_heartbeat=1))
            assert sorted(job.id for job in listed) == sorted(jobs)

            await queue.app.job_manager.retry_job(listed[0])  # another worker's watcher was first for one

            async def as_listed_before(**_: Any) -> list[Any]:
                return listed

            monkeypatch.setattr(queue.app.job_manager, "get_stalled_jobs", as_listed_before)
            assert await queue.retry_stalled() == 1  # the other one, not an error
            async with engine.connect() as conn:
                statuses = (await conn.execute(text("SELECT status FROM procrastinate_jobs"))).scalars().all()
            assert statuses == ["todo", "todo"]
    finally:
        await container.resolve(Storage).close()

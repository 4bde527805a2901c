"""The job queue's figures from the in-memory storage, and metrics shared by several processes."""

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

from avatar_service.adapters.database_jobs import DatabaseJobQueue
from avatar_service.adapters.in_memory.storage import MemoryStorage
from avatar_service.adapters.system_clock import RandomIds
from avatar_service.core.model import Job


async def test_queued_running_scheduled_and_the_oldest_wait(clock: Any) -> None:
    storage = MemoryStorage()
    queue = DatabaseJobQueue(storage, clock, RandomIds())
    now = clock.now()
    async with storage(None) as uow:
        for ident, kind, due, locked in [("job_1", "video.render", -30, None), ("job_2", "video.render", -5, None),
                                         ("job_3", "video.render", 50, None), ("job_4", "game.timer", -50, 20),
                                         ("job_5", "game.timer", -40, -1)]:  # its worker died: due again
            await uow.jobs.add(Job(id=ident, kind=kind, payload={}, run_at=now + timedelta(seconds=due),
                                   locked_until=None if locked is None else now + timedelta(seconds=locked)))
        await uow.commit()
    figures = {figure.kind: figure for figure in await queue.queue_figures(now)}
    assert set(figures) == {"knowledge.process", "video.render", "memory.extract", "conversation.timer", "game.timer"}
    render, timer = figures["video.render"], figures["game.timer"]
    assert (render.queued, render.running, render.scheduled, render.oldest_seconds) == (2, 0, 1, 30.0)
    assert (timer.queued, timer.running, timer.scheduled, timer.oldest_seconds) == (1, 1, 0, 40.0)
    assert figures["memory.extract"].queued == 0 and figures["memory.extract"].oldest_seconds == 0.0


OBSERVE = """
from avatar_service.adapters import prometheus_metrics as m
assert m.multiprocess()
m.observe_request("GET", "/healthz", 200, 0.01)
m.observe_delivery("delivered", 0.2)
"""
SCRAPE = """
from avatar_service.adapters import prometheus_metrics as m
body, _ = m.exposition([], None)
print(body.decode())
"""


def test_processes_sharing_a_folder_add_up(tmp_path: Path) -> None:
    """`avatar serve --workers N` and `avatar worker`: each process writes, any one scrape sums them."""
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    for _ in range(2):
        subprocess.run([sys.executable, "-c", OBSERVE], env=env, check=True, timeout=60)
    scraped = subprocess.run([sys.executable, "-c", SCRAPE], env=env, check=True, timeout=60,
                             capture_output=True, text=True).stdout
    assert 'avatar_http_requests_total{method="GET",route="/healthz",status="200"} 2.0' in scraped
    assert 'avatar_webhook_deliveries_total{outcome="delivered"} 2.0' in scraped

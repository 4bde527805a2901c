"""Workers on PostgreSQL, as real `avatar worker` processes: a SIGKILLed worker's job finishes elsewhere, and
two workers never run one job at once. Both job adapters (AVATAR_JOBS=database and procrastinate).

The jobs are knowledge items fetched from a local server that can hold a request open, so a test knows when
a job is in flight and how many copies of it run at once.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from avatar_service.core.model import KnowledgeCreate, PersonalityCreate
from avatar_service.core.services.api_keys import ApiKeys
from avatar_service.core.services.knowledge import Knowledge
from avatar_service.core.services.personalities import Personalities
from avatar_service.entrypoints import bootstrap
from avatar_service.entrypoints.settings import load_settings
from avatar_service.ports.jobs import JobRunner
from avatar_service.ports.storage import Storage

from .conftest import _truncate_all

LEASE = 2.0  # seconds: a dead worker's job is free again this soon (live workers renew it)
TEXT = b"The museum opens at 9am and closes at 5pm. Tickets cost 12 euros. The cafe is on the first floor."


class SlowPages:
    """Serves text pages after `delay` seconds, counting requests and how many run at once per path."""

    def __init__(self) -> None:
        self.delay: dict[str, float] = {}
        self.hits: dict[str, int] = {}
        self.running: dict[str, int] = {}
        self.most_at_once: dict[str, int] = {}
        self.lock = threading.Lock()
        pages = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                with pages.lock:
                    pages.hits[self.path] = pages.hits.get(self.path, 0) + 1
                    pages.running[self.path] = pages.running.get(self.path, 0) + 1
                    pages.most_at_once[self.path] = max(pages.most_at_once.get(self.path, 0),
                                                        pages.running[self.path])
                    delay = pages.delay.pop(self.path, 0.0) if self.path.startswith("/once") else \
                        pages.delay.get(self.path, 0.0)
                try:
                    time.sleep(delay)
                    self.send_response(200)
                    self.send_header("Content-Type", "text/plain")
                    self.send_header("Content-Length", str(len(TEXT)))
                    self.end_headers()
                    self.wfile.write(TEXT)
                except OSError:
                    pass  # the worker that asked was killed
                finally:
                    with pages.lock:
                        pages.running[self.path] -= 1

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def pages() -> Iterator[SlowPages]:
    served = SlowPages()
    yield served
    served.close()


@pytest.fixture
async def pg_url(postgres_database: str) -> str:
    await _truncate_all(postgres_database)
    return postgres_database


def service_env(url: str, data_dir: Path, jobs: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AVATAR_")}
    env.update({"AVATAR_DATABASE_URL": url, "AVATAR_DATA_DIR": str(data_dir), "AVATAR_EMBEDDER": "lexical",
                "AVATAR_ALLOW_PRIVATE_URLS": "1", "AVATAR_JOBS": jobs, "AVATAR_JOB_LEASE_SECONDS": str(LEASE),
                "AVATAR_SECRET_KEY": "fault-tests", "AVATAR_LOG_LEVEL": "WARNING", **extra})
    return env


def start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """`avatar ARGS` as a process of its own (the same interpreter's console script)."""
    avatar = Path(sys.executable).with_name("avatar")
    with log.open("ab") as out:
        return subprocess.Popen([str(avatar), *args], env=env, stdout=out, stderr=subprocess.STDOUT)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def log_tail(log: Path | None) -> str:
    return log.read_text()[-3000:] if log and log.exists() else ""


async def eventually(check: Any, seconds: float, what: str, log: Path | None = None) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = await check()
        if value:
            return value
        await asyncio.sleep(0.1)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}\n{log_tail(log)}")


class Api:
    """The use cases on the test database, with the chosen job adapter (what the API process would run)."""

    def __init__(self, url: str, data_dir: Path, jobs: str) -> None:
        settings = load_settings({}, database_url=url, data_dir=str(data_dir), jobs=jobs, embedder="lexical",
                                 allow_private_urls=True, secret_key="fault-tests", job_lease_seconds=LEASE)
        self.container = bootstrap.server(settings)
        self.knowledge: Knowledge = self.container.resolve(Knowledge)

    async def setup(self) -> tuple[str, str]:
        await self.container.resolve(JobRunner).prepare()
        org = (await self.container.resolve(ApiKeys).organization("default")).id
        personality = await self.container.resolve(Personalities).create(org, PersonalityCreate(name="Ava"))
        return org, personality.id

    async def add_page(self, org: str, pid: str, url: str) -> str:
        return (await self.knowledge.add(org, pid, KnowledgeCreate(type="url", url=url))).id

    async def status(self, org: str, pid: str, item_id: str) -> str:
        return (await self.knowledge.get(org, pid, item_id)).status

    async def close(self) -> None:
        await self.container.resolve(Storage).close()


@pytest.fixture
async def api_factory(pg_url: str, tmp_path: Path) -> AsyncIterator[Any]:
    made: list[Api] = []

    def make(jobs: str) -> Api:
        made.append(Api(pg_url, tmp_path / "data", jobs))
        return made[-1]

    yield make
    for api in made:
        await api.close()


@pytest.mark.parametrize("jobs", ["database", "procrastinate"])
async def test_a_killed_workers_job_is_finished_by_another(jobs: str, api_factory: Any, pg_url: str,
                                                           pages: SlowPages, tmp_path: Path) -> None:
    api = api_factory(jobs)
    org, pid = await api.setup()
    pages.delay["/once/doc"] = 60.0  # the first fetch hangs: the worker is killed in the middle of it
    item = await api.add_page(org, pid, pages.url + "/once/doc")
    env, log = service_env(pg_url, tmp_path / "data", jobs), tmp_path / "workers.log"
    first = start(["worker"], env, log)
    try:
        await eventually(lambda: _async(pages.hits.get("/once/doc", 0) == 1), 40, "the first worker's fetch", log)
        first.send_signal(signal.SIGKILL)
        assert first.wait(10) == -signal.SIGKILL
    finally:
        stop(first)
    assert await api.status(org, pid, item) == "processing"  # the dead worker left it mid-way
    second = start(["worker"], env, log)
    try:
        async def ready() -> bool:
            return await api.status(org, pid, item) == "ready"

        await eventually(ready, 40, "the second worker to finish the job", log)
    finally:
        stop(second)
    assert pages.hits["/once/doc"] == 2  # the dead worker's attempt, and the one that finished


@pytest.mark.parametrize("jobs", ["database", "procrastinate"])
async def test_two_workers_never_run_one_job_at_once(jobs: str, api_factory: Any, pg_url: str, pages: SlowPages,
                                                     tmp_path: Path) -> None:
    api = api_factory(jobs)
    org, pid = await api.setup()
    paths = [f"/doc/{n}" for n in range(4)]
    for path in paths:
        pages.delay[path] = LEASE * 1.25  # longer than the lease: only its renewal keeps the job with its worker
    items = [await api.add_page(org, pid, pages.url + path) for path in paths]
    env, log = service_env(pg_url, tmp_path / "data", jobs), tmp_path / "workers.log"
    workers = [start(["worker"], env, log) for _ in range(2)]
    try:
        async def all_ready() -> bool:
            return all([await api.status(org, pid, item) == "ready" for item in items])

        await eventually(all_ready, 60, "every job to finish", log)
    finally:
        for worker in workers:
            stop(worker)
    assert {path: pages.hits.get(path) for path in paths} == dict.fromkeys(paths, 1)  # each job ran once
    assert max(pages.most_at_once.values()) == 1


async def _async(value: Any) -> Any:
    return value

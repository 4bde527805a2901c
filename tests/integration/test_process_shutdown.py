"""`avatar serve` and `avatar worker` on PostgreSQL start and stop (SIGTERM) without a traceback in their log.

`avatar serve` once ran the migrations on one event loop and closed their asyncpg pool from the next
`asyncio.run`, which logged "Event loop is closed" at every start on PostgreSQL; `avatar worker` died at
SIGTERM without closing anything.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import asyncpg
import pytest

from .helpers import answers_healthz, free_port
from .test_workers_faults import eventually, service_env, start, stop


async def listening(url: str) -> bool:
    """Whether a connection to this database has LISTENed (the worker's, waiting for work)."""
    database = url.rsplit("/", 1)[1]
    connection = await asyncpg.connect(url.replace("+asyncpg", "").rsplit("/", 1)[0] + "/postgres")
    try:
        found = await connection.fetchval("SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND "
                                          "query ILIKE 'LISTEN%'", database)
        return bool(found)
    finally:
        await connection.close()


@pytest.mark.parametrize("command", ["serve", "worker"])
async def test_start_and_sigterm_leave_a_clean_log(command: str, postgres_database: str, tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / f"{command}.log"
    args = ["serve", "--port", str(port)] if command == "serve" else ["worker"]
    process = start(args, service_env(postgres_database, tmp_path / "data", "database"), log)
    try:
        if command == "serve":
            await eventually(lambda: answers_healthz(port), 40, "the API to answer", log)
        else:  # a worker has no port: it is up once it LISTENs (after its migrations and its SIGTERM handler), which
            # took more than the 4 s this once slept on a slow machine
            await eventually(lambda: listening(postgres_database), 40, "the worker to LISTEN", log)
            await asyncio.sleep(0.5)
        assert process.poll() is None, log.read_text()
        process.send_signal(signal.SIGTERM)
        # uvicorn stops gracefully, then raises the signal it caught again, so serve ends with -SIGTERM
        assert process.wait(20) == (-signal.SIGTERM if command == "serve" else 0), log.read_text()
    finally:
        stop(process)
    text = log.read_text()
    assert "Traceback" not in text and "Event loop is closed" not in text, text

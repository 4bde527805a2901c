"""`avatar serve --workers N`: N API processes on PostgreSQL, each building its own app; refused on SQLite."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx

from .helpers import answers_healthz, free_port
from .test_workers_faults import eventually, service_env, start, stop


def spawned_by(pid: int) -> list[int]:
    """The processes `pid` started with multiprocessing's spawn (uvicorn's workers; not its resource tracker)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if not entry.name.isdigit() or int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) != pid:
                continue
            if "spawn_main" in (entry / "cmdline").read_text():
                found.append(int(entry.name))
        except OSError:  # gone meanwhile
            continue
    return found


async def test_two_processes_serve_on_postgres(postgres_database: str, tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "serve.log"
    process = start(["serve", "--port", str(port), "--workers", "2"],
                    service_env(postgres_database, tmp_path / "data", "database", AVATAR_WORKER="external"), log)
    try:
        await eventually(lambda: answers_healthz(port), 60, "the API to answer", log)
        assert len(spawned_by(process.pid)) == 2, log.read_text()
        async with httpx.AsyncClient() as http:
            statuses = {(await http.get(f"http://127.0.0.1:{port}/v1/personalities")).status_code for _ in range(20)}
        assert statuses == {401}, log.read_text()  # both processes answer the API (no key: 401)
        process.send_signal(signal.SIGTERM)
        process.wait(30)
    finally:
        stop(process)
    assert "Traceback" not in log.read_text(), log.read_text()


def test_more_than_one_process_on_sqlite_is_refused(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AVATAR_")}
    env.update(AVATAR_DATA_DIR=str(tmp_path), AVATAR_DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/a.db")
    avatar = Path(sys.executable).with_name("avatar")
    done = subprocess.run([str(avatar), "serve", "--workers", "2", "--port", str(free_port())], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "needs PostgreSQL" in done.stderr, done.stderr

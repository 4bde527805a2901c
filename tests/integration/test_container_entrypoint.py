"""What the image runs, as plain processes (there is no container engine here): docker/entrypoint.sh migrates a
fresh database and execs `avatar serve`, the HEALTHCHECK script follows /healthz, the worker's command runs, and a
client works against the result. PostgreSQL (compose.yaml's database) and SQLite (the image's default)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from avatar_service.adapters.sqlalchemy.migrate import revisions
from avatar_service.client import AvatarClient

from .helpers import free_port

ROOT = Path(__file__).resolve().parents[2]
ENTRYPOINT = str(ROOT / "docker" / "entrypoint.sh")
HEALTHCHECK = str(ROOT / "docker" / "healthcheck.py")
BIN = str(Path(sys.executable).parent)  # where `avatar` is, as /opt/avatar/bin is on the image's PATH


async def _admin(url: str, statement: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(make_url(url).set(drivername="postgresql").render_as_string(hide_password=False))
    try:
        await conn.execute(statement)
    finally:
        await conn.close()


@pytest.fixture(params=["postgres", "sqlite"])
def fresh_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database nothing has migrated yet."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path}/avatar.db"
        return
    admin: str = request.getfixturevalue("postgres_admin_url")
    name = f"avatar_image_{uuid.uuid4().hex[:12]}"
    asyncio.run(_admin(admin, f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(admin).set(drivername="postgresql+asyncpg", database=name).render_as_string(
            hide_password=False)
    finally:
        asyncio.run(_admin(admin, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def _at_head(url: str) -> bool:
    async def check() -> bool:
        engine = create_async_engine(url)
        try:
            current, heads = await revisions(engine)
        finally:
            await engine.dispose()
        return bool(current) and set(current) == set(heads)

    return asyncio.run(check())


def test_the_entrypoint_migrates_then_serves(fresh_database: str, tmp_path: Path) -> None:
    port = free_port()
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("AVATAR_")},
           "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", "AVATAR_DATABASE_URL": fresh_database,
           "AVATAR_DATA_DIR": str(tmp_path / "data"), "AVATAR_WORKER": "external", "AVATAR_EMBEDDER": "lexical",
           "AVATAR_SECRET_KEY": "entrypoint-test", "AVATAR_PUBLIC_URL": f"http://127.0.0.1:{port}",
           "AVATAR_HEALTHCHECK_URL": f"http://127.0.0.1:{port}/healthz"}

    def healthy() -> int:
        return subprocess.run([sys.executable, HEALTHCHECK], env=env, capture_output=True, timeout=30).returncode

    assert healthy() == 1  # nothing listens yet
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen([ENTRYPOINT, "serve", "--host", "127.0.0.1", "--port", str(port)], env=env,
                              stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 150
        while healthy() != 0:
            assert server.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, "not healthy in time:\n" + (tmp_path / "serve.log").read_text()
            time.sleep(0.5)
        assert _at_head(fresh_database)  # `avatar migrate` ran before `avatar serve`
        # exec: the entrypoint's process is `avatar serve` itself, so `docker stop`'s SIGTERM reaches it
        command = Path(f"/proc/{server.pid}/cmdline").read_bytes().split(b"\0")
        assert command[1].endswith(b"/avatar") and command[2:4] == [b"serve", b"--host"], command
        assert "database is up to date" in (tmp_path / "serve.log").read_text()

        worker = subprocess.run([ENTRYPOINT, "worker", "--once"], env=env, capture_output=True, text=True, timeout=180)
        assert worker.returncode == 0, worker.stdout + worker.stderr  # compose's worker command, once
        secret = subprocess.run([ENTRYPOINT, "keys", "create", "--name", "ops", "--scopes", "*"], env=env,
                                capture_output=True, text=True, timeout=180).stdout.strip()
        with AvatarClient(f"http://127.0.0.1:{port}", secret) as client:
            ava = client.personalities.create(name="Ava")
            assert client.personalities.get(ava.id).name == "Ava"
            assert client.health()["status"] == "ok"
    finally:
        server.send_signal(signal.SIGTERM)  # as `docker stop` does: uvicorn shuts down, then ends by the signal
        server.wait(timeout=60)
        log.close()
    assert "Traceback" not in (tmp_path / "serve.log").read_text()

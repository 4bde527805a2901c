"""The embedding API and the CLI's embedded commands with either job adapter (AVATAR_JOBS) on PostgreSQL.

`open()` resolved the database job queue by its class, so with AVATAR_JOBS=procrastinate it (and every CLI
command on the embedded backend, `avatar keys create` first) failed at start; nor did it apply
procrastinate's own schema, which enqueueing needs.
"""

from __future__ import annotations

import asyncio
import sys
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from subprocess import PIPE

import pytest
from sqlalchemy.engine import make_url

import avatar_service
from avatar_service.core.model import KnowledgeCreate, PersonalityCreate

from .conftest import _admin


@pytest.fixture
async def fresh_database(postgres_admin_url: str) -> AsyncIterator[str]:
    """An empty database (no procrastinate schema left by other tests)."""
    name = f"avatar_jobs_{uuid.uuid4().hex[:10]}"
    await _admin(postgres_admin_url, f'CREATE DATABASE "{name}"')
    try:
        yield make_url(postgres_admin_url).set(drivername="postgresql+asyncpg", database=name).render_as_string(
            hide_password=False)
    finally:
        await _admin(postgres_admin_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.parametrize("jobs", ["database", "procrastinate"])
async def test_open_and_the_cli_work_with_either_job_adapter(jobs: str, fresh_database: str, tmp_path: Path) -> None:
    async with avatar_service.open(fresh_database, worker=False, jobs=jobs, embedder="lexical",
                                   data_dir=str(tmp_path)) as avatars:
        org = await avatars.organization()
        personality = await avatars.personalities.create(org.id, PersonalityCreate(name="Ava"))
        item = await avatars.knowledge.add(org.id, personality.id, KnowledgeCreate(
            type="text", content="The museum opens at 9am and closes at 5pm."))
        await avatars.run_jobs()
        assert (await avatars.knowledge.get(org.id, personality.id, item.id)).status == "ready"

    avatar = Path(sys.executable).with_name("avatar")
    env = {"PATH": "/usr/bin:/bin", "AVATAR_DATABASE_URL": fresh_database, "AVATAR_JOBS": jobs,
           "AVATAR_EMBEDDER": "lexical", "AVATAR_DATA_DIR": str(tmp_path)}
    created = await asyncio.create_subprocess_exec(str(avatar), "keys", "create", "--name", "ci", "--scopes", "*",
                                                   env=env, stdout=PIPE, stderr=PIPE)
    out, err = await asyncio.wait_for(created.communicate(), 120)
    assert created.returncode == 0, err.decode()[-2000:]
    assert out.startswith(b"sk_"), out

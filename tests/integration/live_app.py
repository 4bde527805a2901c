"""The app served by uvicorn on a loopback port, in the test's own loop: real sockets, so a client that leaves a
stream midway is a real disconnect (the in-process test client cannot drop a connection)."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from avatar_service.adapters.sqlalchemy import SqlStorage
from avatar_service.core.model import ApiKeyCreate
from avatar_service.core.services.api_keys import ApiKeys
from avatar_service.entrypoints import bootstrap
from avatar_service.entrypoints.http.app import create_app
from avatar_service.entrypoints.settings import load_settings

from .helpers import free_port


@dataclass
class Live:
    container: Any
    base_url: str  # http://127.0.0.1:PORT
    api: httpx.AsyncClient  # on /v1 with the '*' key
    organization_id: str

    async def key(self, *scopes: str) -> str:
        created = await self.container.resolve(ApiKeys).create(
            self.organization_id, ApiKeyCreate(name="scoped", scopes=list(scopes)))
        return str(created.secret)


@asynccontextmanager
async def live_app(template: Path, directory: Path, **settings: Any) -> AsyncIterator[Live]:
    """`template` is a migrated SQLite file (the `sqlite_template` fixture); `settings` override AVATAR_*."""
    database = directory / "avatar.db"
    shutil.copyfile(template, database)
    options = {"embedder": "lexical", "secret_key": "integration-tests", "rate_limit_per_minute": 0, **settings}
    overrides = options.pop("overrides", {})
    config = load_settings({}, database_url=f"sqlite+aiosqlite:///{database}", data_dir=str(directory / "data"),
                           **options)
    container = bootstrap.test(config, SqlStorage(config.database_url), **overrides)
    app = create_app(container, run_worker=False)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    serving = asyncio.create_task(server.serve())
    try:
        while not server.started:
            if serving.done():
                serving.result()  # raises what stopped it
            await asyncio.sleep(0.01)
        api_keys: ApiKeys = container.resolve(ApiKeys)
        organization = await api_keys.organization("default")
        secret = (await api_keys.create(organization.id, ApiKeyCreate(name="root", scopes=["*"]))).secret
        base = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(base_url=f"{base}/v1", headers={"Authorization": f"Bearer {secret}"},
                                     timeout=30) as api:
            yield Live(container, base, api, organization.id)
    finally:
        server.should_exit = True
        await serving


def sse_events(text: str) -> list[tuple[str, Any]]:
    """A whole event stream's events as (name, decoded data)."""
    import json

    events = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in fields:
            events.append((fields["event"], json.loads(fields.get("data", "null"))))
    return events

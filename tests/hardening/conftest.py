"""Hardening fixtures: the SQLite app built in-process (no worker, lexical embedder), with keys made up front."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from litestar import Litestar

from avatar_service.adapters.guarded_http import GuardedHttp
from avatar_service.adapters.sqlalchemy import SqlStorage
from avatar_service.adapters.sqlalchemy.migrate import upgrade
from avatar_service.core.model import ApiKeyCreate
from avatar_service.core.services.api_keys import ApiKeys
from avatar_service.entrypoints import bootstrap
from avatar_service.entrypoints.http.app import create_app
from avatar_service.entrypoints.settings import Settings, load_settings
from avatar_service.ports.storage import Storage


async def no_dns(host: str, port: int) -> list[str]:
    """A resolver that knows no name: nothing the tests send can leave the machine."""
    raise OSError(f"name lookups are disabled in the hardening tests ({host})")


def settings_for(directory: Path, **overrides: Any) -> Settings:
    options = {"embedder": "lexical", "secret_key": "hardening-tests", **overrides}
    return load_settings({}, database_url=f"sqlite+aiosqlite:///{directory / 'avatar.db'}",
                         data_dir=str(directory / "data"), **options)


async def prepare(settings: Settings, keys: dict[str, tuple[str, list[str]]]) -> dict[str, str]:
    """Migrates the database and creates keys {name: (organization slug, scopes)}; returns their secrets."""
    storage = SqlStorage(settings.database_url)
    try:
        await upgrade(storage.engine)
    finally:
        await storage.close()
    container = bootstrap.embedded(settings)
    api_keys: ApiKeys = container.resolve(ApiKeys)
    secrets = {}
    try:
        for name, (slug, scopes) in keys.items():
            org = await api_keys.organization(slug)
            created = await api_keys.create(org.id, ApiKeyCreate(name=name, scopes=scopes))
            secrets[name] = str(created.secret)
    finally:
        await container.resolve(GuardedHttp).aclose()
        await container.resolve(Storage).close()
    return secrets


def build_app(settings: Settings) -> Litestar:
    """The app without its embedded worker; outbound name lookups fail (no real network is ever reached)."""
    container = bootstrap.embedded(settings)
    container.resolve(GuardedHttp)._resolver = no_dns
    return create_app(container, run_worker=False)


def run(function: Callable[..., Awaitable[Any]], *args: Any) -> Any:
    """Set-up on a loop of its own, closed before the app's loop starts."""
    return asyncio.run(function(*args))  # type: ignore[arg-type]

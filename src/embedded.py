"""The Python embedding API: open the service on a database URL and call the use cases, no HTTP."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import wraps
from typing import Any

import anyio
import punq

from avatar_service.adapters.sqlalchemy import SqlStorage
from avatar_service.adapters.sqlalchemy.migrate import upgrade
from avatar_service.core.model import Organization
from avatar_service.core.model.common import Request
from avatar_service.core.services.api_keys import ApiKeys
from avatar_service.core.services.conversations import Conversations
from avatar_service.core.services.games import GameSessions
from avatar_service.core.services.knowledge import Knowledge
from avatar_service.core.services.memories import Memories
from avatar_service.core.services.personalities import Personalities
from avatar_service.core.services.users import Users
from avatar_service.core.services.videos import Videos
from avatar_service.core.services.webhooks import Webhooks
from avatar_service.core.validation import parse
from avatar_service.entrypoints import bootstrap
from avatar_service.entrypoints.settings import load_settings
from avatar_service.ports.jobs import JobRunner


class Validated:
    """A use case whose request Structs are validated on the way in, as the HTTP layer does.

    msgspec checks limits (lengths, ranges) when it decodes, not when a Struct is built in Python,
    so an embedded caller's `PersonalityCreate(name="x" * 999)` is re-checked here and raises `Invalid`.
    """

    def __init__(self, use_case: Any) -> None:
        self._use_case = use_case

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._use_case, name)
        if not callable(target):
            return target

        @wraps(target)
        def call(*args: Any, **kwargs: Any) -> Any:
            args = tuple(parse(type(a), a) if isinstance(a, Request) else a for a in args)
            kwargs = {k: parse(type(v), v) if isinstance(v, Request) else v for k, v in kwargs.items()}
            return target(*args, **kwargs)

        return call


class AvatarService:
    """Every use case of the API, bound to one database. Methods take the organization id first."""

    def __init__(self, container: punq.Container) -> None:
        self.container = container
        self.api_keys: ApiKeys = Validated(container.resolve(ApiKeys))  # type: ignore[assignment]
        self.personalities: Personalities = Validated(container.resolve(Personalities))  # type: ignore[assignment]
        self.users: Users = Validated(container.resolve(Users))  # type: ignore[assignment]
        self.memories: Memories = Validated(container.resolve(Memories))  # type: ignore[assignment]
        self.knowledge: Knowledge = Validated(container.resolve(Knowledge))  # type: ignore[assignment]
        self.conversations: Conversations = Validated(container.resolve(Conversations))  # type: ignore[assignment]
        self.videos: Videos = Validated(container.resolve(Videos))  # type: ignore[assignment]
        self.games: GameSessions = Validated(container.resolve(GameSessions))  # type: ignore[assignment]
        self.webhooks: Webhooks = Validated(container.resolve(Webhooks))  # type: ignore[assignment]
        self.jobs: JobRunner = container.resolve(JobRunner)  # whichever adapter AVATAR_JOBS picks

    async def organization(self, slug: str = "default") -> Organization:
        """The organization with this slug, created when missing."""
        return await self.container.resolve(ApiKeys).organization(slug)

    async def run_jobs(self) -> None:
        """Runs the background work that is due now (for callers that opened with worker=False)."""
        await self.jobs.drain()


@asynccontextmanager
async def open(database_url: str | None = None, *, worker: bool = True, **settings: Any
               ) -> AsyncIterator[AvatarService]:
    """Opens the service: applies migrations, and runs background jobs while open when `worker` is true."""
    overrides = {"database_url": database_url, **settings} if database_url else settings
    config = load_settings(**overrides)
    container = bootstrap.embedded(config)
    storage: SqlStorage = container.resolve(bootstrap.Storage)
    await upgrade(storage.engine)
    service = AvatarService(container)
    await service.jobs.prepare()  # e.g. procrastinate's own schema, as `avatar migrate` applies it
    try:
        async with anyio.create_task_group() as group:
            if worker:
                await service.jobs.recover()
                group.start_soon(service.jobs.run)
            try:
                yield service
            finally:
                group.cancel_scope.cancel()
    finally:
        await bootstrap.shut_down(container)



"""Jobs port: how the core asks for background work, without knowing who runs it."""

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, Protocol

from avatar_service.core.model.jobs import JobKind
from avatar_service.ports.storage import UnitOfWork

JobHandler = Callable[[dict[str, Any]], Awaitable[None]]


class JobQueue(Protocol):
    async def enqueue(
        self, uow: UnitOfWork, kind: JobKind, payload: dict[str, Any], *, run_at: datetime | None = None
    ) -> None:
        """Queues work inside the caller's transaction: it exists exactly when the change commits."""
        ...

    def register(self, kind: JobKind, handler: JobHandler) -> None: ...

    def wake(self) -> None:
        """A hint that new work was committed, so an idle worker need not wait for its next poll."""
        ...


class JobRunner(Protocol):
    """The worker side of a job queue: what `avatar serve` (embedded) and `avatar worker` run."""

    async def prepare(self) -> None:
        """Once, with the migrations: whatever storage the runner keeps besides the service's tables."""
        ...

    async def recover(self) -> None:
        """At start: work held by a process known to be dead becomes runnable (never a live worker's)."""
        ...

    async def run(self) -> None:
        """Runs jobs and the outbox dispatcher until cancelled."""
        ...

    async def drain(self) -> None:
        """Runs what is due now until nothing is left, then returns (tests, `avatar worker --once`)."""
        ...

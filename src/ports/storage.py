"""Storage port: repositories that add and read, and a unit of work that commits once."""

from collections.abc import Sequence
from datetime import datetime
from types import TracebackType
from typing import Any, Protocol, Self, TypeVar

from avatar_service.core.model import (
    ApiKeyRecord,
    AvatarRecord,
    Chunk,
    ConversationRecord,
    DeliveryRecord,
    Event,
    GameSessionRecord,
    Job,
    KnowledgeRecord,
    MemoryRecord,
    Organization,
    PersonalityRecord,
    TranscriptItem,
    UserRecord,
    VideoRecord,
    WebhookRecord,
)
from avatar_service.core.model.jobs import JobKind
from avatar_service.core.pagination import PageRequest

R = TypeVar("R")


class Repository(Protocol[R]):
    """Records of one kind. In an organization's unit of work every call sees only that organization.

    `add` and `add_many` may be held back until the unit of work's next statement or its commit, so a duplicate
    key may raise `Conflict` from there rather than from the `add` itself; everything else runs when called.
    """

    async def add(self, record: R) -> None: ...

    async def add_many(self, records: Sequence[R]) -> None: ...

    async def get(self, ident: str) -> R | None: ...

    async def update(self, record: R, expect: dict[str, Any] | None = None) -> bool:
        """Writes the whole record; with `expect`, only if the stored row still has those values."""
        ...

    async def set(self, ident: str, expect: dict[str, Any] | None = None, **values: Any) -> bool:
        """Writes a few columns; with `expect`, only if the stored row still has those values."""
        ...

    async def delete(self, ident: str) -> bool: ...

    async def delete_where(self, **equals: Any) -> int: ...

    async def page(self, request: PageRequest, **equals: Any) -> tuple[list[R], bool]:
        """Newest first after the request's cursor; returns (records, has_more).

        In every `equals` filter a None value means IS NULL and a list value means IN.
        """
        ...

    async def find(self, *, limit: int | None = None, **equals: Any) -> list[R]:
        """Unpaged, newest first, for internal use on small sets."""
        ...

    async def get_many(self, ids: Sequence[str]) -> list[R]:
        """The records of these ids that exist, in no order (primary-key lookups: search hits)."""
        ...

    async def columns(self, names: Sequence[str], **equals: Any) -> list[tuple[Any, ...]]:
        """A few columns of every matching row, in no order (a namespace's vectors, read fast)."""
        ...

    async def due(self, column: str, before: datetime, limit: int, **equals: Any) -> list[R]:
        """Records whose `column` is set and not after `before`, oldest first (timers, refreshes, stalls)."""
        ...

    async def claim_due(self, column: str, before: datetime, limit: int, until: datetime, **equals: Any) -> list[R]:
        """As `due`, and moves each one's `column` to `until` in the same statement, so that no other
        transaction takes them until then; rows another transaction holds are skipped, not waited for.
        Returns the records as they were before the move."""
        ...

    async def set_many(self, changes: Sequence[dict[str, Any]]) -> None:
        """Writes a few columns of many records: each dict holds an `id` and the values to write."""
        ...


class ApiKeys(Repository[ApiKeyRecord], Protocol):
    async def by_hash(self, secret_hash: str) -> ApiKeyRecord | None:
        """Across organizations: authentication happens before the organization is known."""
        ...


class Transcripts(Protocol):
    async def append(self, conversation_id: str, items: Sequence[TranscriptItem]) -> None: ...

    async def for_conversation(self, conversation_id: str) -> list[TranscriptItem]: ...

    async def recent(self, conversation_id: str, limit: int) -> list[TranscriptItem]:
        """The last `limit` items, oldest first: what a turn reads, whatever the transcript's length."""
        ...

    async def count(self, conversation_id: str) -> int: ...


class Jobs(Protocol):
    """The durable job queue (the embedded profile's; the distributed one keeps its own)."""

    async def add(self, job: Job) -> None: ...

    async def any_due(self, now: datetime, kinds: Sequence[JobKind]) -> bool:
        """Whether a job of these kinds is due and unheld: a reader's question, asked before a writer claims."""
        ...

    async def claim(self, now: datetime, lock_seconds: float, limit: int, kinds: Sequence[JobKind]) -> list[Job]:
        """Locks due jobs for this worker; a worker that dies lets the lock expire and the job runs again."""
        ...

    async def finish(self, job_id: str) -> None: ...

    async def retry(self, job_id: str, run_at: datetime, error: str) -> None: ...

    async def queued(self, kind: JobKind) -> list[Job]:
        """Every job of one kind still in the table, run or not (start-up sweeps look for missing ones)."""
        ...


class VectorVersions(Protocol):
    """A counter per vector namespace, bumped in the transaction that changes the namespace's vectors, with
    a log of the vector ids each version changed (inserted, updated or deleted)."""

    async def bump(self, namespace: str, changed: Sequence[str]) -> int:
        """Adds one, logs `changed` under the new version and returns it (the row lock orders writers)."""
        ...

    async def get(self, namespace: str) -> int:
        """The committed version; 0 for a namespace never written."""
        ...

    async def state(self, namespace: str) -> tuple[int, int]:
        """(version, log floor): the log holds every change of the versions above the floor."""
        ...

    async def changed_since(self, namespace: str, version: int) -> list[str]:
        """The vector ids changed by versions after `version` (each once)."""
        ...


class Outbox(Protocol):
    async def add(self, event: Event) -> None: ...

    async def pending(self, limit: int) -> list[Event]: ...

    async def mark_dispatched(self, event_ids: Sequence[str]) -> None: ...

    async def get(self, event_id: str) -> Event | None: ...


class UnitOfWork(Protocol):
    """One transaction. Rolls back on exit unless commit() was called; use cases commit once."""

    organizations: Repository[Organization]
    api_keys: ApiKeys
    personalities: Repository[PersonalityRecord]
    users: Repository[UserRecord]
    memories: Repository[MemoryRecord]
    knowledge: Repository[KnowledgeRecord]
    chunks: Repository[Chunk]
    conversations: Repository[ConversationRecord]
    transcripts: Transcripts
    videos: Repository[VideoRecord]
    avatars: Repository[AvatarRecord]
    game_sessions: Repository[GameSessionRecord]
    webhooks: Repository[WebhookRecord]
    deliveries: Repository[DeliveryRecord]
    outbox: Outbox
    jobs: Jobs
    vector_versions: VectorVersions

    async def commit(self) -> None: ...

    async def __aenter__(self) -> Self: ...

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None: ...


class Storage(Protocol):
    """Opens units of work. `organization_id=None` is the system view used by workers and auth.

    A `read_only` unit of work only reads. It takes no write lock and opens no transaction, so reads never
    queue behind writes (on SQLite, writers queue one at a time); but it is not a snapshot: each read sees
    what was committed when it ran, and two reads of one unit of work may see different commits. A use case
    whose reads must agree with each other, or with what it writes, reads again in its writing unit of work.
    """

    def __call__(self, organization_id: str | None, *, read_only: bool = False) -> UnitOfWork: ...

    async def ping(self) -> bool: ...

    async def close(self) -> None: ...

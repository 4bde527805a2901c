"""Request guards of the HTTP edge: stored idempotent responses and per-key rate limits."""

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


@dataclass(frozen=True, slots=True)
class StoredResponse:
    request_hash: str
    status_code: int | None  # None while the first request is still being handled
    body: bytes
    content_type: str


class IdempotencyStore(Protocol):
    async def claim(self, organization_id: str, key: str, request_hash: str, now: datetime, expires_at: datetime
                    ) -> StoredResponse | None:
        """Reserves the key for this request; None when it was free, else what is stored under it."""
        ...

    async def save(self, organization_id: str, key: str, status_code: int, body: bytes, content_type: str) -> None:
        ...

    async def release(self, organization_id: str, key: str) -> None:
        """Frees a reserved key whose request did not complete (a crash, a 5xx): a retry may run it."""
        ...

    async def purge(self, now: datetime) -> int:
        """Forgets the keys whose 24 hours are over; how many."""
        ...


@dataclass(frozen=True, slots=True)
class Allowance:
    allowed: bool
    limit: int
    remaining: int
    reset_seconds: int  # until the window ends


class RateLimiter(Protocol):
    async def hit(self, bucket: str, limit: int, now: datetime) -> Allowance:
        """Counts one request against `bucket` in the current minute."""
        ...

    async def purge(self, now: datetime) -> int:
        """Forgets the buckets whose minute is over (each client address that ever called has one); how many."""
        ...

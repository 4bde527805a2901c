"""Clock and id ports: injected so tests control time and ids."""

from datetime import UTC, datetime
from typing import Protocol

from avatar_service.core.ids import new_id


class Clock(Protocol):
    def now(self) -> datetime:
        """An aware UTC datetime."""
        ...


class Ids(Protocol):
    def new(self, kind: str) -> str: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class RandomIds:
    def new(self, kind: str) -> str:
        return new_id(kind)

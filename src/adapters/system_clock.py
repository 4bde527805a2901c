"""The Clock and Ids ports as production runs them: the system's UTC clock and random prefixed ids."""

from datetime import UTC, datetime

from avatar_service.core.ids import new_id


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class RandomIds:
    def new(self, kind: str) -> str:
        return new_id(kind)

"""Clock and id ports: injected so tests control time and ids (production's are in adapters/system_clock.py)."""

from datetime import datetime
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """An aware UTC datetime."""
        ...


class Ids(Protocol):
    def new(self, kind: str) -> str: ...

"""Shared unit-test fixtures: a clock the test moves by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

START = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)


class FakeClock:
    """The Clock port, standing still until the test advances it."""

    def __init__(self, start: datetime = START) -> None:
        self.current = start

    def now(self) -> datetime:
        return self.current

    def advance(self, seconds: float) -> datetime:
        self.current += timedelta(seconds=seconds)
        return self.current


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()

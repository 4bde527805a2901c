"""The webhook retry schedule and the rule that disables an endpoint failing for 5 days."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from avatar_service.core.webhooks import RETRY_SCHEDULE, next_attempt_delay, should_disable


def test_schedule_is_the_contracts() -> None:
    assert RETRY_SCHEDULE == (5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600)


def test_without_jitter_the_delays_follow_the_schedule_then_give_up() -> None:
    mid = lambda: 0.5  # noqa: E731 - rand() == 0.5 means no jitter
    assert [next_attempt_delay(n, mid) for n in range(1, 9)] == [*RETRY_SCHEDULE, None]
    assert next_attempt_delay(100, mid) is None


@pytest.mark.parametrize("attempt", range(1, 8))
def test_jitter_stays_within_ten_percent(attempt: int) -> None:
    base = RETRY_SCHEDULE[attempt - 1]
    low = next_attempt_delay(attempt, lambda: 0.0)
    high = next_attempt_delay(attempt, lambda: 0.999999)
    assert low == pytest.approx(base * 0.9)
    assert high == pytest.approx(base * 1.1, rel=1e-5)


def test_attempt_numbers_start_at_one() -> None:
    with pytest.raises(ValueError):
        next_attempt_delay(0)


def test_disable_after_five_days_of_failures() -> None:
    start = datetime(2025, 1, 1, tzinfo=UTC)
    assert not should_disable(None, start)
    assert not should_disable(start, start + timedelta(days=5) - timedelta(seconds=1))
    assert should_disable(start, start + timedelta(days=5))

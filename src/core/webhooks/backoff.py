"""When to retry a failed webhook delivery, and when to give up on an endpoint altogether."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime, timedelta

__all__ = ["DISABLE_AFTER", "RETRY_SCHEDULE", "next_attempt_delay", "should_disable"]

# Seconds to wait before retries 1..7 (the contract's schedule, the one Standard Webhooks senders use):
# 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. The first attempt is immediate; after the 8th, give up.
RETRY_SCHEDULE: tuple[float, ...] = (5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 36000.0)
DISABLE_AFTER = timedelta(days=5)
_JITTER = 0.1


def next_attempt_delay(attempt_number: int, rand: Callable[[], float] = random.random) -> float | None:
    """Seconds to wait after attempt ``attempt_number`` (1 = the first) failed, or None to give up.

    ``rand`` returns a float in [0, 1); the delay moves by up to ±10 % so that deliveries failing
    together (a receiver that was down) do not all come back in the same second.
    """
    if attempt_number < 1:
        raise ValueError("attempt_number starts at 1")
    if attempt_number > len(RETRY_SCHEDULE):
        return None
    base = RETRY_SCHEDULE[attempt_number - 1]
    return base * (1.0 + _JITTER * (2.0 * rand() - 1.0))


def should_disable(first_failure_at: datetime | None, now: datetime) -> bool:
    """True once an endpoint has failed without a success in between for 5 days."""
    return first_failure_at is not None and now - first_failure_at >= DISABLE_AFTER

"""An in-process rate limiter for the single-process profile: a fixed one-minute window per bucket."""

from datetime import datetime, timedelta

from avatar_service.ports.request_guards import Allowance

WINDOW = 60  # seconds


class LocalRateLimiter:
    def __init__(self) -> None:
        self._counts: dict[str, tuple[datetime, int]] = {}

    async def hit(self, bucket: str, limit: int, now: datetime) -> Allowance:
        start = now.replace(second=0, microsecond=0)
        window, count = self._counts.get(bucket, (start, 0))
        count = count + 1 if window == start else 1
        if len(self._counts) > 100_000:  # forget buckets of past windows instead of growing without end
            await self.purge(now)
        self._counts[bucket] = (start, count)
        reset = max(1, int((start + timedelta(seconds=WINDOW) - now).total_seconds() + 0.999))
        return Allowance(count <= limit, limit, max(0, limit - count), reset)

    async def purge(self, now: datetime) -> int:
        start = now.replace(second=0, microsecond=0)
        before = len(self._counts)
        self._counts = {b: v for b, v in self._counts.items() if v[0] >= start}
        return before - len(self._counts)

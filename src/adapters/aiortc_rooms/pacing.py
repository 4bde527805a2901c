"""Real-time pacing for the room's outgoing tracks: aiortc asks for the next frame as soon as it has sent one,
so each track waits here until its frame is due."""

from __future__ import annotations

import asyncio
import time


class Pacer:
    """Frame t (in seconds of media) goes out at start + t. With `resync_after`, a loop stalled for longer than
    that restarts the clock instead of sending the backlog in a burst the receiver would drop."""

    def __init__(self, resync_after: float | None = None) -> None:
        self._start: float | None = None
        self._resync_after = resync_after

    async def wait(self, media_seconds: float) -> None:
        now = time.monotonic()
        if self._start is None:
            self._start = now
            return
        wait = self._start + media_seconds - now
        if wait > 0:
            await asyncio.sleep(wait)
        elif self._resync_after is not None and wait < -self._resync_after:
            self._start = now - media_seconds

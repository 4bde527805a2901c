"""The Offload port on anyio worker threads, with a cap so CPU work cannot starve the machine."""

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

import anyio.to_thread
from anyio import CapacityLimiter

T = TypeVar("T")


class ThreadOffload:
    def __init__(self, threads: int = 4) -> None:
        self._threads = threads
        self._limiter: CapacityLimiter | None = None

    async def __call__(self, fn: Callable[..., T], *args: Any) -> T:
        if self._limiter is None:  # created lazily: a limiter belongs to the running event loop
            self._limiter = CapacityLimiter(self._threads)
        return await anyio.to_thread.run_sync(partial(fn, *args), limiter=self._limiter)

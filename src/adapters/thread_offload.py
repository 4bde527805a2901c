"""The Offload port on anyio worker threads, with a cap so CPU work cannot starve the machine.

anyio's worker threads are daemons. One still inside a native library when the interpreter exits (onnxruntime
building Piper's session for the room warm-up, CTranslate2 running Whisper) is killed as it takes the GIL back,
and that unwinding through C++ aborts the whole process ("terminate called without an active exception", exit
134): a server stopped during its warm-up, or a test run whose last app was still warming. So exit waits, up to
`EXIT_WAIT_SECONDS`, for the calls already running to return.
"""

import atexit
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import anyio.to_thread
from anyio import CapacityLimiter

T = TypeVar("T")
EXIT_WAIT_SECONDS = 60.0

_running = 0
_changed = threading.Condition()


def _counted(fn: Callable[..., T], *args: Any) -> T:
    global _running
    with _changed:
        _running += 1
    try:
        return fn(*args)
    finally:
        with _changed:
            _running -= 1
            _changed.notify_all()


@atexit.register
def _let_running_calls_return() -> None:
    with _changed:
        _changed.wait_for(lambda: _running == 0, EXIT_WAIT_SECONDS)


class ThreadOffload:
    def __init__(self, threads: int = 4) -> None:
        self._threads = threads
        self._limiter: CapacityLimiter | None = None

    async def __call__(self, fn: Callable[..., T], *args: Any) -> T:
        if self._limiter is None:  # created lazily: a limiter belongs to the running event loop
            self._limiter = CapacityLimiter(self._threads)
        return await anyio.to_thread.run_sync(_counted, fn, *args, limiter=self._limiter)

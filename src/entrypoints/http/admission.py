"""Admission control: a bounded amount of work in flight per process, and a fast 503 past a bounded queue.

Without it a burst of clients all ran at once: every request held memory, a connection and a share of the
event loop, each one took longer, and past 64 clients throughput fell while p99 latency grew to 10 s. Now at
most `max_in_flight` requests of each lane run at once; the rest wait in order, and a request that finds
`max_queued` already waiting, or that waits longer than `queue_timeout`, is answered at once with 503
`overloaded` and `Retry-After` (the error envelope), which a client can retry elsewhere or later, instead of
queueing for ten seconds.

Three lanes, so reads never queue behind writes, nor cheap writes behind model work: GET, HEAD and OPTIONS in
one; the requests that run a model on this process's CPU (searches and text turns embed the question and run the
dialogue engine, a memory is embedded as it is written, a game move runs the personality's search) in a narrow one
of their own; every other write in the third. The model lane is narrow because its work is CPU-bound: more of it
at once only made each slower and starved the event loop every request shares (at 256 clients a read waited
seconds behind 64 turns in flight), while a few at a time keep the cores busy. Health and metrics answer outside
all three, so a load balancer sees an overloaded process as alive.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from litestar.types import ASGIApp, Receive, Scope, Send

from avatar_service.entrypoints.http.errors import asgi_envelope

READS = frozenset({"GET", "HEAD", "OPTIONS"})
EXEMPT = ("/healthz", "/metrics")
RETRY_AFTER = "1"
# POST paths whose work is a model's: .../knowledge/search, .../memories/search, .../messages, .../memories, .../move
MODEL_WORK = ("/search", "/messages", "/memories", "/move")


def is_model_work(method: str, path: str) -> bool:
    return method == "POST" and path.startswith("/v1/") and path.endswith(MODEL_WORK)


class Lane:
    """Up to `limit` holders; waiters served first come, first served."""

    def __init__(self, limit: int, queue: int, timeout: float) -> None:
        self.limit, self.queue, self.timeout = limit, queue, timeout
        self.running = 0
        self.shed = 0  # requests answered 503
        self._waiting: deque[asyncio.Future[None]] = deque()

    async def enter(self) -> bool:
        """True once the request may run; False when it must be turned away."""
        if self.running < self.limit and not self._waiting:
            self.running += 1
            return True
        if len(self._waiting) >= self.queue:
            self.shed += 1
            return False
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(turn)
        try:
            await asyncio.wait_for(asyncio.shield(turn), self.timeout)
            return True  # leave() handed its place over: `running` already counts this request
        except TimeoutError:
            if turn.done() and not turn.cancelled():  # handed over just as the wait ran out: take it
                return True
            self._waiting.remove(turn)
            self.shed += 1
            return False
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.leave()  # a place was handed to a request that went away: pass it on
            elif turn in self._waiting:
                self._waiting.remove(turn)
            raise

    def leave(self) -> None:
        while self._waiting:
            turn = self._waiting.popleft()
            if not turn.done():
                turn.set_result(None)  # the place passes straight on; `running` stays the same
                return
        self.running -= 1


class AdmissionMiddleware:
    def __init__(self, app: ASGIApp, max_in_flight: int, max_queued: int, queue_timeout: float,
                 max_model_in_flight: int | None = None) -> None:
        self.app = app
        self.reads = Lane(max_in_flight, max_queued, queue_timeout)
        self.writes = Lane(max_in_flight, max_queued, queue_timeout)
        self.models = Lane(max_model_in_flight or max_in_flight, max_queued, queue_timeout)

    def lane(self, method: str, path: str) -> Lane:
        if method in READS:
            return self.reads
        return self.models if is_model_work(method, path) else self.writes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in EXEMPT:
            await self.app(scope, receive, send)
            return
        lane = self.lane(str(scope.get("method", "")), scope["path"])
        if not await lane.enter():
            await self._overloaded(send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            lane.leave()

    @staticmethod
    async def _overloaded(send: Send) -> None:
        start, body = asgi_envelope(503, "overloaded", "The service is at capacity; retry after the Retry-After "
                                    "seconds", headers=[(b"retry-after", RETRY_AFTER.encode())])
        await send(start)  # type: ignore[arg-type]
        await send(body)  # type: ignore[arg-type]

    def stats(self) -> dict[str, Any]:
        return {lane: {"running": getattr(self, lane).running, "shed": getattr(self, lane).shed}
                for lane in ("reads", "writes", "models")}

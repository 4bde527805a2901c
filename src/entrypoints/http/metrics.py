"""`GET /metrics` (Prometheus) and the middleware that counts and times every HTTP request.

Requests are labelled by method, the route's template (`/v1/personalities/{personality_id}`, which Litestar
puts in the scope once it has routed the request) and status; a request no route matched (a 404 for a random
path, a 405) is labelled `unmatched`, never with its path, so the number of series stays bounded whatever
clients send. With `AVATAR_METRICS_TOKEN` set the endpoint wants `Authorization: Bearer <token>`; unset it is
open (set it, or keep the port behind a firewall, in production).
"""

import hmac
import logging
import time
from typing import Any

from litestar import Request, Response, get
from litestar.handlers import HTTPRouteHandler
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from avatar_service.adapters import prometheus_metrics
from avatar_service.core.errors import Unauthenticated
from avatar_service.ports.clock import Clock
from avatar_service.ports.metrics import QueueFigures, QueueStats

log = logging.getLogger(__name__)
UNMATCHED = "unmatched"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class HttpMetricsMiddleware:
    """Counts and times each HTTP request once its response has ended (outside the exception handlers, so
    errors and unrouted requests are counted with the status they were answered with)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status: int | None = None

        async def watched(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, watched)
        finally:
            if status is not None:  # else the client left (or the server stopped) before any answer
                method = scope.get("method", "GET")
                prometheus_metrics.observe_request(method if method in METHODS else "other",
                                                   scope.get("path_template") or UNMATCHED, status,
                                                   time.perf_counter() - started)


def route(token: str, queues: QueueStats, clock: Clock) -> HTTPRouteHandler:
    """The `GET /metrics` handler for this app's token and job queue."""

    @get("/metrics", include_in_schema=False)
    async def metrics(request: Request[Any, Any, Any]) -> Response[bytes]:
        if token and not _bearer_matches(request.headers.get("authorization", ""), token):
            raise Unauthenticated("GET /metrics needs Authorization: Bearer <AVATAR_METRICS_TOKEN>",
                                  code="invalid_metrics_token")
        figures: list[QueueFigures] = []
        try:
            figures = await queues.queue_figures(clock.now())
        except Exception:  # the process's own metrics still answer; the queue gauges are missing this time
            log.exception("reading the job queue for /metrics failed")
        body, content_type = prometheus_metrics.exposition(figures, request.headers.get("accept"))
        return Response(body, media_type=content_type, headers={"Cache-Control": "no-store"})

    return metrics


def _bearer_matches(header: str, token: str) -> bool:
    scheme, _, given = header.partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode())

"""Per-key rate limits on /v1: `RateLimit-Limit`, `-Remaining` and `-Reset` on every response, 429 past it.

A pure ASGI middleware for the paths under /v1. The bucket is the API key (a hash of the bearer secret, so no
database read is needed to count), or the client address for requests without one. The counter is the
RateLimiter port: the shared database table for several API processes, or an in-process one.
"""

import hashlib
import logging

from litestar.types import ASGIApp, Message, Receive, Scope, Send

from avatar_service.entrypoints.http.auth import bearer_secret
from avatar_service.entrypoints.http.idempotency import error_response
from avatar_service.ports.clock import Clock
from avatar_service.ports.request_guards import RateLimiter

log = logging.getLogger(__name__)
API_PREFIX = "/v1/"


def bucket_of(scope: Scope) -> str:
    secret = bearer_secret(scope)
    if secret is not None:
        return "key:" + hashlib.sha256(secret.encode()).hexdigest()[:40]
    client = scope.get("client") or ("unknown", 0)
    return f"ip:{client[0]}"


class RateLimitMiddleware:
    def __init__(self, app: ASGIApp, limiter: RateLimiter, limit: int, clock: Clock) -> None:
        self.app, self.limiter, self.limit, self.clock = app, limiter, limit, clock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.limit <= 0 or not scope["path"].startswith(API_PREFIX):
            await self.app(scope, receive, send)
            return
        try:
            allowance = await self.limiter.hit(bucket_of(scope), self.limit, self.clock.now())
        except Exception:  # an unreachable counter must not take the API down with it: let the request in
            log.exception("rate limiter unavailable")
            await self.app(scope, receive, send)
            return
        headers = [(b"ratelimit-limit", str(allowance.limit).encode()),
                   (b"ratelimit-remaining", str(allowance.remaining).encode()),
                   (b"ratelimit-reset", str(allowance.reset_seconds).encode())]
        if not allowance.allowed:
            retry = [(b"retry-after", str(allowance.reset_seconds).encode())]
            for message in error_response(429, "rate_limited", f"More than {allowance.limit} requests a minute "
                                          f"with this key; retry in {allowance.reset_seconds} s",
                                          headers=headers + retry):
                await send(message)  # type: ignore[arg-type]
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *headers]
            await send(message)

        await self.app(scope, receive, with_headers)

"""Per-key rate limits on /v1: `RateLimit-Limit`, `-Remaining` and `-Reset` on every response, 429 past it.

A pure ASGI middleware for the paths under /v1. The bucket is the API key (a hash of the bearer secret), or the
client address for requests without one. The limit is the key's own `rate_limit_per_minute` when it has one, else
the deployment's; the key is verified through ApiKeys, whose short cache the authentication that follows reuses.
The counter is the RateLimiter port: the shared database table for several API processes, or an in-process one.
"""

import hashlib
import logging

from litestar.types import ASGIApp, Message, Receive, Scope, Send

from avatar_service.core.errors import AvatarError
from avatar_service.core.services.api_keys import ApiKeys
from avatar_service.entrypoints.http.auth import VERIFIED, bearer_secret
from avatar_service.entrypoints.http.errors import asgi_envelope
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
    def __init__(self, app: ASGIApp, limiter: RateLimiter, limit: int, api_keys: ApiKeys, clock: Clock) -> None:
        self.app, self.limiter, self.limit, self.api_keys, self.clock = app, limiter, limit, api_keys, clock

    async def _limit_of(self, scope: Scope) -> int:
        """The key's own limit, else the deployment's (also for a missing or invalid key, which gets its 401)."""
        secret = bearer_secret(scope)
        if secret is None:
            return self.limit
        try:
            caller = await self.api_keys.authenticate(secret)
        except AvatarError:
            return self.limit
        # The authentication that follows (auth.py) takes this caller instead of verifying the key again.
        scope.setdefault("state", {})[VERIFIED] = caller
        return self.limit if caller.rate_limit_per_minute is None else caller.rate_limit_per_minute

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(API_PREFIX):
            await self.app(scope, receive, send)
            return
        try:
            limit = await self._limit_of(scope)
            allowance = await self.limiter.hit(bucket_of(scope), limit, self.clock.now()) if limit > 0 else None
        except Exception:  # an unreachable counter must not take the API down with it: let the request in
            log.exception("rate limiter unavailable")
            allowance = None
        if allowance is None:  # no limit for this key (or the deployment), or no counter
            await self.app(scope, receive, send)
            return
        headers = [(b"ratelimit-limit", str(allowance.limit).encode()),
                   (b"ratelimit-remaining", str(allowance.remaining).encode()),
                   (b"ratelimit-reset", str(allowance.reset_seconds).encode())]
        if not allowance.allowed:
            retry = [(b"retry-after", str(allowance.reset_seconds).encode())]
            for message in asgi_envelope(429, "rate_limited", f"More than {allowance.limit} requests a minute "
                                          f"with this key; retry in {allowance.reset_seconds} s",
                                          headers=headers + retry):
                await send(message)  # type: ignore[arg-type]
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *headers]
            await send(message)

        await self.app(scope, receive, with_headers)

"""`Idempotency-Key` on POSTs under /v1: the same key and body within 24 h replays the first response.

A pure ASGI middleware for the paths under /v1. The first request with a key reserves it (a row in
`idempotency_keys`, per organization), runs, and stores its status and body; a repeat with the same body
gets that response back (`Idempotent-Replayed: true`) without the work being done again; a repeat with
another body, or while the first is still running, is a 409 `idempotency_conflict`. Server errors and
429s are not stored, so a retry after them runs the request again; nor are streamed answers that did not run
to their end (the client left) or that ended in an `error` event.
"""

import hashlib
import logging
from datetime import timedelta
from typing import Any

from litestar.types import ASGIApp, Message, Receive, ReceiveMessage, Scope, Send

from avatar_service.core.errors import AvatarError
from avatar_service.core.services.api_keys import ApiKeys, Caller
from avatar_service.entrypoints.http.auth import VERIFIED, bearer_secret
from avatar_service.entrypoints.http.errors import asgi_envelope
from avatar_service.ports.clock import Clock
from avatar_service.ports.request_guards import IdempotencyStore

log = logging.getLogger(__name__)
HEADER = b"idempotency-key"
TTL = timedelta(hours=24)
MAX_KEY = 255
API_PREFIX = "/v1/"


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


class IdempotencyMiddleware:
    def __init__(self, app: ASGIApp, store: IdempotencyStore, api_keys: ApiKeys, clock: Clock) -> None:
        self.app, self.store, self.api_keys, self.clock = app, store, api_keys, clock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        key = None
        if scope["type"] == "http" and scope.get("method") == "POST" and scope["path"].startswith(API_PREFIX):
            key = _header(scope, HEADER)
        if key is None:
            await self.app(scope, receive, send)
            return
        if not key.strip() or len(key) > MAX_KEY:
            for message in asgi_envelope(400, "parameter_invalid",
                                          f"Idempotency-Key must be 1 to {MAX_KEY} characters", "Idempotency-Key"):
                await send(message)  # type: ignore[arg-type]
            return
        organization_id = await self._organization(scope)
        if organization_id is None:  # no valid key: the auth guard answers 401, nothing to remember
            await self.app(scope, receive, send)
            return
        body, replay = await _buffer(receive)
        digest = hashlib.sha256(b"POST %s?%s\n" % (scope["path"].encode(), bytes(scope.get("query_string", b""))))
        digest.update(body)
        request_hash = digest.hexdigest()
        now = self.clock.now()
        stored = await self.store.claim(organization_id, key, request_hash, now, now + TTL)
        if stored is not None:
            await self._answer_repeat(stored, request_hash, send)
            return
        await self._first(scope, replay, send, organization_id, key)

    async def _organization(self, scope: Scope) -> str | None:
        secret = bearer_secret(scope)
        if secret is None:
            return None
        verified: Caller | None = scope.get("state", {}).get(VERIFIED)  # by the rate limiter, for this request
        if verified is not None:
            return verified.organization_id
        try:
            caller = await self.api_keys.authenticate(secret)
        except AvatarError:
            return None
        return caller.organization_id

    @staticmethod
    async def _answer_repeat(stored: Any, request_hash: str, send: Send) -> None:
        if stored.request_hash != request_hash:
            messages = asgi_envelope(409, "idempotency_conflict", "This Idempotency-Key was used with another "
                                      "request in the last 24 hours; use a new key for a new request")
        elif stored.status_code is None:
            messages = asgi_envelope(409, "idempotency_conflict", "A request with this Idempotency-Key is still "
                                      "being processed; retry in a moment")
        else:
            messages = (
                {"type": "http.response.start", "status": stored.status_code,
                 "headers": [(b"content-type", stored.content_type.encode() or b"application/json"),
                             (b"content-length", str(len(stored.body)).encode()),
                             (b"idempotent-replayed", b"true")]},
                {"type": "http.response.body", "body": stored.body},
            )
        for message in messages:
            await send(message)  # type: ignore[arg-type]

    async def _first(self, scope: Scope, receive: Receive, send: Send, organization_id: str, key: str) -> None:
        status = 500
        content_type = "application/json"
        parts: list[bytes] = []
        ended = False  # the last body message went out: a stream the client left midway never gets there

        async def recording(message: Message) -> None:
            nonlocal status, content_type, ended
            if message["type"] == "http.response.start":
                status = message["status"]
                for name, value in message.get("headers", []):
                    if name.lower() == b"content-type":
                        content_type = bytes(value).decode("latin-1")
            elif message["type"] == "http.response.body":
                parts.append(bytes(message.get("body", b"")))
                ended = not message.get("more_body", False)
            await send(message)

        try:
            await self.app(scope, receive, recording)
        except BaseException:
            await self._release(organization_id, key)
            raise
        if status >= 500 or status == 429 or not ended or _stream_failed(content_type, parts):
            await self._release(organization_id, key)
        else:
            await self.store.save(organization_id, key, status, b"".join(parts), content_type)

    async def _release(self, organization_id: str, key: str) -> None:
        try:
            await self.store.release(organization_id, key)
        except Exception:  # the key then stays reserved until it expires; the request itself is answered
            log.exception("could not release idempotency key %r", key)


def _stream_failed(content_type: str, parts: list[bytes]) -> bool:
    """An event stream (a streamed text turn) that ended with an `error` event: like a 5xx, it is not kept, so
    a retry with the key runs again instead of replaying the failure. A whole stream is replayed whole."""
    if not content_type.startswith("text/event-stream"):
        return False
    last = next((part for part in reversed(parts) if part.strip()), b"")
    return last.startswith(b"event: error")


async def _buffer(receive: Receive) -> tuple[bytes, Receive]:
    """The whole request body (for its hash), and a receive that hands it to the app again."""
    parts: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        parts.append(bytes(message.get("body", b"")))
        if not message.get("more_body", False):
            break
    body = b"".join(parts)
    sent = False

    async def replay() -> ReceiveMessage:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return body, replay

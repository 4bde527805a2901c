"""`Request-Id` on every response: the caller's own when well-formed, else a new `req_...`.

The outermost layer of the app (it wraps Litestar's router, so 404s, 405s and every error answered before a
route are covered too). While the request is handled its id is the context's (entrypoints/logs.py): every log
line written meanwhile carries it, and so does the error envelope (`error.request_id`), so a user who reports
a failure can quote the id that finds its log lines, traceback included.
"""

import itertools
import re
import secrets

from litestar.types import ASGIApp, Message, Receive, Scope, Send

from avatar_service.entrypoints.logs import REQUEST_ID

HEADER = b"request-id"
# What an incoming id may be: what tracing systems and load balancers send (UUIDs, ULIDs, `Root=1-5e...`
# minus the `=`), nothing that could break a log line or a header.
WELL_FORMED = re.compile(rb"[A-Za-z0-9_.:-]{1,128}")


# An id needs to be unique, not secret: a random prefix per process and a counter (a system call for fresh
# random bytes on every request cost 2% of a cached GET).
_PROCESS = secrets.token_urlsafe(9)  # 12 URL-safe characters, 72 random bits
_COUNTER = itertools.count(1)


def new_request_id() -> str:
    return f"req_{_PROCESS}{next(_COUNTER) & 0xFFFFFFFFFFFF:012x}"  # 24 characters after the prefix


def request_id_of(scope: Scope) -> str:
    """The caller's `Request-Id` when it is well-formed (the first one, if several), else a new one."""
    for name, value in scope.get("headers", ()):
        if name.lower() == HEADER:
            return value.decode("ascii") if WELL_FORMED.fullmatch(value) else new_request_id()
    return new_request_id()


class RequestIdMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request_id = request_id_of(scope)
        scope.setdefault("state", {})["request_id"] = request_id
        header = (HEADER, request_id.encode())

        async def stamped(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.accept"):
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() != HEADER]
                message["headers"] = [*kept, header]  # type: ignore[typeddict-unknown-key]
            await send(message)

        token = REQUEST_ID.set(request_id)
        try:
            await self.app(scope, receive, stamped)
        finally:
            REQUEST_ID.reset(token)

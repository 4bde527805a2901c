"""What goes on the wire, shared by the sync and the async client (no I/O here): requests, retries, errors."""

from __future__ import annotations

import email.utils
import os
import random
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
import msgspec

from avatar_service.client.errors import APIError, StreamError, error_class

T = TypeVar("T")

DEFAULT_TIMEOUT = httpx.Timeout(60.0, connect=10.0)
DEFAULT_MAX_RETRIES = 2
RETRIED_STATUSES = frozenset({408, 429, 500, 502, 503, 504})


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("avatar-service")
    except PackageNotFoundError:  # run from a source tree
        return "0+unknown"


def api_root(base_url: str | None) -> str:
    """The service's base URL without `/v1` (accepted either way), from the argument or AVATAR_API_URL."""
    url = base_url or os.environ.get("AVATAR_API_URL") or ""
    if not url:
        raise ValueError("Give the service's base_url (e.g. http://127.0.0.1:8000) or set AVATAR_API_URL")
    return url.rstrip("/").removesuffix("/v1")


def api_key(key: str | None) -> str:
    secret = key or os.environ.get("AVATAR_API_KEY") or ""
    if not secret:
        raise ValueError("Give an api_key (sk_...) or set AVATAR_API_KEY")
    return secret


def headers(secret: str, extra: Mapping[str, str] | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}", "User-Agent": f"avatar-service-client/{version()}",
            **(extra or {})}


def path(template: str, *ids: str) -> str:
    """A route with its ids filled in, each quoted whole (an id never adds a path segment)."""
    return template.format(*(quote(str(i), safe="") for i in ids))


def query(params: Mapping[str, Any] | None) -> dict[str, Any]:
    """Query parameters without the unset ones; booleans as the API writes them."""
    out: dict[str, Any] = {}
    for name, value in (params or {}).items():
        if value is not None:
            out[name] = ("true" if value else "false") if isinstance(value, bool) else value
    return out


def body(kind: type[T], data: T | Mapping[str, Any] | None, fields: Mapping[str, Any]) -> T:
    """A request body: the Struct given, or one built from a mapping or keyword fields (checked here, so a wrong
    type or a missing field fails before anything is sent, as msgspec.ValidationError)."""
    if data is not None and fields:
        raise TypeError(f"Give a {kind.__name__} or keyword fields, not both")
    if isinstance(data, kind):
        return data
    if not isinstance(data, Mapping | None):
        raise TypeError(f"Expected a {kind.__name__}, a mapping or keyword fields, got {type(data).__name__}")
    return msgspec.convert(dict(fields if data is None else data), kind)


def encode(data: Any) -> bytes:
    return msgspec.json.encode(data)


def decode(content: bytes, kind: type[T]) -> T:
    return msgspec.json.decode(content, type=kind)


def changes(method: str, url: str) -> bool:
    """A POST that changes something, and so carries an Idempotency-Key: every POST but the two searches
    (`.../memories/search`, `.../knowledge/search`), which are safe to repeat as they are."""
    return method == "POST" and not url.split("?", 1)[0].endswith("/search")


def new_idempotency_key() -> str:
    return f"avatar-client-{uuid.uuid4()}"


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """Which answers are worth another try, and how long to wait before it.

    Exponential backoff with jitter (0.5 s, 1 s, 2 s ... at most `max_delay`, each shortened by up to a quarter at
    random so that many clients do not come back together); a `Retry-After` is honoured as it is (plus up to 10%),
    unless it is longer than `max_retry_after`, when the error is raised at once for the caller to decide.
    """

    max_retries: int = DEFAULT_MAX_RETRIES
    initial_delay: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 60.0

    def retryable(self, response: httpx.Response, own_key: bool) -> bool:
        if response.status_code in RETRIED_STATUSES:
            return True
        # The same key while the first request still runs (a retry after a timeout): that one will finish.
        return own_key and response.status_code == 409 and _code(response) == "idempotency_conflict"

    def delay(self, attempt: int, retry_after: float | None) -> float | None:
        """Seconds to wait before retry number `attempt` (0-based); None: do not retry."""
        if attempt >= self.max_retries:
            return None
        if retry_after is not None:
            if retry_after > self.max_retry_after:
                return None
            return retry_after * (1 + 0.1 * random.random())
        return min(self.max_delay, self.initial_delay * 2**attempt) * (1 - 0.25 * random.random())


def retry_after(response: httpx.Response) -> float | None:
    """`Retry-After` in seconds: a number, or an HTTP date."""
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _code(response: httpx.Response) -> str | None:
    try:
        return str(response.json()["error"]["code"])
    except (ValueError, KeyError, TypeError):
        return None


class _Envelope(msgspec.Struct):
    type: str | None = None
    code: str | None = None
    message: str | None = None
    param: str | None = None
    request_id: str | None = None


class _ErrorBody(msgspec.Struct):
    error: _Envelope


def api_error(response: httpx.Response) -> APIError:
    """The typed error of a refused request, from its envelope (or its status and text when it has none)."""
    status = response.status_code
    request_id = response.headers.get("request-id")
    try:
        envelope = decode(response.content, _ErrorBody).error
    except msgspec.DecodeError:
        envelope = None
    if envelope is None or envelope.message is None:
        return error_class(status)(f"HTTP {status}: {response.text[:200]}", status=status, request_id=request_id,
                                   retry_after=retry_after(response), body=response.text)
    return error_class(status)(envelope.message, status=status, code=envelope.code, param=envelope.param,
                               type=envelope.type, request_id=envelope.request_id or request_id,
                               retry_after=retry_after(response), body=response.json())


def stream_error(data: str) -> APIError:
    """The `error` event of a streamed turn."""
    envelope = decode(data.encode(), _ErrorBody).error
    return StreamError(envelope.message or "The turn failed", status=None, code=envelope.code, param=envelope.param,
                       type=envelope.type, request_id=envelope.request_id, body=msgspec.json.decode(data))



def upload(file: str | os.PathLike[str] | bytes, filename: str | None,
           content_type: str | None) -> tuple[str, bytes, str]:
    """A multipart file part: a local path (read whole; the service caps uploads at 20 MB by default) or bytes."""
    import mimetypes

    if isinstance(file, bytes):
        name = filename or "upload"
        data = file
    else:
        name = filename or os.path.basename(os.fspath(file))
        with open(file, "rb") as fh:
            data = fh.read()
    return name, data, content_type or mimetypes.guess_type(name)[0] or "application/octet-stream"

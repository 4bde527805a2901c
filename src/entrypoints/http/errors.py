"""The one place where failures become the contract's envelope: {"error": {type, code, message, param}}.

The envelope also carries `request_id`, the `Request-Id` of the request that failed (request_ids.py), which
finds the failure's log lines.
"""

import logging
import re
from typing import Any

from litestar import MediaType, Request, Response
from litestar.exceptions import HTTPException, ValidationException
from msgspec import json

from avatar_service.core import errors as e
from avatar_service.entrypoints.logs import current_request_id

log = logging.getLogger("avatar_service.http")

STATUS = {e.Invalid: 400, e.Unauthenticated: 401, e.Forbidden: 403, e.NotFound: 404, e.Conflict: 409,
          e.TooLarge: 413, e.RateLimited: 429, e.Unavailable: 503}
TYPES = {401: "authentication_error", 403: "permission_error", 429: "rate_limit_error", 500: "api_error",
         503: "api_error"}
_FIELD = re.compile(r"field `(?P<field>[^`]+)`")
HTTP_CODES = {400: "parameter_invalid", 401: "invalid_api_key", 403: "insufficient_scope", 404: "resource_missing",
              405: "method_not_allowed", 409: "state_conflict", 413: "payload_too_large", 415: "unsupported_media_type",
              429: "rate_limited"}


def error_body(status: int, code: str, message: str, param: str | None = None) -> dict[str, Any]:
    """The envelope itself: every response, and every stream event, that reports a failure carries this."""
    return {"error": {"type": TYPES.get(status, "invalid_request_error"), "code": code, "message": message,
                      "param": param, "request_id": current_request_id()}}


def status_of(exc: e.AvatarError) -> int:
    return next((s for kind, s in STATUS.items() if isinstance(exc, kind)), 400)


def envelope(status: int, code: str, message: str, param: str | None = None,
             headers: dict[str, str] | None = None) -> Response[Any]:
    return Response(error_body(status, code, message, param), status_code=status, media_type=MediaType.JSON,
                    headers=headers)


def asgi_envelope(status: int, code: str, message: str, param: str | None = None,
                  headers: list[tuple[bytes, bytes]] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The envelope as the two ASGI messages of a response, for the middlewares that answer before a route
    (rate limits, idempotency)."""
    body = json.encode(error_body(status, code, message, param))
    start = {"type": "http.response.start", "status": status,
             "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                         *(headers or [])]}
    return start, {"type": "http.response.body", "body": body}


def avatar_error(_: Request[Any, Any, Any], exc: e.AvatarError) -> Response[Any]:
    status = status_of(exc)
    headers = ({"Retry-After": str(exc.retry_after)} if isinstance(exc, e.RateLimited | e.AtCapacity) else None)
    if status == 401:
        headers = {"WWW-Authenticate": 'Bearer realm="avatar_service"'}
    return envelope(status, exc.code, exc.message, exc.param, headers)


def _param(key: str, message: str) -> str | None:
    """The field a validation message is about: Litestar names the whole body `data` and stops at the object
    that lacks (or has an unknown) field, so the field named in the message is appended."""
    path = "" if key == "data" else key.removeprefix("data.")
    field = _FIELD.search(message)
    if field and ("missing required" in message or "unknown field" in message):
        path = f"{path}.{field.group('field')}" if path else field.group("field")
    return path or None


def validation_error(_: Request[Any, Any, Any], exc: ValidationException) -> Response[Any]:
    extra = exc.extra if isinstance(exc.extra, list) else []
    first = extra[0] if extra and isinstance(extra[0], dict) else {}
    key = str(first.get("key") or "")
    message = str(first.get("message") or exc.detail)
    if "JSON" in str(exc.detail) or "decode" in str(exc.detail).lower():
        return envelope(400, "body_invalid", f"The body is not valid JSON: {exc.detail}")
    if key == "data" and (message == "'data'" or message.startswith("Expected `object`")):  # none, null, [..]
        return envelope(400, "body_invalid", "The request needs a JSON object as its body")
    param = _param(key, message)
    if param:
        message = f"{message} (at '{param}')"
    return envelope(400, "parameter_invalid", message or "Invalid request", param)


def http_error(_: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
    status = exc.status_code
    if status >= 500:
        return server_error(_, exc)
    message = exc.detail if exc.detail and exc.detail != str(status) else "Invalid request"
    headers = {k: v for k, v in (exc.headers or {}).items()}
    if status == 400 and "JSON is malformed" in message:  # Litestar's own body decoding
        return envelope(400, "body_invalid", f"The body is not valid JSON: {message}", None, headers or None)
    return envelope(status, HTTP_CODES.get(status, "invalid_request"), message, None, headers or None)


def server_error(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    """A bug: the traceback goes to the log (with the request id, as every line of the request), the caller
    gets the id to report and nothing of the internals."""
    request_id = current_request_id()
    log.error("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return envelope(500, "internal_error", f"Something went wrong on our side (request {request_id}); "
                    "quote the request id when reporting it")


HANDLERS: dict[int | type[Exception], Any] = {
    e.AvatarError: avatar_error,
    ValidationException: validation_error,
    HTTPException: http_error,
    Exception: server_error,
}

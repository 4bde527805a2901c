"""What the client raises: one class per kind of failure, each carrying what the API said about it.

Every failure the service reports comes as its error envelope (`{"error": {type, code, message, param,
request_id}}`); `APIError` carries those fields and the HTTP status, and its subclass says which status. A
request that never got an answer is an `APIConnectionError` (`APITimeoutError` when it timed out).
"""

from __future__ import annotations

from typing import Any


class AvatarClientError(Exception):
    """Anything the client raises on purpose."""


class APIConnectionError(AvatarClientError):
    """No answer: the service could not be reached, or the connection broke (after the client's retries)."""

    def __init__(self, message: str, cause: BaseException | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.cause = cause  # the transport's own exception (also the __cause__)


class APITimeoutError(APIConnectionError):
    """The service did not answer within the timeout."""


class IncompleteStreamError(APIConnectionError):
    """A streamed turn ended, or broke off, before its `done` event."""


class APIError(AvatarClientError):
    """The service refused the request: the status and the envelope's fields.

    `status` is None for an `error` event inside a stream (the 200 had been sent). `retry_after` is the
    `Retry-After` header in seconds, where there was one (429s).
    """

    def __init__(self, message: str, *, status: int | None, code: str | None = None, param: str | None = None,
                 type: str | None = None, request_id: str | None = None, retry_after: float | None = None,
                 body: Any = None) -> None:
        super().__init__(message)
        self.message, self.status, self.code, self.param = message, status, code, param
        self.type, self.request_id, self.retry_after, self.body = type, request_id, retry_after, body

    def __str__(self) -> str:
        """`404 resource_missing: No such user (param: user_id)`; an answer without an envelope says `HTTP 502: ...`."""
        where = f" (param: {self.param})" if self.param else ""
        if self.code is None:
            return f"{self.message}{where}"
        status = f"{self.status} " if self.status is not None else ""
        return f"{status}{self.code}: {self.message}{where}"


class BadRequestError(APIError):
    """400: a body, query or path the service refused; `param` names the field."""


class AuthenticationError(APIError):
    """401: no key, or a wrong or revoked one."""


class PermissionDeniedError(APIError):
    """403: the key lacks the scope."""


class NotFoundError(APIError):
    """404: no such resource in the key's organization."""


class ConflictError(APIError):
    """409: the resource's state forbids it, or an Idempotency-Key conflict."""


class PayloadTooLargeError(APIError):
    """413: the body or upload is over the service's limit."""


class RateLimitError(APIError):
    """429: too many requests for the key; `retry_after` says when to come back."""


class InternalServerError(APIError):
    """5xx: the service failed (503 `engine_unavailable`: an engine it relies on failed)."""


class StreamError(APIError):
    """An `error` event in a streamed turn: the turn failed after its stream had begun (`status` is None)."""


BY_STATUS: dict[int, type[APIError]] = {400: BadRequestError, 401: AuthenticationError, 403: PermissionDeniedError,
                                        404: NotFoundError, 409: ConflictError, 413: PayloadTooLargeError,
                                        429: RateLimitError}


def error_class(status: int) -> type[APIError]:
    if status >= 500:
        return InternalServerError
    return BY_STATUS.get(status, APIError)

"""The core's error types; the HTTP layer maps each to a status code and the error envelope."""


class AvatarError(Exception):
    """Base of every error a caller can cause. `code` is stable and documented; `param` names the field."""

    code = "invalid_request"

    def __init__(self, message: str, *, param: str | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.param = param
        if code:
            self.code = code


class Invalid(AvatarError):
    """The request is malformed or breaks a limit (HTTP 400)."""

    code = "parameter_invalid"


class NotFound(AvatarError):
    """No such resource in the caller's organization (HTTP 404): other organizations' ids look missing too."""

    code = "resource_missing"


class Conflict(AvatarError):
    """The resource's state or a uniqueness rule forbids the operation (HTTP 409)."""

    code = "state_conflict"


class Unauthenticated(AvatarError):
    """Missing, unknown or revoked API key (HTTP 401)."""

    code = "invalid_api_key"


class Forbidden(AvatarError):
    """The key lacks a scope the operation needs (HTTP 403)."""

    code = "insufficient_scope"


class TooLarge(AvatarError):
    """The request body or upload is over its cap (HTTP 413)."""

    code = "payload_too_large"


class Unavailable(AvatarError):
    """An engine the operation depends on failed (HTTP 503): nothing the caller did; retrying later may work."""

    code = "engine_unavailable"


class AtCapacity(Unavailable):
    """Every place that could take the work is full (HTTP 503 with `Retry-After`, in seconds)."""

    code = "at_capacity"

    def __init__(self, message: str, *, retry_after: int, code: str | None = None) -> None:
        super().__init__(message, code=code)
        self.retry_after = retry_after


class RateLimited(AvatarError):
    """Too many requests for this key (HTTP 429); `retry_after` in seconds."""

    code = "rate_limited"

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def missing(kind: str, ident: str, *, param: str | None = None) -> NotFound:
    return NotFound(f"No such {kind}: '{ident}'", param=param)

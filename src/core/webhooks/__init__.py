"""Webhook delivery rules: Standard Webhooks signing and the retry schedule."""

from avatar_service.core.webhooks.backoff import (
    DISABLE_AFTER,
    RETRY_SCHEDULE,
    next_attempt_delay,
    should_disable,
)
from avatar_service.core.webhooks.signing import (
    SECRET_PREFIX,
    InvalidSignature,
    headers,
    new_secret,
    sign,
    verify,
)

__all__ = [
    "DISABLE_AFTER",
    "RETRY_SCHEDULE",
    "SECRET_PREFIX",
    "InvalidSignature",
    "headers",
    "new_secret",
    "next_attempt_delay",
    "should_disable",
    "sign",
    "verify",
]

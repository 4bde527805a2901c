"""Standard Webhooks signatures: secrets, signing, header building and verification (stdlib only)."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
import time
from collections.abc import Mapping

__all__ = ["SECRET_PREFIX", "InvalidSignature", "headers", "new_secret", "sign", "verify"]

SECRET_PREFIX = "whsec_"
_SECRET_BYTES = 32


class InvalidSignature(Exception):
    """A webhook's headers or signature do not check out."""


def new_secret() -> str:
    """A fresh signing secret, ``whsec_`` + base64 of 32 random bytes (the scheme wants 24 to 64)."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(_SECRET_BYTES)).decode("ascii")


def _key(secret: str) -> bytes:
    encoded = secret.removeprefix(SECRET_PREFIX)
    try:
        return base64.b64decode(encoded, validate=True)
    except binascii.Error as exc:
        raise ValueError("webhook secret is not whsec_ + base64") from exc


def _as_bytes(body: bytes | str) -> bytes:
    return body.encode("utf-8") if isinstance(body, str) else body


def _digest(key: bytes, msg_id: str, timestamp: int, body: bytes) -> bytes:
    return hmac.new(key, f"{msg_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()


def sign(secret: str, msg_id: str, timestamp: int, body: bytes | str) -> str:
    """``v1,<base64 HMAC-SHA256 of "msg_id.timestamp.body">``; ``body`` must be the exact bytes sent."""
    digest = _digest(_key(secret), msg_id, int(timestamp), _as_bytes(body))
    return "v1," + base64.b64encode(digest).decode("ascii")


def headers(secret: str, msg_id: str, timestamp: int, body: bytes | str) -> dict[str, str]:
    """The three headers a delivery carries."""
    return {
        "webhook-id": msg_id,
        "webhook-timestamp": str(int(timestamp)),
        "webhook-signature": sign(secret, msg_id, timestamp, body),
    }


def verify(
    secret: str,
    headers: Mapping[str, str],
    body: bytes | str,
    tolerance: int = 300,
    now: float | None = None,
) -> None:
    """Raise ``InvalidSignature`` unless one of the ``v1`` signatures matches and the timestamp is fresh.

    The signature header may hold several space-separated signatures (e.g. while a secret is rotated);
    one match is enough. The tolerance bounds replays of a captured delivery.
    """
    lowered = {k.lower(): v for k, v in headers.items()}
    msg_id = lowered.get("webhook-id")
    raw_timestamp = lowered.get("webhook-timestamp")
    signatures = lowered.get("webhook-signature")
    if not msg_id or not raw_timestamp or not signatures:
        raise InvalidSignature("missing webhook-id, webhook-timestamp or webhook-signature header")
    try:
        timestamp = int(raw_timestamp)
    except ValueError:
        raise InvalidSignature("webhook-timestamp is not an integer") from None
    current = time.time() if now is None else now
    if abs(current - timestamp) > tolerance:
        raise InvalidSignature("webhook-timestamp is outside the tolerance")
    try:
        key = _key(secret)
    except ValueError as exc:
        raise InvalidSignature(str(exc)) from None
    expected = _digest(key, msg_id, timestamp, _as_bytes(body))
    for candidate in signatures.split():
        version, _, encoded = candidate.partition(",")
        if version != "v1":
            continue
        try:
            given = base64.b64decode(encoded, validate=True)
        except binascii.Error:
            continue
        # Constant time, so the comparison leaks nothing about how much of a forged signature matched.
        if hmac.compare_digest(given, expected):
            return
    raise InvalidSignature("no matching v1 signature")

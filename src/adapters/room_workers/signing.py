"""Requests between the API and the room workers, signed with the service's secret (HMAC-SHA256).

The header is `Avatar-Worker-Signature: t=<unix seconds>,v1=<hex>` over `t`, the method, the path and the body,
so a captured request cannot be replayed after `MAX_SKEW` seconds nor sent to another path or with another body.
The key is derived from the service's secret for this use only (room tokens and media URLs sign with others).
"""

from __future__ import annotations

import hashlib
import hmac
import time

HEADER = "Avatar-Worker-Signature"
MAX_SKEW = 60.0


def _key(secret: bytes) -> bytes:
    return hmac.new(secret, b"avatar room workers", hashlib.sha256).digest()


def _mac(secret: bytes, stamp: int, method: str, path: str, body: bytes) -> str:
    message = b"\n".join([str(stamp).encode(), method.upper().encode(), path.encode(), body])
    return hmac.new(_key(secret), message, hashlib.sha256).hexdigest()


def sign(secret: bytes, method: str, path: str, body: bytes, now: float | None = None) -> str:
    stamp = int(time.time() if now is None else now)
    return f"t={stamp},v1={_mac(secret, stamp, method, path, body)}"


def verify(secret: bytes, header: str, method: str, path: str, body: bytes, now: float | None = None) -> bool:
    try:
        parts = dict(part.split("=", 1) for part in header.split(","))
        stamp = int(parts["t"])
        given = parts["v1"]
    except (KeyError, ValueError):
        return False
    if abs((time.time() if now is None else now) - stamp) > MAX_SKEW:
        return False
    return hmac.compare_digest(_mac(secret, stamp, method, path, body), given)

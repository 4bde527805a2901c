"""Signed, expiring media URLs: an HMAC over the path and expiry, so players need no API key."""

import hashlib
import hmac
from datetime import datetime


class MediaSigner:
    def __init__(self, base_url: str, secret: bytes, ttl_seconds: int = 86400) -> None:
        self.base_url = base_url.rstrip("/")
        self.secret = secret
        self.ttl = ttl_seconds

    def _signature(self, key: str, expires: int) -> str:
        return hmac.new(self.secret, f"{key}:{expires}".encode(), hashlib.sha256).hexdigest()

    def url(self, key: str, now: datetime) -> str:
        # Rounded to the hour so a resource read twice in a row shows the same URL.
        expires = (int(now.timestamp()) // 3600 + 1) * 3600 + self.ttl
        return f"{self.base_url}/media/{key}?expires={expires}&signature={self._signature(key, expires)}"

    def valid(self, key: str, expires: int, signature: str, now: datetime) -> bool:
        if expires < now.timestamp():
            return False
        # As bytes: compare_digest refuses str with non-ASCII characters (a TypeError, so a 500, not a 403).
        return hmac.compare_digest(self._signature(key, expires).encode(), signature.encode())

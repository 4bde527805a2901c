"""The Fetcher and WebhookSender ports on the one guarded HTTP client."""

from collections.abc import Mapping

from avatar_service.adapters.guarded_http import FetchRefused, GuardedHttp
from avatar_service.ports.fetcher import Fetched, FetchError
from avatar_service.ports.webhook_sender import PostOutcome

DELIVERY_TIMEOUT = 10.0  # seconds per webhook attempt


class GuardedFetcher:
    def __init__(self, http: GuardedHttp) -> None:
        self.http = http

    async def fetch(self, url: str) -> Fetched:
        try:
            got = await self.http.fetch(url)
        except FetchRefused as error:
            raise FetchError(error.code, error.message) from None
        return Fetched(url=got.url_final, status=got.status, content_type=got.content_type or "", body=got.body)


class GuardedSender:
    def __init__(self, http: GuardedHttp) -> None:
        self.http = http

    async def post(self, url: str, body: bytes, headers: Mapping[str, str]) -> PostOutcome:
        try:
            result = await self.http.post(url, body, headers, DELIVERY_TIMEOUT)
        except FetchRefused as error:
            return PostOutcome(status=None, duration_ms=0, error=f"{error.code}: {error.message}")
        return PostOutcome(status=result.status, duration_ms=result.duration_ms,
                           error=None if 200 <= result.status < 300 else result.body_excerpt[:300] or None)

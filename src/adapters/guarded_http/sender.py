"""The WebhookSender port on the guarded HTTP client: one POST per delivery attempt."""

from collections.abc import Mapping

from avatar_service.adapters.guarded_http.client import GuardedHttp
from avatar_service.adapters.guarded_http.errors import FetchRefused
from avatar_service.ports.webhook_sender import PostOutcome

DELIVERY_TIMEOUT = 10.0  # seconds per webhook attempt


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

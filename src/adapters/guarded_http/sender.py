"""The WebhookSender port on the guarded HTTP client: one POST per delivery attempt, counted and timed."""

import time
from collections.abc import Mapping

from avatar_service.adapters.guarded_http.client import GuardedHttp
from avatar_service.adapters.guarded_http.errors import FetchRefused
from avatar_service.adapters.prometheus_metrics import observe_delivery
from avatar_service.ports.webhook_sender import PostOutcome

DELIVERY_TIMEOUT = 10.0  # seconds per webhook attempt


class GuardedSender:
    def __init__(self, http: GuardedHttp) -> None:
        self.http = http

    async def post(self, url: str, body: bytes, headers: Mapping[str, str]) -> PostOutcome:
        started = time.perf_counter()
        try:
            result = await self.http.post(url, body, headers, DELIVERY_TIMEOUT)
        except FetchRefused as error:
            # url_not_allowed: refused before connecting; the rest: no usable response (unreachable, timed out)
            observe_delivery("refused" if error.code == "url_not_allowed" else "failed", time.perf_counter() - started)
            return PostOutcome(status=None, duration_ms=0, error=f"{error.code}: {error.message}")
        ok = 200 <= result.status < 300
        observe_delivery("delivered" if ok else "http_error", time.perf_counter() - started)
        return PostOutcome(status=result.status, duration_ms=result.duration_ms,
                           error=None if ok else result.body_excerpt[:300] or None)

"""The ToolCaller port on the guarded HTTP client: a personality's tool is any URL its owner gave, so every call
goes through the SSRF guard (no private, loopback or metadata address unless AVATAR_ALLOW_PRIVATE_URLS)."""

from collections.abc import Mapping

from avatar_service.adapters.guarded_http.client import GuardedHttp
from avatar_service.adapters.guarded_http.errors import FetchRefused
from avatar_service.ports.tools import ToolAnswer


class GuardedToolCaller:
    def __init__(self, http: GuardedHttp) -> None:
        self.http = http

    async def call(self, url: str, body: bytes, headers: Mapping[str, str], seconds: float,
                   max_bytes: int) -> ToolAnswer:
        try:
            result = await self.http.post(url, body, headers, seconds, keep_bytes=max_bytes)
        except FetchRefused as error:
            return ToolAnswer(status=None, error=f"{error.code}: {error.message}")
        return ToolAnswer(status=result.status, body=result.body, too_large=result.truncated)

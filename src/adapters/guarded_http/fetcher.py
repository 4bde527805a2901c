"""The Fetcher port on the guarded HTTP client."""

from avatar_service.adapters.guarded_http.client import GuardedHttp
from avatar_service.adapters.guarded_http.errors import FetchRefused
from avatar_service.ports.fetcher import Fetched, FetchError


class GuardedFetcher:
    def __init__(self, http: GuardedHttp) -> None:
        self.http = http

    async def fetch(self, url: str) -> Fetched:
        try:
            got = await self.http.fetch(url)
        except FetchRefused as error:
            raise FetchError(error.code, error.message) from None
        return Fetched(url=got.url_final, status=got.status, content_type=got.content_type or "", body=got.body)

"""Fetcher port: the one guarded way to GET outside URLs (knowledge, audio, background images)."""

from dataclasses import dataclass
from typing import Protocol


class FetchError(Exception):
    """A refused or failed fetch; `code` is one of url_not_allowed, fetch_failed, too_large."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Fetched:
    url: str
    status: int
    content_type: str
    body: bytes


class Fetcher(Protocol):
    async def fetch(self, url: str) -> Fetched: ...

"""Text extraction port: fetched or uploaded bytes to plain text (HTML, PDF, Markdown, feeds)."""

from dataclasses import dataclass
from typing import Protocol


class ExtractError(Exception):
    """Content that yields no text; `code` is unsupported_media or content_empty."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class FeedEntry:
    key: str  # the entry's id or link: the same entry is never indexed twice
    title: str
    text: str


class TextExtractor(Protocol):
    """Sync and CPU-bound: callers run it off the event loop."""

    def text(self, body: bytes, content_type: str, url: str | None = None) -> str: ...

    def feed(self, body: bytes) -> list[FeedEntry]: ...

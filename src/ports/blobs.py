"""Blob store port: where rendered media lives, and how it is read back (ranges for seeking)."""

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Protocol


class BlobStore(Protocol):
    async def put_file(self, key: str, source: Path, content_type: str) -> None:
        """Moves or copies a finished local file into the store under `key`."""
        ...

    async def size(self, key: str) -> int | None: ...

    def read(self, key: str, start: int = 0, end: int | None = None) -> AsyncIterator[bytes]:
        """Bytes start..end inclusive (end None: to the end of the blob)."""
        ...

    async def delete(self, key: str) -> None: ...

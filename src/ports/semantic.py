"""Semantic port: embeddings as bytes and cached vector namespaces, so the core never touches arrays."""

from collections.abc import Sequence
from typing import Protocol


class Semantic(Protocol):
    """Embeds texts and searches namespaces of vectors. Storage stays the source of truth:
    a namespace that is not loaded in this process is loaded from stored embeddings on demand."""

    embedder_name: str

    async def embed(self, texts: Sequence[str]) -> list[bytes]:
        """float32 unit vectors as bytes, one per text (batched, off the event loop)."""
        ...

    def count_tokens(self, text: str) -> int: ...

    @property
    def max_tokens(self) -> int: ...

    def loaded(self, namespace: str) -> bool: ...

    async def load(self, namespace: str, ids: Sequence[str], vectors: Sequence[bytes], groups: Sequence[str]) -> None:
        """Replaces the namespace with these vectors (a rebuild from storage)."""
        ...

    async def upsert(self, namespace: str, ids: Sequence[str], vectors: Sequence[bytes], groups: Sequence[str]) -> None:
        """Adds vectors to a loaded namespace; a namespace not loaded is left to load on demand."""
        ...

    async def remove(self, namespace: str, ids: Sequence[str]) -> None: ...

    async def search(self, namespace: str, query: bytes, k: int, group: str | None = None) -> list[tuple[str, float]]:
        """(id, cosine) best first, only vectors of `group` when given."""
        ...

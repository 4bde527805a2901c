"""Semantic port: embeddings as bytes and cached vector namespaces, so the core never touches arrays."""

from collections.abc import Sequence
from typing import Protocol


class Semantic(Protocol):
    """Embeds texts and searches namespaces of vectors. Storage stays the source of truth: a namespace is
    cached per process together with the stored version it reflects (see `core.services.vector_cache`), and
    a cache older than the stored version is reloaded before it is searched."""

    embedder_name: str

    async def embed(self, texts: Sequence[str]) -> list[bytes]:
        """float32 unit vectors as bytes, one per text (batched, off the event loop)."""
        ...

    def count_tokens(self, text: str) -> int: ...

    @property
    def max_tokens(self) -> int: ...

    def version(self, namespace: str) -> int | None:
        """The stored version the cached namespace reflects; None when it is not cached."""
        ...

    async def load(self, namespace: str, version: int, ids: Sequence[str], vectors: Sequence[bytes],
                   groups: Sequence[str]) -> None:
        """Replaces the cached namespace with these vectors, read from storage at `version` or later."""
        ...

    async def apply(self, namespace: str, version: int, *, ids: Sequence[str] = (), vectors: Sequence[bytes] = (),
                    groups: Sequence[str] = (), removed: Sequence[str] = ()) -> None:
        """A change this process committed as `version`: applied when the cache reflects `version - 1`
        exactly; otherwise the cache is already stale or newer, and is left for the next search to catch up."""
        ...

    async def catch_up(self, namespace: str, since: int, version: int, *, ids: Sequence[str] = (),
                       vectors: Sequence[bytes] = (), groups: Sequence[str] = (), removed: Sequence[str] = ()) -> None:
        """The rows changed after `since` up to `version`, read from storage (by anyone): applied when the cache
        still reflects `since`, and then it reflects `version`."""
        ...

    async def restore(self, namespace: str) -> int | None:
        """Loads the namespace from a local file when there is one (fast after a restart); returns the version
        it reflects, None when there was nothing to load."""
        ...

    def count(self, namespace: str) -> int:
        """Vectors cached in the namespace."""
        ...

    def discard(self, namespace: str, ids: Sequence[str]) -> None:
        """Drops vectors whose rows are gone although no version said so (deleted with their owner)."""
        ...

    def forget(self, namespace: str) -> None:
        """Drops the cached namespace (it is reloaded on next use)."""
        ...

    async def search(self, namespace: str, query: bytes, k: int, group: str | None = None) -> list[tuple[str, float]]:
        """(id, cosine) best first, only vectors of `group` when given."""
        ...

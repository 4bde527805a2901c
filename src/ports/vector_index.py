"""Vector index port: nearest neighbours by cosine similarity, in namespaces the Semantic adapter caches."""

from collections.abc import Sequence
from typing import Any, Protocol

from avatar_service.ports.embedder import Vectors


class VectorIndex(Protocol):
    """Vectors live in namespaces (one per user's memories, one per personality's knowledge).

    Each vector carries a `group` (the personality a memory is scoped to, or the knowledge item a chunk came
    from) so searches can be filtered without a second lookup. Every change is atomic to a concurrent search:
    it sees the namespace before the change or after it, never in between.
    """

    def replace(self, namespace: str, ids: Sequence[str], vectors: Vectors, groups: Sequence[str]) -> None:
        """The namespace holds exactly these rows from now on (none: as after `drop`)."""
        ...

    def update(self, namespace: str, removed: Sequence[str], ids: Sequence[str], vectors: Vectors,
               groups: Sequence[str]) -> None:
        """Deletes `removed`, then inserts or overwrites `ids`, as one change."""
        ...

    def drop(self, namespace: str) -> None:
        """Forgets the whole namespace."""
        ...

    def has(self, namespace: str) -> bool:
        """Whether the namespace is held (false again once dropped, or evicted under a memory bound)."""
        ...

    def count(self, namespace: str) -> int: ...

    def snapshot(self, namespace: str) -> tuple[list[str], Any, list[str]] | None:
        """(ids, float32 matrix, groups) as they are now, copies; None when the namespace is not held."""
        ...

    def search(self, namespace: str, query: Vectors, k: int, group: str | None = None) -> list[tuple[str, float]]:
        """The k best (id, cosine similarity) pairs, best first; only vectors of `group` when given."""
        ...

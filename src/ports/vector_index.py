"""Vector index port: exact or approximate nearest neighbours by cosine similarity."""

from collections.abc import Sequence
from typing import Protocol

from avatar_service.ports.embedder import Vectors


class VectorIndex(Protocol):
    """Vectors live in namespaces (e.g. one per user's memories, one per personality's knowledge).

    Each vector carries a `group` (e.g. the personality a memory is scoped to, or the knowledge
    item a chunk came from) so searches can be filtered without a second lookup.
    """

    def upsert(self, namespace: str, ids: Sequence[str], vectors: Vectors, groups: Sequence[str]) -> None: ...

    def delete(self, namespace: str, ids: Sequence[str]) -> None: ...

    def drop_group(self, namespace: str, group: str) -> None: ...

    def has(self, namespace: str) -> bool: ...

    def search(
        self, namespace: str, query: Vectors, k: int, group: str | None = None
    ) -> list[tuple[str, float]]:
        """The k best (id, cosine similarity) pairs, best first; only `group` when given."""
        ...

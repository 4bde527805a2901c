"""The Semantic port on an embedder plus a VectorIndex (the exact NumPy index by default), with vectors stored
as float32 bytes."""

import threading
from collections.abc import Sequence

import numpy as np

from avatar_service.adapters.numpy_index import NumpyVectorIndex
from avatar_service.ports.embedder import Embedder
from avatar_service.ports.offload import Offload
from avatar_service.ports.vector_index import VectorIndex

EMBED_BATCH = 64


class IndexedSemantic:
    """Embedding and search run on worker threads; the index itself is shared by the whole process.

    Each cached namespace remembers the stored version it reflects. A change is applied to the cache only
    when it is the very next version, under one lock with the version check, so a cache can never claim a
    version whose changes it lacks.
    """

    def __init__(self, embedder: Embedder, offload: Offload, index: VectorIndex | None = None) -> None:
        self.embedder = embedder
        self.embedder_name = embedder.name
        self.offload = offload
        self.index: VectorIndex = index or NumpyVectorIndex()
        self.dimensions = embedder.dimensions
        self._versions: dict[str, int] = {}
        self._lock = threading.Lock()

    def _embed(self, texts: Sequence[str]) -> list[bytes]:
        out: list[bytes] = []
        for start in range(0, len(texts), EMBED_BATCH):
            matrix = np.asarray(self.embedder.embed(texts[start:start + EMBED_BATCH]), dtype=np.float32)
            out += [row.tobytes() for row in matrix]
        return out

    async def embed(self, texts: Sequence[str]) -> list[bytes]:
        return await self.offload(self._embed, list(texts)) if texts else []

    def count_tokens(self, text: str) -> int:
        return self.embedder.count_tokens(text)

    @property
    def max_tokens(self) -> int:
        return self.embedder.max_tokens

    def _matrix(self, vectors: Sequence[bytes]) -> np.ndarray:
        if not vectors:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return np.frombuffer(b"".join(vectors), dtype=np.float32).reshape(len(vectors), -1)

    def version(self, namespace: str) -> int | None:
        with self._lock:
            return self._versions.get(namespace)

    async def load(self, namespace: str, version: int, ids: Sequence[str], vectors: Sequence[bytes],
                   groups: Sequence[str]) -> None:
        matrix = await self.offload(self._matrix, vectors)

        def rebuild() -> None:
            with self._lock:
                # Two loads may race; the one read at the later version wins.
                if self._versions.get(namespace, -1) > version:
                    return
                # One swap: searches that run meanwhile (they take only the index's lock) keep finding rows.
                self.index.replace(namespace, list(ids), matrix, list(groups))
                self._versions[namespace] = version

        await self.offload(rebuild)

    async def apply(self, namespace: str, version: int, *, ids: Sequence[str] = (), vectors: Sequence[bytes] = (),
                    groups: Sequence[str] = (), removed: Sequence[str] = ()) -> None:
        matrix = self._matrix(vectors)

        def change() -> None:
            with self._lock:
                if self._versions.get(namespace) != version - 1:
                    return  # not cached, stale (another process wrote) or already reloaded past this change
                self.index.update(namespace, list(removed), list(ids), matrix, list(groups))
                self._versions[namespace] = version

        await self.offload(change)

    def forget(self, namespace: str) -> None:
        with self._lock:
            self._versions.pop(namespace, None)
            self.index.drop(namespace)

    async def search(self, namespace: str, query: bytes, k: int, group: str | None = None) -> list[tuple[str, float]]:
        vector = np.frombuffer(query, dtype=np.float32)
        return await self.offload(self.index.search, namespace, vector, k, group)

"""The Semantic port on an embedder plus the exact NumPy index, with vectors stored as float32 bytes."""

from collections.abc import Sequence

import numpy as np

from avatar_service.adapters.numpy_index import NumpyVectorIndex
from avatar_service.ports.embedder import Embedder
from avatar_service.ports.offload import Offload

EMBED_BATCH = 64


class IndexedSemantic:
    """Embedding and search run on worker threads; the index itself is shared by the whole process."""

    def __init__(self, embedder: Embedder, offload: Offload, index: NumpyVectorIndex | None = None) -> None:
        self.embedder = embedder
        self.embedder_name = embedder.name
        self.offload = offload
        self.index = index or NumpyVectorIndex()
        self.dimensions = embedder.dimensions

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

    def loaded(self, namespace: str) -> bool:
        return self.index.has(namespace)

    async def load(self, namespace: str, ids: Sequence[str], vectors: Sequence[bytes], groups: Sequence[str]) -> None:
        def rebuild() -> None:
            self.index.drop(namespace)
            self.index.upsert(namespace, list(ids), self._matrix(vectors), list(groups))

        await self.offload(rebuild)

    async def upsert(self, namespace: str, ids: Sequence[str], vectors: Sequence[bytes], groups: Sequence[str]) -> None:
        if ids and self.index.has(namespace):
            await self.offload(self.index.upsert, namespace, list(ids), self._matrix(vectors), list(groups))

    async def remove(self, namespace: str, ids: Sequence[str]) -> None:
        if ids and self.index.has(namespace):
            self.index.delete(namespace, list(ids))

    async def search(self, namespace: str, query: bytes, k: int, group: str | None = None) -> list[tuple[str, float]]:
        vector = np.frombuffer(query, dtype=np.float32)
        return await self.offload(self.index.search, namespace, vector, k, group)

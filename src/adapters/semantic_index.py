"""The Semantic port on an embedder plus a VectorIndex (the in-process NumPy index by default), with vectors
stored as float32 bytes, and namespaces saved to local files so a restart loads them fast."""

import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from avatar_service.adapters.embedding_batches import EmbeddingBatches
from avatar_service.adapters.numpy_index import NumpyVectorIndex
from avatar_service.adapters.vector_files import VectorFiles
from avatar_service.ports.embedder import Embedder
from avatar_service.ports.offload import Offload
from avatar_service.ports.vector_index import VectorIndex

EMBED_BATCH = 64
FILE_FROM = 2000  # rows: smaller namespaces load from the database about as fast as from a file
FILE_AGAIN = 0.1  # a namespace's file is written again once this share of its rows changed since the last one


@dataclass
class CacheStats:
    """What the cache did since start: searches, and how many of them found their namespace in memory."""

    searches: int = 0
    full_loads: int = 0  # from the database, every row
    file_loads: int = 0  # from a file, then the changes since
    catch_ups: int = 0  # only the rows changed since the version held
    rows_loaded: int = 0
    rows_caught_up: int = 0

    @property
    def hit_rate(self) -> float:
        """Searches answered without loading the namespace (in full or from a file)."""
        return 1 - (self.full_loads + self.file_loads) / self.searches if self.searches else 0.0


class IndexedSemantic:
    """Embedding and search run on worker threads; the index itself is shared by the whole process.

    Each cached namespace remembers the stored version it reflects. A change is applied under one lock with
    the version check, so a cache can never claim a version whose changes it lacks.
    """

    def __init__(self, embedder: Embedder, offload: Offload, index: VectorIndex | None = None,
                 files: VectorFiles | None = None) -> None:
        self.embedder = embedder
        self.embedder_name = embedder.name
        self.offload = offload
        self.index: VectorIndex = index or NumpyVectorIndex()
        self.files = files
        self.dimensions = embedder.dimensions
        self.stats = CacheStats()
        self.batches = EmbeddingBatches(self._embed, offload)
        self._versions: dict[str, int] = {}
        self._changed_since_file: dict[str, int] = {}
        self._lock = threading.Lock()
        # Files are written one at a time, off the request threads (a 100k namespace is 150 MB).
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="vector-files") if files else None

    def _embed(self, texts: Sequence[str]) -> list[bytes]:
        out: list[bytes] = []
        for start in range(0, len(texts), EMBED_BATCH):
            matrix = np.asarray(self.embedder.embed(texts[start:start + EMBED_BATCH]), dtype=np.float32)
            out += [row.tobytes() for row in matrix]
        return out

    async def embed(self, texts: Sequence[str]) -> list[bytes]:
        return await self.batches.embed(texts) if texts else []

    def count_tokens(self, text: str) -> int:
        return self.embedder.count_tokens(text)

    @property
    def max_tokens(self) -> int:
        return self.embedder.max_tokens

    def _matrix(self, vectors: Sequence[bytes]) -> np.ndarray:
        if not vectors:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return np.frombuffer(b"".join(vectors), dtype=np.float32).reshape(len(vectors), -1)

    def _held(self, namespace: str) -> int | None:
        """Under the lock: the version held, None when not cached (never loaded, forgotten or evicted)."""
        version = self._versions.get(namespace)
        if version is not None and not self.index.has(namespace):
            del self._versions[namespace]  # evicted by the memory bound
            return None
        return version

    def version(self, namespace: str) -> int | None:
        with self._lock:
            return self._held(namespace)

    def count(self, namespace: str) -> int:
        return self.index.count(namespace)

    async def load(self, namespace: str, version: int, ids: Sequence[str], vectors: Sequence[bytes],
                   groups: Sequence[str]) -> None:
        matrix = await self.offload(self._matrix, vectors)

        def rebuild() -> None:
            with self._lock:
                # Two loads may race; the one read at the later version wins.
                if (self._held(namespace) or -1) > version:
                    return
                # One swap: searches that run meanwhile (they take only the index's lock) keep finding rows.
                self.index.replace(namespace, list(ids), matrix, list(groups))
                self._versions[namespace] = version
                self.stats.full_loads += 1
                self.stats.rows_loaded += len(ids)
            self._saved(namespace, len(ids), force=True)

        await self.offload(rebuild)

    async def apply(self, namespace: str, version: int, *, ids: Sequence[str] = (), vectors: Sequence[bytes] = (),
                    groups: Sequence[str] = (), removed: Sequence[str] = ()) -> None:
        await self.catch_up(namespace, version - 1, version, ids=ids, vectors=vectors, groups=groups,
                            removed=removed, counted=False)

    async def catch_up(self, namespace: str, since: int, version: int, *, ids: Sequence[str] = (),
                       vectors: Sequence[bytes] = (), groups: Sequence[str] = (), removed: Sequence[str] = (),
                       counted: bool = True) -> None:
        matrix = self._matrix(vectors)

        def change() -> None:
            with self._lock:
                if self._held(namespace) != since:
                    return  # not cached, or moved on meanwhile: the next search checks again
                self.index.update(namespace, list(removed), list(ids), matrix, list(groups))
                self._versions[namespace] = version
                if counted:
                    self.stats.catch_ups += 1
                    self.stats.rows_caught_up += len(ids) + len(removed)
            self._saved(namespace, len(ids) + len(removed))

        await self.offload(change)

    async def restore(self, namespace: str) -> int | None:
        """Loads the namespace's file, if there is one; returns the version it reflects."""
        if self.files is None:
            return None
        found = await self.offload(self.files.read, namespace, self.embedder_name)
        if found is None:
            return None
        version, ids, matrix, groups = found

        def install() -> int | None:
            with self._lock:
                if self._held(namespace) is not None:
                    return self._held(namespace)  # loaded meanwhile
                self.index.replace(namespace, ids, matrix, groups)
                self._versions[namespace] = version
                self._changed_since_file[namespace] = 0
                self.stats.file_loads += 1
                self.stats.rows_loaded += len(ids)
                return version

        return await self.offload(install)

    def _saved(self, namespace: str, changed: int, force: bool = False) -> None:
        """Writes the namespace's file again when it is big enough and enough changed since the last one."""
        if self.files is None or self._writer is None:
            return
        size = self.count(namespace)
        with self._lock:
            since = self._changed_since_file.get(namespace, 0) + changed
            due = size >= FILE_FROM and (force or since >= FILE_AGAIN * size)
            self._changed_since_file[namespace] = 0 if due else since
        if due:
            self._writer.submit(self._write, namespace)

    def _write(self, namespace: str) -> None:
        assert self.files is not None
        with self._lock:  # the rows and the version they reflect, taken together
            version = self._held(namespace)
            rows = self.index.snapshot(namespace) if version is not None else None
        if version is not None and rows is not None:
            self.files.write(namespace, self.embedder_name, version, *rows)

    def discard(self, namespace: str, ids: Sequence[str]) -> None:
        """Drops vectors whose rows are gone without a version (a deleted personality's memories)."""
        with self._lock:
            self.index.update(namespace, list(ids), [], np.zeros((0, self.dimensions), np.float32), [])

    def forget(self, namespace: str) -> None:
        with self._lock:
            self._versions.pop(namespace, None)
            self.index.drop(namespace)
        if self.files is not None:
            self.files.remove(namespace, self.embedder_name)

    async def search(self, namespace: str, query: bytes, k: int, group: str | None = None) -> list[tuple[str, float]]:
        self.stats.searches += 1
        vector = np.frombuffer(query, dtype=np.float32)
        return await self.offload(self.index.search, namespace, vector, k, group)

    def flush(self) -> None:
        """Waits for the files being written (benchmarks, tests)."""
        if self._writer is not None:
            self._writer.submit(lambda: None).result()

    def close(self) -> None:
        if self._writer is not None:
            self._writer.shutdown(wait=True)

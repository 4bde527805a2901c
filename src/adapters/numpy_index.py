"""The in-process vector index: namespaces of normalised float32 rows (cosine by dot product), searched
exactly, with an approximate index beside the rows of a namespace past `approximate_from` rows, and a memory
bound that evicts the least recently used namespaces.

A namespace past the threshold is searched exactly until its approximate index, built on a thread of its own
from a copy of the rows, is ready; changes made meanwhile are replayed on it before it is used. An evicted
namespace is simply gone: the Semantic adapter sees `has()` turn false and loads it again on next use.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np

from avatar_service.adapters.vector_space import Approximate, VectorSpace
from avatar_service.ports.embedder import Vectors

log = logging.getLogger(__name__)

DEFAULT_MEMORY_BYTES = 2048 * 1024 * 1024  # AVATAR_VECTOR_CACHE_MB
DEFAULT_APPROXIMATE_FROM = 200_000  # AVATAR_VECTOR_ANN_THRESHOLD: rows of one namespace
Builder = Callable[[int, np.ndarray, np.ndarray], Approximate]  # (dimensions, labels, matrix) -> index


def _as_matrix(vectors: Vectors, dimensions: int | None = None) -> np.ndarray:
    matrix = np.asarray(vectors, dtype=np.float32)
    if matrix.ndim == 1:
        matrix = matrix[None, :]
    if matrix.ndim != 2:
        raise ValueError(f"vectors must be 1-D or 2-D, got shape {matrix.shape}")
    if dimensions is not None and matrix.shape[1] != dimensions:
        raise ValueError(f"vectors have {matrix.shape[1]} dimensions, the namespace has {dimensions}")
    # Normalised again here so a caller's unnormalised vector cannot skew cosine scores. Vectors that are unit
    # already (the embedders' and the saved files') are kept as they are: dividing 100k rows made a second copy,
    # and norm() a third, half a second of a restored namespace's first search.
    norms = np.sqrt(np.einsum("ij,ij->i", matrix, matrix))[:, None]
    if np.all(np.abs(norms - 1.0) < 1e-4):
        return matrix
    return matrix / np.clip(norms, 1e-12, None)


class NumpyVectorIndex:
    """Thread-safe: one lock around every call (an exact search is a few milliseconds at 100k rows)."""

    def __init__(self, memory_bytes: int = DEFAULT_MEMORY_BYTES, approximate_from: int = DEFAULT_APPROXIMATE_FROM,
                 builder: Builder | None = None) -> None:
        self.memory_bytes, self.approximate_from = memory_bytes, approximate_from
        self.builder = builder
        self.evictions = 0
        self._spaces: OrderedDict[str, VectorSpace] = OrderedDict()  # least recently used first
        self._bytes: dict[str, int] = {}  # each namespace's size when it last changed
        self._lock = threading.Lock()
        self._building = threading.Semaphore(1)  # one build at a time: it takes a core for a while

    # --- changes ------------------------------------------------------------------------------------------

    def upsert(self, namespace: str, ids: Sequence[str], vectors: Vectors, groups: Sequence[str]) -> None:
        self.update(namespace, (), ids, vectors, groups)

    def update(self, namespace: str, removed: Sequence[str], ids: Sequence[str], vectors: Vectors,
               groups: Sequence[str]) -> None:
        """Deletes `removed`, then upserts `ids`, as one change: a concurrent search sees the namespace before or
        after it, never a refreshed item's old rows gone and its new ones not yet in."""
        if len(ids) != len(groups):
            raise ValueError("ids and groups differ in length")
        matrix = _as_matrix(vectors)
        if len(matrix) != len(ids):
            raise ValueError("ids and vectors differ in length")
        with self._lock:
            space = self._spaces.get(namespace)
            if space is not None:
                space.delete(removed)
            if ids:
                if space is None:
                    space = self._spaces[namespace] = VectorSpace(matrix.shape[1])
                elif matrix.shape[1] != space.dimensions:
                    raise ValueError(f"vectors have {matrix.shape[1]} dimensions, the namespace has "
                                     f"{space.dimensions}")
                space.upsert(ids, matrix, groups)
            self._settle(namespace)

    def replace(self, namespace: str, ids: Sequence[str], vectors: Vectors, groups: Sequence[str]) -> None:
        """The namespace holds exactly these rows from now on. Built aside and swapped in under the lock, so
        a concurrent search sees the old rows or the new ones, never an empty or half-filled namespace. A
        writable float32 matrix of unit rows is taken over, not copied: the caller must not change it after."""
        matrix = _as_matrix(vectors)
        if len(matrix) != len(ids) or len(ids) != len(groups):
            raise ValueError("ids, vectors and groups differ in length")
        built = VectorSpace(matrix.shape[1]) if ids else None
        if built is not None:
            built.fill(ids, matrix, groups)
        with self._lock:
            if built is not None:
                self._spaces[namespace] = built
                self._spaces.move_to_end(namespace)
                self._settle(namespace)
            else:  # no rows: as after drop()
                self._spaces.pop(namespace, None)

    def delete(self, namespace: str, ids: Sequence[str]) -> None:
        with self._lock:
            space = self._spaces.get(namespace)
            if space is not None:
                space.delete(ids)

    def drop_group(self, namespace: str, group: str) -> None:
        with self._lock:
            space = self._spaces.get(namespace)
            if space is not None:
                space.drop_group(group)

    def drop(self, namespace: str) -> None:
        """Forget a whole namespace (e.g. a deleted user's memories)."""
        with self._lock:
            self._spaces.pop(namespace, None)

    # --- the memory bound and approximate builds ----------------------------------------------------------

    def _settle(self, namespace: str) -> None:
        """Under the lock, after `namespace` grew: evict others past the bound, start a build if it is big."""
        space = self._spaces.get(namespace)
        self._bytes = {name: self._bytes.get(name, 0) for name in self._spaces}  # dropped ones go
        if space is not None:
            self._bytes[namespace] = space.nbytes
        total = sum(self._bytes.values())
        for name in list(self._spaces):
            if total <= self.memory_bytes:
                break
            if name == namespace:  # the one in use stays, even alone past the bound
                continue
            del self._spaces[name]
            total -= self._bytes.pop(name)
            self.evictions += 1
        if (space is not None and self.builder is not None and space.size >= self.approximate_from
                and space.approximate is None and not space.building):
            space.building = True
            labels, matrix = space.live()
            threading.Thread(target=self._build, args=(namespace, space, labels, matrix), daemon=True,
                             name=f"approximate index {namespace}").start()

    def _build(self, namespace: str, space: VectorSpace, labels: np.ndarray, matrix: np.ndarray) -> None:
        assert self.builder is not None
        try:
            with self._building:
                built = self.builder(space.dimensions, labels, matrix)
        except Exception:
            log.exception("approximate index for %s failed; it is searched exactly", namespace)
            with self._lock:
                space.building, space.pending = False, []
            return
        with self._lock:
            current = self._spaces.get(namespace)
            if current is space:  # not replaced, dropped or evicted meanwhile
                current.attach(built)
            else:
                space.building, space.pending = False, []

    def attach(self, namespace: str, approximate: Approximate) -> bool:
        """An approximate index loaded from disk for the rows the namespace holds now."""
        with self._lock:
            space = self._spaces.get(namespace)
            if space is None or space.approximate is not None or space.building:
                return False
            space.attach(approximate)
            return True

    # --- reads --------------------------------------------------------------------------------------------

    def has(self, namespace: str) -> bool:
        """True once the namespace was written to, even if it is empty now, until it is dropped or evicted."""
        with self._lock:
            return namespace in self._spaces

    def count(self, namespace: str) -> int:
        with self._lock:
            space = self._spaces.get(namespace)
            return space.size if space else 0

    def approximate(self, namespace: str) -> bool:
        """Whether searches of the namespace use its approximate index now."""
        with self._lock:
            space = self._spaces.get(namespace)
            return space is not None and space.approximate is not None

    def memory(self) -> int:
        with self._lock:
            return sum(space.nbytes for space in self._spaces.values())

    def namespaces(self) -> list[str]:
        """The cached namespaces, least recently used first."""
        with self._lock:
            return list(self._spaces)

    def snapshot(self, namespace: str) -> tuple[list[str], np.ndarray, list[str]] | None:
        """(ids, matrix, groups) as they are now, copies, for a file on disk."""
        with self._lock:
            space = self._spaces.get(namespace)
            if space is None:
                return None
            names = {code: group for group, code in space.codes.items()}
            groups = [names[int(code)] for code in space.group_codes[: space.size]]
            return list(space.ids), space.matrix[: space.size].copy(), groups

    def search(self, namespace: str, query: Vectors, k: int, group: str | None = None) -> list[tuple[str, float]]:
        if k <= 0:
            return []
        with self._lock:
            space = self._spaces.get(namespace)
            if space is None or space.size == 0:
                return []
            self._spaces.move_to_end(namespace)
            return space.search(_as_matrix(query, space.dimensions)[0], k, group)

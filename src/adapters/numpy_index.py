"""Exact in-process vector index: one normalised float32 matrix per namespace, cosine by dot product."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from avatar_service.ports.embedder import Vectors

_INITIAL_ROWS = 64


class _Namespace:
    """Rows 0..size-1 of `matrix` are live; deletes move the last row into the hole so rows stay dense."""

    def __init__(self, dimensions: int) -> None:
        self.dimensions = dimensions
        self.matrix = np.zeros((_INITIAL_ROWS, dimensions), dtype=np.float32)
        # Groups as small integer codes, so a filtered search is one vectorised comparison.
        self.group_codes = np.zeros(_INITIAL_ROWS, dtype=np.int32)
        self.ids: list[str] = []
        self.rows: dict[str, int] = {}
        self.codes: dict[str, int] = {}
        self.size = 0

    def code(self, group: str) -> int:
        return self.codes.setdefault(group, len(self.codes))

    def reserve(self, extra: int) -> None:
        need = self.size + extra
        if need <= len(self.matrix):
            return
        capacity = max(need, 2 * len(self.matrix))  # doubling: amortised O(1) appends
        matrix = np.zeros((capacity, self.dimensions), dtype=np.float32)
        matrix[: self.size] = self.matrix[: self.size]
        codes = np.zeros(capacity, dtype=np.int32)
        codes[: self.size] = self.group_codes[: self.size]
        self.matrix, self.group_codes = matrix, codes

    def remove_row(self, row: int) -> None:
        last = self.size - 1
        removed = self.ids[row]
        if row != last:
            moved = self.ids[last]
            self.matrix[row] = self.matrix[last]
            self.group_codes[row] = self.group_codes[last]
            self.ids[row] = moved
            self.rows[moved] = row
        self.ids.pop()
        del self.rows[removed]
        self.size = last


def _as_matrix(vectors: Vectors, dimensions: int | None = None) -> np.ndarray:
    matrix = np.asarray(vectors, dtype=np.float32)
    if matrix.ndim == 1:
        matrix = matrix[None, :]
    if matrix.ndim != 2:
        raise ValueError(f"vectors must be 1-D or 2-D, got shape {matrix.shape}")
    if dimensions is not None and matrix.shape[1] != dimensions:
        raise ValueError(f"vectors have {matrix.shape[1]} dimensions, the namespace has {dimensions}")
    # Normalised again here so a caller's unnormalised vector cannot skew cosine scores.
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.clip(norms, 1e-12, None)


class NumpyVectorIndex:
    """Exact nearest neighbours; thread-safe (one lock; searches are a few milliseconds at 100k rows)."""

    def __init__(self) -> None:
        self._spaces: dict[str, _Namespace] = {}
        self._lock = threading.Lock()

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
            self._delete(namespace, removed)
            if ids:
                self._upsert(namespace, ids, matrix, groups)

    def _upsert(self, namespace: str, ids: Sequence[str], matrix: np.ndarray, groups: Sequence[str]) -> None:
        space = self._spaces.get(namespace)
        if space is None:
            space = self._spaces[namespace] = _Namespace(matrix.shape[1])
        elif matrix.shape[1] != space.dimensions:
            raise ValueError(f"vectors have {matrix.shape[1]} dimensions, the namespace has {space.dimensions}")
        space.reserve(len(ids))
        rows = np.empty(len(ids), dtype=np.int64)
        for i, vector_id in enumerate(ids):
            row = space.rows.get(vector_id)
            if row is None:
                row = space.size
                space.ids.append(vector_id)
                space.rows[vector_id] = row
                space.size += 1
            rows[i] = row
        # One scatter each (a repeated id keeps its last vector, as sequential upserts would).
        space.matrix[rows] = matrix
        space.group_codes[rows] = [space.code(group) for group in groups]

    def replace(self, namespace: str, ids: Sequence[str], vectors: Vectors, groups: Sequence[str]) -> None:
        """The namespace holds exactly these rows from now on. Built aside and swapped in under the lock, so
        a concurrent search sees the old rows or the new ones, never an empty or half-filled namespace."""
        built = NumpyVectorIndex()
        built.upsert(namespace, ids, vectors, groups)
        with self._lock:
            if namespace in built._spaces:
                self._spaces[namespace] = built._spaces[namespace]
            else:  # no rows: as after drop()
                self._spaces.pop(namespace, None)

    def delete(self, namespace: str, ids: Sequence[str]) -> None:
        with self._lock:
            self._delete(namespace, ids)

    def _delete(self, namespace: str, ids: Sequence[str]) -> None:
        space = self._spaces.get(namespace)
        if space is None:
            return
        for vector_id in ids:
            row = space.rows.get(vector_id)
            if row is not None:
                space.remove_row(row)

    def drop_group(self, namespace: str, group: str) -> None:
        with self._lock:
            space = self._spaces.get(namespace)
            if space is None or group not in space.codes:
                return
            rows = np.flatnonzero(space.group_codes[: space.size] == space.codes[group])
            # Highest rows first: a removal moves the last row down, and every match above has gone already.
            for row in rows[::-1]:
                space.remove_row(int(row))

    def drop(self, namespace: str) -> None:
        """Forget a whole namespace (e.g. a deleted user's memories)."""
        with self._lock:
            self._spaces.pop(namespace, None)

    def has(self, namespace: str) -> bool:
        """True once the namespace was written to, even if it is empty now: callers load it only once."""
        with self._lock:
            return namespace in self._spaces

    def count(self, namespace: str) -> int:
        with self._lock:
            space = self._spaces.get(namespace)
            return space.size if space else 0

    def search(self, namespace: str, query: Vectors, k: int, group: str | None = None) -> list[tuple[str, float]]:
        if k <= 0:
            return []
        with self._lock:
            space = self._spaces.get(namespace)
            if space is None or space.size == 0:
                return []
            q = _as_matrix(query, space.dimensions)[0]
            if group is None:
                candidates = None
                scores = space.matrix[: space.size] @ q
            else:
                code = space.codes.get(group)
                if code is None:
                    return []
                candidates = np.flatnonzero(space.group_codes[: space.size] == code)
                if len(candidates) == 0:
                    return []
                if 4 * len(candidates) > space.size:
                    # Scoring everything beats copying most of the matrix out to score a subset.
                    scores = (space.matrix[: space.size] @ q)[candidates]
                else:
                    scores = space.matrix[candidates] @ q
            top = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
            top = top[np.argsort(-scores[top], kind="stable")]
            rows = top if candidates is None else candidates[top]
            return [(space.ids[int(r)], float(s)) for r, s in zip(rows, scores[top], strict=True)]

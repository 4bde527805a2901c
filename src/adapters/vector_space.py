"""One cached vector namespace: a dense float32 matrix searched exactly, and above a size threshold an
approximate index (HNSW) kept beside it.

Rows 0..size-1 of `matrix` are live; a delete moves the last row into the hole so rows stay dense. Each vector
also has a stable integer label (rows move, labels do not): the approximate index knows vectors by label.
Not thread-safe on its own: `NumpyVectorIndex` holds one lock around every call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

_INITIAL_ROWS = 64
OVERSAMPLE = 4  # a filtered approximate search asks for this many times k, then keeps the group's
CANDIDATES = 2  # an unfiltered one asks for twice k, and the exact scores of those pick the k best


class Approximate(Protocol):
    """An approximate nearest-neighbour index over (label, unit vector) pairs, inner product."""

    nbytes: int

    def add(self, labels: np.ndarray, matrix: np.ndarray) -> None: ...

    def remove(self, labels: np.ndarray) -> None: ...

    def search(self, query: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """(labels, similarities) best first."""
        ...


class VectorSpace:
    def __init__(self, dimensions: int) -> None:
        self.dimensions = dimensions
        self.matrix = np.zeros((_INITIAL_ROWS, dimensions), dtype=np.float32)
        # Groups as small integer codes, so a filtered search is one vectorised comparison.
        self.group_codes = np.zeros(_INITIAL_ROWS, dtype=np.int32)
        self.labels = np.zeros(_INITIAL_ROWS, dtype=np.int64)
        self.ids: list[str] = []
        self.rows: dict[str, int] = {}
        self.codes: dict[str, int] = {}
        self.by_label: dict[int, str] = {}
        self.next_label = 0
        self.size = 0
        self.approximate: Approximate | None = None
        self.building = False
        self.pending: list[tuple[str, np.ndarray, np.ndarray | None]] = []  # changes made while one is built

    @property
    def nbytes(self) -> int:
        """Memory held, roughly: the arrays plus about 200 bytes per id for the dicts and strings."""
        held = self.matrix.nbytes + self.group_codes.nbytes + self.labels.nbytes + 200 * self.size
        return held + (self.approximate.nbytes if self.approximate is not None else 0)

    def code(self, group: str) -> int:
        return self.codes.setdefault(group, len(self.codes))

    def reserve(self, extra: int) -> None:
        need = self.size + extra
        if need <= len(self.matrix):
            return
        capacity = max(need, 2 * len(self.matrix))  # doubling: amortised O(1) appends
        for name in ("matrix", "group_codes", "labels"):
            old = getattr(self, name)
            grown = np.zeros((capacity, *old.shape[1:]), dtype=old.dtype)
            grown[: self.size] = old[: self.size]
            setattr(self, name, grown)

    def live(self) -> tuple[np.ndarray, np.ndarray]:
        """(labels, matrix) of every live row, copies (an approximate index is built from them)."""
        return self.labels[: self.size].copy(), self.matrix[: self.size].copy()

    # --- changes ------------------------------------------------------------------------------------------

    def fill(self, ids: Sequence[str], matrix: np.ndarray, groups: Sequence[str]) -> None:
        """An empty space takes these rows at once (a load or a file restored): the same state `upsert` leaves,
        built with whole-array operations instead of a step per row (1.1 s of Python at 100k rows)."""
        assert self.size == 0, "fill is for an empty space"
        last = {vector_id: i for i, vector_id in enumerate(ids)}  # a repeated id keeps its last
        if len(last) != len(ids):
            keep = list(last.values())
            ids, matrix, groups = [ids[i] for i in keep], matrix[keep], [groups[i] for i in keep]
        n = len(ids)
        names, codes = np.unique(np.asarray(groups, dtype=object), return_inverse=True)
        self.codes = {str(name): code for code, name in enumerate(names)}
        # The rows are taken as they are when they can be written to (the caller hands them over: a file read or
        # a load just made them); read-only ones (a buffer of stored bytes) are copied.
        usable = matrix.flags.writeable and matrix.flags.c_contiguous and matrix.dtype == np.float32
        self.matrix = matrix if usable else np.array(matrix, dtype=np.float32)
        self.group_codes = codes.astype(np.int32)
        self.labels = np.arange(n, dtype=np.int64)
        self.ids = list(ids)
        self.rows = dict(zip(self.ids, range(n), strict=True))
        self.by_label = dict(enumerate(self.ids))
        self.next_label = self.size = n  # no approximate index yet: a new space has none and builds none

    def upsert(self, ids: Sequence[str], matrix: np.ndarray, groups: Sequence[str]) -> None:
        last = list({vector_id: i for i, vector_id in enumerate(ids)}.values())  # a repeated id keeps its last
        if len(last) != len(ids):
            ids, matrix, groups = [ids[i] for i in last], matrix[last], [groups[i] for i in last]
        self.reserve(len(ids))
        rows = np.empty(len(ids), dtype=np.int64)
        replaced: list[int] = []
        for i, vector_id in enumerate(ids):
            row = self.rows.get(vector_id)
            if row is None:
                row = self.size
                self.ids.append(vector_id)
                self.rows[vector_id] = row
                self.size += 1
            else:
                replaced.append(int(self.labels[row]))
                del self.by_label[int(self.labels[row])]
            self.labels[row] = self.next_label
            self.by_label[self.next_label] = vector_id
            self.next_label += 1
            rows[i] = row
        self.matrix[rows] = matrix
        self.group_codes[rows] = [self.code(group) for group in groups]
        self._approximately("remove", np.array(replaced, dtype=np.int64), None)
        self._approximately("add", self.labels[rows].copy(), self.matrix[rows].copy())

    def delete(self, ids: Sequence[str]) -> None:
        removed = []
        for vector_id in ids:
            row = self.rows.get(vector_id)
            if row is not None:
                removed.append(int(self.labels[row]))
                self._remove_row(row)
        if removed:
            self._approximately("remove", np.array(removed, dtype=np.int64), None)

    def drop_group(self, group: str) -> None:
        if group not in self.codes:
            return
        rows = np.flatnonzero(self.group_codes[: self.size] == self.codes[group])
        labels = self.labels[rows].copy()
        # Highest rows first: a removal moves the last row down, and every match above has gone already.
        for row in rows[::-1]:
            self._remove_row(int(row))
        self._approximately("remove", labels, None)

    def _remove_row(self, row: int) -> None:
        last = self.size - 1
        removed = self.ids[row]
        del self.by_label[int(self.labels[row])]
        if row != last:
            moved = self.ids[last]
            self.matrix[row] = self.matrix[last]
            self.group_codes[row] = self.group_codes[last]
            self.labels[row] = self.labels[last]
            self.ids[row] = moved
            self.rows[moved] = row
        self.ids.pop()
        del self.rows[removed]
        self.size = last

    def _approximately(self, change: str, labels: np.ndarray, matrix: np.ndarray | None) -> None:
        if len(labels) == 0:
            return
        if self.building:
            self.pending.append((change, labels, matrix))
        if self.approximate is not None:
            if change == "add":
                self.approximate.add(labels, matrix)  # type: ignore[arg-type]
            else:
                self.approximate.remove(labels)

    def attach(self, approximate: Approximate) -> None:
        """An index built from `live()` a while ago: the changes made since are replayed on it first."""
        for change, labels, matrix in self.pending:
            if change == "add":
                approximate.add(labels, matrix)  # type: ignore[arg-type]
            else:
                approximate.remove(labels)
        self.pending.clear()
        self.building = False
        self.approximate = approximate

    # --- search -------------------------------------------------------------------------------------------

    def search(self, q: np.ndarray, k: int, group: str | None) -> list[tuple[str, float]]:
        if self.size == 0:
            return []
        code = None
        if group is not None:
            code = self.codes.get(group)
            if code is None:
                return []
        if self.approximate is not None:
            found = self._search_approximately(q, k, code)
            if found is not None:
                return found
        return self._search_exactly(q, k, code)

    def _search_exactly(self, q: np.ndarray, k: int, code: int | None) -> list[tuple[str, float]]:
        if code is None:
            candidates = None
            scores = self.matrix[: self.size] @ q
        else:
            candidates = np.flatnonzero(self.group_codes[: self.size] == code)
            if len(candidates) == 0:
                return []
            if 4 * len(candidates) > self.size:
                # Scoring everything beats copying most of the matrix out to score a subset.
                scores = (self.matrix[: self.size] @ q)[candidates]
            else:
                scores = self.matrix[candidates] @ q
        top = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
        top = top[np.argsort(-scores[top], kind="stable")]
        rows = top if candidates is None else candidates[top]
        return [(self.ids[int(r)], float(s)) for r, s in zip(rows, scores[top], strict=True)]

    def _search_approximately(self, q: np.ndarray, k: int, code: int | None) -> list[tuple[str, float]] | None:
        """None when a group filter leaves fewer than k: the exact scan of the group answers instead."""
        assert self.approximate is not None
        labels, _ = self.approximate.search(q, k * (CANDIDATES if code is None else OVERSAMPLE))
        rows = [self.rows[vector_id] for label in labels.tolist()
                if (vector_id := self.by_label.get(int(label))) is not None]
        if code is not None:
            rows = [row for row in rows if self.group_codes[row] == code]
            if len(rows) < min(k, self.size):
                return None
        # Scored again exactly from the float32 rows: the index may keep its vectors in lower precision.
        picked = np.array(rows, dtype=np.int64)
        scores = self.matrix[picked] @ q
        order = np.argsort(-scores, kind="stable")[:k]
        return [(self.ids[int(picked[i])], float(scores[i])) for i in order]


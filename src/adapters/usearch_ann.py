"""The approximate index of a large vector namespace: HNSW from usearch (Unum, Apache-2.0), inner product over
unit vectors kept in float16 (half the memory of the rows; the caller scores the candidates again exactly
from its float32 rows)."""

from __future__ import annotations

import os

import numpy as np
import onnxruntime  # noqa: F401  before usearch: the other order crashes the process (see below)
from usearch.index import Index

# usearch 2.26 then onnxruntime 1.32, imported in that order into a fresh interpreter, is a segmentation fault at
# onnxruntime's import; the other order works. The service happened to load onnxruntime first (the embedder),
# but a process on the lexical embedder that later loaded a model, or an application that imported this module
# first, would crash. tests/unit/retrieval/test_vector_cache_scale.py checks the order.

CONNECTIVITY = 16  # HNSW's M
EXPANSION_ADD = 128  # efConstruction
# ef: recall@10 against exact search at 1M rows 0.927 / 0.959 / 0.975 / 0.985 at ef 512 / 768 / 1024 / 1536, p99
# 10 / 14 / 16.5 / 24 ms (2026-11-28, one build, bench/retrieval.py's vectors); the misses were the graph's, not
# float16's: re-scoring 4x k candidates instead of 2x found no more.
EXPANSION_SEARCH = 1024


class UsearchIndex:
    def __init__(self, dimensions: int, expansion_search: int = EXPANSION_SEARCH) -> None:
        self.index = Index(ndim=dimensions, metric="ip", dtype="f16", connectivity=CONNECTIVITY,
                           expansion_add=EXPANSION_ADD, expansion_search=expansion_search)

    @property
    def nbytes(self) -> int:
        return int(self.index.memory_usage)

    def __len__(self) -> int:
        return len(self.index)

    def add(self, labels: np.ndarray, matrix: np.ndarray, threads: int = 1) -> None:
        if len(labels):
            self.index.add(labels.astype(np.uint64), matrix, threads=threads)

    def remove(self, labels: np.ndarray) -> None:
        if len(labels):
            self.index.remove(labels.astype(np.uint64))

    def search(self, query: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        found = self.index.search(query, k, threads=1)
        return found.keys.astype(np.int64), 1.0 - found.distances  # usearch's "ip" distance is 1 - dot


def build(dimensions: int, labels: np.ndarray, matrix: np.ndarray) -> UsearchIndex:
    """An index over these rows, built with every core (it runs on a thread of its own, once per namespace)."""
    index = UsearchIndex(dimensions)
    index.add(labels, matrix, threads=os.cpu_count() or 1)
    return index

"""A cached namespace rebuilt while searches run: every search in between still finds what is stored.

After a restart, or once another process wrote, each search that finds the cache behind rebuilds the
namespace; the rebuild dropped the namespace and then filled it again, so a search landing in between
(another request that had just checked the version) found nothing at all. Found by the kill -9 durability
loop: a ready knowledge item missing from the first searches after a restart.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from avatar_service.adapters.numpy_index import NumpyVectorIndex
from avatar_service.adapters.semantic_index import IndexedSemantic
from avatar_service.ports.embedder import Vectors


class Watched(NumpyVectorIndex):
    """Searches the namespace after every change made to it: what a concurrent search could see."""

    def __init__(self, query: np.ndarray) -> None:
        super().__init__()
        self.query, self.seen = query, []

    def _look(self, namespace: str) -> None:
        self.seen.append([ident for ident, _ in self.search(namespace, self.query, 1)])

    def upsert(self, namespace: str, ids: Sequence[str], vectors: Vectors, groups: Sequence[str]) -> None:
        super().upsert(namespace, ids, vectors, groups)
        self._look(namespace)

    def drop(self, namespace: str) -> None:
        super().drop(namespace)
        self._look(namespace)

    def replace(self, namespace: str, ids: Sequence[str], vectors: Vectors, groups: Sequence[str]) -> None:
        super().replace(namespace, ids, vectors, groups)
        self._look(namespace)


class Embedder:
    name, dimensions, max_tokens = "fixed", 4, 256


async def inline(fn: Callable[..., Any], *args: Any) -> Any:
    return fn(*args)


async def test_a_rebuild_never_shows_a_search_an_empty_namespace() -> None:
    vectors = np.eye(4, dtype=np.float32)
    ids, groups = ["c0", "c1", "c2", "c3"], ["kb"] * 4
    stored = [row.tobytes() for row in vectors]
    index = Watched(query=vectors[2])
    semantic = IndexedSemantic(Embedder(), inline, index)  # type: ignore[arg-type]
    await semantic.load("ns", 1, ids, stored, groups)
    index.seen.clear()
    await semantic.load("ns", 1, ids, stored, groups)  # a second search that found the cache behind too
    await semantic.load("ns", 2, ids, stored, groups)  # another process wrote meanwhile
    assert index.seen and all(seen == ["c2"] for seen in index.seen), index.seen
    assert semantic.version("ns") == 2


def test_replace_swaps_the_rows_and_an_empty_set_forgets_the_namespace() -> None:
    index = NumpyVectorIndex()
    index.upsert("ns", ["a", "b"], np.eye(4, dtype=np.float32)[:2], ["g", "g"])
    index.replace("ns", ["c"], np.eye(4, dtype=np.float32)[2:3], ["h"])
    assert [ident for ident, _ in index.search("ns", np.eye(4, dtype=np.float32)[0], 5)] == ["c"]
    assert index.count("ns") == 1
    index.replace("ns", [], np.zeros((0, 4), dtype=np.float32), [])
    assert not index.has("ns")


class WatchedChanges(Watched):
    """Also looks after each delete: a change made as a delete and then an upsert shows the gap between them."""

    def delete(self, namespace: str, ids: Sequence[str]) -> None:
        super().delete(namespace, ids)
        self._look(namespace)

    def update(self, namespace: str, removed: Sequence[str], ids: Sequence[str], vectors: Vectors,
               groups: Sequence[str]) -> None:
        super().update(namespace, removed, ids, vectors, groups)
        self._look(namespace)


async def test_a_refresh_never_shows_a_search_the_item_gone() -> None:
    """A refreshed knowledge item's old chunks go and its new ones come in one change of the index."""
    vectors = np.eye(4, dtype=np.float32)
    index = WatchedChanges(query=vectors[2])
    semantic = IndexedSemantic(Embedder(), inline, index)  # type: ignore[arg-type]
    await semantic.load("ns", 1, ["c0", "c2"], [vectors[0].tobytes(), vectors[2].tobytes()], ["kb0", "kb2"])
    index.seen.clear()
    refreshed = (vectors[2] + 0.1 * vectors[3]).astype(np.float32)
    await semantic.apply("ns", 2, ids=["c2-new"], vectors=[refreshed.tobytes()], groups=["kb2"], removed=["c2"])
    assert index.seen == [["c2-new"]], index.seen
    assert [ident for ident, _ in await semantic.search("ns", vectors[2].tobytes(), 5)] == ["c2-new", "c0"]

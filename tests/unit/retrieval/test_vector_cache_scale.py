"""The vector cache at scale: the memory bound evicts the least recently used namespaces, and a namespace past
the threshold is searched through its approximate (HNSW) index with recall@10 ≥ 0.95 against exact search,
changes included."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from avatar_service.adapters.numpy_index import NumpyVectorIndex
from avatar_service.adapters.semantic_index import IndexedSemantic
from avatar_service.adapters.usearch_ann import build


def unit(matrix: np.ndarray) -> np.ndarray:
    return (matrix / np.linalg.norm(matrix, axis=1, keepdims=True)).astype(np.float32)


def embedding_like(rng: np.random.Generator, n: int, dims: int = 64) -> np.ndarray:
    """Vectors of a low intrinsic dimension, as sentence embeddings are (uniform random ones are not)."""
    basis = rng.standard_normal((12, dims))
    return unit(rng.standard_normal((n, 12)) @ basis + 0.3 * rng.standard_normal((n, dims)))


class Embedder:
    name, dimensions, max_tokens = "fixed", 8, 256


async def inline(fn: Callable[..., Any], *args: Any) -> Any:
    return fn(*args)


async def test_the_least_recently_used_namespace_goes_past_the_bound() -> None:
    rng = np.random.default_rng(1)
    one = unit(rng.standard_normal((1000, 8)))
    size = 1000 * 8 * 4 + 1000 * (4 + 8 + 200)  # what one namespace of 1000 rows holds (VectorSpace.nbytes)
    index = NumpyVectorIndex(memory_bytes=int(2.5 * size))
    semantic = IndexedSemantic(Embedder(), inline, index)  # type: ignore[arg-type]
    ids = [f"v{i}" for i in range(1000)]
    for name in ("a", "b"):
        await semantic.load(name, 1, ids, [row.tobytes() for row in one], ["g"] * 1000)
    await semantic.search("a", one[0].tobytes(), 1)  # a is used: b is now the least recently used
    await semantic.load("c", 1, ids, [row.tobytes() for row in one], ["g"] * 1000)
    assert index.namespaces() == ["a", "c"] and index.evictions == 1
    assert semantic.version("b") is None  # evicted: the next search loads it again
    assert semantic.version("a") == 1 and semantic.version("c") == 1
    assert index.memory() <= 2.5 * size


async def test_a_namespace_bigger_than_the_bound_still_serves() -> None:
    index = NumpyVectorIndex(memory_bytes=1000)
    matrix = unit(np.random.default_rng(2).standard_normal((500, 8)))
    index.replace("big", [f"v{i}" for i in range(500)], matrix, ["g"] * 500)
    assert index.search("big", matrix[7], 1)[0][0] == "v7"


def wait_for(condition: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the approximate index was not built in time"
        time.sleep(0.05)


def recall(index: NumpyVectorIndex, matrix: np.ndarray, ids: list[str], queries: np.ndarray) -> float:
    found = 0
    for query in queries:
        exact = {ids[int(i)] for i in np.argsort(-(matrix @ query))[:10]}
        found += len(exact & {ident for ident, _ in index.search("kb", query, 10)})
    return found / (10 * len(queries))


def test_past_the_threshold_the_approximate_index_answers_with_high_recall() -> None:
    rng = np.random.default_rng(7)
    matrix = embedding_like(rng, 6000)
    ids = [f"c{i}" for i in range(6000)]
    index = NumpyVectorIndex(approximate_from=5000, builder=build)
    index.replace("kb", ids[:4000], matrix[:4000], ["item"] * 4000)
    assert not index.approximate("kb")  # below the threshold: exact
    index.upsert("kb", ids[4000:], matrix[4000:], ["item"] * 2000)  # crosses it: built on a thread
    index.update("kb", ["c1", "c2"], [], np.zeros((0, 64), np.float32), [])  # changes while it is built
    wait_for(lambda: index.approximate("kb"))
    live = [i for i in range(6000) if i not in (1, 2)]
    queries = unit(matrix[rng.integers(0, 6000, 50)] + 0.2 * rng.standard_normal((50, 64)))
    assert recall(index, matrix[live], [ids[i] for i in live], queries) >= 0.95
    # Changes after the build reach the approximate index: an update, a delete, an insert.
    index.upsert("kb", ["c10", "new"], unit(-matrix[[20, 30]]), ["item", "other"])
    assert index.search("kb", -matrix[20], 1)[0][0] == "c10"
    assert index.search("kb", -matrix[30], 1)[0][0] == "new"
    assert index.search("kb", -matrix[30], 1, group="other")[0][0] == "new"
    index.delete("kb", ["new"])
    assert "new" not in {ident for ident, _ in index.search("kb", -matrix[30], 10)}
    assert all(ident not in ("c1", "c2") for q in matrix[[1, 2]] for ident, _ in index.search("kb", q, 10))


def test_the_approximate_index_can_be_imported_before_the_models() -> None:
    """usearch imported before onnxruntime crashed the interpreter (a segmentation fault); the adapter loads them
    in the order that works, so importing it first and a model's runtime later is safe."""
    done = subprocess.run([sys.executable, "-c", "import avatar_service.adapters.usearch_ann; import onnxruntime"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])

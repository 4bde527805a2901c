"""NumpyVectorIndex: exact cosine search, upserts, deletes, groups, growth, threads and speed."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from avatar_service.adapters.numpy_index import NumpyVectorIndex


def unit(rows: int, dims: int = 8, seed: int = 0) -> np.ndarray:
    vectors = np.random.default_rng(seed).standard_normal((rows, dims)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def brute(vectors: np.ndarray, query: np.ndarray, k: int) -> list[int]:
    return list(np.argsort(-(vectors @ query), kind="stable")[:k])


def test_search_is_exact_and_best_first() -> None:
    index = NumpyVectorIndex()
    vectors = unit(500)
    index.upsert("ns", [f"v{i}" for i in range(500)], vectors, ["g"] * 500)
    query = unit(1, seed=1)[0]
    hits = index.search("ns", query, 10)
    assert [h for h, _ in hits] == [f"v{i}" for i in brute(vectors, query, 10)]
    assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)
    assert hits[0][1] == pytest.approx(float(np.max(vectors @ query)), abs=1e-5)


def test_accepts_unnormalised_and_2d_queries() -> None:
    index = NumpyVectorIndex()
    index.upsert("ns", ["a", "b"], np.array([[3.0, 0.0], [0.0, 0.5]]), ["g", "g"])
    hits = index.search("ns", np.array([[10.0, 1.0]]), 2)
    assert hits[0][0] == "a"
    assert hits[0][1] == pytest.approx(10 / np.sqrt(101), abs=1e-6)


def test_upsert_replaces_vector_and_group() -> None:
    index = NumpyVectorIndex()
    index.upsert("ns", ["a", "b"], np.eye(2), ["g1", "g1"])
    index.upsert("ns", ["a"], np.array([[0.0, 1.0]]), ["g2"])
    assert index.count("ns") == 2
    assert index.search("ns", np.array([1.0, 0.0]), 5, group="g1") == [("b", pytest.approx(0.0))]
    assert index.search("ns", np.array([0.0, 1.0]), 1, group="g2") == [("a", pytest.approx(1.0))]


def test_delete_keeps_the_other_rows_right() -> None:
    index = NumpyVectorIndex()
    vectors = unit(50)
    ids = [f"v{i}" for i in range(50)]
    index.upsert("ns", ids, vectors, ["g"] * 50)
    index.delete("ns", ["v0", "v10", "v49", "missing"])
    kept = [i for i in range(50) if i not in (0, 10, 49)]
    for i in kept[:10]:
        assert index.search("ns", vectors[i], 1)[0] == (f"v{i}", pytest.approx(1.0, abs=1e-5))
    assert index.count("ns") == 47
    found = {h for h, _ in index.search("ns", vectors[0], 100)}
    assert found == {f"v{i}" for i in kept}


def test_groups_filter_and_drop() -> None:
    index = NumpyVectorIndex()
    vectors = unit(30)
    groups = [f"g{i % 3}" for i in range(30)]
    index.upsert("ns", [f"v{i}" for i in range(30)], vectors, groups)
    query = vectors[4]
    hits = index.search("ns", query, 30, group="g1")
    assert {h for h, _ in hits} == {f"v{i}" for i in range(30) if i % 3 == 1}
    assert hits[0][0] == "v4"
    index.drop_group("ns", "g1")
    assert index.search("ns", query, 5, group="g1") == []
    assert index.count("ns") == 20
    assert all(int(h[1:]) % 3 != 1 for h, _ in index.search("ns", query, 30))
    assert index.search("ns", query, 5, group="unknown") == []


def test_namespaces_are_separate() -> None:
    index = NumpyVectorIndex()
    assert not index.has("a")
    assert index.search("a", np.ones(4), 3) == []
    index.upsert("a", ["x"], np.ones((1, 4)), ["g"])
    index.upsert("b", ["y"], np.ones((1, 2)), ["g"])  # dimensions are per namespace
    assert index.has("a") and index.has("b")
    assert index.search("a", np.ones(4), 3)[0][0] == "x"
    index.delete("a", ["x"])
    assert index.has("a")  # loaded, though empty now: the caller need not load it again
    assert index.search("a", np.ones(4), 3) == []
    index.drop("a")
    assert not index.has("a")


def test_rejects_mismatched_inputs() -> None:
    index = NumpyVectorIndex()
    index.upsert("ns", ["a"], np.ones((1, 4)), ["g"])
    with pytest.raises(ValueError):
        index.upsert("ns", ["b"], np.ones((1, 3)), ["g"])
    with pytest.raises(ValueError):
        index.upsert("ns", ["b", "c"], np.ones((1, 4)), ["g", "g"])
    with pytest.raises(ValueError):
        index.search("ns", np.ones(3), 1)
    assert index.search("ns", np.ones(4), 0) == []


def test_grows_past_its_initial_capacity() -> None:
    index = NumpyVectorIndex()
    vectors = unit(1000)
    for start in range(0, 1000, 7):  # many small upserts force repeated growth
        stop = min(start + 7, 1000)
        index.upsert("ns", [f"v{i}" for i in range(start, stop)], vectors[start:stop], ["g"] * (stop - start))
    assert index.count("ns") == 1000
    assert index.search("ns", vectors[777], 1)[0][0] == "v777"


def test_concurrent_writers_and_readers() -> None:
    index = NumpyVectorIndex()
    vectors = unit(2000)
    errors: list[BaseException] = []

    def write(part: int) -> None:
        try:
            for start in range(part * 500, part * 500 + 500, 50):
                ids = [f"v{i}" for i in range(start, start + 50)]
                index.upsert("ns", ids, vectors[start : start + 50], ["g"] * 50)
        except BaseException as exc:  # surfaced to the test below
            errors.append(exc)

    def read() -> None:
        try:
            for i in range(200):
                index.search("ns", vectors[i], 5)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(p,)) for p in range(4)] + [
        threading.Thread(target=read) for _ in range(2)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert index.count("ns") == 2000
    assert index.search("ns", vectors[1234], 1)[0][0] == "v1234"


def test_search_100k_by_384_is_fast() -> None:
    index = NumpyVectorIndex()
    rng = np.random.default_rng(7)
    vectors = rng.standard_normal((100_000, 384), dtype=np.float32)
    index.upsert("ns", [str(i) for i in range(100_000)], vectors, [f"g{i % 10}" for i in range(100_000)])
    queries = rng.standard_normal((20, 384), dtype=np.float32)
    index.search("ns", queries[0], 10)  # warm up
    timings = []
    for query in queries:
        start = time.perf_counter()
        index.search("ns", query, 10)
        timings.append(time.perf_counter() - start)
    assert float(np.median(timings)) < 0.1

"""Concurrent embedding calls share model runs, and each caller still gets its own vectors, in its own order."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import anyio.to_thread
import pytest

from avatar_service.adapters.embedding_batches import MAX_TEXTS, EmbeddingBatches


class Model:
    """Embeds a text as its own bytes; each run waits until the test lets it finish."""

    def __init__(self) -> None:
        self.runs: list[list[str]] = []
        self.go = threading.Event()
        self.fail_on: str | None = None

    def embed(self, texts: list[str]) -> list[bytes]:
        self.go.wait(5)
        self.runs.append(texts)
        if self.fail_on in texts:
            raise RuntimeError("the model failed")
        return [text.encode() for text in texts]


async def offload(fn: Callable[..., Any], *args: Any) -> Any:
    return await anyio.to_thread.run_sync(fn, *args)


async def until(condition: Callable[[], bool]) -> None:
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never happened")


async def test_a_lone_call_runs_at_once_and_calls_meanwhile_share_the_next_run() -> None:
    model = Model()
    batches = EmbeddingBatches(model.embed, offload)
    first = asyncio.create_task(batches.embed(["a"]))
    await asyncio.sleep(0.05)  # the first run is on the model, held there
    rest = [asyncio.create_task(batches.embed([f"q{i}", f"r{i}"])) for i in range(5)]
    await asyncio.sleep(0.05)
    model.go.set()
    assert await first == [b"a"]
    assert [await task for task in rest] == [[f"q{i}".encode(), f"r{i}".encode()] for i in range(5)]
    assert model.runs == [["a"], [text for i in range(5) for text in (f"q{i}", f"r{i}")]]
    assert (batches.runs, batches.texts) == (2, 11)


async def test_a_run_takes_at_most_max_texts_and_a_large_call_goes_alone() -> None:
    model = Model()
    batches = EmbeddingBatches(model.embed, offload)
    first = asyncio.create_task(batches.embed(["a"]))
    await asyncio.sleep(0.05)
    small = [asyncio.create_task(batches.embed([f"t{i}"])) for i in range(MAX_TEXTS + 3)]
    document = [f"chunk {i}" for i in range(MAX_TEXTS)]
    large = asyncio.create_task(batches.embed(document))
    await asyncio.sleep(0.05)
    model.go.set()
    await asyncio.gather(first, *small)
    assert await large == [text.encode() for text in document]
    assert sorted(len(run) for run in model.runs) == [1, 3, MAX_TEXTS, MAX_TEXTS]


async def test_a_failed_run_fails_its_callers_only_and_a_gone_caller_costs_nobody() -> None:
    model = Model()
    batches = EmbeddingBatches(model.embed, offload)
    model.fail_on = "bad"
    first = asyncio.create_task(batches.embed(["bad"]))
    await asyncio.sleep(0.05)
    gone = asyncio.create_task(batches.embed(["gone"]))
    kept = asyncio.create_task(batches.embed(["kept"]))
    await asyncio.sleep(0.05)
    gone.cancel()
    model.go.set()
    with pytest.raises(RuntimeError, match="the model failed"):
        await first
    assert await kept == [b"kept"]
    await until(lambda: len(model.runs) == 2)
    assert model.runs[1] == ["kept"]  # the cancelled caller's text was never embedded

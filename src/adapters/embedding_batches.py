"""Concurrent small embedding calls share one model run.

A question, a search or a new memory embeds one short text. Alone, MiniLM takes about 4.8 ms for it on this
machine's two cores; eight together take about 1.7 ms each, and the vectors are the same bit for bit (every
row is padded and masked on its own). So while one run is on the model, the texts that arrive wait for it
and then go together: under load the model does two to three times the work per core, and a lone caller
still runs at once, never waiting for a timer.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from avatar_service.ports.offload import Offload

MAX_TEXTS = 32  # one run's texts: past the embedder's own batch size a run buys nothing more


@dataclass
class _Queue:
    """One event loop's waiting texts and the task that feeds them to the model."""

    waiting: list[tuple[list[str], asyncio.Future[list[bytes]]]] = field(default_factory=list)
    runner: asyncio.Task[None] | None = None


class EmbeddingBatches:
    """`embed(texts)` as one awaitable per caller, one model run on a worker thread for many callers.

    A call with `MAX_TEXTS` texts or more (a document being ingested) is already a batch and runs directly.
    The queue is per event loop: a future belongs to the loop that made it (the embedded client may run
    one in another thread).
    """

    def __init__(self, embed: Callable[[list[str]], list[bytes]], offload: Offload) -> None:
        self._embed, self._offload = embed, offload
        self._queues: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Queue] = weakref.WeakKeyDictionary()
        self.runs = 0  # model runs made for queued texts, and the texts they took: texts / runs is the gain
        self.texts = 0

    async def embed(self, texts: Sequence[str]) -> list[bytes]:
        if len(texts) >= MAX_TEXTS:
            return await self._offload(self._embed, list(texts))
        loop = asyncio.get_running_loop()
        queue = self._queues.setdefault(loop, _Queue())
        done: asyncio.Future[list[bytes]] = loop.create_future()
        queue.waiting.append((list(texts), done))
        if queue.runner is None or queue.runner.done():
            # Not tied to any one request: a caller that goes away cancels only its own future.
            queue.runner = loop.create_task(self._run(queue))
        return await done

    async def _run(self, queue: _Queue) -> None:
        while queue.waiting:
            taken, size = 0, 0
            while taken < len(queue.waiting) and (taken == 0 or size + len(queue.waiting[taken][0]) <= MAX_TEXTS):
                size += len(queue.waiting[taken][0])
                taken += 1
            batch, queue.waiting[:taken] = queue.waiting[:taken], []
            batch = [(texts, done) for texts, done in batch if not done.done()]  # callers gone meanwhile
            if not batch:
                continue
            try:
                vectors = await self._offload(self._embed, [text for texts, _ in batch for text in texts])
            except Exception as error:  # each caller gets the model's error as its own
                for _, done in batch:
                    if not done.done():
                        done.set_exception(error)
                continue
            except BaseException:  # the loop is shutting down: nobody waits forever
                for _, done in batch + queue.waiting:
                    done.cancel()
                raise
            self.runs += 1
            self.texts += len(vectors)
            start = 0
            for texts, done in batch:
                if not done.done():
                    done.set_result(vectors[start:start + len(texts)])
                start += len(texts)

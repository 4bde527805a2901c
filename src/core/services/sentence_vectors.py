"""Sentence embeddings of knowledge, cached per process, so a turn embeds only the question.

The offline answerer ranks the sentences of the retrieved chunks. A chunk's own embedding says little about
which of its sentences answers ("how far can the electric one go?" against a paragraph about the fleet), but
embedding its sentences during a turn costs 4-13 ms each on this CPU. So they are embedded once: when a
knowledge item is processed in this process (`warm`, called by the knowledge job), or, for chunks this
process has not seen (ingested by another process, or evicted), in the background after the turn that first
retrieved them; that turn ranks those sentences by their chunk's relevance as before.

The cache is keyed by the embedder's name and the sentence text: equal sentences of two chunks share an
entry, and a sentence's vector never depends on the chunk it came from. It holds at most `CAPACITY`
sentences (about 1.5 KB each for MiniLM), dropping the least recently used.
"""

from __future__ import annotations

import array
import asyncio
import logging
import operator
import weakref
from collections import OrderedDict
from collections.abc import Iterable, Sequence

from avatar_service.core.text.sentences import answer_sentences
from avatar_service.ports.semantic import Semantic

log = logging.getLogger(__name__)
CAPACITY = 100_000
BATCH = 64  # sentences per embedding call while warming
BACKGROUND_LIMIT = 256  # sentences queued for background embedding at most; more wait for a later turn


class SentenceVectors:
    def __init__(self, semantic: Semantic, capacity: int = CAPACITY) -> None:
        self.semantic, self.capacity = semantic, capacity
        # The lexical fallback's hashed n-grams say nothing that the answerer's own word match does not (and
        # the answerer's similarity thresholds are MiniLM's): with it, sentences are judged by words alone.
        self.enabled = not semantic.embedder_name.startswith("lexical")
        self._vectors: OrderedDict[str, array.array[float]] = OrderedDict()
        self._pending: dict[str, None] = {}
        self._task: asyncio.Task[None] | None = None

    def __len__(self) -> int:
        return len(self._vectors)

    async def warm(self, chunks: Iterable[str]) -> None:
        """Embeds the sentences of these chunks that are not cached yet (batched, off the event loop)."""
        if not self.enabled:
            return
        missing = list(dict.fromkeys(s for chunk in chunks for s in answer_sentences(chunk)
                                     if s not in self._vectors))
        for start in range(0, len(missing), BATCH):
            batch = missing[start:start + BATCH]
            for sentence, vector in zip(batch, await self.semantic.embed(batch), strict=True):
                self._put(sentence, vector)

    def relevance(self, query: bytes, chunks: Sequence[str]) -> dict[str, float]:
        """Cosine of each cached sentence of these chunks to the query vector (clamped to 0..1); sentences
        not cached yet are left out and queued for background embedding."""
        if not self.enabled:
            return {}
        q = array.array("f", query)
        out: dict[str, float] = {}
        missing: list[str] = []
        for chunk in chunks:
            for sentence in answer_sentences(chunk):
                if sentence in out:
                    continue
                vector = self._vectors.get(sentence)
                if vector is None:
                    missing.append(sentence)
                    continue
                self._vectors.move_to_end(sentence)
                out[sentence] = max(0.0, min(1.0, sum(map(operator.mul, q, vector))))
        if missing:
            self._later(missing)
        return out

    def _put(self, sentence: str, vector: bytes) -> None:
        self._vectors[sentence] = array.array("f", vector)
        self._vectors.move_to_end(sentence)
        while len(self._vectors) > self.capacity:
            self._vectors.popitem(last=False)

    def _later(self, sentences: Sequence[str]) -> None:
        for sentence in sentences:
            if len(self._pending) < BACKGROUND_LIMIT:
                self._pending.setdefault(sentence, None)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        """One background task at a time embeds what turns found missing."""
        while self._pending:
            batch = list(self._pending)[:BATCH]
            try:
                vectors = await self.semantic.embed(batch)
            except Exception:  # an embedder failure costs this cache entries, never a turn
                log.exception("embedding %d knowledge sentences failed", len(batch))
                self._pending.clear()
                return
            for sentence, vector in zip(batch, vectors, strict=True):
                self._put(sentence, vector)
                self._pending.pop(sentence, None)

    async def settled(self) -> None:
        """Waits for the background embedding (tests, evaluations)."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)


_CACHES: weakref.WeakKeyDictionary[Semantic, SentenceVectors] = weakref.WeakKeyDictionary()


def sentence_vectors(semantic: Semantic) -> SentenceVectors:
    """This process's cache for one Semantic (the knowledge job warms it, the turns read it)."""
    cache = _CACHES.get(semantic)
    if cache is None:
        cache = _CACHES[semantic] = SentenceVectors(semantic)
    return cache

"""Embedder port: turns texts into unit-length float32 vectors for semantic search."""

from collections.abc import Sequence
from typing import Any, Protocol

# A 2-D float32 numpy array, one L2-normalised row per text. Typed loosely so the core
# stays free of numpy; adapters and the vector index own the array math.
Vectors = Any


class Embedder(Protocol):
    """Sync and CPU-bound: callers run it off the event loop (see adapters.offload)."""

    name: str  # engine name shown by /healthz, e.g. "minilm-l6-v2-int8" or "lexical-hash"
    dimensions: int

    def embed(self, texts: Sequence[str]) -> Vectors: ...

    def count_tokens(self, text: str) -> int:
        """Tokens of the embedder's own tokenizer (no truncation): chunk sizes are checked with it."""
        ...

    @property
    def max_tokens(self) -> int:
        """The model window in its own tokens; chunks must fit inside it."""
        ...

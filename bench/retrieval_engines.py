"""Retrieval engine figures: embedder throughput on ~1 MB of chunked text, vector index search latency.

Run: .venv/bin/python bench/retrieval_engines.py [--megabytes 1.0] [--sentences 2000]
The text is the docstrings of the standard library's modules (real English prose, on every machine).
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import sys
import sysconfig
import time
from pathlib import Path
from typing import Any

import numpy as np

from avatar_service.adapters.embedders.lexical import LexicalEmbedder
from avatar_service.adapters.embedders.minilm_onnx import MiniLMEmbedder
from avatar_service.adapters.numpy_index import NumpyVectorIndex
from avatar_service.core.knowledge.chunking import chunk_text


def corpus(megabytes: float) -> str:
    limit = int(megabytes * 1_000_000)
    parts: list[str] = []
    size = 0
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).rglob("*.py")):
        if "test" in path.parts or "site-packages" in path.parts:
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                doc = ast.get_docstring(node)
                if doc and len(doc) > 80:
                    parts.append(doc)
                    size += len(doc.encode()) + 2
                    if size >= limit:
                        return "\n\n".join(parts)
    return "\n\n".join(parts)


def bench_embedder(embedder: Any, text: str, sentences: list[str]) -> None:
    start = time.perf_counter()
    chunks = chunk_text(text, embedder.count_tokens, max_tokens=200, overlap_tokens=30)
    chunk_seconds = time.perf_counter() - start
    tokens = sum(c.token_count for c in chunks)
    embedder.embed([c.text for c in chunks[:8]])  # warm up
    start = time.perf_counter()
    embedder.embed([c.text for c in chunks])
    seconds = time.perf_counter() - start
    print(
        f"{embedder.name:18} chunking {len(text.encode()) / 1e6:.2f} MB -> {len(chunks)} chunks, "
        f"{tokens} tokens in {chunk_seconds:.2f} s; embedding {len(chunks) / seconds:7.1f} chunks/s, "
        f"{tokens / seconds:9.0f} tokens/s ({seconds:.1f} s)"
    )
    sentence_tokens = sum(embedder.count_tokens(s) for s in sentences)
    start = time.perf_counter()
    embedder.embed(sentences)
    seconds = time.perf_counter() - start
    print(
        f"{'':18} {len(sentences)} sentences (mean {sentence_tokens / len(sentences):.1f} tokens): "
        f"{len(sentences) / seconds:7.1f} sentences/s, {sentence_tokens / seconds:9.0f} tokens/s"
    )


def bench_index(sizes: list[int], queries: int = 200, dims: int = 384) -> None:
    rng = np.random.default_rng(0)
    for n in sizes:
        index = NumpyVectorIndex()
        vectors = rng.standard_normal((n, dims), dtype=np.float32)
        start = time.perf_counter()
        index.upsert("ns", [str(i) for i in range(n)], vectors, [f"g{i % 10}" for i in range(n)])
        load = time.perf_counter() - start
        probe = rng.standard_normal((queries, dims), dtype=np.float32)
        for group in (None, "g3"):
            index.search("ns", probe[0], 10, group=group)
            timings = []
            for query in probe:
                start = time.perf_counter()
                index.search("ns", query, 10, group=group)
                timings.append((time.perf_counter() - start) * 1000)
            p50, p99 = np.percentile(timings, [50, 99])
            label = "all" if group is None else "1 of 10 groups"
            print(f"index {n:>7} x {dims} k=10 {label:15} p50 {p50:7.3f} ms  p99 {p99:7.3f} ms  (upsert {load:.2f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=1.0)
    parser.add_argument("--sentences", type=int, default=2000)
    parser.add_argument("--threads", type=int, default=None, help="onnxruntime intra-op threads for MiniLM")
    args = parser.parse_args()
    text = corpus(args.megabytes)
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", text.replace("\n", " ")) if len(s.split()) >= 4]
    sentences = sentences[: args.sentences]
    # Figures from a shared machine mean little without its load: printed before each part.
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, {os.cpu_count()} cores")
    for embedder in (MiniLMEmbedder(threads=args.threads), LexicalEmbedder()):
        print(f"load average {os.getloadavg()[0]:.2f}")
        bench_embedder(embedder, text, sentences)
    print(f"load average {os.getloadavg()[0]:.2f}")
    bench_index([1_000, 10_000, 100_000])


if __name__ == "__main__":
    main()

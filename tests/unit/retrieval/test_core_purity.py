"""The retrieval parts of the core import only the standard library; the adapters fit their ports."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import avatar_service

CORE = Path(avatar_service.__file__).parent / "core"


@pytest.mark.parametrize("module", ["knowledge/chunking.py", "memory/extraction.py", "memory/dedup.py",
                                    "text/sentences.py", "text/lexicon.py", "text/follow_ups.py",
                                    "memory/rules.py", "memory/people.py", "memory/vocabulary.py", "memory/wording.py"])
def test_stdlib_only(module: str) -> None:
    tree = ast.parse((CORE / module).read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.module.startswith("avatar_service.core."):
            imported.add(node.module.split(".")[0])  # the core's own modules are checked on their own
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}, imported


def test_adapters_satisfy_their_ports(minilm: object, lexical: object) -> None:
    # Checked by mypy as much as here: the adapters are structurally the ports' Protocols.
    from avatar_service.adapters.embedders import LexicalEmbedder
    from avatar_service.adapters.embedders.minilm_onnx import MiniLMEmbedder
    from avatar_service.adapters.numpy_index import NumpyVectorIndex
    from avatar_service.ports.embedder import Embedder
    from avatar_service.ports.vector_index import VectorIndex

    assert isinstance(minilm, MiniLMEmbedder) and isinstance(lexical, LexicalEmbedder)
    embedders: list[Embedder] = [minilm, lexical]
    index: VectorIndex = NumpyVectorIndex()
    for embedder in embedders:
        assert embedder.dimensions == embedder.embed(["x"]).shape[1]
    assert index.search("nothing", [1.0], 1) == []

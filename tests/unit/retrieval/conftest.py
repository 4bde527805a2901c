"""Fixtures for the retrieval engine tests: both embedders (loaded once) and the labelled sets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from avatar_service.adapters.embedders.lexical import LexicalEmbedder
from avatar_service.adapters.embedders.minilm_onnx import MiniLMEmbedder

DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.fixture(scope="session")
def minilm() -> MiniLMEmbedder:
    # No skip: the model package is a dependency, and a missing model must fail loudly here.
    return MiniLMEmbedder()


@pytest.fixture(scope="session")
def lexical() -> LexicalEmbedder:
    return LexicalEmbedder()


@pytest.fixture(scope="session", params=["minilm", "lexical"])
def embedder(request: pytest.FixtureRequest) -> Any:
    return request.getfixturevalue(request.param)


@pytest.fixture(scope="session")
def retrieval_set() -> dict[str, Any]:
    return json.loads((DATA / "retrieval_set.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def extraction_set() -> dict[str, Any]:
    return json.loads((DATA / "extraction_set.json").read_text(encoding="utf-8"))

"""The retrieval parts of the core import nothing but the standard library (tokenizers are passed in)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import avatar_service

CORE = Path(avatar_service.__file__).parent / "core"


@pytest.mark.parametrize("module", ["knowledge/chunking.py", "memory/extraction.py", "memory/dedup.py"])
def test_stdlib_only(module: str) -> None:
    tree = ast.parse((CORE / module).read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}, imported

"""The core and the ports import no framework, driver, array library or outer layer (adapters, entrypoints):
stdlib, msgspec, chess, each other."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import avatar_service

SRC = Path(avatar_service.__file__).parent
CORE = SRC / "core"
PORTS = SRC / "ports"
BANNED = {
    "litestar",
    "sqlalchemy",
    "punq",
    "httpx",
    "aiosqlite",
    "asyncpg",
    "psycopg",
    "av",
    "aiortc",
    "procrastinate",
    "anyio",
    "numpy",
}
BANNED_PACKAGES = ("avatar_service.adapters", "avatar_service.entrypoints")
MODULES = sorted(CORE.rglob("*.py")) + sorted(PORTS.rglob("*.py"))


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(("avatar_service", *(parts[:-1] if parts[-1] == "__init__" else parts)))


def imports(source: str, name: str, is_package: bool = False) -> set[str]:
    """Every module `source` imports, relative imports resolved, dynamic imports of literal names included."""
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}  # `from pkg import module`
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) in {"import_module", "__import__"}
        ):
            found.add(node.args[0].value)
    return found


def banned(modules: set[str]) -> set[str]:
    return {
        m
        for m in modules
        if m.split(".")[0] in BANNED or any(m == p or m.startswith(p + ".") for p in BANNED_PACKAGES)
    }


def test_the_walk_covers_the_core_and_the_ports() -> None:
    names = {module_name(p) for p in MODULES}
    assert {
        "avatar_service.core.states",
        "avatar_service.core.services.conversations",
        "avatar_service.core.games.chess_game",
        "avatar_service.ports.storage",
        "avatar_service.ports.vector_index",
    } <= names


@pytest.mark.parametrize(
    "source, expected",
    [
        ("import numpy as np", {"numpy"}),
        ("from sqlalchemy.orm import Session", {"sqlalchemy.orm"}),
        ("from ...adapters import in_memory", {"avatar_service.adapters.in_memory"}),
        ("from avatar_service.entrypoints import bootstrap", {"avatar_service.entrypoints"}),
        ("import importlib\nimportlib.import_module('litestar')", {"litestar"}),
        ("import anyio.to_thread", {"anyio.to_thread"}),
    ],
)
def test_the_checker_catches_banned_imports(source: str, expected: set[str]) -> None:
    assert expected <= banned(imports(source, "avatar_service.core.services.example"))


def test_the_checker_allows_what_the_core_may_use() -> None:
    source = (
        "import chess\nimport msgspec\nfrom datetime import UTC\nfrom . import base\n"
        "from avatar_service.ports.storage import Storage\nfrom avatar_service.core.errors import Invalid"
    )
    assert banned(imports(source, "avatar_service.core.games.example")) == set()


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_core_and_port_modules_import_nothing_banned(path: Path) -> None:
    found = imports(path.read_text(encoding="utf-8"), module_name(path), path.name == "__init__.py")
    assert banned(found) == set(), f"{module_name(path)} imports {sorted(banned(found))}"

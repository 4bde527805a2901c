"""The image installs docker/runtime_requirements.py's cut of requirements.lock: it must hold everything the
installed service needs (its metadata's requirement closure) and none of the test tools."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
import sys
import tomllib
from pathlib import Path
from types import ModuleType

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[3]


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("runtime_requirements", ROOT / "docker" / "runtime_requirements.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def closure(distribution: str, extras: frozenset[str] = frozenset()) -> set[str]:
    """What pip would install for the distribution in this environment: its requirements, recursively, with the
    markers evaluated here (Linux, this Python) and the extras asked for."""
    seen: set[str] = set()
    todo = [(distribution, extras)]
    while todo:
        name, wanted = todo.pop()
        for text in importlib.metadata.requires(name) or []:
            requirement = Requirement(text)
            environments = [{"extra": extra} for extra in wanted] or [{"extra": ""}]
            if requirement.marker and not any(requirement.marker.evaluate(env) for env in environments):
                continue
            key = canonical(requirement.name)
            if key not in seen:
                seen.add(key)
                todo.append((requirement.name, frozenset(requirement.extras)))
    return seen


def test_the_runtime_cut_holds_what_the_service_needs_and_no_test_tool() -> None:
    runtime = script()
    locked = runtime.parse((ROOT / "requirements.lock").read_text())
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    kept = {package.name for package in runtime.runtime(locked, runtime.roots(pyproject, []))}
    needed = closure("avatar-service")
    assert needed <= kept, f"missing from the image: {sorted(needed - kept)}"
    for tool in ("pytest", "hypothesis", "moto", "playwright", "schemathesis", "mypy", "ruff", "testcontainers",
                 "boto3"):
        assert tool not in kept
    with_s3 = {package.name for package in runtime.runtime(locked, runtime.roots(pyproject, ["s3"]))}
    assert {"boto3", "botocore"} <= with_s3 and "pytest" not in with_s3
    for package in runtime.runtime(locked, runtime.roots(pyproject, [])):  # pip installs it with --require-hashes
        assert package.lines == locked[package.name].lines and "--hash=sha256:" in package.lines[-1]

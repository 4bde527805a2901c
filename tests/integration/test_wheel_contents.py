"""A wheel built from this tree carries every file of the package, its data files included: the MiniLM tokenizer
and its notice, the docs UI's assets, the room page, the migrations' template, the games' word list."""

from __future__ import annotations

import hashlib
import importlib.metadata
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from packaging.version import Version

from avatar_service.adapters.model_files import MINILM_TOKENIZER

ROOT = Path(__file__).resolve().parents[2]
DATA_FILES = (
    "adapters/embedders/minilm_tokenizer.json",
    "adapters/embedders/minilm_tokenizer_NOTICE.txt",
    "entrypoints/http/static/docs/scalar-api-reference.js",
    "entrypoints/http/static/docs/scalar-api-reference.NOTICE.txt",
    "entrypoints/http/static/docs/scalar.css",
    "entrypoints/http/static/room.html",
    "entrypoints/http/static/avatar-room.js",
    "entrypoints/http/static/favicon.svg",
    "entrypoints/http/static/favicon.ico",
    "adapters/sqlalchemy/migrations/script.py.mako",
    "core/games/words.txt",
    "py.typed",
)


def build_wheel(tmp_path: Path) -> tuple[Path, Path]:
    """The wheel of a copy of the tree (building in place would leave build/ and egg-info beside other work), and
    the copy's src/.

    With setuptools 77+ installed here (pyproject's SPDX `license` needs it) the build is offline and takes a
    few seconds; otherwise pip sets up its own build environment, fetching setuptools from the index (~7 s)."""
    project = tmp_path / "project"
    shutil.copytree(ROOT / "src", project / "src", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, project / name)
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "out")]
    try:
        offline = Version(importlib.metadata.version("setuptools")) >= Version("77")
    except importlib.metadata.PackageNotFoundError:
        offline = False
    if offline:
        command.append("--no-build-isolation")
    done = subprocess.run([*command, str(project)], capture_output=True, text=True, timeout=25)
    if done.returncode != 0 and not offline and "No matching distribution found for setuptools" in done.stderr:
        pytest.skip("no package index to fetch setuptools 77+ from, and this environment's setuptools is older")
    assert done.returncode == 0, done.stdout + done.stderr
    [wheel] = (tmp_path / "out").glob("avatar_service-*.whl")
    return wheel, project / "src"


@pytest.mark.slow
@pytest.mark.timeout(30)  # about 3 s offline, 7-15 s with a build environment from the index
def test_the_wheel_carries_the_data_files(tmp_path: Path) -> None:
    wheel, source = build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for relative in DATA_FILES:
            assert f"avatar_service/{relative}" in names, relative
        # every file of the package, whatever its kind: a data file added later without package-data fails here
        missing = sorted(str(path.relative_to(source)) for path in source.rglob("*")
                         if path.is_file() and "__pycache__" not in path.parts
                         and f"avatar_service/{path.relative_to(source).as_posix()}" not in names)
        assert missing == [], missing
        # the tokenizer shipped is the pinned one, and it is no empty stand-in
        shipped = archive.read("avatar_service/adapters/embedders/minilm_tokenizer.json")
        assert hashlib.sha256(shipped).hexdigest() == MINILM_TOKENIZER.sha256
        assert b"Apache" in archive.read("avatar_service/adapters/embedders/minilm_tokenizer_NOTICE.txt")
        metadata = next(name for name in names if name.endswith(".dist-info/METADATA"))
        assert "Requires-Dist: lxml_html_clean" in archive.read(metadata).decode()

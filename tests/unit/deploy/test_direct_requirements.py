"""Requirements the service declares itself because an older pip would not install them through an extra."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[3]


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_lxml_html_clean_is_a_direct_requirement_and_trafilatura_imports() -> None:
    """pip 23.2 (a new venv's on Debian) does not match jusText's `lxml[html_clean]` to lxml's `html-clean` extra,
    so lxml_html_clean was not installed and `import trafilatura` failed: every command exited 1. Declared directly,
    with no extra or marker, every pip installs it."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    installed = importlib.metadata.requires("avatar-service") or []
    for source, texts in (("pyproject.toml", declared), ("installed metadata", installed)):
        direct = [Requirement(text) for text in texts if canonical(Requirement(text).name) == "lxml-html-clean"]
        assert len(direct) == 1, f"lxml_html_clean is not a requirement of avatar-service in its {source}"
        assert not direct[0].extras and direct[0].marker is None, source
    assert re.search(r"^lxml-html-clean==\S+ \\$", (ROOT / "requirements.lock").read_text(), re.MULTILINE)
    assert importlib.metadata.version("lxml_html_clean")
    # a fresh interpreter, as `avatar` starts: the import chain trafilatura -> justext -> lxml.html.clean
    done = subprocess.run([sys.executable, "-c", "import trafilatura, lxml.html.clean, lxml_html_clean"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr

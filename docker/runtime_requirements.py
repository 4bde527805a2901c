"""Prints the part of requirements.lock the service needs at run time, hashes and all, for the image.

The lock pins the test tools too (`./dev lock` resolves with the `test` extra); the image wants none of them. Each
locked package says which packages pulled it in (uv's `# via` lines), so the run-time set is found by walking those
edges from pyproject.toml's `dependencies` (and any extras named): a package is kept when something kept needs it.
pip installs the result with --require-hashes, so a package missed here fails the build loudly, never silently.

    python docker/runtime_requirements.py requirements.lock pyproject.toml [--extra s3] > runtime.lock
"""

from __future__ import annotations

import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==")
NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
PROJECT = "avatar-service"


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass
class Locked:
    name: str
    lines: list[str] = field(default_factory=list)
    via: set[str] = field(default_factory=set)


def parse(lock: str) -> dict[str, Locked]:
    """The lock's packages: their lines as written, and who needs them."""
    found: dict[str, Locked] = {}
    current: Locked | None = None
    for line in lock.splitlines():
        if (pin := PIN.match(line)) is not None:
            current = found.setdefault(canonical(pin[1]), Locked(canonical(pin[1])))
            current.lines.append(line)
        elif current is not None and line.startswith("    ") and not line.lstrip().startswith("#"):
            current.lines.append(line)  # --hash continuation lines
        elif current is not None and line.lstrip().startswith("#"):
            text = line.lstrip()[1:].strip().removeprefix("via").strip()
            if text and (name := NAME.match(text)) is not None:
                current.via.add(canonical(name[1]))
    return found


def roots(pyproject: dict[str, object], extras: list[str]) -> set[str]:
    project = pyproject["project"]
    assert isinstance(project, dict)
    wanted = list(project["dependencies"])
    for extra in extras:
        wanted += project.get("optional-dependencies", {})[extra]
    return {canonical(match[1]) for spec in wanted if (match := NAME.match(spec)) is not None}


def runtime(locked: dict[str, Locked], wanted: set[str]) -> list[Locked]:
    keep = set(wanted)
    grew = True
    while grew:
        grew = False
        for package in locked.values():
            if package.name not in keep and package.via & keep:
                keep.add(package.name)
                grew = True
    missing = wanted - set(locked)
    if missing:
        raise SystemExit(f"not in the lock: {', '.join(sorted(missing))} (run ./dev lock)")
    return [package for name, package in sorted(locked.items()) if name in keep]


def main(argv: list[str]) -> int:
    extras = [argv[i + 1] for i, arg in enumerate(argv) if arg == "--extra"]
    lock_path, pyproject_path = (arg for i, arg in enumerate(argv) if arg != "--extra" and
                                 (i == 0 or argv[i - 1] != "--extra"))
    locked = parse(Path(lock_path).read_text())
    kept = runtime(locked, roots(tomllib.loads(Path(pyproject_path).read_text()), extras))
    print(f"# the run-time part of {lock_path} (docker/runtime_requirements.py): {len(kept)} of {len(locked)}")
    for package in kept:
        print("\n".join(package.lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
